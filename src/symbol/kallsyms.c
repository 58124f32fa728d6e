#include "symbol/kallsyms.h"

#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static int kept_type(char type)
{
	char t = (char)toupper((unsigned char)type);
	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

static int binding_of(char type)
{
	if (type == 'W' || type == 'w')
		return STB_WEAK;
	return isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
}

/* The whole file in one block (kallsyms is 5-10 MB of short lines; /proc files report
 * no size, so read until EOF).  NULL when *STOP was set meanwhile: the kernel takes
 * ~40 ms to produce /proc/kallsyms, so reads are bounded to keep giving up quick. */
static char *read_all(FILE *f, size_t *len, const atomic_int *stop)
{
	const size_t step = 256 << 10;
	size_t cap = 8 << 20, n = 0, r, want; /* pages are only faulted in as filled */
	char *buf = xmalloc_huge(cap + 1);

	for (;;) {
		if (stop && atomic_load_explicit(stop, memory_order_relaxed)) {
			free(buf);
			return NULL;
		}
		want = cap - n < step ? cap - n : step;
		if ((r = fread(buf + n, 1, want, f)) == 0)
			break;
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
			xalloc_advise_huge(buf, cap + 1);
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int kallsyms_load(struct kallsyms *k, const char *path)
{
	return kallsyms_load_stoppable(k, path, NULL);
}

int kallsyms_load_stoppable(struct kallsyms *k, const char *path, const atomic_int *stop)
{
	memset(k, 0, sizeof(*k));
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	size_t len;
	char *buf = read_all(f, &len, stop);
	fclose(f);
	if (!buf)
		return -1;
	/* Names and module names point into BUF, which the table then owns. */
	k->table.arena = buf;
	int any_nonzero = 0;
	/* one symbol per line at most: the arrays are sized once (growing them by copying
	 * touched every page twice) */
	size_t lines = 1;
	for (const char *nl = buf; (nl = memchr(nl, '\n', (size_t)(buf + len - nl))) != NULL; nl++)
		lines++;
	symbol_table_reserve(&k->table, lines);
	/* the module of each symbol, in insertion order */
	const char **mods = xmalloc_huge(lines * sizeof(*mods));
	size_t nmods = 0;

	for (char *line = buf, *next; line < buf + len; line = next) {
		char *eol = memchr(line, '\n', (size_t)(buf + len - line));
		if (!eol)
			eol = buf + len;
		*eol = '\0';
		next = eol + 1;
		/* "ADDR TYPE NAME[\t[MODULE]]"; anything else is skipped, as perf does */
		uint64_t addr = 0;
		char *p = line;
		int digits = 0, d;
		while ((d = hex_value(*p)) >= 0 && digits < 16) {
			addr = addr << 4 | (uint64_t)d;
			p++;
			digits++;
		}
		if (!digits || p[0] != ' ' || !p[1] || p[2] != ' ')
			continue;
		char type = p[1];
		char *name = p + 3;
		if (addr)
			any_nonzero = 1;
		if (!kept_type(type) || !*name)
			continue;
		const char *module = NULL;
		char *tab = strchr(name, '\t');
		if (tab) {
			*tab = '\0';
			char *m = tab + 1;
			if (*m == '[') {
				m++;
				char *close = strchr(m, ']');
				if (close)
					*close = '\0';
				module = m;
			}
		}
		/* ARM module-local mapping symbols */
		if (name[0] == '$')
			continue;
		symbol_table_add_borrowed(&k->table, addr, 0, binding_of(type), name);
		k->table.syms[k->table.nr - 1].kallsyms_module = module != NULL;
		mods[nmods++] = module; /* nmods < lines: one symbol per line */
	}
	if (!any_nonzero) {
		/* kptr_restrict: perf can name nothing in the kernel */
		k->restricted = 1;
		free(mods);
		symbol_table_release(&k->table);
		return 0;
	}
	/* Sorting moves symbols: carry the module name along via the insertion number. */
	symbol_table_finish(&k->table, 1);
	k->modules = xmalloc_huge((k->table.nr ? k->table.nr : 1) * sizeof(*k->modules));
	k->nr_modules = k->table.nr;
	for (size_t i = 0; i < k->table.nr; i++)
		k->modules[i] = mods[k->table.syms[i].order];
	free(mods);
	return 0;
}

const struct dso_symbol *kallsyms_find(struct kallsyms *k, const char *module, uint64_t addr)
{
	const struct dso_symbol *s = symbol_table_find(&k->table, addr);

	if (!s)
		return NULL;
	size_t i = (size_t)((const struct table_symbol *)s - k->table.syms);
	const char *m = k->modules[i];
	if ((m == NULL) != (module == NULL) || (m && strcmp(m, module) != 0))
		return NULL;
	return s;
}

void kallsyms_release(struct kallsyms *k)
{
	free(k->modules);
	symbol_table_release(&k->table);
	memset(k, 0, sizeof(*k));
}

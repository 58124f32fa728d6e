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

int kallsyms_load(struct kallsyms *k, const char *path)
{
	memset(k, 0, sizeof(*k));
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int any_nonzero = 0;
	/* module names per symbol, in insertion order; reordered after sorting */
	char **mods = NULL;
	size_t nmods = 0, capmods = 0;

	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		char *end;
		unsigned long long addr = strtoull(line, &end, 16);
		if (end == line || *end != ' ' || !end[1] || end[2] != ' ')
			continue;   /* malformed line: skip it, as perf does */
		char type = end[1];
		char *name = end + 3;
		if (addr)
			any_nonzero = 1;
		if (!kept_type(type) || !*name)
			continue;
		char *tab = strchr(name, '\t');
		char *module = NULL;
		if (tab) {
			*tab = '\0';
			char *m = tab + 1;
			if (*m == '[') {
				m++;
				char *close = strchr(m, ']');
				module = xstrndup(m, close ? (size_t)(close - m) : strlen(m));
			}
		}
		/* ARM module-local mapping symbols */
		if (name[0] == '$') {
			free(module);
			continue;
		}
		symbol_table_add(&k->table, addr, 0, binding_of(type), name);
		struct table_symbol *s = &k->table.syms[k->table.nr - 1];
		s->kallsyms_module = module != NULL;
		if (nmods == capmods) {
			capmods = capmods ? capmods * 2 : 1024;
			mods = xrealloc(mods, capmods * sizeof(*mods));
		}
		mods[nmods++] = module;
	}
	free(line);
	fclose(f);
	if (!any_nonzero) {
		/* kptr_restrict: perf can name nothing in the kernel */
		k->restricted = 1;
		for (size_t i = 0; i < nmods; i++)
			free(mods[i]);
		free(mods);
		symbol_table_release(&k->table);
		return 0;
	}
	/* Sorting moves symbols: carry the module name along via the order index. */
	symbol_table_finish(&k->table, 1);
	k->modules = xcalloc(k->table.nr ? k->table.nr : 1, sizeof(*k->modules));
	k->nr_modules = k->table.nr;
	for (size_t i = 0; i < k->table.nr; i++) {
		uint32_t o = k->table.syms[i].order;
		k->modules[i] = mods[o];
		mods[o] = NULL;
	}
	for (size_t i = 0; i < nmods; i++)
		free(mods[i]);
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
	for (size_t i = 0; i < k->nr_modules; i++)
		free(k->modules[i]);
	free(k->modules);
	symbol_table_release(&k->table);
	memset(k, 0, sizeof(*k));
}

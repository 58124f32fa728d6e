/* symbol_prefetch - objects loaded on the symbol store's worker thread
 * (symbol_store_prefetch) answer every lookup exactly as objects loaded on first use:
 * the same symbol names and offsets and the same inline chains over a sweep of
 * addresses of this test's own binary (built with -g, so it has DWARF); the store
 * reports loading until the worker is done; a store freed with work still queued
 * neither hangs nor leaks (ASan run). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "symbol/symbol_store.h"
#include "unit/check.h"

static void add_name(void *arg, const char *name, int inlined)
{
	strbuf_addf(arg, "%s%s|", name, inlined ? " (inlined)" : "");
}

/* Everything both stores say about ADDR, as text. */
static void describe(struct dso *d, uint64_t addr, struct strbuf *out)
{
	const struct dso_symbol *s = dso_find_symbol(d, addr);
	strbuf_reset(out);
	if (s)
		strbuf_addf(out, "%s+%llx:", s->name, (unsigned long long)(addr - s->start));
	dso_inline_chain(d, addr, add_name, out);
}

int main(void)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	CHECK(n > 0);
	if (n <= 0)
		return 1;
	self[n] = '\0';

	struct symbol_store *lazy = symbol_store_new(NULL), *early = symbol_store_new(NULL);
	struct dso *dl = symbol_store_dso(lazy, self, NULL, 0);
	struct dso *de = symbol_store_dso(early, self, NULL, 0);
	CHECK(!symbol_store_loading(early));
	symbol_store_prefetch(early, de, 1);
	symbol_store_prefetch(early, de, 1); /* asked twice: queued once */
	/* the lookups wait for the worker; afterwards nothing is loading */
	CHECK(dso_has_symbols(de));
	CHECK(!symbol_store_loading(early));

	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t named = 0, differ = 0;
	for (uint64_t addr = 0x1000; addr < 0x60000; addr += 37) {
		describe(dl, addr, &a);
		describe(de, addr, &b);
		named += a.len > 0;
		if (strcmp(a.buf ? a.buf : "", b.buf ? b.buf : "") != 0 && differ++ < 5)
			fprintf(stderr, "%#llx: lazy '%s' prefetched '%s'\n", (unsigned long long)addr,
				a.buf, b.buf);
	}
	CHECK(differ == 0);
	CHECK(named > 100); /* the sweep did name things */
	strbuf_release(&a);
	strbuf_release(&b);
	symbol_store_free(lazy);
	symbol_store_free(early);

	/* freed while the worker may still be loading */
	struct symbol_store *st = symbol_store_new(NULL);
	symbol_store_prefetch(st, symbol_store_dso(st, self, NULL, 0), 1);
	symbol_store_prefetch(st, symbol_store_dso(st, "/usr/bin/env", NULL, 0), 0);
	symbol_store_free(st);
	return failures != 0;
}

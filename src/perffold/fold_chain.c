/* fold_chain.c - a frame's functions as its DWARF nests them, for tephra's default
 * names (fold_run.h: fold_chain_read). */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "machine/machine.h"
#include "perffold/fold_run.h"
#include "symbol/symbol_store.h"

static void add_entry(void *arg, const char *name, int inlined, const char *srcline)
{
	struct fold_chain *c = arg;
	c->names = xrealloc(c->names, (c->n + 1) * sizeof(*c->names));
	c->inlined = xrealloc(c->inlined, c->n + 1);
	c->srclines = xrealloc(c->srclines, (c->n + 1) * sizeof(*c->srclines));
	c->names[c->n] = name ? xstrdup(name) : NULL;
	c->srclines[c->n] = xstrdup(srcline);
	c->inlined[c->n++] = (unsigned char)(inlined != 0);
}

size_t fold_chain_read(struct fold_chain *c, struct dso *d, uint64_t addr, const char *sym)
{
	memset(c, 0, sizeof(*c));
	dso_function_chain(d, addr, add_entry, c);
	if (!c->n)
		return 0;
	/* The outermost is the function the address is in: named by its ELF symbol, as
	 * every output names it (report's rows, frames without DWARF), where there is one */
	c->inlined[c->n - 1] = 0;
	if (sym || !c->names[c->n - 1]) {
		free((char *)c->names[c->n - 1]);
		c->names[c->n - 1] = sym ? xstrdup(sym) : NULL;
	}
	return c->n;
}

void fold_chain_release(struct fold_chain *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free((char *)c->names[i]);
		free((char *)c->srclines[i]);
	}
	free(c->names);
	free(c->srclines);
	free(c->inlined);
	memset(c, 0, sizeof(*c));
}

/* Whether frame I of ADDR_KEY[0..2N) (outermost first) is a return address: its
 * callee is a user frame (the first user frame under kernel ones is where the thread
 * was interrupted, as is the leaf). */
int fold_run_returns_to(struct fold_run *r, const uint64_t *addr_key, size_t n, size_t i)
{
	if (i + 1 >= n)
		return 0;
	uint64_t obj_id1 = addr_key[2 * (i + 1)] & ~FRAME_UNWOUND;
	if (!obj_id1)
		return !(addr_key[2 * (i + 1) + 1] >> 63);
	return !machine_object(r->session->machine, (uint32_t)(obj_id1 - 1))->kernel;
}

/* dso.c - the lookups in one dso: its symbols, inline chains and source lines (see
 * symbol_store.h), loaded on first use by symbol_store.c. */
#include "symbol/symbol_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "symbol/a2l.h"
#include "symbol/symbol_demangle.h"
#include "symbol/symbol_store_internal.h"

enum dso_kind dso_kind(const struct dso *d)
{
	return d->kind;
}

const char *dso_path(const struct dso *d)
{
	return d->path;
}

const char *dso_proc_root(const struct dso *d)
{
	return d->proc_root;
}

const uint8_t *dso_recorded_build_id(const struct dso *d, size_t *size)
{
	*size = d->key_build_id_size;
	return d->key_build_id_size ? d->key_build_id : NULL;
}

/* Every lookup first waits for the worker (dso_prefetch.h): then D is the caller's. */
static void load(struct dso *d)
{
	symbol_store_settle(d->store);
	symbol_store_load_now(d);
	symbol_store_warn_pending(d);
}

static struct a2l *dso_a2l(struct dso *d)
{
	symbol_store_settle(d->store);
	struct a2l *dl = symbol_store_a2l_now(d);
	symbol_store_warn_pending(d);
	return dl;
}

const char *dso_loaded_from(struct dso *d)
{
	load(d);
	return d->loaded_from;
}

const struct dso_symbol *dso_find_symbol(struct dso *d, uint64_t addr)
{
	load(d);
	if (d->kind == DSO_KERNEL || d->kind == DSO_MODULE) {
		if (!d->loaded_from)
			return NULL;
		return kallsyms_find(&d->store->kallsyms, d->module, addr);
	}
	return symbol_table_find(&d->table, addr);
}


struct inline_walk {
	struct dso *d;
	const char *base_name;
	dso_inline_cb cb;
	dso_inline_src_cb src_cb;
	void *arg;
};

/* perf's srcline_from_fileline: the file's last component (addr2line's "??" when
 * unknown), a colon, the line (0 when unknown). */
static char *srcline_text(const char *file, unsigned line)
{
	const char *f = file ? file : "??";
	const char *slash = strrchr(f, '/');
	if (slash)
		f = slash + 1;
	size_t n = strlen(f) + 16;
	char *s = xmalloc(n);
	snprintf(s, n, "%s:%u", f, line);
	return s;
}

static void inline_record_cb(void *arg, const char *raw, const char *file, unsigned line)
{
	struct inline_walk *w = arg;
	char *dem = w->d->table.demangle ? symbol_demangle(raw) : NULL;
	const char *name = dem ? dem : raw;
	int inlined = !(w->base_name && strcmp(name, w->base_name) == 0);

	if (w->src_cb) {
		char *src = srcline_text(file, line);
		w->src_cb(w->arg, name, inlined, src);
		free(src);
	} else {
		w->cb(w->arg, name, inlined);
	}
	free(dem);
}

static int inline_chain(struct dso *d, uint64_t addr, struct inline_walk *w)
{
	struct a2l *dl = dso_a2l(d);
	if (!dl)
		return 0;
	const struct dso_symbol *base = dso_find_symbol(d, addr);
	if (!base) /* perf expands only frames it has a symbol for */
		return 0;
	w->d = d;
	w->base_name = base->name;
	return a2l_inline_records(dl, addr + d->text_offset, inline_record_cb, w);
}

int dso_inline_chain(struct dso *d, uint64_t addr, dso_inline_cb cb, void *arg)
{
	struct inline_walk w = { .cb = cb, .arg = arg };
	return inline_chain(d, addr, &w);
}

int dso_inline_chain_srclines(struct dso *d, uint64_t addr, dso_inline_src_cb cb, void *arg)
{
	struct inline_walk w = { .src_cb = cb, .arg = arg };
	return inline_chain(d, addr, &w);
}

struct chain_walk {
	struct dso *d;
	uint64_t addr;
	int k;
	dso_inline_src_cb cb;
	void *arg;
};

static void chain_record_cb(void *arg, const char *name, const char *file, unsigned line)
{
	struct chain_walk *w = arg;
	if (w->k == 0 && dso_srcline(w->d, w->addr, &file, &line))
		file = NULL, line = 0;
	char *src = srcline_text(file, line);
	/* every entry but the outermost is inlined: the outermost comes last */
	w->cb(w->arg, name, 1, src);
	free(src);
	w->k++;
}

int dso_function_chain(struct dso *d, uint64_t addr, dso_inline_src_cb cb, void *arg)
{
	struct a2l *dl = dso_a2l(d);
	if (!dl)
		return 0;
	struct chain_walk w = { d, addr, 0, cb, arg };
	return a2l_function_chain(dl, addr + d->text_offset, chain_record_cb, &w);
}

int dso_frame_srcline(struct dso *d, uint64_t addr, char **text, uint64_t *file_addr)
{
	struct a2l *dl = dso_a2l(d);
	const char *file = NULL;
	unsigned line = 0;
	*text = NULL;
	*file_addr = addr + d->text_offset;
	if (!dl || !a2l_first_record(dl, addr + d->text_offset, &file, &line))
		return -1;
	char *s = srcline_text(file, line);
	if (strncmp(s, "??:0", 4) == 0) { /* perf's "unknown": nothing printed */
		free(s);
		return 0;
	}
	*text = s;
	return 1;
}

int dso_srcline(struct dso *d, uint64_t addr, const char **file, unsigned *line)
{
	struct a2l *dl = dso_a2l(d);
	if (!dl)
		return -1;
	return a2l_srcline(dl, addr + d->text_offset, file, line);
}

int dso_has_symbols(struct dso *d)
{
	load(d);
	if (d->kind == DSO_KERNEL || d->kind == DSO_MODULE)
		return d->loaded_from != NULL;
	return d->table.nr > 0;
}

int dso_build_id_mismatch(struct dso *d)
{
	load(d);
	return d->mismatch;
}

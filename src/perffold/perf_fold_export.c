/* perf_fold_export.c - a fold's frames described to the export sink (o->export): the
 * lines of each (object, address), with names, files and source lines; and, with
 * defer_export, the sink's calls logged while reading and replayed after it. */
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "export/export_sink.h"
#include "machine/machine.h"
#include "perffold/fold_run.h"
#include "session/frame_resolver.h"
#include "symbol/symbol_store.h"

/* defer_export's log: a record kind, then its words */
enum {
	EXPORT_LOG_FRAME,  /* name index */
	EXPORT_LOG_STACK,  /* stack index, root, n, n name indices */
};

static uint32_t *log_words(struct fold_run *r, size_t n)
{
	if (r->nr_export_log + n > r->cap_export_log) {
		while (r->nr_export_log + n > r->cap_export_log)
			r->cap_export_log = r->cap_export_log ? 2 * r->cap_export_log : 4096;
		r->export_log = xrealloc(r->export_log, r->cap_export_log * sizeof(*r->export_log));
	}
	uint32_t *w = r->export_log + r->nr_export_log;
	r->nr_export_log += n;
	return w;
}

void fold_run_export_thread(struct fold_run *r, uint32_t id, const struct thread *t)
{
	/* told at once, also with defer_export: a thread's comm goes in the string table
	 * then, before every frame's strings, whatever the symbol loading's timing (told
	 * in the log, their place among the frames followed when the naming ran) */
	const struct export_sink *x = r->o->export;
	if (x->thread)
		x->thread(x->ctx, id, t->pid, t->tid, t->comm);
}

void fold_run_export_stack(struct fold_run *r, size_t i, uint32_t root, const uint32_t *names,
			   size_t n)
{
	if (!r->defer_export) {
		r->o->export->stack(r->o->export->ctx, (uint32_t)i, root, names, n);
		return;
	}
	uint32_t *w = log_words(r, 4 + n);
	w[0] = EXPORT_LOG_STACK;
	w[1] = (uint32_t)i;
	w[2] = root;
	w[3] = (uint32_t)n;
	memcpy(w + 4, names, n * sizeof(*names));
}

/* dso_inline_chain_srclines callback: keeps the last (outermost) entry's line. */
static void outermost_srcline(void *arg, const char *name, int inlined, const char *srcline)
{
	char **keep = arg;
	(void)name, (void)inlined;
	free(*keep);
	*keep = xstrdup(srcline);
}

static void describe_frame(struct fold_run *r, size_t i, const struct frame *f,
			   const struct dso_symbol *sym, const char *const *names,
			   const char *const *srclines, size_t n_inl)
{
	size_t count = r->name_counts[i];
	struct export_line *lines = xcalloc(count ? count : 1, sizeof(*lines));
	char **owned = xcalloc(2 * (count ? count : 1), sizeof(*owned));
	struct export_frame ef = { f->addr, f->obj ? f->obj->name : NULL, NULL, 0, lines, count };
	int user = f->obj && f->obj->dso && !f->obj->kernel;
	char *outer = NULL; /* the outermost call site of an unexpanded inline chain */
	if (f->obj && f->obj->dso)
		ef.build_id = dso_recorded_build_id(f->obj->dso, &ef.build_id_size);
	for (size_t k = 0; k < count; k++) {
		uint32_t id = r->frame_ids[r->name_frames[i] + count - 1 - k];
		const char *name = fold_table_frame_name(r->table, id);
		size_t len = fold_table_frame_len(r->table, id);
		/* --inline's mark says what the line's position already says */
		if ((r->o->name_flags & FOLD_INLINED) && len > 4 && !strcmp(name + len - 4, "_[i]"))
			name = owned[2 * k] = xstrndup(name, len - 4);
		lines[k].name = name;
		const char *src = NULL, *own = NULL;
		if (n_inl == count) {
			lines[k].system_name = names[k];
			src = srclines[k];
		} else if (count == 1) {
			lines[k].system_name = sym ? sym->name : NULL;
			/* inlined calls not expanded: the address's line is an inlined
			 * function's (another file, say); the frame's own is the outermost
			 * call site, in its own source */
			if (n_inl > 1)
				own = srclines[n_inl - 1];
			else if (!n_inl && user &&
				 dso_inline_chain_srclines(f->obj->dso, f->addr, outermost_srcline,
							   &outer) > 1)
				own = outer;
		}
		const char *file;
		unsigned line;
		/* files by their last component, as perf prints the inline chain's callers:
		 * one function, one file name, whichever way its line was found; the
		 * innermost's from DWARF (perf's own text may name the unit's file) */
		if (own)
			src = own;
		else if (k == 0 && user && !dso_srcline(f->obj->dso, f->addr, &file, &line)) {
			lines[k].file = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
			lines[k].line = line;
			src = NULL;
		}
		if (src) {
			const char *colon = strrchr(src, ':');
			if (colon && strncmp(src, "??", 2)) {
				lines[k].file = owned[2 * k + 1] = xstrndup(src, (size_t)(colon - src));
				lines[k].line = (uint32_t)strtoul(colon + 1, NULL, 10);
			}
		}
	}
	struct strbuf function = STRBUF_INIT;
	if (n_inl && n_inl == count && sym) {
		fold_run_name_symbol(r, &function, sym->name, f->obj, f->addr, 0, 0);
		ef.function = function.buf;
	}
	r->o->export->frame(r->o->export->ctx, (uint32_t)i, &ef);
	strbuf_release(&function);
	free(outer);
	for (size_t k = 0; k < 2 * count; k++)
		free(owned[k]);
	free(owned);
	free(lines);
}

void fold_run_export_frame(struct fold_run *r, size_t i, const struct frame *f,
			   const struct dso_symbol *sym, const char *const *names,
			   const char *const *srclines, size_t n_inl)
{
	if (!r->defer_export) {
		describe_frame(r, i, f, sym, names, srclines, n_inl);
		return;
	}
	uint32_t *w = log_words(r, 2);
	w[0] = EXPORT_LOG_FRAME;
	w[1] = (uint32_t)i;
}

/* Tells the sink what defer_export logged, in the order logged; then frees the log. */
static void replay(struct fold_run *r)
{
	const struct export_sink *x = r->o->export;
	struct frame_resolver *fr = &r->session->resolver;
	for (size_t k = 0; k < r->nr_export_log;) {
		const uint32_t *w = r->export_log + k;
		if (w[0] == EXPORT_LOG_FRAME) {
			/* the frame again from its name's key: {object word, address, java} */
			const uint64_t *key = hashmap_entry(&r->names, w[1])->key;
			uint64_t obj_id1 = key[0] & ~FRAME_UNWOUND;
			struct frame f = { key[1], key[1], NULL, (key[0] & FRAME_UNWOUND) != 0 };
			if (obj_id1)
				f.obj = machine_object(r->session->machine, (uint32_t)(obj_id1 - 1));
			const char *const *names, *const *srclines;
			const unsigned char *inlined;
			size_t n_inl = frame_inlines_src(fr, &f, &names, &inlined, &srclines);
			describe_frame(r, w[1], &f, frame_symbol(fr, &f), names, srclines, n_inl);
			k += 2;
		} else {
			x->stack(x->ctx, w[1], w[2], w + 4, w[3]);
			k += 4 + w[3];
		}
	}
	free(r->export_log);
	r->export_log = NULL;
	r->nr_export_log = r->cap_export_log = 0;
}

uint64_t *fold_run_export_after_reading(struct fold_run *r)
{
	size_t n = hashmap_count(&r->stacks);
	uint64_t *weights = xmalloc((n ? n : 1) * sizeof(*weights));
	for (size_t i = 0; i < n; i++)
		weights[i] = hashmap_entry(&r->stacks, i)->value;
	hashmap_release(&r->stacks);
	hashmap_init(&r->stacks);
	fold_pending_release(&r->pending);
	replay(r);
	return weights;
}

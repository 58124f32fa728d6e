/* perf_fold_export.c - a fold's frames described to the export sink (o->export): the
 * lines of each (object, address), with names, files and source lines. */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "export/export_sink.h"
#include "perffold/fold_run.h"
#include "session/frame_resolver.h"
#include "symbol/symbol_store.h"

/* dso_inline_chain_srclines callback: keeps the last (outermost) entry's line. */
static void outermost_srcline(void *arg, const char *name, int inlined, const char *srcline)
{
	char **keep = arg;
	(void)name, (void)inlined;
	free(*keep);
	*keep = xstrdup(srcline);
}

void fold_run_export_frame(struct fold_run *r, size_t i, const struct frame *f,
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
	r->o->export->frame(r->o->export->ctx, (uint32_t)i, &ef);
	free(outer);
	for (size_t k = 0; k < 2 * count; k++)
		free(owned[k]);
	free(owned);
	free(lines);
}

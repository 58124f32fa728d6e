/* stack_quality.c - how good the call stacks are (see stack_quality.h). */
#include "quality/stack_quality.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "symbol/symbol_store.h"
#include "quality/unwind_quality.h"
#include "unwind/sample_unwind.h"

#define BRIEF_LISTED 3 /* objects named per line of the short block */
#define FULL_LISTED 8  /* ... and of the full section */

/* What was seen of one object (index: map_object id + 1; 0 = addresses in no mapping). */
struct seen_object {
	const struct map_object *obj; /* NULL for index 0 or an object never seen */
	uint64_t unknown;             /* [unknown] frames in it, over all samples */
	uint64_t broken;              /* frame-pointer chains broken after a frame in it */
};

/* A class's [unknown] frames in one object. */
struct unknown_entry {
	uint32_t cls;
	uint32_t object;  /* seen_object index */
	uint32_t n;
};

/* A class's frame-pointer facts (chain: a user stack the kernel walked by frame
 * pointers; every class: whether its outermost frame starts a thread). */
#define FP_CHAIN 1u   /* a user stack from a frame-pointer callchain */
#define FP_ROOT 2u    /* its outermost frame starts a thread */
#define FP_CUT 4u     /* cut at a frame limit */
#define FP_BROKEN 8u  /* the chain breaks: class_break names the object before it */
#define FP_USER 16u   /* has user frames (any recording) */

struct stack_quality {
	struct unwind_quality *walks;
	uint32_t *class_frames, *class_unknown;
	uint64_t *class_samples;
	uint8_t *class_fp;          /* FP_* */
	uint32_t *class_run;        /* its longest run of [unknown] user frames */
	uint32_t *class_break;      /* FP_BROKEN: seen_object index of the frame before */
	struct printed_frame *looked_up; /* stack_quality_stack's frames */
	size_t cap_looked_up;
	size_t nr_classes, cap_classes;
	struct unknown_entry *unknown;
	size_t nr_unknown, cap_unknown;
	struct seen_object *objects;
	size_t nr_objects;
	uint64_t nr_not_copied;     /* samples whose user stack the kernel could not copy */
};

struct stack_quality *stack_quality_new(void)
{
	struct stack_quality *q = xcalloc(1, sizeof(*q));
	q->walks = unwind_quality_new();
	return q;
}

void stack_quality_free(struct stack_quality *q)
{
	if (!q)
		return;
	unwind_quality_free(q->walks);
	free(q->class_frames);
	free(q->class_unknown);
	free(q->class_samples);
	free(q->class_fp);
	free(q->class_run);
	free(q->class_break);
	free(q->looked_up);
	free(q->unknown);
	free(q->objects);
	free(q);
}

void stack_quality_user_stack(struct stack_quality *q, const struct perf_event_desc *d,
			      const struct perf_sample *s, int unwound,
			      const struct unwind_result *res)
{
	if (unwound && res)
		unwind_quality_add(q->walks, res, s->user_stack_size);
	else if (!unwound && sample_lost_user_stack(d, s))
		q->nr_not_copied++;
}

int stack_quality_may_unwind(const struct perf_reader *reader)
{
	size_t n = perf_reader_nr_events(reader);
	if (!n)
		return 1;
	for (size_t i = 0; i < n; i++) {
		const struct perf_event_desc *d = perf_reader_event(reader, i);
		if (d && (d->attr.sample_type & PERF_ST_STACK_USER))
			return 1;
	}
	return 0;
}

int stack_quality_has_walks(const struct stack_quality *q)
{
	return unwind_quality_walks(q->walks) != 0;
}

static uint32_t see_object(struct stack_quality *q, const struct map_object *obj)
{
	size_t i = obj ? (size_t)obj->id + 1 : 0;
	if (i >= q->nr_objects) {
		size_t n = q->nr_objects ? q->nr_objects : 16;
		while (n <= i)
			n *= 2;
		q->objects = xrealloc(q->objects, n * sizeof(*q->objects));
		memset(q->objects + q->nr_objects, 0, (n - q->nr_objects) * sizeof(*q->objects));
		q->nr_objects = n;
	}
	q->objects[i].obj = obj;
	return (uint32_t)i;
}

static void add_unknown(struct stack_quality *q, uint32_t cls, uint32_t object)
{
	for (size_t i = q->nr_unknown; i-- > 0 && q->unknown[i].cls == cls;)
		if (q->unknown[i].object == object) {
			q->unknown[i].n++;
			return;
		}
	if (q->nr_unknown == q->cap_unknown) {
		q->cap_unknown = q->cap_unknown ? 2 * q->cap_unknown : 256;
		q->unknown = xrealloc(q->unknown, q->cap_unknown * sizeof(*q->unknown));
	}
	q->unknown[q->nr_unknown++] = (struct unknown_entry){ cls, object, 1 };
}

/* Room for one more class; returns its number. */
static uint32_t next_class(struct stack_quality *q)
{
	if (q->nr_classes == q->cap_classes) {
		q->cap_classes = q->cap_classes ? 2 * q->cap_classes : 1024;
		q->class_frames = xrealloc(q->class_frames, q->cap_classes * sizeof(*q->class_frames));
		q->class_unknown = xrealloc(q->class_unknown, q->cap_classes * sizeof(*q->class_unknown));
		q->class_samples = xrealloc(q->class_samples, q->cap_classes * sizeof(*q->class_samples));
		q->class_fp = xrealloc(q->class_fp, q->cap_classes * sizeof(*q->class_fp));
		q->class_run = xrealloc(q->class_run, q->cap_classes * sizeof(*q->class_run));
		q->class_break = xrealloc(q->class_break, q->cap_classes * sizeof(*q->class_break));
	}
	return (uint32_t)q->nr_classes;
}

/* x86-64's kernel half: a frame in no mapping there is the kernel's, not a user one */
#define KERNEL_HALF 0xffff800000000000ULL

static int user_frame(const struct frame *f)
{
	return f->obj ? !f->obj->kernel : f->addr < KERNEL_HALF;
}

/* A frame whose address lies in no object's code: a return address the walk made up
 * (a frame pointer that was not one), printed "[unknown] ([unknown])". */
static int made_up(const struct frame *f, const struct printed_frame *p)
{
	return p->unknown && (!f->obj || f->obj->identity);
}

/* The frame-pointer facts of class CLS (see FP_*). */
static void classify_chain(struct stack_quality *q, uint32_t cls, const struct frame *frames,
			   const struct printed_frame *printed, size_t n, unsigned flags)
{
	size_t first = 0, run = 0, longest = 0;
	while (first < n && !user_frame(&frames[first]))
		first++;
	unsigned fp = 0;
	q->class_break[cls] = 0;
	if (first < n) {
		fp |= FP_USER;
		/* or one frame past a root, where that frame has no name: the entry point
		 * of a stripped program (Debian's /usr/bin/xz: _start, unnamed, called
		 * __libc_start_main) */
		if (user_frame(&frames[n - 1]) &&
		    (printed[n - 1].root ||
		     (n - first >= 2 && printed[n - 1].unknown && printed[n - 2].root)))
			fp |= FP_ROOT;
		if (flags & STACK_QUALITY_CHAIN)
			fp |= FP_CHAIN;
		if (flags & STACK_QUALITY_CUT)
			fp |= FP_CUT;
	}
	for (size_t i = first; i < n; i++) {
		run = printed[i].unknown ? run + 1 : 0;
		if (run > longest)
			longest = run;
		/* the frame before a made-up one kept no frame pointer (its object was
		 * built without them): the walk read its caller's from a register that
		 * held something else */
		if ((fp & FP_CHAIN) && !(fp & FP_BROKEN) && made_up(&frames[i], &printed[i])) {
			fp |= FP_BROKEN;
			q->class_break[cls] = see_object(q, i > first ? frames[i - 1].obj : NULL);
		}
	}
	/* a walk that ended before a thread's start, not at a limit: the last frame's
	 * function left no frame pointer to follow */
	if ((fp & FP_CHAIN) && !(fp & (FP_BROKEN | FP_ROOT | FP_CUT))) {
		fp |= FP_BROKEN;
		q->class_break[cls] = see_object(q, frames[n - 1].obj);
	}
	q->class_fp[cls] = (uint8_t)fp;
	q->class_run[cls] = (uint32_t)longest;
}

int stack_quality_is_root(const char *name)
{
	static const char *const roots[] = {
		"_start", "__libc_start_main", "__libc_start_call_main", "_dl_start_user",
		"start_thread", "clone", "clone3", "__clone", "__clone3", "__clone_internal",
		"thread_start",
		/* Go: a goroutine's stack starts at goexit (its "caller" by construction), a
		 * new thread's in runtime.clone (the child's side calls mstart), the first
		 * thread's at rt0_go */
		"runtime.goexit", "runtime.goexit.abi0", "runtime.clone", "runtime.clone.abi0",
		"runtime.mstart", "runtime.mstart.abi0", "runtime.rt0_go", "runtime.rt0_go.abi0",
	};
	if (!name)
		return 0;
	/* a dynamic symbol keeps its version: "__libc_start_main@@GLIBC_2.34" */
	size_t len = strcspn(name, "@");
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (strlen(roots[i]) == len && !memcmp(name, roots[i], len))
			return 1;
	return 0;
}

unsigned stack_quality_chain_flags(const struct perf_event_desc *d, const struct perf_sample *s,
				   int unwound, size_t max_stack)
{
	/* a DWARF recording's kernel-walked chains hold no user frames (a sample whose
	 * stack was not copied has only its ip, not a frame-pointer chain) */
	if (unwound || !d || !(d->attr.sample_type & PERF_ST_CALLCHAIN) ||
	    (d->attr.sample_type & PERF_ST_STACK_USER))
		return 0;
	uint64_t frames = 0;
	for (uint64_t i = 0; i < s->nr_callchain; i++)
		frames += s->callchain[i] < PERF_CONTEXT_MAX;
	/* the kernel stores at most sample_max_stack entries (perf record sets it; 0:
	 * the sysctl, 127 unless changed); a stack that long was most likely cut */
	uint64_t limit = d->attr.sample_max_stack ? d->attr.sample_max_stack : 127;
	unsigned flags = STACK_QUALITY_CHAIN;
	if (frames >= limit || frames > max_stack)
		flags |= STACK_QUALITY_CUT;
	return flags;
}

static uint32_t end_class(struct stack_quality *q, uint32_t cls, uint32_t lines, uint32_t unknown)
{
	q->class_frames[cls] = lines;
	q->class_unknown[cls] = unknown;
	q->class_samples[cls] = 0;
	q->nr_classes++;
	return cls;
}

uint32_t stack_quality_stack(struct stack_quality *q, struct frame_resolver *fr,
			     const struct frame *frames, size_t n, unsigned flags)
{
	if (n > q->cap_looked_up) {
		q->cap_looked_up = n;
		q->looked_up = xrealloc(q->looked_up, n * sizeof(*q->looked_up));
	}
	for (size_t i = 0; i < n; i++) {
		const char *const *names;
		const unsigned char *inlined;
		size_t n_inl = frame_inlines(fr, &frames[i], &names, &inlined);
		const struct dso_symbol *sym = frame_symbol(fr, &frames[i]);
		int root = sym && stack_quality_is_root(sym->name);
		q->looked_up[i] = n_inl ? (struct printed_frame){ (uint32_t)n_inl, 0, (uint16_t)root }
					: (struct printed_frame){ 1, !sym, (uint16_t)root };
	}
	return stack_quality_stack_printed(q, frames, q->looked_up, n, flags);
}

uint32_t stack_quality_stack_printed(struct stack_quality *q, const struct frame *frames,
				     const struct printed_frame *printed, size_t n, unsigned flags)
{
	uint32_t cls = next_class(q);
	uint32_t lines = 0, unknown = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t object = see_object(q, frames[i].obj);
		lines += printed[i].lines;
		if (printed[i].unknown) {
			unknown++;
			add_unknown(q, cls, object);
		}
	}
	classify_chain(q, cls, frames, printed, n, flags);
	return end_class(q, cls, lines, unknown);
}

void stack_quality_count(struct stack_quality *q, uint32_t cls, uint64_t samples)
{
	q->class_samples[cls] += samples;
}

struct totals {
	uint64_t samples, frames, unknown;
	uint64_t user, rooted;                 /* samples with user frames; reaching a root */
	uint64_t chains, runs, cut, broken;    /* frame-pointer chains; with FP_* facts */
	uint32_t longest;                      /* the longest run of [unknown] frames */
};

/* Sums the classes, and each object's [unknown] frames and broken chains. */
static struct totals sum_up(const struct stack_quality *q)
{
	struct totals t = { 0 };
	for (size_t i = 0; i < q->nr_objects; i++)
		q->objects[i].unknown = q->objects[i].broken = 0;
	for (size_t c = 0; c < q->nr_classes; c++) {
		uint64_t n = q->class_samples[c];
		unsigned fp = q->class_fp[c];
		t.samples += n;
		t.frames += n * q->class_frames[c];
		t.unknown += n * q->class_unknown[c];
		if (!n || !(fp & FP_USER))
			continue;
		t.user += n;
		t.rooted += fp & FP_ROOT ? n : 0;
		if (!(fp & FP_CHAIN))
			continue;
		t.chains += n;
		t.cut += fp & FP_CUT ? n : 0;
		if (q->class_run[c] >= 2) {
			t.runs += n;
			if (q->class_run[c] > t.longest)
				t.longest = q->class_run[c];
		}
		if (fp & FP_BROKEN) {
			t.broken += n;
			q->objects[q->class_break[c]].broken += n;
		}
	}
	for (size_t i = 0; i < q->nr_unknown; i++) {
		const struct unknown_entry *e = &q->unknown[i];
		q->objects[e->object].unknown += (uint64_t)e->n * q->class_samples[e->cls];
	}
	return t;
}

static const char *object_name(const struct stack_quality *q, size_t i)
{
	return i == 0 || !q->objects[i].obj ? "(no mapping)" : q->objects[i].obj->name;
}

static uint64_t object_count(const struct stack_quality *q, size_t i, int broken)
{
	return broken ? q->objects[i].broken : q->objects[i].unknown;
}

struct sort_by {
	const struct stack_quality *q;
	int broken;
};

/* Object indexes by [unknown] frames (or broken chains), most first (ties: by name). */
static int by_count(const void *a, const void *b, void *arg)
{
	const struct sort_by *by = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	uint64_t nx = object_count(by->q, x, by->broken), ny = object_count(by->q, y, by->broken);
	if (nx != ny)
		return nx < ny ? 1 : -1;
	return strcmp(object_name(by->q, x), object_name(by->q, y));
}

/* ": name N, name N (and K more)" for the objects with [unknown] frames (BROKEN:
 * broken chains), most first, MAX named. */
static void print_objects(const struct stack_quality *q, int broken, size_t max, FILE *out)
{
	size_t n = 0;
	size_t *objs = xmalloc((q->nr_objects + 1) * sizeof(*objs));
	for (size_t i = 0; i < q->nr_objects; i++)
		if (object_count(q, i, broken))
			objs[n++] = i;
	struct sort_by by = { q, broken };
	qsort_r(objs, n, sizeof(*objs), by_count, &by);
	for (size_t i = 0; i < n && i < max; i++)
		fprintf(out, "%s%s %" PRIu64, i ? ", " : ": ", object_name(q, objs[i]),
			object_count(q, objs[i], broken));
	if (n > max)
		fprintf(out, " (and %zu more)", n - max);
	free(objs);
}

static int no_symbols(const struct map_object *obj)
{
	return obj && obj->dso && !dso_has_symbols(obj->dso);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* One line listing objects for which COND holds, with HINT; nothing when none. */
static void list_objects(const struct stack_quality *q, const char *what,
			 int (*cond)(const struct map_object *), const char *hint, size_t max,
			 FILE *out)
{
	size_t shown = 0, more = 0;
	for (size_t i = 1; i < q->nr_objects; i++) {
		const struct map_object *obj = q->objects[i].obj;
		if (!obj || obj->kernel || !cond(obj))
			continue;
		if (shown == max) {
			more++;
			continue;
		}
		fprintf(out, shown ? ", %s" : "  %s: %s", shown ? obj->name : what, obj->name);
		shown++;
	}
	if (!shown)
		return;
	if (more)
		fprintf(out, " (and %zu more)", more);
	fprintf(out, "\n    %s\n", hint);
}

static int build_id_mismatch(const struct map_object *obj)
{
	return obj->dso && dso_build_id_mismatch(obj->dso);
}

/* The frame-pointer lines: runs of [unknown], chains cut at a limit, where they break. */
static void print_chains(const struct totals *t, const struct stack_quality *q, size_t max,
			 FILE *out)
{
	fprintf(out, "  runs of [unknown] (2 or more in a row): %" PRIu64 " of %" PRIu64
		" user stacks (%.1f%%)", t->runs, t->chains, pct(t->runs, t->chains));
	if (t->runs)
		fprintf(out, ", the longest %" PRIu32 " frames", t->longest);
	fprintf(out, "\n  cut at the frame limit (the kernel's, or --max-stack): %" PRIu64 " of %"
		PRIu64 " user stacks (%.1f%%)\n", t->cut, t->chains, pct(t->cut, t->chains));
	fprintf(out, "  chain broken after a frame in: %" PRIu64 " of %" PRIu64 " user stacks (%.1f%%)",
		t->broken, t->chains, pct(t->broken, t->chains));
	print_objects(q, 1, max, out);
	fputc('\n', out);
	if (t->broken || t->runs || t->cut)
		fprintf(out, "    objects built without frame pointers break the chain: record with "
			"tephra record's default (DWARF), or perf record --call-graph dwarf\n");
}

static void print_common(const struct stack_quality *q, enum stack_quality_kind kind,
			 const struct perf_reader_stats *stats, size_t max, FILE *out)
{
	struct totals t = sum_up(q);
	uint64_t lost = stats ? perf_reader_stats_lost(stats) : 0;
	fprintf(out, "  samples: %" PRIu64 ", lost: %" PRIu64 "%s\n", t.samples, lost,
		lost ? " (perf record could not keep up: record with a lower -F or a larger -m)" : "");
	if (stats && stats->nr_samples_guest)
		fprintf(out, "  taken in a guest (perf kvm): %" PRIu64 " samples, left out as perf "
			"script and perf report leave them (--guest keeps them)\n",
			stats->nr_samples_guest);

	uint64_t walks = unwind_quality_walks(q->walks);
	uint64_t cut = unwind_quality_status_count(q->walks, UNWIND_STACK_CUT);
	if (walks)
		fprintf(out, "  cut short (stack dump full): %" PRIu64 " of %" PRIu64
			" user stacks (%.1f%%)", cut, walks, pct(cut, walks));
	if (cut) {
		uint64_t size = unwind_quality_suggested_dump(q->walks);
		if (unwind_quality_max_needed(q->walks) > UNWIND_MAX_PERF_DUMP)
			fprintf(out, "; they need more than perf can copy: record with "
				"--call-graph dwarf,%d, or -fno-omit-frame-pointer and --call-graph fp\n",
				UNWIND_MAX_PERF_DUMP);
		else
			fprintf(out, "; needed dump size: at least %" PRIu64 " (record with "
				"--call-graph dwarf,%" PRIu64 " or more)\n", size, size);
	} else if (walks) {
		fputc('\n', out);
	}
	if (q->nr_not_copied)
		fprintf(out, "  user stack not copied (the kernel could read none of it, e.g. a page "
			"not yet in memory): %" PRIu64 " samples, no frame unwound\n",
			q->nr_not_copied);

	fprintf(out, "  reach a thread root (_start, start_thread, clone...): %" PRIu64 " of %"
		PRIu64 " user stacks (%.1f%%)\n", t.rooted, t.user, pct(t.rooted, t.user));
	fprintf(out, "  [unknown] frames: %" PRIu64 " of %" PRIu64 " (%.1f%%)", t.unknown, t.frames,
		pct(t.unknown, t.frames));
	print_objects(q, 0, max, out);
	fputc('\n', out);
	if (kind == STACK_QUALITY_FP)
		print_chains(&t, q, max, out);

	list_objects(q, "no symbols", no_symbols,
		     "install their -dbg/-dbgsym packages (or do not strip them)", max, out);
	size_t shown = 0;
	const char *name;
	uint64_t nr;
	for (size_t i = 0; unwind_quality_no_cfi_object(q->walks, i, &name, &nr); i++) {
		if (i < max)
			fprintf(out, "%s%s (walks: %" PRIu64 ")", i ? ", " : "  no CFI (walks ended): ",
				name, nr);
		shown = i + 1;
	}
	if (shown > max)
		fprintf(out, " (and %zu more)", shown - max);
	if (shown)
		fprintf(out, "\n    install their -dbg/-dbgsym packages, or build with "
			     "-fno-omit-frame-pointer and record with --call-graph fp\n");
	shown = 0;
	for (size_t i = 0; unwind_quality_no_file_object(q->walks, i, &name, &nr); i++) {
		if (i < max)
			fprintf(out, "%s%s (walks: %" PRIu64 ")", i ? ", " : "  object missing or "
				"not the recorded one (walks end at its frame): ", name, nr);
		shown = i + 1;
	}
	if (shown > max)
		fprintf(out, " (and %zu more)", shown - max);
	if (shown)
		fprintf(out, "\n    without its CFI the caller is unknown: nothing is guessed (perf "
			     "stops there too); keep the recorded files (perf buildid-cache) or "
			     "profile again\n");
	list_objects(q, "build-id mismatch", build_id_mismatch,
		     "the files on disk are not the ones recorded: profile again, or "
		     "keep them in perf's build-id cache (perf buildid-cache)", max, out);
}

enum stack_quality_kind stack_quality_kind(const struct stack_quality *q, int compat)
{
	if (stack_quality_has_walks(q) || q->nr_not_copied)
		return STACK_QUALITY_DWARF;
	if (compat)
		return STACK_QUALITY_NONE;
	for (size_t c = 0; c < q->nr_classes; c++)
		if (q->class_samples[c] && (q->class_fp[c] & FP_CHAIN))
			return STACK_QUALITY_FP;
	return STACK_QUALITY_NONE;
}

void stack_quality_print_brief(const struct stack_quality *q, enum stack_quality_kind kind,
			       const char *who, const char *path,
			       const struct perf_reader_stats *stats, FILE *out)
{
	if (kind == STACK_QUALITY_NONE)
		return;
	fprintf(out, "%s: stack quality of %s (%s call graphs; -q: silent, "
		"tephra stat: in full)\n", who, path,
		kind == STACK_QUALITY_DWARF ? "DWARF" : "frame-pointer");
	print_common(q, kind, stats, BRIEF_LISTED, out);
}

void stack_quality_print_full(const struct stack_quality *q, enum stack_quality_kind kind,
			      const struct perf_reader_stats *stats, FILE *out)
{
	if (kind == STACK_QUALITY_NONE)
		return;
	fprintf(out, "stack quality%s:\n",
		kind == STACK_QUALITY_DWARF ? "" : " (frame-pointer call graphs)");
	print_common(q, kind, stats, FULL_LISTED, out);
	if (kind == STACK_QUALITY_DWARF)
		unwind_quality_print(q->walks, out);
}

void stack_quality_print_skipped(const struct symbol_store *store, FILE *out)
{
	const char *first;
	size_t n = store ? symbol_store_skipped_files(store, &first) : 0;
	if (!n)
		return;
	fprintf(out, "  objects whose file was not opened (not a regular file, or another "
		"user's map file): %zu, the first ", n);
	fputs_escaped(first, out);   /* a recorded path must not drive the terminal */
	fputc('\n', out);
}

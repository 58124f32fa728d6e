/* stack_quality.c - how good the call stacks are (see stack_quality.h). */
#include "quality/stack_quality.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "symbol/symbol_store.h"
#include "quality/unwind_quality.h"

#define BRIEF_LISTED 3 /* objects named per line of the short block */
#define FULL_LISTED 8  /* ... and of the full section */

/* What was seen of one object (index: map_object id + 1; 0 = addresses in no mapping). */
struct seen_object {
	const struct map_object *obj; /* NULL for index 0 or an object never seen */
	uint64_t unknown;             /* [unknown] frames in it, over all samples */
};

/* A class's [unknown] frames in one object. */
struct unknown_entry {
	uint32_t cls;
	uint32_t object;  /* seen_object index */
	uint32_t n;
};

struct stack_quality {
	struct unwind_quality *walks;
	uint32_t *class_frames, *class_unknown;
	uint64_t *class_samples;
	size_t nr_classes, cap_classes;
	struct unknown_entry *unknown;
	size_t nr_unknown, cap_unknown;
	struct seen_object *objects;
	size_t nr_objects;
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
	free(q->unknown);
	free(q->objects);
	free(q);
}

void stack_quality_walk(struct stack_quality *q, const struct unwind_result *res,
			uint64_t dump_size)
{
	if (res)
		unwind_quality_add(q->walks, res, dump_size);
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
	}
	return (uint32_t)q->nr_classes;
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
			     const struct frame *frames, size_t n)
{
	uint32_t cls = next_class(q);
	uint32_t lines = 0, unknown = 0;
	for (size_t i = 0; i < n; i++) {
		const char *const *names;
		const unsigned char *inlined;
		uint32_t object = see_object(q, frames[i].obj);
		size_t n_inl = frame_inlines(fr, &frames[i], &names, &inlined);
		if (n_inl) {
			lines += (uint32_t)n_inl;
			continue;
		}
		lines++;
		if (!frame_symbol(fr, &frames[i])) {
			unknown++;
			add_unknown(q, cls, object);
		}
	}
	return end_class(q, cls, lines, unknown);
}

uint32_t stack_quality_stack_printed(struct stack_quality *q, const struct frame *frames,
				     const struct printed_frame *printed, size_t n)
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
	return end_class(q, cls, lines, unknown);
}

void stack_quality_count(struct stack_quality *q, uint32_t cls, uint64_t samples)
{
	q->class_samples[cls] += samples;
}

struct totals {
	uint64_t samples, frames, unknown;
};

/* Sums the classes, and each object's [unknown] frames. */
static struct totals sum_up(const struct stack_quality *q)
{
	struct totals t = { 0, 0, 0 };
	for (size_t c = 0; c < q->nr_classes; c++) {
		t.samples += q->class_samples[c];
		t.frames += q->class_samples[c] * q->class_frames[c];
		t.unknown += q->class_samples[c] * q->class_unknown[c];
	}
	for (size_t i = 0; i < q->nr_objects; i++)
		q->objects[i].unknown = 0;
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

/* Object indexes by [unknown] frames, most first (ties: by name). */
static int by_unknown(const void *a, const void *b, void *arg)
{
	const struct stack_quality *sort_q = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	uint64_t nx = sort_q->objects[x].unknown, ny = sort_q->objects[y].unknown;
	if (nx != ny)
		return nx < ny ? 1 : -1;
	return strcmp(object_name(sort_q, x), object_name(sort_q, y));
}

/* The objects with [unknown] frames, sorted; returns their number. */
static size_t unknown_objects(const struct stack_quality *q, size_t **out)
{
	size_t n = 0;
	*out = xmalloc((q->nr_objects + 1) * sizeof(**out));
	for (size_t i = 0; i < q->nr_objects; i++)
		if (q->objects[i].unknown)
			(*out)[n++] = i;
	qsort_r(*out, n, sizeof(**out), by_unknown, (void *)q);
	return n;
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

static void print_common(const struct stack_quality *q, const struct perf_reader_stats *stats,
			 size_t max, FILE *out)
{
	struct totals t = sum_up(q);
	uint64_t lost = stats ? stats->nr_lost + stats->nr_lost_samples : 0;
	fprintf(out, "  samples: %" PRIu64 ", lost: %" PRIu64 "%s\n", t.samples, lost,
		lost ? " (perf record could not keep up: record with a lower -F or a larger -m)" : "");

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

	fprintf(out, "  [unknown] frames: %" PRIu64 " of %" PRIu64 " (%.1f%%)", t.unknown, t.frames,
		pct(t.unknown, t.frames));
	size_t *objs;
	size_t n = unknown_objects(q, &objs);
	for (size_t i = 0; i < n && i < max; i++)
		fprintf(out, "%s%s %" PRIu64, i ? ", " : ": ", object_name(q, objs[i]),
			q->objects[objs[i]].unknown);
	if (n > max)
		fprintf(out, " (and %zu more)", n - max);
	fputc('\n', out);
	free(objs);

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
	list_objects(q, "build-id mismatch", build_id_mismatch,
		     "the files on disk are not the ones recorded: profile again, or "
		     "keep them in perf's build-id cache (perf buildid-cache)", max, out);
}

void stack_quality_print_brief(const struct stack_quality *q, const char *who, const char *path,
			       const struct perf_reader_stats *stats, FILE *out)
{
	fprintf(out, "%s: stack quality of %s (DWARF call graphs; -q: silent, "
		"tephra stat: in full)\n", who, path);
	print_common(q, stats, BRIEF_LISTED, out);
}

void stack_quality_print_full(const struct stack_quality *q, const struct perf_reader_stats *stats,
			      FILE *out)
{
	fprintf(out, "stack quality:\n");
	print_common(q, stats, FULL_LISTED, out);
	unwind_quality_print(q->walks, out);
}

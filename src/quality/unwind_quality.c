/* unwind_quality.c - the DWARF-unwinding part of a stack-quality report. */
#include "quality/unwind_quality.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#define MAX_LISTED 8 /* objects listed under "no CFI" */

struct object_count {
	char *name;
	uint64_t n;
};

struct object_list {
	struct object_count *v;
	size_t nr, cap;
};

struct unwind_quality {
	uint64_t nr_walks;
	uint64_t nr_by_status[UNWIND_ERROR + 1];
	uint64_t max_needed;      /* largest stack_needed */
	uint64_t max_dump;        /* largest dump size seen on a cut-short walk */
	struct object_list no_cfi;  /* objects whose lack of CFI ended walks */
	struct object_list no_file; /* objects whose file was missing or not the recorded one */
};

struct unwind_quality *unwind_quality_new(void)
{
	return xcalloc(1, sizeof(struct unwind_quality));
}

void unwind_quality_free(struct unwind_quality *q)
{
	if (!q)
		return;
	for (size_t i = 0; i < q->no_cfi.nr; i++)
		free(q->no_cfi.v[i].name);
	for (size_t i = 0; i < q->no_file.nr; i++)
		free(q->no_file.v[i].name);
	free(q->no_cfi.v);
	free(q->no_file.v);
	free(q);
}

/* The object part of res->object ("path" or "path: why"). */
static void count_object(struct object_list *l, const char *object)
{
	size_t len = strcspn(object, ":");

	for (size_t i = 0; i < l->nr; i++)
		if (strlen(l->v[i].name) == len && !strncmp(l->v[i].name, object, len)) {
			l->v[i].n++;
			return;
		}
	if (l->nr == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->nr++] = (struct object_count){ xstrndup(object, len), 1 };
}

void unwind_quality_add(struct unwind_quality *q, const struct unwind_result *res,
			uint64_t dump_size)
{
	if ((unsigned)res->status > UNWIND_ERROR)
		return;
	q->nr_walks++;
	q->nr_by_status[res->status]++;
	if (res->status == UNWIND_STACK_CUT) {
		if (res->stack_needed > q->max_needed)
			q->max_needed = res->stack_needed;
		if (dump_size > q->max_dump)
			q->max_dump = dump_size;
	} else if (res->status == UNWIND_NO_CFI && res->object[0]) {
		count_object(&q->no_cfi, res->object);
	} else if (res->status == UNWIND_NO_FILE && res->object[0]) {
		count_object(&q->no_file, res->object);
	}
}

uint64_t unwind_quality_suggested_dump(const struct unwind_quality *q)
{
	uint64_t size;

	if (!q->max_needed)
		return 0;
	size = (q->max_needed + 4095) / 4096 * 4096;
	return size > UNWIND_MAX_PERF_DUMP ? UNWIND_MAX_PERF_DUMP : size;
}

uint64_t unwind_quality_walks(const struct unwind_quality *q)
{
	return q->nr_walks;
}

uint64_t unwind_quality_status_count(const struct unwind_quality *q, enum unwind_status status)
{
	return (unsigned)status > UNWIND_ERROR ? 0 : q->nr_by_status[status];
}

uint64_t unwind_quality_max_needed(const struct unwind_quality *q)
{
	return q->max_needed;
}

static int list_object(const struct object_list *l, size_t i, const char **name, uint64_t *n)
{
	if (i >= l->nr)
		return 0;
	*name = l->v[i].name;
	*n = l->v[i].n;
	return 1;
}

int unwind_quality_no_cfi_object(const struct unwind_quality *q, size_t i, const char **name,
				 uint64_t *n)
{
	return list_object(&q->no_cfi, i, name, n);
}

int unwind_quality_no_file_object(const struct unwind_quality *q, size_t i, const char **name,
				  uint64_t *n)
{
	return list_object(&q->no_file, i, name, n);
}

static int by_count(const void *a, const void *b)
{
	const struct object_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void print_list(const struct object_list *l, const char *heading, FILE *out)
{
	struct object_count *sorted;

	if (!l->nr)
		return;
	sorted = xmalloc(l->nr * sizeof(*sorted));
	memcpy(sorted, l->v, l->nr * sizeof(*sorted));
	qsort(sorted, l->nr, sizeof(*sorted), by_count);
	fprintf(out, "  %s:\n", heading);
	for (size_t i = 0; i < l->nr && i < MAX_LISTED; i++)
		fprintf(out, "    %10" PRIu64 "  %s\n", sorted[i].n, sorted[i].name);
	if (l->nr > MAX_LISTED)
		fprintf(out, "    (and %zu more objects)\n", l->nr - MAX_LISTED);
	free(sorted);
}

void unwind_quality_print(const struct unwind_quality *q, FILE *out)
{

	if (!q->nr_walks)
		return;
	fprintf(out, "user stacks unwound from DWARF CFI: %" PRIu64 "\n", q->nr_walks);
	for (int st = 0; st <= UNWIND_ERROR; st++) {
		uint64_t n = q->nr_by_status[st];

		if (!n)
			continue;
		fprintf(out, "  %-18s %10" PRIu64 " %6.1f%%", unwind_status_name((enum unwind_status)st),
			n, 100.0 * (double)n / (double)q->nr_walks);
		if (st == UNWIND_STACK_CUT)
			fprintf(out, "  (the walks wanted up to %" PRIu64 " bytes of a %" PRIu64
				"-byte dump)", q->max_needed, q->max_dump);
		fputc('\n', out);
	}
	print_list(&q->no_cfi, "walks ended for want of CFI in", out);
	print_list(&q->no_file, "walks ended at a frame whose object is missing or not the "
		   "recorded one (nothing guessed past it)", out);
	if (q->max_needed) {
		uint64_t size = unwind_quality_suggested_dump(q);

		if (q->max_needed > UNWIND_MAX_PERF_DUMP)
			fprintf(out, "  some stacks are deeper than perf can copy (%d bytes): "
				"record with --call-graph dwarf,%d and expect cut stacks\n",
				UNWIND_MAX_PERF_DUMP, UNWIND_MAX_PERF_DUMP);
		else
			fprintf(out, "  to get the cut stacks further, record with "
				"--call-graph dwarf,%" PRIu64 " (at least)\n", size);
	}
}

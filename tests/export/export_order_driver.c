/* export_order_driver.c - when `tephra export` loads the DWARF of a recording's source
 * lines: it folds PATH as cmd_export does (one root per thread, an export profile
 * keeping samples) and prints "samples N dwarf_after M dwarf_asked A located L": N
 * samples handed over, M of them before the first object's DWARF was opened (a2l_open,
 * wrapped: -Wl,--wrap=a2l_open; N when none was), A requests to load an object's DWARF
 * ahead on the store's worker (symbol_store_prefetch with DWARF, wrapped too), L frames
 * described with a source line.  tests/export/deferred-lines.test.sh. */
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "export/export_profile.h"
#include "perffold/perf_fold.h"
#include "symbol/symbol_store.h"

struct a2l;
struct a2l *__real_a2l_open(const char *path);
void __real_symbol_store_prefetch(struct symbol_store *store, struct dso *d, int dwarf);

static atomic_ulong samples_seen, dwarf_after = ULONG_MAX, dwarf_asked;

struct a2l *__wrap_a2l_open(const char *path)
{
	unsigned long none = ULONG_MAX;
	/* the object worker may open one too: the first caller's count stays */
	atomic_compare_exchange_strong(&dwarf_after, &none, atomic_load(&samples_seen));
	return __real_a2l_open(path);
}

void __wrap_symbol_store_prefetch(struct symbol_store *store, struct dso *d, int dwarf)
{
	if (dwarf)
		atomic_fetch_add(&dwarf_asked, 1);
	__real_symbol_store_prefetch(store, d, dwarf);
}

struct order {
	struct export_sink inner;
	unsigned long located;
};

static void on_event(void *ctx, const char *name)
{
	struct order *o = ctx;
	o->inner.event(o->inner.ctx, name);
}

static void on_thread(void *ctx, uint32_t id, int32_t pid, int32_t tid, const char *comm)
{
	struct order *o = ctx;
	o->inner.thread(o->inner.ctx, id, pid, tid, comm);
}

static void on_frame(void *ctx, uint32_t id, const struct export_frame *f)
{
	struct order *o = ctx;
	if (f->n_lines && f->lines[0].file && f->lines[0].line)
		o->located++;
	o->inner.frame(o->inner.ctx, id, f);
}

static void on_stack(void *ctx, uint32_t id, uint32_t thread, const uint32_t *frames, size_t n)
{
	struct order *o = ctx;
	o->inner.stack(o->inner.ctx, id, thread, frames, n);
}

static void on_stack_total(void *ctx, uint32_t id, uint64_t weight, uint64_t samples)
{
	struct order *o = ctx;
	o->inner.stack_total(o->inner.ctx, id, weight, samples);
}

static void on_sample(void *ctx, uint32_t stack, uint64_t weight, uint64_t time)
{
	struct order *o = ctx;
	atomic_fetch_add(&samples_seen, 1);
	o->inner.sample(o->inner.ctx, stack, weight, time);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: export_order_driver PERF.DATA\n");
		return 2;
	}
	struct export_profile *p = export_profile_new(1);
	struct order o = { export_profile_sink(p), 0 };
	struct export_sink sink = { on_event, on_thread, on_frame, on_stack, on_stack_total,
				    on_sample, &o };
	struct perf_fold_options fo = { 0 };
	fo.root = FOLD_ROOT_TID;
	fo.export = &sink;
	struct fold_table *t = fold_table_new();
	struct tephra_error err = { { 0 } };
	int rc = perf_fold_file(argv[1], &fo, t, &err);
	if (rc) {
		fprintf(stderr, "export_order_driver: %s\n", err.msg);
		return 1;
	}
	unsigned long n = atomic_load(&samples_seen), after = atomic_load(&dwarf_after);
	printf("samples %lu dwarf_after %lu dwarf_asked %lu located %lu\n", n,
	       after == ULONG_MAX ? n : after, atomic_load(&dwarf_asked), o.located);
	fold_table_free(t);
	export_profile_free(p);
	return 0;
}

/* unwind_dump_driver.c - build/unwind/unwind-dump: unwinds every sample of a DWARF-mode
 * perf.data with src/unwind and prints the user frames the way `perf script -F
 * tid,time,ip,dso --ns --no-inline` prints them (map-relative addresses; pc - 1 for
 * return addresses), so the tests in tests/unwind can diff the two sample by sample.
 *
 *   unwind-dump [--stats] [--quiet] [--fresh] [--libdwfl-only] [--max-stack N]
 *               [--module-budget N] [--stack-use] FILE
 *   unwind-dump --quality FILE
 *
 * Each sample is headed by "TID SECS.NSECS: STATUS", with " (read the last word of the
 * dump)" when the walk read the last 8 bytes of the copied stack, which perf 6.1 never
 * reads (docs/unwind.md: the oracle tests need to know).
 * --stack-use prints instead one line per sample, "TID SECS.NSECS STACK_USED DUMP STATUS":
 * how far into the dump (bytes from sp) the walk read, the valid dump size, and the
 * status with spaces as underscores (tests/unwind/perf_oracle_dump_ends makes samples
 * whose copy ends exactly there).
 *
 * --libdwfl-only turns the fast path (cached CFI rows) off: every frame goes through
 * libdwfl's unwinder; the output must not change.
 * --quality only prints the stack-quality section through unwind_stat.h (beside this file),
 * a second way of reading the file in one pass (it must equal what --stats prints).
 * --module-budget N lowers the number of module files kept open over all processes
 * (sample_unwinder_set_module_budget), to exercise eviction; the output must not change.
 * --fresh gives every sample a new unwinder (modules reported and CFI parsed again for
 * each sample, as perf's libdw path does): a benchmark baseline, same output.
 * --stats prints on stderr the stack-quality section (unwind_quality.h: walk outcomes,
 * objects without CFI, the dump size to record with) and the unwinding rate
 * (samples/second, timing only the unwinding); --quiet prints no frames (for benchmarks).
 * Not installed: the unwinder's test and benchmark harness (`tephra script` and `tephra
 * fold` unwind through perf_session, the same sample_unwind code). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "machine/machine.h"
#include "perfdata/perf_reader.h"
#include "unwind/sample_unwind.h"
#include "quality/unwind_quality.h"
#include "unwind_stat.h"

#define PERF_SCRIPT_CHAIN_MAX 127 /* kernel entries kept from the recorded chain */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	struct perf_reader *r;
	const struct perf_header_info *hdr;
	struct machine *machine;
	struct sample_unwinder *su;
	struct tephra_error err = { { 0 } };
	struct perf_event ev;
	int stats = 0, quiet = 0, fresh = 0, quality_only = 0, libdwfl_only = 0, stack_use = 0;
	int rc = 0;
	size_t max_stack = 127, module_budget = 0;
	const char *path = NULL;
	uint64_t *chain;
	struct unwind_quality *quality = unwind_quality_new();
	uint64_t nr_samples = 0, nr_frames = 0;
	double unwind_time = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--stats"))
			stats = 1;
		else if (!strcmp(argv[i], "--quiet"))
			quiet = 1;
		else if (!strcmp(argv[i], "--fresh"))
			fresh = 1;
		else if (!strcmp(argv[i], "--quality"))
			quality_only = 1;
		else if (!strcmp(argv[i], "--libdwfl-only"))
			libdwfl_only = 1;
		else if (!strcmp(argv[i], "--stack-use"))
			stack_use = 1;
		else if (!strcmp(argv[i], "--max-stack") && i + 1 < argc)
			max_stack = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--module-budget") && i + 1 < argc)
			module_budget = strtoul(argv[++i], NULL, 0);
		else
			path = argv[i];
	}
	if (!path || max_stack == 0 || max_stack > 4096) {
		fprintf(stderr, "usage: unwind-dump [--stats] [--quiet] [--fresh] [--libdwfl-only] [--max-stack N]\n"
			"                   [--module-budget N] [--stack-use] FILE\n"
			"       unwind-dump --quality FILE\n");
		return 2;
	}
	if (perf_reader_open(&r, path, NULL, &err) != 0) {
		fprintf(stderr, "unwind-dump: %s\n", err.msg);
		return 1;
	}
	hdr = perf_reader_header(r);
	if (quality_only) {
		struct unwind_stat_pass *pass = unwind_stat_pass_new(hdr);

		while (pass && (rc = perf_reader_next(r, &ev, &err)) == 1)
			unwind_stat_pass_event(pass, &ev);
		if (pass)
			unwind_stat_pass_print(pass, stdout);
		unwind_stat_pass_free(pass);
		unwind_quality_free(quality);
		perf_reader_close(r);
		return pass && rc < 0 ? 1 : 0;
	}
	machine = machine_new(NULL, hdr->build_ids, hdr->nr_build_ids);
	su = sample_unwinder_new(machine, hdr, NULL, &err);
	if (!su) {
		fprintf(stderr, "unwind-dump: %s: %s\n", path, err.msg);
		return 1;
	}
	if (module_budget)
		sample_unwinder_set_module_budget(su, module_budget);
	sample_unwinder_set_libdwfl_only(su, libdwfl_only);
	/* the recorded kernel chain (up to perf's 127), a marker, the user frames */
	chain = calloc(PERF_SCRIPT_CHAIN_MAX + 1 + max_stack, sizeof(*chain));
	if (!chain)
		abort();

	while ((rc = perf_reader_next(r, &ev, &err)) == 1) {
		const struct perf_sample *s = &ev.u.sample;
		const struct unwind_result *res;
		const struct thread *t;
		uint64_t dump;
		size_t n, i;
		double t0;

		if (ev.type != PERF_REC_SAMPLE) {
			machine_process_event(machine, &ev);
			continue;
		}
		if (!ev.desc || !(ev.desc->attr.sample_type & PERF_ST_REGS_USER))
			continue;
		if (!sample_has_user_stack(ev.desc, s)) {
			/* perf prints such a sample without user frames; so do we */
			if (!quiet)
				printf(stack_use ? "%u %" PRIu64 ".%09" PRIu64 " 0 0 no_stack_copied\n"
						 : "%u %" PRIu64 ".%09" PRIu64 ": no stack copied\n\n",
				       s->tid, s->time / 1000000000, s->time % 1000000000);
			continue;
		}
		t = machine_findnew_thread(machine, (int32_t)s->pid, (int32_t)s->tid);
		t0 = now();
		if (fresh) {
			/* the baseline: nothing survives from one sample to the next */
			sample_unwinder_free(su);
			su = sample_unwinder_new(machine, hdr, NULL, &err);
			if (module_budget)
				sample_unwinder_set_module_budget(su, module_budget);
			sample_unwinder_set_libdwfl_only(su, libdwfl_only);
		}
		n = sample_unwind_callchain(su, t, s, chain,
					    PERF_SCRIPT_CHAIN_MAX + 1 + max_stack, max_stack);
		unwind_time += now() - t0;
		res = sample_unwinder_last(su);
		unwind_quality_add(quality, res, s->user_stack_size);
		nr_samples++;
		nr_frames += res->nr_frames;
		dump = s->user_stack_dyn_size < s->user_stack_size ? s->user_stack_dyn_size
								    : s->user_stack_size;
		if (quiet)
			continue;
		if (stack_use) {
			printf("%u %" PRIu64 ".%09" PRIu64 " %" PRIu64 " %" PRIu64 " ", s->tid,
			       s->time / 1000000000, s->time % 1000000000, res->stack_used, dump);
			for (const char *c = unwind_status_name(res->status); *c; c++)
				putchar(*c == ' ' ? '_' : *c);
			putchar('\n');
			continue;
		}
		printf("%u %" PRIu64 ".%09" PRIu64 ": %s", s->tid, s->time / 1000000000,
		       s->time % 1000000000, unwind_status_name(res->status));
		if (res->status == UNWIND_STACK_CUT || res->status == UNWIND_STACK_PARTIAL)
			printf(" (needed %" PRIu64 " bytes of stack)", res->stack_needed);
		else if (res->status == UNWIND_NO_CFI)
			printf(" (%s: %s)", res->object, res->detail);
		else if (res->status == UNWIND_NO_FILE)
			printf(" (%s)", res->object);
		else if (res->status == UNWIND_ERROR)
			printf(" (%s)", res->detail);
		if (res->stack_used && res->stack_used == dump)
			printf(" (read the last word of the dump)");
		putchar('\n');
		/* the user part: what follows the last PERF_CONTEXT_USER */
		for (i = n; i > 0 && chain[i - 1] != PERF_CONTEXT_USER; i--)
			;
		for (; i > 0 && i < n; i++) {
			const struct map_entry *e =
				machine_find_map(machine, t, PERF_MISC_USER, chain[i]);

			printf("\t%16" PRIx64 " (%s)\n", e ? map_entry_map_ip(e, chain[i]) : chain[i],
			       e ? e->obj->name : "unknown");
		}
		putchar('\n');
	}
	if (rc < 0)
		fprintf(stderr, "unwind-dump: %s\n", err.msg);
	if (stats) {
		struct unwinder_stats st;
		size_t nr_procs;

		sample_unwinder_stats(su, &st, &nr_procs);
		fprintf(stderr, "samples %" PRIu64 ", frames %" PRIu64 ", processes %zu\n",
			nr_samples, nr_frames, nr_procs);
		unwind_quality_print(quality, stderr);
		fprintf(stderr, "modules reported %" PRIu64 ", sessions rebuilt %" PRIu64
			", walks on cached CFI rows alone %" PRIu64 "\n",
			st.nr_modules_reported, st.nr_dwfl_rebuilds, st.nr_fast_walks);
		fprintf(stderr, "unwind time %.3f s, %.0f samples/s\n", unwind_time,
			unwind_time > 0 ? nr_samples / unwind_time : 0.0);
	}
	sample_unwinder_free(su);
	unwind_quality_free(quality);
	free(chain);
	machine_free(machine);
	perf_reader_close(r);
	return rc < 0 ? 1 : 0;
}

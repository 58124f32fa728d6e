/* unwind_dump_driver.c - build/unwind/unwind-dump: unwinds every sample of a DWARF-mode
 * perf.data with src/unwind and prints the user frames the way `perf script -F
 * tid,time,ip,dso --ns --no-inline` prints them (map-relative addresses; pc - 1 for
 * return addresses), so the tests in tests/unwind can diff the two sample by sample.
 *
 *   unwind-dump [--stats] [--quiet] [--fresh] [--max-stack N] FILE
 *
 * --fresh gives every sample a new unwinder (modules reported and CFI parsed again for
 * each sample, as perf's libdw path does): a benchmark baseline, same output.
 * --stats prints on stderr the walk outcomes and the unwinding rate (samples/second,
 * timing only dwarf_unwind_sample); --quiet prints no frames (for benchmarks).
 * Not installed: it is the test and benchmark harness of the unwinder, until `tephra
 * script` calls it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "machine/machine.h"
#include "perfdata/perf_record_reader.h"
#include "unwind/dwarf_unwind.h"

struct process_unwinder {
	int32_t pid;
	struct dwarf_unwinder *u;
};

struct dump {
	struct machine *machine;
	const struct perf_header_info *hdr;
	enum unwind_arch arch;
	struct process_unwinder *procs;
	size_t nr_procs, cap_procs;
	const struct thread *cur_thread; /* the thread of the sample being unwound */
};

/* The build-id the header recorded for an object name (needed for [vdso], whose copy is
 * only in perf's build-id cache). */
static const struct perf_build_id_entry *header_build_id(const struct perf_header_info *h,
							 const char *name)
{
	for (size_t i = 0; i < h->nr_build_ids; i++)
		if (h->build_ids[i].path && !strcmp(h->build_ids[i].path, name))
			return &h->build_ids[i];
	return NULL;
}

static int find_map(void *arg, uint64_t addr, struct unwind_map *out)
{
	struct dump *d = arg;
	const struct map_entry *e =
		machine_find_map(d->machine, d->cur_thread, PERF_MISC_USER, addr);
	const struct perf_build_id_entry *b;

	if (!e)
		return 0;
	out->path = e->obj->name;
	out->start = e->start;
	out->end = e->end;
	out->pgoff = e->pgoff;
	b = header_build_id(d->hdr, e->obj->name);
	out->build_id = b ? b->build_id : NULL;
	out->build_id_size = b ? b->size : 0;
	return 1;
}

static struct dwarf_unwinder *unwinder_for(struct dump *d, int32_t pid)
{
	struct dwarf_unwind_options opts = {
		.arch = d->arch, .find_map = find_map, .find_map_arg = d,
	};
	struct tephra_error err;

	for (size_t i = 0; i < d->nr_procs; i++)
		if (d->procs[i].pid == pid)
			return d->procs[i].u;
	if (d->nr_procs == d->cap_procs) {
		d->cap_procs = d->cap_procs ? 2 * d->cap_procs : 16;
		d->procs = realloc(d->procs, d->cap_procs * sizeof(*d->procs));
		if (!d->procs)
			abort();
	}
	d->procs[d->nr_procs].pid = pid;
	d->procs[d->nr_procs].u = dwarf_unwinder_new(&opts, &err);
	if (!d->procs[d->nr_procs].u) {
		fprintf(stderr, "unwind-dump: %s\n", err.msg);
		exit(2);
	}
	return d->procs[d->nr_procs++].u;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	struct dump d = { 0 };
	struct perf_reader *r;
	struct tephra_error err = { { 0 } };
	struct perf_event ev;
	int stats = 0, quiet = 0, fresh = 0, rc;
	size_t max_stack = 127;
	const char *path = NULL;
	struct unwind_frame *frames;
	uint64_t nr_samples = 0, nr_frames = 0, by_status[UNWIND_ERROR + 1] = { 0 };
	uint64_t max_needed = 0;
	double unwind_time = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--stats"))
			stats = 1;
		else if (!strcmp(argv[i], "--quiet"))
			quiet = 1;
		else if (!strcmp(argv[i], "--fresh"))
			fresh = 1;
		else if (!strcmp(argv[i], "--max-stack") && i + 1 < argc)
			max_stack = strtoul(argv[++i], NULL, 0);
		else
			path = argv[i];
	}
	if (!path || max_stack == 0) {
		fprintf(stderr, "usage: unwind-dump [--stats] [--quiet] [--fresh] [--max-stack N] FILE\n");
		return 2;
	}
	if (perf_reader_open(&r, path, NULL, &err) != 0) {
		fprintf(stderr, "unwind-dump: %s\n", err.msg);
		return 1;
	}
	d.hdr = perf_reader_header(r);
	if (unwind_arch_from_name(d.hdr->arch, &d.arch) != 0) {
		fprintf(stderr, "unwind-dump: %s: architecture %s is not supported\n", path,
			d.hdr->arch ? d.hdr->arch : "(none recorded)");
		return 1;
	}
	d.machine = machine_new(NULL, d.hdr->build_ids, d.hdr->nr_build_ids);
	frames = calloc(max_stack, sizeof(*frames));
	if (!frames)
		abort();

	while ((rc = perf_reader_next(r, &ev, &err)) == 1) {
		const struct perf_sample *s = &ev.u.sample;
		struct unwind_result res = { .frames = frames, .max_frames = max_stack };
		struct unwind_sample_regs regs;
		double t0;

		if (ev.type != PERF_REC_SAMPLE) {
			machine_process_event(d.machine, &ev);
			continue;
		}
		if (!ev.desc || !(ev.desc->attr.sample_type & PERF_ST_REGS_USER))
			continue;
		d.cur_thread = machine_findnew_thread(d.machine, (int32_t)s->pid, (int32_t)s->tid);
		regs = (struct unwind_sample_regs){
			.tid = s->tid,
			.abi = s->user_regs_abi,
			.regs_mask = s->user_regs_mask,
			.regs = s->user_regs,
			.stack = s->user_stack,
			.stack_size = s->user_stack_size,
			.stack_dyn_size = s->user_stack_dyn_size,
		};
		t0 = now();
		if (fresh) {
			/* the baseline: nothing survives from one sample to the next */
			for (size_t i = 0; i < d.nr_procs; i++)
				dwarf_unwinder_free(d.procs[i].u);
			d.nr_procs = 0;
		}
		dwarf_unwind_sample(unwinder_for(&d, (int32_t)s->pid), &regs, &res);
		unwind_time += now() - t0;
		nr_samples++;
		nr_frames += res.nr_frames;
		by_status[res.status]++;
		if (res.stack_needed > max_needed)
			max_needed = res.stack_needed;
		if (quiet)
			continue;
		printf("%u %" PRIu64 ".%09" PRIu64 ": %s", s->tid, s->time / 1000000000,
		       s->time % 1000000000, unwind_status_name(res.status));
		if (res.status == UNWIND_STACK_CUT)
			printf(" (needed %" PRIu64 " bytes of stack)", res.stack_needed);
		else if (res.status == UNWIND_NO_CFI)
			printf(" (%s: %s)", res.object, res.detail);
		else if (res.status == UNWIND_ERROR)
			printf(" (%s)", res.detail);
		putchar('\n');
		for (size_t i = 0; i < res.nr_frames; i++) {
			uint64_t pc = unwind_frame_lookup_pc(&frames[i]);
			const struct map_entry *e =
				machine_find_map(d.machine, d.cur_thread, PERF_MISC_USER, pc);

			printf("\t%16" PRIx64 " (%s)\n", e ? map_entry_map_ip(e, pc) : pc,
			       e ? e->obj->name : "unknown");
		}
		putchar('\n');
	}
	if (rc < 0)
		fprintf(stderr, "unwind-dump: %s\n", err.msg);
	if (stats) {
		fprintf(stderr, "samples %" PRIu64 ", frames %" PRIu64 ", processes %zu\n",
			nr_samples, nr_frames, d.nr_procs);
		for (int st = 0; st <= UNWIND_ERROR; st++)
			if (by_status[st])
				fprintf(stderr, "  %-16s %" PRIu64 "\n",
					unwind_status_name((enum unwind_status)st), by_status[st]);
		{
			uint64_t reported = 0, rebuilds = 0;

			for (size_t i = 0; i < d.nr_procs; i++) {
				reported += dwarf_unwinder_stats(d.procs[i].u)->nr_modules_reported;
				rebuilds += dwarf_unwinder_stats(d.procs[i].u)->nr_dwfl_rebuilds;
			}
			fprintf(stderr, "  modules reported %" PRIu64 ", sessions rebuilt %" PRIu64 "\n",
				reported, rebuilds);
		}
		if (max_needed)
			fprintf(stderr, "  largest stack needed: %" PRIu64 " bytes\n", max_needed);
		fprintf(stderr, "unwind time %.3f s, %.0f samples/s\n", unwind_time,
			unwind_time > 0 ? nr_samples / unwind_time : 0.0);
	}
	for (size_t i = 0; i < d.nr_procs; i++)
		dwarf_unwinder_free(d.procs[i].u);
	free(d.procs);
	free(frames);
	machine_free(d.machine);
	perf_reader_close(r);
	return rc < 0 ? 1 : 0;
}

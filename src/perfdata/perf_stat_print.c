/* perf_stat_print.c - see perf_stat_print.h. */
#include "perfdata/perf_stat_print.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static void print_str(FILE *f, const char *label, const char *value)
{
	if (value)
		fprintf(f, "# %s : %s\n", label, value);
}

void perf_stat_print_header(FILE *f, const struct perf_reader *r)
{
	const struct perf_header_info *h = perf_reader_header(r);
	char buf[512];

	if (h->directory)
		fprintf(f, "# mode : directory (%u data files)\n", h->nr_data_files);
	else
		fprintf(f, "# mode : %s\n", h->pipe_mode ? "pipe" : "file");
	if (!h->pipe_mode) {
		fprintf(f, "# data offset : %" PRIu64 "\n", h->data_offset);
		fprintf(f, "# data size : %" PRIu64 "%s\n", h->data_size, h->unfinished ?
			" (perf record did not finish: the file holds no usable data)" : "");
		fprintf(f, "# feat offset : %" PRIu64 "\n", h->feat_offset);
	}
	print_str(f, "hostname", h->hostname);
	print_str(f, "os release", h->osrelease);
	print_str(f, "perf version", h->version);
	print_str(f, "arch", h->arch);
	if (h->nr_cpus_online || h->nr_cpus_avail) {
		fprintf(f, "# nrcpus online : %" PRIu32 "\n", h->nr_cpus_online);
		fprintf(f, "# nrcpus avail : %" PRIu32 "\n", h->nr_cpus_avail);
	}
	print_str(f, "cpudesc", h->cpudesc);
	print_str(f, "cpuid", h->cpuid);
	if (h->total_mem)
		fprintf(f, "# total memory : %" PRIu64 " kB\n", h->total_mem);
	print_str(f, "cmdline", h->cmdline);
	for (size_t i = 0; i < perf_reader_nr_events(r); i++) {
		const struct perf_event_desc *d = perf_reader_event(r, i);

		fprintf(f, "# event : name = %s, id = {", d->name);
		for (size_t k = 0; k < d->nr_ids; k++)
			fprintf(f, "%s %" PRIu64, k ? "," : "", d->ids[k]);
		fprintf(f, " }, type = %" PRIu32 ", size = %" PRIu32 ", %s = %" PRIu64
			", sample_type = %s\n", d->attr.type, d->attr.size,
			d->attr.flags & PERF_ATTR_FLAG_FREQ ? "sample_freq" : "sample_period",
			d->attr.sample_period_or_freq,
			perf_sample_type_string(d->attr.sample_type, buf, sizeof(buf)));
	}
	if (h->nr_build_ids)
		fprintf(f, "# build ids : %zu\n", h->nr_build_ids);
}

/* Entries naming the same object for perf: same machine (pid), same path. */
static int cmp_machine_path(const struct perf_build_id_entry *x,
			    const struct perf_build_id_entry *y)
{
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->path ? x->path : "", y->path ? y->path : "");
}

/* Entry indexes by (machine, path), then by position in the file. */
static int cmp_entry_index(const void *a, const void *b, void *entries)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct perf_build_id_entry *e = entries;
	int c = cmp_machine_path(&e[i], &e[j]);

	return c ? c : (i > j) - (i < j);
}

static int cmp_first_index(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	return (i > j) - (i < j);
}

/* The section can name one path more than once: perf record keeps one object per
 * (path, device, inode), so a system-wide recording that hits a path through two files
 * (a chroot's or a container's copy beside the host's, a file replaced meanwhile) writes
 * two entries.  perf buildid-list keys what it reads by machine and path alone: one line
 * per path, where the path first appears, with the id of its last entry.  So do we. */
void perf_stat_print_build_ids(FILE *f, const struct perf_reader *r)
{
	const struct perf_header_info *h = perf_reader_header(r);
	const struct perf_build_id_entry *e = h->build_ids;
	size_t n = h->nr_build_ids, nr_paths = 0;
	size_t *order, (*paths)[2]; /* per path: index of its first and of its last entry */

	if (!n)
		return;
	order = xmalloc(n * sizeof(*order));
	paths = xmalloc(n * sizeof(*paths));
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), cmp_entry_index, (void *)e);
	for (size_t i = 0; i < n; i++) {
		if (i && !cmp_machine_path(&e[order[i - 1]], &e[order[i]])) {
			paths[nr_paths - 1][1] = order[i];
			continue;
		}
		paths[nr_paths][0] = paths[nr_paths][1] = order[i];
		nr_paths++;
	}
	qsort(paths, nr_paths, sizeof(*paths), cmp_first_index);
	for (size_t p = 0; p < nr_paths; p++) {
		const struct perf_build_id_entry *b = &e[paths[p][1]];

		for (unsigned k = 0; k < b->size && k < sizeof(b->build_id); k++)
			fprintf(f, "%02x", b->build_id[k]);
		fprintf(f, " %s\n", b->path);
	}
	free(paths);
	free(order);
}

void perf_stat_print_records(FILE *f, const struct perf_reader *r)
{
	const struct perf_reader_stats *s = perf_reader_stats(r);
	uint64_t total = 0;

	fprintf(f, "records:\n");
	for (uint32_t t = 0; t < sizeof(s->nr_records) / sizeof(s->nr_records[0]); t++) {
		const char *name = perf_record_type_name(t);

		if (!s->nr_records[t])
			continue;
		total += s->nr_records[t];
		if (name)
			fprintf(f, "  %-32s %10" PRIu64 "\n", name, s->nr_records[t]);
		else
			fprintf(f, "  type %-27" PRIu32 " %10" PRIu64 "\n", t, s->nr_records[t]);
	}
	fprintf(f, "  %-32s %10" PRIu64 "\n", "total", total);
	fprintf(f, "samples per event:\n");
	for (size_t i = 0; i < perf_reader_nr_events(r); i++)
		fprintf(f, "  %-32s %10" PRIu64 "\n", perf_reader_event(r, i)->name,
			s->nr_samples_by_event[i]);
	if (s->nr_samples_no_event)
		fprintf(f, "  %-32s %10" PRIu64 "\n", "(unknown id)", s->nr_samples_no_event);
	if (s->nr_samples_guest)
		fprintf(f, "taken in a guest (perf kvm): %" PRIu64 " samples (perf script and perf "
			"report hide them; tephra too, unless --guest)\n", s->nr_samples_guest);
	fprintf(f, "lost events: %" PRIu64 " (in %" PRIu64 " PERF_RECORD_LOST)\n", s->nr_lost,
		s->nr_records[PERF_REC_LOST]);
	fprintf(f, "lost samples: %" PRIu64 " (in %" PRIu64 " PERF_RECORD_LOST_SAMPLES)\n",
		s->nr_lost_samples, s->nr_records[PERF_REC_LOST_SAMPLES]);
	if (s->nr_lost && s->nr_lost_samples)
		fprintf(f, "samples lost: %" PRIu64 " (the two lines above count the same "
			"samples)\n", perf_reader_stats_lost(s));
	fprintf(f, "ordering: %" PRIu64 " rounds, at most %" PRIu64 " records waiting\n",
		s->nr_rounds, s->max_queued);
	if (s->nr_out_of_order)
		fprintf(f, "records older than an already flushed round: %" PRIu64 "\n",
			s->nr_out_of_order);
}

/* Continuation lines of a sample: the callchain entries, the user registers and the
 * user stack size and position, as `perf script -D` shows them. */
static void print_sample_details(FILE *f, const struct perf_event *ev)
{
	static const char *const abi[] = { "none", "32-bit", "64-bit" };
	const struct perf_sample *s = &ev->u.sample;
	uint64_t st = ev->desc ? ev->desc->attr.sample_type : 0;

	fputc('\n', f);
	if (st & PERF_ST_CALLCHAIN) {
		fprintf(f, "... chain: %" PRIu64, s->nr_callchain);
		for (uint64_t i = 0; i < s->nr_callchain; i++)
			fprintf(f, " %016" PRIx64, s->callchain[i]);
		fputc('\n', f);
	}
	if (s->user_regs) {
		fprintf(f, "... user regs: %s %#" PRIx64, s->user_regs_abi < 3 ?
			abi[s->user_regs_abi] : "unknown", s->user_regs_mask);
		for (int i = 0; i < __builtin_popcountll(s->user_regs_mask); i++)
			fprintf(f, " 0x%016" PRIx64, s->user_regs[i]);
		fputc('\n', f);
	}
	if (st & PERF_ST_STACK_USER)
		fprintf(f, "... ustack: size %" PRIu64 ", offset %#tx\n", s->user_stack_dyn_size,
			s->user_stack - 8 - ev->record);
}

/* " PID/TID: [START(LEN) @ PGOFF MAJ:MIN INO GEN]: rwxp FILE" (or "<BUILDID>" in place of
 * the device and inode), the way perf's dump shows an MMAP2. */
static void print_mmap2(FILE *f, const struct perf_event *ev)
{
	fprintf(f, " %" PRId32 "/%" PRId32 ": [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64,
		(int32_t)ev->u.mmap.pid, (int32_t)ev->u.mmap.tid, ev->u.mmap.start,
		ev->u.mmap.len, ev->u.mmap.pgoff);
	if (ev->misc & PERF_MISC_MMAP_BUILD_ID) {
		fputs(" <", f);
		for (unsigned i = 0; i < ev->u.mmap.build_id_size; i++)
			fprintf(f, "%02x", ev->u.mmap.build_id[i]);
		fputc('>', f);
	} else {
		fprintf(f, " %02" PRIx32 ":%02" PRIx32 " %" PRIu64 " %" PRIu64, ev->u.mmap.maj,
			ev->u.mmap.min, ev->u.mmap.ino, ev->u.mmap.ino_generation);
	}
	/* prot: PROT_READ 1, PROT_WRITE 2, PROT_EXEC 4; flags: MAP_SHARED 1 */
	fprintf(f, "]: %c%c%c%c %s", ev->u.mmap.prot & 1 ? 'r' : '-', ev->u.mmap.prot & 2 ? 'w' : '-',
		ev->u.mmap.prot & 4 ? 'x' : '-', ev->u.mmap.flags & 1 ? 's' : 'p',
		ev->u.mmap.filename);
}

void perf_stat_print_event_line(FILE *f, const struct perf_event *ev)
{
	const char *name = perf_record_type_name(ev->type);
	uint64_t time = ev->type == PERF_REC_SAMPLE ? ev->u.sample.time :
			ev->sid.has_id ? ev->sid.time : 0;

	fprintf(f, "%" PRIu64 " 0x%" PRIx64 " [0x%x]: ", time, (uint64_t)ev->file_offset, ev->size);
	if (name)
		fputs(name, f);
	else
		fprintf(f, "type %" PRIu32, ev->type);
	switch (ev->type) {
	case PERF_REC_SAMPLE: {
		const struct perf_sample *s = &ev->u.sample;
		fprintf(f, " %" PRId32 "/%" PRId32 ": %#" PRIx64 " period: %" PRIu64 " cpu: %"
			PRIu32 " callchain: %" PRIu64, (int32_t)s->pid, (int32_t)s->tid, s->ip,
			perf_sample_period(ev), s->cpu, s->nr_callchain);
		print_sample_details(f, ev);
		return;
	}
	case PERF_REC_MMAP:
		/* misc bit 13 marks a data (non-exec) mapping */
		fprintf(f, " %" PRId32 "/%" PRId32 ": [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64
			"]: %c %s", (int32_t)ev->u.mmap.pid, (int32_t)ev->u.mmap.tid,
			ev->u.mmap.start, ev->u.mmap.len, ev->u.mmap.pgoff,
			ev->misc & (1 << 13) ? 'r' : 'x', ev->u.mmap.filename);
		break;
	case PERF_REC_MMAP2:
		print_mmap2(f, ev);
		break;
	case PERF_REC_COMM:
		fprintf(f, "%s: %s:%" PRId32 "/%" PRId32, ev->u.comm.exec ? " exec" : "",
			ev->u.comm.comm, (int32_t)ev->u.comm.pid, (int32_t)ev->u.comm.tid);
		break;
	case PERF_REC_FORK:
	case PERF_REC_EXIT:
		fprintf(f, "(%" PRId32 ":%" PRId32 "):(%" PRId32 ":%" PRId32 ")",
			(int32_t)ev->u.fork.pid, (int32_t)ev->u.fork.tid, (int32_t)ev->u.fork.ppid,
			(int32_t)ev->u.fork.ptid);
		break;
	case PERF_REC_LOST:
		fprintf(f, ": id:%" PRIu64 ": lost:%" PRIu64, ev->u.lost.id, ev->u.lost.lost);
		break;
	case PERF_REC_LOST_SAMPLES: {
		/* perf: id -1 when the sample_id trailer carries none */
		uint64_t st = ev->desc ? ev->desc->attr.sample_type : 0;
		uint64_t id = ev->sid.has_id && (st & (PERF_ST_ID | PERF_ST_IDENTIFIER)) ?
			ev->sid.id : UINT64_MAX;
		fprintf(f, ": id:%" PRIu64 ": lost samples :%" PRIu64, id, ev->u.lost_samples.lost);
		break;
	}
	default:
		break;
	}
	fputc('\n', f);
}

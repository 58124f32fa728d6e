/* export_source.c - perf.data or folded text into an export_profile (see
 * export_source.h). */
#include "export_source.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "cli_files.h"
#include "cli_report.h"
#include "profile_source.h"
#include "export/export_write.h"

int export_source_option(struct perf_fold_options *o, int c, const char *name, const char *arg,
			 const char *who)
{
	struct tephra_error err = { { 0 } };
	switch (c) {
	case EXPORT_O_INLINE:
		o->name_flags |= FOLD_INLINED;
		return 0;
	case EXPORT_O_KERNEL:
		o->name_flags |= FOLD_KERNEL;
		return 0;
	case EXPORT_O_JIT:
		o->name_flags |= FOLD_JIT;
		return 0;
	case EXPORT_O_OFF_CPU:
		o->off_cpu = 1;
		return 0;
	case EXPORT_O_WALL:
		o->wall = 1;
		return 0;
	case EXPORT_O_PREEMPTED:
		o->off_cpu_preempted = 1;
		return 0;
	case EXPORT_O_GUEST:
		o->filter.guest = 1;
		return 0;
	case EXPORT_O_WEIGHT:
		if (!strcmp(arg, "period"))
			o->weight = PERF_FOLD_WEIGHT_PERIOD;
		else if (!strcmp(arg, "samples"))
			o->weight = PERF_FOLD_WEIGHT_SAMPLES;
		else {
			fprintf(stderr, "%s: --weight is 'period' or 'samples'\n", who);
			return -1;
		}
		return 0;
	case EXPORT_O_PID:
		if (o->root != FOLD_ROOT_TID)
			o->root = FOLD_ROOT_PID;
		return 0;
	case EXPORT_O_TID:
		o->root = FOLD_ROOT_TID;
		return 0;
	case EXPORT_O_ALL:
		o->name_flags |= FOLD_KERNEL | FOLD_JIT;
		return 0;
	case EXPORT_O_COMPAT:
		o->compat = 1;
		return 0;
	case EXPORT_O_EVENT:
		o->event = arg; /* what tephra fold --from-text reads; perf.data: the filter */
		break;
	default:
		break;
	}
	enum sample_filter_kind k = c == EXPORT_O_EVENT ? SAMPLE_FILTER_EVENT
				    : c == EXPORT_O_ONLY_PID ? SAMPLE_FILTER_PIDS
				    : c == EXPORT_O_ONLY_TID ? SAMPLE_FILTER_TIDS
				    : c == EXPORT_O_COMMS ? SAMPLE_FILTER_COMMS
				    : c == EXPORT_O_TIME ? SAMPLE_FILTER_TIME
							  : SAMPLE_FILTER_MAX_STACK;
	if (sample_filter_parse(&o->filter, k, name, arg, &err)) {
		fprintf(stderr, "%s: %s\n", who, err.msg);
		return -1;
	}
	return 0;
}

int export_source_check_offcpu(const struct perf_fold_options *o, const char *who)
{
	if (o->off_cpu_preempted && !o->off_cpu && !o->wall) {
		fprintf(stderr, "%s: --preempted goes with --off-cpu or --wall\n", who);
		return -1;
	}
	if (o->off_cpu && o->wall) {
		fprintf(stderr, "%s: --off-cpu and --wall are two profiles: pick one\n", who);
		return -1;
	}
	return 0;
}

static int load_folded(FILE *f, const char *path, struct export_profile *p, const char *who)
{
	struct export_folded_stats st;
	struct tephra_error err = { { 0 } };
	if (export_profile_read_folded(p, f, path, &st, &err)) {
		fprintf(stderr, "%s: %s\n", who, err.msg);
		return 1;
	}
	int none = st.bad_lines && !p->nr_stacks;
	if (none || (st.bad_lines && profile_not_folded(st.lines - st.bad_lines, st.bad_lines))) {
		if (profile_is_script_text(strcmp(path, "<stdin>") ? path : "-"))
			fprintf(stderr, "%s: %s: `perf script` text, not folded stacks: fold it with "
				"tephra fold --from-text first\n", who, path);
		else if (none)
			fprintf(stderr, "%s: %s: no folded stack in it (line %" PRIu64 ": %s)\n",
				who, path, st.first_bad_line, st.first_bad_why);
		else
			fprintf(stderr, "%s: %s: not folded stacks: %" PRIu64 " of %" PRIu64 " lines "
				"are not 'frame;...;frame count' (the first, line %" PRIu64 ": %s)\n",
				who, path, st.bad_lines, st.lines, st.first_bad_line,
				st.first_bad_why);
		return 1;
	}
	if (st.bad_lines)
		fprintf(stderr, "%s: %s: warning: ignored %" PRIu64 " line%s; the first, line %" PRIu64
			": %s\n", who, path, st.bad_lines, st.bad_lines == 1 ? "" : "s",
			st.first_bad_line, st.first_bad_why);
	/* an empty file or pipe (perf record -o - failed before its header) is no profile:
	 * refused as flamegraph and diff refuse it, and as perf report does ("zero-sized
	 * data"), not an empty table or pprof file and exit 0 */
	if (!export_profile_total(p)) {
		fprintf(stderr, "%s: %s: no stack counts found\n", who, path);
		return 1;
	}
	return 0;
}

int export_source_load(const char *path, const struct perf_fold_options *o,
		       struct export_profile *p, int64_t *time_nanos, const char *who)
{
	int is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "<stdin>" : path;
	struct stat sb;
	*time_nanos = 0;
	/* perf.data (a file, a pipe-mode stream, a directory) or folded text */
	int perf = cli_is_perf_data(path);
	if (perf < 0) {
		fprintf(stderr, "%s: %s: cannot %s: %s\n", who, name, is_stdin ? "read" : "open",
			strerror(errno));
		return 1;
	}
	if (!is_stdin && stat(path, &sb) == 0)
		*time_nanos = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
	if (!perf) {
		if (o->off_cpu || o->wall) {
			fprintf(stderr, "%s: %s: not a perf.data file: --off-cpu and --wall read "
				"a recording's scheduler switches\n", who, name);
			return 1;
		}
		FILE *f = is_stdin ? stdin : fopen(path, "rb");
		if (!f) {
			fprintf(stderr, "%s: %s: cannot open: %s\n", who, path, strerror(errno));
			return 1;
		}
		int rc = load_folded(f, name, p, who);
		if (!is_stdin)
			fclose(f);
		return rc;
	}
	struct perf_fold_options po = *o;
	struct export_sink sink = export_profile_sink(p);
	struct tephra_error err = { { 0 } };
	/* one root per thread: the export keeps threads apart (as labels, not frames) */
	po.root = FOLD_ROOT_TID;
	po.export = &sink;
	po.report = cli_report(isatty(2));
	struct fold_table *names = fold_table_new();
	int rc = perf_fold_file(path, &po, names, &err);
	fold_table_free(names);
	if (rc) {
		fprintf(stderr, "%s: %s\n", who, err.msg);
		return 1;
	}
	return 0;
}

int export_format_parse(const char *name, int with_folded, const char *who)
{
	if (!strcmp(name, "pprof"))
		return EXPORT_FORMAT_PPROF;
	if (!strcmp(name, "callgrind"))
		return EXPORT_FORMAT_CALLGRIND;
	if (!strcmp(name, "speedscope"))
		return EXPORT_FORMAT_SPEEDSCOPE;
	if (with_folded && !strcmp(name, "folded"))
		return EXPORT_FORMAT_FOLDED;
	if (who)
		fprintf(stderr, "%s: unknown format '%s' (%spprof, callgrind, speedscope)\n", who,
			name, with_folded ? "folded, " : "");
	return -1;
}

char *export_format_file_name(enum export_format f, const char *stem)
{
	static const char *const ending[] = { ".folded", ".pb.gz", ".callgrind", ".speedscope.json" };
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, stem);
	strbuf_addstr(&sb, ending[f]);
	return sb.buf;
}

int export_granularity_parse(const char *name, const char *who)
{
	if (!strcmp(name, "addresses"))
		return EXPORT_GRANULARITY_ADDRESSES;
	if (!strcmp(name, "functions"))
		return EXPORT_GRANULARITY_FUNCTIONS;
	fprintf(stderr, "%s: --granularity: '%s' is neither addresses nor functions\n", who, name);
	return -1;
}

int export_format_write(struct export_profile *p, enum export_format f, const char *path,
			const char *name, int64_t time_nanos, const char *who)
{
	struct export_write_options wo = { time_nanos, 0, EXPORT_GRANULARITY_ADDRESSES };
	return export_format_write_with(p, f, path, name, &wo, who);
}

int export_format_write_with(struct export_profile *p, enum export_format f,
			     const char *path, const char *name,
			     const struct export_write_options *wo, const char *who)
{
	struct out_file of;
	FILE *out = cli_out_open(&of, who, path);
	struct tephra_error err = { { 0 } };
	int rc = 0;
	if (!out)
		return 1;
	int wrc = f == EXPORT_FORMAT_PPROF	? export_write_pprof(p, wo, out, &err)
		  : f == EXPORT_FORMAT_CALLGRIND ? export_write_callgrind(p, out, &err)
						 : export_write_speedscope(p, name, out, &err);
	int e = errno;
	if (wrc && ferror(out)) {
		/* a write error: said with its cause by cli_out_close */
		errno = e;
		cli_out_close(&of, who, 0);
		return 1;
	}
	if (wrc) {
		fprintf(stderr, "%s: %s: %s\n", who, path, err.msg);
		rc = 1;
	}
	if (rc)
		cli_out_abort(&of);
	else if (cli_out_close(&of, who, 1) != 0)
		rc = 1;
	return rc;
}

/* export_source.c - perf.data or folded text into an export_profile (see
 * export_source.h). */
#include "export_source.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_report.h"

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

static int load_folded(FILE *f, const char *path, struct export_profile *p, const char *who)
{
	struct export_folded_stats st;
	struct tephra_error err = { { 0 } };
	if (export_profile_read_folded(p, f, path, &st, &err)) {
		fprintf(stderr, "%s: %s\n", who, err.msg);
		return 1;
	}
	if (st.bad_lines && !p->nr_stacks) {
		fprintf(stderr, "%s: %s: no folded stack in it (line %" PRIu64 ": %s)\n", who, path,
			st.first_bad_line, st.first_bad_why);
		return 1;
	}
	if (st.bad_lines)
		fprintf(stderr, "%s: %s: warning: ignored %" PRIu64 " line%s; the first, line %" PRIu64
			": %s\n", who, path, st.bad_lines, st.bad_lines == 1 ? "" : "s",
			st.first_bad_line, st.first_bad_why);
	return 0;
}

int export_source_load(const char *path, const struct perf_fold_options *o,
		       struct export_profile *p, int64_t *time_nanos, const char *who)
{
	*time_nanos = 0;
	if (!strcmp(path, "-"))
		return load_folded(stdin, "<stdin>", p, who);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "%s: %s: cannot open: %s\n", who, path, strerror(errno));
		return 1;
	}
	struct stat sb;
	if (fstat(fileno(f), &sb) == 0)
		*time_nanos = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
	char magic[8];
	size_t got = fread(magic, 1, sizeof(magic), f);
	if (got != sizeof(magic) || memcmp(magic, "PERFILE2", 8)) {
		rewind(f);
		int rc = load_folded(f, path, p, who);
		fclose(f);
		return rc;
	}
	fclose(f);
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

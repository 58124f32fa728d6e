/* cmd_record.c - `tephra record -- CMD...`: perf record, then a flame graph, in one go.
 * User stacks are unwound from DWARF by default: Debian's programs and libraries (python3,
 * cc1, libc) keep no frame pointers, and frame-pointer chains through them break
 * (docs/stack-quality.md, "tephra record's stack size"). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "child.h"
#include "commands.h"
#include "flame_cli.h"
#include "render/flame_diff.h"
#include "cli_files.h"
#include "cli_number.h"

/* The user stack perf copies per sample for DWARF unwinding, by measurement (python3,
 * cc1 and a C++ program; docs/stack-quality.md): at 16 KiB python3's and the C++
 * program's stacks all reach their roots, cc1's 95% (96% at 32 KiB, for twice the
 * bytes: 17 MB per second of a busy CPU at 999 Hz against 33). */
#define RECORD_DWARF_DUMP "16384"

static void usage(FILE *f)
{
	fprintf(f, "usage: tephra record [options] -- COMMAND [ARGS...]\n\n"
		"Runs `perf record -e cpu-clock -F 999 --call-graph dwarf,%s` on COMMAND, then\n"
		"writes its flame graph (flame.svg) from the recording (perf.data) and prints how\n"
		"good its stacks are on stderr.\n\n"
		"  -o, --output FILE   the SVG (flame.svg)\n"
		"  -d, --data FILE     the perf.data file (perf.data)\n"
		"  -F, --freq HZ       samples per second (999; 1 to 1000000, or max)\n"
		"  -e, --event EVENT   perf event (cpu-clock: works without hardware counters)\n"
		"  --fp                frame pointers (perf record -g) instead of DWARF: far\n"
		"                      smaller files, but stacks break in code built without\n"
		"                      frame pointers (most of Debian's)\n"
		"  --dwarf             DWARF unwinding (the default)\n"
		"  -q, --quiet         no stack-quality report on stderr\n"
		"  --perf-arg ARG      pass ARG to perf record (repeatable), e.g. --perf-arg=-a\n"
		"  --perf-args \"ARGS\"  pass several space-separated arguments to perf record\n"
		"  --folded FILE       also write the folded stacks\n"
		"COMMAND's stdout and exit status are its own (tephra's lines go to stderr).\n"
		"Ctrl-C: perf finishes the file, the graph of what was recorded is drawn; a\n"
		"second Ctrl-C or SIGTERM: no graph.\n"
		"With the graph options --off-cpu or --wall (below), perf also records every\n"
		"scheduler switch (-e sched:sched_switch -c 1 with call graphs, as the samples',\n"
		"and --switch-events; the clock's -F becomes a term: cpu-clock/freq=999/),\n"
		"which needs root, or kernel.perf_event_paranoid=-1 and a readable tracefs.\n"
		"\nGraph options (as tephra flamegraph):\n%s", RECORD_DWARF_DUMP, flame_cli_help);
}

struct argv_list {
	char **v;
	size_t n, cap;
};

static void push(struct argv_list *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? a->cap * 2 : 32;
		a->v = xrealloc(a->v, sizeof(*a->v) * a->cap);
	}
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

static void push_split(struct argv_list *a, const char *s)
{
	char *copy = xstrdup(s), *save = NULL;

	for (char *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		push(a, tok);
	free(copy);
}

static void free_list(struct argv_list *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
}

/* The folded stacks of the graph, printed back from its tree. */
static int write_folded(const char *path, const struct flame_tree *t)
{
	struct out_file of;
	FILE *out = cli_out_open(&of, "tephra record", path);

	if (!out || cli_out_close(&of, "tephra record", flame_diff_write_folded(t, out, 0, 1) == 0))
		return 1;
	return 0;
}

/* perf's -F: "max", or a number of samples per second; perf itself refuses more than
 * kernel.perf_event_max_sample_rate (100000 by default), which can be raised. */
#define RECORD_FREQ_MAX 1000000

static int valid_freq(const char *s)
{
	uint64_t hz;
	return !strcmp(s, "max") ||
	       cli_number_u64("tephra record", "-F", s, 1, RECORD_FREQ_MAX, &hz) == 0;
}

/* --off-cpu/--wall: sampling sched:sched_switch with its fields (PERF_SAMPLE_RAW) takes
 * root (CAP_PERFMON) or kernel.perf_event_paranoid -1, and perf reads the event's format
 * from tracefs.  Says which is missing; returns 0, or 1. */
static int check_switches_allowed(void)
{
	static const char *const formats[] = {
		"/sys/kernel/tracing/events/sched/sched_switch/format",
		"/sys/kernel/debug/tracing/events/sched/sched_switch/format",
	};
	if (geteuid() != 0) {
		FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
		int level = 2;
		if (!f || fscanf(f, "%d", &level) != 1)
			level = 2;
		if (f)
			fclose(f);
		if (level > -1) {
			fprintf(stderr, "tephra record: --off-cpu/--wall sample sched:sched_switch with "
				"its fields: that takes root, or kernel.perf_event_paranoid=-1 (now %d; "
				"sysctl -w kernel.perf_event_paranoid=-1 as root) and a readable tracefs\n",
				level);
			return 1;
		}
	}
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (access(formats[i], R_OK) == 0)
			return 0;
	fprintf(stderr, "tephra record: --off-cpu/--wall: cannot read sched:sched_switch's format "
		"in tracefs (%s): mount it (mount -t tracefs nodev /sys/kernel/tracing) and let "
		"this user read it\n", formats[0]);
	return 1;
}

/* EVENT sampled FREQ times a second by a term of its own, named as without it:
 * "cpu-clock:u" -> "cpu-clock/freq=999,name=cpu-clock/u", "E/TERMS/M" -> "E/TERMS,freq=999/M"
 * (--off-cpu/--wall, where -c 1 is every other event's period).  "max" is the kernel's
 * limit.  Returns the new event, or NULL having said why. */
static char *clock_with_freq(const char *event, const char *freq)
{
	char max[32], *out;
	if (!strcmp(freq, "max")) {
		FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
		unsigned rate = 0;
		if (!f || fscanf(f, "%u", &rate) != 1 || !rate) {
			fprintf(stderr, "tephra record: -F max: cannot read "
				"/proc/sys/kernel/perf_event_max_sample_rate\n");
			if (f)
				fclose(f);
			return NULL;
		}
		fclose(f);
		snprintf(max, sizeof(max), "%u", rate);
		freq = max;
	}
	const char *slash = strrchr(event, '/');
	int n;
	if (slash && slash != event && strchr(event, '/') != slash) {
		n = asprintf(&out, "%.*s,freq=%s%s", (int)(slash - event), event, freq, slash);
	} else if (!slash) {
		size_t name = strcspn(event, ":");
		n = asprintf(&out, "%.*s/freq=%s,name=%.*s/%s", (int)name, event, freq, (int)name,
			     event, event[name] ? event + name + 1 : "");
	} else {
		fprintf(stderr, "tephra record: -e %s: with --off-cpu/--wall the event needs "
			"-F as a term (EVENT/freq=N/): not an event tephra can give one\n", event);
		return NULL;
	}
	if (n < 0)
		xfatal("out of memory");
	return out;
}

/* Checks the arguments that would otherwise fail only after the command has run. */
static int check_args(const char *data, const char *freq, const char *event, const char *svg,
		      const char *folded)
{
	const char *files[][2] = { { "-d", data }, { "-o", svg }, { "--folded", folded } };
	for (size_t i = 0; i < 3; i++) {
		if (files[i][1] && !*files[i][1]) {
			fprintf(stderr, "tephra record: %s: an empty file name\n", files[i][0]);
			return 2;
		}
	}
	if (!valid_freq(freq))
		return 2;
	if (!*event) {
		fprintf(stderr, "tephra record: -e: an empty event name\n");
		return 2;
	}
	for (size_t i = 0; i < 3; i++) {
		if (files[i][1] && cli_out_probe("tephra record", files[i][1]) != 0)
			return 1;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	enum { O_DWARF = 1, O_FP, O_PERF_ARG, O_PERF_ARGS, O_FOLDED };
	static const struct option own[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "data", required_argument, NULL, 'd' },
		{ "freq", required_argument, NULL, 'F' },
		{ "event", required_argument, NULL, 'e' },
		{ "dwarf", no_argument, NULL, O_DWARF },
		{ "fp", no_argument, NULL, O_FP },
		{ "quiet", no_argument, NULL, 'q' },
		{ "perf-arg", required_argument, NULL, O_PERF_ARG },
		{ "perf-args", required_argument, NULL, O_PERF_ARGS },
		{ "folded", required_argument, NULL, O_FOLDED },
		{ "fp", no_argument, NULL, O_FP },
		{ NULL, 0, NULL, 0 },
	};
	struct option *opts = flame_cli_merge_options(own);
	struct flame_cli c;
	struct argv_list extra = { NULL, 0, 0 }, perf = { NULL, 0, 0 };
	const char *data = "perf.data", *freq = "999", *event = "cpu-clock", *folded = NULL;
	int opt, dwarf = 1, quiet = 0, rc;

	flame_cli_init(&c, "tephra record");
	c.output = "flame.svg";
	/* '+': stop at the first non-option, which is the command to profile. */
	while ((opt = getopt_long(argc, argv, "+hqo:d:F:e:", opts, NULL)) != -1) {
		switch (opt) {
		case 'h': usage(stdout); free(opts); free_list(&extra); return 0;
		case 'd': data = optarg; continue;
		case 'F': freq = optarg; continue;
		case 'e': event = optarg; continue;
		case O_DWARF: dwarf = 1; continue;
		case O_FP: dwarf = 0; continue;
		case 'q': quiet = 1; continue;
		case O_PERF_ARG: push(&extra, optarg); continue;
		case O_PERF_ARGS: push_split(&extra, optarg); continue;
		case O_FOLDED: folded = optarg; continue;
		case 'o': opt = FLAME_OPT_BASE; break;
		}
		if (opt == '?')
			usage(stderr);
		if (opt == '?' || flame_cli_option(&c, opt, optarg) != 0) {
			free(opts);
			free_list(&extra);
			return 2;
		}
	}
	free(opts);
	if (optind >= argc) {
		fprintf(stderr, "tephra record: no command to profile (tephra record -- CMD ARGS)\n");
		free_list(&extra);
		return 2;
	}
	if (!c.output || !strcmp(c.output, "-")) {
		fprintf(stderr, "tephra record: the graph needs a file (-o FILE)\n");
		free_list(&extra);
		return 2;
	}

	rc = check_args(data, freq, event, c.output, folded);
	int switches = c.off_cpu || c.wall;
	if (rc == 0 && switches)
		rc = check_switches_allowed();
	/* perf record would move perf.data to perf.data.old and write a new one before it
	 * finds that the program cannot run */
	if (rc == 0)
		rc = child_check_program("tephra record", argv[optind]);
	if (rc != 0) {
		free_list(&extra);
		return rc;
	}
	/* A perf that fails may leave an older recording in place: never draw that one. */
	struct stat before, after;
	int existed = stat(data, &before) == 0;

	push(&perf, "perf");
	push(&perf, "record");
	push(&perf, "-e");
	if (switches) {
		/* -F would sample the tracepoint by frequency too, skipping switches: the clock
		 * gets its frequency as a term, every switch is recorded (-c 1), with the
		 * on-CPU samples' call graphs */
		char *clock = clock_with_freq(event, freq);
		if (!clock) {
			free_list(&perf);
			free_list(&extra);
			return 2;
		}
		push(&perf, clock);
		free(clock);
		push(&perf, "-e");
		push(&perf, "sched:sched_switch");
		push(&perf, "-c");
		push(&perf, "1");
		push(&perf, "--switch-events");
	} else {
		push(&perf, event);
		push(&perf, "-F");
		push(&perf, freq);
	}
	if (dwarf) {
		push(&perf, "--call-graph");
		push(&perf, "dwarf," RECORD_DWARF_DUMP);
	} else {
		push(&perf, "-g");
	}
	push(&perf, "-o");
	push(&perf, data);
	for (size_t i = 0; i < extra.n; i++)
		push(&perf, extra.v[i]);
	push(&perf, "--");
	for (int i = optind; i < argc; i++)
		push(&perf, argv[i]);

	fprintf(stderr, "tephra record: running");
	for (size_t i = 0; i < perf.n; i++)
		fprintf(stderr, " %s", perf.v[i]);
	fprintf(stderr, "\n");
	struct child_cmd perf_cmd = { .argv = perf.v, .who = "tephra record",
				      .hint = " (is perf installed?)" };
	int perf_sig;
	int status = child_run(&perf_cmd, &perf_sig);
	free_list(&perf);
	free_list(&extra);
	/* perf has written the file and ended: nothing of ours to clean up */
	if (child_stopped())
		fprintf(stderr, "tephra record: stopped by %s: no graph drawn\n",
			strsignal(child_stopped()));
	child_signals_end();
	if (status < 0 || status == 127) {
		fprintf(stderr, "tephra record: perf record did not run\n");
		return 1;
	}
	if (access(data, R_OK) != 0 || stat(data, &after) != 0 ||
	    (status != 0 && existed && after.st_ino == before.st_ino &&
	     after.st_mtim.tv_sec == before.st_mtim.tv_sec &&
	     after.st_mtim.tv_nsec == before.st_mtim.tv_nsec && after.st_size == before.st_size)) {
		fprintf(stderr, "tephra record: perf record (exit %d) wrote no %s%s\n", status,
			existed ? "new " : "", data);
		return 1;
	}
	if (child_interrupted())
		fprintf(stderr, "tephra record: interrupted (%s): drawing what perf recorded "
			"until then\n", strsignal(child_interrupted()));
	else if (perf_sig)
		/* a signal of its own (kill -9 perf), or its command's, which perf raises on
		 * itself: the exit status alone (128 + N) read as perf's own */
		fprintf(stderr, "tephra record: perf record was killed by signal %d (%s); "
			"drawing what it recorded\n", perf_sig, strsignal(perf_sig));
	else if (status != 0)
		fprintf(stderr, "tephra record: perf record exited with %d; drawing what it "
			"recorded\n", status);

	struct flame_tree *t = flame_tree_new(c.tree_flags | (folded ? FLAME_TREE_STACK_COUNTS : 0));
	struct profile_input_opts in = { 0, 0, !!(c.tree_flags & FLAME_TREE_TIME_ORDER),
					 c.name_flags, isatty(2) };
	struct profile_stats st;

	in.count_samples = c.count_samples;
	in.compat = c.compat;
	in.samples_col = !c.count_samples;
	in.quality = quiet ? NULL : stderr;
	in.quality_who = "tephra record";
	rc = flame_cli_load(&c, data, t, &in, &st);
	if (rc == 0) {
		flame_tree_finish(t);
		flame_cli_set_unit(&c, &st);
		if (flame_tree_node(t, 0)->weight[0] <= 0) {
			fprintf(stderr, "tephra record: %s holds no samples with call stacks\n", data);
			rc = 1;
		} else {
			rc = flame_cli_write(&c, t);
		}
	}
	if (rc == 0 && folded)
		rc = write_folded(folded, t);
	/* stdout is the program's (tephra record -- xz -c f > f.xz) */
	if (rc == 0) {
		fprintf(stderr, "perf data:   %s\nflame graph: %s\n", data, c.output);
		if (folded)
			fprintf(stderr, "folded:      %s\n", strcmp(folded, "-") ? folded : "<stdout>");
	}
	flame_tree_free(t);
	/* perf record exits as its command did (128 + N when signal N ended it: perf
	 * raises it on itself), and so does tephra record, as grind and emu */
	if (rc != 0)
		return status ? status : rc;
	return status;
}

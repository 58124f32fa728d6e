/* export_source.h - a perf.data file or folded text into an export_profile: the CLI's
 * wiring of a source to the export stage (`tephra export`, `tephra report`). */
#ifndef TEPHRA_CLI_EXPORT_SOURCE_H
#define TEPHRA_CLI_EXPORT_SOURCE_H

#include <stdint.h>

#include "export/export_profile.h"
#include "perffold/perf_fold.h"

/* Parses one of the perf.data options `export` and `report` share (--event, --inline,
 * --only-pid, --only-tid, --comms, --max-stack, --time, --kernel, --jit, --off-cpu,
 * --wall, --preempted) into O.  C is the
 * getopt_long code (EXPORT_O_*: each command puts EXPORT_SOURCE_LONG_OPTIONS in its
 * option table, and EXPORT_SOURCE_HELP and EXPORT_SOURCE_OFFCPU_HELP in its --help; tests/install/help.test.sh reads
 * both).  Returns 0, or -1 having printed why (WHO the command). */
enum { EXPORT_O_EVENT = 300, EXPORT_O_INLINE, EXPORT_O_ONLY_PID, EXPORT_O_ONLY_TID,
       EXPORT_O_COMMS, EXPORT_O_MAX_STACK, EXPORT_O_KERNEL, EXPORT_O_JIT, EXPORT_O_TIME,
       EXPORT_O_OFF_CPU, EXPORT_O_WALL, EXPORT_O_PREEMPTED, EXPORT_O_GUEST,
       /* EXPORT_SOURCE_NAMING_LONG_OPTIONS */
       EXPORT_O_WEIGHT, EXPORT_O_PID, EXPORT_O_TID, EXPORT_O_ALL, EXPORT_O_COMPAT,
       EXPORT_O_LAST = EXPORT_O_COMPAT };
#define EXPORT_SOURCE_LONG_OPTIONS                                                        \
	{ "event", required_argument, NULL, EXPORT_O_EVENT },                               \
	{ "inline", no_argument, NULL, EXPORT_O_INLINE },                                   \
	{ "only-pid", required_argument, NULL, EXPORT_O_ONLY_PID },                         \
	{ "only-tid", required_argument, NULL, EXPORT_O_ONLY_TID },                         \
	{ "comms", required_argument, NULL, EXPORT_O_COMMS },                               \
	{ "max-stack", required_argument, NULL, EXPORT_O_MAX_STACK },                       \
	{ "kernel", no_argument, NULL, EXPORT_O_KERNEL },                                   \
	{ "jit", no_argument, NULL, EXPORT_O_JIT },                                         \
	{ "time", required_argument, NULL, EXPORT_O_TIME },                                 \
	{ "off-cpu", no_argument, NULL, EXPORT_O_OFF_CPU },                                 \
	{ "wall", no_argument, NULL, EXPORT_O_WALL },                                       \
	{ "preempted", no_argument, NULL, EXPORT_O_PREEMPTED },                             \
	{ "guest", no_argument, NULL, EXPORT_O_GUEST }
/* How the commands that fold name their stacks (fold, heatmap): --weight, --pid, --tid,
 * --all, --compat, parsed by export_source_option too.  Their help stays each
 * command's own (fold explains them at length, heatmap in two lines). */
#define EXPORT_SOURCE_NAMING_LONG_OPTIONS                                                 \
	{ "weight", required_argument, NULL, EXPORT_O_WEIGHT },                             \
	{ "pid", no_argument, NULL, EXPORT_O_PID },                                         \
	{ "tid", no_argument, NULL, EXPORT_O_TID },                                         \
	{ "all", no_argument, NULL, EXPORT_O_ALL },                                         \
	{ "compat", no_argument, NULL, EXPORT_O_COMPAT }
#define EXPORT_SOURCE_HELP                                                               \
	"      --event NAME       this event (default: the first one sampled)\n"            \
	"      --inline           every user frame's inline chain (DWARF), not only\n"      \
	"                         the unwound ones' (as `tephra fold --inline`)\n"            \
	"      --kernel, --jit    kernel frames named f_[k], JIT frames f_[j] (as fold)\n"  \
	"      --only-pid LIST    only samples of these processes  (perf script --pid)\n"  \
	"      --only-tid LIST    only samples of these threads    (perf script --tid)\n"  \
	"      --comms LIST       only samples of these comms      (perf script --comms)\n"\
	"      --max-stack N      at most N frames per sample (default 127)\n"              \
	"      --time RANGES      only samples in these times (perf script --time)\n"      \
	"      --guest            also the samples taken in a guest (perf kvm), hidden\n"   \
	"                         by default as perf script and perf report hide them\n"
/* The off-CPU options' items (export, report; heatmap refuses them). */
#define EXPORT_SOURCE_OFFCPU_HELP                                                        \
	"      --off-cpu          off-CPU time (ns) of sched:sched_switch samples, as\n"    \
	"                         `tephra fold --off-cpu` (docs/offcpu.md)\n"                \
	"      --wall             on-CPU clock samples and off-CPU time, the latter under\n"\
	"                         a leaf frame '[off-cpu: STATE]' (as fold --wall)\n"       \
	"      --preempted        with --off-cpu or --wall, time preempted (R, R+) too\n"
int export_source_option(struct perf_fold_options *o, int c, const char *name, const char *arg,
			 const char *who);
/* Whether getopt_long code C is one of the two tables' (export_source_option parses it). */
static inline int export_source_is_option(int c)
{
	return c >= EXPORT_O_EVENT && c <= EXPORT_O_LAST;
}

/* Whether O's off-CPU options go together (--preempted only with --off-cpu or --wall,
 * not both of these): 0, or -1 having printed why (WHO the command). */
int export_source_check_offcpu(const struct perf_fold_options *o, const char *who);

/* Fills P from PATH: perf.data (recognised by its magic; weights are sample periods)
 * or folded text ("-": standard input, folded text only).  *TIME_NANOS gets the file's
 * modification time (0: unknown).  Returns 0, or 1 having printed the error (WHO the
 * command); skipped folded lines are warned about. */
int export_source_load(const char *path, const struct perf_fold_options *o,
		       struct export_profile *p, int64_t *time_nanos, const char *who);

/* The formats `tephra export` writes, and `grind`, `emu` and `trace` with -f/--format
 * (folded: what those write without it). */
enum export_format { EXPORT_FORMAT_FOLDED, EXPORT_FORMAT_PPROF, EXPORT_FORMAT_CALLGRIND,
		     EXPORT_FORMAT_SPEEDSCOPE };
#define EXPORT_FORMAT_HELP "pprof, callgrind or speedscope"
/* The format NAME names ("folded" only when WITH_FOLDED), or -1 having printed why
 * (WHO the command; NULL: print nothing). */
int export_format_parse(const char *name, int with_folded, const char *who);
/* STEM with the usual file name ending of format F ("grind" → "grind.pb.gz"); malloc'd. */
char *export_format_file_name(enum export_format f, const char *stem);
/* Writes P as F (not folded) to PATH ("-": standard output); NAME names the profile
 * (speedscope), TIME_NANOS when it was taken (0: unknown).  speedscope consumes P's
 * kept samples (export_write_speedscope).  Returns 0, or 1 having printed the error. */
int export_format_write(struct export_profile *p, enum export_format f, const char *path,
			const char *name, int64_t time_nanos, const char *who);
/* The same with the writers' options WO (pprof's granularity: `export --granularity`). */
struct export_write_options;
int export_format_write_with(struct export_profile *p, enum export_format f,
			     const char *path, const char *name,
			     const struct export_write_options *wo, const char *who);
/* --granularity's value ("addresses" or "functions"), or -1 having printed why. */
int export_granularity_parse(const char *name, const char *who);

#endif

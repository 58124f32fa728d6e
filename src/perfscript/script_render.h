/* script_render.h - `perf script` text, byte for byte (perf 6.1, frame-pointer and
 * no-callchain recordings).
 *
 * Per sample: the header line (comm, pid/tid, [cpu], time, period, event name), then
 * either the callchain (one "\t%16lx sym+0xoff (dso)" line per frame and a blank line) or,
 * without callchains, " %16lx sym+0xoff (dso)" on the same line.  Fields follow perf's -F
 * rules: by default comm,tid,cpu,time,period,event,ip,sym,symoff,dso, each dropped
 * silently when the recording lacks it; a field the user asks for that the recording
 * lacks is an error.  Tracepoint events default to comm,tid,cpu,time,event,trace (plus
 * ip,sym,symoff,dso when a tracepoint has callchains), as perf's defaults per event type. */
#ifndef TEPHRA_PERFSCRIPT_SCRIPT_RENDER_H
#define TEPHRA_PERFSCRIPT_SCRIPT_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "session/perf_session.h"

enum script_field {
	SCRIPT_COMM = 1 << 0,
	SCRIPT_TID = 1 << 1,
	SCRIPT_PID = 1 << 2,
	SCRIPT_CPU = 1 << 3,
	SCRIPT_TIME = 1 << 4,
	SCRIPT_EVENT = 1 << 5,
	SCRIPT_IP = 1 << 6,
	SCRIPT_SYM = 1 << 7,
	SCRIPT_DSO = 1 << 8,
	SCRIPT_SYMOFF = 1 << 9,
	SCRIPT_PERIOD = 1 << 10,
	SCRIPT_SRCLINE = 1 << 11,
	SCRIPT_TRACE = 1 << 12,    /* a tracepoint's fields, through its print fmt */
};

#define SCRIPT_DEFAULT_FIELDS                                                                \
	(SCRIPT_COMM | SCRIPT_TID | SCRIPT_CPU | SCRIPT_TIME | SCRIPT_EVENT | SCRIPT_IP |    \
	 SCRIPT_SYM | SCRIPT_SYMOFF | SCRIPT_DSO | SCRIPT_PERIOD)
#define SCRIPT_TRACEPOINT_FIELDS                                                             \
	(SCRIPT_COMM | SCRIPT_TID | SCRIPT_CPU | SCRIPT_TIME | SCRIPT_EVENT | SCRIPT_TRACE)

struct script_options {
	/* -F: FIELDS replaces the defaults when FIELDS_SET; ADD/REMOVE (-F +x / -F -x)
	 * change the defaults. */
	unsigned fields, fields_add, fields_remove;
	int fields_set;
	int nanosecs;            /* --ns */
	int no_inline;           /* --no-inline: unwound frames without their inlined functions */
	struct sample_filter filter; /* --pid/--tid/--comms/--max-stack */
	const struct symbol_options *symbols;
	const struct tephra_report *report; /* the reading's progress and warnings (NULL: none) */
	int strict;              /* --strict: damaged input is an error (perf_session_open) */
	/* where to print the short stack-quality block of a DWARF recording after the
	 * samples (quality/script_quality.h), headed QUALITY_WHO; NULL = nowhere */
	FILE *quality;
	const char *quality_who;
};

/* Parses a -F argument ("comm,tid,ip", "+pid", "-period") into O.  Returns 0, or -1
 * with ERR naming the unknown field. */
int script_parse_fields(struct script_options *o, const char *arg, struct tephra_error *err);

/* Prints the samples of PATH to file descriptor FD.  Returns 0, or -1 with ERR. */
int script_render_file(const char *path, const struct script_options *o, int fd,
		       struct tephra_error *err);

#endif

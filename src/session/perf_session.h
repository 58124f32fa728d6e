/* perf_session.h - reading a perf.data file the way perf script does.
 *
 * Opens the reader (ordered records, pipe mode, compressed files), builds the symbol store
 * and the machine from the non-sample records, and hands each sample that passes the
 * --pid/--tid/--comms/--event filters to a callback with its thread resolved.  A sample
 * that reads its counters (PERF_SAMPLE_READ, e.g. group sampling `{a,b}:S`) is handed
 * over as perf delivers it: once per counter read, as a sample of that counter's event
 * weighted by the counter's increase since its last read (none when it did not grow).  Shared by
 * `tephra script` and `tephra fold`. */
#ifndef TEPHRA_SESSION_PERF_SESSION_H
#define TEPHRA_SESSION_PERF_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/hashmap.h"
#include "base/report.h"
#include "machine/machine.h"
#include "perfdata/perf_reader.h"
#include "session/frame_resolver.h"
#include "session/sample_filter.h"
#include "symbol/symbol_store.h"
#include "unwind/sample_unwind.h"

struct perf_session {
	const char *path;
	struct perf_reader *reader;
	struct symbol_store *store;
	struct machine *machine;
	struct frame_resolver resolver;
	const struct tephra_report *report; /* progress (NULL: none) */
	int progress;        /* progress is being reported */
	struct sample_unwinder *unwinder; /* DWARF call graphs (NULL: arch not supported) */
	size_t max_stack;    /* frames unwound per sample (--max-stack; default 127) */
	struct hashmap read_values; /* PERF_SAMPLE_READ: sample id → its counter's last value */
	/* NULL, or called with every record that is not a sample (context switches,
	 * exits), after the machine took it; set after perf_session_open */
	void (*on_record)(void *arg, const struct perf_event *ev);
	void *record_arg;
};

struct perf_session_sample {
	const struct perf_event *ev;         /* the SAMPLE record */
	const struct perf_sample *sample;
	const struct perf_event_desc *desc;  /* its event (NULL when the id is unknown) */
	size_t event_index;
	struct thread *thread;
	unsigned cpumode;                    /* PERF_MISC_* of the sample */
	int unwound;                         /* its user frames were unwound from DWARF CFI */
};

/* Opens PATH ("-": standard input), reporting the reading's progress and warnings to
 * REPORT (may be NULL).  Damaged input (a cut stream or file, junk after the last record,
 * a killed perf record's file) keeps its whole records with one warning, as perf does;
 * with STRICT it is an error instead (perf_reader_options.lenient; and see
 * perf_session_refuse_unfinished).  Returns 0, or -1 with ERR. */
int perf_session_open(struct perf_session *s, const char *path, const struct symbol_options *sym,
		      const struct tephra_report *report, int strict, struct tephra_error *err);
void perf_session_close(struct perf_session *s);

/* --strict: a recording whose header says data size 0 (perf record killed) is an error
 * (a strict reader, like perf, reads nothing from it).  Returns 0, or -1 with ERR. */
int perf_session_refuse_unfinished(const struct perf_session *s, struct tephra_error *err);

/* Ends the progress report now (tephra_progress_end: the CLI wipes its progress line),
 * so that what is printed next starts on a line of its own; no more progress is
 * reported. */
void perf_session_end_progress(struct perf_session *s);

/* Reads to the end, calling ON_SAMPLE for each sample F keeps (F NULL: every sample) (it returns 0 to go on, or
 * non-zero to stop).  Returns 0, or -1 with ERR on bad input. */
int perf_session_run(struct perf_session *s, const struct sample_filter *f,
		     int (*on_sample)(void *arg, struct perf_session *s,
				      const struct perf_session_sample *ps),
		     void *arg, struct tephra_error *err);

#endif

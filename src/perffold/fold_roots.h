/* fold_roots.h - the root frame of each folded sample, as stackcollapse-perf.pl reads it.
 *
 * The script takes the root from perf script's header line with a regular expression
 * (perfscript/perf_script_line.h: the shortest comm followed by blanks, digits and a blank),
 * so the root is normally the comm (spaces as '_', "-PID[/TID]" with --pid/--tid), but a
 * comm with a blank before digits ("worker 2") roots as "worker", and when the match
 * runs past the tid (a tid of -1, a one-letter comm) the root holds the time and period
 * columns.  This module builds that header text and reads it the same way, once per
 * (comm, pid, tid) in the usual case. */
#ifndef TEPHRA_PERFFOLD_FOLD_ROOTS_H
#define TEPHRA_PERFFOLD_FOLD_ROOTS_H

#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"
#include "base/strbuf.h"
#include "fold/fold_naming.h"
#include "session/perf_session.h"

#define FOLD_ROOT_DROPPED (UINT64_MAX - 1) /* the script ignores such samples */

struct fold_roots {
	enum fold_root_mode mode;
	int compat;               /* 0: the root is the comm (fold_name_root), always */
	struct hashmap names;     /* root name → root id (dense, from 0) */
	struct hashmap by_thread; /* {comm pointer, pid, tid} → root id or a marker */
	const struct thread *last_thread; /* one-entry cache: samples come in runs */
	const char *last_comm;
	uint32_t last_pid, last_tid;
	uint64_t last_root;
	struct strbuf text, name;
};

/* COMPAT: roots as the script reads them from header text (above); 0: the thread's
 * comm (spaces as '_', "-PID[/TID]" as MODE says), whatever it looks like. */
void fold_roots_init(struct fold_roots *r, enum fold_root_mode mode, int compat);
void fold_roots_release(struct fold_roots *r);

/* The root id of a sample, or FOLD_ROOT_DROPPED. */
uint64_t fold_roots_of(struct fold_roots *r, const struct perf_session_sample *ps);

/* The folded name of root ID (LEN bytes, not NUL-terminated). */
const char *fold_roots_name(const struct fold_roots *r, uint64_t id, size_t *len);

#endif

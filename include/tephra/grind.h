/* tephra/grind.h - client requests of `tephra grind` (the tephragrind Valgrind tool).
 *
 * Include it in the program being profiled.  Outside Valgrind each request is a few
 * no-op instructions, as Valgrind's own client requests are.  Programs that use
 * callgrind's requests (<valgrind/callgrind.h>: CALLGRIND_START_INSTRUMENTATION,
 * CALLGRIND_STOP_INSTRUMENTATION, CALLGRIND_TOGGLE_COLLECT, CALLGRIND_ZERO_STATS,
 * CALLGRIND_DUMP_STATS) work unchanged under tephra grind too.
 *
 *   TEPHRA_GRIND_START()            start instrumenting (with `tephra grind --start=off`);
 *                                   the current call stack is recovered by unwinding
 *   TEPHRA_GRIND_STOP()             stop instrumenting; the stacks are forgotten
 *   TEPHRA_GRIND_TOGGLE_COLLECT()   stop/resume charging counts, keeping the stacks
 *   TEPHRA_GRIND_ZERO()             forget the counts so far
 *   TEPHRA_GRIND_SKIP_OBJ(pattern)  functions of objects whose path or base name matches
 *                                   the glob PATTERN are not frames, in the whole profile
 *                                   (as --skip-obj=PATTERN; the program decides)
 */
#ifndef TEPHRA_GRIND_H
#define TEPHRA_GRIND_H

#include <valgrind/valgrind.h>

enum tephra_grind_request {
	TEPHRA_GRIND_REQ_START = VG_USERREQ_TOOL_BASE('T', 'G'),
	TEPHRA_GRIND_REQ_STOP,
	TEPHRA_GRIND_REQ_TOGGLE_COLLECT,
	TEPHRA_GRIND_REQ_ZERO,
	TEPHRA_GRIND_REQ_SKIP_OBJ,
};

#define TEPHRA_GRIND_START() \
	VALGRIND_DO_CLIENT_REQUEST_STMT(TEPHRA_GRIND_REQ_START, 0, 0, 0, 0, 0)
#define TEPHRA_GRIND_STOP() \
	VALGRIND_DO_CLIENT_REQUEST_STMT(TEPHRA_GRIND_REQ_STOP, 0, 0, 0, 0, 0)
#define TEPHRA_GRIND_TOGGLE_COLLECT() \
	VALGRIND_DO_CLIENT_REQUEST_STMT(TEPHRA_GRIND_REQ_TOGGLE_COLLECT, 0, 0, 0, 0, 0)
#define TEPHRA_GRIND_ZERO() \
	VALGRIND_DO_CLIENT_REQUEST_STMT(TEPHRA_GRIND_REQ_ZERO, 0, 0, 0, 0, 0)
#define TEPHRA_GRIND_SKIP_OBJ(pattern) \
	VALGRIND_DO_CLIENT_REQUEST_STMT(TEPHRA_GRIND_REQ_SKIP_OBJ, (pattern), 0, 0, 0, 0)

#endif

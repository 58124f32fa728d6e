/* export_sink.h - how a source hands its samples to the export stage with everything it
 * knows about them: the threads, each frame's object, address, inline chain and source
 * lines, and (when asked for) every sample in time order.
 *
 * The flow is that of a fold: a source interns its samples as stacks (one id per unique
 * stack); it describes each thread, frame and stack once, by dense ids, and hands
 * the samples over as (stack id, weight, time).  A stack is described after its frames
 * and before its totals, but not necessarily before a sample uses it: a consumer keeps
 * ids and resolves them when the source is done. */
#ifndef TEPHRA_EXPORT_EXPORT_SINK_H
#define TEPHRA_EXPORT_EXPORT_SINK_H

#include <stddef.h>
#include <stdint.h>

/* One function of a frame's inline chain. */
struct export_line {
	const char *name;        /* as `tephra fold` names it (never NULL) */
	const char *system_name; /* as the object's symbol table has it (NULL: unknown) */
	const char *file;        /* source file (NULL: unknown) */
	uint32_t line;           /* line in FILE: at the address for the innermost entry,
				  * of the call for the others (0: unknown) */
};

struct export_frame {
	uint64_t address;        /* in the object's addresses, as perf script prints it
				  * (0: none, e.g. a name from folded text) */
	const char *object;      /* path or "[kernel.kallsyms]" (NULL: in no object) */
	const uint8_t *build_id; /* as recorded (NULL: none) */
	size_t build_id_size;
	/* The functions at the address, innermost first, the containing one last: one
	 * entry for a frame without inline information, none for a frame the fold drops. */
	const struct export_line *lines;
	size_t n_lines;
	/* The containing function as a frame of it without inline information is named
	 * (its ELF symbol), when the lines are an inline chain, whose outermost line is
	 * DWARF's name (one C++ function: `__move_merge<...>` there, `std::__move_merge<...>
	 * (...)` elsewhere); NULL: the last line's name is that. */
	const char *function;
};

struct export_sink {
	/* The samples counted are those of event NAME (its perf script name, e.g.
	 * "cpu-clock:ppp"); called once, before the first sample.  A weight counts
	 * nanoseconds for cpu-clock and task-clock, else the event's count. */
	void (*event)(void *ctx, const char *name);
	/* Thread ID (dense from 0): PID, TID and COMM (valid until the source is done). */
	void (*thread)(void *ctx, uint32_t id, int32_t pid, int32_t tid, const char *comm);
	/* Frame ID (dense from 0); the pointers are valid during the call only. */
	void (*frame)(void *ctx, uint32_t id, const struct export_frame *f);
	/* Stack ID (dense from 0) of thread THREAD: FRAMES[0..N) frame ids, root first
	 * (frames described already; valid during the call only). */
	void (*stack)(void *ctx, uint32_t id, uint32_t thread, const uint32_t *frames, size_t n);
	/* At the end, for each stack: SAMPLES samples weighing WEIGHT in all. */
	void (*stack_total)(void *ctx, uint32_t id, uint64_t weight, uint64_t samples);
	/* One sample of stack STACK, in time order; NULL when the consumer needs no times
	 * (the source then keeps none). */
	void (*sample)(void *ctx, uint32_t stack, uint64_t weight, uint64_t time);
	void *ctx;
};

#endif

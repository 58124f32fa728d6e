/* stack_sink.h - how a source hands named stacks to whatever takes them (a flame tree,
 * a test), so that neither knows the other: the CLI connects the two. */
#ifndef TEPHRA_FOLD_STACK_SINK_H
#define TEPHRA_FOLD_STACK_SINK_H

#include <stddef.h>
#include <stdint.h>

struct stack_sink {
	/* One stack: FRAMES[0..N) NUL-terminated names, root first, valid only during the
	 * call; WEIGHT what it counts; TIME when it was sampled, for a source that hands
	 * samples over one by one in time order (0 from a source of summed stacks). */
	void (*stack)(void *ctx, const char *const *frames, size_t n, uint64_t weight,
		      uint64_t time);
	void *ctx;
};

#endif

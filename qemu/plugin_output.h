/* plugin_output.h - how the QEMU plugin writes its profile: folded stacks of all vcpus
 * into a new file renamed over the output (a checkpoint never leaves a torn file; a
 * device is written in place: base/out_file.h),
 * and the self-check counters on stderr at the end. */
#ifndef TEPHRA_QEMU_PLUGIN_OUTPUT_H
#define TEPHRA_QEMU_PLUGIN_OUTPUT_H

#include <stddef.h>

#include "callstack/callstack.h"
#include "trace/trace_fold.h"

struct plugin_output {
	char path[4096];
	unsigned writes;
};

void plugin_output_init(struct plugin_output *o, const char *path);

/* Writes the profile of STACKS[0..N) (RAW: hex frames).  FINAL: the last write, which
 * also prints "tephra emu: <counters>" on stderr, followed by "(WHY)" when WHY is not
 * NULL.  Returns 0, or -1 (reported on stderr) when the file cannot be written. */
int plugin_output_write(struct plugin_output *o, struct callstack *const *stacks, size_t n,
			const struct trace_namer *namer, int raw, int final, const char *why);

#endif

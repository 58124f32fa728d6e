/* sample_unwind.h - DWARF call graphs for perf.data samples.
 *
 * Glue between the recorded system (machine/) and the unwinder: one unwinder per
 * recorded process (its Dwfl and parsed CFI live as long as the process), mappings
 * answered by the machine model, build-ids from the header's BUILD_ID table.
 *
 * sample_unwind_callchain() rebuilds a sample's callchain the way perf script does for a
 * `--call-graph dwarf` recording: the recorded chain (kernel frames; perf records no user
 * entries in that mode) as it is, then PERF_CONTEXT_USER and the unwound user frames,
 * callee first, with return addresses already decremented by one as perf stores them
 * (unwind_frame_perf_pc).
 * The result is a raw chain in the sample's own format, so code that walks
 * perf_sample.callchain can walk it unchanged. */
#ifndef TEPHRA_UNWIND_SAMPLE_UNWIND_H
#define TEPHRA_UNWIND_SAMPLE_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "machine/machine.h"
#include "perfdata/perf_reader.h"
#include "symbol/debug_paths.h"
#include "unwind/unwinder.h"

struct sample_unwinder;

/* perf script's default --max-stack, for the unwound part */
#define SAMPLE_UNWIND_DEFAULT_MAX_USER 127

/* For the recording described by HDR (its ARCH feature picks the registers).  PATHS:
 * where the mapped objects and perf's copies of them are, the session's symbol store's
 * (symbol_store_debug_paths: its root and build-id cache); NULL: the defaults (no root,
 * $HOME/.debug).  Returns NULL with ERR when the architecture is not supported. */
struct sample_unwinder *sample_unwinder_new(struct machine *m, const struct perf_header_info *hdr,
					    const struct debug_paths *paths,
					    struct tephra_error *err);
void sample_unwinder_free(struct sample_unwinder *su);

/* Does this sample carry what DWARF unwinding needs (user registers and a non-empty
 * stack copy)?  As in perf, samples without are left with their recorded chain. */
int sample_has_user_stack(const struct perf_event_desc *desc, const struct perf_sample *s);

/* Did this sample of a DWARF recording have a user context whose stack the kernel could
 * copy none of (a dump of 0 bytes: its page was not in memory, e.g. in ld.so's
 * start-up)?  Nothing is unwound then: perf script prints no user frame. */
int sample_lost_user_stack(const struct perf_event_desc *desc, const struct perf_sample *s);

/* Writes the callchain described above into OUT (room for MAX entries, markers
 * included); at most MAX_USER unwound frames are added.  Returns the number of entries.
 * The walk's outcome (status, stack_needed, ...) stays readable through
 * sample_unwinder_last() until the next call. */
size_t sample_unwind_callchain(struct sample_unwinder *su, const struct thread *t,
			       const struct perf_sample *s, uint64_t *out, size_t max,
			       size_t max_user);

/* The same into a buffer the unwinder owns, sized for the recorded chain plus MAX_USER
 * frames: returns the chain and sets *NR (valid until the next call). */
const uint64_t *sample_unwind_chain(struct sample_unwinder *su, const struct thread *t,
				    const struct perf_sample *s, size_t max_user, uint64_t *nr);

/* At most about BUDGET module files stay open over all processes (default 384): the
 * processes unwound least recently give up their unwinder first. */
void sample_unwinder_set_module_budget(struct sample_unwinder *su, size_t budget);

/* Every frame through libdwfl's own unwinder, no cached CFI rows (same results,
 * slower: for tests and comparisons).  Applies to processes met from now on. */
void sample_unwinder_set_libdwfl_only(struct sample_unwinder *su, int on);

const struct unwind_result *sample_unwinder_last(const struct sample_unwinder *su);

/* Totals over every process so far. */
void sample_unwinder_stats(const struct sample_unwinder *su, struct unwinder_stats *out,
			   size_t *nr_processes);

#endif

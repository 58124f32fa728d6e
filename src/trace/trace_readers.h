/* trace_readers.h - offline traces from other emulators, folded with the same core as the
 * QEMU plugin (src/trace/trace_api.c).
 *
 *   QEMU exec log   text from `qemu-riscv64 -singlestep -d exec,nochain -D FILE` (in_asm,
 *                   cpu and other lines are skipped): one "Trace CPU: HOST [CSBASE/PC/
 *                   FLAGS/CFLAGS]" line per executed translation block.  A block's
 *                   instructions are decoded from the guest ELF, from PC up to the first
 *                   control-flow instruction or up to where the next logged block
 *                   starts, whichever comes first.  Use -singlestep: QEMU 7.2 does not
 *                   log every execution of a multi-instruction block even with nochain
 *                   (a block branching back to itself runs again unlogged), so such logs
 *                   undercount; the reader counts those blocks (multi_insn_blocks) and
 *                   the command warns.
 *   PC dump         binary, one little-endian uint64 pc per executed instruction.
 * Both report bad input with the file name and byte offset. */
#ifndef TEPHRA_TRACE_TRACE_READERS_H
#define TEPHRA_TRACE_TRACE_READERS_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "tephra/trace.h"

enum trace_format { TRACE_FORMAT_AUTO = 0, TRACE_FORMAT_QEMU_LOG, TRACE_FORMAT_PCS };

struct trace_read_stats {
	uint64_t blocks;       /* QEMU log: Trace lines */
	uint64_t instructions; /* instructions fed to the tracer */
	uint64_t skipped_lines;
	uint64_t outside_elf;  /* pcs with no instruction bytes in the ELF */
	uint64_t multi_insn_blocks; /* QEMU log: blocks of more than one instruction */
};

/* Guesses the format from the first bytes of F (rewinds it). */
enum trace_format trace_guess_format(FILE *f);

/* Feeds the whole trace F (named NAME) to T.  Returns 0, or -1 with ERR set. */
int trace_read_qemu_log(struct tephra_trace *t, FILE *f, const char *name,
			struct trace_read_stats *st, struct tephra_error *err);
int trace_read_pcs(struct tephra_trace *t, FILE *f, const char *name,
		   struct trace_read_stats *st, struct tephra_error *err);

#endif

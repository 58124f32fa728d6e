/* trace_export.h - a guest's raw stacks into the export stage (export/export_sink.h):
 * `tephra emu -f` and `tephra trace -f`.
 *
 * The stacks are those `--raw` writes ("0x...;0x...;[signal 11];0x... COUNT": a caller
 * frame is its call site, the leaf the executing pc).  Each distinct address is one
 * frame in the guest ELF (its path and GNU build-id), its lines the chain of functions
 * at it innermost first (guest_dwarf.h: the symbol table's name for the real function,
 * the source file's base name and line; names only without DWARF), so the export names
 * every frame as `tephra emu` does and keeps the addresses, inline chains and lines
 * `tephra symbolize` would add.  A frame that is not an address ("[signal 11]") is a
 * name in no object.  The guest's threads are one: no thread is described. */
#ifndef TEPHRA_TRACE_TRACE_EXPORT_H
#define TEPHRA_TRACE_TRACE_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "export/export_sink.h"
#include "trace/guest_dwarf.h"
#include "trace/guest_syms.h"

struct trace_export;

/* Describes stacks to SINK; ELF_PATH names the object (its build-id is read from it when
 * it can be; NULL: the addresses are in no object), SYMS and DW (either may be NULL)
 * name the addresses; all must outlive the export. */
struct trace_export *trace_export_new(const char *elf_path, const struct guest_syms *syms,
				      struct guest_dwarf *dw, const struct export_sink *sink);

/* Adds WEIGHT instructions to raw stack STACK[0..LEN) (root first, ';' between frames);
 * with a sample hook, each call is one sample. */
void trace_export_stack(struct trace_export *x, const char *stack, size_t len, uint64_t weight);

/* The stacks' totals to the sink; frees X. */
void trace_export_finish(struct trace_export *x);

/* Reads raw folded text "STACK COUNT" lines from F into X.  Returns 0, or -1 with ERR
 * (NAME: offset and what) on a line that is not one, or a read error. */
int trace_export_read(struct trace_export *x, FILE *f, const char *name, struct tephra_error *err);

#endif

/* fold_naming.h - the naming rules of folded stacks, in one place.
 *
 * They reproduce what `perf script | stackcollapse-perf.pl` (FlameGraph) does to each
 * frame and root, so every source (perf.data, Valgrind, emulators) folds the same way.
 * docs/folding.md lists every rule and the script's odd corners we reproduce. */
#ifndef TEPHRA_FOLD_FOLD_NAMING_H
#define TEPHRA_FOLD_FOLD_NAMING_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

enum fold_frame_flags {
	/* Options, as stackcollapse-perf.pl's; the dso text decides which frames get them. */
	FOLD_KERNEL = 1 << 0,   /* --kernel: dso "[...]" or "...vmlinux" (not "unknown") gets _[k] */
	FOLD_JIT = 1 << 1,      /* --jit: dso containing "/tmp/perf-N.map" gets _[j] */
	FOLD_ADDRS = 1 << 3,    /* --addrs: "[unknown]" symbols become "[dso <addr>]" */
	/* Facts about this frame, set by the caller. */
	FOLD_INLINED = 1 << 2,  /* the frame is an inlined call: append _[i] (as the script
				 * does for every "->" piece after the first) */
	FOLD_JAVA = 1 << 4,     /* the root (comm) starts with "java": names containing '/'
				 * lose a leading 'L' (the script's Java tidy) */
	FOLD_KERNEL_FRAME = 1 << 5, /* fold_name_frame_exact: the frame is in the kernel or
				     * a module (FOLD_KERNEL marks it _[k]) */
};

/* Appends the folded name of one frame to OUT and returns 1, or appends nothing and
 * returns 0 when the script drops the frame (a name starting with '(', an empty name,
 * or one made only of "->").  A name "a->b->c" (perf-map-agent's inlined chains) appends several frames
 * "a;b_[i];c_[i]", outermost first.
 * SYM: the symbol as perf script prints it without "+0xoff" (NULL when unknown, the
 * same as "[unknown]"); DSO: the dso path as printed inside the parentheses (NULL or
 * "[unknown]" when the address is in no map); ADDR: the frame's address, printed in hex
 * by FOLD_ADDRS. */
int fold_name_frame(struct strbuf *out, const char *sym, const char *dso, uint64_t addr,
		    unsigned flags);

/* The same on text exactly as split out of a perf script line: SYM/DSO/PC with
 * lengths (SYM already through fold_strip_offset); PC is the hex address token. */
int fold_name_frame_text(struct strbuf *out, const char *sym, size_t sym_len,
			 const char *dso, size_t dso_len, const char *pc, size_t pc_len,
			 unsigned flags);

/* fold_name_frame_text, calling AFTER_PIECE (when not NULL) after each frame it
 * appends, with IS_UNKNOWN set once a piece was "[unknown]" in an unknown dso (and for
 * the rest of the name): the hook of stackcollapse-perf.pl's --srcline, which appends
 * ":file:line" read from the next input line to every piece that is not unknown. */
int fold_name_frame_text_each(struct strbuf *out, const char *sym, size_t sym_len,
			      const char *dso, size_t dso_len, const char *pc, size_t pc_len,
			      unsigned flags,
			      void (*after_piece)(void *arg, struct strbuf *out, int is_unknown),
			      void *arg);

/* tephra's default naming (not --compat): appends the frame named by what it is,
 * not by re-reading printed text: SYM whole (parameter lists, quotes, a leading '(' and
 * "->" kept, so overloads and function objects stay apart), ';' as ':' (the separator),
 * the Java 'L' rule; "->" splits into inlined pieces only in a JIT map (perf-map-agent's
 * convention).  SYM NULL or empty: "[dso basename]" or "[unknown]" ("[dso <addr>]" with
 * FOLD_ADDRS).  FOLD_KERNEL marks FOLD_KERNEL_FRAME frames _[k], FOLD_JIT JIT-map frames
 * _[j], FOLD_INLINED adds _[i].  Always appends one frame or more; returns 1. */
int fold_name_frame_exact(struct strbuf *out, const char *sym, const char *dso, uint64_t addr,
			  unsigned flags);

/* Length of SYM without a trailing "+0x<lowercase hex digits>" (perf script's symoff). */
size_t fold_strip_offset(const char *sym, size_t len);

enum fold_root_mode { FOLD_ROOT_COMM, FOLD_ROOT_PID, FOLD_ROOT_TID };

/* Appends the root frame: comm with spaces as '_', then "-PID" or "-PID/TID" (tephra's
 * default for perf.data: the thread's comm, whatever it looks like). */
void fold_name_root(struct strbuf *out, const char *comm, uint32_t pid, uint32_t tid,
		    enum fold_root_mode mode);

/* The same from text: COMM (COMM_LEN bytes), PID and TID as printed ("?" when perf
 * script printed no pid, as the script writes it). */
void fold_name_root_text(struct strbuf *out, const char *comm, size_t comm_len,
			 const char *pid, const char *tid, enum fold_root_mode mode);

/* Whether a root/comm starts with "java" (then frames are named with FOLD_JAVA). */
int fold_root_is_java(const char *comm, size_t len);

#endif

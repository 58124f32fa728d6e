/* fold_naming.h - the naming rules of folded stacks, in one place.
 *
 * They reproduce what `perf script | stackcollapse-perf.pl` (FlameGraph) does to each
 * frame and root, so every source (perf.data, Valgrind, emulators) folds the same way. */
#ifndef TEPHRA_FOLD_FOLD_NAMING_H
#define TEPHRA_FOLD_FOLD_NAMING_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

enum fold_frame_flags {
	FOLD_KERNEL = 1 << 0,   /* append _[k] (stackcollapse --kernel) */
	FOLD_JIT = 1 << 1,      /* append _[j] (stackcollapse --jit) */
	FOLD_INLINED = 1 << 2,  /* append _[i] (stackcollapse --inline) */
	FOLD_ADDRS = 1 << 3,    /* unknown frames keep their address (stackcollapse --addrs) */
};

/* Appends the folded name of one frame to OUT.
 * SYM: the symbol as perf script prints it without "+0xoff" (NULL when unknown);
 * DSO: the dso path as printed inside the parentheses (NULL or "[unknown]" when the
 * address is in no map); ADDR: the address perf script prints for the frame. */
void fold_name_frame(struct strbuf *out, const char *sym, const char *dso, uint64_t addr,
		     unsigned flags);

enum fold_root_mode { FOLD_ROOT_COMM, FOLD_ROOT_PID, FOLD_ROOT_TID };

/* Appends the root frame: comm with spaces as '_', then "-PID" or "-PID/TID". */
void fold_name_root(struct strbuf *out, const char *comm, uint32_t pid, uint32_t tid,
		    enum fold_root_mode mode);

#endif

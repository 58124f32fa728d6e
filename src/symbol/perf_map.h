/* perf_map.h - JIT symbols from /tmp/perf-PID.map.
 *
 * Text lines "START SIZE name" (hex, hex, rest of line), absolute addresses.  As in
 * perf 6.1 the names are not demangled and zero sizes are not extended. */
#ifndef TEPHRA_SYMBOL_PERF_MAP_H
#define TEPHRA_SYMBOL_PERF_MAP_H

#include "symbol/symbol_table.h"

/* Returns the number of symbols read, or -1 if PATH cannot be opened or is not to be
 * read (named_file.h: a FIFO, a device, with CHECK_OWNER another user's file), with
 * *WHY (may be NULL). */
long perf_map_load(struct symbol_table *t, const char *path, int check_owner,
		   const char **why);

#endif

/* tg_inline.h - chains of inlined functions at an address (--inline=yes).
 *
 * A chain is what Valgrind's inline info says is inlined at a code address: the
 * functions, outermost first, between the function the address belongs to and the
 * code itself.  Chains are interned: key 0 is "nothing inlined", other keys index the
 * table.  The instrumenter charges instructions per (call path, chain key) and the
 * call trie keys callees by the chain of their call site, so the output can show the
 * inlined functions as frames ("name_[i]", src/fold's convention). */
#ifndef TEPHRA_GRIND_TG_INLINE_H
#define TEPHRA_GRIND_TG_INLINE_H

#include "pub_tool_basics.h"

/* The chain key of the instruction at ADDR (0 when nothing is inlined there). */
UInt tg_inline_key(Addr addr);
/* Number of names in chain KEY and the name of level I (0 = outermost). */
UInt tg_inline_depth(UInt key);
const HChar *tg_inline_name(UInt key, UInt i);

#endif

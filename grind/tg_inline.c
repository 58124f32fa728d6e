/* tg_inline.c - interned inline chains from Valgrind's inline info (see tg_inline.h). */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "tg_inline.h"

struct tg_chain {
	UInt n;
	HChar **names; /* outermost first, display names */
	ULong hash;
};

/* Its own table, not src/base/hashmap: the tool links no libc (Valgrind's core only),
 * and base/ calls malloc, memcmp and abort. */
struct tg_chains {
	struct tg_chain *v; /* v[0] unused: key 0 is the empty chain */
	UInt n, cap;
	UInt *slots;        /* open addressing by hash: chain keys, 0 = empty */
	UInt nslots;
};

static struct tg_chains chains;

/* "0x4001BF05: realloc (vg_replace_malloc.c:339)" -> "realloc": the name is between
 * the first ": " and the last " (" (C++ names have no space before their '(').  The
 * argument list of a demangled name is cut as tg_funcs does. */
static HChar *name_of(const HChar *desc)
{
	const HChar *start = VG_(strstr)(desc, ": ");
	start = start ? start + 2 : desc;
	const HChar *end = NULL;
	for (const HChar *p = start; (p = VG_(strstr)(p, " (")); p++)
		end = p;
	SizeT len = end ? (SizeT)(end - start) : VG_(strlen)(start);
	for (SizeT i = 1; i < len; i++)
		if (start[i] == '(' && VG_(strncmp)(start + i, "(anonymous namespace)", 21) != 0) {
			len = i;
			break;
		}
	HChar *out = VG_(malloc)("tg.inline.name", len + 1);
	for (SizeT i = 0; i < len; i++)
		out[i] = start[i] == ';' ? ':' : start[i];
	out[len] = 0;
	return out;
}

static ULong hash_names(HChar **names, UInt n)
{
	ULong h = 0xcbf29ce484222325ULL;
	for (UInt i = 0; i < n; i++) {
		for (const HChar *s = names[i]; *s; s++)
			h = (h ^ (UChar)*s) * 0x100000001b3ULL;
		h = (h ^ 0xff) * 0x100000001b3ULL;
	}
	return h;
}

static void rehash(void)
{
	UInt n = chains.nslots ? chains.nslots * 2 : 1024;
	UInt *slots = VG_(calloc)("tg.inline.slots", n, sizeof(*slots));
	for (UInt k = 1; k < chains.n; k++) {
		UInt s = (UInt)chains.v[k].hash & (n - 1);
		while (slots[s])
			s = (s + 1) & (n - 1);
		slots[s] = k;
	}
	VG_(free)(chains.slots);
	chains.slots = slots;
	chains.nslots = n;
}

static Bool same(const struct tg_chain *c, HChar **names, UInt n)
{
	if (c->n != n)
		return False;
	for (UInt i = 0; i < n; i++)
		if (VG_(strcmp)(c->names[i], names[i]) != 0)
			return False;
	return True;
}

UInt tg_inline_key(Addr addr)
{
	DiEpoch ep = VG_(current_DiEpoch)();
	InlIPCursor *iipc = VG_(new_IIPC)(ep, addr);
	HChar *names[64];
	UInt n = 0;
	do {
		if (n < 64)
			names[n++] = name_of(VG_(describe_IP)(ep, addr, iipc));
	} while (VG_(next_IIPC)(iipc));
	VG_(delete_IIPC)(iipc);
	/* The last level is the function itself; the others are inlined into it,
	 * innermost first. */
	UInt depth = n ? n - 1 : 0;
	if (n)
		VG_(free)(names[n - 1]);
	if (depth == 0)
		return 0;
	for (UInt i = 0; i < depth / 2; i++) {
		HChar *t = names[i];
		names[i] = names[depth - 1 - i];
		names[depth - 1 - i] = t;
	}
	ULong h = hash_names(names, depth);
	if (chains.n == 0)
		chains.n = 1; /* key 0 is the empty chain */
	if (chains.nslots == 0 || chains.n * 2 >= chains.nslots)
		rehash();
	UInt slot = (UInt)h & (chains.nslots - 1);
	for (; chains.slots[slot]; slot = (slot + 1) & (chains.nslots - 1)) {
		UInt k = chains.slots[slot];
		if (chains.v[k].hash == h && same(&chains.v[k], names, depth)) {
			for (UInt i = 0; i < depth; i++)
				VG_(free)(names[i]);
			return k;
		}
	}
	chains.slots[slot] = chains.n;
	if (chains.n >= chains.cap) {
		chains.cap = chains.cap ? chains.cap * 2 : 64;
		chains.v = VG_(realloc)("tg.inline.chains", chains.v, chains.cap * sizeof(*chains.v));
	}
	struct tg_chain *c = &chains.v[chains.n];
	c->n = depth;
	c->hash = h;
	c->names = VG_(malloc)("tg.inline.names", depth * sizeof(*c->names));
	for (UInt i = 0; i < depth; i++)
		c->names[i] = names[i];
	return chains.n++;
}

UInt tg_inline_depth(UInt key)
{
	return key && key < chains.n ? chains.v[key].n : 0;
}

const HChar *tg_inline_name(UInt key, UInt i)
{
	return chains.v[key].names[i];
}

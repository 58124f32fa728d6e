/* tg_funcs.c - address -> function identity, names and classes (see tg_funcs.h). */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_seqmatch.h"

#include "tg_funcs.h"
#include "tg_tool.h"

/* Open-addressing maps keyed by a 64-bit value; values are struct tg_func pointers.
 * Small and local: the tool has no libc (so not src/base/hashmap, which calls malloc and
 * memcmp) and Valgrind's own tables are slower here. */
struct tg_map {
	ULong *keys;
	struct tg_func **vals;
	SizeT cap, count;
};

static ULong hash64(ULong x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static struct tg_func **map_slot(struct tg_map *m, ULong key, Bool *found)
{
	SizeT i = hash64(key) & (m->cap - 1);
	while (m->vals[i]) {
		if (m->keys[i] == key) {
			*found = True;
			return &m->vals[i];
		}
		i = (i + 1) & (m->cap - 1);
	}
	*found = False;
	return &m->vals[i];
}

static void map_init(struct tg_map *m)
{
	m->cap = 512;
	m->count = 0;
	m->keys = VG_(calloc)("tg.map.keys", m->cap, sizeof(*m->keys));
	m->vals = VG_(calloc)("tg.map.vals", m->cap, sizeof(*m->vals));
}

/* Values are never NULL (a cached "no function here" is &no_func below): a NULL value
 * marks an empty slot. */
static void map_put(struct tg_map *m, ULong key, struct tg_func *val);

static void map_grow(struct tg_map *m)
{
	struct tg_map n;
	n.cap = m->cap * 2;
	n.count = 0;
	n.keys = VG_(calloc)("tg.map.keys", n.cap, sizeof(*n.keys));
	n.vals = VG_(calloc)("tg.map.vals", n.cap, sizeof(*n.vals));
	for (SizeT i = 0; i < m->cap; i++)
		if (m->vals[i])
			map_put(&n, m->keys[i], m->vals[i]);
	VG_(free)(m->keys);
	VG_(free)(m->vals);
	*m = n;
}

static void map_put(struct tg_map *m, ULong key, struct tg_func *val)
{
	if ((m->count + 1) * 2 > m->cap)
		map_grow(m);
	Bool found;
	struct tg_func **slot = map_slot(m, key, &found);
	if (!found) {
		m->count++;
		m->keys[slot - m->vals] = key;
	}
	*slot = val;
}

static struct tg_func *map_get(struct tg_map *m, ULong key)
{
	Bool found;
	struct tg_func **slot = map_slot(m, key, &found);
	return found ? *slot : NULL;
}

/* A cached negative answer (address in no function). */
static struct tg_func no_func;

struct tg_funcs {
	Bool ready;
	struct tg_map by_addr;  /* any looked-up address -> function (or &no_func) */
	struct tg_map by_id;    /* function id -> function */
	struct tg_map by_name;  /* hash of (name, object) -> function, for .cold and PLT */
	struct tg_func **all;
	SizeT nall, capall;
};

static struct tg_funcs funcs;

static void funcs_init(void)
{
	if (funcs.ready)
		return;
	map_init(&funcs.by_addr);
	map_init(&funcs.by_id);
	map_init(&funcs.by_name);
	funcs.ready = True;
}

static ULong hash_str(ULong h, const HChar *s)
{
	for (; s && *s; s++)
		h = (h ^ (UChar)*s) * 0x100000001b3ULL;
	return h;
}

static ULong name_key(const HChar *name, const HChar *obj)
{
	ULong k = hash_str(hash_str(0xcbf29ce484222325ULL, name) ^ 0x5bd1e995, obj);
	return k;
}

Bool tg_obj_skipped(const HChar *obj)
{
	if (!obj)
		return False;
	const HChar *base = VG_(strrchr)(obj, '/');
	base = base ? base + 1 : obj;
	Bool skipped = False;
	/* every pattern that matches is marked: one that never does is reported */
	for (UInt i = 0; i < tg.opt.n_skip_objs; i++)
		if (VG_(string_match)(tg.opt.skip_objs[i], obj) ||
		    VG_(string_match)(tg.opt.skip_objs[i], base))
			skipped = tg.opt.skip_matched[i] = True;
	return skipped;
}

static Bool starts_with(const HChar *s, const HChar *prefix)
{
	return VG_(strncmp)(s, prefix, VG_(strlen)(prefix)) == 0;
}

static UInt classify(const HChar *name, const HChar *obj)
{
	UInt flags = 0;
	if (starts_with(name, "_dl_runtime_resolve") || starts_with(name, "_dl_runtime_profile"))
		flags |= TG_FN_RESOLVER;
	static const HChar *const thread_base[] = { "clone", "clone3", "__clone", "__clone3",
						    "__clone_internal", "start_thread", NULL };
	static const HChar *const below_main[] = { "_start", "__libc_start_main",
						   "__libc_start_main_impl",
						   "__libc_start_call_main", "_dl_start_user", NULL };
	if (VG_(strcmp)(name, "main") == 0)
		flags |= TG_FN_MAIN;
	else if (VG_(get_fnname_kind)(name) == Vg_FnNameBelowMain)
		flags |= TG_FN_BELOW_MAIN;
	for (UInt i = 0; below_main[i]; i++)
		if (VG_(strcmp)(name, below_main[i]) == 0)
			flags |= TG_FN_BELOW_MAIN;
	for (UInt i = 0; thread_base[i]; i++)
		if (VG_(strcmp)(name, thread_base[i]) == 0)
			flags |= TG_FN_BELOW_MAIN | TG_FN_THREAD_BASE;
	if (starts_with(name, "__libc_start_"))
		flags |= TG_FN_LIBC_START;
	if (VG_(strcmp)(name, "_start") == 0 || (starts_with(name, "clone") ||
						  starts_with(name, "__clone")))
		flags |= TG_FN_STACK_ROOT;
	if (tg_obj_skipped(obj))
		flags |= TG_FN_SKIPPED;
	return flags;
}

/* The frame name folded stacks use (src/fold's rules, as stackcollapse-perf.pl): the
 * argument list of a demangled C++ name is cut off at its first '(' unless that opens
 * "(anonymous namespace)", quotes are dropped, and ';' would split the frame so it
 * becomes ':'.  Synthetic names ("[libfoo.so]", "[plt]") are kept as they are. */
static HChar *display_name(const HChar *name)
{
	static const HChar anon[] = "(anonymous namespace)";
	SizeT len = VG_(strlen)(name);
	HChar *out = VG_(malloc)("tg.func.name", len + 1);
	SizeT w = 0;
	for (SizeT i = 0; i < len; i++) {
		HChar c = name[i];
		if (c == '(' && i > 0 && VG_(strncmp)(name + i, anon, sizeof(anon) - 1) != 0)
			break;
		if (c == '"' || c == '\'')
			continue;
		out[w++] = c == ';' ? ':' : c;
	}
	out[w] = 0;
	return out;
}

static struct tg_func *new_func(ULong id, const HChar *name, const HChar *obj, UInt flags)
{
	struct tg_func *f = VG_(calloc)("tg.func", 1, sizeof(*f));
	f->id = id;
	f->name = display_name(name);
	f->obj = obj ? VG_(strdup)("tg.func.obj", obj) : NULL;
	f->flags = flags | classify(name, obj);
	map_put(&funcs.by_id, id, f);
	if (funcs.nall == funcs.capall) {
		funcs.capall = funcs.capall ? funcs.capall * 2 : 256;
		funcs.all = VG_(realloc)("tg.func.all", funcs.all, funcs.capall * sizeof(*funcs.all));
	}
	funcs.all[funcs.nall++] = f;
	return f;
}

struct tg_func *tg_func_pseudo(ULong id, const HChar *name)
{
	funcs_init();
	struct tg_func *f = map_get(&funcs.by_id, id);
	return f ? f : new_func(id, name, NULL, 0);
}

void tg_funcs_reclassify(void)
{
	for (SizeT i = 0; i < funcs.nall; i++) {
		struct tg_func *f = funcs.all[i];
		f->flags = (f->flags & ~TG_FN_SKIPPED) | (tg_obj_skipped(f->obj) ? TG_FN_SKIPPED : 0);
	}
}

/* Splits "name+123" as VG_(get_fnname_w_offset) writes it: returns the offset and
 * the length of the name part (the whole string when there is no offset). */
static ULong split_offset(const HChar *s, SizeT *name_len)
{
	SizeT len = VG_(strlen)(s);
	SizeT i = len;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i == len || i == 0 || s[i - 1] != '+') {
		*name_len = len;
		return 0;
	}
	*name_len = i - 1;
	return VG_(strtoull10)((HChar *)s + i, NULL);
}

/* Length of NAME without a compiler-split suffix ".cold" / ".cold.N"; 0 if none. */
static SizeT cold_base_len(const HChar *name, SizeT len)
{
	for (SizeT i = 0; i + 5 <= len; i++) {
		if (VG_(strncmp)(name + i, ".cold", 5) != 0)
			continue;
		SizeT j = i + 5;
		if (j == len)
			return i;
		if (name[j] == '.') {
			j++;
			while (j < len && name[j] >= '0' && name[j] <= '9')
				j++;
			if (j == len)
				return i;
		}
	}
	return 0;
}

/* Interns a function known by name only (no usable start address: PLT, "[object]",
 * .cold parts): the first address seen becomes its id. */
static struct tg_func *by_name(const HChar *name, const HChar *obj, Addr first_addr,
			       UInt flags, Bool from_cold)
{
	ULong key = name_key(name, obj);
	struct tg_func *f = map_get(&funcs.by_name, key);
	if (f)
		return f;
	f = tg_func_by_id(first_addr);
	if (!f) {
		f = new_func(first_addr, name, obj, flags);
		f->from_cold = from_cold;
	}
	map_put(&funcs.by_name, key, f);
	return f;
}

static struct tg_func *lookup(Addr addr)
{
	DiEpoch ep = VG_(current_DiEpoch)();
	const HChar *objname = NULL;
	VgSectKind sect = VG_(DebugInfo_sect_kind)(&objname, addr);
	const HChar *obj = NULL;
	HChar objbuf[4096];
	if (VG_(get_objname)(ep, addr, &obj) && obj && obj[0]) {
		VG_(strncpy)(objbuf, obj, sizeof(objbuf) - 1);
		objbuf[sizeof(objbuf) - 1] = 0;
		obj = objbuf;
	} else {
		obj = NULL;
	}
	if (sect == Vg_SectPLT)
		return by_name("[plt]", obj, addr, TG_FN_PLT, False);

	const HChar *raw;
	if (!VG_(get_fnname_w_offset)(ep, addr, &raw) || !raw[0]) {
		if (!obj)
			return NULL;
		const HChar *base = VG_(strrchr)(obj, '/');
		HChar nm[512];
		VG_(snprintf)(nm, sizeof(nm), "[%s]", base ? base + 1 : obj);
		return by_name(nm, obj, addr, TG_FN_NOSYM, False);
	}
	SizeT len;
	ULong off = split_offset(raw, &len);
	/* Symbol versions ("memcpy@@GLIBC_2.14", "foo@GLIBC_2.2.5") are not part of the
	 * function's name. */
	for (SizeT k = 1; k < len; k++) {
		if (raw[k] == '@' && (raw[k + 1] == '@' || (raw[k + 1] >= 'A' && raw[k + 1] <= 'Z'))) {
			len = k;
			break;
		}
	}
	HChar name[2048];
	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	VG_(memcpy)(name, raw, len);
	name[len] = 0;
	Addr start = addr - off;

	struct tg_func *f = tg_func_by_id(start);
	if (f)
		return f;
	SizeT base_len = tg.opt.keep_cold ? 0 : cold_base_len(name, len);
	if (base_len) {
		name[base_len] = 0;
		f = by_name(name, obj, start, 0, True);
		map_put(&funcs.by_id, start, f); /* the part's start maps to the function */
		return f;
	}
	/* The hot part of a function whose cold part was seen first adopts its id. */
	ULong key = name_key(name, obj);
	f = map_get(&funcs.by_name, key);
	if (f && f->from_cold) {
		map_put(&funcs.by_id, start, f);
		return f;
	}
	f = new_func(start, name, obj, 0);
	if (!map_get(&funcs.by_name, key))
		map_put(&funcs.by_name, key, f);
	return f;
}

struct tg_func *tg_func_at(Addr addr)
{
	funcs_init();
	struct tg_func *f = map_get(&funcs.by_addr, addr);
	if (f)
		return f == &no_func ? NULL : f;
	f = lookup(addr);
	map_put(&funcs.by_addr, addr, f ? f : &no_func);
	return f;
}

struct tg_func *tg_func_by_id(ULong id)
{
	funcs_init();
	return map_get(&funcs.by_id, id);
}

/* Code in no object (JIT code, hand-made thunks in anonymous mappings) is one pseudo
 * function for the call stack, TG_FID_UNKNOWN, printed "[unknown]": so a jump from
 * it into a function is a tail call like a jump between two functions (callgrind
 * shows the target too), and its blocks match tg.cur_fn without calling the helper. */
int tg_func_of(void *ctx, uint64_t addr, uint64_t *start)
{
	(void)ctx;
	struct tg_func *f = tg_func_by_id(addr);
	if (!f)
		f = tg_func_at(addr);
	*start = f ? f->id : TG_FID_UNKNOWN;
	return 1;
}

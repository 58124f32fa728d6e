/* perf_fold.c - perf.data → folded stacks (see perf_fold.h).
 *
 * Per sample only cheap work happens: its root (cached per thread) and one hash of its
 * raw key — the addresses as recorded plus the versions of the maps they resolve in.
 * Only a key never seen before is resolved (map lookups) and named, once per unique
 * (object, address), from the very text perf script would print for the frame
 * ("sym+0xoff (dso)"), split and renamed by the rules of fold/fold_naming.h, so the
 * result is what `perf script | stackcollapse-perf.pl` gives. */
#include "perffold/perf_fold.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "perffold/fold_roots.h"
#include "perffold/fold_run.h"
#include "offcpu/offcpu.h"
#include "perffold/perf_fold_offcpu.h"
#include "session/perf_session.h"
#include "symbol/symbol_demangle.h"
#include "quality/stack_quality.h"


static uint64_t sample_weight(const struct perf_fold_options *o, const struct perf_session_sample *ps)
{
	const struct perf_sample *s = ps->sample;
	if (ps->desc->attr.type == PERF_ATTR_TYPE_TRACEPOINT)
		return 1;
	/* stackcollapse-perf.pl sums the period column, counting a missing or 0 period as 1 */
	if (o->weight == PERF_FOLD_WEIGHT_SAMPLES || !s->period)
		return 1;
	return s->period;
}

/* The key of a sample before any lookup: its root, the versions of the maps its
 * addresses are resolved in, and its raw addresses.  Equal keys resolve to equal stacks,
 * so only a new key costs map lookups and symbols.  Returns its length in words. */
static size_t raw_key(struct fold_run *r, const struct perf_session_sample *ps, int callchain)
{
	const struct perf_sample *s = ps->sample;
	const uint64_t *ips = callchain ? s->callchain : &s->ip;
	uint64_t nr = callchain ? s->nr_callchain : 1;
	/* a chain of markers alone is folded as the ip by default (resolve_sample), so the
	 * ip is in its key (one with an unknown marker stays empty: docs/export.md) */
	int ip_leaf = callchain && !r->o->compat && !frame_callchain_has_address(ips, nr);
	r->ip_leaf = ip_leaf;
	if (nr + 1 > r->cap_chain) {
		r->cap_chain = nr + 1;
		r->key = xrealloc(r->key, (5 + r->cap_chain) * sizeof(*r->key));
	}
	r->key[0] = r->root;
	r->key[1] = ps->thread->maps->version;
	r->key[2] = machine_kernel_maps_version(r->session->machine);
	/* the sampled ip resolves by cpumode; unwound user frames name their inlines */
	r->key[3] = callchain ? (uint64_t)ps->unwound : 2 + ps->cpumode;
	if (ip_leaf)
		r->key[3] = 16 + ps->cpumode;
	r->key[3] |= (uint64_t)r->cur_state << 32; /* --wall: one stack per off-CPU state */
	r->key[4] = nr;
	memcpy(r->key + 5, ips, nr * sizeof(*ips));
	if (!ip_leaf)
		return 5 + nr;
	r->key[5 + nr] = s->ip;
	return 6 + nr;
}

/* Resolves a sample's addresses into r->addr_key; returns the number of frames. */
static size_t resolve_sample(struct fold_run *r, const struct perf_session_sample *ps,
			     int callchain)
{
	const struct perf_sample *s = ps->sample;
	size_t n;
	if (callchain) {
		n = frame_resolve_callchain(&r->session->resolver, ps->thread, s->callchain,
					    s->nr_callchain, r->max_stack, ps->unwound, r->frames);
		if (r->ip_leaf) {
			/* No frame (a DWARF sample whose user stack was not copied): perf
			 * script's empty stack is --compat's, but the sample ran at its ip,
			 * where perf report charges it.  Named as a leaf of the recording. */
			struct frame *f = &r->frames[0];
			frame_resolve_sample_ip(&r->session->resolver, ps->thread, ps->cpumode,
						s->ip, f);
			int user = f->obj ? !f->obj->kernel : ps->cpumode == PERF_MISC_USER;
			f->unwound = user && (ps->desc->attr.sample_type & PERF_ST_STACK_USER) != 0;
			n = 1;
		}
	} else {
		/* Without callchains stackcollapse-perf.pl folds nothing at all (perf script
		 * prints no blank line between such samples); we fold the sampled ip as a
		 * one-frame stack instead, named as perf script prints it. */
		frame_resolve_sample_ip(&r->session->resolver, ps->thread, ps->cpumode, s->ip,
					&r->frames[0]);
		n = 1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct frame *f = &r->frames[n - 1 - i];
		r->addr_key[2 * i] = (f->obj ? (uint64_t)f->obj->id + 1 : 0) |
				     (f->unwound ? FRAME_UNWOUND : 0);
		r->addr_key[2 * i + 1] = f->addr;
	}
	return n;
}

/* Which samples are folded: the --event asked for (chosen by the session), else only
 * one event, the first one seen (stackcollapse-perf.pl keeps the first event of perf
 * script's text). */
static int keep_sample(struct fold_run *r, const struct perf_session_sample *ps)
{
	if (r->o->filter.event) { /* --event: the session passes only that event's samples */
		if (!r->have_event && r->o->export && r->o->export->event && !r->offcpu)
			r->o->export->event(r->o->export->ctx, ps->desc->name ? ps->desc->name : "");
		r->have_event = 1;
		return 1;
	}
	/* A tracepoint's header line ends with its fields, not "event:", so the script
	 * neither filters it nor takes it as the first event (and weighs it 1). */
	if (ps->desc->attr.type == PERF_ATTR_TYPE_TRACEPOINT)
		return 1;
	if (!r->have_event) {
		r->have_event = 1;
		r->event_index = ps->event_index;
		/* off-CPU and wall profiles told the sink what they count */
		if (r->o->export && r->o->export->event && !r->offcpu)
			r->o->export->event(r->o->export->ctx, ps->desc->name ? ps->desc->name : "");
	}
	return ps->event_index == r->event_index;
}

static void add_frame_ids(struct fold_run *r, const char *text, size_t len)
{
	/* a name may hold several frames ("a;b_[i]"): the script's ';' is a separator */
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != ';')
			continue;
		if (r->nr_frame_ids == r->cap_frame_ids) {
			r->cap_frame_ids = r->cap_frame_ids ? r->cap_frame_ids * 2 : 1024;
			r->frame_ids = xrealloc(r->frame_ids, r->cap_frame_ids * sizeof(*r->frame_ids));
		}
		r->frame_ids[r->nr_frame_ids++] = fold_table_frame(r->table, text + start, i - start);
		start = i + 1;
	}
}

/* Folds one line perf script would print, "TEXT (DSO)" with TEXT "sym+0xoff", adding
 * its frame ids (none when the script drops it). */
static void fold_printed_frame(struct fold_run *r, const char *text, const char *dso,
			       uint64_t addr, int java, unsigned frame_flags, const char *suffix)
{
	struct strbuf *t = &r->text;
	strbuf_reset(t);
	strbuf_addstr(t, text);
	strbuf_addstr(t, " (");
	strbuf_addstr(t, dso);
	strbuf_addch(t, ')');
	/* split as the script's /(.+) \((.*)\)/ does: at the last " (" */
	size_t open = 0;
	for (size_t j = 1; j + 1 < t->len; j++)
		if (t->buf[j] == ' ' && t->buf[j + 1] == '(')
			open = j;
	size_t sym_len = fold_strip_offset(t->buf, open);
	char pc[20];
	int pc_len = snprintf(pc, sizeof(pc), "%llx", (unsigned long long)addr);
	strbuf_reset(&r->sb);
	unsigned flags = (r->o->name_flags & ~(unsigned)FOLD_INLINED) | frame_flags;
	if (java)
		flags |= FOLD_JAVA;
	if (fold_name_frame_text(&r->sb, t->buf, sym_len, t->buf + open + 2, t->len - open - 3,
				 pc, (size_t)pc_len, flags)) {
		if (suffix)
			strbuf_addstr(&r->sb, suffix);
		add_frame_ids(r, r->sb.buf, r->sb.len);
	}
}

/* tephra's default (not --compat): the frame named from the symbol and object it is,
 * not from perf script's printed line (fold_name_frame_exact). */
void fold_run_name_symbol(struct fold_run *r, struct strbuf *out, const char *sym,
			  const struct map_object *obj, uint64_t addr, int java,
			  unsigned frame_flags)
{
	unsigned flags = (r->o->name_flags & ~(unsigned)FOLD_INLINED) | frame_flags;
	if (java)
		flags |= FOLD_JAVA;
	if (obj && obj->kernel)
		flags |= FOLD_KERNEL_FRAME;
	char *full = r->demangle_full && sym && !(obj && obj->kernel) ? symbol_demangle_full(sym)
								       : NULL;
	fold_name_frame_exact(out, full ? full : sym, obj ? obj->name : NULL, addr, flags);
	free(full);
}

static void fold_exact_frame(struct fold_run *r, const char *sym, const struct map_object *obj,
			     uint64_t addr, int java, unsigned frame_flags, const char *suffix)
{
	strbuf_reset(&r->sb);
	fold_run_name_symbol(r, &r->sb, sym, obj, addr, java, frame_flags);
	if (suffix)
		strbuf_addstr(&r->sb, suffix);
	add_frame_ids(r, r->sb.buf, r->sb.len);
}

size_t fold_run_name_slot(struct fold_run *r, const uint64_t key[3], int *created)
{
	size_t i = hashmap_intern(&r->names, key, 3 * sizeof(*key), created);
	if (*created && i >= r->cap_names) {
		r->cap_names = r->cap_names ? r->cap_names * 2 : 1024;
		r->name_frames = xrealloc(r->name_frames, r->cap_names * sizeof(*r->name_frames));
		r->name_counts = xrealloc(r->name_counts, r->cap_names * sizeof(*r->name_counts));
		r->name_printed = xrealloc(r->name_printed, r->cap_names * sizeof(*r->name_printed));
	}
	return i;
}

/* The name of one (object, address): its folded frame ids, made once.  Returns its
 * index (name_frames, name_counts, name_printed).  RET: ADDR is a return address
 * (default names only: its call is at ADDR - 1). */
static size_t frame_name(struct fold_run *r, uint64_t obj_word, uint64_t addr, int java, int ret)
{
	uint64_t k[3] = { obj_word, addr, (uint64_t)java | (uint64_t)ret << 1 };
	int created;
	size_t i = fold_run_name_slot(r, k, &created);
	if (created) {
		uint64_t obj_id1 = obj_word & ~FRAME_UNWOUND;
		struct frame f = { addr, addr, NULL, (obj_word & FRAME_UNWOUND) != 0 };
		if (obj_id1)
			f.obj = machine_object(r->session->machine, (uint32_t)(obj_id1 - 1));
		/* --inline: every user frame is expanded as perf expands unwound ones (and as
		 * the script's --inline does with addr2line -i), the inlined ones marked _[i] */
		int inline_mode = (r->o->name_flags & FOLD_INLINED) != 0;
		if (inline_mode)
			f.unwound = 1;
		struct frame_resolver *fr = &r->session->resolver;
		const struct dso_symbol *sym = frame_symbol(fr, &f);
		const char *const *names, *const *srclines;
		const unsigned char *inlined;
		size_t n_inl = frame_inlines_src(fr, &f, &names, &inlined, &srclines);
		struct strbuf text = STRBUF_INIT, line = STRBUF_INIT;
		const char *suffix = NULL;
		if ((r->o->srcline || (r->o->export && !r->defer_export)) && f.obj && f.obj->dso &&
		    !f.obj->kernel) {
			const char *file;
			unsigned lineno;
			if (!dso_srcline(f.obj->dso, addr, &file, &lineno)) {
				const char *base = strrchr(file, '/');
				strbuf_addf(&line, ":%s:%u", base ? base + 1 : file, lineno);
				suffix = r->o->srcline ? line.buf : NULL;
			}
		}
		r->name_frames[i] = (uint32_t)r->nr_frame_ids;
		/* default names: the functions the DWARF nests at the address (at the call,
		 * for a return address), not addr2line's answer that perf prints */
		struct fold_chain chain = { 0 };
		struct frame call = f;
		call.ip = call.addr = ret ? addr - 1 : addr;
		const struct dso_symbol *call_sym = n_inl && !r->o->compat ? frame_symbol(fr, &call) : NULL;
		if (call_sym && fold_chain_read(&chain, f.obj->dso, call.addr, call_sym->name)) {
			names = chain.names;
			inlined = chain.inlined;
			srclines = chain.srclines;
		}
		size_t n_named = chain.n ? chain.n : n_inl;
		if (n_named) {
			/* perf prints the inlined functions innermost first; the script
			 * prepends each line, so the outermost comes first here.  The source
			 * line of the address belongs to the innermost one. */
			for (size_t j = n_named; j-- > 0;) {
				unsigned ff = inline_mode && inlined[j] ? (unsigned)FOLD_INLINED : 0;
				if (!r->o->compat) {
					fold_exact_frame(r, names[j], f.obj, addr, java, ff,
							 j == 0 ? suffix : NULL);
					continue;
				}
				strbuf_reset(&text);
				strbuf_addf(&text, "%s+0x%llx", names[j],
					    (unsigned long long)(addr - (sym ? sym->start : 0)));
				fold_printed_frame(r, text.buf, inlined[j] ? "inlined" : f.obj->name,
						   addr, java, ff, j == 0 ? suffix : NULL);
			}
		} else if (!r->o->compat) {
			fold_exact_frame(r, sym ? sym->name : NULL, f.obj, addr, java, 0, suffix);
		} else {
			if (sym)
				strbuf_addf(&text, "%s+0x%llx", sym->name,
					    (unsigned long long)(addr - sym->start));
			else
				strbuf_addstr(&text, "[unknown]");
			fold_printed_frame(r, text.buf, f.obj ? f.obj->name : "[unknown]", addr, java,
					   0, suffix);
		}
		strbuf_release(&line);
		strbuf_release(&text);
		r->name_counts[i] = (uint32_t)(r->nr_frame_ids - r->name_frames[i]);
		if (r->o->export && r->o->export->frame)
			fold_run_export_frame(r, i, &f, sym, names, srclines, n_named);
		fold_chain_release(&chain);
		/* perf script expands only the frames it unwound (--inline expands them all) */
		uint16_t root = sym && stack_quality_is_root(sym->name);
		if (n_inl && (obj_word & FRAME_UNWOUND))
			r->name_printed[i] = (struct printed_frame){ (uint32_t)n_inl, 0, root };
		else
			r->name_printed[i] = (struct printed_frame){ 1, sym == NULL, root };
	}
	return i;
}

static uint32_t root_frame(struct fold_run *r, uint32_t id)
{
	while (id >= r->cap_roots) {
		size_t old = r->cap_roots;
		r->cap_roots = old ? old * 2 : 256;
		r->root_frames = xrealloc(r->root_frames, r->cap_roots * sizeof(*r->root_frames));
		memset(r->root_frames + old, 0xff, (r->cap_roots - old) * sizeof(*r->root_frames));
	}
	if (r->root_frames[id] == UINT32_MAX) {
		size_t len;
		const char *name = fold_roots_name(&r->roots, id, &len);
		r->root_frames[id] = fold_table_frame(r->table, name, len);
	}
	return r->root_frames[id];
}

/* Folded frame ids of root ROOT and frames ADDR_KEY[0..2N) into IDS (growable). */
static size_t key_frames(struct fold_run *r, uint32_t root_index, const uint64_t *addr_key,
			 size_t n_frames, uint32_t **ids, size_t *cap)
{
	uint32_t root = root_frame(r, root_index);
	size_t root_len;
	const char *root_name = fold_roots_name(&r->roots, root_index, &root_len);
	int java = fold_root_is_java(root_name, root_len);
	size_t n = 0;
	if (*cap < 1) {
		*cap = 64;
		*ids = xrealloc(*ids, *cap * sizeof(**ids));
	}
	(*ids)[n++] = root;
	/* Named callee first, as perf asks addr2line about a sample's frames: binutils'
	 * answers depend on the questions asked before (a2l.c), and these are the
	 * only questions a fold asks (the quality block reads the names' facts). */
	for (size_t i = n_frames; i-- > 0;)
		r->key_names[i] = (uint32_t)frame_name(r, addr_key[2 * i], addr_key[2 * i + 1], java,
						       !r->o->compat && fold_run_returns_to(r, addr_key, n_frames, i));
	for (size_t i = 0; i < n_frames; i++) {
		size_t c = r->name_counts[r->key_names[i]];
		if (n + c > *cap) {
			while (n + c > *cap)
				*cap *= 2;
			*ids = xrealloc(*ids, *cap * sizeof(**ids));
		}
		if (c) /* a dropped frame: the pool may not be made yet */
			memcpy(*ids + n, r->frame_ids + r->name_frames[r->key_names[i]],
			       c * sizeof(**ids));
		n += c;
	}
	return n;
}

/* A hash of N words in four independent lanes: the multiplies of one lane do not wait
 * for the others, which makes long callchains hash several times faster than a chain of
 * dependent steps.  The key goes to base/hashmap with this hash (intern_hashed) rather
 * than hash_bytes: with hash_bytes (even given the same four lanes for long keys) tephra
 * fold of a 940k-sample frame-pointer recording ran 2,015 M -> 2,093 M instructions
 * (+3.9%, cachegrind), and short keys everywhere paid for the longer hash_bytes. */
static uint64_t hash_words(const uint64_t *w, size_t n)
{
	uint64_t h0 = 0x9e3779b97f4a7c15ULL ^ n, h1 = 0xc2b2ae3d27d4eb4fULL, h2 = 0x165667b19e3779f9ULL,
		 h3 = 0x27d4eb2f165667c5ULL;
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		h0 = (h0 ^ w[i]) * 0xbf58476d1ce4e5b9ULL;
		h1 = (h1 ^ w[i + 1]) * 0x94d049bb133111ebULL;
		h2 = (h2 ^ w[i + 2]) * 0xbf58476d1ce4e5b9ULL;
		h3 = (h3 ^ w[i + 3]) * 0x94d049bb133111ebULL;
		h0 ^= h0 >> 29;
		h1 ^= h1 >> 31;
		h2 ^= h2 >> 27;
		h3 ^= h3 >> 30;
	}
	for (; i < n; i++)
		h0 = ((h0 ^ w[i]) * 0xbf58476d1ce4e5b9ULL) ^ (h0 >> 31);
	uint64_t h = h0 ^ (h1 * 0x9e3779b97f4a7c15ULL) ^ (h2 * 0xc2b2ae3d27d4eb4fULL) ^
		     (h3 * 0x165667b19e3779f9ULL);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

#define CLASS_PENDING UINT32_MAX

/* The stack_quality class of stack I, frames ADDR_KEY[0..2N) (outermost first), from
 * how key_frames' names print: the block looks nothing up itself, so what is printed
 * cannot depend on whether it is shown (-q). */
static void classify_stack(struct fold_run *r, size_t i, const uint64_t *addr_key, size_t n,
			   unsigned flags)
{
	/* callee first, as frame_resolve_callchain gives them */
	struct printed_frame *printed = r->printed;
	for (size_t j = 0; j < n; j++) {
		uint64_t obj_id1 = addr_key[2 * j] & ~FRAME_UNWOUND;
		struct frame *f = &r->frames[n - 1 - j];
		f->ip = f->addr = addr_key[2 * j + 1];
		f->obj = obj_id1 ? machine_object(r->session->machine, (uint32_t)(obj_id1 - 1)) : NULL;
		f->unwound = (addr_key[2 * j] & FRAME_UNWOUND) != 0;
		printed[n - 1 - j] = r->name_printed[r->key_names[j]];
	}
	r->stack_class[i] = stack_quality_stack_printed(r->quality, r->frames, printed, n, flags);
	if (r->stack_samples[i])
		stack_quality_count(r->quality, r->stack_class[i], r->stack_samples[i]);
}

/* Names stack I: root ROOT, resolved frames ADDR_KEY[0..2N), and classifies it for the
 * quality block (FLAGS: stack_quality_chain_flags). */
static void name_stack(struct fold_run *r, size_t i, uint32_t root, const uint64_t *addr_key,
		       size_t n, unsigned flags)
{
	size_t c = key_frames(r, root, addr_key, n, &r->cb_ids, &r->cap_cb_ids);
	if (r->stack_state && r->stack_state[i]) {
		/* --wall: the state the thread waited in, as its leaf frame */
		if (c + 1 > r->cap_cb_ids) {
			r->cap_cb_ids = c + 1;
			r->cb_ids = xrealloc(r->cb_ids, r->cap_cb_ids * sizeof(*r->cb_ids));
		}
		r->cb_ids[c++] = perf_fold_offcpu_leaf(r, r->stack_state[i] - 1);
	}
	if (r->o->export) {
		/* its frames are its names (a name the fold drops: a frame without lines),
		 * its thread its root; the folded ids are not kept (OUT gets no stacks) */
		if (r->stack_state && r->stack_state[i])
			perf_fold_offcpu_export_stack(r, i, root, n, r->stack_state[i] - 1);
		else
			fold_run_export_stack(r, i, root, r->key_names, n);
		c = 0;
	}
	/* keep the ids in the same pool as the frame names */
	if (r->nr_frame_ids + c > r->cap_frame_ids) {
		while (r->nr_frame_ids + c > r->cap_frame_ids)
			r->cap_frame_ids = r->cap_frame_ids ? r->cap_frame_ids * 2 : 1024;
		r->frame_ids = xrealloc(r->frame_ids, r->cap_frame_ids * sizeof(*r->frame_ids));
	}
	/* before any frame is named (a first stack all of whose frames the script drops)
	 * the pool is not made: no copy from or to it */
	if (c)
		memcpy(r->frame_ids + r->nr_frame_ids, r->cb_ids, c * sizeof(*r->cb_ids));
	r->stack_ids[i] = (uint32_t)r->nr_frame_ids;
	r->stack_lens[i] = (uint32_t)c;
	r->nr_frame_ids += c;
	if (r->quality)
		classify_stack(r, i, addr_key, n, flags);
}

/* Names and classifies the deferred stacks, in the order they were made (so names,
 * classes and frame ids come out as they would have without deferring). */
static void name_pending(struct fold_run *r)
{
	struct fold_pending_stack st;
	while (fold_pending_take(&r->pending, &st))
		name_stack(r, st.index, st.root, st.addr_key, st.n, st.flags);
}

/* Hands the objects and frames of a new stack to the symbol store's workers, to be
 * loaded and looked up while the records are read (the naming waits for it).  New
 * stacks mostly repeat frames already handed over: a small direct-mapped filter of
 * recent (object, address) pairs spares the store's exact check for them. */
#define PREFETCH_FILTER 4096
static void prefetch_objects(struct fold_run *r, size_t n)
{
	int inline_mode = (r->o->name_flags & FOLD_INLINED) != 0;
	for (size_t i = 0; i < n; i++) {
		const struct frame *f = &r->frames[i];
		if (!f->obj || !f->obj->dso || f->obj->kernel)
			continue;
		uint64_t tag = (f->addr ^ ((uint64_t)f->obj->id << 40)) | 1;
		size_t slot = (size_t)((tag * 0x9e3779b97f4a7c15ULL) >> 52) & (PREFETCH_FILTER - 1);
		if (r->prefetched[slot] == tag)
			continue;
		r->prefetched[slot] = tag;
		if (f->unwound || inline_mode)
			symbol_store_prefetch_inline(r->session->store, f->obj->dso, f->addr);
		else
			symbol_store_prefetch(r->session->store, f->obj->dso,
					      r->o->srcline || (r->o->export && !r->defer_export));
	}
}

/* Whether a new stack's naming waits: while the symbol store is loading (the workers
 * own the objects); and always under export, whose sink interns a thread's comm when
 * the thread is first sampled and a frame's strings when it is named: naming every
 * stack after the last sample keeps that order, and the bytes written, independent of
 * how fast the workers were. */
static int must_defer(struct fold_run *r)
{
	return r->defer_names && (r->o->export || symbol_store_loading(r->session->store));
}

/* The raw-key entry of a sample, named when new (or later, see defer_names); returns
 * its index. */
static size_t sample_stack(struct fold_run *r, const struct perf_session_sample *ps, int callchain)
{
	size_t words = raw_key(r, ps, callchain);
	int created;
	size_t i = hashmap_intern_hashed(&r->stacks, r->key, words * sizeof(uint64_t),
					 hash_words(r->key, words), &created);
	if (created) {
		if (i >= r->cap_stacks) {
			r->cap_stacks = r->cap_stacks ? r->cap_stacks * 2 : 4096;
			r->stack_ids = xrealloc(r->stack_ids, r->cap_stacks * sizeof(*r->stack_ids));
			r->stack_lens = xrealloc(r->stack_lens, r->cap_stacks * sizeof(*r->stack_lens));
			r->stack_class = xrealloc(r->stack_class, r->cap_stacks * sizeof(*r->stack_class));
			r->stack_samples = xrealloc(r->stack_samples,
						    r->cap_stacks * sizeof(*r->stack_samples));
			if (r->o->samples || r->o->export)
				r->stack_count = xrealloc(r->stack_count,
							  r->cap_stacks * sizeof(*r->stack_count));
			if (r->o->wall)
				r->stack_state = xrealloc(r->stack_state,
							  r->cap_stacks * sizeof(*r->stack_state));
		}
		if (r->stack_state)
			r->stack_state[i] = r->cur_state;
		int defer = must_defer(r);
		if (!defer)
			name_pending(r); /* before resolve_sample: it reuses r->frames */
		size_t n = resolve_sample(r, ps, callchain);
		if (r->defer_names) {
			/* new objects and frames go to the workers: this stack waits for them */
			prefetch_objects(r, n);
			defer = must_defer(r);
		}
		r->stack_class[i] = CLASS_PENDING;
		r->stack_samples[i] = 0;
		if (r->stack_count)
			r->stack_count[i] = 0;
		unsigned flags = r->quality ? stack_quality_chain_flags(ps->desc, ps->sample,
									ps->unwound, r->max_stack) : 0;
		if (defer)
			fold_pending_add(&r->pending, &(struct fold_pending_stack){
				i, (uint32_t)r->key[0], flags, r->addr_key, n });
		else
			name_stack(r, i, (uint32_t)r->key[0], r->addr_key, n, flags);
	}
	return i;
}

#define PERF_ATTR_TYPE_SOFTWARE 1 /* perf_event_attr.type; config 0 cpu-clock, 1 task-clock */

/* Records what the folded event is (its periods are nanoseconds for the clocks). */
static void note_event(struct perf_fold_info *info, const struct perf_event_desc *d)
{
	if (d->attr.type == PERF_ATTR_TYPE_TRACEPOINT) {
		snprintf(info->event, sizeof(info->event), "%s", "");
		info->time_ns = 0;
		return;
	}
	snprintf(info->event, sizeof(info->event), "%s", d->name ? d->name : "");
	info->time_ns = d->attr.type == PERF_ATTR_TYPE_SOFTWARE && d->attr.config <= 1;
}

int fold_run_stack_of(struct fold_run *r, const struct perf_session_sample *ps, size_t *i)
{
	if (!ps->desc || !keep_sample(r, ps))
		return 0;
	r->root = fold_roots_of(&r->roots, ps);
	if (r->root == FOLD_ROOT_DROPPED)
		return 0;
	if (r->o->export && r->root == r->threads_told) {
		fold_run_export_thread(r, r->threads_told, ps->thread);
		r->threads_told++;
	}
	*i = sample_stack(r, ps, (ps->desc->attr.sample_type & PERF_ST_CALLCHAIN) != 0);
	struct perf_fold_info *info = r->o->info;
	if (info) {
		if (!info->samples || (!info->event[0] && ps->desc->name &&
				       ps->desc->attr.type != PERF_ATTR_TYPE_TRACEPOINT))
			note_event(info, ps->desc);
		info->samples++;
	}
	return 1;
}

static int fold_sample(void *arg, struct perf_session *s, const struct perf_session_sample *ps)
{
	struct fold_run *r = arg;
	size_t i;
	if (!fold_run_stack_of(r, ps, &i))
		return 0;
	uint64_t weight = sample_weight(r->o, ps);
	hashmap_entry(&r->stacks, i)->value += weight;
	if (r->stack_count)
		r->stack_count[i]++;
	if (r->o->export && r->o->export->sample)
		r->o->export->sample(r->o->export->ctx, (uint32_t)i, weight, ps->sample->time);
	if (r->quality) {
		if (r->stack_class[i] == CLASS_PENDING)
			r->stack_samples[i]++;
		else
			stack_quality_count(r->quality, r->stack_class[i], 1);
		stack_quality_user_stack(r->quality, ps->desc, ps->sample, ps->unwound,
					 ps->unwound ? sample_unwinder_last(s->unwinder) : NULL);
	}
	return 0;
}

static int fold_switch_sample(void *arg, struct perf_session *s, const struct perf_session_sample *ps)
{
	return perf_fold_offcpu_sample(arg, ps, fold_sample, s);
}

static int foreach_sample(void *arg, struct perf_session *s, const struct perf_session_sample *ps)
{
	struct fold_run *r = arg;
	size_t i;
	(void)s;
	if (!fold_run_stack_of(r, ps, &i))
		return 0;
	size_t n = r->stack_lens[i];
	if (n > r->cap_cb_frames) {
		r->cap_cb_frames = n;
		r->cb_frames = xrealloc(r->cb_frames, n * sizeof(*r->cb_frames));
	}
	for (size_t k = 0; k < n; k++)
		r->cb_frames[k] = fold_table_frame_name(r->table, r->frame_ids[r->stack_ids[i] + k]);
	r->sink->stack(r->sink->ctx, r->cb_frames, n, sample_weight(r->o, ps), ps->sample->time);
	return 0;
}

static void run_init(struct fold_run *r, const struct perf_fold_options *o, struct fold_table *t,
		     struct perf_session *s)
{
	memset(r, 0, sizeof(*r));
	r->o = o;
	r->table = t;
	r->session = s;
	r->max_stack = o->filter.max_stack > 0 ? (size_t)o->filter.max_stack : PERF_SCRIPT_MAX_STACK;
	r->frames = xmalloc(2 * r->max_stack * sizeof(*r->frames));
	r->cap_chain = 256;
	r->key = xmalloc((5 + r->cap_chain) * sizeof(*r->key));
	r->addr_key = xmalloc(4 * r->max_stack * sizeof(*r->addr_key));
	r->key_names = xmalloc(2 * r->max_stack * sizeof(*r->key_names));
	r->printed = xmalloc(2 * r->max_stack * sizeof(*r->printed));
	fold_roots_init(&r->roots, o->root, o->compat);
	hashmap_init(&r->stacks);
	hashmap_init(&r->names);
}

static void run_release(struct fold_run *r)
{
	free(r->frames);
	free(r->key);
	free(r->addr_key);
	free(r->stack_ids);
	free(r->stack_lens);
	free(r->stack_class);
	free(r->stack_samples);
	free(r->stack_count);
	free(r->stack_state);
	free(r->times);
	offcpu_free(r->offcpu);
	stack_quality_free(r->quality);
	fold_roots_release(&r->roots);
	hashmap_release(&r->stacks);
	hashmap_release(&r->names);
	free(r->name_frames);
	free(r->name_counts);
	free(r->name_printed);
	free(r->key_names);
	free(r->printed);
	free(r->frame_ids);
	free(r->root_frames);
	free(r->cb_frames);
	free(r->cb_ids);
	fold_pending_release(&r->pending);
	free(r->prefetched);
	free(r->export_log);
	strbuf_release(&r->sb);
	strbuf_release(&r->text);
}

/* Opens PATH's session and a run writing into T; returns 0, or -1 with ERR.  SYMS is
 * room for the symbol options of default names (not compat): the store then keeps
 * names mangled, and frames are demangled with parameters (fold_exact_frame). */
static int run_open(struct fold_run *r, struct perf_session *s, const char *path, const struct perf_fold_options *o, struct fold_table *t,
		    struct symbol_options *syms, struct tephra_error *err)
{
	const struct symbol_options *use = o->symbols;
	int full = !o->compat && !(o->symbols && o->symbols->no_demangle);
	if (full) {
		if (o->symbols)
			*syms = *o->symbols;
		else
			memset(syms, 0, sizeof(*syms));
		syms->no_demangle = 1;
		use = syms;
	}
	if (perf_session_open(s, path, use, o->report, o->strict, err))
		return -1;
	if (o->strict && perf_session_refuse_unfinished(s, err)) {
		perf_session_close(s);
		return -1;
	}
	run_init(r, o, t, s);
	r->demangle_full = full;
	s->max_stack = r->max_stack;
	return 0;
}

/* Every stack into SAMPLES with its number of samples (SAMPLES has its own frame ids). */
static void add_sample_counts(struct fold_run *r, struct fold_table *samples)
{
	size_t nr = fold_table_nr_frames(r->table);
	uint32_t *ids = xmalloc((nr ? nr : 1) * sizeof(*ids)), *stack = NULL;
	size_t cap = 0;
	for (size_t f = 0; f < nr; f++)
		ids[f] = fold_table_frame(samples, fold_table_frame_name(r->table, (uint32_t)f),
					  fold_table_frame_len(r->table, (uint32_t)f));
	for (size_t i = 0; i < hashmap_count(&r->stacks); i++) {
		size_t n = r->stack_lens[i];
		if (n > cap) {
			cap = n;
			stack = xrealloc(stack, cap * sizeof(*stack));
		}
		for (size_t k = 0; k < n; k++)
			stack[k] = ids[r->frame_ids[r->stack_ids[i] + k]];
		fold_table_add(samples, stack, n, r->stack_count[i]);
	}
	free(stack);
	free(ids);
}

int perf_fold_file(const char *path, const struct perf_fold_options *o, struct fold_table *out,
		   struct tephra_error *err)
{
	struct perf_session s;
	struct fold_run r;
	struct symbol_options syms;
	if (run_open(&r, &s, path, o, out, &syms, err))
		return -1;
	/* under --compat only DWARF recordings get a block: skip its work for others */
	if (o->quality && (!o->compat || stack_quality_may_unwind(s.reader)))
		r.quality = stack_quality_new();
	r.defer_names = 1;
	r.defer_export = o->export && !o->off_cpu && !o->wall && !o->samples &&
			 !(o->name_flags & FOLD_INLINED) && !stack_quality_may_unwind(s.reader);
	r.prefetched = xcalloc(PREFETCH_FILTER, sizeof(*r.prefetched));
	int rc;
	if (o->off_cpu || o->wall) {
		struct sample_filter all;
		rc = perf_fold_offcpu_start(&r, &s, &all, err);
		if (!rc)
			rc = perf_session_run(&s, &all, fold_switch_sample, &r, err);
		if (r.offcpu)
			perf_fold_offcpu_finish(&r);
	} else {
		rc = perf_session_run(&s, &o->filter, fold_sample, &r, err);
	}
	/* help the workers before waiting on the kernel's symbols (the first stack named
	 * may well have a kernel frame) */
	symbol_store_settle(s.store);
	name_pending(&r);
	enum stack_quality_kind kind = r.quality ? stack_quality_kind(r.quality, o->compat)
						 : STACK_QUALITY_NONE;
	if (kind != STACK_QUALITY_NONE) {
		perf_session_end_progress(&s); /* the block would start on the progress line */
		stack_quality_print_brief(r.quality, kind, o->quality_who ? o->quality_who : "tephra",
					  path, perf_reader_stats(s.reader), o->quality);
		stack_quality_print_skipped(s.store, o->quality);
	}
	uint64_t *weights = NULL;
	size_t nr_stacks = hashmap_count(&r.stacks);
	if (r.defer_export)
		weights = fold_run_export_after_reading(&r);
	/* each unique raw stack was named once; the table merges stacks whose names meet */
	for (size_t i = 0; i < nr_stacks; i++) {
		uint64_t weight = weights ? weights[i] : hashmap_entry(&r.stacks, i)->value;
		if (r.nr_times && !weight)
			continue; /* a wait with no part in --time's slice */
		if (o->export)
			o->export->stack_total(o->export->ctx, (uint32_t)i, weight, r.stack_count[i]);
		else
			fold_table_add(out, r.frame_ids + r.stack_ids[i], r.stack_lens[i], weight);
	}
	free(weights);
	if (o->samples)
		add_sample_counts(&r, o->samples);
	run_release(&r);
	perf_session_close(&s);
	return rc;
}

int perf_foreach_stack(const char *path, const struct perf_fold_options *o,
		       const struct stack_sink *sink, struct tephra_error *err)
{
	struct perf_session s;
	struct fold_run r;
	struct fold_table *names = fold_table_new();
	struct symbol_options syms;
	if (run_open(&r, &s, path, o, names, &syms, err)) {
		fold_table_free(names);
		return -1;
	}
	r.sink = sink;
	int rc = perf_session_run(&s, &o->filter, foreach_sample, &r, err);
	run_release(&r);
	fold_table_free(names);
	perf_session_close(&s);
	return rc;
}

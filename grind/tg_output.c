/* tg_output.c - writes the folded stacks of every thread, merged and sorted.
 *
 * One line per distinct printed stack: "root;...;leaf COUNT", sorted bytewise as
 * `LC_ALL=C sort` would (src/fold's convention for folded files).  Printed stacks are
 * the trie paths with the frames users should not see taken out: PLT stubs, the lazy
 * resolver and everything it calls, functions of skipped objects, and (by default) the
 * frames below main / below a thread's start routine.  A frame taken out leaves its
 * instructions with the nearest frame still printed above it, so totals never change. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "tg_funcs.h"
#include "tg_inline.h"
#include "tg_tool.h"

struct tg_line {
	HChar *text;  /* the stack, without the count */
	ULong weight;
};

struct tg_lines {
	struct tg_line *v;
	SizeT n, cap;
	HChar *buf;   /* scratch for one stack */
	SizeT buf_cap;
};

static void buf_reserve(struct tg_lines *ls, SizeT need)
{
	if (need <= ls->buf_cap)
		return;
	while (ls->buf_cap < need)
		ls->buf_cap = ls->buf_cap ? ls->buf_cap * 2 : 4096;
	ls->buf = VG_(realloc)("tg.out.buf", ls->buf, ls->buf_cap);
}

/* Appends NAME to the scratch stack at *LEN, ';' and newlines made harmless. */
static void append_name(struct tg_lines *ls, SizeT *len, const HChar *prefix, const HChar *name)
{
	SizeT pl = prefix ? VG_(strlen)(prefix) + 1 : 0, nl = VG_(strlen)(name);
	buf_reserve(ls, *len + pl + nl + 2);
	if (*len)
		ls->buf[(*len)++] = ';';
	if (prefix) {
		VG_(memcpy)(ls->buf + *len, prefix, pl - 1);
		*len += pl - 1;
		ls->buf[(*len)++] = ':';
	}
	for (SizeT i = 0; i < nl; i++) {
		HChar c = name[i];
		ls->buf[(*len)++] = (c == ';') ? ':' : (c == '\n' || c == '\r') ? ' ' : c;
	}
	ls->buf[*len] = 0;
}

static const HChar *base_name(const HChar *path)
{
	const HChar *s = path ? VG_(strrchr)(path, '/') : NULL;
	return s ? s + 1 : path;
}

/* The inlined functions of chain KEY as frames "name_[i]" (src/fold's convention). */
static void append_inlined(struct tg_lines *ls, SizeT *len, UInt key)
{
	for (UInt k = 0; k < tg_inline_depth(key); k++) {
		const HChar *name = tg_inline_name(key, k);
		SizeT n = VG_(strlen)(name);
		HChar *tmp = VG_(malloc)("tg.out.inl", n + 5);
		VG_(memcpy)(tmp, name, n);
		VG_(memcpy)(tmp + n, "_[i]", 5);
		append_name(ls, len, NULL, tmp);
		VG_(free)(tmp);
	}
}

static void add_line(struct tg_lines *ls, const HChar *text, ULong weight)
{
	if (ls->n == ls->cap) {
		ls->cap = ls->cap ? ls->cap * 2 : 1024;
		ls->v = VG_(realloc)("tg.out.lines", ls->v, ls->cap * sizeof(*ls->v));
	}
	ls->v[ls->n].text = VG_(strdup)("tg.out.line", text);
	ls->v[ls->n].weight = weight;
	ls->n++;
}

static Bool printed(const struct tg_func *f)
{
	if (f->flags & TG_FN_SKIPPED)
		return False;
	if ((f->flags & (TG_FN_PLT | TG_FN_RESOLVER)) && !tg.opt.show_plt)
		return False;
	return True;
}

static int visit(void *arg, const struct cs_node *const *path, size_t n)
{
	struct tg_lines *ls = arg;
	SizeT len = 0;
	size_t first = 0;
	const struct tg_func *outermost = NULL;
	/* The frames below main (_start, __libc_start_main...) or below a thread's start
	 * routine (clone, start_thread) are left out when main or the start routine
	 * follows; otherwise (start-up code, exit handlers) they show as one frame,
	 * "(below main)".  What __libc_start_main calls, except exit, is main even when
	 * the program is stripped and has no symbol for it (or the function main
	 * tail-called).  The entry (main, a thread's start routine) is always a frame:
	 * when --skip-obj hides its function (python3 calls Py_BytesMain in a skipped
	 * libpython), it shows as "main", or for a thread as "[object]", so the calls the
	 * skipped code makes into shown code hang below it instead of becoming roots. */
	const HChar *entry_name = NULL;
	HChar entry_buf[256];
	if (!tg.opt.show_below_main) {
		size_t k = 0, libc_start = n;
		const struct tg_func *libc_fn = NULL, *last_fn = NULL;
		for (size_t i = 0; i < n; i++) {
			const struct tg_func *f = path[i]->kind == CS_NODE_FUNC ?
				tg_func_by_id(path[i]->func) : NULL;
			if (f && (f->flags & TG_FN_LIBC_START)) {
				libc_start = i;
				libc_fn = f;
			}
		}
		if (libc_start < n) {
			k = libc_start + 1;
		} else {
			while (k < n && path[k]->kind == CS_NODE_FUNC) {
				const struct tg_func *f = tg_func_by_id(path[k]->func);
				if (!f || !(f->flags & TG_FN_BELOW_MAIN))
					break;
				last_fn = f;
				k++;
			}
		}
		if (k > 0) {
			const struct tg_func *next = k < n && path[k]->kind == CS_NODE_FUNC ?
				tg_func_by_id(path[k]->func) : NULL;
			/* glibc's __libc_start_call_main calls _setjmp, main and exit, and
			 * start_thread the thread's start routine and its own clean-up: what
			 * they call outside libc, or without a symbol, is main or the start
			 * routine (or what a stripped main tail-called). */
			const struct tg_func *base = libc_fn ? libc_fn : last_fn;
			Bool calls_entry = base &&
				(libc_fn ? VG_(strcmp)(libc_fn->name, "__libc_start_call_main") == 0
					 : (base->flags & TG_FN_THREAD_BASE) != 0);
			Bool outside_libc = next && next->obj && base && base->obj &&
				VG_(strcmp)(next->obj, base->obj) != 0;
			Bool entry_follows = next &&
				((next->flags & TG_FN_MAIN) ||
				 (calls_entry && ((next->flags & TG_FN_NOSYM) || outside_libc)));
			first = k;
			if (!entry_follows)
				append_name(ls, &len, NULL, "(below main)");
			if (entry_follows && libc_fn &&
			    ((calls_entry && (next->flags & TG_FN_NOSYM)) || !printed(next))) {
				entry_name = "main";
			} else if (entry_follows && !printed(next)) {
				VG_(snprintf)(entry_buf, sizeof(entry_buf), "[%s]",
					      next->obj ? base_name(next->obj) : "unknown");
				entry_name = entry_buf;
			}
		}
	}
	for (size_t i = first; i < n; i++) {
		const struct cs_node *node = path[i];
		if (node->kind == CS_NODE_SIGNAL) {
			HChar nm[32];
			VG_(snprintf)(nm, sizeof(nm), "[signal %lld]", (Long)node->func);
			append_name(ls, &len, NULL, nm);
			continue;
		}
		if (node->kind == CS_NODE_LEAF) {
			append_inlined(ls, &len, (UInt)node->func);
			continue;
		}
		if (node->kind != CS_NODE_FUNC)
			continue;
		const struct tg_func *f = tg_func_by_id(node->func);
		if (!f) {
			append_name(ls, &len, NULL, "[unknown]");
			continue;
		}
		if (!outermost)
			outermost = f;
		if (i == first && entry_name) {
			append_inlined(ls, &len, (UInt)node->callsite);
			append_name(ls, &len, NULL, entry_name);
			continue;
		}
		/* the resolver and all it calls are charged to its caller, but for the
		 * function it tail-calls with --tail-calls=nest (its target, which replace
		 * mode puts in its place): that stays, with all it calls */
		if ((f->flags & TG_FN_RESOLVER) && !tg.opt.show_plt) {
			if (i + 1 < n && path[i + 1]->kind == CS_NODE_FUNC && path[i + 1]->tail_entered)
				continue;
			break;
		}
		if (!printed(f))
			continue;
		append_inlined(ls, &len, (UInt)node->callsite);
		append_name(ls, &len, tg.opt.obj_prefix && f->obj ? base_name(f->obj) : NULL,
			    f->name);
	}
	if (len == 0) {
		if (first > 0)
			append_name(ls, &len, NULL, "(below main)");
		else if (outermost && outermost->obj)
			append_name(ls, &len, NULL, base_name(outermost->obj));
		else
			append_name(ls, &len, NULL, "[unknown]");
	}
	add_line(ls, ls->buf, path[n - 1]->weight);
	return 0;
}

static Int cmp_lines(const void *a, const void *b)
{
	return VG_(strcmp)(((const struct tg_line *)a)->text, ((const struct tg_line *)b)->text);
}

static void collect(struct tg_lines *ls, struct callstack *cs)
{
	cs_walk(cs, visit, ls);
	const struct cs_node *root = cs_root(cs);
	if (root->weight)
		add_line(ls, "[unknown]", root->weight);
}

struct tg_writer {
	Int fd;
	HChar buf[65536];
	SizeT len;
	Bool failed;
};

static void w_flush(struct tg_writer *w)
{
	SizeT off = 0;
	while (off < w->len && !w->failed) {
		Int r = VG_(write)(w->fd, w->buf + off, w->len - off);
		if (r <= 0)
			w->failed = True;
		else
			off += r;
	}
	w->len = 0;
}

static void w_put(struct tg_writer *w, const HChar *s, SizeT n)
{
	while (n) {
		SizeT room = sizeof(w->buf) - w->len;
		SizeT k = n < room ? n : room;
		VG_(memcpy)(w->buf + w->len, s, k);
		w->len += k, s += k, n -= k;
		if (w->len == sizeof(w->buf))
			w_flush(w);
	}
}

/* Messages go to Valgrind's log sink with VG_(printf), not to fd 2: Valgrind keeps
 * its own copy of stderr in its reserved fd range, where the program cannot close it
 * (xz and coreutils close their stderr at exit: a write to fd 2 then fails, EBADF, and
 * the summary was lost).  -q, which the launcher passes, silences Valgrind's messages
 * but not VG_(printf). */
/* PATH as the user knows it (--shown-dir). */
static const HChar *shown(const HChar *path, HChar *buf, SizeT cap)
{
	if (!tg.opt.shown_dir)
		return path;
	const HChar *base = VG_(strrchr)(path, '/');
	VG_(snprintf)(buf, cap, "%s%s", tg.opt.shown_dir, base ? base + 1 : path);
	return buf;
}

static void print_summary(const HChar *path, ULong total, SizeT stacks, SizeT deepest)
{
	HChar buf[4096];
	path = shown(path, buf, sizeof(buf));
	VG_(printf)("tephra grind: %s: %llu instructions counted, %lu stacks, deepest stack %lu "
		    "frames, %llu underflows repaired, %llu frames seeded\n",
		    path, total, (unsigned long)stacks, (unsigned long)deepest,
		    tg.stats.underflows_repaired, tg.stats.frames_seeded);
}

void tg_write_output(const HChar *path, const HChar *header)
{
	struct tg_lines ls = { 0 };
	for (UInt i = 0; i < VG_N_THREADS; i++)
		if (tg.threads[i] && tg.threads[i]->cs)
			collect(&ls, tg.threads[i]->cs);
	for (struct tg_retired *r = tg.retired; r; r = r->next)
		collect(&ls, r->cs);
	if (ls.n)
		VG_(ssort)(ls.v, ls.n, sizeof(*ls.v), cmp_lines);

	SysRes sr = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC, 0644);
	HChar buf[4096];
	if (sr_isError(sr)) {
		VG_(printf)("tephra grind: %s: cannot open for writing (error %lu)\n",
			    shown(path, buf, sizeof(buf)), (unsigned long)sr_Err(sr));
		goto out;
	}
	struct tg_writer *w = VG_(malloc)("tg.out.w", sizeof(*w));
	w->fd = sr_Res(sr);
	w->len = 0;
	w->failed = False;
	if (header)
		w_put(w, header, VG_(strlen)(header));
	ULong total = 0;
	SizeT stacks = 0, deepest = 0;
	for (SizeT i = 0; i < ls.n;) {
		SizeT j = i;
		ULong sum = 0;
		while (j < ls.n && VG_(strcmp)(ls.v[j].text, ls.v[i].text) == 0)
			sum += ls.v[j++].weight;
		if (sum) {
			HChar num[32];
			Int k = VG_(snprintf)(num, sizeof(num), " %llu\n", sum);
			w_put(w, ls.v[i].text, VG_(strlen)(ls.v[i].text));
			w_put(w, num, k);
			total += sum;
			stacks++;
			SizeT depth = 1;
			for (const HChar *p = ls.v[i].text; *p; p++)
				depth += *p == ';';
			if (depth > deepest)
				deepest = depth;
		}
		i = j;
	}
	w_flush(w);
	if (w->failed) {
		VG_(printf)("tephra grind: %s: write error\n", shown(path, buf, sizeof(buf)));
	}
	VG_(close)(w->fd);
	VG_(free)(w);
	for (SizeT i = 0; i < ls.n; i++)
		VG_(free)(ls.v[i].text);
	VG_(free)(ls.v);
	VG_(free)(ls.buf);
	if (tg.opt.summary)
		print_summary(path, total, stacks, deepest);
	return;
out:
	for (SizeT i = 0; i < ls.n; i++)
		VG_(free)(ls.v[i].text);
	VG_(free)(ls.v);
	VG_(free)(ls.buf);
}

/* fold_naming.c - stackcollapse-perf.pl's per-frame and root rules, written from its
 * documented and observed behaviour (see docs/folding.md for each rule and oddity). */
#include "fold/fold_naming.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int bytes_eq(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);
	return len == n && !memcmp(s, lit, n);
}

static int bytes_contain(const char *s, size_t len, const char *lit)
{
	return memmem(s, len, lit, strlen(lit)) != NULL;
}

size_t fold_strip_offset(const char *sym, size_t len)
{
	size_t i = len;

	while (i > 0 && ((sym[i - 1] >= '0' && sym[i - 1] <= '9') ||
			 (sym[i - 1] >= 'a' && sym[i - 1] <= 'f')))
		i--;
	/* At least one hex digit, right after "+0x" (the scan stops at the 'x'). */
	if (i == len || i < 3 || memcmp(sym + i - 3, "+0x", 3) != 0)
		return len;
	return i - 3;
}

/* A Go method name such as "net/http.(*Client).Do": ".(" with ")." somewhere after. */
static int looks_like_go_method(const char *s, size_t len)
{
	const char *open = memmem(s, len, ".(", 2);
	if (!open)
		return 0;
	size_t from = (size_t)(open - s) + 2;
	return memmem(s + from, len - from, ").", 2) != NULL;
}

/* Everything from the first '(' on is argument noise, except "(anonymous namespace)". */
static size_t cut_at_paren(const char *s, size_t len)
{
	static const char anon[] = "anonymous namespace)";
	const size_t anon_len = sizeof(anon) - 1;

	for (size_t i = 0; i < len; i++) {
		if (s[i] != '(')
			continue;
		if (len - i - 1 >= anon_len && !memcmp(s + i + 1, anon, anon_len))
			continue;
		return i;
	}
	return len;
}

/* A perf map for JIT code: "/tmp/perf-<digits>.map" anywhere in the dso text. */
static int dso_is_jit_map(const char *dso, size_t len)
{
	static const char prefix[] = "/tmp/perf-";
	const size_t prefix_len = sizeof(prefix) - 1;
	const char *p = dso, *end = dso + len;

	while ((p = memmem(p, (size_t)(end - p), prefix, prefix_len)) != NULL) {
		const char *q = p + prefix_len;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
		if (q > p + prefix_len && end - q >= 4 && !memcmp(q, ".map", 4))
			return 1;
		p += 1;
	}
	return 0;
}

/* The frame name of one "->" piece, appended to OUT. */
static void name_piece(struct strbuf *out, const char *func, size_t func_len,
		       const char *dso, size_t dso_len, const char *pc, size_t pc_len,
		       unsigned flags, int inlined)
{
	size_t from = out->len; /* the piece is built and tidied in place from here */

	if (bytes_eq(func, func_len, "[unknown]")) {
		/* An unknown symbol is named after its dso's basename when the dso is known. */
		strbuf_addch(out, '[');
		if (!bytes_eq(dso, dso_len, "[unknown]")) {
			const char *slash = memrchr(dso, '/', dso_len);
			size_t off = slash ? (size_t)(slash - dso) + 1 : 0;
			strbuf_add(out, dso + off, dso_len - off);
		} else {
			strbuf_addstr(out, "unknown");
		}
		if (flags & FOLD_ADDRS) {
			strbuf_addstr(out, " <");
			strbuf_add(out, pc, pc_len);
			strbuf_addch(out, '>');
		}
		strbuf_addch(out, ']');
	} else {
		strbuf_add(out, func, func_len);
	}

	/* The script's generic tidy: ';' would split the frame, arguments are noise,
	 * quotes come from JIT maps (e.g. "RegExp:[&<>\"']"). */
	char *name = out->buf + from;
	size_t len = out->len - from;
	for (size_t i = 0; i < len; i++)
		if (name[i] == ';')
			name[i] = ':';
	if (!looks_like_go_method(name, len))
		len = cut_at_paren(name, len);
	size_t w = 0;
	for (size_t i = 0; i < len; i++)
		if (name[i] != '"' && name[i] != '\'')
			name[w++] = name[i];
	len = w;
	if ((flags & FOLD_JAVA) && len > 0 && name[0] == 'L' && memchr(name, '/', len)) {
		memmove(name, name + 1, len - 1); /* "Lorg/foo/Bar;.m" -> "org/foo/Bar:.m" */
		len--;
	}
	out->len = from + len;
	out->buf[out->len] = '\0';

	if (inlined) {
		if (!bytes_contain(name, len, "_[i]"))
			strbuf_addstr(out, "_[i]");
	} else if ((flags & FOLD_KERNEL) && dso_len > 0 &&
		   (dso[0] == '[' ||
		    (dso_len >= 7 && !memcmp(dso + dso_len - 7, "vmlinux", 7))) &&
		   !bytes_contain(dso, dso_len, "unknown")) {
		strbuf_addstr(out, "_[k]");
	} else if ((flags & FOLD_JIT) && dso_is_jit_map(dso, dso_len)) {
		if (!bytes_contain(name, len, "_[j]"))
			strbuf_addstr(out, "_[j]");
	}
}

static int fold_name_frame_text_each_raw(struct strbuf *out, const char *sym, size_t sym_len,
			      const char *dso, size_t dso_len, const char *pc, size_t pc_len,
			      unsigned flags,
			      void (*after_piece)(void *arg, struct strbuf *out, int is_unknown),
			      void *arg)
{
	/* The script skips names starting with '(' (it meant "(process name)" lines). */
	if (sym_len > 0 && sym[0] == '(')
		return 0;

	/* Split at "->"; like Perl's split, trailing empty pieces are dropped. */
	size_t end = sym_len;
	for (;;) {
		if (end >= 2 && sym[end - 2] == '-' && sym[end - 1] == '>')
			end -= 2;
		else
			break;
	}
	if (end == 0)
		return 0;

	size_t start = 0;
	int piece = 0, is_unknown = 0;
	int dso_unknown = bytes_eq(dso, dso_len, "[unknown]");
	while (start <= end) {
		const char *arrow = memmem(sym + start, end - start, "->", 2);
		size_t stop = arrow ? (size_t)(arrow - sym) : end;
		if (piece)
			strbuf_addch(out, ';');
		name_piece(out, sym + start, stop - start, dso, dso_len, pc, pc_len, flags,
			   piece > 0 || (flags & FOLD_INLINED));
		if (dso_unknown && bytes_eq(sym + start, stop - start, "[unknown]"))
			is_unknown = 1;
		if (after_piece)
			after_piece(arg, out, is_unknown);
		piece++;
		if (!arrow)
			break;
		start = stop + 2;
	}
	return 1;
}

int fold_name_frame_text_each(struct strbuf *out, const char *sym, size_t sym_len,
			      const char *dso, size_t dso_len, const char *pc, size_t pc_len,
			      unsigned flags,
			      void (*after_piece)(void *arg, struct strbuf *out, int is_unknown),
			      void *arg)
{
	size_t from = out->len;
	int r = fold_name_frame_text_each_raw(out, sym, sym_len, dso, dso_len, pc, pc_len, flags, after_piece, arg);
	strbuf_clean_controls(out, from);   /* a name must not end the line (strbuf.h) */
	return r;
}

int fold_name_frame_text(struct strbuf *out, const char *sym, size_t sym_len,
			 const char *dso, size_t dso_len, const char *pc, size_t pc_len,
			 unsigned flags)
{
	return fold_name_frame_text_each(out, sym, sym_len, dso, dso_len, pc, pc_len, flags,
					 NULL, NULL);
}

int fold_name_frame(struct strbuf *out, const char *sym, const char *dso, uint64_t addr,
		    unsigned flags)
{
	char pc[32];
	int pc_len = snprintf(pc, sizeof(pc), "%" PRIx64, addr);
	const char *s = sym ? sym : "[unknown]";
	const char *d = dso ? dso : "[unknown]";
	size_t s_len = strlen(s), d_len = strlen(d);

	/* perf script prints "SYM (DSO)" and the script splits that line at the last
	 * " (" before a ')': a dso such as "/x/lib.so (deleted)" moves the split.  Rebuild
	 * the printed text and split it the same way, so both inputs name alike. */
	if (memmem(d, d_len, " (", 2)) {
		struct strbuf line = STRBUF_INIT;
		int ret;

		strbuf_addf(&line, "%s (%s)", s, d);
		const char *split = NULL;
		for (const char *p = line.buf + 1; (p = memmem(p, line.len - (size_t)(p - line.buf), " (", 2)); p++)
			split = p;
		size_t func_len = (size_t)(split - line.buf);
		ret = fold_name_frame_text(out, line.buf, func_len, split + 2,
					   line.len - func_len - 3, pc, (size_t)pc_len, flags);
		strbuf_release(&line);
		return ret;
	}
	return fold_name_frame_text(out, s, s_len, d, d_len, pc, (size_t)pc_len, flags);
}

/* One piece of fold_name_frame_exact: NAME with ';' as ':' and the annotation. */
static void exact_piece(struct strbuf *out, const char *name, size_t len, unsigned flags,
			int inlined, int jit)
{
	size_t from = out->len;

	strbuf_add(out, name, len);
	for (size_t i = from; i < out->len; i++)
		if (out->buf[i] == ';')
			out->buf[i] = ':';
	char *n = out->buf + from;
	if ((flags & FOLD_JAVA) && len > 1 && n[0] == 'L' && memchr(n, '/', len)) {
		memmove(n, n + 1, len - 1); /* "Lorg/foo/Bar;.m" -> "org/foo/Bar:.m" */
		out->len--;
		out->buf[out->len] = '\0';
	}
	if (inlined) {
		if (!bytes_contain(out->buf + from, out->len - from, "_[i]"))
			strbuf_addstr(out, "_[i]");
	} else if ((flags & FOLD_KERNEL) && (flags & FOLD_KERNEL_FRAME)) {
		strbuf_addstr(out, "_[k]");
	} else if ((flags & FOLD_JIT) && jit) {
		if (!bytes_contain(out->buf + from, out->len - from, "_[j]"))
			strbuf_addstr(out, "_[j]");
	}
}

static int fold_name_frame_exact_raw(struct strbuf *out, const char *sym, const char *dso, uint64_t addr,
			  unsigned flags)
{
	const char *d = dso ? dso : "[unknown]";
	size_t d_len = strlen(d);
	int jit = dso_is_jit_map(d, d_len);

	if (!sym || !*sym) {
		size_t from = out->len;
		strbuf_addch(out, '[');
		if (strcmp(d, "[unknown]")) {
			const char *slash = strrchr(d, '/');
			strbuf_addstr(out, slash ? slash + 1 : d);
		} else {
			strbuf_addstr(out, "unknown");
		}
		if (flags & FOLD_ADDRS)
			strbuf_addf(out, " <%" PRIx64 ">", addr);
		strbuf_addch(out, ']');
		for (size_t i = from; i < out->len; i++)
			if (out->buf[i] == ';')
				out->buf[i] = ':';
		if ((flags & FOLD_KERNEL) && (flags & FOLD_KERNEL_FRAME))
			strbuf_addstr(out, "_[k]");
		return 1;
	}
	size_t len = strlen(sym);
	if (!jit || !memmem(sym, len, "->", 2)) {
		exact_piece(out, sym, len, flags, (flags & FOLD_INLINED) != 0, jit);
		return 1;
	}
	/* perf-map-agent writes an inlined chain "a->b->c" as one JIT-map symbol */
	size_t start = 0;
	for (int piece = 0;; piece++) {
		const char *arrow = memmem(sym + start, len - start, "->", 2);
		size_t stop = arrow ? (size_t)(arrow - sym) : len;
		if (piece)
			strbuf_addch(out, ';');
		exact_piece(out, sym + start, stop - start, flags,
			    piece > 0 || (flags & FOLD_INLINED), jit);
		if (!arrow)
			return 1;
		start = stop + 2;
	}
}

int fold_name_frame_exact(struct strbuf *out, const char *sym, const char *dso, uint64_t addr,
			  unsigned flags)
{
	size_t from = out->len;
	int r = fold_name_frame_exact_raw(out, sym, dso, addr, flags);
	strbuf_clean_controls(out, from);   /* a name must not end the line (strbuf.h) */
	return r;
}

void fold_name_root_text(struct strbuf *out, const char *comm, size_t comm_len,
			 const char *pid, const char *tid, enum fold_root_mode mode)
{
	size_t from = out->len;

	strbuf_add(out, comm, comm_len);
	if (mode == FOLD_ROOT_TID)
		strbuf_addf(out, "-%s/%s", pid, tid);
	else if (mode == FOLD_ROOT_PID)
		strbuf_addf(out, "-%s", pid);
	/* Only the space character: tabs and other blanks stay as they are; control
	 * bytes become '?' (a comm must not end the line: strbuf.h). */
	for (size_t i = from; i < out->len; i++)
		if (out->buf[i] == ' ')
			out->buf[i] = '_';
	strbuf_clean_controls(out, from);
}

void fold_name_root(struct strbuf *out, const char *comm, uint32_t pid, uint32_t tid,
		    enum fold_root_mode mode)
{
	char p[16], t[16];

	snprintf(p, sizeof(p), "%" PRIu32, pid);
	snprintf(t, sizeof(t), "%" PRIu32, tid);
	fold_name_root_text(out, comm, strlen(comm), p, t, mode);
}

int fold_root_is_java(const char *comm, size_t len)
{
	return len >= 4 && !memcmp(comm, "java", 4);
}

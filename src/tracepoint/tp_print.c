/* tp_print.c - parse and evaluate a tracepoint's print fmt (see tp_print.h).
 *
 * The arguments parse once per event into a small tree (recursive descent over C's
 * precedence levels); each sample evaluates the tree over its RAW bytes.  The format
 * string's conversions are printed with the C library's printf, sized the way perf's
 * libtraceevent sizes them: no length modifier prints an int, "l" a long of the
 * recording machine, "ll" a long long. */
#include "tracepoint/tp_print.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "tracepoint/tp_field.h"

enum node_kind { N_NUM, N_STR, N_FIELD, N_UNARY, N_BINARY, N_COND, N_CAST, N_CALL, N_LIST,
		 N_INDEX };

enum call_fn { FN_PRINT_FLAGS, FN_PRINT_SYMBOLIC, FN_GET_STR, FN_GET_DYN_LEN, FN_PRINT_HEX,
	       FN_PRINT_HEX_STR, FN_EXPECT };

struct tp_print_node {
	enum node_kind kind;
	int op;                     /* operator: '+', '!', 'L' (<<), 'R' (>>), 'E' (==), … */
	uint64_t num;
	char *str;
	const struct tp_field *field;
	struct tp_print_node **kids;
	size_t nr_kids;
	enum call_fn fn;
	unsigned cast_bytes;        /* 0: no narrowing (pointers, long long, unknown types) */
	int cast_signed;
	int prec;                   /* N_BINARY: its precedence level (levels[] index) */
	int paren;                  /* written in parentheses */
	int unknown;                /* holds a name the kernel left unresolved (an enum
				     * constant, a kernel variable): evaluates as 0, and a
				     * __print_flags/__print_symbolic entry with it never matches */
};

/* ---- tokens ---- */

enum tok { T_END, T_NUM, T_STR, T_ID, T_OP, T_BAD };

struct parser {
	const char *p;
	const struct tp_event *ev;
	enum tok tok;
	char text[256];  /* identifier, string literal or operator */
	uint64_t num;
	int num_unsigned;  /* the number had a U suffix */
	int failed;
};

static void next(struct parser *ps)
{
	static const char *const two[] = { "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||" };
	const char *p = ps->p;
	size_t n = 0;

	while (isspace((unsigned char)*p))
		p++;
	ps->text[0] = 0;
	if (!*p) {
		ps->tok = T_END;
	} else if (isdigit((unsigned char)*p)) {
		char *end;
		ps->num = strtoull(p, &end, 0);
		p = end;
		ps->num_unsigned = 0;
		while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')
			if (*p++ == 'u' || p[-1] == 'U')
				ps->num_unsigned = 1;
		ps->tok = T_NUM;
	} else if (isalpha((unsigned char)*p) || *p == '_') {
		while ((isalnum((unsigned char)*p) || *p == '_') && n + 1 < sizeof(ps->text))
			ps->text[n++] = *p++;
		ps->text[n] = 0;
		ps->tok = T_ID;
	} else if (*p == '"') {
		for (p++; *p && *p != '"'; p++) {
			char c = *p;
			if (c == '\\' && p[1]) {
				c = *++p;
				c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
			}
			if (n + 1 < sizeof(ps->text))
				ps->text[n++] = c;
		}
		ps->text[n] = 0;
		ps->tok = *p == '"' ? T_STR : T_BAD;
		if (*p)
			p++;
	} else {
		ps->tok = T_OP;
		for (size_t i = 0; i < sizeof(two) / sizeof(two[0]); i++)
			if (p[0] == two[i][0] && p[1] == two[i][1]) {
				memcpy(ps->text, p, 2);
				ps->text[2] = 0;
				p += 2;
				ps->p = p;
				return;
			}
		ps->text[0] = *p++;
		ps->text[1] = 0;
	}
	ps->p = p;
}

static int is_op(const struct parser *ps, const char *op)
{
	return ps->tok == T_OP && !strcmp(ps->text, op);
}

static struct tp_print_node *new_node(enum node_kind kind)
{
	struct tp_print_node *n = xcalloc(1, sizeof(*n));
	n->kind = kind;
	return n;
}

static void add_kid(struct tp_print_node *n, struct tp_print_node *kid)
{
	n->kids = xrealloc(n->kids, (n->nr_kids + 1) * sizeof(*n->kids));
	n->kids[n->nr_kids++] = kid;
	if (kid && kid->unknown)
		n->unknown = 1;
}

static void free_node(struct tp_print_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nr_kids; i++)
		free_node(n->kids[i]);
	free(n->kids);
	free(n->str);
	free(n);
}

static struct tp_print_node *fail(struct parser *ps, struct tp_print_node *n)
{
	ps->failed = 1;
	free_node(n);
	return NULL;
}

static struct tp_print_node *parse_expr(struct parser *ps);
static struct tp_print_node *parse_unary(struct parser *ps);

static const char *const type_words[] = {
	"unsigned", "signed", "int", "long", "short", "char", "bool", "void", "const",
	"struct", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "size_t", "pid_t",
	"gfp_t", "umode_t", "__u8", "__u16", "__u32", "__u64", "__s8", "__s16", "__s32",
	"__s64", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t", "int16_t",
	"int32_t", "int64_t", "loff_t", "dev_t", "ino_t", "sector_t", "phys_addr_t",
};

static int is_type_word(const char *s)
{
	for (size_t i = 0; i < sizeof(type_words) / sizeof(type_words[0]); i++)
		if (!strcmp(s, type_words[i]))
			return 1;
	return 0;
}

/* After "(" whose next token is a type word: the cast's type up to ")", sized as C
 * sizes it on the recording machine. */
static struct tp_print_node *parse_cast(struct parser *ps, int long_size)
{
	struct tp_print_node *n = new_node(N_CAST);
	int longs = 0, is_unsigned = 0, pointer = 0, bytes = 4, named = 0;

	while (ps->tok == T_ID || is_op(ps, "*")) {
		const char *w = ps->text;
		if (is_op(ps, "*"))
			pointer = 1;
		else if (!strcmp(w, "unsigned"))
			is_unsigned = 1;
		else if (!strcmp(w, "long"))
			longs++;
		else if (!strcmp(w, "short"))
			bytes = 2, named = 1;
		else if (!strcmp(w, "char"))
			bytes = 1, named = 1;
		else if (!strcmp(w, "bool"))
			bytes = 1, named = 1, is_unsigned = 1;
		else if (w[0] == 'u' && isdigit((unsigned char)w[1]))
			bytes = atoi(w + 1) / 8, named = 1, is_unsigned = 1;
		else if (w[0] == 's' && isdigit((unsigned char)w[1]))
			bytes = atoi(w + 1) / 8, named = 1;
		else if (!strncmp(w, "__u", 3) && isdigit((unsigned char)w[3]))
			bytes = atoi(w + 3) / 8, named = 1, is_unsigned = 1;
		else if (!strncmp(w, "__s", 3) && isdigit((unsigned char)w[3]))
			bytes = atoi(w + 3) / 8, named = 1;
		else if (!strcmp(w, "size_t"))
			bytes = long_size, named = 1, is_unsigned = 1;
		else if (!strcmp(w, "struct"))
			pointer = 1; /* all bets off: keep the value */
		next(ps);
	}
	if (!is_op(ps, ")"))
		return fail(ps, n);
	next(ps);
	if (!named && longs == 1)
		bytes = long_size;
	else if (!named && longs >= 2)
		bytes = 8;
	n->cast_bytes = pointer ? 0 : (unsigned)bytes;
	n->cast_signed = !is_unsigned;
	add_kid(n, parse_unary(ps));
	if (!n->kids[0])
		return fail(ps, n);
	return n;
}

static const struct {
	const char *name;
	enum call_fn fn;
} functions[] = {
	{ "__print_flags", FN_PRINT_FLAGS },       { "__print_flags_u64", FN_PRINT_FLAGS },
	{ "__print_symbolic", FN_PRINT_SYMBOLIC }, { "__print_symbolic_u64", FN_PRINT_SYMBOLIC },
	{ "__get_str", FN_GET_STR },               { "__get_rel_str", FN_GET_STR },
	{ "__get_dynamic_array_len", FN_GET_DYN_LEN },
	{ "__get_rel_dynamic_array_len", FN_GET_DYN_LEN },
	{ "__print_hex", FN_PRINT_HEX },           { "__print_hex_str", FN_PRINT_HEX_STR },
	{ "__builtin_expect", FN_EXPECT },
};

static struct tp_print_node *parse_field_ref(struct parser *ps, const char *name)
{
	struct tp_print_node *n = new_node(N_FIELD);
	n->field = tp_event_field(ps->ev, name);
	if (!n->field)
		return fail(ps, n);
	return n;
}

static struct tp_print_node *parse_call(struct parser *ps, enum call_fn fn)
{
	struct tp_print_node *n = new_node(N_CALL);
	n->fn = fn;
	if (!is_op(ps, "("))
		return fail(ps, n);
	next(ps);
	if (fn == FN_GET_STR || fn == FN_GET_DYN_LEN) {
		/* the argument is a bare field name */
		if (ps->tok != T_ID)
			return fail(ps, n);
		add_kid(n, parse_field_ref(ps, ps->text));
		next(ps);
	} else {
		while (!is_op(ps, ")")) {
			struct tp_print_node *k = parse_expr(ps);
			if (!k)
				return fail(ps, n);
			add_kid(n, k);
			if (!is_op(ps, ","))
				break;
			next(ps);
		}
	}
	if (ps->failed || !is_op(ps, ")") || !n->nr_kids)
		return fail(ps, n);
	next(ps);
	return n;
}

static struct tp_print_node *parse_primary(struct parser *ps)
{
	struct tp_print_node *n;

	if (ps->failed)
		return NULL;
	switch (ps->tok) {
	case T_NUM:
		n = new_node(N_NUM);
		n->num = ps->num;
		n->op = ps->num_unsigned ? 'U' : 0;
		next(ps);
		return n;
	case T_STR:
		n = new_node(N_STR);
		n->str = xstrdup(ps->text);
		next(ps);
		/* adjacent literals concatenate */
		while (ps->tok == T_STR) {
			char *s = xmalloc(strlen(n->str) + strlen(ps->text) + 1);
			sprintf(s, "%s%s", n->str, ps->text);
			free(n->str);
			n->str = s;
			next(ps);
		}
		return n;
	case T_ID:
		if (!strcmp(ps->text, "REC")) {
			next(ps);
			if (!is_op(ps, "->"))
				return fail(ps, NULL);
			next(ps);
			if (ps->tok != T_ID)
				return fail(ps, NULL);
			n = parse_field_ref(ps, ps->text);
			next(ps);
			if (n && is_op(ps, "[")) {
				/* REC->args[2]: one element of an array field */
				struct tp_print_node *ix = new_node(N_INDEX);
				add_kid(ix, n);
				next(ps);
				add_kid(ix, parse_expr(ps));
				if (!ix->kids[1] || !is_op(ps, "]"))
					return fail(ps, ix);
				next(ps);
				return ix;
			}
			return n;
		}
		for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
			if (!strcmp(ps->text, functions[i].name)) {
				next(ps);
				return parse_call(ps, functions[i].fn);
			}
		{
			/* an unknown helper is not evaluated; a bare name is a constant the
			 * kernel did not resolve */
			const char *after = ps->p;
			while (isspace((unsigned char)*after))
				after++;
			if (*after == '(')
				return fail(ps, NULL);
			n = new_node(N_NUM);
			n->unknown = 1;
			next(ps);
			return n;
		}
	case T_OP:
		if (is_op(ps, "(")) {
			next(ps);
			if (ps->tok == T_ID && is_type_word(ps->text))
				return parse_cast(ps, 8); /* 64-bit recordings: long is 8 bytes */
			n = parse_expr(ps);
			if (!n || !is_op(ps, ")"))
				return fail(ps, n);
			next(ps);
			n->paren = 1;
			return n;
		}
		if (is_op(ps, "{")) {
			n = new_node(N_LIST);
			next(ps);
			while (!is_op(ps, "}")) {
				struct tp_print_node *k = parse_expr(ps);
				if (!k)
					return fail(ps, n);
				add_kid(n, k);
				if (!is_op(ps, ","))
					break;
				next(ps);
			}
			if (!is_op(ps, "}"))
				return fail(ps, n);
			next(ps);
			return n;
		}
		return fail(ps, NULL);
	default:
		return fail(ps, NULL);
	}
}

static struct tp_print_node *parse_unary(struct parser *ps)
{
	if (is_op(ps, "!") || is_op(ps, "~") || is_op(ps, "-") || is_op(ps, "+")) {
		struct tp_print_node *n = new_node(N_UNARY);
		n->op = ps->text[0];
		next(ps);
		add_kid(n, parse_unary(ps));
		if (!n->kids[0])
			return fail(ps, n);
		return n;
	}
	return parse_primary(ps);
}

/* Binary operators by precedence level, lowest first; each maps to a one-char op code. */
static const struct {
	const char *ops[4];
	char codes[4];
} levels[] = {
	{ { "||" }, { 'O' } },
	{ { "&&" }, { 'A' } },
	{ { "|" }, { '|' } },
	{ { "^" }, { '^' } },
	{ { "&" }, { '&' } },
	{ { "==", "!=" }, { 'E', 'N' } },
	{ { "<", ">", "<=", ">=" }, { '<', '>', 'l', 'g' } },
	{ { "<<", ">>" }, { 'L', 'R' } },
	{ { "+", "-" }, { '+', '-' } },
	{ { "*", "/", "%" }, { '*', '/', '%' } },
};
#define NR_LEVELS (sizeof(levels) / sizeof(levels[0]))

/* LEFT OP RIGHT, where RIGHT was written in parentheses.  perf's libtraceevent does not
 * keep the grouping of a parenthesized right operand whose operators bind less tightly
 * than OP: it reads `a & (b | c | d)` as `((a & b) | c) | d` (timer:timer_start's flags
 * print D|P|I so).  Matching perf's text means reading it the same way. */
static struct tp_print_node *join_like_perf(struct tp_print_node *op, struct tp_print_node *left,
					    struct tp_print_node *right)
{
	if (right->kind == N_BINARY && right->prec < op->prec) {
		struct tp_print_node *inner = join_like_perf(op, left, right->kids[0]);
		right->kids[0] = inner;
		right->unknown |= inner->unknown;
		return right;
	}
	add_kid(op, left);
	add_kid(op, right);
	return op;
}

static struct tp_print_node *parse_level(struct parser *ps, size_t level)
{
	struct tp_print_node *left;

	if (level == NR_LEVELS)
		return parse_unary(ps);
	left = parse_level(ps, level + 1);
	while (left && ps->tok == T_OP) {
		int code = 0;
		for (int i = 0; i < 4 && levels[level].ops[i]; i++)
			if (!strcmp(ps->text, levels[level].ops[i]))
				code = levels[level].codes[i];
		if (!code)
			break;
		next(ps);
		struct tp_print_node *n = new_node(N_BINARY), *right;
		n->op = code;
		n->prec = (int)level;
		right = parse_level(ps, level + 1);
		if (!right) {
			free_node(left);
			return fail(ps, n);
		}
		if (right->paren && right->kind == N_BINARY && right->prec < n->prec) {
			right->paren = 0;
			left = join_like_perf(n, left, right);
			continue;
		}
		add_kid(n, left);
		add_kid(n, right);
		left = n;
	}
	return left;
}

static struct tp_print_node *parse_expr(struct parser *ps)
{
	struct tp_print_node *c = parse_level(ps, 0), *n;

	if (!c || !is_op(ps, "?"))
		return c;
	next(ps);
	n = new_node(N_COND);
	add_kid(n, c);
	add_kid(n, parse_expr(ps));
	if (!n->kids[1] || !is_op(ps, ":"))
		return fail(ps, n);
	next(ps);
	add_kid(n, parse_expr(ps));
	if (!n->kids[2])
		return fail(ps, n);
	return n;
}

int tp_print_parse(struct tp_event *ev, const char *args)
{
	struct parser ps = { 0 };
	struct tp_print_node *list = new_node(N_LIST);

	ps.p = args;
	ps.ev = ev;
	next(&ps);
	while (ps.tok != T_END && !ps.failed) {
		if (!is_op(&ps, ",")) {
			ps.failed = 1;
			break;
		}
		next(&ps);
		struct tp_print_node *k = parse_expr(&ps);
		if (!k)
			break;
		add_kid(list, k);
	}
	if (ps.failed) {
		free_node(list);
		ev->print_ok = 0;
		return -1;
	}
	ev->print_args = list;
	ev->nr_print_args = list->nr_kids;
	ev->print_ok = 1;
	return 0;
}

void tp_print_free(struct tp_event *ev)
{
	free_node(ev->print_args);
	ev->print_args = NULL;
	ev->nr_print_args = 0;
}

/* ---- evaluation ---- */

struct val {
	int is_str;
	uint64_t n;
	const char *s;
	size_t len;
	int is_unsigned;  /* C's type of the value: comparisons of unsigned values are unsigned */
};

struct eval {
	const struct tp_formats *f;
	const uint8_t *raw;
	size_t raw_size;
	char *scratch[16];   /* strings made by helpers for this sample */
	size_t nr_scratch;
};

static struct val eval(struct eval *e, const struct tp_print_node *n);

static struct val num(uint64_t v)
{
	struct val r = { 0, v, NULL, 0, 0 };
	return r;
}

static struct val typed(uint64_t v, int is_unsigned)
{
	struct val r = { 0, v, NULL, 0, is_unsigned };
	return r;
}

static struct val keep_string(struct eval *e, struct strbuf *sb)
{
	struct val r = { 1, 0, "", 0, 0 };
	if (e->nr_scratch == sizeof(e->scratch) / sizeof(e->scratch[0])) {
		strbuf_release(sb);
		return r;
	}
	e->scratch[e->nr_scratch++] = sb->buf;
	r.s = sb->buf ? sb->buf : "";
	r.len = sb->len;
	return r;
}

static uint64_t narrow(uint64_t v, unsigned bytes, int is_signed)
{
	if (!bytes || bytes >= 8)
		return v;
	v &= (1ULL << (8 * bytes)) - 1;
	if (is_signed && (v >> (8 * bytes - 1) & 1))
		v |= ~0ULL << (8 * bytes);
	return v;
}

static struct val eval_call(struct eval *e, const struct tp_print_node *n)
{
	struct strbuf sb = STRBUF_INIT;
	struct val v = eval(e, n->kids[0]);

	switch (n->fn) {
	case FN_GET_STR:
	case FN_EXPECT:
		return v;
	case FN_GET_DYN_LEN: {
		uint64_t loc = 0;
		if (n->kids[0]->field)
			tp_field_u64(n->kids[0]->field, e->raw, e->raw_size, &loc);
		return num(loc >> 16 & 0xffff);
	}
	case FN_PRINT_FLAGS: {
		const char *delim = n->nr_kids > 1 && n->kids[1]->kind == N_STR ? n->kids[1]->str : "";
		uint64_t rest = v.n;
		int printed = 0;
		for (size_t i = 2; i < n->nr_kids; i++) {
			const struct tp_print_node *item = n->kids[i];
			uint64_t mask;
			if (item->kind != N_LIST || item->nr_kids < 2 || item->kids[1]->kind != N_STR)
				continue;
			/* perf (libtraceevent) takes a name the kernel left unresolved as -1:
			 * it stands for a value of 0, and never matches a set bit */
			if (item->kids[0]->unknown) {
				if (v.n)
					continue;
				strbuf_addstr(&sb, item->kids[1]->str);
				printed = 1;
				break;
			}
			mask = eval(e, item->kids[0]).n;
			if (mask && (rest & mask) == mask) {
				if (printed)
					strbuf_addstr(&sb, delim);
				strbuf_addstr(&sb, item->kids[1]->str);
				printed = 1;
				rest &= ~mask;
			}
		}
		if (rest) {
			if (printed)
				strbuf_addstr(&sb, delim);
			strbuf_addf(&sb, "0x%" PRIx64, rest);
		}
		return keep_string(e, &sb);
	}
	case FN_PRINT_SYMBOLIC:
		for (size_t i = 1; i < n->nr_kids; i++) {
			const struct tp_print_node *item = n->kids[i];
			if (item->kind == N_LIST && item->nr_kids >= 2 && item->kids[1]->kind == N_STR &&
			    !item->kids[0]->unknown && eval(e, item->kids[0]).n == v.n) {
				strbuf_addstr(&sb, item->kids[1]->str);
				return keep_string(e, &sb);
			}
		}
		strbuf_addf(&sb, "0x%" PRIx64, v.n);
		return keep_string(e, &sb);
	case FN_PRINT_HEX:
	case FN_PRINT_HEX_STR: {
		/* __print_hex(__get_dynamic_array(x), len): the bytes at the field */
		const struct tp_field *fld = n->kids[0]->field;
		uint64_t len = n->nr_kids > 1 ? eval(e, n->kids[1]).n : 0;
		uint64_t off = fld ? fld->offset : 0;
		if (fld && (fld->is_data_loc || fld->is_rel_loc)) {
			uint64_t loc = 0;
			tp_field_u64(fld, e->raw, e->raw_size, &loc);
			off = (loc & 0xffff) + (fld->is_rel_loc ? fld->offset + 4 : 0);
		}
		for (uint64_t i = 0; fld && off < e->raw_size && i < len && i < e->raw_size - off; i++) {
			if (i && n->fn == FN_PRINT_HEX)
				strbuf_addch(&sb, ' ');
			strbuf_addf(&sb, "%02x", e->raw[off + i]);
		}
		return keep_string(e, &sb);
	}
	}
	return num(0);
}

static struct val eval(struct eval *e, const struct tp_print_node *n)
{
	struct val a, b;

	switch (n->kind) {
	case N_NUM:
		return typed(n->num, n->op == 'U');
	case N_STR: {
		struct val r = { 1, 0, n->str, strlen(n->str), 0 };
		return r;
	}
	case N_FIELD: {
		struct val r = { 0, 0, NULL, 0, !n->field->is_signed };
		if (n->field->is_string && !tp_field_str(n->field, e->raw, e->raw_size, &r.s, &r.len)) {
			r.is_str = 1;
			return r;
		}
		if (n->field->is_string) {
			r.is_str = 1;
			r.s = "";
			return r;
		}
		tp_field_u64(n->field, e->raw, e->raw_size, &r.n);
		return r;
	}
	case N_UNARY:
		a = eval(e, n->kids[0]);
		switch (n->op) {
		case '!': return num(a.is_str ? 0 : !a.n);
		case '~': return typed(~a.n, a.is_unsigned);
		case '-': return typed(-a.n, a.is_unsigned);
		default: return a;
		}
	case N_BINARY:
		a = eval(e, n->kids[0]);
		if (n->op == 'O' || n->op == 'A') {
			int l = a.is_str || a.n;
			if (n->op == 'O' ? l : !l)
				return num((uint64_t)l);
			b = eval(e, n->kids[1]);
			return num((uint64_t)(b.is_str || b.n));
		}
		b = eval(e, n->kids[1]);
		/* C's usual conversions, roughly: unsigned when either side is */
		int u = a.is_unsigned || b.is_unsigned;
		int64_t sa = (int64_t)a.n, sb = (int64_t)b.n;
		switch (n->op) {
		case '|': return typed(a.n | b.n, u);
		case '^': return typed(a.n ^ b.n, u);
		case '&': return typed(a.n & b.n, u);
		case 'E': return num(a.n == b.n);
		case 'N': return num(a.n != b.n);
		case '<': return num(u ? a.n < b.n : sa < sb);
		case '>': return num(u ? a.n > b.n : sa > sb);
		case 'l': return num(u ? a.n <= b.n : sa <= sb);
		case 'g': return num(u ? a.n >= b.n : sa >= sb);
		case 'L': return typed(b.n < 64 ? a.n << b.n : 0, a.is_unsigned);
		case 'R': return typed(b.n < 64 ? (a.is_unsigned ? a.n >> b.n : (uint64_t)(sa >> b.n)) : 0,
				       a.is_unsigned);
		case '+': return typed(a.n + b.n, u);
		case '-': return typed(a.n - b.n, u);
		case '*': return typed(a.n * b.n, u);
		case '/': return typed(!b.n ? 0 : u ? a.n / b.n : (uint64_t)(sb == -1 ? -sa : sa / sb), u);
		case '%': return typed(!b.n ? 0 : u ? a.n % b.n : (uint64_t)(sb == -1 ? 0 : sa % sb), u);
		}
		return num(0);
	case N_COND:
		a = eval(e, n->kids[0]);
		return eval(e, (a.is_str || a.n) ? n->kids[1] : n->kids[2]);
	case N_CAST:
		a = eval(e, n->kids[0]);
		if (a.is_str)
			return a;
		return typed(narrow(a.n, n->cast_bytes, n->cast_signed),
			     !n->cast_signed || !n->cast_bytes);
	case N_CALL:
		return eval_call(e, n);
	case N_LIST:
		return num(0);
	case N_INDEX: {
		const struct tp_field *f = n->kids[0]->field;
		const char *br = strchr(f->type, '[');
		uint64_t count = br ? strtoull(br + 1, NULL, 10) : 0, i = eval(e, n->kids[1]).n;
		struct tp_field elem = *f;
		if (!count || i >= count)
			return num(0);
		elem.size = (uint32_t)(f->size / count);
		elem.offset = f->offset + (uint32_t)i * elem.size;
		elem.is_array = 0;
		struct val r = num(0);
		tp_field_u64(&elem, e->raw, e->raw_size, &r.n);
		return r;
	}
	}
	return num(0);
}

/* One conversion of the format string: SPEC is "%-08lx" etc. (NUL-terminated). */
static void print_conversion(struct strbuf *out, const char *spec, size_t len, struct val v,
			     int long_size)
{
	char fmt[64], conv = spec[len - 1];
	size_t k = 0, longs = 0;

	for (size_t i = 0; i + 1 < len && k + 4 < sizeof(fmt); i++) {
		if (spec[i] == 'l')
			longs++;
		else if (spec[i] == 'z' || spec[i] == 'Z')
			longs = 1;
		else if (spec[i] != 'L' && spec[i] != 'j' && spec[i] != 't' && spec[i] != 'q')
			fmt[k++] = spec[i];
	}
	if (conv == 's') {
		fmt[k++] = 's';
		fmt[k] = 0;
		if (v.is_str) {
			char *s = xstrndup(v.s, v.len);
			strbuf_addf(out, fmt, s);
			free(s);
		}
		return;
	}
	if (conv == 'p') {
		fmt[k++] = 'p';
		fmt[k] = 0;
		strbuf_addf(out, fmt, (void *)(uintptr_t)v.n);
		return;
	}
	if (longs == 1 && long_size == 4)
		longs = 0;
	if (conv == 'c' || !longs) {
		fmt[k++] = conv;
		fmt[k] = 0;
		strbuf_addf(out, fmt, (int)(uint32_t)v.n);
		return;
	}
	fmt[k++] = 'l';
	fmt[k++] = 'l';
	fmt[k++] = conv;
	fmt[k] = 0;
	strbuf_addf(out, fmt, (long long)v.n);
}

/* perf's text for an event whose print fmt did not parse: the marker and each field. */
static void print_failed(const struct tp_event *ev, const uint8_t *raw, size_t raw_size,
			 struct strbuf *out)
{
	strbuf_addstr(out, "[FAILED TO PARSE]");
	for (size_t i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];
		const char *s;
		size_t len;
		uint64_t v = 0;
		if (f->is_common)
			continue;
		strbuf_addf(out, " %s=", f->name);
		if (f->is_string && !tp_field_str(f, raw, raw_size, &s, &len))
			strbuf_add(out, s, len);
		else if (!tp_field_u64(f, raw, raw_size, &v))
			strbuf_addf(out, f->is_signed ? "%" PRId64 : "%" PRIu64, v);
	}
}

/* %ps/%pf: the symbol's name; %pS/%pF: name+0xoffset; unnamed: the address in hex. */
static void print_symbol(struct strbuf *out, const struct tp_symbolizer *sym, char kind,
			 uint64_t addr)
{
	uint64_t off = 0;
	const char *name = sym && sym->name ? sym->name(sym->ctx, addr, &off) : NULL;
	if (!name) {
		strbuf_addf(out, "0x%" PRIx64, addr);
		return;
	}
	strbuf_addstr(out, name);
	if (kind == 'S' || kind == 'F')
		strbuf_addf(out, "+0x%" PRIx64, off);
}

void tp_print_sample(const struct tp_formats *f, const struct tp_event *ev,
		     const uint8_t *raw, size_t raw_size, const struct tp_symbolizer *sym,
		     struct strbuf *out)
{
	struct eval e = { f, raw, raw_size, { 0 }, 0 };
	const char *p;
	size_t arg = 0;

	if (!ev->print_ok || !ev->print_fmt) {
		print_failed(ev, raw, raw_size, out);
		return;
	}
	for (p = ev->print_fmt; *p; p++) {
		char spec[48];
		size_t len = 0;
		if (*p != '%') {
			strbuf_addch(out, *p);
			continue;
		}
		if (p[1] == '%') {
			strbuf_addch(out, '%');
			p++;
			continue;
		}
		spec[len++] = *p++;
		/* flags, width, precision, length, then the conversion letter */
		while (*p && strchr("-+ #0123456789.*hlLzZjtq", *p) && len + 2 < sizeof(spec)) {
			if (*p == '*') {
				struct val w = arg < ev->nr_print_args ?
					eval(&e, ev->print_args->kids[arg++]) : num(0);
				len += (size_t)snprintf(spec + len, sizeof(spec) - len, "%d", (int)w.n);
				if (len >= sizeof(spec) - 2)
					len = sizeof(spec) - 3;
				p++;
				continue;
			}
			spec[len++] = *p++;
		}
		if (!*p)
			break;
		spec[len++] = *p;
		spec[len] = 0;
		char kind = 0;
		if (*p == 'p') {
			kind = p[1];
			while (isalnum((unsigned char)p[1])) /* %pM, %pI4…: a plain pointer */
				p++;
		}
		if (arg >= ev->nr_print_args)
			continue;
		if (kind == 's' || kind == 'S' || kind == 'f' || kind == 'F') {
			print_symbol(out, sym, kind, eval(&e, ev->print_args->kids[arg++]).n);
			continue;
		}
		print_conversion(out, spec, len, eval(&e, ev->print_args->kids[arg++]), f->long_size);
	}
	for (size_t i = 0; i < e.nr_scratch; i++)
		free(e.scratch[i]);
}

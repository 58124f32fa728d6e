/* tp_print.c - parse a tracepoint's print fmt (see tp_print.h).
 *
 * The arguments parse once per event into a small tree (recursive descent over C's
 * precedence levels, tp_print_internal.h); each sample evaluates the tree over its RAW
 * bytes (tp_print_eval.c). */
#include "tracepoint/tp_print.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "tracepoint/tp_field.h"

#include "tracepoint/tp_print_internal.h"

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
	unsigned nesting;  /* parse_expr and parse_unary calls under way */
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
	if (kid && kid->height + 1 > n->height)
		n->height = kid->height + 1;
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

/* Comma-separated expressions up to CLOSE (not taken) as N's kids: a call's arguments,
 * a { } list.  -1 when one does not parse. */
static int parse_expr_list(struct parser *ps, struct tp_print_node *n, const char *close)
{
	while (!is_op(ps, close)) {
		struct tp_print_node *k = parse_expr(ps);
		if (!k)
			return -1;
		add_kid(n, k);
		if (!is_op(ps, ","))
			break;
		next(ps);
	}
	return 0;
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
		if (parse_expr_list(ps, n, ")"))
			return fail(ps, n);
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
			if (parse_expr_list(ps, n, "}") || !is_op(ps, "}"))
				return fail(ps, n);
			next(ps);
			return n;
		}
		return fail(ps, NULL);
	default:
		return fail(ps, NULL);
	}
}

static struct tp_print_node *parse_unary_here(struct parser *ps)
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

/* Every nesting (parentheses, braces, calls, unary and conditional chains) passes
 * through parse_unary or parse_expr: they count it. */
static struct tp_print_node *parse_unary(struct parser *ps)
{
	if (ps->nesting >= TP_PRINT_MAX_NESTING)
		return fail(ps, NULL);
	ps->nesting++;
	struct tp_print_node *n = parse_unary_here(ps);
	ps->nesting--;
	return n;
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
		for (size_t i = 0; i < right->nr_kids; i++)
			if (right->kids[i] && right->kids[i]->height + 1 > right->height)
				right->height = right->kids[i]->height + 1;
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
			if (left->height > TP_PRINT_MAX_HEIGHT)
				return fail(ps, left);
			continue;
		}
		add_kid(n, left);
		add_kid(n, right);
		left = n;
		if (left->height > TP_PRINT_MAX_HEIGHT)
			return fail(ps, left);
	}
	return left;
}

static struct tp_print_node *parse_expr_here(struct parser *ps)
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

static struct tp_print_node *parse_expr(struct parser *ps)
{
	if (ps->nesting >= TP_PRINT_MAX_NESTING)
		return fail(ps, NULL);
	ps->nesting++;
	struct tp_print_node *n = parse_expr_here(ps);
	ps->nesting--;
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


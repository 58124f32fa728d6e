/* tp_print_eval.c - evaluate a parsed print fmt over a sample's RAW bytes (see
 * tp_print.h).  The format string's conversions are printed with the C library's
 * printf, sized the way perf's libtraceevent sizes them: no length modifier prints an
 * int, "l" a long of the recording machine, "ll" a long long. */
#include "tracepoint/tp_print.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "tracepoint/tp_field.h"
#include "tracepoint/tp_print_internal.h"

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

/* Widths and precisions above this are cut to it: the recording's format (or a '*' width
 * from its data) must not make us print gigabytes. */
#define MAX_FIELD_WIDTH 4096

/* One conversion of the format string: SPEC is "%-08lx" etc. (NUL-terminated).  SPEC
 * comes from the recording and becomes a printf format: only the conversions of
 * integers, characters, strings and pointers are passed on (a "%n", or a "%q n" that
 * reads as one, would make printf write), any other is printed as it is written. */
static void print_conversion(struct strbuf *out, const char *spec, size_t len, struct val v,
			     int long_size)
{
	char fmt[64], conv = spec[len - 1];
	size_t k = 0, longs = 0;

	if (!conv || !strchr("diouxXcsp", conv)) {
		strbuf_add(out, spec, len);
		return;
	}
	for (size_t i = 0; i + 1 < len && k + 8 < sizeof(fmt); i++) {
		if (isdigit((unsigned char)spec[i]) && spec[i] != '0') {
			unsigned long n = 0;

			while (i + 1 < len && isdigit((unsigned char)spec[i])) {
				if (n <= MAX_FIELD_WIDTH)
					n = n * 10 + (unsigned long)(spec[i] - '0');
				i++;
			}
			i--;
			k += (size_t)snprintf(fmt + k, sizeof(fmt) - k, "%lu",
					      n < MAX_FIELD_WIDTH ? n : MAX_FIELD_WIDTH);
		} else if (spec[i] == 'l')
			longs++;
		else if (spec[i] == 'z' || spec[i] == 'Z')
			longs = 1;
		else if (spec[i] == '-' || spec[i] == '+' || spec[i] == ' ' || spec[i] == '#' ||
			 spec[i] == '0' || spec[i] == '.' || spec[i] == '%')
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

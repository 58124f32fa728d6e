/* trace_format.c - the TRACING_DATA blob and the ftrace format text of each event
 * (see trace_format.h).
 *
 * Blob layout (perf's util/trace-event-info.c writes it): magic "\x17\x08\x44tracing",
 * a version string ("0.5", "0.6"), one byte big-endian flag, one byte sizeof(long), u32
 * page size, "header_page" + u64 size + text, "header_event" + u64 size + text, u32
 * count of ftrace formats (u64 size + text each), u32 count of systems (name, u32 count,
 * u64 size + text each), u32 size + kallsyms text, u32 size + printk formats, and from
 * 0.6 on u64 size + saved cmdlines.  Only the event formats matter here. */
#include "tracepoint/trace_format.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "tracepoint/tp_field.h"
#include "tracepoint/tp_print.h"

struct blob {
	const uint8_t *p, *start, *end;
	int bad;
};

static const uint8_t *take(struct blob *b, uint64_t n)
{
	const uint8_t *q = b->p;
	if (b->bad || n > (uint64_t)(b->end - b->p)) {
		b->bad = 1;
		return NULL;
	}
	b->p += n;
	return q;
}

static uint64_t get_le(struct blob *b, unsigned n)
{
	const uint8_t *q = take(b, n);
	uint64_t v = 0;
	for (unsigned i = 0; q && i < n; i++)
		v |= (uint64_t)q[i] << (8 * i);
	return v;
}

/* A NUL-terminated string inside the blob. */
static const char *get_cstr(struct blob *b)
{
	const uint8_t *nul = b->bad ? NULL : memchr(b->p, 0, (size_t)(b->end - b->p));
	const char *s = (const char *)b->p;
	if (!nul) {
		b->bad = 1;
		return NULL;
	}
	b->p = nul + 1;
	return s;
}

static int blob_fail(struct blob *b, struct tephra_error *err, const char *what)
{
	tephra_error_set(err, "tracing data: offset 0x%zx: %s", (size_t)(b->p - b->start), what);
	return -1;
}

/* "header_page" / "header_event": the name, a u64 size and that many bytes. */
static int skip_named_section(struct blob *b, const char *name, struct tephra_error *err)
{
	const char *s = get_cstr(b);
	if (!s || strcmp(s, name))
		return blob_fail(b, err, name[7] == 'p' ? "no header_page section" :
				 "no header_event section");
	take(b, get_le(b, 8));
	return b->bad ? blob_fail(b, err, "header section runs past the end") : 0;
}

int tp_formats_parse(struct tp_formats *out, const uint8_t *data, size_t size,
		     struct tephra_error *err)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct blob b = { data, data, data + size, 0 };
	const uint8_t *m;
	const char *version;
	uint64_t n;

	memset(out, 0, sizeof(*out));
	m = take(&b, sizeof(magic));
	if (!m || memcmp(m, magic, sizeof(magic)))
		return blob_fail(&b, err, "not tracing data (bad magic)");
	version = get_cstr(&b);
	if (!version)
		return blob_fail(&b, err, "version string runs past the end");
	if (get_le(&b, 1))
		return blob_fail(&b, err, "written on a big-endian machine: not supported");
	out->long_size = (int)get_le(&b, 1);
	out->page_size = (uint32_t)get_le(&b, 4);
	if (b.bad)
		return blob_fail(&b, err, "header runs past the end");
	if (out->long_size != 4 && out->long_size != 8)
		return blob_fail(&b, err, "sizeof(long) is neither 4 nor 8");
	if (skip_named_section(&b, "header_page", err) ||
	    skip_named_section(&b, "header_event", err))
		return -1;
	n = get_le(&b, 4); /* ftrace's own formats (function, …): not sampled by perf */
	for (uint64_t i = 0; i < n && !b.bad; i++)
		take(&b, get_le(&b, 8));
	if (b.bad)
		return blob_fail(&b, err, "ftrace formats run past the end");
	n = get_le(&b, 4);
	for (uint64_t i = 0; i < n && !b.bad; i++) {
		const char *system = get_cstr(&b);
		uint64_t count = get_le(&b, 4);
		for (uint64_t k = 0; k < count && !b.bad; k++) {
			uint64_t len = get_le(&b, 8);
			const uint8_t *text = take(&b, len);
			if (text && tp_formats_add_text(out, system, (const char *)text,
							(size_t)len, err)) {
				tp_formats_free(out);
				return -1;
			}
		}
	}
	if (b.bad) {
		tp_formats_free(out);
		return blob_fail(&b, err, "event formats run past the end");
	}
	/* kallsyms, printk formats and saved cmdlines follow: perf script's tracepoint
	 * text does not use them for the print fmts handled here */
	return 0;
}

/* ---- one event's format text ---- */

static char *trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

/* "unsigned short common_type", "char prev_comm[16]", "__data_loc char[] name". */
static int parse_decl(struct tp_field *f, const char *decl, size_t n)
{
	size_t end = n, name_end, name_start;
	const char *arr = NULL;
	size_t arr_len = 0;

	while (end && isspace((unsigned char)decl[end - 1]))
		end--;
	if (end && decl[end - 1] == ']') {
		size_t open = end;
		while (open && decl[open - 1] != '[')
			open--;
		if (!open)
			return -1;
		arr = decl + open - 1;
		arr_len = end - (open - 1);
		end = open - 1;
	}
	name_end = end;
	while (name_end && isspace((unsigned char)decl[name_end - 1]))
		name_end--;
	name_start = name_end;
	while (name_start && (isalnum((unsigned char)decl[name_start - 1]) ||
			      decl[name_start - 1] == '_'))
		name_start--;
	if (name_start == name_end)
		return -1;
	f->name = xstrndup(decl + name_start, name_end - name_start);
	{
		char *type = trim_dup(decl, name_start);
		size_t tl = strlen(type);
		f->type = xmalloc(tl + arr_len + 1);
		memcpy(f->type, type, tl);
		if (arr)
			memcpy(f->type + tl, arr, arr_len);
		f->type[tl + arr_len] = 0;
		free(type);
	}
	f->is_data_loc = !strncmp(f->type, "__data_loc", 10);
	f->is_rel_loc = !strncmp(f->type, "__rel_loc", 9);
	f->is_array = arr != NULL && !f->is_data_loc && !f->is_rel_loc;
	f->is_string = strstr(f->type, "char") != NULL &&
		       (f->is_array || f->is_data_loc || f->is_rel_loc);
	f->is_common = !strncmp(f->name, "common_", 7);
	return 0;
}

/* Finds "KEY:" in a field line and reads the number after it. */
static int line_number(const char *line, size_t n, const char *key, uint32_t *out)
{
	size_t kl = strlen(key);
	for (size_t i = 0; i + kl <= n; i++)
		if (!memcmp(line + i, key, kl) && (i == 0 || line[i - 1] == '\t' ||
						   line[i - 1] == ';' || line[i - 1] == ' ')) {
			char buf[24];
			size_t k = 0, j = i + kl;
			while (j < n && k + 1 < sizeof(buf) && line[j] != ';')
				buf[k++] = line[j++];
			buf[k] = 0;
			*out = (uint32_t)strtoul(buf, NULL, 0);
			return 0;
		}
	return -1;
}

static int add_field_line(struct tp_event *ev, const char *line, size_t n)
{
	const char *decl = line + 6; /* after "field:" */
	const char *semi = memchr(decl, ';', n - 6);
	struct tp_field f = { 0 };
	uint32_t sign = 0;

	if (!semi || parse_decl(&f, decl, (size_t)(semi - decl)) ||
	    line_number(line, n, "offset:", &f.offset) || line_number(line, n, "size:", &f.size)) {
		free(f.name);
		free(f.type);
		return -1;
	}
	if (line_number(line, n, "signed:", &sign) == 0)
		f.is_signed = sign != 0;
	ev->fields = xrealloc(ev->fields, (ev->nr_fields + 1) * sizeof(*ev->fields));
	ev->fields[ev->nr_fields++] = f;
	return 0;
}

/* The print fmt line: a quoted C string, then ", args". */
static void set_print_fmt(struct tp_event *ev, const char *s, size_t n)
{
	struct strbuf fmt = STRBUF_INIT;
	size_t i = 0;

	while (i < n && isspace((unsigned char)s[i]))
		i++;
	if (i >= n || s[i] != '"')
		return;
	for (i++; i < n && s[i] != '"'; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < n) {
			c = s[++i];
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
		}
		strbuf_addch(&fmt, c);
	}
	if (i >= n) {
		strbuf_release(&fmt);
		return;
	}
	ev->print_fmt = fmt.buf ? fmt.buf : xstrdup("");
	{
		char *args = xstrndup(s + i + 1, n - i - 1);
		tp_print_parse(ev, args);
		free(args);
	}
}

int tp_formats_add_text(struct tp_formats *f, const char *system, const char *text, size_t len,
			struct tephra_error *err)
{
	struct tp_event ev = { 0 };
	size_t at = 0;
	int have_id = 0;

	while (at < len) {
		const char *line = text + at;
		const char *nl = memchr(line, '\n', len - at);
		size_t n = nl ? (size_t)(nl - line) : len - at;
		const char *p = line;
		size_t k = n;

		at += n + (nl != NULL);
		while (k && (*p == '\t' || *p == ' ')) {
			p++;
			k--;
		}
		if (k >= 5 && !memcmp(p, "name:", 5)) {
			free(ev.name);
			ev.name = trim_dup(p + 5, k - 5);
		} else if (k >= 3 && !memcmp(p, "ID:", 3)) {
			char *id = trim_dup(p + 3, k - 3);
			ev.id = (uint32_t)strtoul(id, NULL, 10);
			have_id = 1;
			free(id);
		} else if (k >= 6 && !memcmp(p, "field:", 6)) {
			add_field_line(&ev, p, k); /* a field that does not parse is left out */
		} else if (k >= 10 && !memcmp(p, "print fmt:", 10)) {
			/* the rest of the text: the arguments may in principle span lines */
			set_print_fmt(&ev, p + 10, (size_t)(text + len - (p + 10)));
			break;
		}
	}
	if (!ev.name || !have_id) {
		tephra_error_set(err, "tracing data: an event format of system '%s' has no %s",
				 system ? system : "?", ev.name ? "ID" : "name");
		free(ev.name);
		ev.system = NULL;
		for (size_t i = 0; i < ev.nr_fields; i++) {
			free(ev.fields[i].name);
			free(ev.fields[i].type);
		}
		free(ev.fields);
		free(ev.print_fmt);
		tp_print_free(&ev);
		return -1;
	}
	ev.system = xstrdup(system ? system : "");
	ev.full_name = xmalloc(strlen(ev.system) + strlen(ev.name) + 2);
	sprintf(ev.full_name, "%s:%s", ev.system, ev.name);
	if (f->nr_events == f->cap_events) {
		f->cap_events = f->cap_events ? 2 * f->cap_events : 16;
		f->events = xrealloc(f->events, f->cap_events * sizeof(*f->events));
	}
	f->events[f->nr_events++] = ev;
	return 0;
}

const struct tp_event *tp_formats_find(const struct tp_formats *f, uint64_t id)
{
	for (size_t i = 0; f && i < f->nr_events; i++)
		if (f->events[i].id == id)
			return &f->events[i];
	return NULL;
}

void tp_formats_free(struct tp_formats *f)
{
	for (size_t i = 0; i < f->nr_events; i++) {
		struct tp_event *ev = &f->events[i];
		for (size_t k = 0; k < ev->nr_fields; k++) {
			free(ev->fields[k].name);
			free(ev->fields[k].type);
		}
		free(ev->fields);
		free(ev->system);
		free(ev->name);
		free(ev->full_name);
		free(ev->print_fmt);
		tp_print_free(ev);
	}
	free(f->events);
	memset(f, 0, sizeof(*f));
}

/* ---- field values (tp_field.h) ---- */

const struct tp_field *tp_event_field(const struct tp_event *ev, const char *name)
{
	for (size_t i = 0; ev && i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	return NULL;
}

int tp_field_u64(const struct tp_field *f, const uint8_t *raw, size_t raw_size, uint64_t *out)
{
	unsigned n = f->is_data_loc || f->is_rel_loc ? 4 : f->size;
	uint64_t v = 0;

	if (n > 8 || f->is_array)
		n = 8 < f->size ? 8 : f->size; /* an array reads as its first bytes */
	if (f->offset > raw_size || n > raw_size - f->offset)
		return -1;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)raw[f->offset + i] << (8 * i);
	if (f->is_signed && n && n < 8 && (v >> (8 * n - 1) & 1))
		v |= ~0ULL << (8 * n);
	*out = v;
	return 0;
}

int tp_field_str(const struct tp_field *f, const uint8_t *raw, size_t raw_size,
		 const char **s, size_t *len)
{
	uint64_t off = f->offset, n = f->size;

	if (f->is_data_loc || f->is_rel_loc) {
		uint64_t loc;
		if (tp_field_u64(f, raw, raw_size, &loc))
			return -1;
		off = (loc & 0xffff) + (f->is_rel_loc ? f->offset + 4 : 0);
		n = loc >> 16 & 0xffff;
	} else if (!f->is_array) {
		return -1;
	}
	if (off > raw_size || n > raw_size - off)
		return -1;
	*s = (const char *)raw + off;
	*len = strnlen(*s, (size_t)n);
	return 0;
}

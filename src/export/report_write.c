/* report_write.c - `tephra report`: the top functions (objects, comms) by self and
 * total weight (see export_write.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "export/export_write.h"

struct row {
	uint32_t name;      /* string id */
	uint32_t object;    /* string id of the object's path (0: none, or not by function) */
	uint64_t self, total;
	size_t stamp;       /* the last stack counted in total, + 1 */
};

/* The rows by key: a function is one of an object (perf report --sort dso,sym): the
 * _start of python3 and ld.so's are two rows, not one. */
struct rows {
	struct hashmap index; /* object string id << 32 | name string id -> row */
	struct row *rows;
	size_t nr, cap;
};

static struct row *row_of(struct rows *t, uint32_t object, uint32_t name)
{
	int created;
	size_t i = hashmap_intern_u64(&t->index, (uint64_t)object << 32 | name, &created);
	if (created) {
		if (t->nr == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 256;
			t->rows = xrealloc(t->rows, t->cap * sizeof(*t->rows));
		}
		t->rows[t->nr++] = (struct row){ name, object, 0, 0, 0 };
	}
	return &t->rows[i];
}

/* The object (path string id, 0: none) a location is grouped under with its function. */
static uint32_t location_object(const struct export_profile *p, const struct export_location *l)
{
	return l->mapping != EXPORT_NONE ? p->maps[l->mapping].path : 0;
}

/* The row a location is grouped under. */
static struct row *location_row(struct rows *t, const struct export_profile *p,
				const struct export_stack *s, uint32_t loc,
				enum export_report_key key)
{
	if (key == REPORT_BY_COMM)
		return row_of(t, 0, s->thread != EXPORT_NONE && s->thread < p->nr_threads
					    ? p->threads[s->thread].comm : 0);
	const struct export_location *l = &p->locs[loc];
	if (key == REPORT_BY_DSO)
		return row_of(t, 0, location_object(p, l));
	/* the containing function: by its symbol's name (an inline chain's last line is
	 * DWARF's name for it), else the last of the inline chain */
	return row_of(t, location_object(p, l),
		      l->function ? l->function
				  : p->funcs[p->lines[l->first_line + l->n_lines - 1].function].name);
}

static int by_self(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	return x->object < y->object ? -1 : x->object > y->object;
}

static int by_total(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return by_self(a, b);
}

/* PATH's last component ("[kernel.kallsyms]" stays whole). */
static const char *base_name(const char *path)
{
	const char *slash = path[0] == '[' ? NULL : strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* WEIGHT in UNIT as a short text: nanoseconds as s/ms/us, counts as they are. */
static void format_weight(char *buf, size_t size, uint64_t w, int is_time)
{
	if (!is_time || !w)
		snprintf(buf, size, "%" PRIu64, w);
	else if (w >= 1000000000)
		snprintf(buf, size, "%.2fs", (double)w / 1e9);
	else if (w >= 1000000)
		snprintf(buf, size, "%.2fms", (double)w / 1e6);
	else
		snprintf(buf, size, "%.2fus", (double)w / 1e3);
}

void export_json_string(FILE *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	fputc('"', out);
	for (size_t i = 0; i < len;) {
		unsigned c = u[i];
		if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", c);
			i++;
		} else if (c < 0x20) {
			fprintf(out, "\\u%04x", c);
			i++;
		} else if (c < 0x80) {
			fputc((int)c, out);
			i++;
		} else {
			/* a well-formed UTF-8 sequence is copied, anything else is U+FFFD */
			size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
			int ok = n && i + n <= len;
			for (size_t k = 1; ok && k < n; k++)
				ok = (u[i + k] & 0xc0) == 0x80;
			if (ok && n == 3)
				ok = !(c == 0xe0 && u[i + 1] < 0xa0) && !(c == 0xed && u[i + 1] >= 0xa0);
			if (ok && n == 4)
				ok = !(c == 0xf0 && u[i + 1] < 0x90) && !(c == 0xf4 && u[i + 1] >= 0x90);
			if (ok) {
				fwrite(u + i, 1, n, out);
				i += n;
			} else {
				fputs("\\ufffd", out);
				i++;
			}
		}
	}
	fputc('"', out);
}

int export_write_report(const struct export_profile *p, const struct export_report_options *o,
			FILE *out, struct tephra_error *err)
{
	struct rows t = { .nr = 0 };
	uint64_t all = 0, samples = 0;
	hashmap_init(&t.index);
	for (size_t i = 0; i < p->nr_stacks; i++) {
		const struct export_stack *s = &p->stacks[i];
		if (!s->weight)
			continue;
		all += s->weight;
		samples += s->samples;
		if (!s->n_frames && o->key != REPORT_BY_COMM)
			continue;
		const uint32_t *f = p->stack_frames + s->first_frame;
		location_row(&t, p, s, s->n_frames ? f[s->n_frames - 1] : 0, o->key)->self += s->weight;
		/* once per stack for each key on it (the stamp: the stack's index + 1); rows
		 * may move as rows are added, so each is found anew */
		for (size_t k = 0; k < (s->n_frames ? s->n_frames : 1); k++) {
			struct row *r = location_row(&t, p, s, s->n_frames ? f[k] : 0, o->key);
			if (r->stamp != i + 1) {
				r->stamp = i + 1;
				r->total += s->weight;
			}
			if (o->key != REPORT_BY_SYM)
				continue;
			/* the functions inlined at a frame are on the stack too (perf report
			 * --children lists them as "f (inlined)") */
			const struct export_location *l = &p->locs[f[k]];
			for (size_t j = 0; j + 1 < l->n_lines; j++) {
				r = row_of(&t, location_object(p, l),
					   p->funcs[p->lines[l->first_line + j].function].name);
				if (r->stamp != i + 1) {
					r->stamp = i + 1;
					r->total += s->weight;
				}
			}
		}
	}
	hashmap_release(&t.index);
	struct row *rows = t.rows;
	size_t n = 0;
	for (size_t k = 0; k < t.nr; k++)
		if (rows[k].self || rows[k].total)
			rows[n++] = rows[k];
	if (n)
		qsort(rows, n, sizeof(*rows), o->sort_total ? by_total : by_self);
	if (o->top && n > o->top)
		n = o->top;
	int is_time = !o->countname && export_profile_is_time(p);
	const char *unit = o->countname ? o->countname
			   : is_time ? "nanoseconds"
			   : !p->has_sample_counts && p->event ? p->event /* the profile's unit */
			   : p->event ? "count" : "samples";
	const char *what = o->key == REPORT_BY_SYM ? "function" : o->key == REPORT_BY_DSO ? "object" : "comm";
	const char *unknown = o->key == REPORT_BY_SYM ? "[unknown]" : o->key == REPORT_BY_DSO ? "[unknown]" : "";
	double scale = all ? 100.0 / (double)all : 0;
	if (o->json) {
		fputs("{\"source\":", out);
		export_json_string(out, o->source ? o->source : "", o->source ? strlen(o->source) : 0);
		fputs(",\"event\":", out);
		export_json_string(out, p->event ? p->event : "", p->event ? strlen(p->event) : 0);
		fprintf(out, ",\"unit\":\"%s\",\"total\":%" PRIu64 ",\"samples\":%" PRIu64
			",\"key\":\"%s\",\"rows\":[", unit, all, samples, what);
		for (size_t i = 0; i < n; i++) {
			const char *name = rows[i].name ? export_string(p, rows[i].name) : unknown;
			fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
			export_json_string(out, name, strlen(name));
			if (o->key == REPORT_BY_SYM) {
				const char *obj = export_string(p, rows[i].object);
				fputs(",\"object\":", out);
				export_json_string(out, obj, strlen(obj));
			}
			fprintf(out, ",\"self\":%" PRIu64 ",\"self_percent\":%.4f,\"total\":%" PRIu64
				",\"total_percent\":%.4f}", rows[i].self, (double)rows[i].self * scale,
				rows[i].total, (double)rows[i].total * scale);
		}
		fputs("]}\n", out);
	} else {
		char tw[32], sw[32];
		format_weight(tw, sizeof(tw), all, is_time);
		/* folded text counts no samples apart from its weights; no forged lines (strbuf.h) */
		fputs("# ", out);
		fputs_clean(o->source ? o->source : "", out);
		if (p->has_sample_counts) {
			fprintf(out, ": %" PRIu64 " samples%s", samples, p->event ? " of " : "");
			fputs_clean(p->event ? p->event : "", out);
			fprintf(out, ", %s in all (%s)\n", tw, unit);
		} else {
			fprintf(out, ": %s in all (%s)\n", tw, unit);
		}
		fprintf(out, "# per %s, by %s weight%s\n#\n", what, o->sort_total ? "total" : "self",
			o->top && n == o->top ? " (the top ones)" : "");
		/* per function, its object's base name first, as perf report --sort dso,sym
		 * (folded text names no object: no column) */
		int width = 0, objects = 0;
		for (size_t i = 0; o->key == REPORT_BY_SYM && i < n; i++) {
			int len = (int)strlen(base_name(export_string(p, rows[i].object)));
			width = len > width ? len : width;
			objects |= rows[i].object != 0;
		}
		width = width > 32 ? 32 : width < 9 ? 9 : width;
		if (objects)
			fprintf(out, "#  %12s %7s  %12s %7s  %-*s  %s\n", "self", "self%", "total",
				"total%", width, "object", what);
		else
			fprintf(out, "#  %12s %7s  %12s %7s  %s\n", "self", "self%", "total",
				"total%", what);
		for (size_t i = 0; i < n; i++) {
			format_weight(sw, sizeof(sw), rows[i].self, is_time);
			format_weight(tw, sizeof(tw), rows[i].total, is_time);
			fprintf(out, "   %12s %6.2f%%  %12s %6.2f%%  ", sw,
				(double)rows[i].self * scale, tw, (double)rows[i].total * scale);
			if (objects) {
				const char *obj = base_name(export_string(p, rows[i].object));
				fprintf(out, "%-*s  ", width, *obj ? obj : "[unknown]");
			}
			fputs_clean(rows[i].name ? export_string(p, rows[i].name) : unknown, out);
			fputc('\n', out);
		}
	}
	free(rows);
	if (ferror(out)) {
		tephra_error_set(err, "write error");
		return -1;
	}
	return 0;
}

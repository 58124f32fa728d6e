/* speedscope_write.c - a profile as speedscope's file format (JSON): one sampled
 * profile per thread, its samples in time order with their weights, one shared frame
 * table (a frame per function and source file; inlined functions are frames too). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "export/export_write.h"

static void json_str(FILE *out, const struct export_profile *p, uint32_t id)
{
	const struct hashmap_entry *e = hashmap_entry(&p->strings, id);
	export_json_string(out, e->key, e->len);
}

/* Stacks as JSON arrays of function ids, root first, each made once (samples repeat
 * stacks) and kept as text: writing is then one fwrite per sample. */
struct stack_texts {
	struct strbuf text;
	uint64_t *span;          /* per stack: offset << 24 | length, 0 when not made */
};

static void append_uint(struct strbuf *b, uint32_t v)
{
	char tmp[10];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		strbuf_addch(b, tmp[--n]);
}

/* Samples and weights are most of the file (tens of MB): gathered in a buffer of our own
 * and handed to stdio a megabyte at a time, which then writes them directly, not in
 * its 4 KB buffer's worth per write(2) (and without printf's format parsing). */
enum { BULK_SIZE = 1 << 20 };
#define WEIGHTS_KEY "],\"weights\":["

struct bulk_out {
	FILE *out;
	size_t len;
	char buf[BULK_SIZE];
};

static void bulk_flush(struct bulk_out *w)
{
	if (w->len)
		fwrite(w->buf, 1, w->len, w->out);
	w->len = 0;
}

static void bulk_put(struct bulk_out *w, const char *s, size_t n)
{
	if (n > BULK_SIZE - w->len) {
		bulk_flush(w);
		if (n >= BULK_SIZE) {
			fwrite(s, 1, n, w->out);
			return;
		}
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

static void put_u64(struct bulk_out *w, int comma, uint64_t v)
{
	char tmp[21];
	size_t n = sizeof(tmp);
	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (comma)
		tmp[--n] = ',';
	bulk_put(w, tmp + n, sizeof(tmp) - n);
}

/* Writes stack ID's JSON array, after a comma when COMMA. */
static void write_stack(struct bulk_out *w, int comma, const struct export_profile *p,
			struct stack_texts *st, uint32_t id)
{
	if (comma)
		bulk_put(w, ",", 1);
	if (!st->span[id]) {
		const struct export_stack *s = &p->stacks[id];
		size_t at = st->text.len;
		strbuf_addch(&st->text, '[');
		for (size_t k = 0; k < s->n_frames; k++) {
			const struct export_location *l = &p->locs[p->stack_frames[s->first_frame + k]];
			for (size_t j = l->n_lines; j-- > 0;) {
				if (st->text.len > at + 1)
					strbuf_addch(&st->text, ',');
				append_uint(&st->text, p->lines[l->first_line + j].function);
			}
		}
		strbuf_addch(&st->text, ']');
		size_t len = st->text.len - at;
		if (len >= (1u << 24)) { /* too long to keep: written as made */
			bulk_put(w, st->text.buf + at, len);
			st->text.len = at;
			return;
		}
		st->span[id] = (uint64_t)at << 24 | len;
	}
	bulk_put(w, st->text.buf + (st->span[id] >> 24), st->span[id] & ((1u << 24) - 1));
}

static void profile_head(FILE *out, int first, const char *unit, uint64_t end)
{
	fprintf(out, "%s{\"type\":\"sampled\",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64
		",\"name\":", first ? "" : ",\n", unit, end);
}

int export_write_speedscope(struct export_profile *p, const char *name, FILE *out,
			    struct tephra_error *err)
{
	const char *unit = export_profile_is_time(p) ? "nanoseconds" : "none";
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"tephra\",\"name\":", out);
	export_json_string(out, name, strlen(name));
	fputs(",\"activeProfileIndex\":0,\"shared\":{\"frames\":[", out);
	for (size_t i = 0; i < hashmap_count(&p->functions); i++) {
		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
		json_str(out, p, p->funcs[i].name);
		if (p->funcs[i].file) {
			fputs(",\"file\":", out);
			json_str(out, p, p->funcs[i].file);
		}
		fputc('}', out);
	}
	fputs("]},\"profiles\":[\n", out);
	struct stack_texts st = { STRBUF_INIT, xcalloc(p->nr_stacks + 1, sizeof(uint64_t)) };
	struct bulk_out *w = xmalloc(sizeof(*w));
	w->out = out;
	w->len = 0;
	if (!p->nr_threads) {
		/* folded text: no threads, no times: one profile of the stacks as read */
		uint64_t end = 0;
		for (size_t i = 0; i < p->nr_stacks; i++)
			end += p->stacks[i].weight;
		profile_head(out, 1, unit, end);
		export_json_string(out, name, strlen(name));
		fputs(",\"samples\":[", out);
		for (size_t i = 0; i < p->nr_stacks; i++)
			write_stack(w, i > 0, p, &st, (uint32_t)i);
		bulk_put(w, WEIGHTS_KEY, sizeof(WEIGHTS_KEY) - 1);
		for (size_t i = 0; i < p->nr_stacks; i++)
			put_u64(w, i > 0, p->stacks[i].weight);
		bulk_put(w, "]}", 2);
		bulk_flush(w);
	} else {
		/* one profile per thread (pid, tid), whatever comms it had: named with the
		 * last one; its samples in time order, by a counting sort on the thread */
		size_t nt = p->nr_threads;
		struct hashmap by_tid = HASHMAP_INIT;
		uint32_t *group = xmalloc(nt * sizeof(*group));
		uint32_t *named = xmalloc(nt * sizeof(*named));
		hashmap_init(&by_tid);
		for (size_t t = 0; t < nt; t++) {
			int32_t key[2] = { p->threads[t].pid, p->threads[t].tid };
			int created;
			group[t] = (uint32_t)hashmap_intern(&by_tid, key, sizeof(key), &created);
			named[group[t]] = (uint32_t)t; /* threads come in order of first sample */
		}
		size_t ng = hashmap_count(&by_tid);
		hashmap_release(&by_tid);
		/* Regrouped by thread in time order, in streams like P's (about 4 bytes a
		 * sample; a sorted array of (stack, weight) took 16: 68 MB for 4.2 M
		 * samples), filled as P's blocks are freed: one copy of the samples at a
		 * time (both together were this writer's peak). */
		struct export_samples *by_thread = xcalloc(ng, sizeof(*by_thread));
		struct export_sample_cursor cur = { { 0, 0 }, 0 };
		struct export_sample smp;
		while (export_samples_take(&p->samples, &cur, &smp))
			export_samples_add(&by_thread[group[p->stacks[smp.stack].thread]], smp.stack,
					   smp.weight);
		int first = 1;
		for (size_t t = 0; t < ng; t++) {
			struct export_samples *ts = &by_thread[t];
			if (!ts->nr)
				continue;
			const struct export_thread *th = &p->threads[named[t]];
			char label[64];
			if (th->tid >= 0)
				snprintf(label, sizeof(label), " (%" PRId32 "/%" PRId32 ")", th->pid, th->tid);
			else /* a process's threads merged (grind) */
				snprintf(label, sizeof(label), " (%" PRId32 ")", th->pid);
			profile_head(out, first, unit, ts->total);
			first = 0;
			const struct hashmap_entry *c = hashmap_entry(&p->strings, th->comm);
			struct strbuf thread_name = STRBUF_INIT;
			strbuf_add(&thread_name, c->key, c->len);
			strbuf_addstr(&thread_name, label);
			export_json_string(out, thread_name.buf, thread_name.len);
			strbuf_release(&thread_name);
			fputs(",\"samples\":[", out);
			cur = (struct export_sample_cursor){ { 0, 0 }, 0 };
			for (int comma = 0; export_samples_next(ts, &cur, &smp); comma = 1)
				write_stack(w, comma, p, &st, smp.stack);
			bulk_put(w, WEIGHTS_KEY, sizeof(WEIGHTS_KEY) - 1);
			cur = (struct export_sample_cursor){ { 0, 0 }, 0 };
			for (int comma = 0; export_samples_next(ts, &cur, &smp); comma = 1)
				put_u64(w, comma, smp.weight);
			export_samples_release(ts);
			bulk_put(w, "]}", 2);
			bulk_flush(w);
		}
		free(group);
		free(named);
		free(by_thread);
	}
	strbuf_release(&st.text);
	free(st.span);
	free(w);
	fputs("\n]}\n", out);
	if (ferror(out)) {
		tephra_error_set(err, "write error");
		return -1;
	}
	return 0;
}

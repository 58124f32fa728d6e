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

/* One thread's samples, regrouped: chunks of export_profile's encoding, growing from
 * 1 KB (recordings with thousands of threads) to the size of export_profile's blocks,
 * so that a chunk of a busy thread takes the place of a block just freed. */
#define GROUP_CHUNK_MIN 1024
#define GROUP_CHUNK_MAX (256 * 1024)
struct group_chunk {
	struct group_chunk *next;
	size_t len, cap;
	uint8_t bytes[];
};
struct group_bytes {
	struct group_chunk *head, *tail;
	uint64_t last;  /* the weight before, for the next delta */
	uint64_t end;   /* the weights' sum */
};

static void group_put(struct group_bytes *g, uint32_t stack, uint64_t weight)
{
	struct group_chunk *c = g->tail;
	if (!c || c->cap - c->len < 2 * VARINT_MAX) {
		size_t size = c && c->cap + sizeof(*c) < GROUP_CHUNK_MAX ? 2 * (c->cap + sizeof(*c))
			      : c ? GROUP_CHUNK_MAX : GROUP_CHUNK_MIN;
		struct group_chunk *n = xmalloc(size);
		n->next = NULL;
		n->len = 0;
		n->cap = size - sizeof(*n);
		if (c)
			c->next = n;
		else
			g->head = n;
		g->tail = c = n;
	}
	c->len += varint_put(c->bytes + c->len, stack);
	c->len += varint_put(c->bytes + c->len, zigzag(weight - g->last));
	g->last = weight;
	g->end += weight;
}

static void group_free(struct group_bytes *g)
{
	while (g->head) {
		struct group_chunk *c = g->head;
		g->head = c->next;
		free(c);
	}
	g->tail = NULL;
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
		/* Regrouped by thread in time order, encoded as export_profile keeps them
		 * (about 4 bytes a sample; a sorted array of (stack, weight) took 16: 68 MB
		 * for 4.2 M samples), into chunks per thread made as P's blocks are freed:
		 * one copy of the samples at a time (both together were this writer's peak). */
		struct group_bytes *gb = xcalloc(ng, sizeof(*gb));
		struct export_sample_cursor cur = { 0, 0, 0 };
		struct export_sample smp;
		while (export_sample_take(p, &cur, &smp))
			group_put(&gb[group[p->stacks[smp.stack].thread]], smp.stack, smp.weight);
		int first = 1;
		for (size_t t = 0; t < ng; t++) {
			if (!gb[t].head)
				continue;
			const struct export_thread *th = &p->threads[named[t]];
			char label[64];
			if (th->tid >= 0)
				snprintf(label, sizeof(label), " (%" PRId32 "/%" PRId32 ")", th->pid, th->tid);
			else /* a process's threads merged (grind) */
				snprintf(label, sizeof(label), " (%" PRId32 ")", th->pid);
			profile_head(out, first, unit, gb[t].end);
			first = 0;
			const struct hashmap_entry *c = hashmap_entry(&p->strings, th->comm);
			struct strbuf thread_name = STRBUF_INIT;
			strbuf_add(&thread_name, c->key, c->len);
			strbuf_addstr(&thread_name, label);
			export_json_string(out, thread_name.buf, thread_name.len);
			strbuf_release(&thread_name);
			fputs(",\"samples\":[", out);
			int comma = 0;
			for (const struct group_chunk *ch = gb[t].head; ch; ch = ch->next)
				for (size_t k = 0; k < ch->len; comma = 1) {
					write_stack(w, comma, p, &st, (uint32_t)varint_get(ch->bytes, &k));
					(void)varint_get(ch->bytes, &k);
				}
			bulk_put(w, WEIGHTS_KEY, sizeof(WEIGHTS_KEY) - 1);
			uint64_t weight = 0;
			comma = 0;
			for (const struct group_chunk *ch = gb[t].head; ch; ch = ch->next)
				for (size_t k = 0; k < ch->len; comma = 1) {
					(void)varint_get(ch->bytes, &k);
					weight += unzigzag(varint_get(ch->bytes, &k));
					put_u64(w, comma, weight);
				}
			group_free(&gb[t]);
			bulk_put(w, "]}", 2);
			bulk_flush(w);
		}
		free(group);
		free(named);
		free(gb);
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

/* pprof_write.c - a profile as pprof's profile.proto, gzip-compressed.
 *
 * Our own protocol-buffer writer: the message is a handful of field kinds (varints,
 * packed varints, strings, nested messages), each nested message built in a scratch
 * buffer and copied after its length, so no schema compiler or runtime is needed
 * (docs/export.md says why and what it costs).  Field numbers are the published
 * schema's (github.com/google/pprof, proto/profile.proto). */
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/varint.h"
#include "base/xalloc.h"
#include "export/export_write.h"

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

static void put_tag(struct strbuf *b, unsigned field, unsigned wire)
{
	varint_add(b, (uint64_t)field << 3 | wire);
}

/* A varint field; proto3 leaves zero values out. */
static void put_uint(struct strbuf *b, unsigned field, uint64_t v)
{
	if (!v)
		return;
	put_tag(b, field, WIRE_VARINT);
	varint_add(b, v);
}

static void put_bytes(struct strbuf *b, unsigned field, const void *data, size_t len)
{
	put_tag(b, field, WIRE_LEN);
	varint_add(b, len);
	strbuf_add(b, data, len);
}

/* A nested message held in SUB, which is then emptied. */
static void put_message(struct strbuf *b, unsigned field, struct strbuf *sub)
{
	put_bytes(b, field, sub->buf, sub->len);
	strbuf_reset(sub);
}

struct pprof_ids {
	uint32_t samples, count, unit, pid, tid, thread, value_type;
};

static void value_type(struct strbuf *b, struct strbuf *sub, unsigned field, uint32_t type,
		       uint32_t unit)
{
	put_uint(sub, 1, type);
	put_uint(sub, 2, unit);
	put_message(b, field, sub);
}

/* Strings the writer adds beside the profile's: ids after the profile's own. */
struct extra_strings {
	const char *s[8];
	size_t n, base;
};

static uint32_t extra(struct extra_strings *x, const char *s)
{
	x->s[x->n] = s;
	return (uint32_t)(x->base + x->n++);
}

/* Samples root first by thread, then by their locations root first: neighbours share
 * their callers, so deflate finds them once (the DWARF bench file's pprof shrank from
 * 118 KB to 83 KB, the frame-pointer one's from 694 KB to 644 KB). */
static int stack_order(const void *a, const void *b, void *arg)
{
	const struct export_profile *p = arg;
	const struct export_stack *x = &p->stacks[*(const uint32_t *)a];
	const struct export_stack *y = &p->stacks[*(const uint32_t *)b];
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	const uint32_t *fx = p->stack_frames + x->first_frame, *fy = p->stack_frames + y->first_frame;
	size_t n = x->n_frames < y->n_frames ? x->n_frames : y->n_frames;
	for (size_t k = 0; k < n; k++)
		if (fx[k] != fy[k])
			return fx[k] < fy[k] ? -1 : 1;
	return (x->n_frames > n) - (y->n_frames > n);
}

static void encode(const struct export_profile *p, const struct export_write_options *o,
		   struct strbuf *b)
{
	struct strbuf sub = STRBUF_INIT, sub2 = STRBUF_INIT;
	struct extra_strings x = { { 0 }, 0, hashmap_count(&p->strings) };
	char event[128];
	size_t event_len = p->event ? strcspn(p->event, ":") : 0;
	snprintf(event, sizeof(event), "%.*s", (int)(event_len < 100 ? event_len : 100),
		 p->event ? p->event : "");
	const char *time_kind = export_profile_time_kind(p);
	int is_time = time_kind != NULL;
	uint32_t samples = extra(&x, "samples"), count = extra(&x, "count");
	uint32_t what = is_time ? extra(&x, time_kind) : p->event ? extra(&x, event) : samples;
	uint32_t unit = is_time ? extra(&x, "nanoseconds") : count;
	uint32_t pid = extra(&x, "pid"), tid = extra(&x, "tid"), thread = extra(&x, "thread");

	/* 1: sample_type: samples/count, then what the weights count (perf.data); or what
	 * the weights count alone (instructions; folded text: samples) */
	value_type(b, &sub, 1, p->has_sample_counts ? samples : what, count);
	if (p->has_sample_counts)
		value_type(b, &sub, 1, what, unit);
	/* 2: one sample per stack: locations leaf first, values, thread labels */
	uint32_t *order = xmalloc((p->nr_stacks + 1) * sizeof(*order));
	size_t nr_order = 0;
	for (size_t i = 0; i < p->nr_stacks; i++)
		if (p->stacks[i].samples || p->stacks[i].weight)
			order[nr_order++] = (uint32_t)i;
	qsort_r(order, nr_order, sizeof(*order), stack_order, (void *)p);
	for (size_t i = 0; i < nr_order; i++) {
		const struct export_stack *s = &p->stacks[order[i]];
		for (size_t k = s->n_frames; k-- > 0;)
			varint_add(&sub2, (uint64_t)p->stack_frames[s->first_frame + k] + 1);
		if (sub2.len)
			put_message(&sub, 1, &sub2);
		varint_add(&sub2, p->has_sample_counts ? s->samples : s->weight);
		if (p->has_sample_counts)
			varint_add(&sub2, s->weight);
		put_message(&sub, 2, &sub2);
		if (s->thread != EXPORT_NONE && s->thread < p->nr_threads) {
			const struct export_thread *t = &p->threads[s->thread];
			struct strbuf lab = STRBUF_INIT;
			put_uint(&lab, 1, pid);
			put_uint(&lab, 3, (uint64_t)(int64_t)t->pid);
			put_message(&sub2, 3, &lab);
			if (t->tid >= 0) { /* no tid: a process's threads merged (grind) */
				put_uint(&lab, 1, tid);
				put_uint(&lab, 3, (uint64_t)(int64_t)t->tid);
				put_message(&sub2, 3, &lab);
			}
			put_uint(&lab, 1, thread);
			put_uint(&lab, 2, t->comm);
			put_message(&sub2, 3, &lab);
			strbuf_release(&lab);
			strbuf_add(&sub, sub2.buf, sub2.len);
			strbuf_reset(&sub2);
		}
		put_message(b, 2, &sub);
	}
	free(order);
	/* 3: mappings: the objects, fully symbolized already */
	for (size_t i = 0; i < hashmap_count(&p->mappings); i++) {
		put_uint(&sub, 1, i + 1);
		put_uint(&sub, 5, p->maps[i].path);
		put_uint(&sub, 6, p->maps[i].build_id);
		put_uint(&sub, 7, 1);
		put_uint(&sub, 8, 1);
		put_uint(&sub, 9, 1);
		put_uint(&sub, 10, 1);
		put_message(b, 3, &sub);
	}
	/* 4: locations, one per (object, address), their inline chain innermost first */
	for (size_t i = 0; i < p->nr_locs; i++) {
		const struct export_location *l = &p->locs[i];
		if (!l->n_lines)
			continue;
		put_uint(&sub, 1, i + 1);
		if (l->mapping != EXPORT_NONE)
			put_uint(&sub, 2, (uint64_t)l->mapping + 1);
		put_uint(&sub, 3, l->address);
		for (size_t k = 0; k < l->n_lines; k++) {
			const struct export_loc_line *ln = &p->lines[l->first_line + k];
			put_uint(&sub2, 1, (uint64_t)ln->function + 1);
			put_uint(&sub2, 2, ln->line);
			put_message(&sub, 4, &sub2);
		}
		put_message(b, 4, &sub);
	}
	/* 5: functions */
	for (size_t i = 0; i < hashmap_count(&p->functions); i++) {
		const struct export_function *f = &p->funcs[i];
		put_uint(&sub, 1, i + 1);
		put_uint(&sub, 2, f->name);
		put_uint(&sub, 3, f->system_name ? f->system_name : f->name);
		put_uint(&sub, 4, f->file);
		put_message(b, 5, &sub);
	}
	/* 6: the string table, "" first */
	for (size_t i = 0; i < hashmap_count(&p->strings); i++) {
		const struct hashmap_entry *e = hashmap_entry(&p->strings, i);
		put_bytes(b, 6, e->key, e->len);
	}
	for (size_t i = 0; i < x.n; i++)
		put_bytes(b, 6, x.s[i], strlen(x.s[i]));
	/* 9 time_nanos, 11 period_type, 12 period (the mean weight of a sample), 14
	 * default_sample_type */
	if (o->time_nanos > 0)
		put_uint(b, 9, (uint64_t)o->time_nanos);
	uint64_t total = 0, nr = 0;
	for (size_t i = 0; i < p->nr_stacks; i++) {
		total += p->stacks[i].weight;
		nr += p->stacks[i].samples;
	}
	if (p->has_sample_counts || p->event) {
		value_type(b, &sub, 11, what, unit);
		put_uint(b, 12, nr ? total / nr : 0);
		put_uint(b, 14, what);
	}
	strbuf_release(&sub);
	strbuf_release(&sub2);
}

/* --granularity=functions: Q is P (sharing its strings, functions and mappings) with one
 * location per (mapping, function ids of the inline chain), address 0, lines 0, and
 * the stacks that then meet (same thread, same locations) merged, their weights and
 * samples summed.  Free with release_by_functions. */
static void by_functions(const struct export_profile *p, struct export_profile *q)
{
	*q = *p;
	q->locs = NULL;
	q->lines = NULL;
	q->stacks = NULL;
	q->stack_frames = NULL;
	q->nr_locs = q->nr_lines = q->nr_stacks = q->nr_stack_frames = 0;
	q->cap_locs = q->cap_lines = q->cap_stacks = q->cap_stack_frames = 0;
	uint32_t *of_loc = xmalloc((p->nr_locs + 1) * sizeof(*of_loc));
	uint32_t *key = NULL;
	size_t cap_key = 0;
	struct hashmap chains = HASHMAP_INIT, stacks = HASHMAP_INIT;
	for (size_t i = 0; i < p->nr_locs; i++) {
		const struct export_location *l = &p->locs[i];
		of_loc[i] = EXPORT_NONE;
		if (!l->n_lines)
			continue;
		if (cap_key < 2 + (size_t)l->n_lines) {
			cap_key = 2 + (size_t)l->n_lines;
			key = xrealloc(key, cap_key * sizeof(*key));
		}
		key[0] = l->mapping;
		key[1] = l->n_lines;
		for (size_t k = 0; k < l->n_lines; k++)
			key[2 + k] = p->lines[l->first_line + k].function;
		int created;
		size_t id = hashmap_intern(&chains, key, (2 + l->n_lines) * sizeof(*key), &created);
		if (created) {
			if (id >= q->cap_locs) {
				q->cap_locs = q->cap_locs ? 2 * q->cap_locs : 256;
				q->locs = xrealloc(q->locs, q->cap_locs * sizeof(*q->locs));
			}
			if (q->nr_lines + l->n_lines > q->cap_lines) {
				while (q->nr_lines + l->n_lines > q->cap_lines)
					q->cap_lines = q->cap_lines ? 2 * q->cap_lines : 256;
				q->lines = xrealloc(q->lines, q->cap_lines * sizeof(*q->lines));
			}
			q->locs[id] = (struct export_location){ 0, l->mapping, (uint32_t)q->nr_lines,
								l->n_lines };
			for (size_t k = 0; k < l->n_lines; k++)
				q->lines[q->nr_lines++] = (struct export_loc_line){ key[2 + k], 0 };
			q->nr_locs = id + 1;
		}
		of_loc[i] = (uint32_t)id;
	}
	for (size_t i = 0; i < p->nr_stacks; i++) {
		const struct export_stack *s = &p->stacks[i];
		if (!s->samples && !s->weight)
			continue;
		if (cap_key < 1 + (size_t)s->n_frames) {
			cap_key = 1 + (size_t)s->n_frames;
			key = xrealloc(key, cap_key * sizeof(*key));
		}
		key[0] = s->thread;
		for (size_t k = 0; k < s->n_frames; k++)
			key[1 + k] = of_loc[p->stack_frames[s->first_frame + k]];
		int created;
		size_t id = hashmap_intern(&stacks, key, (1 + s->n_frames) * sizeof(*key), &created);
		if (created) {
			if (id >= q->cap_stacks) {
				q->cap_stacks = q->cap_stacks ? 2 * q->cap_stacks : 256;
				q->stacks = xrealloc(q->stacks, q->cap_stacks * sizeof(*q->stacks));
			}
			if (q->nr_stack_frames + s->n_frames > q->cap_stack_frames) {
				while (q->nr_stack_frames + s->n_frames > q->cap_stack_frames)
					q->cap_stack_frames = q->cap_stack_frames ? 2 * q->cap_stack_frames
										  : 1024;
				q->stack_frames = xrealloc(q->stack_frames,
							   q->cap_stack_frames * sizeof(*q->stack_frames));
			}
			q->stacks[id] = (struct export_stack){ s->thread, (uint32_t)q->nr_stack_frames,
							       s->n_frames, 0, 0 };
			memcpy(q->stack_frames + q->nr_stack_frames, key + 1,
			       s->n_frames * sizeof(*key));
			q->nr_stack_frames += s->n_frames;
			q->nr_stacks = id + 1;
		}
		q->stacks[id].weight += s->weight;
		q->stacks[id].samples += s->samples;
	}
	hashmap_release(&chains);
	hashmap_release(&stacks);
	free(key);
	free(of_loc);
}

static void release_by_functions(struct export_profile *q)
{
	free(q->locs);
	free(q->lines);
	free(q->stacks);
	free(q->stack_frames);
}

int export_write_pprof(const struct export_profile *p, const struct export_write_options *o,
		       FILE *out, struct tephra_error *err)
{
	struct strbuf b = STRBUF_INIT;
	if (o->granularity == EXPORT_GRANULARITY_FUNCTIONS) {
		struct export_profile q;
		by_functions(p, &q);
		encode(&q, o, &b);
		release_by_functions(&q);
	} else {
		encode(p, o, &b);
	}
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(o->gzip_level ? o->gzip_level : 6);
	if (!c)
		xfatal("out of memory");
	size_t bound = libdeflate_gzip_compress_bound(c, b.len);
	void *gz = xmalloc(bound);
	size_t n = libdeflate_gzip_compress(c, b.buf, b.len, gz, bound);
	libdeflate_free_compressor(c);
	strbuf_release(&b);
	int rc = 0;
	if (!n || fwrite(gz, 1, n, out) != n) {
		tephra_error_set(err, "writing the pprof profile failed");
		rc = -1;
	}
	free(gz);
	return rc;
}

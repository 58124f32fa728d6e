/* callgrind_write.c - a profile in the callgrind profile format (KCachegrind,
 * qcachegrind, callgrind_annotate).
 *
 * A sampled stack says what was running and what called it, not how costs flowed
 * through calls, so the arcs are chosen to make inclusive costs right without inventing
 * any: along a stack (the thread's comm first, then the functions, inlined ones as
 * functions of their own, outermost first) each distinct function gets the stack's
 * weight once, through the arc into its outermost occurrence (a real caller → callee
 * pair of that stack), and the leaf's function gets it as self cost at the leaf's
 * source line.  callgrind_annotate --inclusive=yes sums exactly those arcs into a
 * called function; `calls=` counts the samples that went through the arc. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "export/export_write.h"

struct cg_frame {
	uint32_t fn;             /* callgrind function id */
	uint32_t line;
};

struct cg_fn_key {
	uint32_t name, file, object; /* string ids; object 0 when none */
};

struct cg_arc {
	uint64_t cost, calls;
};

static uint32_t cg_fn(struct hashmap *fns, uint32_t name, uint32_t file, uint32_t object)
{
	struct cg_fn_key k = { name, file, object };
	int created;
	return (uint32_t)hashmap_intern(fns, &k, sizeof(k), &created);
}

/* "(id) name" the first time a name of kind KIND is used, then "(id)". */
static void compressed(FILE *out, const char *kind, uint32_t id, const char *name, uint8_t *seen)
{
	if (seen[id]) {
		fprintf(out, "%s=(%u)\n", kind, id + 1);
	} else {
		/* a name with a newline would forge fl=/fn=/cost lines (strbuf.h) */
		fprintf(out, "%s=(%u) ", kind, id + 1);
		fputs_clean(*name ? name : "???", out);
		fputc('\n', out);
	}
	seen[id] = 1;
}

int export_write_callgrind(const struct export_profile *p, FILE *out, struct tephra_error *err)
{
	struct hashmap fns = HASHMAP_INIT, self = HASHMAP_INIT, arcs = HASHMAP_INIT;
	struct cg_frame *seq = NULL;
	size_t cap = 0;
	uint32_t *stamp = NULL;
	size_t cap_stamp = 0;
	struct cg_arc *arc_cost = NULL;
	size_t cap_arcs = 0;
	uint64_t total = 0;
	uint32_t thread_file = 0;

	hashmap_init(&fns);
	hashmap_init(&self);
	hashmap_init(&arcs);
	for (size_t i = 0; i < p->nr_stacks; i++) {
		const struct export_stack *s = &p->stacks[i];
		if (!s->weight)
			continue;
		total += s->weight;
		size_t n = 0, need = 1;
		for (size_t k = 0; k < s->n_frames; k++)
			need += p->locs[p->stack_frames[s->first_frame + k]].n_lines;
		if (need > cap) {
			cap = need * 2;
			seq = xrealloc(seq, cap * sizeof(*seq));
		}
		if (s->thread != EXPORT_NONE && s->thread < p->nr_threads)
			seq[n++] = (struct cg_frame){ cg_fn(&fns, p->threads[s->thread].comm, thread_file, 0), 0 };
		for (size_t k = 0; k < s->n_frames; k++) {
			const struct export_location *l = &p->locs[p->stack_frames[s->first_frame + k]];
			uint32_t object = l->mapping != EXPORT_NONE ? p->maps[l->mapping].path : 0;
			for (size_t j = l->n_lines; j-- > 0;) {
				const struct export_loc_line *ln = &p->lines[l->first_line + j];
				const struct export_function *f = &p->funcs[ln->function];
				seq[n++] = (struct cg_frame){ cg_fn(&fns, f->name, f->file, object), ln->line };
			}
		}
		if (!n)
			continue;
		if (hashmap_count(&fns) > cap_stamp) {
			size_t old = cap_stamp;
			cap_stamp = hashmap_count(&fns) * 2;
			stamp = xrealloc(stamp, cap_stamp * sizeof(*stamp));
			memset(stamp + old, 0, (cap_stamp - old) * sizeof(*stamp));
		}
		uint64_t self_key[2] = { seq[n - 1].fn, seq[n - 1].line };
		int created;
		hashmap_entry(&self, hashmap_intern(&self, self_key, sizeof(self_key), &created))->value += s->weight;
		stamp[seq[0].fn] = (uint32_t)i + 1;
		for (size_t k = 1; k < n; k++) {
			if (stamp[seq[k].fn] == (uint32_t)i + 1)
				continue; /* not its outermost occurrence */
			stamp[seq[k].fn] = (uint32_t)i + 1;
			/* key: caller, caller's line, callee */
			uint32_t arc_key[3] = { seq[k - 1].fn, seq[k - 1].line, seq[k].fn };
			size_t a = hashmap_intern(&arcs, arc_key, sizeof(arc_key), &created);
			if (a >= cap_arcs) {
				cap_arcs = cap_arcs ? cap_arcs * 2 : 1024;
				arc_cost = xrealloc(arc_cost, cap_arcs * sizeof(*arc_cost));
			}
			if (created)
				arc_cost[a] = (struct cg_arc){ 0, 0 };
			arc_cost[a].cost += s->weight;
			arc_cost[a].calls += s->samples ? s->samples : 1;
		}
	}

	const char *time_kind = export_profile_time_kind(p);
	int is_time = time_kind != NULL;
	/* instructions as callgrind names them (Ir), so its tools show them as its own */
	int instructions = p->event && !p->has_sample_counts && !strcmp(p->event, "instructions");
	const char *event = is_time ? "ns" : instructions ? "Ir" : p->event ? "Count" : "Samples";
	fprintf(out, "# callgrind format\nversion: 1\ncreator: tephra\n");
	/* the event name comes from the recording's header: no line of its own */
	if (p->event && p->has_sample_counts) {
		fputs("cmd: ", out);
		fputs_clean(p->event, out);
		fputc('\n', out);
	}
	fprintf(out, "positions: line\nevent: %s : ", event);
	fputs_clean(!is_time ? (p->event ? p->event : "samples")
		    : !strcmp(time_kind, "cpu")  ? "CPU time (ns)"
		    : !strcmp(time_kind, "wall") ? "wall time (ns)"
						 : "off-CPU time (ns)", out);
	fprintf(out, "\nevents: %s\nsummary: %" PRIu64 "\n\n", event, total);

	/* per function: its self costs, then its arcs; names compressed as "(id) name" */
	size_t nr_fns = hashmap_count(&fns), nr_strings = hashmap_count(&p->strings);
	uint8_t *seen_fn = xcalloc(nr_fns ? nr_fns : 1, 1);
	uint8_t *seen_fl = xcalloc(nr_strings, 1), *seen_ob = xcalloc(nr_strings, 1);
	size_t *first_self = xcalloc(nr_fns + 1, sizeof(*first_self));
	size_t *first_arc = xcalloc(nr_fns + 1, sizeof(*first_arc));
	size_t nr_self = hashmap_count(&self), nr_arcs = hashmap_count(&arcs);
	size_t *self_order = xmalloc((nr_self + 1) * sizeof(*self_order));
	size_t *arc_order = xmalloc((nr_arcs + 1) * sizeof(*arc_order));
	/* counting sort of the self and arc entries by function */
	for (size_t e = 0; e < nr_self; e++)
		first_self[*(const uint64_t *)hashmap_entry(&self, e)->key + 1]++;
	for (size_t e = 0; e < nr_arcs; e++)
		first_arc[*(const uint32_t *)hashmap_entry(&arcs, e)->key + 1]++;
	for (size_t f = 0; f < nr_fns; f++) {
		first_self[f + 1] += first_self[f];
		first_arc[f + 1] += first_arc[f];
	}
	size_t *fill_self = xmalloc((nr_fns + 1) * sizeof(*fill_self));
	size_t *fill_arc = xmalloc((nr_fns + 1) * sizeof(*fill_arc));
	memcpy(fill_self, first_self, (nr_fns + 1) * sizeof(*fill_self));
	memcpy(fill_arc, first_arc, (nr_fns + 1) * sizeof(*fill_arc));
	for (size_t e = 0; e < nr_self; e++)
		self_order[fill_self[*(const uint64_t *)hashmap_entry(&self, e)->key]++] = e;
	for (size_t e = 0; e < nr_arcs; e++)
		arc_order[fill_arc[*(const uint32_t *)hashmap_entry(&arcs, e)->key]++] = e;
	for (size_t f = 0; f < nr_fns; f++) {
		if (first_self[f] == first_self[f + 1] && first_arc[f] == first_arc[f + 1])
			continue;
		const struct cg_fn_key *k = hashmap_entry(&fns, f)->key;
		compressed(out, "ob", k->object, export_string(p, k->object), seen_ob);
		compressed(out, "fl", k->file, export_string(p, k->file), seen_fl);
		compressed(out, "fn", (uint32_t)f, export_string(p, k->name), seen_fn);
		for (size_t e = first_self[f]; e < first_self[f + 1]; e++) {
			const struct hashmap_entry *h = hashmap_entry(&self, self_order[e]);
			fprintf(out, "%" PRIu64 " %" PRIu64 "\n", ((const uint64_t *)h->key)[1], h->value);
		}
		for (size_t e = first_arc[f]; e < first_arc[f + 1]; e++) {
			size_t a = arc_order[e];
			const uint32_t *ak = hashmap_entry(&arcs, a)->key;
			const struct cg_fn_key *ck = hashmap_entry(&fns, ak[2])->key;
			compressed(out, "cob", ck->object, export_string(p, ck->object), seen_ob);
			compressed(out, "cfl", ck->file, export_string(p, ck->file), seen_fl);
			compressed(out, "cfn", ak[2], export_string(p, ck->name), seen_fn);
			fprintf(out, "calls=%" PRIu64 " 0\n%u %" PRIu64 "\n", arc_cost[a].calls, ak[1],
				arc_cost[a].cost);
		}
		fputc('\n', out);
	}
	fprintf(out, "totals: %" PRIu64 "\n", total);
	free(seen_fn);
	free(seen_fl);
	free(seen_ob);
	free(first_self);
	free(first_arc);
	free(fill_self);
	free(fill_arc);
	free(self_order);
	free(arc_order);
	free(seq);
	free(stamp);
	free(arc_cost);
	hashmap_release(&fns);
	hashmap_release(&self);
	hashmap_release(&arcs);
	if (ferror(out)) {
		tephra_error_set(err, "write error");
		return -1;
	}
	return 0;
}

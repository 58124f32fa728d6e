/* perf_fold.c - perf.data → folded stacks (see perf_fold.h).
 *
 * Per sample only cheap work happens: the callchain's addresses are mapped (a binary
 * search in the thread's maps) and the stack of (object, address) pairs is interned with
 * one hash.  Names are made at the end, once per unique frame, from the very text perf
 * script would print for it ("sym+0xoff", "(dso)"), split and renamed by the rules of
 * fold/fold_naming.h, so the result is what `perf script | stackcollapse-perf.pl` gives. */
#include "perfscript/perf_fold.h"

#include <stdio.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "perfscript/perf_session.h"

struct fold_run {
	const struct perf_fold_options *o;
	size_t max_stack;
	struct frame *frames;
	uint64_t *key;           /* [root id, (obj id + 1, addr) per frame, outermost first] */
	int have_event;          /* the event to fold is decided */
	size_t event_index;
	struct hashmap roots;    /* {comm pointer, pid, tid} → root id */
	struct hashmap stacks;   /* key → summed weight */
	struct hashmap names;    /* {obj id + 1, addr, java} → index into name_frames */
	uint32_t *name_frames;   /* per name: offset into frame_ids */
	uint32_t *name_counts;
	uint32_t *frame_ids;     /* fold_table frame ids, concatenated */
	size_t nr_frame_ids, cap_frame_ids, cap_names;
	uint32_t *root_frames;   /* per root id: its fold_table frame id */
	size_t cap_roots;
	struct fold_table *table;
	struct perf_session *session;
	struct strbuf sb, text;
	/* perf_foreach_stack */
	void (*cb)(void *arg, uint64_t time, const char *const *frames, size_t n, uint64_t weight);
	void *cb_arg;
	const char **cb_frames;
	size_t cap_cb_frames;
	uint32_t *cb_ids;
	size_t cap_cb_ids;
};

static int event_matches(const char *want, const char *name)
{
	if (!name)
		return 0;
	if (!strcmp(want, name))
		return 1;
	/* "cpu-clock" also selects "cpu-clock:ppp" */
	size_t n = strlen(want);
	return !strncmp(want, name, n) && name[n] == ':';
}

static uint64_t sample_weight(const struct perf_fold_options *o, const struct perf_sample *s)
{
	/* stackcollapse-perf.pl sums the period column, counting a missing or 0 period as 1 */
	if (o->weight == PERF_FOLD_WEIGHT_SAMPLES || !s->period)
		return 1;
	return s->period;
}

static uint32_t root_id(struct fold_run *r, const struct thread *t, const struct perf_sample *s)
{
	uint64_t k[3] = { (uint64_t)(uintptr_t)t->comm, 0, 0 };
	if (r->o->root != FOLD_ROOT_COMM)
		k[1] = s->pid;
	if (r->o->root == FOLD_ROOT_TID)
		k[2] = s->tid;
	return (uint32_t)hashmap_intern(&r->roots, k, sizeof(k), NULL);
}

/* Builds the address key of a sample; returns its length in uint64_t words. */
static size_t sample_key(struct fold_run *r, const struct perf_session_sample *ps, int callchain)
{
	const struct perf_sample *s = ps->sample;
	size_t n;
	if (callchain) {
		n = frame_resolve_callchain(&r->session->resolver, ps->thread, s->callchain,
					    s->nr_callchain, r->max_stack, r->frames);
	} else {
		/* Without callchains stackcollapse-perf.pl folds nothing at all (perf script
		 * prints no blank line between such samples); we fold the sampled ip as a
		 * one-frame stack instead, named as perf script prints it. */
		frame_resolve_sample_ip(&r->session->resolver, ps->thread, ps->cpumode, s->ip,
					&r->frames[0]);
		n = 1;
	}
	r->key[0] = root_id(r, ps->thread, s);
	for (size_t i = 0; i < n; i++) {
		const struct frame *f = &r->frames[n - 1 - i];
		r->key[1 + 2 * i] = f->obj ? (uint64_t)f->obj->id + 1 : 0;
		r->key[2 + 2 * i] = f->addr;
	}
	return 1 + 2 * n;
}

/* Which samples are folded: only one event, the first one seen (stackcollapse-perf.pl
 * keeps the first event of perf script's text) or the one asked for. */
static int keep_sample(struct fold_run *r, const struct perf_session_sample *ps)
{
	if (!r->have_event) {
		if (r->o->event && !event_matches(r->o->event, ps->desc->name))
			return 0;
		r->have_event = 1;
		r->event_index = ps->event_index;
	}
	return ps->event_index == r->event_index;
}

static void add_frame_ids(struct fold_run *r, const char *text, size_t len)
{
	/* a name may hold several frames ("a;b_[i]"): the script's ';' is a separator */
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != ';')
			continue;
		if (r->nr_frame_ids == r->cap_frame_ids) {
			r->cap_frame_ids = r->cap_frame_ids ? r->cap_frame_ids * 2 : 1024;
			r->frame_ids = xrealloc(r->frame_ids, r->cap_frame_ids * sizeof(*r->frame_ids));
		}
		r->frame_ids[r->nr_frame_ids++] = fold_table_frame(r->table, text + start, i - start);
		start = i + 1;
	}
}

/* The folded frame ids of one (object, address), made once. */
static size_t frame_names(struct fold_run *r, uint64_t obj_id1, uint64_t addr, int java,
			  const uint32_t **ids)
{
	uint64_t k[3] = { obj_id1, addr, (uint64_t)java };
	int created;
	size_t i = hashmap_intern(&r->names, k, sizeof(k), &created);
	if (created) {
		if (i >= r->cap_names) {
			r->cap_names = r->cap_names ? r->cap_names * 2 : 1024;
			r->name_frames = xrealloc(r->name_frames, r->cap_names * sizeof(*r->name_frames));
			r->name_counts = xrealloc(r->name_counts, r->cap_names * sizeof(*r->name_counts));
		}
		struct frame f = { addr, addr, NULL };
		if (obj_id1)
			f.obj = machine_object(r->session->machine, (uint32_t)(obj_id1 - 1));
		const struct dso_symbol *sym = frame_symbol(&r->session->resolver, &f);
		/* the frame exactly as perf script prints it: "SYM+0xOFF (DSO)" */
		struct strbuf *t = &r->text;
		strbuf_reset(t);
		if (sym)
			strbuf_addf(t, "%s+0x%llx", sym->name, (unsigned long long)(addr - sym->start));
		else
			strbuf_addstr(t, "[unknown]");
		strbuf_addstr(t, " (");
		strbuf_addstr(t, f.obj ? f.obj->name : "[unknown]");
		strbuf_addch(t, ')');
		/* split as the script's /(.+) \((.*)\)/ does: at the last " (" */
		size_t open = 0;
		for (size_t j = 1; j + 1 < t->len; j++)
			if (t->buf[j] == ' ' && t->buf[j + 1] == '(')
				open = j;
		size_t sym_len = fold_strip_offset(t->buf, open);
		char pc[20];
		int pc_len = snprintf(pc, sizeof(pc), "%llx", (unsigned long long)addr);
		strbuf_reset(&r->sb);
		unsigned flags = r->o->name_flags & ~(unsigned)FOLD_INLINED;
		if (java)
			flags |= FOLD_JAVA;
		r->name_frames[i] = (uint32_t)r->nr_frame_ids;
		if (fold_name_frame_text(&r->sb, t->buf, sym_len, t->buf + open + 2,
					 t->len - open - 3, pc, (size_t)pc_len, flags))
			add_frame_ids(r, r->sb.buf, r->sb.len);
		r->name_counts[i] = (uint32_t)(r->nr_frame_ids - r->name_frames[i]);
	}
	*ids = r->frame_ids + r->name_frames[i];
	return r->name_counts[i];
}

static uint32_t root_frame(struct fold_run *r, uint32_t id)
{
	while (id >= r->cap_roots) {
		size_t old = r->cap_roots;
		r->cap_roots = old ? old * 2 : 256;
		r->root_frames = xrealloc(r->root_frames, r->cap_roots * sizeof(*r->root_frames));
		memset(r->root_frames + old, 0xff, (r->cap_roots - old) * sizeof(*r->root_frames));
	}
	if (r->root_frames[id] == UINT32_MAX) {
		const uint64_t *k = hashmap_entry(&r->roots, id)->key;
		strbuf_reset(&r->sb);
		fold_name_root(&r->sb, (const char *)(uintptr_t)k[0], (uint32_t)k[1], (uint32_t)k[2],
			       r->o->root);
		r->root_frames[id] = fold_table_frame(r->table, r->sb.buf, r->sb.len);
	}
	return r->root_frames[id];
}

/* Folded frame ids of a key into IDS (growable); returns the count. */
static size_t key_frames(struct fold_run *r, const uint64_t *key, size_t words, uint32_t **ids,
			 size_t *cap)
{
	uint32_t root = root_frame(r, (uint32_t)key[0]);
	const uint64_t *rk = hashmap_entry(&r->roots, (size_t)key[0])->key;
	const char *comm = (const char *)(uintptr_t)rk[0];
	int java = fold_root_is_java(comm, strlen(comm));
	size_t n = 0;
	if (*cap < 1) {
		*cap = 64;
		*ids = xrealloc(*ids, *cap * sizeof(**ids));
	}
	(*ids)[n++] = root;
	for (size_t i = 1; i + 1 < words; i += 2) {
		const uint32_t *f;
		size_t c = frame_names(r, key[i], key[i + 1], java, &f);
		if (n + c > *cap) {
			while (n + c > *cap)
				*cap *= 2;
			*ids = xrealloc(*ids, *cap * sizeof(**ids));
		}
		memcpy(*ids + n, f, c * sizeof(*f));
		n += c;
	}
	return n;
}

static int fold_sample(void *arg, struct perf_session *s, const struct perf_session_sample *ps)
{
	struct fold_run *r = arg;
	(void)s;
	if (!ps->desc)
		return 0;
	int callchain = (ps->desc->attr.sample_type & PERF_ST_CALLCHAIN) != 0;
	if (!keep_sample(r, ps))
		return 0;
	size_t words = sample_key(r, ps, callchain);
	uint64_t w = sample_weight(r->o, ps->sample);
	size_t i = hashmap_intern_hashed(&r->stacks, r->key, words * sizeof(uint64_t),
					 hash_bytes(r->key, words * sizeof(uint64_t)), NULL);
	hashmap_entry(&r->stacks, i)->value += w;
	return 0;
}

static int foreach_sample(void *arg, struct perf_session *s, const struct perf_session_sample *ps)
{
	struct fold_run *r = arg;
	(void)s;
	if (!ps->desc)
		return 0;
	int callchain = (ps->desc->attr.sample_type & PERF_ST_CALLCHAIN) != 0;
	if (!keep_sample(r, ps))
		return 0;
	size_t words = sample_key(r, ps, callchain);
	size_t n = key_frames(r, r->key, words, &r->cb_ids, &r->cap_cb_ids);
	const uint32_t *ids = r->cb_ids;
	if (n > r->cap_cb_frames) {
		r->cap_cb_frames = n;
		r->cb_frames = xrealloc(r->cb_frames, n * sizeof(*r->cb_frames));
	}
	for (size_t i = 0; i < n; i++)
		r->cb_frames[i] = fold_table_frame_name(r->table, ids[i]);
	r->cb(r->cb_arg, ps->sample->time, r->cb_frames, n,
	      sample_weight(r->o, ps->sample));
	return 0;
}

static void run_init(struct fold_run *r, const struct perf_fold_options *o, struct fold_table *t,
		     struct perf_session *s)
{
	memset(r, 0, sizeof(*r));
	r->o = o;
	r->table = t;
	r->session = s;
	r->max_stack = o->max_stack > 0 ? (size_t)o->max_stack : PERF_SCRIPT_MAX_STACK;
	r->frames = xmalloc(r->max_stack * sizeof(*r->frames));
	r->key = xmalloc((1 + 2 * r->max_stack) * sizeof(*r->key));
	hashmap_init(&r->roots);
	hashmap_init(&r->stacks);
	hashmap_init(&r->names);
}

static void run_release(struct fold_run *r)
{
	free(r->frames);
	free(r->key);
	hashmap_release(&r->roots);
	hashmap_release(&r->stacks);
	hashmap_release(&r->names);
	free(r->name_frames);
	free(r->name_counts);
	free(r->frame_ids);
	free(r->root_frames);
	free(r->cb_frames);
	free(r->cb_ids);
	strbuf_release(&r->sb);
	strbuf_release(&r->text);
}

static void filter_of(const struct perf_fold_options *o, struct perf_session_filter *f)
{
	f->pids = o->pids;
	f->nr_pids = o->nr_pids;
	f->tids = o->tids;
	f->nr_tids = o->nr_tids;
	f->comms = o->comms;
	f->nr_comms = o->nr_comms;
}

int perf_fold_file(const char *path, const struct perf_fold_options *o, struct fold_table *out,
		   struct tephra_error *err)
{
	struct perf_session s;
	if (perf_session_open(&s, path, o->symbols, o->progress, err))
		return -1;
	struct fold_run r;
	struct perf_session_filter f;
	run_init(&r, o, out, &s);
	filter_of(o, &f);
	int rc = perf_session_run(&s, &f, fold_sample, &r, err);
	/* name each unique address stack once, then hand it to the table (which merges
	 * stacks whose names coincide) */
	uint32_t *ids = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < hashmap_count(&r.stacks); i++) {
		const struct hashmap_entry *e = hashmap_entry(&r.stacks, i);
		size_t n = key_frames(&r, e->key, e->len / sizeof(uint64_t), &ids, &cap);
		fold_table_add(out, ids, n, e->value);
	}
	free(ids);
	run_release(&r);
	perf_session_close(&s);
	return rc;
}

int perf_foreach_stack(const char *path, const struct perf_fold_options *o,
		       void (*cb)(void *arg, uint64_t time, const char *const *frames, size_t n,
				  uint64_t weight),
		       void *arg, struct tephra_error *err)
{
	struct perf_session s;
	if (perf_session_open(&s, path, o->symbols, o->progress, err))
		return -1;
	struct fold_table *names = fold_table_new();
	struct fold_run r;
	struct perf_session_filter f;
	run_init(&r, o, names, &s);
	r.cb = cb;
	r.cb_arg = arg;
	filter_of(o, &f);
	int rc = perf_session_run(&s, &f, foreach_sample, &r, err);
	run_release(&r);
	fold_table_free(names);
	perf_session_close(&s);
	return rc;
}

/* fold_roots.c - roots of folded samples as stackcollapse-perf.pl reads them (see
 * fold_roots.h). */
#include "perffold/fold_roots.h"

#include <stdio.h>
#include <string.h>

#include "perfscript/perf_script_line.h"

void fold_roots_init(struct fold_roots *r, enum fold_root_mode mode, int compat)
{
	memset(r, 0, sizeof(*r));
	r->mode = mode;
	r->compat = compat;
	hashmap_init(&r->names);
	hashmap_init(&r->by_thread);
}

void fold_roots_release(struct fold_roots *r)
{
	hashmap_release(&r->names);
	hashmap_release(&r->by_thread);
	strbuf_release(&r->text);
	strbuf_release(&r->name);
}

const char *fold_roots_name(const struct fold_roots *r, uint64_t id, size_t *len)
{
	const struct hashmap_entry *e = hashmap_entry(&r->names, (size_t)id);
	*len = e->len;
	return e->key;
}

#define ROOT_PER_SAMPLE UINT64_MAX /* by_thread value: the root depends on the sample */
#define ROOT_NONE FOLD_ROOT_DROPPED

/* The start of the header line perf script prints for the sample (comm, tid or pid/tid
 * as stackcollapse --pid/--tid needs, and when FULL also cpu, time, period, event). */
static void header_text(const struct fold_roots *r, const struct perf_session_sample *ps, int full,
			struct strbuf *sb)
{
	const struct perf_sample *s = ps->sample;
	strbuf_reset(sb);
	strbuf_addstr(sb, ps->thread->comm);
	if (r->mode != FOLD_ROOT_COMM)
		strbuf_addf(sb, " %5d/%-5d ", (int32_t)s->pid, (int32_t)s->tid);
	else
		strbuf_addf(sb, " %5d ", (int32_t)s->tid);
	if (!full)
		return;
	if (ps->desc->attr.sample_type & PERF_ST_CPU)
		strbuf_addf(sb, "[%03u] ", s->cpu);
	char t[48];
	snprintf(t, sizeof(t), "%llu.%06llu", (unsigned long long)(s->time / 1000000000ULL),
		 (unsigned long long)(s->time % 1000000000ULL / 1000));
	strbuf_addf(sb, "%12s: %10llu %s: ", t, (unsigned long long)s->period,
		    ps->desc->name ? ps->desc->name : "[unknown]");
}

/* The root stackcollapse-perf.pl reads from header text SB: its regular expression takes
 * the shortest comm followed by blanks, digits and a blank, so a comm such as "worker 1"
 * or a tid of -1 give other roots than the comm.  Returns the root id, or ROOT_NONE. */
static uint64_t root_from_text(struct fold_roots *r, const struct strbuf *sb)
{
	struct script_header h;
	if (!script_match_header(sb->buf, sb->len, &h))
		return ROOT_NONE;
	/* Without "/TID" the number is the tid and the pid unknown ("?"); a tid "0" counts
	 * as absent too (the script's "not $tid"). */
	char pid[32], tid[32];
	const struct text_span *p = &h.pid, *tt = &h.tid;
	if (tt->len == 0 || (tt->len == 1 && tt->ptr[0] == '0')) {
		tt = p;
		snprintf(pid, sizeof(pid), "?");
	} else {
		snprintf(pid, sizeof(pid), "%.*s", (int)(p->len < 31 ? p->len : 31), p->ptr);
	}
	snprintf(tid, sizeof(tid), "%.*s", (int)(tt->len < 31 ? tt->len : 31), tt->ptr);
	strbuf_reset(&r->name);
	fold_name_root_text(&r->name, h.comm.ptr, h.comm.len, pid, tid, r->mode);
	return hashmap_intern(&r->names, r->name.buf, r->name.len, NULL);
}

uint64_t fold_roots_of(struct fold_roots *r, const struct perf_session_sample *ps)
{
	const struct thread *t = ps->thread;
	const struct perf_sample *s = ps->sample;
	/* consecutive samples often come from the same thread */
	if (!(t == r->last_thread && t->comm == r->last_comm && s->pid == r->last_pid &&
	      s->tid == r->last_tid)) {
		r->last_thread = t;
		r->last_comm = t->comm;
		r->last_pid = s->pid;
		r->last_tid = s->tid;
		uint64_t k[3] = { (uint64_t)(uintptr_t)t->comm, s->pid, s->tid };
		int created;
		size_t i = hashmap_intern(&r->by_thread, k, sizeof(k), &created);
		struct hashmap_entry *e = hashmap_entry(&r->by_thread, i);
		if (created && !r->compat) {
			strbuf_reset(&r->name);
			fold_name_root(&r->name, t->comm, s->pid, s->tid, r->mode);
			e->value = hashmap_intern(&r->names, r->name.buf, r->name.len, NULL);
		} else if (created) {
			header_text(r, ps, 0, &r->text);
			e->value = root_from_text(r, &r->text);
			/* no match within comm and tid: the script's match runs on into the
			 * time and period columns (unless the comm starts with a blank) */
			if (e->value == ROOT_NONE && t->comm[0] && !script_is_blank(t->comm[0]))
				e->value = ROOT_PER_SAMPLE;
		}
		r->last_root = e->value;
	}
	if (r->last_root != ROOT_PER_SAMPLE)
		return r->last_root;
	header_text(r, ps, 1, &r->text);
	return root_from_text(r, &r->text);
}


/* script_render.c - `perf script` text (see script_render.h). */
#include "perfscript/script_render.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "perfscript/out_writer.h"
#include "quality/script_quality.h"
#include "tracepoint/tp_print.h"

static const struct {
	const char *name;
	unsigned bit;
} field_names[] = {
	{ "comm", SCRIPT_COMM },   { "tid", SCRIPT_TID },       { "pid", SCRIPT_PID },
	{ "cpu", SCRIPT_CPU },     { "time", SCRIPT_TIME },     { "event", SCRIPT_EVENT },
	{ "ip", SCRIPT_IP },       { "sym", SCRIPT_SYM },       { "dso", SCRIPT_DSO },
	{ "symoff", SCRIPT_SYMOFF }, { "period", SCRIPT_PERIOD },
	{ "srcline", SCRIPT_SRCLINE }, { "trace", SCRIPT_TRACE },
};

int script_parse_fields(struct script_options *o, const char *arg, struct tephra_error *err)
{
	const char *p = arg;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char sign = 0;
		if (len && (*p == '+' || *p == '-')) {
			sign = *p++;
			len--;
		}
		unsigned bit = 0;
		for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
			if (strlen(field_names[i].name) == len && !strncmp(field_names[i].name, p, len))
				bit = field_names[i].bit;
		if (!bit) {
			tephra_error_set(err, "-F: unknown or unsupported field '%.*s'", (int)len, p);
			return -1;
		}
		if (sign == '+')
			o->fields_add |= bit;
		else if (sign == '-')
			o->fields_remove |= bit;
		else {
			o->fields |= bit;
			o->fields_set = 1;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

struct field_need {
	unsigned field;
	uint64_t sample_bit;
	const char *attr_name;
	const char *field_name;
};

static const struct field_need needs[] = {
	{ SCRIPT_IP, PERF_ST_IP, "IP", "ip" },
	{ SCRIPT_TID, PERF_ST_TID, "TID", "tid" },
	{ SCRIPT_PID, PERF_ST_TID, "TID", "pid" },
	{ SCRIPT_TIME, PERF_ST_TIME, "TIME", "time" },
	{ SCRIPT_CPU, PERF_ST_CPU, "CPU", "cpu" },
};

struct render {
	const struct script_options *o;
	struct out_writer out;
	size_t nr_events;
	unsigned *fields;      /* per event index, computed at its first sample */
	unsigned char *ready;
	int name_width;        /* widest event name, as perf pads them */
	struct frame *frames;
	size_t max_stack;
	struct script_quality *quality; /* NULL: no block */
	struct printed_frame *printed;  /* per frame of a new stack: how it printed */
	struct strbuf trace_text;       /* a tracepoint sample's fields */
	int failed;
	struct tephra_error *err;
};

/* In pipe mode perf script adds ip and sym (unless -F removed them) to the fields of an
 * event type as it reads each attr record, when the attrs read so far, combined, have
 * call graphs (callchain, branch stack, or a DWARF stack dump): its documented default
 * even over a -F list.  A file's attrs get no such addition. */
static int pipe_adds_ip_sym(struct perf_session *s, uint32_t type)
{
	uint64_t combined = 0;
	for (size_t i = 0; i < perf_reader_nr_events(s->reader); i++) {
		const struct perf_event_desc *e = perf_reader_event(s->reader, i);
		combined |= e->attr.sample_type;
		if (e->attr.type == type &&
		    ((combined & (PERF_ST_CALLCHAIN | PERF_ST_BRANCH_STACK)) ||
		     ((combined & PERF_ST_REGS_USER) && (combined & PERF_ST_STACK_USER))))
			return 1;
	}
	return 0;
}

/* perf decides the fields per event *type* from the first event of that type. */
static int compute_fields(struct render *r, struct perf_session *s, size_t index)
{
	const struct perf_event_desc *d = perf_reader_event(s->reader, index);
	const struct perf_event_desc *first = d;
	for (size_t i = 0; i < r->nr_events; i++) {
		const struct perf_event_desc *e = perf_reader_event(s->reader, i);
		if (e->attr.type == d->attr.type) {
			first = e;
			break;
		}
	}
	unsigned defaults = SCRIPT_DEFAULT_FIELDS & ~SCRIPT_TRACE;
	if (d->attr.type == PERF_ATTR_TYPE_TRACEPOINT) {
		/* perf's tracepoint defaults; the symbols only when a tracepoint has callchains */
		defaults = SCRIPT_TRACEPOINT_FIELDS;
		for (size_t i = 0; i < r->nr_events; i++) {
			const struct perf_event_desc *e = perf_reader_event(s->reader, i);
			if (e->attr.type == PERF_ATTR_TYPE_TRACEPOINT &&
			    (e->attr.sample_type & PERF_ST_CALLCHAIN))
				defaults |= SCRIPT_IP | SCRIPT_SYM | SCRIPT_SYMOFF | SCRIPT_DSO;
		}
	}
	uint64_t st = first->attr.sample_type;
	const struct script_options *o = r->o;
	unsigned user = o->fields_set ? o->fields : o->fields_add;
	unsigned f = o->fields_set ? o->fields : ((defaults | o->fields_add) & ~o->fields_remove);
	if (perf_reader_header(s->reader)->pipe_mode && pipe_adds_ip_sym(s, d->attr.type))
		f |= (SCRIPT_IP | SCRIPT_SYM) & ~o->fields_remove;
	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
		if (!(f & needs[i].field) || (st & needs[i].sample_bit))
			continue;
		if (user & needs[i].field) {
			tephra_error_set(r->err,
					 "Samples for '%s' event do not have %s attribute set. "
					 "Cannot print '%s' field.",
					 first->name ? first->name : "?", needs[i].attr_name,
					 needs[i].field_name);
			return -1;
		}
		f &= ~needs[i].field;
	}
	if ((f & SCRIPT_SYMOFF) && !(f & SCRIPT_SYM)) {
		tephra_error_set(r->err, "Display of offsets requested but symbol is not selected.");
		return -1;
	}
	/* perf asks the recording for addresses here, not the ip field: without "ip" the
	 * symbols are simply not printed */
	if ((f & (SCRIPT_SYM | SCRIPT_DSO)) && !(st & (PERF_ST_IP | PERF_ST_ADDR))) {
		tephra_error_set(r->err, "Display of symbols requested but neither sample IP nor "
					 "sample address available.");
		return -1;
	}
	r->fields[index] = f;
	r->ready[index] = 1;
	return 0;
}

static void put_time(struct out_writer *w, uint64_t t, int nanosecs)
{
	if (nanosecs) {
		out_u64(w, t / 1000000000ULL, 5, 0, 0);
		out_ch(w, '.');
		out_u64(w, t % 1000000000ULL, 9, 0, 1);
		out_write(w, ": ", 2);
		return;
	}
	/* "%12s" of "SECS.USECS" (microseconds truncated, as perf does) */
	uint64_t us = t / 1000;
	char buf[40];
	struct out_writer tmp = { 0 };
	tmp.buf = buf;
	out_u64(&tmp, us / 1000000, 0, 0, 0);
	out_ch(&tmp, '.');
	out_u64(&tmp, us % 1000000, 6, 0, 1);
	buf[tmp.len] = 0;
	out_pad_str(w, buf, 12, 0);
	out_write(w, ": ", 2);
}

/* Returns 1 when the frame printed as "[unknown]" (no symbol; 0 also when the symbol is
 * not printed). */
static int put_sym_dso(struct render *r, struct perf_session *s, unsigned f,
		       const struct frame *fr)
{
	struct out_writer *w = &r->out;
	int unknown = 0;
	if (f & SCRIPT_SYM) {
		out_ch(w, ' ');
		const struct dso_symbol *sym = frame_symbol(&s->resolver, fr);
		if (sym) {
			out_str(w, sym->name);
			if (f & SCRIPT_SYMOFF) {
				out_write(w, "+0x", 3);
				out_hex(w, fr->addr - sym->start, 0);
			}
		} else {
			out_write(w, "[unknown]", 9);
			unknown = 1;
		}
	}
	if (f & SCRIPT_DSO) {
		out_write(w, " (", 2);
		out_str(w, fr->obj ? fr->obj->name : "[unknown]");
		out_ch(w, ')');
	}
	return unknown;
}

/* -F srcline under a frame that is not expanded into inline entries (perf's
 * map__fprintf_srcline): addr2line's "file:line" of the address, nothing when that is
 * unknown; objects perf does not ask addr2line about ("[kernel.kallsyms]", "[vdso]")
 * or that give no answer print as name[address]. */
static void put_srcline(struct render *r, const struct frame *fr)
{
	struct out_writer *w = &r->out;
	if (!fr->obj)
		return;
	char *text = NULL;
	uint64_t addr = fr->addr;
	int rc = -1;
	if (fr->obj->name[0] != '[' && !fr->obj->kernel && fr->obj->dso)
		rc = dso_frame_srcline(fr->obj->dso, fr->addr, &text, &addr);
	if (rc == 0)
		return;
	out_write(w, "\n  ", 3);
	if (rc > 0) {
		out_str(w, text);
		free(text);
		return;
	}
	const char *slash = fr->obj->name[0] == '[' ? NULL : strrchr(fr->obj->name, '/');
	out_str(w, slash ? slash + 1 : fr->obj->name);
	out_ch(w, '[');
	out_hex(w, addr, 0);
	out_ch(w, ']');
}

/* An unwound frame with inline information: one line per function (perf 6.1 prints
 * "(inlined)" whether or not the dso is asked for; under -F srcline the entry's own
 * source position comes before it).  Returns the number of lines, 0 when there is none. */
static size_t put_inlines(struct render *r, struct perf_session *s, unsigned f, const struct frame *fr)
{
	const char *const *names;
	const unsigned char *inlined;
	const char *const *srclines;
	size_t k = frame_inlines_src(&s->resolver, fr, &names, &inlined, &srclines);
	if (!k)
		return 0;
	struct out_writer *w = &r->out;
	uint64_t off = fr->addr - frame_symbol(&s->resolver, fr)->start;
	for (size_t j = 0; j < k; j++) {
		out_ch(w, '\t');
		out_hex(w, fr->addr, 16);
		if (f & SCRIPT_SYM) {
			out_ch(w, ' ');
			out_str(w, names[j]);
			if (f & SCRIPT_SYMOFF) {
				out_write(w, "+0x", 3);
				out_hex(w, off, 0);
			}
		}
		if (!inlined[j] && (f & SCRIPT_DSO)) {
			out_write(w, " (", 2);
			out_str(w, fr->obj->name);
			out_ch(w, ')');
		}
		if (f & SCRIPT_SRCLINE) {
			out_write(w, "\n  ", 3);
			out_str(w, srclines[j]);
		}
		if (inlined[j])
			out_write(w, " (inlined)", 10);
		out_ch(w, '\n');
	}
	return k;
}

/* A tracepoint's %ps/%pS: kernel addresses named as the kernel's frames are. */
struct kernel_namer {
	struct perf_session *s;
	const struct thread *thread;
};

static const char *kernel_name(void *ctx, uint64_t addr, uint64_t *offset)
{
	struct kernel_namer *k = ctx;
	struct frame fr;
	frame_resolve_sample_ip(&k->s->resolver, k->thread, PERF_MISC_KERNEL, addr, &fr);
	const struct dso_symbol *sym = frame_symbol(&k->s->resolver, &fr);
	if (!sym)
		return NULL;
	*offset = fr.addr - sym->start;
	return sym->name;
}

/* For the quality block: whether frame F's function starts a thread (a cached
 * symbol lookup, no addr2line question). */
static uint16_t is_root(struct perf_session *s, const struct frame *f)
{
	const struct dso_symbol *sym = frame_symbol(&s->resolver, f);
	return (uint16_t)(sym && stack_quality_is_root(sym->name));
}

static int on_sample(void *arg, struct perf_session *s, const struct perf_session_sample *ps)
{
	struct render *r = arg;
	struct out_writer *w = &r->out;
	if (!ps->desc || ps->event_index >= r->nr_events)
		return 0;
	if (!r->ready[ps->event_index] && compute_fields(r, s, ps->event_index)) {
		r->failed = 1;
		return 1;
	}
	unsigned f = r->fields[ps->event_index];
	const struct perf_sample *smp = ps->sample;
	int callchain = (ps->desc->attr.sample_type & PERF_ST_CALLCHAIN) != 0;
	/* the frames as printed (the quality block wants them even when they are not);
	 * a stack the block has not seen is described from how its frames print */
	struct frame ip_frame;
	const struct frame *frames = NULL;
	size_t n = 0;
	if ((f & SCRIPT_IP) || r->quality) {
		if (callchain) {
			n = frame_resolve_callchain(&s->resolver, ps->thread, smp->callchain,
						    smp->nr_callchain, r->max_stack, ps->unwound,
						    r->frames);
			frames = r->frames;
		} else {
			frame_resolve_sample_ip(&s->resolver, ps->thread, ps->cpumode, smp->ip,
						&ip_frame);
			frames = &ip_frame;
			n = 1;
		}
	}
	struct printed_frame *printed = NULL;
	int new_stack = r->quality &&
			script_quality_find(r->quality, frames, n,
					    stack_quality_chain_flags(ps->desc, smp, ps->unwound,
								      r->max_stack));
	if (new_stack && (f & SCRIPT_IP) && (f & SCRIPT_SYM))
		printed = r->printed;

	if (f & SCRIPT_COMM) {
		if ((f & SCRIPT_IP) && callchain) {
			out_str(w, ps->thread->comm);
			out_ch(w, ' ');
		} else {
			out_pad_str(w, ps->thread->comm, 16, 0);
			out_ch(w, ' ');
		}
	}
	if ((f & SCRIPT_PID) && (f & SCRIPT_TID)) {
		out_i32(w, (int32_t)smp->pid, 5, 0);
		out_ch(w, '/');
		out_i32(w, (int32_t)smp->tid, 5, 1);
		out_ch(w, ' ');
	} else if (f & SCRIPT_PID) {
		out_i32(w, (int32_t)smp->pid, 5, 0);
		out_ch(w, ' ');
	} else if (f & SCRIPT_TID) {
		out_i32(w, (int32_t)smp->tid, 5, 0);
		out_ch(w, ' ');
	}
	if (f & SCRIPT_CPU) {
		out_ch(w, '[');
		out_u64(w, smp->cpu, 3, 0, 1);
		out_write(w, "] ", 2);
	}
	if (f & SCRIPT_TIME)
		put_time(w, smp->time, r->o->nanosecs);
	if (f & SCRIPT_PERIOD) {
		out_u64(w, smp->period, 10, 0, 0);
		out_ch(w, ' ');
	}
	if (f & SCRIPT_EVENT) {
		if (!r->name_width)
			for (size_t i = 0; i < r->nr_events; i++) {
				const char *n = perf_reader_event(s->reader, i)->name;
				int len = n ? (int)strlen(n) : 0;
				if (len > r->name_width)
					r->name_width = len;
			}
		out_pad_str(w, ps->desc->name ? ps->desc->name : "[unknown]", r->name_width, 0);
		out_write(w, ": ", 2);
	}
	if ((f & SCRIPT_TRACE) && ps->desc->tp && smp->raw) {
		strbuf_reset(&r->trace_text);
		struct kernel_namer namer = { s, ps->thread };
		struct tp_symbolizer sym = { kernel_name, &namer };
		tp_print_sample(perf_reader_tracepoints(s->reader), ps->desc->tp, smp->raw,
				smp->raw_size, &sym, &r->trace_text);
		out_write(w, r->trace_text.buf, r->trace_text.len);
	}
	if (f & SCRIPT_IP) {
		if (callchain) {
			out_ch(w, '\n');
			for (size_t i = 0; i < n; i++) {
				size_t k = r->o->no_inline ? 0 : put_inlines(r, s, f, &frames[i]);
				if (k) {
					if (printed)
						printed[i] = (struct printed_frame){
							(uint32_t)k, 0, is_root(s, &frames[i]) };
					continue;
				}
				out_ch(w, '\t');
				out_hex(w, frames[i].addr, 16);
				int unknown = put_sym_dso(r, s, f, &frames[i]);
				if (printed)
					printed[i] = (struct printed_frame){
						1, (uint16_t)unknown, is_root(s, &frames[i]) };
				if (f & SCRIPT_SRCLINE)
					put_srcline(r, &frames[i]);
				out_ch(w, '\n');
			}
		} else {
			out_ch(w, ' ');
			out_hex(w, smp->ip, 16);
			int unknown = put_sym_dso(r, s, f, frames);
			if (printed)
				printed[0] = (struct printed_frame){ 1, (uint16_t)unknown,
								     is_root(s, frames) };
			if (f & SCRIPT_SRCLINE)
				put_srcline(r, frames);
		}
	}
	out_ch(w, '\n');
	if (r->quality) {
		if (new_stack)
			script_quality_new_stack(r->quality, &s->resolver, frames, printed, n);
		script_quality_sample(r->quality, s, ps);
	}
	return w->failed != 0;
}

int script_render_file(const char *path, const struct script_options *o, int fd,
		       struct tephra_error *err)
{
	struct perf_session s;
	if (perf_session_open(&s, path, o->symbols, o->report, o->strict, err))
		return -1;
	if (o->strict && perf_session_refuse_unfinished(&s, err)) {
		perf_session_close(&s);
		return -1;
	}
	struct render r = { 0 };
	r.o = o;
	r.err = err;
	r.nr_events = perf_reader_nr_events(s.reader);
	if (o->filter.max_stack > 0)
		s.max_stack = (size_t)o->filter.max_stack;
	r.fields = xcalloc(r.nr_events + 1, sizeof(*r.fields));
	r.ready = xcalloc(r.nr_events + 1, 1);
	r.max_stack = o->filter.max_stack > 0 ? (size_t)o->filter.max_stack : PERF_SCRIPT_MAX_STACK;
	r.frames = xmalloc(2 * r.max_stack * sizeof(*r.frames)); /* see frame_resolve_callchain */
	r.printed = xmalloc(2 * r.max_stack * sizeof(*r.printed));
	out_writer_init(&r.out, fd);
	if (o->quality)
		r.quality = script_quality_new(&s, o->no_inline);
	int rc = perf_session_run(&s, &o->filter, on_sample, &r, err);
	if (r.failed)
		rc = -1;
	int write_failed = out_writer_flush(&r.out) != 0;
	if (write_failed && !rc) {
		tephra_error_set(err, "write error: %s", strerror(r.out.failed));
		rc = -1;
	}
	/* after the text, as fold does (on bad input too: the samples read so far); not
	 * when the text itself was refused or could not be written */
	if (!r.failed && !write_failed)
		script_quality_print(r.quality, &s, o->quality_who ? o->quality_who : "tephra",
				     o->quality);
	script_quality_free(r.quality);
	out_writer_release(&r.out);
	free(r.frames);
	free(r.printed);
	strbuf_release(&r.trace_text);
	free(r.fields);
	free(r.ready);
	perf_session_close(&s);
	return rc;
}

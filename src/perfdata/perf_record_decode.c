/* perf_record_decode.c - decodes one record's bytes into struct perf_event: the sample
 * fields in the kernel's order, the sample_id_all trailer of other records, and the
 * body of every record type the reader knows.
 *
 * The record's bytes are checked, not trusted: a field that would run past the record
 * (a callchain count, a RAW size, a stack size) is an error naming the record's offset. */
#include <inttypes.h>
#include <string.h>

#include "perfdata/perf_bytes.h"
#include "perfdata/perf_reader_internal.h"


static uint64_t trailer_size(uint64_t st)
{
	return 8 * (!!(st & PERF_ST_TID) + !!(st & PERF_ST_TIME) + !!(st & PERF_ST_ID) +
		    !!(st & PERF_ST_STREAM_ID) + !!(st & PERF_ST_CPU) + !!(st & PERF_ST_IDENTIFIER));
}

static int has_trailer(const struct perf_attr *a)
{
	return (a->flags & PERF_ATTR_FLAG_SAMPLE_ID_ALL) != 0;
}

static int lookup_id(const struct perf_reader *r, uint64_t id)
{
	size_t lo = 0, hi = r->nr_id_map;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->id_map[mid].id < id)
			lo = mid + 1;
		else if (r->id_map[mid].id > id)
			hi = mid;
		else
			return (int)r->id_map[mid].desc_index;
	}
	return -1;
}

long perf_reader_event_by_id(const struct perf_reader *r, uint64_t id)
{
	return lookup_id(r, id);
}

long perf_record_desc_index(const struct perf_reader *r, const uint8_t *rec, size_t size)
{
	const struct perf_attr *first;
	uint32_t type = pb_u32(rec);
	uint64_t st, pos;

	if (r->nr_descs == 0)
		return -1;
	if (r->nr_descs == 1)
		return 0;
	/* perf requires every attr to put the id at the same place, so the first attr's
	 * sample_type says where to find it. */
	first = &r->descs[0].attr;
	st = first->sample_type;
	if (type == PERF_REC_SAMPLE) {
		if (st & PERF_ST_IDENTIFIER)
			pos = 8;
		else if (st & PERF_ST_ID)
			pos = 8 + 8 * (!!(st & PERF_ST_IP) + !!(st & PERF_ST_TID) +
				       !!(st & PERF_ST_TIME) + !!(st & PERF_ST_ADDR));
		else
			return 0;
	} else {
		if (type >= PERF_REC_HEADER_ATTR || !has_trailer(first))
			return 0;
		if (st & PERF_ST_IDENTIFIER)
			pos = size - 8;
		else if (st & PERF_ST_ID)
			pos = size - 8 * (1 + !!(st & PERF_ST_STREAM_ID) + !!(st & PERF_ST_CPU));
		else
			return 0;
		if (size < 8 + trailer_size(st))
			return -1;
	}
	if (pos + 8 > size)
		return -1;
	return lookup_id(r, pb_u64(rec + pos));
}

uint64_t perf_record_timestamp(const struct perf_reader *r, const uint8_t *rec, size_t size,
			       long desc_index)
{
	const struct perf_attr *a;
	uint32_t type = pb_u32(rec);
	uint64_t st, pos;

	if (desc_index < 0 || type >= PERF_REC_HEADER_ATTR)
		return UINT64_MAX;
	a = &r->descs[desc_index].attr;
	st = a->sample_type;
	if (!(st & PERF_ST_TIME))
		return UINT64_MAX;
	if (type == PERF_REC_SAMPLE) {
		pos = 8 + 8 * (!!(st & PERF_ST_IDENTIFIER) + !!(st & PERF_ST_IP) + !!(st & PERF_ST_TID));
	} else {
		if (!has_trailer(a) || size < 8 + trailer_size(st))
			return UINT64_MAX;
		pos = size - 8 * (1 + !!(st & PERF_ST_ID) + !!(st & PERF_ST_STREAM_ID) +
				  !!(st & PERF_ST_CPU) + !!(st & PERF_ST_IDENTIFIER));
	}
	if (pos + 8 > size)
		return UINT64_MAX;
	return pb_u64(rec + pos);
}

static int fail(const struct perf_reader *r, int64_t off, struct tephra_error *err,
		const char *what, uint32_t type)
{
	const char *name = perf_record_type_name(type);

	if (name)
		tephra_error_at(err, r->path, off, "%s: %s", name, what);
	else
		tephra_error_at(err, r->path, off, "record type %" PRIu32 ": %s", type, what);
	return -1;
}

/* A pointer to N u64 values, which must be 8-aligned (records themselves are; a field
 * after a RAW block of odd size would not be). */
static const uint64_t *take_u64s(struct pb_cursor *c, uint64_t n)
{
	const uint8_t *p;

	if (c->bad || n > pb_left(c) / 8) {
		c->bad = 1;
		return NULL;
	}
	p = pb_take(c, n * 8);
	if ((uintptr_t)p % 8) {
		c->bad = 1;
		return NULL;
	}
	return (const uint64_t *)(const void *)p;
}

static int decode_sample(const struct perf_reader *r, const struct perf_attr *a,
			 const uint8_t *rec, size_t size, struct perf_sample *s, int64_t off,
			 struct tephra_error *err)
{
	uint64_t st = a->sample_type;
	struct pb_cursor c;

	pb_init(&c, rec + 8, size - 8);
	if (st & PERF_ST_IDENTIFIER)
		s->id = pb_get_u64(&c);
	if (st & PERF_ST_IP)
		s->ip = pb_get_u64(&c);
	if (st & PERF_ST_TID) {
		s->pid = pb_get_u32(&c);
		s->tid = pb_get_u32(&c);
	}
	if (st & PERF_ST_TIME)
		s->time = pb_get_u64(&c);
	if (st & PERF_ST_ADDR)
		s->addr = pb_get_u64(&c);
	if (st & PERF_ST_ID)
		s->id = pb_get_u64(&c);
	if (st & PERF_ST_STREAM_ID)
		s->stream_id = pb_get_u64(&c);
	if (st & PERF_ST_CPU) {
		s->cpu = pb_get_u32(&c);
		(void)pb_get_u32(&c);
	}
	if (st & PERF_ST_PERIOD)
		s->period = pb_get_u64(&c);
	if (c.bad)
		return fail(r, off, err, "record too short for its sample_type", PERF_REC_SAMPLE);
	if (st & PERF_ST_READ) {
		uint64_t rf = a->read_format, per_value, fixed, n = 1;
		const uint8_t *start = c.p;

		per_value = 8 * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
		fixed = 8 * (!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			     !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING));
		if (rf & PERF_FORMAT_GROUP) {
			n = pb_get_u64(&c);
			if (!c.bad && n > pb_left(&c) / per_value)
				c.bad = 1;
		}
		if (!c.bad)
			pb_take(&c, fixed + n * per_value);
		if (c.bad)
			return fail(r, off, err, "READ values run past the end of the record",
				    PERF_REC_SAMPLE);
		s->read = start;
		s->read_size = (uint64_t)(c.p - start);
	}
	if (st & PERF_ST_CALLCHAIN) {
		s->nr_callchain = pb_get_u64(&c);
		s->callchain = take_u64s(&c, s->nr_callchain);
		if (c.bad)
			return fail(r, off, err, "callchain runs past the end of the record",
				    PERF_REC_SAMPLE);
	}
	if (st & PERF_ST_RAW) {
		s->raw_size = pb_get_u32(&c);
		s->raw = pb_take(&c, s->raw_size);
		if (c.bad)
			return fail(r, off, err, "RAW data runs past the end of the record",
				    PERF_REC_SAMPLE);
	}
	if (st & PERF_ST_BRANCH_STACK) {
		s->nr_branches = pb_get_u64(&c);
		if (a->branch_sample_type & PERF_BRANCH_HW_INDEX) {
			s->has_branch_hw_idx = 1;
			s->branch_hw_idx = pb_get_u64(&c);
		}
		if (!c.bad && s->nr_branches > pb_left(&c) / 24)
			c.bad = 1;
		s->branches = pb_take(&c, s->nr_branches * 24);
		if (c.bad)
			return fail(r, off, err, "branch stack runs past the end of the record",
				    PERF_REC_SAMPLE);
	}
	if (st & PERF_ST_REGS_USER) {
		s->user_regs_abi = pb_get_u64(&c);
		s->user_regs_mask = a->sample_regs_user;
		if (s->user_regs_abi)
			s->user_regs = take_u64s(&c, (uint64_t)__builtin_popcountll(a->sample_regs_user));
		if (c.bad)
			return fail(r, off, err, "user registers run past the end of the record",
				    PERF_REC_SAMPLE);
	}
	if (st & PERF_ST_STACK_USER) {
		s->user_stack_size = pb_get_u64(&c);
		s->user_stack = pb_take(&c, s->user_stack_size);
		if (s->user_stack_size)
			s->user_stack_dyn_size = pb_get_u64(&c);
		if (c.bad)
			return fail(r, off, err, "user stack runs past the end of the record",
				    PERF_REC_SAMPLE);
		if (s->user_stack_dyn_size > s->user_stack_size)
			s->user_stack_dyn_size = s->user_stack_size;
	}
	if (st & (PERF_ST_WEIGHT | PERF_ST_WEIGHT_STRUCT))
		s->weight = pb_get_u64(&c);
	if (st & PERF_ST_DATA_SRC)
		s->data_src = pb_get_u64(&c);
	if (st & PERF_ST_TRANSACTION)
		s->transaction = pb_get_u64(&c);
	if (st & PERF_ST_REGS_INTR) {
		s->intr_regs_abi = pb_get_u64(&c);
		s->intr_regs_mask = a->sample_regs_intr;
		if (s->intr_regs_abi)
			s->intr_regs = take_u64s(&c, (uint64_t)__builtin_popcountll(a->sample_regs_intr));
	}
	if (st & PERF_ST_PHYS_ADDR)
		s->phys_addr = pb_get_u64(&c);
	if (st & PERF_ST_CGROUP)
		s->cgroup = pb_get_u64(&c);
	if (st & PERF_ST_DATA_PAGE_SIZE)
		s->data_page_size = pb_get_u64(&c);
	if (st & PERF_ST_CODE_PAGE_SIZE)
		s->code_page_size = pb_get_u64(&c);
	if (st & PERF_ST_AUX) {
		s->aux_size = pb_get_u64(&c);
		s->aux = pb_take(&c, s->aux_size);
	}
	if (c.bad)
		return fail(r, off, err, "fields run past the end of the record", PERF_REC_SAMPLE);
	return 0;
}

static void decode_trailer(const struct perf_attr *a, const uint8_t *rec, size_t size,
			   struct perf_sample_id *sid)
{
	uint64_t st = a->sample_type;
	struct pb_cursor c;

	pb_init(&c, rec + size - trailer_size(st), trailer_size(st));
	sid->has_id = 1;
	if (st & PERF_ST_TID) {
		sid->pid = pb_get_u32(&c);
		sid->tid = pb_get_u32(&c);
	}
	if (st & PERF_ST_TIME)
		sid->time = pb_get_u64(&c);
	if (st & PERF_ST_ID)
		sid->id = pb_get_u64(&c);
	if (st & PERF_ST_STREAM_ID)
		sid->stream_id = pb_get_u64(&c);
	if (st & PERF_ST_CPU) {
		sid->cpu = pb_get_u32(&c);
		(void)pb_get_u32(&c);
	}
	if (st & PERF_ST_IDENTIFIER)
		sid->id = pb_get_u64(&c);
}

/* A NUL-terminated string that must end inside [p, p+n). */
static const char *get_cstr(struct pb_cursor *c)
{
	const uint8_t *nul = memchr(c->p, 0, pb_left(c));

	if (c->bad || !nul) {
		c->bad = 1;
		return NULL;
	}
	return (const char *)c->p;
}

/* Kernels before 3.16 that have MMAP2 (3.10 of RHEL and CentOS 7, 3.12 to 3.15) write
 * no prot and flags: the file name follows ino_generation.  The record's size tells:
 * every writer (the kernel, perf's synthesized maps, perf inject --jit) pads the name
 * with NULs to the next 8 bytes, so the name's NUL lies in the last 8 bytes before the
 * sample_id trailer.  Read from where prot would be, an old record's name ends there;
 * a current record's prot (the kernel's PROT_* bits, or the file mode perf inject
 * --jit writes) has a zero in its high bytes, so the string read from there ends
 * inside the first 8 bytes, at least 8 before the end.  (Guessing by prot's value
 * took perf inject's file mode 0100644 for a name.)  The cursor is at prot. */
static int mmap2_without_prot(const struct pb_cursor *c)
{
	size_t left = pb_left(c);
	const uint8_t *nul = memchr(c->p, 0, left);
	size_t len = nul ? (size_t)(nul - c->p) : left;

	return nul && len >= 1 && len + 8 >= left;
}

int perf_record_decode(const struct perf_reader *r, const uint8_t *rec, size_t size,
		       long desc_index, struct perf_event *ev, int64_t off,
		       struct tephra_error *err)
{
	const struct perf_attr *a = desc_index >= 0 ? &r->descs[desc_index].attr : NULL;
	uint32_t type = pb_u32(rec);
	size_t body_end = size;
	struct pb_cursor c;

	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->misc = pb_u16(rec + 4);
	ev->size = pb_u16(rec + 6);
	ev->file_offset = off;
	ev->record = rec;
	ev->desc = a ? &r->descs[desc_index] : NULL;
	ev->desc_index = desc_index >= 0 ? (size_t)desc_index : 0;

	if (type == PERF_REC_SAMPLE) {
		if (!a)
			return fail(r, off, err, "sample of no known event", type);
		return decode_sample(r, a, rec, size, &ev->u.sample, off, err);
	}
	if (type < PERF_REC_HEADER_ATTR && a && has_trailer(a)) {
		uint64_t ts = trailer_size(a->sample_type);
		if (size < 8 + ts)
			return fail(r, off, err, "record too short for its sample_id trailer", type);
		decode_trailer(a, rec, size, &ev->sid);
		body_end = size - ts;
	}
	pb_init(&c, rec + 8, body_end - 8);
	switch (type) {
	case PERF_REC_MMAP:
		ev->u.mmap.pid = pb_get_u32(&c);
		ev->u.mmap.tid = pb_get_u32(&c);
		ev->u.mmap.start = pb_get_u64(&c);
		ev->u.mmap.len = pb_get_u64(&c);
		ev->u.mmap.pgoff = pb_get_u64(&c);
		ev->u.mmap.filename = get_cstr(&c);
		break;
	case PERF_REC_MMAP2:
		ev->u.mmap.pid = pb_get_u32(&c);
		ev->u.mmap.tid = pb_get_u32(&c);
		ev->u.mmap.start = pb_get_u64(&c);
		ev->u.mmap.len = pb_get_u64(&c);
		ev->u.mmap.pgoff = pb_get_u64(&c);
		if (ev->misc & PERF_MISC_MMAP_BUILD_ID) {
			const uint8_t *b;
			ev->u.mmap.build_id_size = (uint8_t)pb_get_u16(&c); /* size, reserved */
			(void)pb_get_u16(&c);
			b = pb_take(&c, 20);
			if (b)
				memcpy(ev->u.mmap.build_id, b, 20);
			if (ev->u.mmap.build_id_size > 20)
				ev->u.mmap.build_id_size = 20;
		} else {
			ev->u.mmap.maj = pb_get_u32(&c);
			ev->u.mmap.min = pb_get_u32(&c);
			ev->u.mmap.ino = pb_get_u64(&c);
			ev->u.mmap.ino_generation = pb_get_u64(&c);
		}
		if (!(ev->misc & PERF_MISC_MMAP_BUILD_ID) && mmap2_without_prot(&c))
			ev->u.mmap.old_mmap2 = 1;
		else {
			ev->u.mmap.prot = pb_get_u32(&c);
			ev->u.mmap.flags = pb_get_u32(&c);
		}
		ev->u.mmap.filename = get_cstr(&c);
		break;
	case PERF_REC_COMM:
		ev->u.comm.pid = pb_get_u32(&c);
		ev->u.comm.tid = pb_get_u32(&c);
		ev->u.comm.comm = get_cstr(&c);
		ev->u.comm.exec = (ev->misc & PERF_MISC_COMM_EXEC) != 0;
		break;
	case PERF_REC_FORK:
	case PERF_REC_EXIT:
		ev->u.fork.pid = pb_get_u32(&c);
		ev->u.fork.ppid = pb_get_u32(&c);
		ev->u.fork.tid = pb_get_u32(&c);
		ev->u.fork.ptid = pb_get_u32(&c);
		ev->u.fork.time = pb_get_u64(&c);
		break;
	case PERF_REC_LOST:
		ev->u.lost.id = pb_get_u64(&c);
		ev->u.lost.lost = pb_get_u64(&c);
		break;
	case PERF_REC_LOST_SAMPLES:
		ev->u.lost_samples.lost = pb_get_u64(&c);
		break;
	case PERF_REC_THROTTLE:
	case PERF_REC_UNTHROTTLE:
		ev->u.throttle.time = pb_get_u64(&c);
		ev->u.throttle.id = pb_get_u64(&c);
		ev->u.throttle.stream_id = pb_get_u64(&c);
		break;
	case PERF_REC_KSYMBOL:
		ev->u.ksymbol.addr = pb_get_u64(&c);
		ev->u.ksymbol.len = pb_get_u32(&c);
		ev->u.ksymbol.ksym_type = pb_get_u16(&c);
		ev->u.ksymbol.flags = pb_get_u16(&c);
		ev->u.ksymbol.name = get_cstr(&c);
		break;
	case PERF_REC_TIME_CONV:
		ev->u.time_conv.time_shift = pb_get_u64(&c);
		ev->u.time_conv.time_mult = pb_get_u64(&c);
		ev->u.time_conv.time_zero = pb_get_u64(&c);
		break;
	default:
		break; /* other records are delivered with their header only */
	}
	if (c.bad)
		return fail(r, off, err, "fields run past the end of the record", type);
	return 0;
}

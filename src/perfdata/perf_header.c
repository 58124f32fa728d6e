/* perf_header.c - the perf.data file header, the attrs with their id lists, and the
 * feature sections (tools/perf/Documentation/perf.data-file-format.txt).
 *
 * Everything is checked against the bytes present before it is used; allocations are
 * sized by counts that have already been checked against the section that holds them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "perfdata/perf_bytes.h"
#include "perfdata/perf_reader_internal.h"

#define PERF_MAGIC2 0x32454c4946524550ULL          /* "PERFILE2" read little-endian */
#define PERF_MAGIC2_SWAPPED 0x50455246494c4532ULL  /* written by a big-endian machine */
#define FILE_HEADER_SIZE 104
#define FILE_HEADER_SIZE_NO_FEATURES 72
#define ATTR_SIZE_VER0 64

/* Decodes a perf_event_attr of any size (fields beyond it read as 0). */
static void decode_attr(struct perf_attr *a, const uint8_t *p, size_t n)
{
	uint8_t buf[136] = { 0 };

	memcpy(buf, p, n < sizeof(buf) ? n : sizeof(buf));
	a->type = pb_u32(buf + 0);
	a->size = pb_u32(buf + 4);
	a->config = pb_u64(buf + 8);
	a->sample_period_or_freq = pb_u64(buf + 16);
	a->sample_type = pb_u64(buf + 24);
	a->read_format = pb_u64(buf + 32);
	a->flags = pb_u64(buf + 40);
	a->wakeup = pb_u32(buf + 48);
	a->bp_type = pb_u32(buf + 52);
	a->config1 = pb_u64(buf + 56);
	a->config2 = pb_u64(buf + 64);
	a->branch_sample_type = pb_u64(buf + 72);
	a->sample_regs_user = pb_u64(buf + 80);
	a->sample_stack_user = pb_u32(buf + 88);
	a->clockid = (int32_t)pb_u32(buf + 92);
	a->sample_regs_intr = pb_u64(buf + 96);
	a->aux_watermark = pb_u32(buf + 104);
	a->sample_max_stack = pb_u16(buf + 108);
}

static int cmp_id_slot(const void *a, const void *b)
{
	const struct perf_id_slot *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	/* the same id in two attrs: in attr order, whatever qsort does */
	return x->desc_index < y->desc_index ? -1 : x->desc_index > y->desc_index;
}

void perf_header_sort_ids(struct perf_reader *r)
{
	if (!r->id_map_unsorted)
		return;
	qsort(r->id_map, r->nr_id_map, sizeof(*r->id_map), cmp_id_slot);
	r->id_map_unsorted = 0;
}

int perf_header_add_attr(struct perf_reader *r, const uint8_t *attr, size_t attr_bytes,
			 const uint8_t *ids, size_t nr_ids, int64_t off, struct tephra_error *err)
{
	struct perf_event_desc *d;
	uint64_t *idv;

	if (attr_bytes < ATTR_SIZE_VER0) {
		tephra_error_at(err, r->path, off, "attr of %zu bytes is smaller than the "
				"smallest perf_event_attr (%d bytes)", attr_bytes, ATTR_SIZE_VER0);
		return -1;
	}
	if (r->nr_descs == r->cap_descs) {
		r->cap_descs = r->cap_descs ? r->cap_descs * 2 : 4;
		r->descs = xrealloc(r->descs, r->cap_descs * sizeof(*r->descs));
		r->samples_by_event = xrealloc(r->samples_by_event,
					       r->cap_descs * sizeof(*r->samples_by_event));
	}
	d = &r->descs[r->nr_descs];
	memset(d, 0, sizeof(*d));
	decode_attr(&d->attr, attr, attr_bytes);
	idv = xcalloc(nr_ids ? nr_ids : 1, sizeof(*idv));
	for (size_t i = 0; i < nr_ids; i++)
		idv[i] = pb_u64(ids + 8 * i);
	d->ids = idv;
	d->nr_ids = nr_ids;
	r->samples_by_event[r->nr_descs] = 0;
	r->stats.nr_samples_by_event = r->samples_by_event;

	if (r->nr_id_map + nr_ids + 1 > r->cap_id_map) {
		/* doubling: growing by each attr's ids copied the map once per attr */
		size_t cap = r->cap_id_map ? 2 * r->cap_id_map : 16;
		while (cap < r->nr_id_map + nr_ids + 1)
			cap *= 2;
		r->id_map = xrealloc(r->id_map, cap * sizeof(*r->id_map));
		r->cap_id_map = cap;
	}
	for (size_t i = 0; i < nr_ids; i++) {
		r->id_map[r->nr_id_map].id = idv[i];
		r->id_map[r->nr_id_map].desc_index = r->nr_descs;
		r->nr_id_map++;
	}
	r->id_map_unsorted |= nr_ids > 0;
	r->nr_descs++;
	return 0;
}

/* A perf header string: u32 length (padding included), then the NUL-padded bytes. */
static char *get_string(struct pb_cursor *c)
{
	uint32_t len = pb_get_u32(c);
	const uint8_t *s = pb_take(c, len);

	if (!s)
		return NULL;
	return xstrndup((const char *)s, strnlen((const char *)s, len));
}

static int bad_feature(struct perf_reader *r, unsigned bit, int64_t off, const char *what,
		       struct tephra_error *err)
{
	tephra_error_at(err, r->path, off, "feature section %s: %s",
			perf_feature_name(bit) ? perf_feature_name(bit) : "?", what);
	return -1;
}

static int set_string(struct perf_reader *r, unsigned bit, const char **slot, const uint8_t *p,
		      size_t n, int64_t off, struct tephra_error *err)
{
	struct pb_cursor c;
	char *s;

	pb_init(&c, p, n);
	s = get_string(&c);
	if (!s)
		return bad_feature(r, bit, off, "string runs past the end of its section", err);
	free((char *)*slot);
	*slot = s;
	return 0;
}

static int parse_cmdline(struct perf_reader *r, const uint8_t *p, size_t n, int64_t off,
			 struct tephra_error *err)
{
	struct pb_cursor c;
	struct strbuf_like { char *s; size_t len, cap; } out = { 0 };
	uint32_t nr;

	pb_init(&c, p, n);
	nr = pb_get_u32(&c);
	if (c.bad || nr > n / 4)
		return bad_feature(r, PERF_FEAT_CMDLINE, off, "argument count past its section", err);
	for (uint32_t i = 0; i < nr; i++) {
		char *arg = get_string(&c);
		size_t len;

		if (!arg) {
			free(out.s);
			return bad_feature(r, PERF_FEAT_CMDLINE, off,
					   "argument runs past the end of its section", err);
		}
		len = strlen(arg);
		out.s = xrealloc(out.s, out.len + len + 2);
		if (i)
			out.s[out.len++] = ' ';
		memcpy(out.s + out.len, arg, len);
		out.len += len;
		out.s[out.len] = 0;
		free(arg);
	}
	free((char *)r->hdr.cmdline);
	r->hdr.cmdline = out.s ? out.s : xstrdup("");
	return 0;
}

/* Names from EVENT_DESC, matched to attrs by id (by position when ids are missing). */
static int parse_event_desc(struct perf_reader *r, const uint8_t *p, size_t n, int64_t off,
			    struct tephra_error *err)
{
	struct pb_cursor c;
	uint32_t nre, sz;

	pb_init(&c, p, n);
	nre = pb_get_u32(&c);
	sz = pb_get_u32(&c);
	if (c.bad)
		return bad_feature(r, PERF_FEAT_EVENT_DESC, off, "section too short", err);
	if (sz < ATTR_SIZE_VER0 || (uint64_t)nre * sz > n)
		return bad_feature(r, PERF_FEAT_EVENT_DESC, off,
				   "event count or attr size past its section", err);
	for (uint32_t i = 0; i < nre; i++) {
		const uint8_t *attr = pb_take(&c, sz);
		uint32_t nr_ids = pb_get_u32(&c);
		char *name = get_string(&c);
		const uint8_t *ids = NULL;
		long match = -1;

		if (!c.bad && nr_ids > pb_left(&c) / 8)
			c.bad = 1;
		if (!c.bad)
			ids = pb_take(&c, (uint64_t)nr_ids * 8);
		if (c.bad || !attr) {
			free(name);
			return bad_feature(r, PERF_FEAT_EVENT_DESC, off,
					   "event entry runs past the end of its section", err);
		}
		if (nr_ids) {
			perf_header_sort_ids(r);
			match = perf_reader_event_by_id(r, pb_u64(ids));
		}
		if (match < 0 && i < r->nr_descs)
			match = i;
		if (match < 0 || r->descs[match].name) {
			free(name);
			continue;
		}
		r->descs[match].name = name;
	}
	return 0;
}

int perf_header_add_build_id(struct perf_reader *r, const uint8_t *rec, size_t size,
			     int64_t off, struct tephra_error *err)
{
	struct perf_build_id_entry *e;
	uint16_t misc;
	const char *name;
	size_t name_len;

	if (size < 8 + 4 + 24) {
		tephra_error_at(err, r->path, off, "build-id record of %zu bytes is too short", size);
		return -1;
	}
	misc = pb_u16(rec + 4);
	if (r->nr_build_ids == r->cap_build_ids) {
		r->cap_build_ids = r->cap_build_ids ? r->cap_build_ids * 2 : 16;
		r->build_ids = xrealloc(r->build_ids, r->cap_build_ids * sizeof(*r->build_ids));
	}
	e = &r->build_ids[r->nr_build_ids++];
	memset(e, 0, sizeof(*e));
	e->pid = (int32_t)pb_u32(rec + 8);
	e->misc = misc;
	memcpy(e->build_id, rec + 12, 20);
	/* With PERF_RECORD_MISC_BUILD_ID_SIZE the byte after the 20 id bytes is the real size. */
	e->size = 20;
	if ((misc & PERF_MISC_BUILD_ID_SIZE) && rec[12 + 20] <= 20)
		e->size = rec[12 + 20];
	name = (const char *)rec + 36;
	name_len = strnlen(name, size - 36);
	e->path = xstrndup(name, name_len);
	r->hdr.build_ids = r->build_ids;
	r->hdr.nr_build_ids = r->nr_build_ids;
	return 0;
}

static int parse_build_ids(struct perf_reader *r, const uint8_t *p, size_t n, int64_t off,
			   struct tephra_error *err)
{
	size_t at = 0;

	while (at < n) {
		size_t size;

		if (n - at < 8)
			return bad_feature(r, PERF_FEAT_BUILD_ID, off + (int64_t)at,
					   "record header runs past the end of its section", err);
		size = pb_u16(p + at + 6);
		if (size < 8 || size > n - at)
			return bad_feature(r, PERF_FEAT_BUILD_ID, off + (int64_t)at,
					   "record size runs past the end of its section", err);
		if (perf_header_add_build_id(r, p + at, size, off + (int64_t)at, err))
			return -1;
		at += size;
	}
	return 0;
}

int perf_header_parse_feature(struct perf_reader *r, unsigned bit, const uint8_t *p, size_t n,
			      int64_t off, struct tephra_error *err)
{
	struct perf_header_info *h = &r->hdr;
	struct pb_cursor c;

	pb_init(&c, p, n);
	switch (bit) {
	case PERF_FEAT_HOSTNAME: return set_string(r, bit, &h->hostname, p, n, off, err);
	case PERF_FEAT_OSRELEASE: return set_string(r, bit, &h->osrelease, p, n, off, err);
	case PERF_FEAT_VERSION: return set_string(r, bit, &h->version, p, n, off, err);
	case PERF_FEAT_ARCH: return set_string(r, bit, &h->arch, p, n, off, err);
	case PERF_FEAT_CPUDESC: return set_string(r, bit, &h->cpudesc, p, n, off, err);
	case PERF_FEAT_CPUID: return set_string(r, bit, &h->cpuid, p, n, off, err);
	case PERF_FEAT_NRCPUS:
		h->nr_cpus_avail = pb_get_u32(&c);
		h->nr_cpus_online = pb_get_u32(&c);
		if (c.bad)
			return bad_feature(r, bit, off, "section too short", err);
		return 0;
	case PERF_FEAT_TOTAL_MEM:
		h->total_mem = pb_get_u64(&c);
		if (c.bad)
			return bad_feature(r, bit, off, "section too short", err);
		return 0;
	case PERF_FEAT_SAMPLE_TIME:
		h->first_sample_time = pb_get_u64(&c);
		h->last_sample_time = pb_get_u64(&c);
		if (c.bad)
			return bad_feature(r, bit, off, "section too short", err);
		h->has_sample_time = 1;
		return 0;
	case PERF_FEAT_COMPRESSED: /* version, type, level, ratio, mmap_len */
		for (int i = 0; i < 4; i++)
			pb_get_u32(&c);
		r->comp_mmap_len = pb_get_u32(&c);
		if (c.bad)
			return bad_feature(r, bit, off, "section too short", err);
		return 0;
	case PERF_FEAT_CMDLINE: return parse_cmdline(r, p, n, off, err);
	case PERF_FEAT_EVENT_DESC: return parse_event_desc(r, p, n, off, err);
	case PERF_FEAT_BUILD_ID: return parse_build_ids(r, p, n, off, err);
	case PERF_FEAT_TRACING_DATA:
		perf_header_tracing_data(r, p, n, off);
		return 0;
	default:
		return 0; /* other features are not needed: skipped by their size */
	}
}

/* Reads the file header, the attrs and the feature sections of a mapped file. */
int perf_header_read_file(struct perf_reader *r, struct tephra_error *err)
{
	const uint8_t *m = r->map;
	uint64_t fsize = r->map_size;
	uint64_t magic, hsize, attr_size, attrs_off, attrs_size, data_off, data_size, feat_off;
	uint64_t nr_feat = 0;

	if (fsize < 16) {
		tephra_error_at(err, r->path, 0, "file of %" PRIu64 " bytes is too short for a "
				"perf.data header", fsize);
		return -1;
	}
	magic = pb_u64(m);
	if (magic == PERF_MAGIC2_SWAPPED) {
		tephra_error_at(err, r->path, 0, "perf.data written on a machine of the other "
				"endianness (byte-swapped magic); tephra reads only native-endian files");
		return -1;
	}
	if (!memcmp(m, "PERFFILE", 8)) {
		/* The old magic says nothing about byte order or layout; perf takes the file
		 * when its attr size is one a perf of that time wrote (perf_event_attr of 64,
		 * 72, 80, 96 or 104 bytes, each followed by its 16-byte id section): then the
		 * rest of the header is version 2's (RHEL 6's perf writes such files). */
		uint64_t as = pb_u64(m + 16);
		if (as != 16 + 64 && as != 16 + 72 && as != 16 + 80 && as != 16 + 96 &&
		    as != 16 + 104) {
			tephra_error_at(err, r->path, 0, "perf.data version 1 (magic PERFFILE) with "
					"attr size %" PRIu64 ", not a layout perf reads", as);
			return -1;
		}
	} else if (magic != PERF_MAGIC2) {
		tephra_error_at(err, r->path, 0, "not a perf.data file (magic is not PERFILE2)");
		return -1;
	}
	hsize = pb_u64(m + 8);
	if (hsize != FILE_HEADER_SIZE && hsize != FILE_HEADER_SIZE_NO_FEATURES) {
		tephra_error_at(err, r->path, 8, "header size %" PRIu64 " is neither %d (file) nor "
				"16 (pipe mode)", hsize, FILE_HEADER_SIZE);
		return -1;
	}
	if (fsize < hsize) {
		tephra_error_at(err, r->path, 0, "file ends inside the header (%" PRIu64
				" of %" PRIu64 " bytes)", fsize, hsize);
		return -1;
	}
	attr_size = pb_u64(m + 16);
	attrs_off = pb_u64(m + 24);
	attrs_size = pb_u64(m + 32);
	data_off = pb_u64(m + 40);
	data_size = pb_u64(m + 48);
	if (hsize == FILE_HEADER_SIZE)
		for (int i = 0; i < 4; i++)
			r->hdr.features[i] = pb_u64(m + 72 + 8 * i);

	if (attrs_off > fsize || attrs_size > fsize - attrs_off) {
		tephra_error_at(err, r->path, 24, "attrs section (offset 0x%" PRIx64 ", size 0x%"
				PRIx64 ") runs past the end of the file (0x%" PRIx64 " bytes)",
				attrs_off, attrs_size, fsize);
		return -1;
	}
	if (attr_size < 16 + ATTR_SIZE_VER0 || attrs_size % attr_size) {
		tephra_error_at(err, r->path, 16, "attr size %" PRIu64 " does not fit the attrs "
				"section (size %" PRIu64 ")", attr_size, attrs_size);
		return -1;
	}
	if (data_off > fsize) {
		tephra_error_at(err, r->path, 40, "data section (offset 0x%" PRIx64 ") starts past "
				"the end of the file (0x%" PRIx64 " bytes): the file is truncated",
				data_off, fsize);
		return -1;
	}
	if (data_size > fsize - data_off) {
		if (!r->opts.lenient) {
			tephra_error_at(err, r->path, 40, "data section (offset 0x%" PRIx64 ", size 0x%"
					PRIx64 ") runs past the end of the file (0x%" PRIx64 " bytes): "
					"the file is truncated", data_off, data_size, fsize);
			return -1;
		}
		/* the records up to the end of the file; the feature sections are gone */
		r->hdr.data_cut = 1;
		data_size = fsize - data_off;
		memset(r->hdr.features, 0, sizeof(r->hdr.features));
	}
	for (uint64_t a = attrs_off; a < attrs_off + attrs_size; a += attr_size) {
		uint64_t bytes = attr_size - 16;
		uint32_t self_size = pb_u32(m + a + 4);
		uint64_t ids_off = pb_u64(m + a + bytes), ids_size = pb_u64(m + a + bytes + 8);

		/* The attr's own size field may claim less than the stride (older perf) or lie
		 * about more: decode no more than both allow. */
		if (self_size && self_size < bytes)
			bytes = self_size;
		if (ids_off > fsize || ids_size > fsize - ids_off || ids_size % 8) {
			tephra_error_at(err, r->path, (int64_t)(a + attr_size - 16), "id list (offset 0x%"
					PRIx64 ", size 0x%" PRIx64 ") runs past the end of the file",
					ids_off, ids_size);
			return -1;
		}
		if (perf_header_add_attr(r, m + a, bytes, m + ids_off, ids_size / 8, (int64_t)a, err))
			return -1;
	}
	perf_header_sort_ids(r);

	r->pos = data_off;
	r->end = data_off + data_size;
	feat_off = data_off + data_size;
	r->hdr.file_size = fsize;
	r->hdr.data_offset = data_off;
	r->hdr.data_size = data_size;
	r->hdr.feat_offset = feat_off;

	if (data_size == 0) {
		/* perf record writes the sizes and the feature sections when it finishes; a
		 * file from a killed perf record has neither, and perf reads nothing from it.
		 * Lenient reading takes the records written up to the end of the file. */
		r->hdr.unfinished = 1;
		memset(r->hdr.features, 0, sizeof(r->hdr.features));
		if (r->opts.lenient)
			r->end = fsize;
		perf_header_finish_names(r);
		return 0;
	}
	if (r->hdr.data_cut) {
		perf_header_finish_names(r);
		return 0;
	}
	for (int i = 0; i < 4; i++)
		nr_feat += (uint64_t)__builtin_popcountll(r->hdr.features[i]);
	if (nr_feat && (feat_off > fsize || nr_feat * 16 > fsize - feat_off)) {
		tephra_error_at(err, r->path, (int64_t)feat_off, "feature table (%" PRIu64
				" entries) runs past the end of the file", nr_feat);
		return -1;
	}
	for (unsigned bit = 0, k = 0; bit < 256; bit++) {
		uint64_t sec_off, sec_size;
		const uint8_t *ent;

		if (!(r->hdr.features[bit / 64] >> (bit % 64) & 1))
			continue;
		ent = m + feat_off + 16 * k++;
		sec_off = pb_u64(ent);
		sec_size = pb_u64(ent + 8);
		/* an optional section is never a reason to refuse the samples: warn, go on */
		if (sec_off > fsize || sec_size > fsize - sec_off) {
			tephra_warn(r->opts.report, "warning: %s: offset 0x%tx: feature section %s (offset 0x%"
				    PRIx64 ", size 0x%" PRIx64 ") runs past the end of the file: "
				    "ignored", r->path, ent - m,
				    perf_feature_name(bit) ? perf_feature_name(bit) : "?",
				    sec_off, sec_size);
			continue;
		}
		struct tephra_error ferr;
		if (perf_header_parse_feature(r, bit, m + sec_off, sec_size, (int64_t)sec_off, &ferr))
			tephra_warn(r->opts.report, "warning: %s; ignored", ferr.msg);
	}
	perf_header_finish_names(r);
	return 0;
}

static const char *const sw_names[] = { "cpu-clock", "task-clock", "page-faults",
	"context-switches", "cpu-migrations", "minor-faults", "major-faults",
	"alignment-faults", "emulation-faults", "dummy", "bpf-output", "cgroup-switches" };
static const char *const hw_names[] = { "cycles", "instructions", "cache-references",
	"cache-misses", "branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles" };

void perf_header_tracing_data(struct perf_reader *r, const uint8_t *p, size_t n, int64_t off)
{
	struct tephra_error err;

	if (r->have_tp)
		tp_formats_free(&r->tp);
	r->have_tp = 0;
	if (tp_formats_parse(&r->tp, p, n, &err)) {
		tephra_warn(r->opts.report, "warning: %s: offset 0x%" PRIx64 ": %s; tracepoint fields are "
			    "not printed", r->path, (uint64_t)off, err.msg);
		return;
	}
	r->have_tp = 1;
}

/* The modifiers perf appends to a generic event name ("cpu-clock:ppp", "cycles:u"):
 * the levels not excluded when some are, p per precise_ip level, and H/G when the
 * host or guest exclusion differs from its default. */
static void add_modifiers(char *buf, size_t size, uint64_t flags)
{
	int ex_user = flags >> 4 & 1, ex_kernel = flags >> 5 & 1, ex_hv = flags >> 6 & 1;
	int precise = (int)(flags >> 15 & 3), ex_host = flags >> 19 & 1, ex_guest = flags >> 20 & 1;
	int guest_default = 0;
	char mods[16];
	size_t n = 0;

	if (ex_user || ex_kernel || ex_hv) {
		if (!ex_kernel)
			mods[n++] = 'k';
		if (!ex_user)
			mods[n++] = 'u';
		if (!ex_hv)
			mods[n++] = 'h';
		guest_default = 1;
	}
	if (precise) {
		for (int i = 0; i < precise; i++)
			mods[n++] = 'p';
		guest_default = 1;
	}
	if (ex_host || ex_guest == guest_default) {
		if (!ex_host)
			mods[n++] = 'H';
		if (!ex_guest)
			mods[n++] = 'G';
	}
	mods[n] = 0;
	if (n)
		snprintf(buf + strlen(buf), size - strlen(buf), ":%s", mods);
}

/* Events without an EVENT_DESC name get the name perf would give them: a tracepoint's
 * "system:name" from the tracing data, else the generic one with its modifiers. */
void perf_header_finish_names(struct perf_reader *r)
{
	for (size_t i = 0; i < r->nr_descs; i++) {
		struct perf_event_desc *d = &r->descs[i];
		char buf[64];

		if (d->attr.type == PERF_ATTR_TYPE_TRACEPOINT && r->have_tp)
			d->tp = tp_formats_find(&r->tp, d->attr.config);
		if (d->name)
			continue;
		if (d->tp) {
			d->name = xstrdup(d->tp->full_name);
			continue;
		}
		if (d->attr.type == 1 && d->attr.config < sizeof(sw_names) / sizeof(sw_names[0]))
			snprintf(buf, sizeof(buf), "%s", sw_names[d->attr.config]);
		else if (d->attr.type == 0 && d->attr.config < sizeof(hw_names) / sizeof(hw_names[0]))
			snprintf(buf, sizeof(buf), "%s", hw_names[d->attr.config]);
		else
			snprintf(buf, sizeof(buf), "unknown attr type: %" PRIu32 " config: 0x%" PRIx64,
				 d->attr.type, d->attr.config);
		if (d->attr.type <= 1 && d->attr.config < (d->attr.type ? sizeof(sw_names) /
		    sizeof(sw_names[0]) : sizeof(hw_names) / sizeof(hw_names[0])))
			add_modifiers(buf, sizeof(buf), d->attr.flags);
		d->name = xstrdup(buf);
	}
}

void perf_header_release(struct perf_reader *r)
{
	struct perf_header_info *h = &r->hdr;

	free((char *)h->hostname);
	free((char *)h->osrelease);
	free((char *)h->version);
	free((char *)h->arch);
	free((char *)h->cpudesc);
	free((char *)h->cpuid);
	free((char *)h->cmdline);
	for (size_t i = 0; i < r->nr_build_ids; i++)
		free((char *)r->build_ids[i].path);
	free(r->build_ids);
	for (size_t i = 0; i < r->nr_descs; i++) {
		free((char *)r->descs[i].name);
		free((uint64_t *)r->descs[i].ids);
	}
	free(r->descs);
	free(r->id_map);
	if (r->have_tp)
		tp_formats_free(&r->tp);
	free(r->tracing_blob);
	free(r->held_rec);
	free(r->samples_by_event);
}

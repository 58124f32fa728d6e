/* perf_reader.c - the input driver: takes the bytes of a perf.data file or pipe-mode
 * stream (perf_input.c), cuts the data into records, has COMPRESSED records inflated
 * (perf_decompress.c), sends each record
 * either straight to delivery or through the ordering queue, and decodes records as they
 * are delivered.
 *
 * Which records wait for ordering follows perf 6.1's session code: perf's own (user)
 * records (type >= 64) are handled when read; kernel records with a timestamp other than
 * 0 are queued; the rest (no sample_id_all, or time 0 as in the records perf synthesizes
 * at start) are delivered when read. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "base/file_owner.h"
#include "base/xalloc.h"
#include "perfdata/page_prefetch.h"
#include "perfdata/perf_bytes.h"
#include "perfdata/perf_reader_internal.h"

/* Decompressed records queued in one round, at most: past it the round is closed early
 * (as perf does past --queue-size), so that many COMPRESSED records without a
 * FINISHED_ROUND cannot pile up (a 200 KB file held 1 GiB so). */
#define ROUND_INFLATED_MAX ((size_t)128 << 20)
#define PROGRESS_STEP (4u << 20)

/* ---- delivery FIFO ----
 *
 * Records to deliver are the FIFO's, then the ordering queue's due records (those a
 * FINISHED_ROUND released), which are handed out from the queue itself instead of being
 * copied here.  Anything queued or appended while records are due would overtake them,
 * so the due records move into the FIFO first (only inside compressed data, where one
 * input record holds several rounds). */

static void fifo_append(struct perf_reader *r, const struct perf_queued_record *q)
{
	if (r->ready_head == r->ready_len) {
		r->ready_head = r->ready_len = 0;
	} else if (r->ready_len == r->ready_cap && r->ready_head > 0) {
		memmove(r->ready, r->ready + r->ready_head,
			(r->ready_len - r->ready_head) * sizeof(*r->ready));
		r->ready_len -= r->ready_head;
		r->ready_head = 0;
	}
	if (r->ready_len == r->ready_cap) {
		r->ready_cap = r->ready_cap ? r->ready_cap * 2 : 256;
		r->ready = xrealloc(r->ready, r->ready_cap * sizeof(*r->ready));
	}
	r->ready[r->ready_len++] = *q;
}

static void due_into_fifo(struct perf_reader *r)
{
	const struct perf_queued_record *q;

	while ((q = perf_ordered_queue_take(&r->queue)) != NULL)
		fifo_append(r, q);
}

static void ready_push(struct perf_reader *r, const struct perf_queued_record *q)
{
	due_into_fifo(r);
	fifo_append(r, q);
}

static void queue_push(struct perf_reader *r, const struct perf_queued_record *q)
{
	due_into_fifo(r);
	perf_ordered_queue_push(&r->queue, q);
}

/* Bytes that follow some records without being counted in their size field. */
static uint64_t trailing_payload(const uint8_t *rec, size_t size)
{
	uint32_t type = pb_u32(rec);

	if (type == PERF_REC_AUXTRACE && size >= 16)
		return pb_u64(rec + 8);
	if (type == PERF_REC_HEADER_TRACING_DATA && size >= 12)
		return pb_u32(rec + 8);
	return 0;
}

/* The tracing data that follows a HEADER_TRACING_DATA record (pipe mode), kept for the
 * record's handler: N bytes at P replace (or, with APPEND, extend) what is kept. */
static void keep_tracing_blob(struct perf_reader *r, const uint8_t *p, size_t n, int append)
{
	if (!append)
		r->tracing_blob_len = 0;
	r->tracing_blob = xrealloc(r->tracing_blob, r->tracing_blob_len + n + 1);
	if (n)
		memcpy(r->tracing_blob + r->tracing_blob_len, p, n);
	r->tracing_blob_len += n;
}

/* The next record of the input: 1 with REC/SIZE/OFF (REC valid until the next call),
 * 0 at the end, -1 on error. */
static int read_record(struct perf_reader *r, const uint8_t **rec, size_t *size, int64_t *off,
		       struct tephra_error *err)
{
	uint64_t extra;
	int tracing;

	if (r->input == PERF_INPUT_MAPPED) {
		if (r->pos >= r->end)
			return 0;
		if (r->end - r->pos < 8) {
			tephra_error_at(err, r->path, (int64_t)r->pos, "record header runs past the "
					"end of the data (%" PRIu64 " bytes left)", r->end - r->pos);
			return -1;
		}
		const uint8_t *at = r->map + r->pos;
		if (r->win && perf_input_window(r, 8, &at, err))
			return -1;
		*size = pb_u16(at + 6);
		if (*size < 8) {
			tephra_error_at(err, r->path, (int64_t)r->pos, "record size %zu is smaller "
					"than a record header", *size);
			return -1;
		}
		if (*size > r->end - r->pos) {
			tephra_error_at(err, r->path, (int64_t)r->pos, "record of %zu bytes runs "
					"past the end of the data (%" PRIu64 " bytes left)", *size,
					r->end - r->pos);
			return -1;
		}
		if (r->win && perf_input_window(r, *size, &at, err))
			return -1;
		*rec = at;
		*off = (int64_t)r->pos;
		extra = trailing_payload(*rec, *size);
		if (extra > r->end - r->pos - *size) {
			tephra_error_at(err, r->path, (int64_t)r->pos, "payload of %" PRIu64 " bytes "
					"after the record runs past the end of the data", extra);
			return -1;
		}
		if (pb_u32(*rec) == PERF_REC_HEADER_TRACING_DATA)
			keep_tracing_blob(r, r->map + r->pos + *size, (size_t)extra, 0);
		r->pos += *size + extra;
		r->stats.bytes_read += *size + extra;
		if (pb_u32(*rec) == PERF_REC_AUXTRACE)
			r->stats.aux_bytes += extra;
		return 1;
	}

	if (perf_input_fill(r, 8, err))
		return -1;
	if (r->sbuf_end == r->sbuf_start)
		return 0;
	if (r->sbuf_end - r->sbuf_start < 8) {
		tephra_error_at(err, r->path, (int64_t)r->stream_off, "stream ends inside a "
				"record header");
		return -1;
	}
	*size = pb_u16(r->sbuf + r->sbuf_start + 6);
	if (*size < 8) {
		tephra_error_at(err, r->path, (int64_t)r->stream_off, "record size %zu is smaller "
				"than a record header", *size);
		return -1;
	}
	if (perf_input_fill(r, *size, err))
		return -1;
	if (r->sbuf_end - r->sbuf_start < *size) {
		tephra_error_at(err, r->path, (int64_t)r->stream_off, "stream ends inside a record "
				"(%zu of %zu bytes)", r->sbuf_end - r->sbuf_start, *size);
		return -1;
	}
	*rec = r->sbuf + r->sbuf_start;
	*off = (int64_t)r->stream_off;
	extra = trailing_payload(*rec, *size);
	if (extra) {
		/* filling the buffer for the payload may move the record: hold a copy */
		if (r->held_cap < *size) {
			r->held_cap = *size;
			r->held_rec = xrealloc(r->held_rec, r->held_cap);
		}
		memcpy(r->held_rec, *rec, *size);
		*rec = r->held_rec;
	}
	tracing = pb_u32(*rec) == PERF_REC_HEADER_TRACING_DATA;
	if (pb_u32(*rec) == PERF_REC_AUXTRACE)
		r->stats.aux_bytes += extra;
	if (tracing)
		keep_tracing_blob(r, NULL, 0, 0);
	perf_input_consume(r, *size);
	while (extra) {
		size_t chunk = extra < 65536 ? (size_t)extra : 65536;

		if (perf_input_fill(r, chunk, err))
			return -1;
		if (r->sbuf_end - r->sbuf_start < chunk) {
			tephra_error_at(err, r->path, (int64_t)r->stream_off, "stream ends inside the "
					"payload of the record at 0x%" PRIx64, (uint64_t)*off);
			return -1;
		}
		if (tracing)
			keep_tracing_blob(r, r->sbuf + r->sbuf_start, chunk, 1);
		perf_input_consume(r, chunk);
		extra -= chunk;
	}
	/* The record bytes stay in sbuf until the next fill, which comes after the caller
	 * has copied them. */
	r->stats.bytes_read = r->stream_off;
	return 1;
}

/* ---- records ---- */

static void make_entry(struct perf_reader *r, struct perf_queued_record *q, const uint8_t *rec,
		       size_t size, int64_t off, int transient, int in_compressed, long desc,
		       uint64_t time)
{
	memset(q, 0, sizeof(*q));
	q->time = time;
	q->size = (uint32_t)size;
	q->file_offset = off;
	q->in_compressed = (uint8_t)in_compressed;
	q->part = (uint16_t)r->cur_part;
	q->desc_index = (int32_t)desc;
	/* Copies are needed for bytes that will be overwritten (stream buffer, decompression
	 * buffer) and for records at an address not 8-aligned (their u64 arrays are exposed). */
	if (transient || (uintptr_t)rec % 8) {
		uint8_t *copy = xmalloc(size);
		memcpy(copy, rec, size);
		q->rec = copy;
		q->owned = 1;
	} else {
		q->rec = rec;
	}
}

static int handle_user_record(struct perf_reader *r, const uint8_t *rec, size_t size,
			      int64_t off, int in_compressed, struct tephra_error *err)
{
	uint32_t type = pb_u32(rec);
	struct perf_queued_record q;

	/* Like perf, a user record is handled (and delivered) when read; FINISHED_ROUND
	 * comes out before the records its flush releases, as in `perf script -D`. */
	make_entry(r, &q, rec, size, off, in_compressed || r->input == PERF_INPUT_STREAM,
		   in_compressed, -1, UINT64_MAX);
	ready_push(r, &q);
	switch (type) {
	case PERF_REC_FINISHED_ROUND:
		r->stats.nr_rounds++;
		if (!r->opts.unordered)
			perf_ordered_queue_close_round(&r->queue);
		r->inflated_in_round = 0;
		break;
	case PERF_REC_HEADER_ATTR: {
		uint32_t attr_size = size >= 16 ? pb_u32(rec + 12) : 0;
		if (size >= 16 && attr_size == 0)
			attr_size = 64; /* perf's first attr layout did not fill in its size */
		if (attr_size < 64 || attr_size > size - 8) {
			tephra_error_at(err, r->path, off, "PERF_RECORD_HEADER_ATTR: attr size %" PRIu32
					" does not fit the record (%zu bytes)", attr_size, size);
			return -1;
		}
		if (perf_header_add_attr(r, rec + 8, attr_size, rec + 8 + attr_size,
					 (size - 8 - attr_size) / 8, off, err))
			return -1;
		break;
	}
	case PERF_REC_HEADER_FEATURE:
		if (size < 16) {
			tephra_error_at(err, r->path, off, "PERF_RECORD_HEADER_FEATURE: record too short");
			return -1;
		}
		if (pb_u64(rec + 8) < 256) {
			/* an optional section is never a reason to refuse the samples */
			struct tephra_error ferr;
			if (perf_header_parse_feature(r, (unsigned)pb_u64(rec + 8), rec + 16, size - 16,
						      off + 16, &ferr))
				tephra_warn(r->opts.report, "warning: %s; ignored", ferr.msg);
		}
		if (pb_u64(rec + 8) < 256)
			r->hdr.features[pb_u64(rec + 8) / 64] |= 1ULL << (pb_u64(rec + 8) % 64);
		break;
	case PERF_REC_HEADER_BUILD_ID:
		if (perf_header_add_build_id(r, rec, size, off, err))
			return -1;
		break;
	case PERF_REC_HEADER_TRACING_DATA:
		perf_header_tracing_data(r, r->tracing_blob, r->tracing_blob_len, off + (int64_t)size);
		break;
	default:
		break;
	}
	return 0;
}

int perf_reader_handle_record(struct perf_reader *r, const uint8_t *rec, size_t size,
			      int64_t off, int in_compressed, struct tephra_error *err)
{
	uint32_t type = pb_u32(rec);
	struct perf_queued_record q;
	uint64_t time;
	long desc;

	if (type != PERF_REC_HEADER_ATTR)
		perf_header_sort_ids(r);   /* after a run of ATTR records, before lookups */
	if (type < sizeof(r->stats.nr_records) / sizeof(r->stats.nr_records[0]))
		r->stats.nr_records[type]++;
	r->stats.nr_records_total++;
	if (!perf_record_type_name(type))
		r->stats.nr_unknown_records++;
	if (type == PERF_REC_COMPRESSED || type == PERF_REC_COMPRESSED2) {
		if (in_compressed) {
			tephra_error_at(err, r->path, off, "compressed record inside compressed data");
			return -1;
		}
		/* The container is delivered too (before its contents, as perf dumps it). */
		make_entry(r, &q, rec, size, off, r->input == PERF_INPUT_STREAM, 0, -1, UINT64_MAX);
		ready_push(r, &q);
		if (perf_reader_decompress(r, rec, size, off, err))
			return -1;
		if (r->inflated_in_round > ROUND_INFLATED_MAX) {
			if (!r->warned_long_round++)
				tephra_warn(r->opts.report, "warning: %s: offset 0x%" PRIx64 ": more "
					    "than %zu MiB of decompressed records wait for the end of a "
					    "round: delivered now (later records may be out of time "
					    "order)", r->path, (uint64_t)off, ROUND_INFLATED_MAX >> 20);
			due_into_fifo(r);
			perf_ordered_queue_close_all(&r->queue);
			r->inflated_in_round = 0;
		}
		return 0;
	}
	if (type >= PERF_REC_HEADER_ATTR)
		return handle_user_record(r, rec, size, off, in_compressed, err);

	desc = perf_record_desc_index(r, rec, size);
	if (type == PERF_REC_SAMPLE) {
		if (desc < 0) {
			r->stats.nr_samples_no_event++; /* perf skips these too */
			return 0;
		}
		r->samples_by_event[desc]++;
		if ((rec[4] & PERF_MISC_CPUMODE_MASK) == PERF_MISC_GUEST_KERNEL ||
		    (rec[4] & PERF_MISC_CPUMODE_MASK) == PERF_MISC_GUEST_USER)
			r->stats.nr_samples_guest++;
	} else if (type == PERF_REC_LOST && size >= 24) {
		r->stats.nr_lost += pb_u64(rec + 16);
	} else if (type == PERF_REC_LOST_SAMPLES && size >= 16) {
		r->stats.nr_lost_samples += pb_u64(rec + 8);
	}
	time = perf_record_timestamp(r, rec, size, desc);
	make_entry(r, &q, rec, size, off, in_compressed || r->input == PERF_INPUT_STREAM,
		   in_compressed, desc, time);
	if (r->opts.unordered || time == 0 || time == UINT64_MAX) {
		ready_push(r, &q);
		return 0;
	}
	if (r->queue.next_seq && time < r->queue.last_flushed)
		r->stats.nr_out_of_order++;
	queue_push(r, &q);
	if (in_compressed)
		r->inflated_in_round += size;
	if (perf_ordered_queue_len(&r->queue) > r->stats.max_queued)
		r->stats.max_queued = perf_ordered_queue_len(&r->queue);
	return 0;
}

static void report_progress(struct perf_reader *r, int final)
{
	uint64_t done = r->stats.bytes_read;

	if (!r->opts.report || !r->opts.report->progress)
		return;
	if (!final && done < r->progress_next)
		return;
	r->progress_next = done + PROGRESS_STEP;
	tephra_progress(r->opts.report, done, r->total_bytes);
}

/* Lets the kernel drop the mapped pages behind every record still referenced (queued,
 * waiting for delivery, or just delivered), so that reading a multi-GB file does not keep
 * it all resident.  The mapping is private and read-only: a dropped page that is touched
 * again is simply read back from the file. */
static int references(const struct perf_reader *r, const struct perf_queued_record *q,
		      uint64_t below)
{
	return !q->owned && q->part == r->cur_part && q->file_offset >= 0 &&
	       (uint64_t)q->file_offset < below;
}

static void release_consumed_pages(struct perf_reader *r)
{
	uint64_t keep = r->pos, page = (uint64_t)sysconf(_SC_PAGESIZE);

	for (size_t i = r->queue.head; i < r->queue.nr; i++)
		if (references(r, &r->queue.items[i], keep))
			keep = (uint64_t)r->queue.items[i].file_offset;
	for (size_t i = r->ready_head; i < r->ready_len; i++)
		if (references(r, &r->ready[i], keep))
			keep = (uint64_t)r->ready[i].file_offset;
	if (r->current.rec && references(r, &r->current, keep))
		keep = (uint64_t)r->current.file_offset;
	keep -= keep % page;
	if (keep > r->released) {
		if (r->pages)
			page_prefetch_release(r->pages, (size_t)keep);
		else
			madvise((void *)(r->map + r->released), keep - r->released, MADV_DONTNEED);
		r->released = keep;
	}
}

/* The end of one input (file, stream or directory part): data left in the decompression
 * buffer means the compressed data stopped inside a record. */
static int check_input_end(struct perf_reader *r, struct tephra_error *err)
{
	if (r->dbuf_len) {
		tephra_error_at(err, r->path, (int64_t)r->pos, "compressed data ends inside a "
				"record (%zu bytes left over)", r->dbuf_len);
		return -1;
	}
	return 0;
}

/* The next record of a perf.data directory.  Like perf 6.1, the files take turns: one
 * reads records until 2 MiB have passed (checked after each record), then the next file
 * in the directory's order has its turn; a finished file is skipped. */
#define DIR_TURN_BYTES (2u << 20)
static int read_dir_record(struct perf_reader *r, const uint8_t **rec, size_t *size,
			   int64_t *off, struct tephra_error *err)
{
	for (;;) {
		int rc;

		if (r->parts_left == 0)
			return 0;
		if (r->parts[r->cur_part].done) {
			perf_dir_switch(r, (r->cur_part + 1) % r->nr_parts);
			continue;
		}
		rc = read_record(r, rec, size, off, err);
		if (rc != 0)
			return rc;
		if (check_input_end(r, err))
			return -1;
		r->parts[r->cur_part].done = 1;
		r->parts_left--;
	}
}

static void end_of_dir_turn(struct perf_reader *r, size_t size)
{
	struct perf_input_part *p = &r->parts[r->cur_part];

	p->chunk += size;
	if (p->chunk >= DIR_TURN_BYTES) {
		p->chunk = 0;
		perf_dir_switch(r, (r->cur_part + 1) % r->nr_parts);
	}
}

/* Reads and handles one input record; 0 at the end of the input (queue flushed). */
static int pump(struct perf_reader *r, struct tephra_error *err)
{
	const uint8_t *rec;
	size_t size;
	int64_t off;
	uint64_t before = r->stats.bytes_read;
	int rc = r->nr_parts ? read_dir_record(r, &rec, &size, &off, err) :
			       read_record(r, &rec, &size, &off, err);

	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (!r->nr_parts && check_input_end(r, err))
			return -1;
		due_into_fifo(r);
		perf_ordered_queue_close_all(&r->queue);
		r->at_eof = 1;
		report_progress(r, 1);
		return 0;
	}
	if (perf_reader_handle_record(r, rec, size, off, 0, err))
		return -1;
	report_progress(r, 0);
	if (r->map_is_mmap && !r->win && r->pos >= r->release_next) {
		release_consumed_pages(r);
		r->release_next = r->pos + PERF_RELEASE_STEP;
		if (r->pages)
			page_prefetch_upto(r->pages, (size_t)r->pos, r->release_next + PERF_RELEASE_STEP);
		else
			perf_input_prefault(r);
	}
	if (r->nr_parts)
		end_of_dir_turn(r, (size_t)(r->stats.bytes_read - before));
	return 1;
}

/* ---- open / next / close ---- */

/* What the reader says once the input is used up: the AUX bytes it did not decode, and
 * how a killed or cut recording was read. */
static void report_end(struct perf_reader *r)
{
	if (r->stats.aux_bytes)
		tephra_warn(r->opts.report, "warning: %s: %" PRIu64 " bytes of AUX area data (hardware "
			    "trace: intel_pt, cs_etm, arm_spe, ...) not decoded; `perf script "
			    "--itrace` can synthesize samples from them", r->path, r->stats.aux_bytes);
	if (r->stats.damaged)
		return;
	if (r->hdr.unfinished && r->opts.lenient)
		tephra_warn(r->opts.report, "warning: %s: data size 0 in the header: perf record did not "
			    "finish (killed?); read the records up to the end of the file (offset "
			    "0x%" PRIx64 ")", r->path, r->pos);
	else if (r->hdr.data_cut)
		/* the same form as a cut inside a record (end_at_damage): where, what, what is kept */
		tephra_warn(r->opts.report, "warning: %s: offset 0x%" PRIx64 ": the file is cut short "
			    "at a record boundary (the header's data section ends past it); the %"
			    PRIu64 " records before it are kept", r->path, r->pos,
			    r->stats.nr_records_total);
}

/* Lenient reading: the input is damaged at ERR; what was read before it stays. */
static void end_at_damage(struct perf_reader *r, const struct tephra_error *err)
{
	tephra_warn(r->opts.report, "warning: %s; %s%" PRIu64 " records before it are kept, the rest "
		    "is not read", err->msg, r->hdr.unfinished ? "perf record did not finish "
		    "(data size 0 in the header); the " : r->hdr.data_cut ? "the file is cut "
		    "short; the " : "the ", r->stats.nr_records_total);
	r->stats.damaged = 1;
	due_into_fifo(r);
	perf_ordered_queue_close_all(&r->queue);
	r->at_eof = 1;
	report_end(r);
}

/* pump(), but damaged input ends the reading when the reader is lenient. */
static int pump_lenient(struct perf_reader *r, struct tephra_error *err)
{
	int rc = pump(r, err);
	if (rc < 0 && r->opts.lenient) {
		end_at_damage(r, err);
		return 0;
	}
	if (rc == 0 && r->at_eof)
		report_end(r);
	return rc;
}

/* Pipe mode: the attrs and features come as records before the first data record. */
static int read_pipe_header_records(struct perf_reader *r, struct tephra_error *err)
{
	for (;;) {
		uint32_t type;
		int rc = perf_input_peek_type(r, &type, err);

		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		if (type != PERF_REC_HEADER_ATTR && type != PERF_REC_HEADER_EVENT_TYPE &&
		    type != PERF_REC_HEADER_FEATURE && type != PERF_REC_HEADER_TRACING_DATA &&
		    type != PERF_REC_HEADER_BUILD_ID)
			break;
		if (pump_lenient(r, err) < 0)
			return -1;
		if (r->at_eof)
			break;
	}
	perf_header_finish_names(r);
	return 0;
}

int perf_reader_open(struct perf_reader **out, const char *path,
		     const struct perf_reader_options *opts, struct tephra_error *err)
{
	struct perf_reader *r = xcalloc(1, sizeof(*r));
	struct stat st;

	*out = NULL;
	/* Messages name the input; "-" would read oddly there. */
	r->path = xstrdup(strcmp(path, "-") ? path : "<stdin>");
	if (opts)
		r->opts = *opts;
	if (strcmp(path, "-") && !r->opts.force && stat(path, &st) == 0 &&
	    !file_owner_trusted(&st)) {
		tephra_error_at(err, r->path, -1, FILE_OWNER_REFUSED);
		goto fail;
	}
	if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (perf_dir_open(r, path, err))
			goto fail;
		perf_header_sort_ids(r);
	*out = r;
		return 0;
	}
	r->fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (r->fd < 0) {
		tephra_error_at(err, r->path, -1, "cannot open: %s", strerror(errno));
		r->fd = -1;
		goto fail;
	}
	if (perf_input_open(r, err))
		goto fail;
	if (r->input == PERF_INPUT_MAPPED) {
		if (r->map_size >= 16 && pb_u64(r->map + 8) == PERF_PIPE_HEADER_SIZE) {
			/* a pipe-mode stream saved to a file */
			if (perf_input_check_magic(r, r->map, err))
				goto fail;
			r->hdr.pipe_mode = 1;
			r->pos = PERF_PIPE_HEADER_SIZE;
			r->end = r->map_size;
			r->hdr.file_size = r->map_size;
			r->hdr.data_offset = PERF_PIPE_HEADER_SIZE;
			r->hdr.data_size = r->map_size - PERF_PIPE_HEADER_SIZE;
		} else if (perf_header_read_file(r, err)) {
			goto fail;
		}
	} else {
		r->hdr.pipe_mode = 1;
		perf_input_consume(r, PERF_PIPE_HEADER_SIZE);
	}
	if (r->hdr.pipe_mode && read_pipe_header_records(r, err))
		goto fail;
	r->total_bytes = r->hdr.data_size;
	perf_header_sort_ids(r);
	*out = r;
	return 0;
fail:
	perf_reader_close(r);
	return -1;
}

const struct tp_formats *perf_reader_tracepoints(const struct perf_reader *r)
{
	return r->have_tp ? &r->tp : NULL;
}

const struct perf_header_info *perf_reader_header(const struct perf_reader *r)
{
	return &r->hdr;
}

size_t perf_reader_nr_events(const struct perf_reader *r)
{
	return r->nr_descs;
}

const struct perf_event_desc *perf_reader_event(const struct perf_reader *r, size_t i)
{
	return i < r->nr_descs ? &r->descs[i] : NULL;
}

const struct perf_reader_stats *perf_reader_stats(const struct perf_reader *r)
{
	return &r->stats;
}

/* Every record delivered: the window and the queues go now, not at close, so that
 * what the caller builds after the reading (an export's tables) does not add to them. */
static void drop_buffers(struct perf_reader *r)
{
	perf_ordered_queue_release(&r->queue);
	free(r->ready);
	r->ready = NULL;
	r->ready_head = r->ready_len = r->ready_cap = 0;
	free(r->win);
	r->win = NULL;
	r->win_cap = r->win_len = 0;
}

int perf_reader_next(struct perf_reader *r, struct perf_event *ev, struct tephra_error *err)
{
	const struct perf_queued_record *q;

	perf_header_sort_ids(r);   /* the last records read may have been ATTRs */
	if (r->failed) {
		if (err)
			*err = r->saved_err;
		return -1;
	}
	for (;;) {
		if (r->current.owned)
			free((void *)r->current.rec);
		memset(&r->current, 0, sizeof(r->current));
		while (r->ready_head == r->ready_len && !r->queue.due) {
			int rc;

			if (r->at_eof) {
				drop_buffers(r);
				return 0;
			}
			rc = pump_lenient(r, &r->saved_err);
			if (rc < 0)
				goto fail;
		}
		q = r->ready_head < r->ready_len ? &r->ready[r->ready_head++] :
			perf_ordered_queue_take(&r->queue);
		r->current = *q;
		if (!perf_record_decode(r, q->rec, q->size, q->desc_index, ev, q->file_offset,
					&r->saved_err))
			break;
		if (!r->opts.lenient)
			goto fail;
		/* a record that does not decode is skipped; the first one is named */
		if (r->stats.nr_skipped++ == 0)
			tephra_warn(r->opts.report, "warning: %s; the record is skipped", r->saved_err.msg);
	}
	ev->in_compressed = q->in_compressed;
	return 1;
fail:
	r->failed = 1;
	if (err)
		*err = r->saved_err;
	return -1;
}

void perf_reader_close(struct perf_reader *r)
{
	if (!r)
		return;
	if (r->current.owned)
		free((void *)r->current.rec);
	for (size_t i = r->ready_head; i < r->ready_len; i++)
		if (r->ready[i].owned)
			free((void *)r->ready[i].rec);
	free(r->ready);
	perf_ordered_queue_release(&r->queue);
	if (r->nr_parts)
		perf_dir_close(r); /* frees every part's map, buffers, zstd stream and path */
	if (r->zstd)
		ZSTD_freeDStream(r->zstd);
	free(r->dbuf);
	free(r->sbuf);
	free(r->win);
	page_prefetch_stop(r->pages);
	if (r->map && r->map_is_mmap)
		munmap((void *)r->map, r->map_size);
	else
		free((void *)r->map);
	if (r->fd > 0)
		close(r->fd);
	perf_header_release(r);
	free(r->path);
	free(r);
}

/* perf_decompress.c - COMPRESSED and COMPRESSED2 records: zstd, inflated into a reused
 * buffer and cut into the records they hold, each handed to perf_reader_handle_record;
 * what one record may inflate to is capped (docs/hostile.md). */
#include <inttypes.h>
#include <string.h>
#include <zstd.h>

#include "base/report.h"
#include "base/xalloc.h"
#include "perfdata/perf_bytes.h"
#include "perfdata/perf_reader_internal.h"

#define DECOMP_CHUNK (256 * 1024)
#define MAX_RECORD 65536
/* What one COMPRESSED record may inflate to when the recording does not say (its
 * COMPRESSED feature's mmap size, perf's limit), and at most: a 106 KB file inflating
 * to 1 GiB took 2.3 GB before (docs/hostile.md). */
#define DECOMP_DEFAULT_CAP (4u << 20)
#define DECOMP_MAX_CAP (256u << 20)

int perf_reader_decompress(struct perf_reader *r, const uint8_t *rec, size_t size, int64_t off,
			   struct tephra_error *err)
{
	const uint8_t *payload = rec + 8;
	size_t plen = size - 8;
	ZSTD_inBuffer in;

	if (pb_u32(rec) == PERF_REC_COMPRESSED2) {
		uint64_t data_size = size >= 16 ? pb_u64(rec + 8) : UINT64_MAX;
		if (data_size > size - 16) {
			tephra_error_at(err, r->path, off, "PERF_RECORD_COMPRESSED2: data size %" PRIu64
					" runs past the end of the record", data_size);
			return -1;
		}
		payload = rec + 16;
		plen = (size_t)data_size;
	}
	if (!r->zstd) {
		r->zstd = ZSTD_createDStream();
		if (!r->zstd || ZSTD_isError(ZSTD_initDStream(r->zstd))) {
			tephra_error_at(err, r->path, off, "cannot set up zstd decompression");
			return -1;
		}
	}
	if (!r->dbuf) {
		r->dbuf_cap = MAX_RECORD + DECOMP_CHUNK;
		r->dbuf = xmalloc(r->dbuf_cap);
	}
	in.src = payload;
	in.size = plen;
	in.pos = 0;
	/* perf inflates a record into a buffer of the recording's mmap size and drops what
	 * does not fit (after "failed to decompress (B): ... Destination buffer is too
	 * small"); the same cap here, bounded */
	size_t cap = r->comp_mmap_len ? r->comp_mmap_len : DECOMP_DEFAULT_CAP, made = 0;
	if (cap > DECOMP_MAX_CAP)
		cap = DECOMP_MAX_CAP;
	for (;;) {
		size_t room = r->dbuf_cap - r->dbuf_len;
		if (room > cap - made)
			room = cap - made;
		ZSTD_outBuffer out = { r->dbuf, r->dbuf_len + room, r->dbuf_len };
		size_t in_before = in.pos, out_before = out.pos, at = 0, ret;

		if (!room && in.pos == in.size)
			break;   /* perf too stops when the input is used up */
		if (!room) {
			tephra_warn(r->opts.report, "warning: %s: offset 0x%" PRIx64 ": "
				    "PERF_RECORD_COMPRESSED inflates past %zu bytes (the "
				    "recording's mmap size): the rest of it is dropped, as perf "
				    "does", r->path, (uint64_t)off, cap);
			/* a fresh stream for the next record, without this one's leftovers */
			ZSTD_initDStream(r->zstd);
			r->dbuf_len = 0;
			break;
		}

		ret = ZSTD_decompressStream(r->zstd, &out, &in);
		if (ZSTD_isError(ret)) {
			tephra_error_at(err, r->path, off, "PERF_RECORD_COMPRESSED: corrupt zstd data: %s",
					ZSTD_getErrorName(ret));
			return -1;
		}
		made += out.pos - out_before;
		r->dbuf_len = out.pos;
		while (r->dbuf_len - at >= 8) {
			size_t rsize = pb_u16(r->dbuf + at + 6);

			if (rsize < 8) {
				tephra_error_at(err, r->path, off, "PERF_RECORD_COMPRESSED: decompressed "
						"record size %zu is smaller than a record header", rsize);
				return -1;
			}
			if (rsize > r->dbuf_len - at)
				break;
			if (perf_reader_handle_record(r, r->dbuf + at, rsize, off, 1, err))
				return -1;
			at += rsize;
		}
		memmove(r->dbuf, r->dbuf + at, r->dbuf_len - at);
		r->dbuf_len -= at;
		/* Done when the input is used up and zstd had room to spare (so it holds
		 * nothing back).  The leftover is shorter than one record, so the buffer
		 * always has room and every call consumes or produces something. */
		if (in.pos == in.size && out.pos < out.size)
			break;
		if (in.pos == in_before && out.pos == out_before) {
			tephra_error_at(err, r->path, off, "PERF_RECORD_COMPRESSED: zstd makes no "
					"progress");
			return -1;
		}
	}
	return 0;
}

/* perf_reader_internal.h - the reader's state, shared by the files of src/perfdata/
 * (header and feature parsing, record decoding, the ordering queue, the input driver).
 * Not for use outside src/perfdata/. */
#ifndef TEPHRA_PERFDATA_PERF_READER_INTERNAL_H
#define TEPHRA_PERFDATA_PERF_READER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "perfdata/perf_ordered_queue.h"
#include "perfdata/perf_reader.h"
#include "tracepoint/trace_format.h"

/* Where the reader gets its bytes from. */
enum perf_input_kind {
	PERF_INPUT_MAPPED, /* the whole file mapped (or read into memory) */
	PERF_INPUT_STREAM, /* pipe mode from a non-seekable descriptor */
};

/* One file of a perf.data directory (`perf record --threads`): the header file's data
 * section, or one data.N file.  The active part lives in the reader's own fields
 * (map, pos, end, dbuf, …); the others wait here. */
struct perf_input_part {
	char *path;
	const uint8_t *map;
	size_t map_size;
	uint64_t pos, end;
	void *zstd;              /* each file is its own zstd stream */
	uint8_t *dbuf;
	size_t dbuf_len, dbuf_cap;
	uint64_t released, release_next;
	uint64_t chunk;          /* bytes read in this part's current turn */
	int done;
};

struct perf_id_slot {
	uint64_t id;
	size_t desc_index;
};

struct perf_reader {
	char *path;
	struct perf_reader_options opts;

	/* input */
	enum perf_input_kind input;
	int fd;
	const uint8_t *map;      /* PERF_INPUT_MAPPED: the whole file */
	size_t map_size;
	int map_is_mmap;         /* else map was malloc'ed (stdin slurped) */
	struct page_prefetch *pages; /* maps MAP's pages ahead of POS (NULL: pump does) */
	uint64_t pos, end;       /* MAPPED: next record, end of data section */
	/* MAPPED file-mode data read through a window (perf_input_window): the records'
	 * bytes are read into WIN, reused, instead of touching the mapped pages */
	uint8_t *win;            /* file bytes [win_off, win_off + win_len); NULL: use map */
	size_t win_cap, win_len;
	uint64_t win_off;
	int win_copied;          /* records were copied out since the last wrap */
	uint8_t *sbuf;           /* STREAM: buffered bytes [sbuf_start, sbuf_end) */
	size_t sbuf_start, sbuf_end, sbuf_cap;
	uint64_t stream_off;     /* STREAM: stream offset of sbuf[sbuf_start] */
	int stream_eof;
	uint64_t progress_next;  /* bytes at which to call the progress callback next */
	uint64_t released;       /* MAPPED: pages below this offset were given back */
	uint64_t release_next;   /* position at which to give pages back next */

	/* perf.data directory: parts[0] is the header file, then the data.N files */
	struct perf_input_part *parts;
	size_t nr_parts, cur_part, parts_left;
	char *dir_path;
	uint64_t total_bytes;    /* for progress */

	/* header */
	struct perf_header_info hdr;
	struct perf_build_id_entry *build_ids;
	size_t nr_build_ids, cap_build_ids;

	/* events (one per attr) */
	struct perf_event_desc *descs;
	size_t nr_descs, cap_descs;
	struct perf_id_slot *id_map; /* sorted by id (then attr) once id_map_unsorted is 0 */
	size_t nr_id_map, cap_id_map;
	int id_map_unsorted;         /* attrs added since the last perf_header_sort_ids */
	uint64_t *samples_by_event;

	/* zstd state for COMPRESSED records (opaque ZSTD_DStream *) */
	void *zstd;
	uint32_t comp_mmap_len;  /* the COMPRESSED feature's mmap size: what one record
				  * may inflate to (0: not given) */
	size_t inflated_in_round; /* bytes of decompressed records queued since the last
				   * round closed (bounded: perf_reader.c) */
	int warned_long_round;
	uint8_t *dbuf;           /* decompressed bytes not yet cut into records */
	size_t dbuf_len, dbuf_cap;

	/* ordering */
	struct perf_ordered_queue queue;

	/* delivery */
	struct perf_queued_record *ready; /* FIFO of records to deliver */
	size_t ready_head, ready_len, ready_cap;
	struct perf_queued_record current; /* the record delivered last (freed on the next call) */
	int at_eof;              /* input exhausted and queue flushed */
	int failed;              /* a sticky error was reported */
	struct tephra_error saved_err;

	struct perf_reader_stats stats;

	/* tracepoint formats (TRACING_DATA feature, or the pipe-mode record's payload) */
	struct tp_formats tp;
	int have_tp;
	uint8_t *held_rec;       /* STREAM: a record followed by a payload, copied out of
				  * sbuf before the payload is read */
	size_t held_cap;
	uint8_t *tracing_blob;   /* the payload of the last HEADER_TRACING_DATA record */
	size_t tracing_blob_len;
};

#define PERF_PIPE_HEADER_SIZE 16
#define PERF_RELEASE_STEP (8u << 20) /* mapped pages are given back every this many bytes */

/* perf_input.c */
/* Opens r->fd: a regular file is mapped (PERF_INPUT_MAPPED), a pipe streamed
 * (PERF_INPUT_STREAM) or, when it holds a file-mode perf.data, read whole. */
int perf_input_open(struct perf_reader *r, struct tephra_error *err);
/* STREAM: reads until NEED bytes are buffered or the stream ends. */
int perf_input_fill(struct perf_reader *r, size_t need, struct tephra_error *err);
void perf_input_consume(struct perf_reader *r, size_t n);
/* The type of the next record: 1, 0 at the end of the input, -1 on a read error. */
int perf_input_peek_type(struct perf_reader *r, uint32_t *type, struct tephra_error *err);
/* The PERFILE2 magic at H: 0, or -1 with ERR saying what it is instead. */
int perf_input_check_magic(struct perf_reader *r, const uint8_t *h, struct tephra_error *err);
/* MAPPED with a window: points *AT at the file's bytes [r->pos, r->pos + N) (N at most
 * r->end - r->pos), reading them into the window first if needed; -1 on a read error. */
int perf_input_window(struct perf_reader *r, size_t n, const uint8_t **at,
		      struct tephra_error *err);
/* MAPPED: asks the kernel to map the pages up to the next release point in one call. */
void perf_input_prefault(struct perf_reader *r);

/* perf_reader.c: one record read (or inflated): counted, decoded enough to queue or
 * deliver it, COMPRESSED ones inflated.  Returns 0, or -1 with ERR. */
int perf_reader_handle_record(struct perf_reader *r, const uint8_t *rec, size_t size,
			      int64_t off, int in_compressed, struct tephra_error *err);
/* perf_decompress.c: the records a COMPRESSED/COMPRESSED2 record holds, each through
 * perf_reader_handle_record.  Returns 0, or -1 with ERR. */
int perf_reader_decompress(struct perf_reader *r, const uint8_t *rec, size_t size, int64_t off,
			   struct tephra_error *err);

/* perf_header.c */
int perf_header_read_file(struct perf_reader *r, struct tephra_error *err);
int perf_header_parse_feature(struct perf_reader *r, unsigned bit, const uint8_t *p, size_t n,
			      int64_t off, struct tephra_error *err);
int perf_header_add_attr(struct perf_reader *r, const uint8_t *attr, size_t attr_bytes,
			 const uint8_t *ids, size_t nr_ids, int64_t off, struct tephra_error *err);
int perf_header_add_build_id(struct perf_reader *r, const uint8_t *rec, size_t size,
			     int64_t off, struct tephra_error *err);
void perf_header_finish_names(struct perf_reader *r);
/* Sorts the id map if attrs were added since: once after the header's attrs, once
 * after a run of pipe-mode ATTR records (before any lookup), never once per attr (a
 * header of 64 k attrs took 132 s so). */
void perf_header_sort_ids(struct perf_reader *r);
/* Parses a TRACING_DATA blob into r->tp; a blob that does not parse is a warning (the
 * samples are still read; tracepoint fields are then not printed). */
void perf_header_tracing_data(struct perf_reader *r, const uint8_t *p, size_t n, int64_t off);
void perf_header_release(struct perf_reader *r);

/* perf_dir.c */
int perf_dir_open(struct perf_reader *r, const char *dir, struct tephra_error *err);
void perf_dir_switch(struct perf_reader *r, size_t to);
void perf_dir_close(struct perf_reader *r);

/* perf_record_decode.c */
/* The event a record belongs to: by id when there are several, else the only one.
 * Returns the desc index, or -1 when the id matches nothing. */
long perf_record_desc_index(const struct perf_reader *r, const uint8_t *rec, size_t size);
/* The record's timestamp for ordering, or UINT64_MAX when it carries none. */
uint64_t perf_record_timestamp(const struct perf_reader *r, const uint8_t *rec, size_t size,
			       long desc_index);
int perf_record_decode(const struct perf_reader *r, const uint8_t *rec, size_t size,
		       long desc_index, struct perf_event *ev, int64_t off,
		       struct tephra_error *err);

#endif

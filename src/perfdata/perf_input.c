/* perf_input.c - where the reader's bytes come from: a regular file mapped whole (its
 * pages mapped ahead on a second thread when it is big), or a pipe, streamed when it
 * carries pipe mode and read whole when it carries a file-mode perf.data (whose header
 * points at its end).  The reader (perf_reader.c) cuts these bytes into records. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "perfdata/page_prefetch.h"
#include "perfdata/perf_bytes.h"
#include "perfdata/perf_reader_internal.h"

#define WINDOW_CAP (4u << 20)   /* the data window to start with: records of a few rounds */
#define WINDOW_MAX (64u << 20)  /* the most it grows to when rounds are longer */
#define WINDOW_READ (1u << 20)  /* bytes per read */

int perf_input_fill(struct perf_reader *r, size_t need, struct tephra_error *err)
{
	while (r->sbuf_end - r->sbuf_start < need && !r->stream_eof) {
		ssize_t n;

		if (r->sbuf_start && r->sbuf_cap - r->sbuf_start < need) {
			memmove(r->sbuf, r->sbuf + r->sbuf_start, r->sbuf_end - r->sbuf_start);
			r->sbuf_end -= r->sbuf_start;
			r->sbuf_start = 0;
		}
		if (r->sbuf_cap - r->sbuf_end < 65536 || r->sbuf_cap - r->sbuf_start < need) {
			r->sbuf_cap = r->sbuf_cap ? r->sbuf_cap * 2 : 4 * 65536;
			r->sbuf = xrealloc(r->sbuf, r->sbuf_cap);
		}
		n = read(r->fd, r->sbuf + r->sbuf_end, r->sbuf_cap - r->sbuf_end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tephra_error_at(err, r->path, (int64_t)(r->stream_off + r->sbuf_end -
				r->sbuf_start), "read error: %s", strerror(errno));
			return -1;
		}
		if (n == 0)
			r->stream_eof = 1;
		r->sbuf_end += (size_t)n;
	}
	return 0;
}

void perf_input_consume(struct perf_reader *r, size_t n)
{
	r->sbuf_start += n;
	r->stream_off += n;
}

static int slurp(int fd, uint8_t **out, size_t *len, const char *path, struct tephra_error *err)
{
	size_t cap = 1 << 20, n = 0;
	uint8_t *buf = xmalloc(cap);

	for (;;) {
		ssize_t k;

		if (n == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		k = read(fd, buf + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			tephra_error_at(err, path, (int64_t)n, "read error: %s", strerror(errno));
			free(buf);
			return -1;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	*out = buf;
	*len = n;
	return 0;
}

int perf_input_peek_type(struct perf_reader *r, uint32_t *type, struct tephra_error *err)
{
	if (r->input == PERF_INPUT_MAPPED) {
		if (r->end - r->pos < 8)
			return 0;
		*type = pb_u32(r->map + r->pos);
		return 1;
	}
	if (perf_input_fill(r, 8, err))
		return -1;
	if (r->sbuf_end - r->sbuf_start < 8)
		return 0;
	*type = pb_u32(r->sbuf + r->sbuf_start);
	return 1;
}

int perf_input_check_magic(struct perf_reader *r, const uint8_t *h, struct tephra_error *err)
{
	if (pb_u64(h) == 0x50455246494c4532ULL) {
		tephra_error_at(err, r->path, 0, "perf.data written on a machine of the other "
				"endianness (byte-swapped magic); tephra reads only native-endian files");
		return -1;
	}
	/* a pipe stream under the old magic ("PERFFILE"), whose header perf also reads */
	if (pb_u64(h) != 0x32454c4946524550ULL && memcmp(h, "PERFFILE", 8)) {
		tephra_error_at(err, r->path, 0, "not a perf.data file (magic is not PERFILE2)");
		return -1;
	}
	return 0;
}

int perf_input_open(struct perf_reader *r, struct tephra_error *err)
{
	struct stat st;

	if (fstat(r->fd, &st)) {
		tephra_error_at(err, r->path, -1, "cannot stat: %s", strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		void *m;

		if (st.st_size == 0) {
			tephra_error_at(err, r->path, 0, "empty file");
			return -1;
		}
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, r->fd, 0);
		if (m == MAP_FAILED) {
			tephra_error_at(err, r->path, -1, "cannot map: %s", strerror(errno));
			return -1;
		}
		madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
		r->map = m;
		r->map_size = (size_t)st.st_size;
		r->map_is_mmap = 1;
		r->input = PERF_INPUT_MAPPED;
		if (r->map_size >= 16 && pb_u64(r->map + 8) != PERF_PIPE_HEADER_SIZE) {
			/* file mode: the header and features are read from the mapping, the
			 * data through the window */
			r->win_cap = r->opts.window_bytes ? r->opts.window_bytes :
				     r->map_size < WINDOW_CAP ? r->map_size : WINDOW_CAP;
			r->win = xmalloc_huge(r->win_cap);
			return 0;
		}
		/* big files: their pages are mapped ahead on a second thread */
		if (r->map_size > 2 * PERF_RELEASE_STEP) {
			r->pages = page_prefetch_start(r->map, r->map_size);
			page_prefetch_upto(r->pages, 0, 2 * PERF_RELEASE_STEP);
		}
		r->input = PERF_INPUT_MAPPED;
		return 0;
	}
	/* A pipe: pipe mode is streamed; a file-mode perf.data has to be read whole
	 * because its header points at the end. */
	r->input = PERF_INPUT_STREAM;
	if (perf_input_fill(r, PERF_PIPE_HEADER_SIZE, err))
		return -1;
	if (r->sbuf_end < PERF_PIPE_HEADER_SIZE) {
		tephra_error_at(err, r->path, 0, "input of %zu bytes is too short for a perf.data "
				"header", r->sbuf_end);
		return -1;
	}
	if (perf_input_check_magic(r, r->sbuf, err))
		return -1;
	if (pb_u64(r->sbuf + 8) != PERF_PIPE_HEADER_SIZE) {
		uint8_t *rest, *all;
		size_t rest_len, have = r->sbuf_end;

		if (slurp(r->fd, &rest, &rest_len, r->path, err))
			return -1;
		all = xmalloc(have + rest_len);
		memcpy(all, r->sbuf, have);
		memcpy(all + have, rest, rest_len);
		free(rest);
		free(r->sbuf);
		r->sbuf = NULL;
		r->sbuf_start = r->sbuf_end = r->sbuf_cap = 0;
		r->map = all;
		r->map_size = have + rest_len;
		r->input = PERF_INPUT_MAPPED;
	}
	return 0;
}

/* Copies the record Q out of the window when its bytes meet window bytes [A, B), which
 * are about to be overwritten. */
static int evict(struct perf_reader *r, struct perf_queued_record *q, const uint8_t *a,
		 const uint8_t *b)
{
	if (q->owned || !q->rec || q->rec >= b || q->rec + q->size <= a)
		return 0;
	uint8_t *copy = xmalloc(q->size);
	memcpy(copy, q->rec, q->size);
	q->rec = copy;
	q->owned = 1;
	r->stats.window_copies++;
	return 1;
}

/* Every record still referenced (queued, waiting for delivery, delivered last) whose
 * bytes lie in window bytes [A, B) gets its own copy. */
static int evict_range(struct perf_reader *r, const uint8_t *a, const uint8_t *b)
{
	int copied = 0;

	for (size_t i = r->queue.head; i < r->queue.nr; i++)
		copied |= evict(r, &r->queue.items[i], a, b);
	for (size_t i = r->ready_head; i < r->ready_len; i++)
		copied |= evict(r, &r->ready[i], a, b);
	copied |= evict(r, &r->current, a, b);
	return copied;
}

/* Why a window and not the mapping: on a VM with shadow page tables the first touch of
 * each mapped 4 KB page costs far more than copying it (a 100 MB perf.data: 70-100 ms of
 * CPU to touch it mapped and populated ahead, 25-35 ms to read it through a reused
 * 256 KB buffer).  Records stay where they were read (no copy) until the window wraps
 * over them; the few still referenced then are copied out. */
int perf_input_window(struct perf_reader *r, size_t n, const uint8_t **at,
		      struct tephra_error *err)
{
	/* a payload skipped past the window (AUXTRACE data): start over at POS */
	if (r->pos < r->win_off || r->pos > r->win_off + r->win_len) {
		r->win_off = r->pos;
		r->win_len = 0;
	}
	if (n > r->win_cap) {
		/* only a window smaller than a record (tests): a bigger one, once every
		 * record in the old one has its own copy */
		evict_range(r, r->win, r->win + r->win_cap);
		free(r->win);
		r->win_cap = n;
		r->win = xmalloc_huge(r->win_cap);
		r->win_off = r->pos;
		r->win_len = 0;
	}
	while (r->pos + n > r->win_off + r->win_len) {
		size_t used = (size_t)(r->pos - r->win_off), want;
		uint64_t from = r->win_off + r->win_len;
		ssize_t k;

		if (used + n > r->win_cap && r->win_copied && r->win_cap < WINDOW_MAX &&
		    !r->opts.window_bytes) {
			/* records had to be copied out since the last wrap: the rounds are longer
			 * than the window, so it doubles (the records in it copied out once) */
			uint8_t *old = r->win;
			size_t tail = r->win_len - used;
			evict_range(r, r->win, r->win + r->win_cap);
			r->win_cap *= 2;
			r->win = xmalloc_huge(r->win_cap);
			memcpy(r->win, old + used, tail);
			free(old);
			r->win_off = r->pos;
			r->win_len = tail;
			r->win_copied = 0;
			continue;
		}
		if (used + n > r->win_cap) {
			/* wrap: the bytes not yet cut into records move to the front */
			size_t tail = r->win_len - used;
			r->win_copied = 0;
			evict_range(r, r->win, r->win + tail);
			memmove(r->win, r->win + used, tail);
			r->win_off = r->pos;
			r->win_len = tail;
			continue;
		}
		want = r->win_cap - r->win_len < WINDOW_READ ? r->win_cap - r->win_len : WINDOW_READ;
		if (want > r->end - from)
			want = (size_t)(r->end - from);
		if (evict_range(r, r->win + r->win_len, r->win + r->win_len + want))
			r->win_copied = 1;
		k = want ? pread(r->fd, r->win + r->win_len, want, (off_t)from) : 0;
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			tephra_error_at(err, r->path, (int64_t)from, "read error: %s", strerror(errno));
			return -1;
		}
		if (k == 0) {
			tephra_error_at(err, r->path, (int64_t)from, "the file ends early (cut while "
					"being read?)");
			return -1;
		}
		r->win_len += (size_t)k;
	}
	*at = r->win + (r->pos - r->win_off);
	return 0;
}

/* Maps the pages of the next PERF_RELEASE_STEP bytes in one call: a page fault per 64 KB
 * (the kernel's fault-around) costs more than populating the page tables in a batch.
 * Kernels before 5.14 refuse MADV_POPULATE_READ, which only loses the gain. */
void perf_input_prefault(struct perf_reader *r)
{
#ifdef MADV_POPULATE_READ
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t from = r->pos - r->pos % page, to = r->release_next + page;

	if (to > r->map_size)
		to = r->map_size;
	if (to > from)
		madvise((void *)(r->map + from), (size_t)(to - from), MADV_POPULATE_READ);
#else
	(void)r;
#endif
}

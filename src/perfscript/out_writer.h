/* out_writer.h - a large buffered writer to a file descriptor, with the few printf
 * conversions perf script's text needs done by hand (printf costs more than the rest of
 * a sample line).  Write errors are remembered and reported by out_writer_flush. */
#ifndef TEPHRA_PERFSCRIPT_OUT_WRITER_H
#define TEPHRA_PERFSCRIPT_OUT_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OUT_WRITER_SIZE (1 << 20)

struct out_writer {
	int fd;
	int failed;   /* errno of the first failed write, 0 when all went well */
	size_t len;
	char *buf;    /* OUT_WRITER_SIZE bytes */
};

void out_writer_init(struct out_writer *w, int fd);
/* Writes what is buffered; returns 0, or -1 when any write failed (errno set). */
int out_writer_flush(struct out_writer *w);
void out_writer_release(struct out_writer *w);

void out_write_slow(struct out_writer *w, const void *data, size_t len);

static inline void out_write(struct out_writer *w, const void *data, size_t len)
{
	if (len <= OUT_WRITER_SIZE - w->len) {
		memcpy(w->buf + w->len, data, len);
		w->len += len;
	} else {
		out_write_slow(w, data, len);
	}
}

static inline void out_str(struct out_writer *w, const char *s)
{
	out_write(w, s, strlen(s));
}

static inline void out_ch(struct out_writer *w, char c)
{
	if (w->len == OUT_WRITER_SIZE)
		out_write_slow(w, &c, 1);
	else
		w->buf[w->len++] = c;
}

/* printf("%*s", width, s) and printf("%-*s", width, s). */
void out_pad_str(struct out_writer *w, const char *s, int width, int left);
/* printf("%*" PRIu64 / "%-*" PRIu64 / "%0*" PRIu64) for an unsigned value. */
void out_u64(struct out_writer *w, uint64_t v, int width, int left, int zero);
/* printf("%*d") for a signed 32-bit value. */
void out_i32(struct out_writer *w, int32_t v, int width, int left);
/* printf("%*" PRIx64) (lower case, no 0x). */
void out_hex(struct out_writer *w, uint64_t v, int width);

#endif

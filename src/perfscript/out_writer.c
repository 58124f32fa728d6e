/* out_writer.c - buffered output with hand-made conversions (see out_writer.h). */
#include "perfscript/out_writer.h"

#include <errno.h>
#include <unistd.h>

#include "base/xalloc.h"

void out_writer_init(struct out_writer *w, int fd)
{
	w->fd = fd;
	w->failed = 0;
	w->len = 0;
	w->buf = xmalloc(OUT_WRITER_SIZE);
}

static void write_all(struct out_writer *w, const char *p, size_t len)
{
	while (len && !w->failed) {
		ssize_t n = write(w->fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			w->failed = errno;
			return;
		}
		p += n;
		len -= (size_t)n;
	}
}

int out_writer_flush(struct out_writer *w)
{
	write_all(w, w->buf, w->len);
	w->len = 0;
	if (w->failed) {
		errno = w->failed;
		return -1;
	}
	return 0;
}

void out_writer_release(struct out_writer *w)
{
	free(w->buf);
	w->buf = NULL;
}

void out_write_slow(struct out_writer *w, const void *data, size_t len)
{
	out_writer_flush(w);
	if (len >= OUT_WRITER_SIZE) {
		write_all(w, data, len);
		return;
	}
	memcpy(w->buf, data, len);
	w->len = len;
}

static void pad(struct out_writer *w, int n, char c)
{
	for (; n > 0; n--)
		out_ch(w, c);
}

void out_pad_str(struct out_writer *w, const char *s, int width, int left)
{
	size_t len = strlen(s);
	int fill = width - (int)len;
	if (!left)
		pad(w, fill, ' ');
	out_write(w, s, len);
	if (left)
		pad(w, fill, ' ');
}

static void out_digits(struct out_writer *w, const char *digits, int len, int neg, int width,
		       int left, int zero)
{
	int total = len + neg;
	if (!left && !zero)
		pad(w, width - total, ' ');
	if (neg)
		out_ch(w, '-');
	if (!left && zero)
		pad(w, width - total, '0');
	out_write(w, digits, (size_t)len);
	if (left)
		pad(w, width - total, ' ');
}

void out_u64(struct out_writer *w, uint64_t v, int width, int left, int zero)
{
	char tmp[24];
	int i = sizeof(tmp);
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	out_digits(w, tmp + i, (int)sizeof(tmp) - i, 0, width, left, zero);
}

void out_i32(struct out_writer *w, int32_t v, int width, int left)
{
	char tmp[16];
	int i = sizeof(tmp);
	uint32_t u = v < 0 ? (uint32_t)0 - (uint32_t)v : (uint32_t)v;
	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	out_digits(w, tmp + i, (int)sizeof(tmp) - i, v < 0, width, left, 0);
}

void out_hex(struct out_writer *w, uint64_t v, int width)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[20];
	int i = sizeof(tmp);
	do {
		tmp[--i] = hex[v & 15];
		v >>= 4;
	} while (v);
	out_digits(w, tmp + i, (int)sizeof(tmp) - i, 0, width, 0, 0);
}

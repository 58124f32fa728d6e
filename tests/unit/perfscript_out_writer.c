/* perfscript_out_writer.c - the writer's hand-made conversions must print exactly what
 * printf prints for the formats perf script uses (printf is the oracle). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include "perfscript/out_writer.h"

static int failures;

static void check(const char *what, const char *got, size_t got_len, const char *want)
{
	if (got_len != strlen(want) || memcmp(got, want, got_len)) {
		fprintf(stderr, "%s: got '%.*s', want '%s'\n", what, (int)got_len, got, want);
		failures++;
	}
}

int main(void)
{
	static const uint64_t values[] = { 0, 1, 9, 10, 99, 100, 12345, 99999, 100000, 250000,
					   4294967295ULL, 0x7fbbd5040047ULL, 0xffffffff821facd8ULL,
					   UINT64_MAX };
	static const int32_t ints[] = { 0, 1, -1, 7, 12345, 99999, 100000, -12345, INT32_MAX,
					INT32_MIN };
	static const int widths[] = { 0, 1, 3, 5, 6, 9, 10, 16 };
	struct out_writer w;
	char want[128], what[64];
	int fds[2];
	if (pipe(fds))
		return 1;
	out_writer_init(&w, fds[1]);
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		for (size_t j = 0; j < sizeof(widths) / sizeof(widths[0]); j++) {
			int wd = widths[j];
			w.len = 0;
			out_u64(&w, values[i], wd, 0, 0);
			snprintf(want, sizeof(want), "%*" PRIu64, wd, values[i]);
			snprintf(what, sizeof(what), "%%%du of %" PRIu64, wd, values[i]);
			check(what, w.buf, w.len, want);
			w.len = 0;
			out_u64(&w, values[i], wd, 1, 0);
			snprintf(want, sizeof(want), "%-*" PRIu64, wd, values[i]);
			check(what, w.buf, w.len, want);
			w.len = 0;
			out_u64(&w, values[i], wd, 0, 1);
			snprintf(want, sizeof(want), "%0*" PRIu64, wd, values[i]);
			check(what, w.buf, w.len, want);
			w.len = 0;
			out_hex(&w, values[i], wd);
			snprintf(want, sizeof(want), "%*" PRIx64, wd, values[i]);
			snprintf(what, sizeof(what), "%%%dx of %" PRIu64, wd, values[i]);
			check(what, w.buf, w.len, want);
		}
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		for (size_t j = 0; j < sizeof(widths) / sizeof(widths[0]); j++) {
			int wd = widths[j];
			w.len = 0;
			out_i32(&w, ints[i], wd, 0);
			snprintf(want, sizeof(want), "%*d", wd, ints[i]);
			snprintf(what, sizeof(what), "%%%dd of %d", wd, ints[i]);
			check(what, w.buf, w.len, want);
			w.len = 0;
			out_i32(&w, ints[i], wd, 1);
			snprintf(want, sizeof(want), "%-*d", wd, ints[i]);
			check(what, w.buf, w.len, want);
		}
	static const char *strs[] = { "", "a", "recurse", "memfd:sealed-91", "a comm longer than 16" };
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		w.len = 0;
		out_pad_str(&w, strs[i], 16, 0);
		snprintf(want, sizeof(want), "%16s", strs[i]);
		check("%16s", w.buf, w.len, want);
		w.len = 0;
		out_pad_str(&w, strs[i], 13, 1);
		snprintf(want, sizeof(want), "%-13s", strs[i]);
		check("%-13s", w.buf, w.len, want);
	}
	/* a write bigger than the buffer goes through whole */
	w.len = 0;
	char *big = malloc(OUT_WRITER_SIZE + 10);
	memset(big, 'x', OUT_WRITER_SIZE + 10);
	close(fds[0]); /* the reader is gone: writes fail, and flush must say so */
	signal(SIGPIPE, SIG_IGN);
	out_write(&w, big, OUT_WRITER_SIZE + 10);
	if (out_writer_flush(&w) == 0) {
		fprintf(stderr, "a write to a closed pipe must be reported\n");
		failures++;
	}
	free(big);
	out_writer_release(&w);
	close(fds[1]);
	if (failures)
		fprintf(stderr, "perfscript_out_writer: %d failures\n", failures);
	return failures != 0;
}

/* fuzz_reader.c - libFuzzer target for the perf.data reader (not part of `make`).
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Isrc \
 *       tests/perfdata/fuzz_reader.c src/perfdata/perf_*.c src/base/[a-z]*.c -lzstd -o /tmp/fuzz_reader
 *   /tmp/fuzz_reader -max_total_time=60 CORPUS_DIR   (seed it with small perf.data files)
 *
 * Each input is put in a memfd and read through /proc/self/fd/N like a file; every
 * delivered record's pointers are walked so that a bad bound shows up as an ASan report. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfdata/perf_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_reader *r;
	struct tephra_error err;
	struct perf_event ev;
	char path[64];
	int fd = memfd_create("perfdata", 0);
	volatile uint64_t sink = 0;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (perf_reader_open(&r, path, NULL, &err) == 0) {
		while (perf_reader_next(r, &ev, &err) > 0) {
			const struct perf_sample *s = &ev.u.sample;

			for (uint16_t i = 0; i < ev.size; i++)
				sink += ev.record[i];
			if (ev.type == PERF_REC_SAMPLE) {
				for (uint64_t i = 0; i < s->nr_callchain; i++)
					sink += s->callchain[i];
				for (uint64_t i = 0; i < s->user_stack_size; i++)
					sink += s->user_stack[i];
			} else if (ev.type == PERF_REC_MMAP || ev.type == PERF_REC_MMAP2) {
				sink += strlen(ev.u.mmap.filename);
			} else if (ev.type == PERF_REC_COMM) {
				sink += strlen(ev.u.comm.comm);
			}
		}
		perf_reader_close(r);
	}
	close(fd);
	(void)sink;
	return 0;
}

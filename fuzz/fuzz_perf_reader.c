/* fuzz_perf_reader.c - libFuzzer target: the perf.data record reader alone.
 *
 * Every delivered record's pointers are walked so that a bad bound shows up as an ASan
 * report.  The whole pipeline on the same input is fuzz_perf_pipeline.c. */
#include <string.h>

#include "fuzz_common.h"
#include "perfdata/perf_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_reader *r;
	struct tephra_error err;
	struct perf_event ev;
	char path[64];
	int fd = fuzz_memfd(data, size, path, sizeof(path));
	volatile uint64_t sink = 0;

	if (fd < 0)
		return 0;
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
	fuzz_check_fds();
	return 0;
}

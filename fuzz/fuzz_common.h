/* fuzz_common.h - what the libFuzzer targets of fuzz/ share (see docs/fuzzing.md).
 *
 * Readers that take a path get the input through a memfd named /proc/self/fd/N, so no
 * file is written per run; readers of a FILE * get it through fmemopen.  Warnings are
 * formatted (their arguments are read, as the CLI would) and dropped. */
#ifndef TEPHRA_FUZZ_COMMON_H
#define TEPHRA_FUZZ_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The committed files the targets read besides their input (fuzz/root): compiled in,
 * so a target runs from any directory. */
#ifndef FUZZ_ROOT
#define FUZZ_ROOT "fuzz/root"
#endif

static inline void fuzz_warn(void *ctx, const char *fmt, va_list ap)
{
	char buf[512];

	(void)ctx;
	vsnprintf(buf, sizeof(buf), fmt, ap);
}

static inline void fuzz_progress(void *ctx, uint64_t done, uint64_t total)
{
	(void)ctx, (void)done, (void)total;
}

static inline void fuzz_progress_end(void *ctx)
{
	(void)ctx;
}

static const struct tephra_report fuzz_report = {
	.warn = fuzz_warn, .progress = fuzz_progress, .progress_end = fuzz_progress_end,
};

/* A memfd holding DATA, its name in PATH (size >= 32).  Returns the fd, or -1. */
static inline int fuzz_memfd(const uint8_t *data, size_t size, char *path, size_t path_size)
{
	int fd = memfd_create("fuzz-input", 0);

	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, path_size, "/proc/self/fd/%d", fd);
	return fd;
}

/* Aborts when the input just run left a file descriptor open: the lowest free
 * descriptor (what open returns next) must be the same after every input.  A leak
 * otherwise shows only after ~1,000 inputs, as every later input failing to open.
 * Pipes are libFuzzer's own: it starts llvm-symbolizer, and keeps its pipes, the first
 * time it prints a new function (NEW_FUNC); the library under test opens none. */
static inline void fuzz_check_fds(void)
{
	static int lowest_free = -1;
	int probe = dup(2);

	if (probe < 0) {
		perror("fuzz: dup");
		abort();
	}
	close(probe);
	if (lowest_free < 0 || probe == lowest_free) {
		lowest_free = probe;
		return;
	}
	for (int fd = lowest_free; fd < probe; fd++) {
		char link[64], target[256];
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		if (strncmp(target, "pipe:", 5)) {
			fprintf(stderr, "fuzz: the input left file descriptor %d open (%s)\n", fd,
				target);
			abort();
		}
	}
	lowest_free = probe;
}

/* DATA as a read-only stream (an empty input as an empty stream).  NULL on failure. */
static inline FILE *fuzz_stream(const uint8_t *data, size_t size)
{
	if (size == 0)
		return fopen("/dev/null", "r");
	return fmemopen((void *)data, size, "r");
}

#endif

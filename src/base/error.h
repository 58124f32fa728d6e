/* error.h - one error report carried out of a failing call.
 *
 * Every module that can fail on bad input fills a struct tephra_error and returns
 * non-zero; the CLI prints it once and exits non-zero.  Messages name the file, the
 * byte offset where that makes sense, and what was wrong. */
#ifndef TEPHRA_BASE_ERROR_H
#define TEPHRA_BASE_ERROR_H

#include <stdarg.h>
#include <stdint.h>

struct tephra_error {
	char msg[1024];
};

/* Formats "FILE: offset 0xOFF: WHAT" (the offset part is left out when off < 0). */
void tephra_error_at(struct tephra_error *err, const char *file, int64_t off,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Formats a message without file or offset. */
void tephra_error_set(struct tephra_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif

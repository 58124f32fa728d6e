/* report.h - how library code tells the user something that is not an error: warnings
 * and progress.  Library code never prints; the caller that owns the terminal (the CLI)
 * passes a struct tephra_report down, and decides how (and whether) each is shown.
 * A NULL report, or a NULL member, says nothing.  Errors travel as struct tephra_error
 * (error.h); output a caller asked for goes to the FILE* it gave. */
#ifndef TEPHRA_BASE_REPORT_H
#define TEPHRA_BASE_REPORT_H

#include <stdarg.h>
#include <stdint.h>

struct tephra_report {
	/* One warning: the text of one line (no newline), as a printf format and its
	 * arguments. */
	void (*warn)(void *ctx, const char *fmt, va_list ap);
	/* A long read has got to DONE of TOTAL (bytes; TOTAL 0 when not known). */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	/* No more progress will come (or other output is about to follow): what is
	 * written next must start on a line of its own. */
	void (*progress_end)(void *ctx);
	void *ctx;
};

void tephra_warn(const struct tephra_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tephra_progress(const struct tephra_report *r, uint64_t done, uint64_t total);
void tephra_progress_end(const struct tephra_report *r);

#endif

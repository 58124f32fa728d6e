/* report.c - passing warnings and progress to the caller's report (see report.h). */
#include "base/report.h"

#include <stddef.h>

void tephra_warn(const struct tephra_report *r, const char *fmt, ...)
{
	va_list ap;

	if (!r || !r->warn)
		return;
	va_start(ap, fmt);
	r->warn(r->ctx, fmt, ap);
	va_end(ap);
}

void tephra_progress(const struct tephra_report *r, uint64_t done, uint64_t total)
{
	if (r && r->progress)
		r->progress(r->ctx, done, total);
}

void tephra_progress_end(const struct tephra_report *r)
{
	if (r && r->progress_end)
		r->progress_end(r->ctx);
}

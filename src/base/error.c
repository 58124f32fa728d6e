#include "base/error.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void tephra_error_at(struct tephra_error *err, const char *file, int64_t off,
		     const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err)
		return;
	if (off >= 0)
		n = snprintf(err->msg, sizeof(err->msg), "%s: offset 0x%" PRIx64 ": ",
			     file ? file : "?", (uint64_t)off);
	else
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", file ? file : "?");
	if (n < 0 || (size_t)n >= sizeof(err->msg))
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	va_end(ap);
}

void tephra_error_set(struct tephra_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

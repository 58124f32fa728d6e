/* cli_report.c - warnings and progress of library calls, on stderr (see cli_report.h). */
#include "cli_report.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/strbuf.h"

static void warn_line(void *ctx, const char *fmt, va_list ap)
{
	char *msg = NULL;
	(void)ctx;
	if (vasprintf(&msg, fmt, ap) < 0)
		return;
	fputs_escaped(msg, stderr);   /* names from a recording must not drive the terminal */
	fputc('\n', stderr);
	free(msg);
}

static void percent(void *ctx, uint64_t done, uint64_t total)
{
	(void)ctx;
	if (total)
		fprintf(stderr, "\rtephra: %3d%%", (int)(done * 100 / total));
}

static void wipe(void *ctx)
{
	(void)ctx;
	fputs("\r              \r", stderr); /* as wide as the progress line */
}

const struct tephra_report *cli_report(int progress)
{
	static const struct tephra_report quiet = { warn_line, NULL, NULL, NULL };
	static const struct tephra_report shown = { warn_line, percent, wipe, NULL };

	return progress ? &shown : &quiet;
}

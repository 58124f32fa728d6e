/* cli_number.c - numeric option values for the commands (see cli_number.h). */
#include "cli_number.h"

#include <stdio.h>

#include "base/number.h"

int cli_number_u64(const char *who, const char *opt, const char *arg, uint64_t min,
		   uint64_t max, uint64_t *out)
{
	struct tephra_error err;
	if (number_parse_u64(opt, arg, min, max, out, &err) == 0)
		return 0;
	fprintf(stderr, "%s: %s\n", who, err.msg);
	return -1;
}

int cli_number_double(const char *who, const char *opt, const char *arg, double min,
		      double max, double *out)
{
	struct tephra_error err;
	if (number_parse_double(opt, arg, min, max, out, &err) == 0)
		return 0;
	fprintf(stderr, "%s: %s\n", who, err.msg);
	return -1;
}

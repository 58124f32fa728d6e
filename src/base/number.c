/* number.c - option values as checked numbers (see number.h). */
#include "base/number.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int number_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
		     uint64_t *out, struct tephra_error *err)
{
	uint64_t v = 0;
	int over = 0;
	const char *p = s;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			over = 1; /* keep going: a letter further on makes it not a number */
		else
			v = v * 10 + d;
	}
	if (p == s || *p) {
		tephra_error_set(err, "%s: '%s' is not a whole number (%" PRIu64 "..%" PRIu64 ")",
				 opt, s, min, max);
		return -1;
	}
	if (over || v < min || v > max) {
		tephra_error_set(err, "%s: %s is out of range (%" PRIu64 "..%" PRIu64 ")", opt, s,
				 min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int number_parse_double(const char *opt, const char *s, double min, double max, double *out,
			struct tephra_error *err)
{
	char *end;
	errno = 0;
	/* strtod also takes blanks, signs, "nan", "inf" and hex: only decimal digits, a
	 * point and an exponent here */
	int plain = (*s >= '0' && *s <= '9') || *s == '.';
	plain = plain && s[strspn(s, "0123456789.eE+-")] == 0;
	double v = plain ? strtod(s, &end) : 0;
	if (!plain || end == s || *end) {
		tephra_error_set(err, "%s: '%s' is not a number (%.15g..%.15g)", opt, s, min, max);
		return -1;
	}
	if (errno == ERANGE || !isfinite(v) || v < min || v > max) {
		tephra_error_set(err, "%s: %s is out of range (%.15g..%.15g)", opt, s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* number.h - the one parser of numbers given as option values (the CLI's options and the
 * sample filters'): digits only for whole numbers (no sign, blank, base prefix or
 * suffix, so "4294967297" is never silently 1 and "-1" never 2^64 - 1), each option
 * with its own explicit range, and one wording for what is wrong. */
#ifndef TEPHRA_BASE_NUMBER_H
#define TEPHRA_BASE_NUMBER_H

#include <stdint.h>

#include "base/error.h"

/* S as a whole number in [MIN, MAX] into *OUT.  Returns 0, or -1 with ERR:
 * "OPT: 'S' is not a whole number (MIN..MAX)" or "OPT: S is out of range (MIN..MAX)". */
int number_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
		     uint64_t *out, struct tephra_error *err);

/* S as a decimal number ("12", "0.5", "1e3") in [MIN, MAX] into *OUT; the same errors
 * ("is not a number"). */
int number_parse_double(const char *opt, const char *s, double min, double max, double *out,
			struct tephra_error *err);

#endif

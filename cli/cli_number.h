/* cli_number.h - a numeric option's value, checked against its range (base/number.h) and
 * refused as a usage error "WHO: OPT: ... (MIN..MAX)" on stderr. */
#ifndef TEPHRA_CLI_CLI_NUMBER_H
#define TEPHRA_CLI_CLI_NUMBER_H

#include <stdint.h>

/* Return 0 with *OUT set, or -1 having printed why not. */
int cli_number_u64(const char *who, const char *opt, const char *arg, uint64_t min,
		   uint64_t max, uint64_t *out);
int cli_number_double(const char *who, const char *opt, const char *arg, double min,
		      double max, double *out);

#endif

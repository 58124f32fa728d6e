/* check.h - the assertion every unit test uses: counts failures, keeps going, so one run
 * reports every broken check.  A test's main() returns `failures != 0`. */
#ifndef TEPHRA_TESTS_UNIT_CHECK_H
#define TEPHRA_TESTS_UNIT_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                                 \
	do {                                                                        \
		if (!(cond)) {                                                      \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
				#cond);                                             \
			failures++;                                                 \
		}                                                                   \
	} while (0)

#endif

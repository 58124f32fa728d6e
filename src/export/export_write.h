/* export_write.h - the export formats, written from an export_profile. */
#ifndef TEPHRA_EXPORT_EXPORT_WRITE_H
#define TEPHRA_EXPORT_EXPORT_WRITE_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "export/export_profile.h"

struct export_write_options {
	int64_t time_nanos;     /* when the profile was taken (0: unknown) */
	int gzip_level;         /* pprof: 1..12 (libdeflate), 0 = 6 */
};

/* pprof: a gzip-compressed perftools.profiles.Profile (profile.proto).  Returns 0, or
 * -1 with ERR (write error). */
int export_write_pprof(const struct export_profile *p, const struct export_write_options *o,
		       FILE *out, struct tephra_error *err);

#endif

/* perf_stat_print.h - the text `tephra stat` prints about a perf.data file: the header
 * facts (as `perf report --header-only` names them), record counts, samples per event,
 * lost events; and a one-line-per-record dump for checking the decoder against
 * `perf script -D`.  Other stat sections (stack quality) print after these. */
#ifndef TEPHRA_PERFDATA_PERF_STAT_PRINT_H
#define TEPHRA_PERFDATA_PERF_STAT_PRINT_H

#include <stdio.h>

#include "perfdata/perf_reader.h"

/* "# hostname : …" lines and one "# event : …" line per event. */
void perf_stat_print_header(FILE *f, const struct perf_reader *r);
/* Record counts by type, samples per event, lost events/samples (after reading all). */
void perf_stat_print_records(FILE *f, const struct perf_reader *r);
/* One "HEXID PATH" line per object the BUILD_ID section names (as `perf buildid-list`
 * prints them: a path named twice is listed once, with the id of its last entry). */
void perf_stat_print_build_ids(FILE *f, const struct perf_reader *r);
/* One line for a delivered record:
 *   TIME OFFSET [SIZE]: PERF_RECORD_NAME[ details]
 * where TIME is the sample (or sample_id) time, 0 when the record has none, and the
 * details of a sample are "PID/TID: IP period: PERIOD cpu: CPU callchain: N", followed
 * by lines "... chain: N E0 E1 …", "... user regs: ABI MASK V0 V1 …" and
 * "... ustack: size DYN_SIZE, offset OFF" when the sample has those fields. */
void perf_stat_print_event_line(FILE *f, const struct perf_event *ev);

#endif

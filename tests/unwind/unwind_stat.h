/* unwind_stat.h - the stack-quality section for DWARF call graphs, in one pass.
 *
 * The unwind-dump driver's --quality pass (`tephra stat` has its own, in
 * src/quality/stack_quality_file.c): give it every record of a perf.data file; it
 * keeps its own machine model and unwinders, unwinds the samples that carry user
 * registers and stack, and prints unwind_quality's section.
 *
 *     struct unwind_stat_pass *p = unwind_stat_pass_new(perf_reader_header(r));
 *     while (perf_reader_next(r, &ev, &err) == 1) { ...; unwind_stat_pass_event(p, &ev); }
 *     unwind_stat_pass_print(p, stdout);     (prints nothing without DWARF samples)
 *     unwind_stat_pass_free(p); */
#ifndef TEPHRA_TESTS_UNWIND_STAT_H
#define TEPHRA_TESTS_UNWIND_STAT_H

#include <stdio.h>

#include "perfdata/perf_reader.h"

struct unwind_stat_pass;

/* NULL when the recorded architecture cannot be unwound (nothing to report then). */
struct unwind_stat_pass *unwind_stat_pass_new(const struct perf_header_info *hdr);
void unwind_stat_pass_event(struct unwind_stat_pass *p, const struct perf_event *ev);
void unwind_stat_pass_print(const struct unwind_stat_pass *p, FILE *out);
void unwind_stat_pass_free(struct unwind_stat_pass *p);

#endif

/* flame_diff.h - the two-profile side of differential graphs.
 *
 * Both profiles go into one flame tree (column 0 = before, column 1 = after).  This
 * module normalises the columns and prints the tree back as two-column folded text
 * ("stack before after"), the form difffolded.pl prints. */
#ifndef TEPHRA_RENDER_FLAME_DIFF_H
#define TEPHRA_RENDER_FLAME_DIFF_H

#include <stdio.h>

#include "render/flame_tree.h"

/* Scales column 0 so both columns have the same total, exactly (for graphs).  Returns
 * the factor used (1 when either total is 0). */
double flame_diff_normalize(struct flame_tree *t);

/* Writes one "stack count0 count1" line per stack some input named (with COLUMNS == 1
 * only "stack count0": plain folded text), sorted bytewise by stack as `sort` sorts
 * lines; a column a stack was not in shows 0.  With NORMALIZE, as difffolded.pl -n:
 * when the column totals differ, count0 = int(count0 * total1 / total0) (see
 * flame_diff_scale_count; the tree must not have been scaled).  Counts are written by
 * flame_diff_format_count.  Returns 0 or -1 on a write error. */
int flame_diff_write_folded(const struct flame_tree *t, FILE *out, int normalize, int columns);

/* int(C * TOTAL2 / TOTAL1) exactly as perl evaluates it (difffolded.pl -n). */
double flame_diff_scale_count(double c, double total2, double total1);

/* Longest count text flame_diff_format_count writes, with its NUL. */
#define FLAME_COUNT_BUF 400

/* A count as folded text that reads back as exactly V, and that every folded reader
 * takes as a count: whole numbers in full ("%.0f"), others in the fewest digits that
 * read back exactly, never with an exponent ("0.1", "14.234398324872283"). */
void flame_diff_format_count(char buf[FLAME_COUNT_BUF], double v);

#endif

/* flame_diff.h - the two-profile side of differential graphs.
 *
 * Both profiles go into one flame tree (column 0 = before, column 1 = after).  This
 * module normalises the columns and prints the tree back as two-column folded text
 * ("stack before after"), the form difffolded.pl prints. */
#ifndef TEPHRA_RENDER_FLAME_DIFF_H
#define TEPHRA_RENDER_FLAME_DIFF_H

#include <stdio.h>

#include "render/flame_tree.h"

/* Scales column 0 so both columns have the same total (difffolded.pl -n).  Returns the
 * factor used (1 when either total is 0). */
double flame_diff_normalize(struct flame_tree *t);

/* Writes one "stack count0 count1" line per stack with a count in either column (with
 * COLUMNS == 1 only "stack count0": plain folded text), sorted bytewise by stack as
 * `sort` sorts lines; counts are rounded to whole numbers when ROUND (difffolded.pl
 * prints integers).  Returns 0 or -1 on a write error. */
int flame_diff_write_folded(const struct flame_tree *t, FILE *out, int round, int columns);

#endif

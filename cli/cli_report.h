/* cli_report.h - the terminal end of the library's reports (base/report.h). */
#ifndef TEPHRA_CLI_CLI_REPORT_H
#define TEPHRA_CLI_CLI_REPORT_H

#include "base/report.h"

/* Warnings as lines on stderr; with PROGRESS (pass isatty(2)) also the reading's
 * progress as "tephra: NN%" on one stderr line, wiped when it ends. */
const struct tephra_report *cli_report(int progress);

#endif

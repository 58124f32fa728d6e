/* cli_files.h - file checks the commands make before a long run, so a bad output path
 * is refused up front instead of after minutes of profiling; standard input kept as a
 * file for commands that read their input twice. */
#ifndef TEPHRA_CLI_CLI_FILES_H
#define TEPHRA_CLI_CLI_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "base/out_file.h"

/* Whether PATH can be written (base/out_file.h's probe: nothing existing is touched);
 * if not, prints "WHO: PATH: why" and returns -1. */
int cli_out_probe(const char *who, const char *path);

/* Opens PATH for writing by base/out_file.h's rule ("-": standard output); returns the
 * stream, or NULL having printed "WHO: PATH: why". */
FILE *cli_out_open(struct out_file *o, const char *who, const char *path);

/* OK: commits O (every write and the close checked); else gives it up, leaving the
 * output as it was, and if the stream had a write error says so with errno (call it
 * right after the writer failed; a writer that reports its own errors is followed by
 * out_file_abort instead).  Returns 0, or -1 (a write error printed as "WHO: PATH: write
 * error: why", or "WHO: write error: why" for standard output). */
int cli_out_close(struct out_file *o, const char *who, int ok);

/* Copies the file SRC (one of ours) to PATH by the same rule; -1 having printed why. */
int cli_out_copy(const char *who, const char *src, const char *path);

/* Copies standard input into an anonymous memory file and writes "/proc/self/fd/N" for
 * it into PATH (SIZE bytes): for a command that has to read its input twice.  Returns
 * the descriptor (close it when done), or -1 with errno. */
int cli_spool_stdin(char *path, size_t size);

#endif

/* cli_files.h - file checks the commands make before a long run, so a bad output path
 * is refused up front instead of after minutes of profiling; standard input kept as a
 * file for commands that read their input twice. */
#ifndef TEPHRA_CLI_CLI_FILES_H
#define TEPHRA_CLI_CLI_FILES_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/out_file.h"

/* Whether PATH can be written (base/out_file.h's probe: nothing existing is touched);
 * if not, prints "WHO: PATH: why" and returns -1. */
int cli_out_probe(const char *who, const char *path);

/* Opens PATH for writing by base/out_file.h's rule ("-": standard output); returns the
 * stream, or NULL having printed "WHO: PATH: why".  Until cli_out_close or cli_out_abort,
 * SIGINT, SIGTERM or SIGHUP (at their default) remove the file being written first. */
FILE *cli_out_open(struct out_file *o, const char *who, const char *path);

/* OK: commits O (every write and the close checked); else gives it up, leaving the
 * output as it was, and if the stream had a write error says so with errno (call it
 * right after the writer failed; a writer that reports its own errors is followed by
 * out_file_abort instead).  Returns 0, or -1 (a write error printed as "WHO: PATH: write
 * error: why", or "WHO: write error: why" for standard output). */
int cli_out_close(struct out_file *o, const char *who, int ok);

/* Gives O up (out_file_abort), leaving the output as it was; says nothing. */
void cli_out_abort(struct out_file *o);

/* Copies the file SRC (one of ours) to PATH by the same rule; -1 having printed why. */
int cli_out_copy(const char *who, const char *src, const char *path);

/* Copies standard input into an anonymous memory file and writes "/proc/self/fd/N" for
 * it into PATH (SIZE bytes): for a command that has to read its input twice.  Returns
 * the descriptor (close it when done), or -1 with errno. */
int cli_spool_stdin(char *path, size_t size);

/* Copies the first SIZE bytes of standard input (fewer at its end; at most
 * CLI_STDIN_PEEK_MAX) into BUF and leaves them there, so whoever reads descriptor 0 or
 * stdin next still gets every byte: a regular file is sought back; from a pipe,
 * descriptor 0 becomes a pipe fed by a thread with those bytes and then the rest,
 * nothing kept in memory.  The first call reads them, before stdin is read; later
 * calls answer from what it read.  Returns the number of bytes, or -1 with errno. */
#define CLI_STDIN_PEEK_MAX 4096
ssize_t cli_stdin_peek(void *buf, size_t size);

/* Whether PATH ("-": standard input, through cli_stdin_peek) holds perf.data: a file that
 * starts with its magic (either byte order), or a directory (perf record --threads
 * writes one; the reader says what is wrong with one that is not).  Returns 1 or 0, or
 * -1 with errno when PATH cannot be read. */
int cli_is_perf_data(const char *path);

/* Whether the operands ARGV[FIRST..ARGC) are MIN to MAX input files; if not, says so as
 * "WHO: ..." (naming them) and returns -1 (a usage error), else 0. */
int cli_check_inputs(const char *who, int argc, char **argv, int first, int min, int max);

#endif

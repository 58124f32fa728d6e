/* cli_files.h - file checks the commands make before a long run, so a bad output path
 * is refused up front instead of after minutes of profiling; standard input kept as a
 * file for commands that read their input twice. */
#ifndef TEPHRA_CLI_CLI_FILES_H
#define TEPHRA_CLI_CLI_FILES_H

#include <stddef.h>
#include <sys/types.h>

/* Whether PATH can be written, leaving an existing file as it is (errno says why not). */
int cli_can_write(const char *path);

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

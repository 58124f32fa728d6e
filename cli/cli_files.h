/* cli_files.h - file checks the commands make before a long run, so a bad output path
 * is refused up front instead of after minutes of profiling; standard input kept as a
 * file for commands that read their input twice. */
#ifndef TEPHRA_CLI_CLI_FILES_H
#define TEPHRA_CLI_CLI_FILES_H

#include <stddef.h>

/* Whether PATH can be written, leaving an existing file as it is (errno says why not). */
int cli_can_write(const char *path);

/* Copies standard input into an anonymous memory file and writes "/proc/self/fd/N" for
 * it into PATH (SIZE bytes): for a command that has to read its input twice.  Returns
 * the descriptor (close it when done), or -1 with errno. */
int cli_spool_stdin(char *path, size_t size);

#endif

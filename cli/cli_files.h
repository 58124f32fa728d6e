/* cli_files.h - file checks the commands make before a long run, so a bad output path
 * is refused up front instead of after minutes of profiling. */
#ifndef TEPHRA_CLI_CLI_FILES_H
#define TEPHRA_CLI_CLI_FILES_H

/* Whether PATH can be written, leaving an existing file as it is (errno says why not). */
int cli_can_write(const char *path);

#endif

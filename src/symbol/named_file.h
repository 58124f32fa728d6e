/* named_file.h - the one way to open a file because a recording or a map file names
 * it: objects, debug files, perf's build-id cache copies, a JIT's /tmp/perf-PID.map.
 * Those names come from a perf.data or an archive another user or machine made, so the
 * file may be a FIFO (open() blocks forever), a device (opening it can act: a watchdog
 * arms itself), or a file another local user planted in a shared directory.  Such a
 * file is not opened: the caller skips it and says so (docs/hostile.md). */
#ifndef TEPHRA_SYMBOL_NAMED_FILE_H
#define TEPHRA_SYMBOL_NAMED_FILE_H

/* Also require the owner to be root or the effective user (base/file_owner.h: for map
 * files; the caller leaves it out under -f). */
#define NAMED_FILE_OWNER 1u

/* Whether PATH may be opened: 0, or -1 with *WHY (static text: "not a regular file (a
 * FIFO)", FILE_OWNER_REFUSED, "no such file"...; WHY may be NULL).  Does not open it: a
 * device is judged by stat() alone. */
int named_file_check(const char *path, unsigned flags, const char **why);

/* Opens PATH read-only (close-on-exec) when named_file_check allows it, with O_NONBLOCK
 * so that a FIFO swapped in between cannot block, and checks what was opened with
 * fstat().  Returns the descriptor, or -1 with *WHY (WHY may be NULL). */
int named_file_open(const char *path, unsigned flags, const char **why);

/* Whether *WHY from the calls above says the file exists but is not one to open (as
 * opposed to missing or unreadable): the case worth a note. */
int named_file_refused(const char *why);

#endif

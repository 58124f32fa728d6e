/* out_file.h - the one way tephra writes a file the user named (every command, the
 * QEMU plugin): open, write, then commit or abort.
 *
 * The rule (docs/hostile.md, "Output files"):
 * - "-" is standard output.
 * - A new path or a regular file is written to a new file beside it (created with
 *   O_CREAT|O_EXCL, so nothing planted there is followed) and renamed over it only when
 *   complete: a failed write leaves an existing file as it was, a reader never sees a
 *   torn one.  An existing file keeps its permission bits.
 * - A symbolic link is followed only when it is owned by the user running tephra or by
 *   root (the kernel's fs.protected_symlinks, applied in every directory, not only the
 *   sticky world-writable ones, and whatever the sysctl says); else it is an error
 *   naming the link.  A followed link's target is written, by the same rules, and the
 *   link is kept.
 * - A device, FIFO or socket, or one of our own descriptors (/dev/stdout, /dev/fd/N,
 *   /proc/self/fd/N) is written in place: never truncated, unlinked or renamed over.
 * - A directory is an error.
 * Nothing here prints: errors come back in a struct tephra_error ("PATH: what"). */
#ifndef TEPHRA_BASE_OUT_FILE_H
#define TEPHRA_BASE_OUT_FILE_H

#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "base/error.h"

/* What to do with one path, from its lstat (out_file_step). */
enum out_step {
	OUT_STEP_CREATE,   /* nothing there: a new file, renamed into place */
	OUT_STEP_REPLACE,  /* a regular file: a new file renamed over it */
	OUT_STEP_IN_PLACE, /* a device, FIFO or socket: opened and written where it is */
	OUT_STEP_FOLLOW,   /* a symbolic link owned by EUID or root: its target decides */
	OUT_STEP_REFUSE_LINK, /* a symbolic link owned by another user */
	OUT_STEP_REFUSE_DIR,  /* a directory */
};

/* The decision for a path whose lstat is LST (NULL: it does not exist), for a process
 * of effective uid EUID.  Pure: the unit test feeds it made-up stats. */
enum out_step out_file_step(const struct stat *lst, uid_t euid);

enum out_kind {
	OUT_KIND_STDOUT,   /* "-", or our descriptor 1 by another name */
	OUT_KIND_RENAME,   /* a new or regular file: written beside, renamed over it */
	OUT_KIND_IN_PLACE, /* a device, FIFO, socket */
	OUT_KIND_FD,       /* another of our own descriptors (/dev/fd/N) */
};

/* Where PATH leads: the kind and the path written (a followed link's target). */
struct out_target {
	enum out_kind kind;
	char path[4096];
	int fd;            /* OUT_KIND_FD: the descriptor */
	int exists;        /* OUT_KIND_RENAME: a regular file is there */
	mode_t mode;       /* its permission bits */
};

/* Follows PATH by the rule above.  Returns 0, or -1 with ERR "PATH: why". */
int out_file_resolve(const char *path, struct out_target *t, struct tephra_error *err);

/* Whether PATH could be written, without writing, truncating or removing anything:
 * the checks of out_file_resolve, then for a file renamed into place a file created
 * with O_CREAT|O_EXCL beside it and removed (the directory takes new files), and an
 * existing file or device must be writable.  For commands that run something long
 * before they write.  Returns 0, or -1 with ERR. */
int out_file_probe(const char *path, struct tephra_error *err);

struct out_file {
	struct out_target t;
	char name[4096];  /* PATH as given, for messages */
	char tmp[4096];   /* OUT_KIND_RENAME: the file being written */
	FILE *f;
	int fd;
};

/* Opens PATH for writing; O->f is the stream to write.  For "-" (or /dev/stdout) it is
 * a stream of its own on a copy of descriptor 1: a caller that wrote to its stdio
 * stdout flushes it first.  Returns 0, or -1 with ERR (nothing was created). */
int out_file_open(struct out_file *o, const char *path, struct tephra_error *err);

/* Flushes and closes the stream, checking every write, and renames the file into
 * place.  Returns 0, or -1 with ERR "PATH: write error: why", "write error: why" for
 * standard output (then as out_file_abort: the file renamed over is left as it was). */
int out_file_commit(struct out_file *o, struct tephra_error *err);

/* Gives up: closes the stream and removes the file being written; the output path is
 * not touched. */
void out_file_abort(struct out_file *o);

#endif

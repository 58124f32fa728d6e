/* grind_procs.h - `tephra grind` over a process tree: the files the tool writes, one
 * per process (and per program a process exec'd), into a directory the CLI owns, read
 * back and merged into one profile with a root frame per process; and the notes of
 * programs that ran without the tool (grind/tg_process.c writes both). */
#ifndef TEPHRA_CLI_GRIND_PROCS_H
#define TEPHRA_CLI_GRIND_PROCS_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "fold/fold_table.h"

struct grind_image {            /* one program one process ran */
	int pid;
	char comm[64];          /* the process's name while it ran that program */
	uint64_t underflows, seeded;
	int started;            /* it was counted at some point (--start=on, a request) */
	char skips[256];        /* per --skip-obj pattern, '1' when it matched an object
				 * code ran in, else '0' (the first 255) */
	struct fold_table *stacks;
};

struct grind_untraced {         /* a program exec'd and not followed */
	int pid;
	char *path;
};

struct grind_procs {
	struct grind_image *images;
	size_t nimages;
	struct grind_untraced *untraced;
	size_t nuntraced;
	size_t nrunning;        /* empty files: processes still running */
	size_t nincomplete;     /* files left out as not the tool's */
	struct tephra_error incomplete; /* why the first was left out */
};

/* Reads what the tool left in DIR into P (zeroed first).  An empty file is a process
 * still running (P->nrunning), a file that is not the tool's is left out
 * (P->nincomplete).  Returns 0, or -1 with ERR set when DIR cannot be read. */
int grind_procs_read(const char *dir, struct grind_procs *p, struct tephra_error *err);
void grind_procs_release(struct grind_procs *p);

/* A new table of the stacks of every image (PID < 0) or of process PID's images, each
 * stack starting with its process's root frame: the comm, "comm-PID" with WITH_PID
 * (fold/fold_naming.h's fold_name_root, as `tephra fold --pid` names them), one process
 * or many alike, so a profile's shape does not depend on whether the program forked. */
struct fold_table *grind_procs_merge(const struct grind_procs *p, int pid, int with_pid);

/* Removes DIR and the files in it (the tool's files, nothing below). */
void grind_procs_remove_dir(const char *dir);

#endif

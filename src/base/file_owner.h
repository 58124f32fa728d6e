/* file_owner.h - whose files tephra reads without being told to (perf's rule): a
 * perf.data and a JIT's map file must belong to root or to the user running tephra;
 * -f/--force reads them anyway.  Another user could have planted either in a shared
 * directory (docs/hostile.md). */
#ifndef TEPHRA_BASE_FILE_OWNER_H
#define TEPHRA_BASE_FILE_OWNER_H

#include <sys/stat.h>
#include <unistd.h>

/* What perf says, after the file name, when it refuses one. */
#define FILE_OWNER_REFUSED "not owned by current user or root (use -f to override)"

static inline int file_owner_trusted(const struct stat *sb)
{
	return sb->st_uid == 0 || sb->st_uid == geteuid();
}

#endif

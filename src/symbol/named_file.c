/* named_file.c - opening a file a recording names (see named_file.h). */
#include "symbol/named_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file_owner.h"

static const char not_regular_prefix[] = "not a regular file";

/* Why a file of MODE is not opened; NULL for a regular file. */
static const char *type_why(mode_t mode)
{
	if (S_ISREG(mode))
		return NULL;
	if (S_ISFIFO(mode))
		return "not a regular file (a FIFO)";
	if (S_ISCHR(mode))
		return "not a regular file (a character device)";
	if (S_ISBLK(mode))
		return "not a regular file (a block device)";
	if (S_ISSOCK(mode))
		return "not a regular file (a socket)";
	if (S_ISDIR(mode))   /* harmless to meet (older perf's cache layout): no note */
		return "a directory";
	return "not a regular file";
}

static const char *judge(const struct stat *sb, unsigned flags)
{
	const char *why = type_why(sb->st_mode);
	if (why)
		return why;
	if ((flags & NAMED_FILE_OWNER) && !file_owner_trusted(sb))
		return FILE_OWNER_REFUSED;
	return NULL;
}

static const char *errno_why(int e)
{
	switch (e) {
	case ENOENT: case ENOTDIR: return "no such file";
	case EACCES: case EPERM: return "permission denied";
	default: return "cannot open it";
	}
}

int named_file_check(const char *path, unsigned flags, const char **why)
{
	struct stat sb;
	const char *w;

	if (stat(path, &sb) != 0)
		w = errno_why(errno);
	else
		w = judge(&sb, flags);
	if (why)
		*why = w;
	return w ? -1 : 0;
}

int named_file_open(const char *path, unsigned flags, const char **why)
{
	const char *w = NULL;
	struct stat sb;
	int fd;

	if (named_file_check(path, flags, why) != 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		w = errno_why(errno);
	else if (fstat(fd, &sb) != 0)
		w = "cannot open it";
	else
		w = judge(&sb, flags);   /* swapped since the check */
	if (w) {
		if (fd >= 0)
			close(fd);
		if (why)
			*why = w;
		return -1;
	}
	/* a regular file ignores O_NONBLOCK; clear it anyway for whoever reads on */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (why)
		*why = NULL;
	return fd;
}

int named_file_refused(const char *why)
{
	return why && (!strncmp(why, not_regular_prefix, sizeof(not_regular_prefix) - 1) ||
		       !strcmp(why, FILE_OWNER_REFUSED));
}

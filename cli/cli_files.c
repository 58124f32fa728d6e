#include "cli_files.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_can_write(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return 0;
		}
		return access(path, W_OK) == 0;
	}
	/* A new file: create and remove it, so the directory's permissions are checked. */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return 0;
	close(fd);
	unlink(path);
	return 1;
}

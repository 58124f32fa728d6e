#include "cli_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
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

int cli_spool_stdin(char *path, size_t size)
{
	int fd = memfd_create("tephra-stdin", MFD_CLOEXEC);
	char buf[1 << 16];

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(0, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				break;
			goto fail;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(fd, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				goto fail;
			done += w;
		}
	}
	snprintf(path, size, "/proc/self/fd/%d", fd);
	return fd;
fail:;
	int e = errno;
	close(fd);
	errno = e;
	return -1;
}

/* vdso_image.c - copies this process's vDSO into a memory file (see vdso_image.h).
 *
 * The range comes from /proc/self/maps (the "[vdso]" line), which covers the whole
 * image; the copy is checked to start with the ELF magic.  A memfd leaves nothing
 * behind in the file system, unlike perf's temporary file. */
#include "symbol/vdso_image.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The [vdso] range of this process: 0 with START/END, -1 when there is none. */
static int find_vdso_range(uintptr_t *start, uintptr_t *end)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		uintmax_t s, e;
		size_t n = strlen(line);

		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (n < 7 || strcmp(line + n - 6, "[vdso]") != 0)
			continue;
		if (sscanf(line, "%jx-%jx", &s, &e) == 2 && e > s) {
			*start = (uintptr_t)s;
			*end = (uintptr_t)e;
			found = 0;
		}
		break;
	}
	fclose(f);
	return found;
}

int vdso_image_memfd(void)
{
	uintptr_t start, end;
	const unsigned char *image;
	size_t size, done = 0;
	int fd;

	if (find_vdso_range(&start, &end))
		return -1;
	image = (const unsigned char *)start;
	size = (size_t)(end - start);
	if (size < 64 || memcmp(image, "\177ELF", 4) != 0)
		return -1;
	fd = memfd_create("tephra-vdso", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t w = write(fd, image + done, size - done);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)w;
	}
	return fd;
}

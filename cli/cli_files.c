#include "cli_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"

int cli_out_probe(const char *who, const char *path)
{
	struct tephra_error err = { "" };
	if (out_file_probe(path, &err) != 0) {
		fprintf(stderr, "%s: %s\n", who, err.msg);
		return -1;
	}
	return 0;
}

FILE *cli_out_open(struct out_file *o, const char *who, const char *path)
{
	struct tephra_error err = { "" };
	fflush(stdout); /* "-" is a stream of its own on descriptor 1 */
	if (out_file_open(o, path, &err) != 0) {
		fprintf(stderr, "%s: %s\n", who, err.msg);
		return NULL;
	}
	return o->f;
}

int cli_out_close(struct out_file *o, const char *who, int ok)
{
	struct tephra_error err = { "" };
	int e = errno; /* the writer's, when it has just failed */
	if (!ok && o->f && ferror(o->f)) {
		if (o->t.kind == OUT_KIND_STDOUT)
			fprintf(stderr, "%s: write error: %s\n", who, strerror(e ? e : EIO));
		else
			fprintf(stderr, "%s: %s: write error: %s\n", who, o->name,
				strerror(e ? e : EIO));
	}
	if (!ok) {
		out_file_abort(o);
		return -1;
	}
	if (out_file_commit(o, &err) != 0) {
		fprintf(stderr, "%s: %s\n", who, err.msg);
		return -1;
	}
	return 0;
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

int cli_out_copy(const char *who, const char *src, const char *path)
{
	FILE *in = fopen(src, "rb");
	if (!in) {
		fprintf(stderr, "%s: %s: %s\n", who, src, strerror(errno));
		return -1;
	}
	struct out_file o;
	FILE *out = cli_out_open(&o, who, path);
	char buf[1 << 16];
	size_t n;
	int ok = out != NULL;
	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	if (ok && ferror(in)) {
		fprintf(stderr, "%s: %s: read error\n", who, src);
		ok = 0;
	}
	fclose(in);
	if (!out)
		return -1;
	return cli_out_close(&o, who, ok);
}

/* out_file.c - writing a file the user named (see out_file.h for the rule). */
#include "base/out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* Links followed at most, as the kernel's MAXSYMLINKS. */
#define OUT_MAX_LINKS 40

enum out_step out_file_step(const struct stat *lst, uid_t euid)
{
	if (!lst)
		return OUT_STEP_CREATE;
	if (S_ISLNK(lst->st_mode))
		return lst->st_uid == euid || lst->st_uid == 0 ? OUT_STEP_FOLLOW
							     : OUT_STEP_REFUSE_LINK;
	if (S_ISREG(lst->st_mode))
		return OUT_STEP_REPLACE;
	if (S_ISDIR(lst->st_mode))
		return OUT_STEP_REFUSE_DIR;
	return OUT_STEP_IN_PLACE; /* character or block device, FIFO, socket */
}

/* Whether P names one of our own descriptors (*FD): /dev/fd/N, /proc/self/fd/N,
 * /proc/thread-self/fd/N, /proc/OURPID/fd/N.  Those are magic links: following one to
 * the file behind it would replace a file the shell opened for us (`> out`, `>> out`)
 * instead of writing where our descriptor points. */
static int own_fd(const char *p, int *fd)
{
	char pid[32];
	snprintf(pid, sizeof(pid), "/proc/%ld/fd/", (long)getpid());
	const char *const prefixes[] = { "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/",
					 pid };
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);
		if (strncmp(p, prefixes[i], n) || !p[n] || strspn(p + n, "0123456789") != strlen(p + n))
			continue;
		if (strlen(p + n) > 9)
			return 0;
		*fd = atoi(p + n);
		return 1;
	}
	return 0;
}

int out_file_resolve(const char *path, struct out_target *t, struct tephra_error *err)
{
	char cur[sizeof(t->path)], link[sizeof(t->path)];
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (!strcmp(path, "-")) {
		/* a closed standard output (>&-) is a write error, said as one */
		int fl = fcntl(1, F_GETFL);
		if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
			tephra_error_set(err, "write error: %s", strerror(EBADF));
			return -1;
		}
		t->kind = OUT_KIND_STDOUT;
		t->fd = 1;
		snprintf(t->path, sizeof(t->path), "-");
		return 0;
	}
	if (!*path || strlen(path) >= sizeof(cur)) {
		tephra_error_set(err, "%s: %s", path, *path ? "path too long" : "an empty file name");
		return -1;
	}
	snprintf(cur, sizeof(cur), "%s", path);
	for (int hops = 0;; hops++) {
		int fd;
		if (own_fd(cur, &fd)) {
			int fl = fcntl(fd, F_GETFL);
			if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
				tephra_error_set(err, "%s: cannot write: descriptor %d is %s", path,
						 fd, fl < 0 ? "not open" : "open for reading only");
				return -1;
			}
			t->kind = fd == 1 ? OUT_KIND_STDOUT : OUT_KIND_FD;
			t->fd = fd;
			snprintf(t->path, sizeof(t->path), "%s", cur);
			return 0;
		}
		struct stat st;
		int there = lstat(cur, &st) == 0;
		if (!there && errno != ENOENT) {
			tephra_error_set(err, "%s: cannot write: %s", path, strerror(errno));
			return -1;
		}
		snprintf(t->path, sizeof(t->path), "%s", cur);
		switch (out_file_step(there ? &st : NULL, geteuid())) {
		case OUT_STEP_CREATE:
			t->kind = OUT_KIND_RENAME;
			return 0;
		case OUT_STEP_REPLACE:
			t->kind = OUT_KIND_RENAME;
			t->exists = 1;
			t->mode = st.st_mode & 0777;
			return 0;
		case OUT_STEP_IN_PLACE:
			t->kind = OUT_KIND_IN_PLACE;
			return 0;
		case OUT_STEP_REFUSE_DIR:
			tephra_error_set(err, "%s: cannot write: %s", path, strerror(EISDIR));
			return -1;
		case OUT_STEP_REFUSE_LINK:
			if (strcmp(cur, path))
				tephra_error_set(err, "%s: %s: a symbolic link owned by uid %u, neither "
						 "you nor root: not followed", path, cur,
						 (unsigned)st.st_uid);
			else
				tephra_error_set(err, "%s: a symbolic link owned by uid %u, neither "
						 "you nor root: not followed", path,
						 (unsigned)st.st_uid);
			return -1;
		case OUT_STEP_FOLLOW:
			break;
		}
		ssize_t n = hops < OUT_MAX_LINKS ? readlink(cur, link, sizeof(link) - 1) : -1;
		if (n < 0) {
			tephra_error_set(err, "%s: cannot write: %s", path,
					 strerror(hops < OUT_MAX_LINKS ? errno : ELOOP));
			return -1;
		}
		link[n] = 0;
		if (link[0] != '/') {
			/* relative to the link's own directory */
			const char *slash = strrchr(cur, '/');
			size_t dirlen = slash ? (size_t)(slash - cur) + 1 : 0;
			if (dirlen + (size_t)n >= sizeof(cur)) {
				tephra_error_set(err, "%s: path too long", path);
				return -1;
			}
			memmove(cur + dirlen, link, (size_t)n + 1);
		} else {
			memcpy(cur, link, (size_t)n + 1);
		}
	}
}

/* A new file beside TARGET, named after it (O_CREAT|O_EXCL: a name someone else took,
 * or planted a link at, is not used); its name in TMP, which is empty unless the file
 * was created (it is unlinked by that name on failure, and by the CLI's signal
 * handler).  Returns the descriptor, or -1. */
static int create_beside(const char *target, char *tmp, size_t cap)
{
	char name[4096 + 64];
	tmp[0] = 0;
	if (cap > sizeof(name))
		cap = sizeof(name);
	const char *slash = strrchr(target, '/');
	int dirlen = slash ? (int)(slash - target) + 1 : 0;
	const char *base = target + dirlen;
	for (int i = 0; i < 100; i++) {
		uint32_t r;
		if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r)) {
			struct timespec ts;
			clock_gettime(CLOCK_MONOTONIC, &ts);
			r = (uint32_t)ts.tv_nsec ^ (uint32_t)getpid() * 2654435761u ^ (uint32_t)i;
		}
		/* the base name cut so that the temporary name stays under NAME_MAX */
		if ((size_t)snprintf(name, cap, "%.*s.%.200s.tephra-%08x", dirlen, target, base,
				     (unsigned)r) >= cap) {
			errno = ENAMETOOLONG;
			return -1;
		}
		int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0)
			memcpy(tmp, name, strlen(name) + 1);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int out_file_probe(const char *path, struct tephra_error *err)
{
	struct out_target t;
	char tmp[sizeof(t.path) + 64];
	if (out_file_resolve(path, &t, err) != 0)
		return -1;
	if (t.kind == OUT_KIND_STDOUT || t.kind == OUT_KIND_FD)
		return 0;
	if ((t.kind == OUT_KIND_IN_PLACE || t.exists) &&
	    faccessat(AT_FDCWD, t.path, W_OK, AT_EACCESS) != 0) {
		tephra_error_set(err, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	if (t.kind == OUT_KIND_RENAME) {
		int fd = create_beside(t.path, tmp, sizeof(tmp));
		if (fd < 0) {
			tephra_error_set(err, "%s: cannot write: %s", path, strerror(errno));
			return -1;
		}
		close(fd);
		unlink(tmp);
	}
	return 0;
}

int out_file_open(struct out_file *o, const char *path, struct tephra_error *err)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	snprintf(o->name, sizeof(o->name), "%s", path);
	if (out_file_resolve(path, &o->t, err) != 0)
		return -1;
	int fd = -1;
	switch (o->t.kind) {
	case OUT_KIND_STDOUT: /* a stream of its own on descriptor 1: see out_file.h */
	case OUT_KIND_FD:
		fd = fcntl(o->t.fd, F_DUPFD_CLOEXEC, 3);
		break;
	case OUT_KIND_IN_PLACE: {
		/* no O_TRUNC: if a regular file took the device's place since, it is
		 * refused below untouched */
		fd = open(o->t.path, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (fd >= 0 && (fstat(fd, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
			close(fd);
			tephra_error_set(err, "%s: changed while being opened: left alone", path);
			return -1;
		}
		break;
	}
	case OUT_KIND_RENAME:
		if (o->t.exists && faccessat(AT_FDCWD, o->t.path, W_OK, AT_EACCESS) != 0)
			break;
		fd = create_beside(o->t.path, o->tmp, sizeof(o->tmp));
		/* the file replaced keeps its permissions; a new one gets 0666 less umask */
		if (fd >= 0 && o->t.exists)
			(void)fchmod(fd, o->t.mode);
		break;
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		if (o->tmp[0])
			unlink(o->tmp);
		o->tmp[0] = 0;
		tephra_error_set(err, "%s: cannot write: %s", path, strerror(e));
		return -1;
	}
	o->fd = fd;
	return 0;
}

int out_file_commit(struct out_file *o, struct tephra_error *err)
{
	if (!o->f)
		return -1;
	errno = 0;
	int bad = fflush(o->f) != 0 || ferror(o->f);
	int e = errno;
	errno = 0;
	if (fclose(o->f) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	o->f = NULL;
	o->fd = -1;
	if (bad && o->t.kind == OUT_KIND_STDOUT) {
		tephra_error_set(err, "write error: %s", strerror(e ? e : EIO));
		out_file_abort(o);
		return -1;
	}
	if (bad) {
		tephra_error_set(err, "%s: write error: %s", o->name, strerror(e ? e : EIO));
		out_file_abort(o);
		return -1;
	}
	if (o->t.kind != OUT_KIND_RENAME)
		return 0;
	/* Something other than a regular file put there while we wrote is not ours to
	 * replace (rename would not follow a link, but would unlink a device). */
	struct stat st;
	if (lstat(o->t.path, &st) == 0 && !S_ISREG(st.st_mode)) {
		tephra_error_set(err, "%s: replaced by something else while being written: "
				 "left alone", o->name);
		out_file_abort(o);
		return -1;
	}
	if (rename(o->tmp, o->t.path) != 0) {
		tephra_error_set(err, "%s: cannot write: %s", o->name, strerror(errno));
		out_file_abort(o);
		return -1;
	}
	o->tmp[0] = 0;
	return 0;
}

void out_file_abort(struct out_file *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	o->fd = -1;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = 0;
}

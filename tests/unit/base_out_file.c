/* base_out_file - the decision base/out_file.h makes for an output path, on made-up
 * stats (every kind, links of us, root and another user), then on real files in a new
 * directory: where links lead (chains, relative, dangling, loops), our descriptors,
 * devices; a commit replaces a file's content (a new inode, the old permissions), an
 * abort and a probe leave everything as it was and no file behind; something other
 * than a regular file put at the path during the write is not renamed over. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/out_file.h"
#include "unit/check.h"

static struct stat made(mode_t type, uid_t uid)
{
	struct stat st;
	memset(&st, 0, sizeof(st));
	st.st_mode = type | 0644;
	st.st_uid = uid;
	return st;
}

static void steps(void)
{
	const uid_t me = 1000, other = 1001;
	struct stat st;
	CHECK(out_file_step(NULL, me) == OUT_STEP_CREATE);
	st = made(S_IFREG, other);
	CHECK(out_file_step(&st, me) == OUT_STEP_REPLACE);
	st = made(S_IFDIR, me);
	CHECK(out_file_step(&st, me) == OUT_STEP_REFUSE_DIR);
	const mode_t in_place[] = { S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK };
	for (size_t i = 0; i < sizeof(in_place) / sizeof(in_place[0]); i++) {
		st = made(in_place[i], other);
		CHECK(out_file_step(&st, me) == OUT_STEP_IN_PLACE);
	}
	/* links: ours and root's are followed, another user's never (also for root) */
	st = made(S_IFLNK, me);
	CHECK(out_file_step(&st, me) == OUT_STEP_FOLLOW);
	st = made(S_IFLNK, 0);
	CHECK(out_file_step(&st, me) == OUT_STEP_FOLLOW);
	st = made(S_IFLNK, other);
	CHECK(out_file_step(&st, me) == OUT_STEP_REFUSE_LINK);
	CHECK(out_file_step(&st, 0) == OUT_STEP_REFUSE_LINK);
	st = made(S_IFLNK, 0);
	CHECK(out_file_step(&st, 0) == OUT_STEP_FOLLOW);
}

static char dir[] = "/tmp/tephra-out-file.XXXXXX";

static const char *at(const char *name)
{
	static char buf[4][4096];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");
	fputs(text, f);
	fclose(f);
}

static int holds(const char *name, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(at(name), "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return !strcmp(buf, text);
}

static int entries(void)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
	closedir(d);
	return n;
}

static void resolve(void)
{
	struct out_target t;
	struct tephra_error err;
	CHECK(out_file_resolve("-", &t, &err) == 0 && t.kind == OUT_KIND_STDOUT);
	CHECK(out_file_resolve(at("new"), &t, &err) == 0 && t.kind == OUT_KIND_RENAME &&
	      !t.exists && !strcmp(t.path, at("new")));
	put("file", "old");
	chmod(at("file"), 0640);
	CHECK(out_file_resolve(at("file"), &t, &err) == 0 && t.kind == OUT_KIND_RENAME &&
	      t.exists && t.mode == 0640);
	/* a chain: absolute link to a relative one to the file; the target is written */
	mkdir(at("sub"), 0755);
	CHECK(symlink("../file", at("sub/rel")) == 0);
	CHECK(symlink(at("sub/rel"), at("abs")) == 0);
	CHECK(out_file_resolve(at("abs"), &t, &err) == 0 && t.kind == OUT_KIND_RENAME &&
	      t.exists && !strcmp(t.path, at("sub/../file")));
	CHECK(symlink("nowhere", at("dangling")) == 0);
	CHECK(out_file_resolve(at("dangling"), &t, &err) == 0 && t.kind == OUT_KIND_RENAME &&
	      !t.exists && !strcmp(t.path, at("nowhere")));
	CHECK(symlink("loop", at("loop")) == 0);
	CHECK(out_file_resolve(at("loop"), &t, &err) == -1 && strstr(err.msg, strerror(ELOOP)));
	CHECK(out_file_resolve(dir, &t, &err) == -1 && strstr(err.msg, strerror(EISDIR)));
	CHECK(out_file_resolve("/dev/null", &t, &err) == 0 && t.kind == OUT_KIND_IN_PLACE);
	/* our descriptors by name are written where they point, not followed */
	CHECK(out_file_resolve("/dev/stdout", &t, &err) == 0 && t.kind == OUT_KIND_STDOUT);
	CHECK(out_file_resolve("/dev/fd/2", &t, &err) == 0 && t.kind == OUT_KIND_FD && t.fd == 2);
	CHECK(out_file_resolve("/proc/self/fd/987", &t, &err) == -1 && strstr(err.msg, "not open"));
	/* another user's link: refused, named (root can give a link away) */
	if (geteuid() == 0) {
		CHECK(symlink("file", at("theirs")) == 0);
		CHECK(lchown(at("theirs"), 65534, 65534) == 0);
		CHECK(out_file_resolve(at("theirs"), &t, &err) == -1 &&
		      strstr(err.msg, "owned by uid 65534") && strstr(err.msg, at("theirs")));
		/* also as a link in a chain */
		CHECK(symlink(at("theirs"), at("mine")) == 0);
		CHECK(out_file_resolve(at("mine"), &t, &err) == -1 &&
		      strstr(err.msg, "owned by uid 65534"));
		unlink(at("mine"));
		unlink(at("theirs"));
	}
	unlink(at("abs"));
	unlink(at("sub/rel"));
	rmdir(at("sub"));
	unlink(at("dangling"));
	unlink(at("loop"));
}

static void write_commit_abort(void)
{
	struct out_file o;
	struct tephra_error err;
	struct stat before, after;
	int n0 = entries(); /* "file" */
	stat(at("file"), &before);
	/* a probe touches nothing, leaves nothing */
	CHECK(out_file_probe(at("file"), &err) == 0 && holds("file", "old"));
	CHECK(out_file_probe(at("new"), &err) == 0 && access(at("new"), F_OK) != 0);
	CHECK(entries() == n0);
	/* abort: the file as it was, no file left */
	CHECK(out_file_open(&o, at("file"), &err) == 0);
	fputs("half", o.f);
	out_file_abort(&o);
	CHECK(holds("file", "old") && entries() == n0);
	/* commit: a new file with the old permissions renamed over it */
	CHECK(out_file_open(&o, at("file"), &err) == 0);
	fputs("new", o.f);
	CHECK(holds("file", "old")); /* nothing visible until the commit */
	CHECK(out_file_commit(&o, &err) == 0);
	stat(at("file"), &after);
	CHECK(holds("file", "new") && after.st_ino != before.st_ino &&
	      (after.st_mode & 07777) == 0640 && entries() == n0);
	/* a FIFO put at the path while we wrote is left alone */
	CHECK(out_file_open(&o, at("swap"), &err) == 0);
	fputs("x", o.f);
	CHECK(mkfifo(at("swap"), 0600) == 0);
	CHECK(out_file_commit(&o, &err) == -1 && strstr(err.msg, "left alone"));
	CHECK(lstat(at("swap"), &after) == 0 && S_ISFIFO(after.st_mode) && entries() == n0 + 1);
	unlink(at("swap"));
	/* a device is written in place and stays one */
	CHECK(out_file_open(&o, "/dev/null", &err) == 0 && o.t.kind == OUT_KIND_IN_PLACE);
	fputs("x", o.f);
	CHECK(out_file_commit(&o, &err) == 0);
	CHECK(lstat("/dev/null", &after) == 0 && S_ISCHR(after.st_mode));
	/* a write error: reported, the file as it was */
	put("kept", "kept");
	CHECK(out_file_open(&o, at("kept"), &err) == 0);
	CHECK(dup2(open("/dev/full", O_WRONLY), fileno(o.f)) >= 0);
	fputs("lost", o.f);
	CHECK(out_file_commit(&o, &err) == -1 && strstr(err.msg, "write error") &&
	      strstr(err.msg, strerror(ENOSPC)));
	CHECK(holds("kept", "kept") && entries() == n0 + 1);
	unlink(at("kept"));
	unlink(at("file"));
}

int main(void)
{
	steps();
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	resolve();
	write_commit_abort();
	rmdir(dir);
	return failures != 0;
}

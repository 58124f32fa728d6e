#include "cli_files.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"

static const int ending[] = { SIGINT, SIGTERM, SIGHUP };

/* Holds the ending signals in this thread (WAS: the mask to restore) while a file of
 * ours is created and named or removed: one coming on the open's return would find the
 * file there and nothing naming it. */
static void hold_ending(sigset_t *was)
{
	sigset_t hold;
	sigemptyset(&hold);
	for (size_t i = 0; i < sizeof(ending) / sizeof(ending[0]); i++)
		sigaddset(&hold, ending[i]);
	pthread_sigmask(SIG_BLOCK, &hold, was);
}

int cli_out_probe(const char *who, const char *path)
{
	struct tephra_error err = { "" };
	sigset_t was;
	hold_ending(&was); /* the probe's file is created and removed meanwhile */
	int rc = out_file_probe(path, &err);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	if (rc != 0) {
		fprintf(stderr, "%s: %s\n", who, err.msg);
		return -1;
	}
	return 0;
}

/* The hidden files being written (out_file's tmp), removed when SIGINT, SIGTERM or
 * SIGHUP ends us before the commit: the output stays the old one with nothing beside
 * it.  Only a signal left at its default is caught (an ignored one stays ignored; the
 * wrapping of child.c keeps its own handlers). */
#define PENDING_MAX 8
static struct out_file *volatile pending[PENDING_MAX];

static void on_ending_signal(int sig)
{
	for (int i = 0; i < PENDING_MAX; i++) {
		struct out_file *o = pending[i];
		if (o && o->tmp[0])
			unlink(o->tmp);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Replaces O with TO in the table (NULL: a free slot), catching the signals first. */
static void pending_set(struct out_file *o, struct out_file *to)
{
	static int caught;
	if (!caught && to) {
		caught = 1;
		for (size_t i = 0; i < sizeof(ending) / sizeof(ending[0]); i++) {
			struct sigaction sa, old;
			if (sigaction(ending[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
				continue;
			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = on_ending_signal;
			sigemptyset(&sa.sa_mask);
			sigaction(ending[i], &sa, NULL);
		}
	}
	for (int i = 0; i < PENDING_MAX; i++)
		if (pending[i] == o) {
			pending[i] = to;
			return;
		}
}

FILE *cli_out_open(struct out_file *o, const char *who, const char *path)
{
	struct tephra_error err = { "" };
	fflush(stdout); /* "-" is a stream of its own on descriptor 1 */
	/* registered before the file is created: out_file_open names it in tmp once it
	 * exists, so a signal from then on removes it */
	o->tmp[0] = 0;
	pending_set(NULL, o);
	sigset_t was;
	hold_ending(&was);
	int rc = out_file_open(o, path, &err);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	if (rc != 0) {
		pending_set(o, NULL);
		fprintf(stderr, "%s: %s\n", who, err.msg);
		return NULL;
	}
	return o->f;
}

void cli_out_abort(struct out_file *o)
{
	out_file_abort(o);
	pending_set(o, NULL);
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
		cli_out_abort(o);
		return -1;
	}
	int rc = out_file_commit(o, &err);
	pending_set(o, NULL);
	if (rc != 0) {
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

int cli_check_inputs(const char *who, int argc, char **argv, int first, int min, int max)
{
	static const char *const count[] = { "no", "one", "two" };
	int n = argc - first;
	if (n >= min && n <= max)
		return 0;
	fprintf(stderr, "%s: %s%s input file%s, %d given", who, max == min ? "" : "at most ",
		count[max], max == 1 ? "" : "s", n);
	for (int i = first; i < argc; i++)
		fprintf(stderr, "%s'%s'", i == first ? ": " : ", ", argv[i]);
	fputc('\n', stderr);
	return -1;
}

/* What the thread feeding the new standard input copies: HEAD, then FROM to its end. */
struct stdin_replay {
	int from, to;
	size_t len;
	char head[];
};

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void *stdin_replay_run(void *arg)
{
	struct stdin_replay *r = arg;
	sigset_t pipe_sig;
	char buf[1 << 16];
	/* a reader that stops early closes its end: EPIPE here, not a killed process */
	sigemptyset(&pipe_sig);
	sigaddset(&pipe_sig, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_sig, NULL);
	if (write_all(r->to, r->head, r->len) == 0) {
		for (;;) {
			ssize_t n = read(r->from, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0 || write_all(r->to, buf, (size_t)n) != 0)
				break; /* a read error ends the stream: the reader sees it cut */
		}
	}
	close(r->to);
	close(r->from);
	free(r);
	return NULL;
}

/* The first bytes of standard input, once peeked: later peeks are answered from here. */
static char stdin_head[CLI_STDIN_PEEK_MAX];
static ssize_t stdin_head_len = -1;

static ssize_t stdin_peek_once(void)
{
	size_t got = 0;
	while (got < sizeof(stdin_head)) {
		ssize_t n = read(0, stdin_head + got, sizeof(stdin_head) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	struct stat st;
	if (fstat(0, &st) == 0 && S_ISREG(st.st_mode) && lseek(0, -(off_t)got, SEEK_CUR) >= 0)
		return (ssize_t)got;
	struct stdin_replay *r = malloc(sizeof(*r) + got);
	int p[2];
	if (!r)
		return -1;
	if (pipe2(p, O_CLOEXEC) != 0) {
		free(r);
		return -1;
	}
	r->from = fcntl(0, F_DUPFD_CLOEXEC, 3);
	r->to = p[1];
	r->len = got;
	memcpy(r->head, stdin_head, got);
	pthread_t t;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (r->from < 0 || pthread_create(&t, &attr, stdin_replay_run, r)) {
		int e = errno;
		pthread_attr_destroy(&attr);
		close(p[0]);
		close(p[1]);
		if (r->from >= 0)
			close(r->from);
		free(r);
		errno = e;
		return -1;
	}
	pthread_attr_destroy(&attr);
	/* the thread owns r now; were dup2 to fail, it would only feed a pipe nobody reads */
	if (dup2(p[0], 0) < 0) {
		int e = errno;
		close(p[0]);
		errno = e;
		return -1;
	}
	close(p[0]);
	return (ssize_t)got;
}

ssize_t cli_stdin_peek(void *buf, size_t size)
{
	if (stdin_head_len < 0 && (stdin_head_len = stdin_peek_once()) < 0) {
		stdin_head_len = -1;
		return -1;
	}
	size_t n = (size_t)stdin_head_len < size ? (size_t)stdin_head_len : size;
	memcpy(buf, stdin_head, n);
	return (ssize_t)n;
}

int cli_is_perf_data(const char *path)
{
	char magic[8];
	ssize_t got;
	if (!strcmp(path, "-")) {
		got = cli_stdin_peek(magic, sizeof(magic));
	} else {
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			return 1;
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		got = read(fd, magic, sizeof(magic));
		int e = errno;
		close(fd);
		errno = e;
	}
	if (got < 0)
		return -1;
	return got == (ssize_t)sizeof(magic) &&
	       (!memcmp(magic, "PERFILE2", 8) || !memcmp(magic, "2ELIFREP", 8) ||
		!memcmp(magic, "PERFFILE", 8)); /* the old magic: perf_header.c reads it too */
}

/* child.c - starting a program and collecting its status (see child.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

/* The signals of child.h's wrapping, their dispositions before, and what came. */
static const int wrapped[] = { SIGINT, SIGTERM, SIGHUP };
#define NWRAPPED (sizeof(wrapped) / sizeof(wrapped[0]))
static struct sigaction before[NWRAPPED];
static int catching;
static volatile sig_atomic_t running_pid, interrupted_by, stopped_by;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int saved_errno = errno; /* kill() may change what the interrupted code reads */
	(void)uc;
	if (sig == SIGINT && !interrupted_by && !stopped_by) {
		interrupted_by = sig;
		/* said at once, before the child has finished its file: the user knows the
		 * first Ctrl-C was taken, and a second one now is a second (two SIGINTs still
		 * pending in this process are one) */
		static const char said[] = "tephra: interrupted: finishing what was recorded "
					   "(Ctrl-C again to stop)\n";
		if (write(2, said, sizeof(said) - 1) < 0) {
			/* nothing to do: stderr is gone */
		}
	} else if (!stopped_by) {
		stopped_by = sig;
	}
	/* SI_KERNEL: the terminal's, sent to the foreground group, the child included */
	if (running_pid > 0 && si->si_code != SI_KERNEL)
		kill((pid_t)running_pid, sig);
	errno = saved_errno;
}

static void catch_signals(void)
{
	if (catching)
		return;
	catching = 1;
	for (size_t i = 0; i < NWRAPPED; i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_signal;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigfillset(&sa.sa_mask);
		sigaction(wrapped[i], NULL, &before[i]);
		if (before[i].sa_handler != SIG_IGN)
			sigaction(wrapped[i], &sa, NULL);
	}
}

static void wrapped_mask(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < NWRAPPED; i++)
		sigaddset(set, wrapped[i]);
}

int child_interrupted(void)
{
	return interrupted_by;
}

int child_stopped(void)
{
	return stopped_by;
}

void child_signals_end(void)
{
	if (!catching)
		return;
	catching = 0;
	for (size_t i = 0; i < NWRAPPED; i++)
		sigaction(wrapped[i], &before[i], NULL);
	if (stopped_by) {
		int sig = stopped_by;
		sigset_t set;
		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		fflush(NULL);
		raise(sig);
		_exit(128 + sig); /* not reached */
	}
}

/* FD becomes the child's descriptor TARGET, which survives exec (FD itself is
 * close-on-exec).  dup2 onto itself would keep the close-on-exec flag: clear it. */
static int move_fd(int fd, int target)
{
	if (fd == target)
		return fcntl(fd, F_SETFD, 0);
	return dup2(fd, target) < 0 ? -1 : 0;
}

/* In the child, between fork and exec. */
static void run_in_child(const struct child_cmd *cmd, int pipe_write, const sigset_t *mask)
{
	/* the program gets the dispositions tephra was given, before it unblocks them */
	for (size_t i = 0; i < NWRAPPED; i++)
		sigaction(wrapped[i], &before[i], NULL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	if (pipe_write >= 0 && move_fd(pipe_write, STDOUT_FILENO) != 0)
		_exit(127);
	if (cmd->stderr_null) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null < 0 || move_fd(null, STDERR_FILENO) != 0)
			_exit(127);
	}
	for (const struct child_env *e = cmd->env; e && e->name; e++) {
		if (e->value)
			setenv(e->name, e->value, 1);
		else
			unsetenv(e->name);
	}
	execvp(cmd->argv[0], cmd->argv);
	fprintf(stderr, "%s: cannot run %s: %s%s\n", cmd->who, cmd->argv[0], strerror(errno),
		cmd->hint ? cmd->hint : "");
	_exit(127);
}

pid_t child_start(const struct child_cmd *cmd)
{
	int fds[2] = { -1, -1 };

	/* With SIGCHLD ignored (inherited from our caller) the kernel reaps the child
	 * itself and waitpid fails with ECHILD: its exit status would be lost, and the
	 * child (perf record waits for its own workload) would inherit the same. */
	signal(SIGCHLD, SIG_DFL);
	if (cmd->stdout_pipe && pipe2(fds, O_CLOEXEC) != 0) {
		fprintf(stderr, "%s: pipe: %s\n", cmd->who, strerror(errno));
		return -1;
	}
	fflush(NULL); /* else the child would write our buffered output again */
	catch_signals();
	/* blocked until the child has our caller's dispositions and we have its pid */
	sigset_t block, mask;
	wrapped_mask(&block);
	sigprocmask(SIG_BLOCK, &block, &mask);
	pid_t pid = fork();
	if (pid == 0)
		run_in_child(cmd, fds[1], &mask);
	int fork_errno = errno;
	if (pid > 0)
		running_pid = pid;
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (cmd->stdout_pipe) {
		close(fds[1]);
		if (pid > 0)
			*cmd->stdout_pipe = fds[0];
		else
			close(fds[0]);
	}
	if (pid < 0)
		fprintf(stderr, "%s: fork: %s\n", cmd->who, strerror(fork_errno));
	return pid;
}

int child_wait(pid_t pid, const char *who, int *term_signal)
{
	int status;
	pid_t got;

	if (term_signal)
		*term_signal = 0;
	while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (running_pid == pid)
		running_pid = 0;
	if (got < 0) {
		fprintf(stderr, "%s: waitpid: %s\n", who, strerror(errno));
		return -1;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (term_signal)
		*term_signal = WTERMSIG(status);
	return 128 + WTERMSIG(status);
}

int child_run(const struct child_cmd *cmd, int *term_signal)
{
	pid_t pid = child_start(cmd);

	if (term_signal)
		*term_signal = 0;
	return pid < 0 ? -1 : child_wait(pid, cmd->who, term_signal);
}

/* Whether PATH is a file we may execute; if not, *ERR says why (kept when PATH is
 * simply absent, so that a later directory's EACCES is what is reported, as execvp
 * reports it). */
static int runnable(const char *path, int *err)
{
	struct stat sb;
	if (stat(path, &sb) != 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			*err = errno;
		return 0;
	}
	if (S_ISDIR(sb.st_mode)) {
		*err = EISDIR;
		return 0;
	}
	if (!S_ISREG(sb.st_mode) || access(path, X_OK) != 0) {
		*err = EACCES;
		return 0;
	}
	return 1;
}

int child_check_program(const char *who, const char *name)
{
	int err = ENOENT;
	if (strchr(name, '/')) {
		if (runnable(name, &err))
			return 0;
	} else if (*name) {
		/* execvp's search: PATH's directories in order, an empty one is the current
		 * directory, and glibc's default when PATH is unset */
		const char *dirs = getenv("PATH");
		if (!dirs)
			dirs = "/bin:/usr/bin";
		for (const char *d = dirs;; d++) {
			size_t len = strcspn(d, ":");
			char *path;
			if (asprintf(&path, "%.*s%s%s", (int)len, len ? d : ".", "/", name) < 0)
				return 0; /* out of memory: let the exec say it */
			int ok = runnable(path, &err);
			free(path);
			if (ok)
				return 0;
			d += len;
			if (!*d)
				break;
		}
		if (err == ENOENT) {
			fprintf(stderr, "%s: %s: command not found\n", who, name);
			return 127;
		}
	}
	fprintf(stderr, "%s: %s: cannot run: %s\n", who, name, strerror(err));
	return err == ENOENT ? 127 : 126;
}

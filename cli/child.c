/* child.c - starting a program and collecting its status (see child.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

/* FD becomes the child's descriptor TARGET, which survives exec (FD itself is
 * close-on-exec).  dup2 onto itself would keep the close-on-exec flag: clear it. */
static int move_fd(int fd, int target)
{
	if (fd == target)
		return fcntl(fd, F_SETFD, 0);
	return dup2(fd, target) < 0 ? -1 : 0;
}

/* In the child, between fork and exec. */
static void run_in_child(const struct child_cmd *cmd, int pipe_write)
{
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
	pid_t pid = fork();
	if (pid == 0)
		run_in_child(cmd, fds[1]);
	int fork_errno = errno;
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

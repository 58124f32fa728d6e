/* child.h - the one way the CLI starts another program (perf, valgrind, qemu) and
 * collects how it ended.  Starting children is CLI policy: the library never does. */
#ifndef TEPHRA_CLI_CHILD_H
#define TEPHRA_CLI_CHILD_H

#include <sys/types.h>

/* One change to the child's environment: VALUE NULL removes NAME. */
struct child_env {
	const char *name, *value;
};

struct child_cmd {
	char *const *argv;		/* argv[0] is looked up in PATH */
	const struct child_env *env;	/* ended by a NULL name; NULL: the environment as is */
	int stderr_null;		/* the child's stderr goes to /dev/null */
	int *stdout_pipe;		/* not NULL: the child's stdout is a pipe, its read end
					 * (close-on-exec) is stored here for the caller to read */
	const char *who;		/* prefix of the messages, e.g. "tephra record" */
	const char *hint;		/* appended to "cannot run ARGV0: ERROR", or NULL */
};

/* Starts CMD.  A program that cannot be executed says so on the child's stderr and
 * exits 127, as shells do.  Returns the child's pid, or -1 (said on stderr) when no
 * child could be made. */
pid_t child_start(const struct child_cmd *cmd);

/* Waits for PID (through EINTR) and returns its exit code, or 128 + N when signal N
 * ended it (as shells report it; *TERM_SIGNAL, if given, is N, else 0), or -1 (said on
 * stderr under WHO) when it could not be waited for. */
int child_wait(pid_t pid, const char *who, int *term_signal);

/* child_start then child_wait. */
int child_run(const struct child_cmd *cmd, int *term_signal);

#endif

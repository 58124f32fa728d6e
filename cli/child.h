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

/* Whether NAME (argv[0] of a program to run, looked up in PATH as execvp does) can be
 * executed.  Returns 0 if so, else says why under WHO ("WHO: NAME: command not found")
 * and returns the shell's status for it: 127 (not found) or 126 (not executable).  For
 * a wrapper whose runner would write something first (perf record: its perf.data, the
 * old one moved to perf.data.old) before finding the program missing. */
int child_check_program(const char *who, const char *name);

/* child_start then child_wait. */
int child_run(const struct child_cmd *cmd, int *term_signal);

/* The user's signals while tephra wraps a program (record, grind, emu): from the first
 * child_start on, SIGINT, SIGTERM and SIGHUP do not end tephra, whose child must finish
 * its file (perf writes perf.data's header on SIGINT, Valgrind and QEMU's plugin their
 * counts) before tephra draws it.  A signal the terminal sent went to its whole
 * foreground process group, the child included; one sent to tephra by a process is
 * passed on to the running child.  Each is noted:
 *  - the first SIGINT interrupts: the caller waits for its child as usual and makes
 *    what it can of what was written, saying it was interrupted;
 *  - a second SIGINT, or SIGTERM or SIGHUP, stops: the caller still waits for its child
 *    (a program that ignores the signal keeps running, as it would without tephra),
 *    draws nothing more, removes its temporary files and calls child_signals_end().
 * A signal our caller ignored stays ignored, by us and by the child. */
int child_interrupted(void);	/* the signal that interrupted (SIGINT), or 0 */
int child_stopped(void);	/* the signal that asked to stop, or 0 */

/* Gives the signals back their dispositions; if one asked to stop, tephra dies of it
 * now (its caller sees the status a signal gives), so the caller cleans up first. */
void child_signals_end(void);

#endif

#!/usr/bin/env python3
"""ctrl_c.py READY N LOG -- COMMAND...: runs COMMAND on a terminal of its own (a new
session whose controlling terminal is a pseudo-terminal, COMMAND its foreground process
group; its stdout and stderr to LOG), and types Ctrl-C N times: the first once the file
READY holds "running", the next once READY holds "int K" for the K-th before (the
workload tests/wrap/spin.c with "count" writes it on each SIGINT) and LOG holds tephra's
"Ctrl-C again to stop" (said when its handler took the first: two SIGINTs still pending
in one process are one, so a second sent before would not be seen).  The terminal sends
SIGINT to the whole foreground group, as it does for a user.  Prints how COMMAND ended:
"exit N" or "signal N"."""
import os, pty, sys, time

ready, n, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]
cmd = sys.argv[sys.argv.index("--") + 1:]
if os.path.exists(ready):
    os.remove(ready)  # an earlier run's
pid, master = pty.fork()
if pid == 0:
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.execvp(cmd[0], cmd)


def holds(path, test):
    try:
        with open(path, errors="replace") as f:
            return test(f.read())
    except FileNotFoundError:
        return False


def wait_for(text, acked):
    # polled: the workload writes the file when it gets there, however slow the machine
    while True:
        if holds(ready, lambda t: text in t.split("\n")) and (
                not acked or holds(log, lambda t: "Ctrl-C again to stop" in t)):
            return True
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.05)


status = None
for k in range(n):
    r = wait_for("running" if k == 0 else "int %d" % k, k > 0)
    if r is not True:
        status = r
        print("ended before Ctrl-C %d" % (k + 1), file=sys.stderr)
        break
    os.write(master, b"\x03")
if status is None:
    # drain the terminal (nothing is written to it) until COMMAND ends
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
os.close(master)
print("signal %d" % os.WTERMSIG(status) if os.WIFSIGNALED(status) else
      "exit %d" % os.WEXITSTATUS(status))

"""on_terminal.py OUT CMD...: runs CMD with standard input and output on a new terminal (a pty),
standard error passed through; what CMD wrote to the terminal goes to OUT.  Exits with
CMD's status, 124 when it ran for 60 s (it waited for input that a terminal never sends)."""
import os
import pty
import select
import subprocess
import sys
import time

master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[2:], stdin=slave, stdout=slave)
os.close(slave)
seen = b""
deadline = time.monotonic() + 60
status = None
while status is None:
    # keep reading, so a child writing to the terminal never blocks on a full pty
    ready, _, _ = select.select([master], [], [], 0.2)
    if ready:
        try:
            seen += os.read(master, 1 << 16)
        except OSError:
            pass
    status = child.poll()
    if status is None and time.monotonic() > deadline:
        child.kill()
        child.wait()
        status = 124
with open(sys.argv[1], "wb") as f:
    f.write(seen)
sys.exit(status)

#!/usr/bin/env python3
"""set_comm.py NAME SECONDS: renames this thread NAME (prctl PR_SET_NAME; "\\n" in NAME is
a newline; the kernel keeps 15 bytes) and spins SECONDS of CPU: a recording whose comm
forges lines of line-based outputs (tests/hostile/names.test.sh)."""
import ctypes
import sys
import time

PR_SET_NAME = 15
name = sys.argv[1].encode().replace(b"\\n", b"\n")
ctypes.CDLL(None).prctl(PR_SET_NAME, ctypes.c_char_p(name), 0, 0, 0)
end = time.process_time() + float(sys.argv[2])
x = 0
while time.process_time() < end:
    x += 1

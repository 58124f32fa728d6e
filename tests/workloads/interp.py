# interp.py - the interpreter of bench/perf-multi.sh: recursion, string formatting and a
# dict of counts in pure Python, so that the samples are in CPython's evaluation loop.
# Usage: python3 interp.py [MILLISECONDS of CPU time]  (default 300).
import sys
import time


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def words(seed, n):
    x = seed | 1
    out = []
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        out.append("w%d" % (x % 3000))
    return out


def count(items):
    counts = {}
    for w in items:
        counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: -kv[1])[:10]


def main():
    ms = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    # CPU time, not the wall clock: the work done does not depend on the machine's load
    end = time.process_time() + ms / 1000.0
    acc, seed = 0, 1
    while time.process_time() < end:
        acc ^= fib(16) + sum(c for _, c in count(words(seed, 5000)))
        seed += 1
    print(acc & 1)


main()

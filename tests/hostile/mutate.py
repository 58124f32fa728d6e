#!/usr/bin/env python3
"""mutate.py TEPHRA_ASAN WORKDIR [N] [SEED] - seeded random mutations of valid inputs
(folded text, palette files, perf script text, a RISC-V ELF, pc dumps, QEMU exec logs,
raw folded profiles) run through the ASan+UBSan build.  Not part of tests/run-all (slow:
about 0.1 s per case); run it by hand after changing a reader:

    python3 tests/hostile/mutate.py build/asan/tephra /tmp/fuzz 3000 1

A case fails when the command hangs (20 s), dies of a signal, prints a sanitizer report,
or fails (exit 1) without naming the input file.  Each failure is kept in WORKDIR as
fail-N-<kind> with the command line in fail-N-<kind>.cmd; the exit status is the number
of failures (capped at 100)."""
import os, random, shutil, struct, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mkelf  # noqa: E402

FOLDED = b"".join(b"main;%s;%s %d\n" % (a, b, n) for a, b, n in [
    (b"alpha", b"beta", 3), (b"alpha", b"gamma", 5), (b"delta", b"beta", 2),
    (b"[unknown]", b"0x7f001234", 1), (b"caf\xc3\xa9", b"x_[k]", 9), (b"a b", b"c", 4)])
PALETTE = b"main->rgb(1,2,3)\nalpha->rgb(200,100,50)\nbeta->rgb(0,0,255)\n"
SCRIPT = (b"prog 1234 [000] 100.000001:     250000 cpu-clock:\n"
          b"\tffffffff81000010 do_syscall_64+0x10 ([kernel.kallsyms])\n"
          b"\t    7f0000001020 work+0x20 (/usr/bin/prog)\n"
          b"\t    7f0000001000 main+0x0 (/usr/bin/prog)\n\n"
          b"prog 1234/1235 [001] 100.000002: 1 cycles:u: \n"
          b"\t    7f0000001030 [unknown] (/usr/bin/prog)\n\n")
LOOP = [0x11000, 0x11004, 0x1100c, 0x11010, 0x11008] * 40
PCS = b"".join(struct.pack("<Q", p) for p in LOOP)
LOG = b"".join(b"Trace 0: 0x7f0000001000 [00000000/%016x/00000000/ff000001] \n" % p
               for p in LOOP)
RAW = b"0x11008;0x1100c 7\n0x11000 3\n[x];0x11004 2\n"
TOKENS = [b";", b" ", b"\n", b"\0", b"\r\n", b";;", b"-1", b"0", b"99999999999999999999",
          b"1e308", b"0x", b"0xffffffffffffffff", b"->rgb(", b")", b",", b"Trace ", b"[",
          b"/", b"\xff", b"\xc3", b"\t", b".", b"_[k]", b"+0x", b"(", b":"]
INTS = [0, 1, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0xffffffff, 0xffffffffffffffff,
        0x8000000000000000, 0x1000, 24, 64]


def mutate_text(r, data):
    d = bytearray(data)
    for _ in range(r.randint(1, 6)):
        op = r.randrange(6)
        pos = r.randrange(len(d) + 1)
        if op == 0 and d:
            d[r.randrange(len(d))] = r.getrandbits(8)
        elif op == 1:
            d[pos:pos] = r.choice(TOKENS) * r.choice([1, 1, 1, 3, 50, 1000])
        elif op == 2 and d:
            del d[pos:pos + r.randint(1, 40)]
        elif op == 3 and d:
            a = r.randrange(len(d))
            chunk = d[a:a + r.randint(1, 200)]
            d[pos:pos] = chunk * r.choice([1, 2, 100])
        elif op == 4:
            d = d[:pos]
        else:
            d[pos:pos] = bytes(r.getrandbits(8) for _ in range(r.randint(1, 16)))
    return bytes(d)


def mutate_binary(r, data, hot=None):
    d = bytearray(data)
    for _ in range(r.randint(1, 4)):
        if r.random() < 0.15:
            d = d[:r.randrange(len(d) + 1)]
            continue
        if not d:
            break
        at = r.randrange(min(len(d), hot)) if hot and r.random() < 0.7 else r.randrange(len(d))
        size = r.choice([1, 2, 4, 8])
        val = r.choice(INTS) if r.random() < 0.7 else r.getrandbits(64)
        val &= (1 << (8 * size)) - 1
        d[at:at + size] = val.to_bytes(size, "little")[:max(0, len(d) - at)]
    return bytes(d)


def main():
    tephra, work = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    os.makedirs(work, exist_ok=True)
    # A private copy: others rebuilding the tree replace the binary under a long run.
    shutil.copy(tephra, os.path.join(work, "tephra-under-test"))
    tephra = os.path.abspath(os.path.join(work, "tephra-under-test"))
    os.chdir(work)
    elf = mkelf.build()
    for name, data in [("good.folded", FOLDED), ("good.elf", elf), ("good.pcs", PCS),
                       ("good.raw", RAW)]:
        open(name, "wb").write(data)
    r = random.Random(seed)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1", LC_ALL="C")
    kinds = {
        "folded": (lambda: mutate_text(r, FOLDED), [["flamegraph", "{}", "-o", "out.svg"],
                   ["diff", "good.folded", "{}", "--folded", "-o", "out.txt"],
                   ["flamegraph", "--reverse", "--flamechart", "{}", "-o", "out.svg"]]),
        "palette": (lambda: mutate_text(r, PALETTE),
                    [["flamegraph", "--palfile", "{}", "good.folded", "-o", "out.svg"]]),
        "script": (lambda: mutate_text(r, SCRIPT), [["fold", "--from-text", "{}"],
                   ["fold", "--from-text", "--all", "--addrs", "--pid", "{}"]]),
        "elf": (lambda: mutate_binary(r, elf, hot=0x200 if r.random() < 0.5 else None),
                [["trace", "--elf", "{}", "good.pcs"], ["symbolize", "--elf", "{}", "good.raw"]]),
        "pcs": (lambda: mutate_binary(r, PCS), [["trace", "--elf", "good.elf", "--format", "pcs", "{}"]]),
        "log": (lambda: mutate_text(r, LOG), [["trace", "--elf", "good.elf", "--format", "qemu-log", "{}"]]),
        "raw": (lambda: mutate_text(r, RAW), [["symbolize", "--elf", "good.elf", "{}"]]),
    }
    names = sorted(kinds)
    failures = 0
    for i in range(n):
        kind = names[i % len(names)]
        make, cmds = kinds[kind]
        path = "case-%s" % kind
        open(path, "wb").write(make())
        for cmd in cmds:
            argv = [tephra] + [path if a == "{}" else a for a in cmd]
            try:
                p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   env=env, timeout=20)
                rc, err = p.returncode, p.stderr
            except subprocess.TimeoutExpired:
                rc, err = 124, b"timeout"
            why = None
            if rc == 124 or rc < 0 or rc >= 128:
                why = "exit %d" % rc
            elif b"Sanitizer" in err or b"runtime error:" in err:
                why = "sanitizer"
            elif rc == 1 and path.encode() not in err and b"good." not in err:
                why = "error without the file name"
            if why:
                failures += 1
                keep = "fail-%d-%s" % (i, kind)
                os.replace(path, keep)
                open(keep + ".cmd", "w").write(" ".join(argv).replace(path, keep) + "\n" + why +
                                               "\n" + err.decode(errors="replace")[-3000:])
                print("%s: %s: %s" % (keep, why, " ".join(cmd)), flush=True)
                break
        if (i + 1) % 500 == 0:
            print("%d cases, %d failures" % (i + 1, failures), flush=True)
    print("done: %d cases, %d failures" % (n, failures))
    sys.exit(min(failures, 100))


if __name__ == "__main__":
    main()

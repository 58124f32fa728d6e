#!/usr/bin/env python3
# gen_perf_script.py SEED - writes one random perf-script-shaped text to stdout, built
# to hit the corners of stackcollapse-perf.pl's reading and naming rules (comms with
# blanks and digits, pid/tid forms, odd periods, several events, symbols with offsets,
# parens, quotes, "->", dsos holding " (", srcline lines, missing blank lines).
# Used by stackcollapse-diff.sh (a manual check, not part of the test suite).
import random, sys
seed = int(sys.argv[1]); random.seed(seed)
comms = ["sh", "a", "ab", "V8 WorkerThread", "java", "javac x", "kworker/0:1", "foo 12 bar", "x;y", "perf-exec", "0", "tab\tcomm", "\xe9t\xe9", "a  b", "12", "java_jit"]
syms = ["main", "main+0x1f", "foo+0x1F", "[unknown]", "std::vector<int>::push_back(int const&)", "(anonymous namespace)::f()", "ns::(anonymous namespace)::g(int)",
        "net/http.(*Client).Do", "runtime.main", "a;b", "RegExp:[&<>\"']", "Lorg/mozilla/Foo;.call(Lorg/X;)V", "Lfoo", "inl->inner->leaf", "a->", "->b", "->", "a->->b",
        "x_[i]->y_[i]", "(foo)", "f(", "()", "a)b", "sym+0x", "sym+0xzz", "q+0x10+0x20", "operator()", "std::function<void (int)>::operator()(int) const",
        "func_[j]", "n\"q", "[unknown]->[unknown]", "x+0xabc->y", "with space", "a (b)", "caf\xe9", "Ljava/lang/Thread;.run()V", "f.(g).h", ".()."]
dsos = ["/bin/a", "/usr/lib/x86_64-linux-gnu/libc.so.6", "[kernel.kallsyms]", "[kernel.kallsyms].init.text", "/lib/modules/x/build/vmlinux", "[vdso]", "[unknown]", "/tmp/perf-123.map",
        "/tmp/perf-.map", "/tmp/perf-1x.map", "xx/tmp/perf-99.mapyy", "/tmp/libx.so (deleted)", "", "[nf_conntrack]", "unknown_vmlinux", "[heap]", "//anon", "a(b", "dir/with space/lib.so", "a)b",
        "/x/perf-1.map", "vmlinux"]
events = ["cpu-clock:ppp:", "cycles:", "instructions:u:", "cpu-clock:"]
out = []
def header():
    c = random.choice(comms)
    pid = str(random.choice([0, 1, 8706, 12, 99999]))
    f = random.random()
    if f < 0.3: p = pid + "/" + str(random.choice([0, 5, 8707]))
    elif f < 0.35: p = pid + "//" + "7"
    elif f < 0.4: p = pid + "/"
    else: p = pid
    sep = random.choice([" ", "  ", "\t", "   "])
    cpu = random.choice(["", " [000]", " [012]"])
    t = random.choice(["662.052201:", "1.5:", "10:"])
    per = random.choice(["", " 250000", " 0", " 00", " 007", " 1", "  3"])
    ev = random.choice(events)
    tail = random.choice([" ", "", "  ", " \t"])
    if random.random() < 0.05:
        return c + sep + p + cpu + " " + t + per + " sched:sched_switch: prev_comm=x"
    if random.random() < 0.03:
        return c + sep + p + cpu + " " + t + per + " " + ev + "  ffffffff81 foo ([kernel.kallsyms])"
    return c + sep + p + cpu + " " + t + per + " " + ev + tail
def frame():
    pc = random.choice(["1462a", "0", "ffffffff8103ce3b", "55f8f303d530", "7f12"])
    s = random.choice(syms); d = random.choice(dsos)
    ind = random.choice(["\t    ", "\t", "      ", " "])
    r = random.random()
    if r < 0.03: return ind + pc + " " + s
    if r < 0.05: return ind + pc + "  " + s + " (" + d + ")"
    if r < 0.06: return ind + pc + s + " (" + d + ")"
    return ind + pc + " " + s + " (" + d + ")" + random.choice(["", "\n  t.c:2", "\n  lib.so[1a2b]", "\n  [k][ff]", "\n   x [a] y [b ", "\n"])
for i in range(random.randint(1, 40)):
    r = random.random()
    if r < 0.02: out.append("# comment")
    if r < 0.04: out.append("   ")
    out.append(header())
    for j in range(random.randint(0, 6)):
        out.append(frame())
    if random.random() < 0.9: out.append("")
sys.stdout.buffer.write(("\n".join(out) + ("\n" if random.random() < 0.8 else "")).encode("latin-1"))

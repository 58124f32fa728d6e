#!/usr/bin/env python3
"""compare_blocks.py PERF TEPHRA PERF_NOINLINE TEPHRA_NOINLINE [--max-unwind-diffs N]

Compares `perf script` and `tephra script` output of one DWARF recording sample by
sample (blocks separated by blank lines).  Two differences are allowed, both counted
and listed:
- perf stopped earlier: perf's lines (without its bogus end-of-dump frame
  `ffffffffffffffff [unknown] ([unknown])`) are a strict prefix of ours, with and
  without --no-inline.  docs/unwind.md documents the two cases seen: the end of a full
  stack dump, and perf's unwinder losing frames in a process after exec.
- perf skipped frames: the same leaf, and perf's other frames are ours with some left
  out, in order, with and without --no-inline (perf's unwinder after exec again).
- the unwinders disagree: the same sample's `--no-inline` frame lines (source lines
  left out) differ in another way (src/unwind's business).  The inline naming this
  test is about never accounts for such a block, since --no-inline prints no inline
  frame.  At most N (default 1% of the samples, at least 3).
Any other difference fails.
Exit 0 when the outputs agree under these rules."""
import sys


def blocks(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    return [b for b in text.split("\n\n") if b.strip()]


END_OF_DUMP = "ffffffffffffffff [unknown] ([unknown])"


def perf_stopped_earlier(p, o):
    """perf's frames are ours cut short; its end-of-dump frame stands for frames we
    may have walked (docs/unwind.md: n real frames and the bogus one where we show n,
    sometimes n + 1)."""
    pl, ol = p.split("\n"), o.split("\n")
    if pl and pl[-1].strip() == END_OF_DUMP:
        pl = pl[:-1]
        return len(pl) <= len(ol) and ol[:len(pl)] == pl
    return len(pl) < len(ol) and ol[:len(pl)] == pl


def perf_skipped_frames(p, o):
    """perf's frames are ours with some left out: the same sample line and leaf, and
    every later line of perf's (its end-of-dump frame dropped) found in ours, in order.
    perf 6.1's unwinder does this in a process after exec, in some recordings and not
    others (forkexec: 11 and 14 samples in two of four runs, none in the other two; its
    libunwind state survives the exec, docs/unwind.md): each frame we add is a real
    caller of the next (dl_main between _dl_new_object and _dl_sysdep_start)."""
    pl, ol = p.split("\n"), o.split("\n")
    if pl and pl[-1].strip() == END_OF_DUMP:
        pl = pl[:-1]
    if len(pl) < 2 or len(ol) <= len(pl) or pl[:2] != ol[:2]:
        return False
    rest = iter(ol[2:])
    return all(line in rest for line in pl[2:])


def frames_only(block):
    """The frame lines of a block (-F srcline's "  file:line" lines left out), so
    that a difference there is told from a source-line difference."""
    return [line for line in block.split("\n") if not line.startswith("  ")]


def main():
    args = sys.argv[1:]
    cap = None
    if "--max-unwind-diffs" in args:
        i = args.index("--max-unwind-diffs")
        cap = int(args[i + 1])
        del args[i:i + 2]
    perf, ours, perf_ni, ours_ni = (blocks(p) for p in args)
    if len(perf) != len(ours) or len(perf_ni) != len(ours_ni) or len(perf) != len(perf_ni):
        print(f"sample counts differ: perf {len(perf)}, tephra {len(ours)}, "
              f"--no-inline perf {len(perf_ni)}, tephra {len(ours_ni)}")
        return 1
    if cap is None:
        cap = max(3, len(perf) // 100)
    unwind_diffs = 0
    shorter = 0
    skipped = 0
    bad = 0
    for i, (p, o) in enumerate(zip(perf, ours)):
        if p == o:
            continue
        if perf_stopped_earlier(p, o) and perf_stopped_earlier(perf_ni[i], ours_ni[i]):
            shorter += 1
            continue
        if perf_skipped_frames(p, o) and perf_skipped_frames(perf_ni[i], ours_ni[i]):
            skipped += 1
            print(f"perf skipped frames (allowed, perf after exec) in sample {i + 1}: "
                  f"{p.splitlines()[0].strip()}")
            continue
        if frames_only(perf_ni[i]) != frames_only(ours_ni[i]):
            unwind_diffs += 1
            print(f"unwinder difference (allowed, src/unwind) in sample {i + 1}: "
                  f"{p.splitlines()[0].strip()}")
            continue
        bad += 1
        if bad <= 3:
            print(f"sample {i + 1} differs with the same unwound frames:")
            print("--- perf\n" + p + "\n--- tephra\n" + o)
    print(f"{len(perf)} samples: {len(perf) - shorter - skipped - unwind_diffs - bad} identical, "
          f"{shorter} where perf stopped earlier, {skipped} where perf skipped frames, "
          f"{unwind_diffs} unwinder differences (cap {cap}), {bad} other differences")
    return 1 if bad or unwind_diffs > cap else 0


if __name__ == "__main__":
    sys.exit(main())

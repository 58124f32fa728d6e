#!/usr/bin/env python3
# collapse.py - the tests' own independent reading of `perf script` text into folded
# stacks, following stackcollapse-perf.pl's documented rules (FlameGraph README and the
# script's comments): header "comm [pid/]tid ... period event:" starts a sample (only the
# first event seen is kept, its period is the weight, a missing/0 period counts 1); each
# "addr sym+0xoff (dso)" line is a frame (callee first); a blank line ends the sample.
# Frames: offset stripped, "[unknown]" → "[dso basename]" or "[unknown]", ';' → ':',
# arguments from the first '(' cut (not "(anonymous namespace)", not Go methods), quotes
# dropped; --kernel adds _[k] for dsos "[..]"/"..vmlinux", --jit _[j] for
# /tmp/perf-N.map, --addrs keeps unknown addresses, --event-filter=EV keeps event EV.  Usage: collapse.py [opts] < text
import re, sys

opts = set(a for a in sys.argv[1:] if not a.startswith('--event-filter='))
wanted = [a.split('=', 1)[1] for a in sys.argv[1:] if a.startswith('--event-filter=')]
kernel = '--kernel' in opts or '--all' in opts
jit = '--jit' in opts or '--all' in opts
header = re.compile(r'^(\S.+?)\s+(\d+)/*(\d+)*\s+')
evline = re.compile(r':\s*(\d+)*\s+(\S+):\s*$')
frameline = re.compile(r'^\s*(\w+)\s*(.+) \((.*)\)')
sums, stack, pname, period, event_filter = {}, [], None, 1, (wanted or [None])[0]
for line in sys.stdin:
    line = line.rstrip('\n')
    if line.startswith('#'):
        continue
    if line == '':
        if pname is not None:
            key = ';'.join([pname] + stack)
            sums[key] = sums.get(key, 0) + period
        stack, pname = [], None
        continue
    m = header.match(line)
    if m:
        comm, pid, tid = m.group(1), m.group(2), m.group(3)
        if not tid:
            pid, tid = '?', pid
        e = evline.search(line)
        period = 1
        if e:
            if event_filter is None:
                event_filter = e.group(2)
            elif e.group(2) != event_filter:
                continue
            period = int(e.group(1)) if e.group(1) else 1
        period = period or 1
        name = comm + ('-%s/%s' % (pid, tid) if '--tid' in opts else '-' + pid if '--pid' in opts else '')
        pname = name.replace(' ', '_')
        continue
    m = frameline.match(line)
    if not m or pname is None:
        continue
    pc, raw, mod = m.groups()
    raw = re.sub(r'\+0x[\da-f]+$', '', raw)
    if raw.startswith('('):
        continue
    pieces = []
    for func in raw.split('->'):
        if func == '[unknown]':
            func = re.sub(r'.*/', '', mod) if mod != '[unknown]' else 'unknown'
            func = '[%s <%s>]' % (func, pc) if '--addrs' in opts else '[%s]' % func
        func = func.replace(';', ':')
        if not re.search(r'\.\(.*\)\.', func):
            func = re.sub(r'\((?!anonymous namespace\)).*', '', func)
        func = func.replace('"', '').replace("'", '')
        if pname.startswith('java') and '/' in func:
            func = re.sub(r'^L', '', func)
        if pieces:
            func += '' if '_[i]' in func else '_[i]'
        elif kernel and re.search(r'(^\[|vmlinux$)', mod) and 'unknown' not in mod:
            func += '_[k]'
        elif jit and re.search(r'/tmp/perf-\d+\.map', mod) and '_[j]' not in func:
            func += '_[j]'
        pieces.append(func)
    stack = pieces + stack
for key in sorted(sums, key=lambda k: k.encode()):
    print('%s %d' % (key, sums[key]))

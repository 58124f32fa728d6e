# quiet-library: library code (src/) never writes to the terminal itself.  Warnings and
# progress go through base/report.h to the caller's report, errors through struct
# tephra_error, asked-for output to the FILE* the caller gives.  The one exception is
# xfatal() in src/base/xalloc.c (out of memory and limits: no caller to return to).
# Fails on any use of stdout/stderr/stdin, isatty, or the functions that print to the
# standard streams, outside comments and string literals.
python3 - "$TOP/src" <<'PY'
import os, re, sys
allowed = {os.path.join('base', 'xalloc.c')}
banned = re.compile(r'\b(stdout|stderr|stdin|isatty|printf|vprintf|puts|putchar|perror)\b')
code = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
bad = 0
for top, _, files in os.walk(sys.argv[1]):
    for f in sorted(files):
        if not f.endswith(('.c', '.h')):
            continue
        path = os.path.join(top, f)
        rel = os.path.relpath(path, sys.argv[1])
        if rel in allowed:
            continue
        text = open(path, encoding='utf-8', errors='replace').read()
        # blank comments and literals, keeping the line breaks for line numbers
        stripped = code.sub(lambda m: '\n' * m.group(0).count('\n'), text)
        for no, line in enumerate(stripped.split('\n'), 1):
            # format(printf, ...) attributes name printf without calling it
            line = re.sub(r'format\s*\(\s*printf', '', line)
            m = banned.search(line)
            if m:
                print('src/%s:%d: %s' % (rel, no, m.group(1)))
                bad = 1
sys.exit(bad)
PY

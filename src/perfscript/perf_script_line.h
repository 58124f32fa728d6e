/* perf_script_line.h - classifies one line of `perf script` text the way
 * stackcollapse-perf.pl's regular expressions do (including their odd corners, see
 * docs/folding.md).  Pure functions on (pointer, length); lines may hold any bytes. */
#ifndef TEPHRA_PERFSCRIPT_PERF_SCRIPT_LINE_H
#define TEPHRA_PERFSCRIPT_PERF_SCRIPT_LINE_H

#include <stddef.h>

struct text_span {
	const char *ptr;
	size_t len;
};

/* A sample header: "COMM PID[/TID] ...".  COMM is the shortest prefix of at least two
 * bytes, starting with a non-blank, that is followed by blanks, digits, optional
 * '/'s and digits, and a blank.  TID.len is 0 when perf printed no "/TID". */
struct script_header {
	struct text_span comm, pid, tid;
};
int script_match_header(const char *line, size_t len, struct script_header *h);

/* The event at the end of a header: "...: [PERIOD] EVENT:" followed only by blanks.
 * PERIOD.len is 0 when the line has no period column. */
struct script_event {
	struct text_span period, event;
};
int script_match_event(const char *line, size_t len, struct script_event *e);

/* A callchain line: "  PC SYM (DSO)", split at the last " (" that has a ')' after
 * it; DSO ends at the line's last ')'. */
struct script_frame {
	struct text_span pc, sym, dso;
};
int script_match_frame(const char *line, size_t len, struct script_frame *f);

/* Perl's \s on bytes: space, \t, \n, \v, \f, \r. */
static inline int script_is_blank(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

#endif

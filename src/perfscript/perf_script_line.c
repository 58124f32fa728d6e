/* perf_script_line.c - line matching equivalent to stackcollapse-perf.pl's patterns,
 * written as linear scans (no backtracking: a hostile line cannot make us slow). */
#include "perfscript/perf_script_line.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_word(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

int script_match_header(const char *s, size_t n, struct script_header *h)
{
	if (n == 0 || script_is_blank(s[0]))
		return 0;
	/* The comm may contain blanks ("V8 WorkerThread"): try each run of blanks in
	 * turn; within a run the outcome after it is the same, so each run is tried once,
	 * at its first position that leaves the comm at least two bytes long. */
	size_t i = 1;
	while (i < n) {
		if (!script_is_blank(s[i])) {
			i++;
			continue;
		}
		size_t run = i, p = i;
		while (p < n && script_is_blank(s[p]))
			p++;
		size_t comm_end = run < 2 ? 2 : run;
		i = p;
		if (comm_end >= p)
			continue;
		size_t d1 = p;
		while (p < n && is_digit(s[p]))
			p++;
		if (p == d1)
			continue;
		size_t d1_end = p;
		while (p < n && s[p] == '/')
			p++;
		size_t d2 = p;
		while (p < n && is_digit(s[p]))
			p++;
		if (p >= n || !script_is_blank(s[p]))
			continue;
		h->comm = (struct text_span){ s, comm_end };
		h->pid = (struct text_span){ s + d1, d1_end - d1 };
		h->tid = (struct text_span){ s + d2, p - d2 };
		return 1;
	}
	return 0;
}

int script_match_event(const char *s, size_t n, struct script_event *e)
{
	size_t end = n;

	while (end > 0 && script_is_blank(s[end - 1]))
		end--;
	if (end == 0 || s[end - 1] != ':')
		return 0;
	size_t ev_end = end - 1, ev = ev_end;
	while (ev > 0 && !script_is_blank(s[ev - 1]))
		ev--;
	if (ev == ev_end || ev == 0)
		return 0;
	size_t w0 = ev;
	while (w0 > 0 && script_is_blank(s[w0 - 1]))
		w0--;
	e->event = (struct text_span){ s + ev, ev_end - ev };
	if (w0 > 0 && is_digit(s[w0 - 1])) {
		size_t d0 = w0;
		while (d0 > 0 && is_digit(s[d0 - 1]))
			d0--;
		size_t v0 = d0;
		while (v0 > 0 && script_is_blank(s[v0 - 1]))
			v0--;
		if (v0 == 0 || s[v0 - 1] != ':')
			return 0;
		e->period = (struct text_span){ s + d0, w0 - d0 };
		return 1;
	}
	if (w0 == 0 || s[w0 - 1] != ':')
		return 0;
	e->period = (struct text_span){ s + w0, 0 };
	return 1;
}

int script_match_frame(const char *s, size_t n, struct script_frame *f)
{
	size_t w = 0;

	while (w < n && script_is_blank(s[w]))
		w++;
	size_t we = w;
	while (we < n && is_word(s[we]))
		we++;
	if (we == w)
		return 0;
	size_t start = we;
	while (start < n && script_is_blank(s[start]))
		start++;

	size_t close = n;
	while (close > 0 && s[close - 1] != ')')
		close--;
	if (close == 0)
		return 0;
	close--; /* index of the last ')' */
	size_t open = 0;
	int found = 0;
	for (size_t p = close >= 2 ? close - 1 : 0; p-- > 0;) { /* p <= close - 2 */
		if (s[p] == ' ' && s[p + 1] == '(') {
			open = p;
			found = 1;
			break;
		}
	}
	/* The symbol (".+") needs one byte at least, and the pc one word byte: when the
	 * split comes early the symbol takes bytes back from the blanks or the pc, as
	 * the regex's backtracking would. */
	if (!found || open < w + 2)
		return 0;
	if (open < start + 1)
		start = open - 1;
	f->pc = (struct text_span){ s + w, (we < start ? we : start) - w };
	f->sym = (struct text_span){ s + start, open - start };
	f->dso = (struct text_span){ s + open + 2, close - (open + 2) };
	return 1;
}

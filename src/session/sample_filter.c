/* sample_filter.c - perf script's sample filters, parsed and applied (see sample_filter.h). */
#include "session/sample_filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/number.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* The largest pid or tid (the kernel's PID_MAX_LIMIT, 2^22). */
#define PID_MAX 4194304

/* A comma-separated list of pids or tids for OPTION ("1,2,3"; "" is no list).  Returns
 * the number of items, or -1 with ERR on a bad number. */
static int parse_ints(const char *option, const char *list, int32_t **out,
		      struct tephra_error *err)
{
	int n = 0;
	int32_t *v = NULL;
	const char *p = list;
	while (*p) {
		size_t len = strcspn(p, ",");
		char *item = xstrndup(p, len);
		uint64_t x;
		int bad = number_parse_u64(option, item, 0, PID_MAX, &x, err);
		free(item);
		if (bad) {
			free(v);
			*out = NULL;
			return -1;
		}
		v = xrealloc(v, (size_t)(n + 1) * sizeof(*v));
		v[n++] = (int32_t)x;
		p += len + (p[len] == ',');
	}
	*out = v;
	return n;
}

/* A comma-separated list of names (blanks are part of a name). */
static size_t parse_names(const char *list, char ***out)
{
	size_t n = 0;
	char **v = NULL;
	const char *p = list;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = xstrndup(p, len);
		if (!comma)
			break;
		p = comma + 1;
	}
	*out = v;
	return n;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* Seconds with up to 9 decimals ("123.456") in ns; empty is 0.  Returns 0, or -1. */
static int parse_seconds(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0;
	*ns = 0;
	if (!len)
		return 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++)
		if ((sec = sec * 10 + (uint64_t)(s[i] - '0')) > 100000000000ULL)
			return -1;
	if (i < len && s[i] == '.') {
		size_t places = 0;
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, places++, digits++) {
			if (places == 9)
				return -1;
			frac = frac * 10 + (uint64_t)(s[i] - '0');
		}
		for (; places < 9; places++)
			frac *= 10;
	}
	if (i != len || !digits)
		return -1;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

/* A percentage "12.5%" at S (up to LEN): its value in *PCT, the characters used.
 * Returns 0 when there is none. */
static size_t parse_percent(const char *s, size_t len, double *pct)
{
	char buf[32];
	size_t n = 0;
	while (n < len && n + 1 < sizeof(buf) && ((s[n] >= '0' && s[n] <= '9') || s[n] == '.'))
		n++;
	if (!n || n >= len || s[n] != '%')
		return 0;
	memcpy(buf, s, n);
	buf[n] = 0;
	char *end;
	*pct = strtod(buf, &end);
	if (*end || *pct < 0 || *pct > 100)
		return 0;
	return n + 1;
}

static void add_range(struct sample_time_range **v, size_t *n, uint64_t start, uint64_t end)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].start = start;
	(*v)[(*n)++].end = end;
}

/* SPEC as ranges, percentages of FIRST..LAST.  Returns 0, or -1 on bad syntax. */
static int parse_times(const char *spec, uint64_t first, uint64_t last,
		       struct sample_time_range **out, size_t *nr)
{
	struct sample_time_range *v = NULL;
	size_t n = 0;
	double total = (double)(last - first);
	*out = NULL;
	*nr = 0;
	if (strchr(spec, '%')) {
		/* "A%-B%" or "A%/N", separated by commas */
		for (const char *p = spec; *p;) {
			size_t len = strcspn(p, ","), k;
			double a, b;
			if (!(k = parse_percent(p, len, &a)))
				goto bad;
			if (k < len && p[k] == '-') {
				size_t k2 = parse_percent(p + k + 1, len - k - 1, &b);
				if (!k2 || k + 1 + k2 != len)
					goto bad; /* B below A: an empty range, as perf has it */
				add_range(&v, &n, first + (uint64_t)(total * a / 100),
					  first + (uint64_t)(total * b / 100));
			} else if (k < len && p[k] == '/') {
				char *end;
				unsigned long slice = strtoul(p + k + 1, &end, 10);
				if (end != p + len || !slice || a <= 0 || (double)slice * a > 100.0 + 1e-9)
					goto bad;
				add_range(&v, &n, first + (uint64_t)(total * a * (double)(slice - 1) / 100),
					  first + (uint64_t)(total * a * (double)slice / 100));
			} else {
				goto bad;
			}
			p += len;
			if (*p == ',' && *++p == 0)
				goto bad;
		}
	} else {
		/* "START,END" in seconds, separated by blanks */
		for (const char *p = spec; *p;) {
			while (*p == ' ')
				p++;
			if (!*p)
				break;
			size_t len = strcspn(p, " ");
			const char *comma = memchr(p, ',', len);
			uint64_t start, end;
			if (!comma || parse_seconds(p, (size_t)(comma - p), &start) ||
			    parse_seconds(comma + 1, (size_t)(p + len - comma - 1), &end) ||
			    (end && end < start))
				goto bad;
			add_range(&v, &n, start, end);
			p += len;
		}
	}
	if (!n)
		goto bad;
	*out = v;
	*nr = n;
	return 0;
bad:
	free(v);
	return -1;
}

int sample_filter_times(const struct sample_filter *f, const struct perf_reader *r,
			const char *path, struct sample_time_range **ranges, size_t *nr,
			struct tephra_error *err)
{
	const struct perf_header_info *h = perf_reader_header(r);
	*ranges = NULL;
	*nr = 0;
	if (!f || !f->time)
		return 0;
	if (strchr(f->time, '%') && !h->has_sample_time) {
		tephra_error_set(err, "%s: --time in percentages needs the first and last sample "
				 "times of the SAMPLE_TIME header, which this recording lacks: give "
				 "START,END in seconds", path);
		return -1;
	}
	if (parse_times(f->time, h->first_sample_time, h->last_sample_time, ranges, nr)) {
		tephra_error_set(err, "bad --time '%s'", f->time);
		return -1;
	}
	return 0;
}

int sample_filter_time_keeps(const struct sample_time_range *ranges, size_t nr, uint64_t time)
{
	if (!nr || !time)
		return 1;
	for (size_t i = 0; i < nr; i++)
		if (time >= ranges[i].start && (!ranges[i].end || time <= ranges[i].end))
			return 1;
	return 0;
}

int sample_filter_parse(struct sample_filter *f, enum sample_filter_kind kind, const char *option,
			const char *arg, struct tephra_error *err)
{
	char opt[64];
	snprintf(opt, sizeof(opt), "--%s", option);
	switch (kind) {
	case SAMPLE_FILTER_PIDS:
	case SAMPLE_FILTER_TIDS: {
		int32_t *v;
		int n = parse_ints(opt, arg, &v, err);
		if (n < 0)
			return -1;
		int32_t **list = kind == SAMPLE_FILTER_PIDS ? &f->pids : &f->tids;
		free(*list);
		*list = v;
		*(kind == SAMPLE_FILTER_PIDS ? &f->nr_pids : &f->nr_tids) = (size_t)n;
		return 0;
	}
	case SAMPLE_FILTER_COMMS:
		free_names(f->comms, f->nr_comms);
		f->nr_comms = parse_names(arg, &f->comms);
		return 0;
	case SAMPLE_FILTER_EVENT:
		free(f->event);
		f->event = xstrdup(arg);
		return 0;
	case SAMPLE_FILTER_TIME: {
		struct sample_time_range *r;
		size_t n;
		if (parse_times(arg, 0, 1000000000000ULL, &r, &n)) {
			tephra_error_set(err, "bad --%s '%s': START,END in seconds (either may be "
					 "empty; ranges separated by blanks) or percentages A%%-B%%, "
					 "A%%/N (ranges separated by commas)", option, arg);
			return -1;
		}
		free(r);
		free(f->time);
		f->time = xstrdup(arg);
		return 0;
	}
	case SAMPLE_FILTER_MAX_STACK: {
		uint64_t n;
		if (number_parse_u64(opt, arg, 1, SAMPLE_FILTER_MAX_STACK_LIMIT, &n, err))
			return -1;
		f->max_stack = (int)n;
		return 0;
	}
	}
	tephra_error_set(err, "--%s: not a sample filter", option);
	return -1;
}

static int has_int(const int32_t *v, size_t n, int32_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

int sample_filter_keeps(const struct sample_filter *f, const struct thread *t)
{
	if (!f)
		return 1;
	if (f->comms) {
		size_t i = 0;
		while (i < f->nr_comms && strcmp(f->comms[i], t->comm))
			i++;
		if (i == f->nr_comms)
			return 0;
	}
	if (f->pids && !has_int(f->pids, f->nr_pids, t->pid))
		return 0;
	if (f->tids && !has_int(f->tids, f->nr_tids, t->tid))
		return 0;
	return 1;
}

static int name_matches(const char *want, const struct perf_event_desc *d, int exact)
{
	size_t n = strlen(want);
	if (!d->name)
		return 0;
	if (exact || d->attr.type == PERF_ATTR_TYPE_TRACEPOINT)
		return !strcmp(d->name, want);
	return !strncmp(d->name, want, n) && d->name[n] == ':';
}

int sample_filter_events(const struct sample_filter *f, const struct perf_reader *r,
			 const char *path, unsigned char **mask, struct tephra_error *err)
{
	size_t n = perf_reader_nr_events(r), found = 0;
	*mask = NULL;
	if (!f || !f->event)
		return 0;
	*mask = xcalloc(n + 1, 1);
	for (int exact = 1; exact >= 0 && !found; exact--)
		for (size_t i = 0; i < n; i++)
			if (name_matches(f->event, perf_reader_event(r, i), exact)) {
				(*mask)[i] = 1;
				found++;
			}
	if (found)
		return 0;
	/* perf's side-band "dummy" event carries no samples worth naming */
	struct strbuf names = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		const struct perf_event_desc *d = perf_reader_event(r, i);
		if (!d->name || (d->attr.type == 1 && d->attr.config == 9))
			continue;
		strbuf_addstr(&names, names.len ? ", " : "");
		strbuf_addstr(&names, d->name);
	}
	tephra_error_set(err, "%s: no event '%s' in the recording; its events: %s", path,
			 f->event, names.len ? names.buf : "none");
	strbuf_release(&names);
	free(*mask);
	*mask = NULL;
	return -1;
}

void sample_filter_free(struct sample_filter *f)
{
	free(f->event);
	free(f->time);
	free(f->pids);
	free(f->tids);
	free_names(f->comms, f->nr_comms);
	memset(f, 0, sizeof(*f));
}

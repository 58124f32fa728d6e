/* sample_filter.c - perf script's sample filters, parsed and applied (see sample_filter.h). */
#include "session/sample_filter.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

/* A comma-separated list of numbers ("1,2,3"; "" is no list).  Returns the number of
 * items, or -1 on a bad number. */
static int parse_ints(const char *list, int32_t **out)
{
	int n = 0;
	int32_t *v = NULL;
	const char *p = list;
	while (*p) {
		char *end;
		long x = strtol(p, &end, 10);
		if (end == p || (*end && *end != ',')) {
			free(v);
			*out = NULL;
			return -1;
		}
		v = xrealloc(v, (size_t)(n + 1) * sizeof(*v));
		v[n++] = (int32_t)x;
		p = *end ? end + 1 : end;
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

int sample_filter_parse(struct sample_filter *f, enum sample_filter_kind kind, const char *option,
			const char *arg, struct tephra_error *err)
{
	switch (kind) {
	case SAMPLE_FILTER_PIDS:
	case SAMPLE_FILTER_TIDS: {
		int32_t *v;
		int n = parse_ints(arg, &v);
		if (n < 0) {
			tephra_error_set(err, "bad --%s list '%s'", option, arg);
			return -1;
		}
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
	case SAMPLE_FILTER_MAX_STACK:
		f->max_stack = atoi(arg);
		if (f->max_stack <= 0) {
			tephra_error_set(err, "bad --%s '%s'", option, arg);
			return -1;
		}
		return 0;
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
	free(f->pids);
	free(f->tids);
	free_names(f->comms, f->nr_comms);
	memset(f, 0, sizeof(*f));
}

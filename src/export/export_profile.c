/* export_profile.c - the profile the export formats are written from (see
 * export_profile.h). */
#include "export/export_profile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#define GROW(arr, nr, cap, want)                                                   \
	do {                                                                       \
		if ((want) > (cap)) {                                              \
			while ((want) > (cap))                                     \
				(cap) = (cap) ? (cap) * 2 : 256;                   \
			(arr) = xrealloc((arr), (cap) * sizeof(*(arr)));           \
		}                                                                  \
	} while (0)

static uint32_t intern_string(struct export_profile *p, const char *s)
{
	if (!s)
		return 0;
	int created;
	return (uint32_t)hashmap_intern(&p->strings, s, strlen(s), &created);
}

static uint32_t intern_function(struct export_profile *p, const char *name, const char *system,
				const char *file)
{
	uint32_t k[3] = { intern_string(p, name), intern_string(p, system), intern_string(p, file) };
	int created;
	size_t i = hashmap_intern(&p->functions, k, sizeof(k), &created);
	if (created) {
		GROW(p->funcs, i, p->cap_funcs, i + 1);
		p->funcs[i] = (struct export_function){ k[0], k[1], k[2] };
	}
	return (uint32_t)i;
}

static uint32_t intern_mapping(struct export_profile *p, const char *path, const uint8_t *build_id,
			       size_t build_id_size)
{
	char hex[2 * 64 + 1] = "";
	if (build_id_size > 64)
		build_id_size = 64;
	for (size_t i = 0; i < build_id_size; i++)
		snprintf(hex + 2 * i, 3, "%02x", build_id[i]);
	uint32_t k[2] = { intern_string(p, path), intern_string(p, hex) };
	int created;
	size_t i = hashmap_intern(&p->mappings, k, sizeof(k), &created);
	if (created) {
		GROW(p->maps, i, p->cap_maps, i + 1);
		p->maps[i] = (struct export_mapping){ k[0], k[1] };
	}
	return (uint32_t)i;
}

/* Location ID (slots below it that were never described stay empty). */
static struct export_location *location_slot(struct export_profile *p, uint32_t id)
{
	if (id >= p->nr_locs) {
		GROW(p->locs, p->nr_locs, p->cap_locs, (size_t)id + 1);
		memset(p->locs + p->nr_locs, 0, ((size_t)id + 1 - p->nr_locs) * sizeof(*p->locs));
		for (size_t i = p->nr_locs; i <= id; i++)
			p->locs[i].mapping = EXPORT_NONE;
		p->nr_locs = (size_t)id + 1;
	}
	return &p->locs[id];
}

static void sink_event(void *ctx, const char *name)
{
	struct export_profile *p = ctx;
	free(p->event);
	p->event = xstrdup(name);
	p->has_sample_counts = 1;
}

static void sink_thread(void *ctx, uint32_t id, int32_t pid, int32_t tid, const char *comm)
{
	struct export_profile *p = ctx;
	if (id >= p->nr_threads) {
		GROW(p->threads, p->nr_threads, p->cap_threads, (size_t)id + 1);
		p->nr_threads = (size_t)id + 1;
	}
	p->threads[id] = (struct export_thread){ pid, tid, intern_string(p, comm) };
}

static void sink_frame(void *ctx, uint32_t id, const struct export_frame *f)
{
	struct export_profile *p = ctx;
	GROW(p->lines, p->nr_lines, p->cap_lines, p->nr_lines + f->n_lines);
	struct export_location *l = location_slot(p, id);
	l->address = f->address;
	l->mapping = f->object ? intern_mapping(p, f->object, f->build_id, f->build_id_size)
			       : EXPORT_NONE;
	l->first_line = (uint32_t)p->nr_lines;
	l->n_lines = (uint32_t)f->n_lines;
	l->function = f->function ? intern_string(p, f->function) : 0;
	for (size_t i = 0; i < f->n_lines; i++) {
		const struct export_line *in = &f->lines[i];
		p->lines[p->nr_lines++] = (struct export_loc_line){
			intern_function(p, in->name, in->system_name, in->file), in->line };
	}
}

static void add_stack(struct export_profile *p, uint32_t id, uint32_t thread, const uint32_t *frames,
		      size_t n, uint64_t weight, uint64_t samples)
{
	if (id >= p->nr_stacks) {
		GROW(p->stacks, p->nr_stacks, p->cap_stacks, (size_t)id + 1);
		memset(p->stacks + p->nr_stacks, 0, ((size_t)id + 1 - p->nr_stacks) * sizeof(*p->stacks));
		p->nr_stacks = (size_t)id + 1;
	}
	GROW(p->stack_frames, p->nr_stack_frames, p->cap_stack_frames, p->nr_stack_frames + n);
	struct export_stack *s = &p->stacks[id];
	s->thread = thread;
	s->first_frame = (uint32_t)p->nr_stack_frames;
	/* a frame the fold drops (no lines) is not part of the stack */
	for (size_t i = 0; i < n; i++)
		if (frames[i] < p->nr_locs && p->locs[frames[i]].n_lines)
			p->stack_frames[p->nr_stack_frames++] = frames[i];
	s->n_frames = (uint32_t)(p->nr_stack_frames - s->first_frame);
	s->weight = weight;
	s->samples = samples;
}

static void sink_stack(void *ctx, uint32_t id, uint32_t thread, const uint32_t *frames, size_t n)
{
	add_stack(ctx, id, thread, frames, n, 0, 0);
}

static void sink_stack_total(void *ctx, uint32_t id, uint64_t weight, uint64_t samples)
{
	struct export_profile *p = ctx;
	if (id < p->nr_stacks) {
		p->stacks[id].weight = weight;
		p->stacks[id].samples = samples;
	}
}

void export_samples_add(struct export_samples *s, uint32_t stack, uint64_t weight)
{
	uint8_t *b = byte_blocks_room(&s->bytes, 2 * VARINT_MAX);
	size_t n = varint_put(b, stack);
	n += varint_put(b + n, zigzag(weight - s->last_weight));
	byte_blocks_used(&s->bytes, n);
	s->last_weight = weight;
	s->total += weight;
	s->nr++;
}

static void sink_sample(void *ctx, uint32_t stack, uint64_t weight, uint64_t time)
{
	struct export_profile *p = ctx;
	(void)time; /* the order says it */
	export_samples_add(&p->samples, stack, weight);
}

/* The sample at BYTES + C's position. */
static int read_sample(const uint8_t *bytes, struct export_sample_cursor *c,
		       struct export_sample *out)
{
	if (!bytes)
		return 0;
	out->stack = (uint32_t)varint_get(bytes, &c->at.pos);
	c->weight += unzigzag(varint_get(bytes, &c->at.pos));
	out->weight = c->weight;
	return 1;
}

int export_samples_next(const struct export_samples *s, struct export_sample_cursor *c,
			struct export_sample *out)
{
	return read_sample(byte_blocks_next(&s->bytes, &c->at), c, out);
}

int export_samples_take(struct export_samples *s, struct export_sample_cursor *c,
			struct export_sample *out)
{
	const uint8_t *bytes = byte_blocks_take(&s->bytes, &c->at);
	if (!bytes) {
		*s = (struct export_samples){ 0 };
		c->weight = 0;
	}
	return read_sample(bytes, c, out);
}

void export_samples_release(struct export_samples *s)
{
	byte_blocks_release(&s->bytes);
	*s = (struct export_samples){ 0 };
}

struct export_profile *export_profile_new(int keep_samples)
{
	struct export_profile *p = xcalloc(1, sizeof(*p));
	hashmap_init(&p->strings);
	hashmap_init(&p->functions);
	hashmap_init(&p->mappings);
	hashmap_init(&p->folded_names);
	hashmap_init(&p->folded_stacks);
	intern_string(p, "");
	p->keep_samples = keep_samples;
	return p;
}

void export_profile_free(struct export_profile *p)
{
	if (!p)
		return;
	free(p->event);
	hashmap_release(&p->strings);
	hashmap_release(&p->functions);
	hashmap_release(&p->mappings);
	hashmap_release(&p->folded_names);
	hashmap_release(&p->folded_stacks);
	free(p->threads);
	free(p->funcs);
	free(p->maps);
	free(p->locs);
	free(p->lines);
	free(p->stacks);
	free(p->stack_frames);
	export_samples_release(&p->samples);
	free(p);
}

struct export_sink export_profile_sink(struct export_profile *p)
{
	struct export_sink s = { sink_event, sink_thread, sink_frame, sink_stack, sink_stack_total,
				 p->keep_samples ? sink_sample : NULL, p };
	return s;
}

uint64_t export_profile_total(const struct export_profile *p)
{
	uint64_t t = 0;
	for (size_t i = 0; i < p->nr_stacks; i++)
		t += p->stacks[i].weight;
	return t;
}

const char *export_profile_time_kind(const struct export_profile *p)
{
	if (!p->event)
		return NULL;
	/* the names perffold gives its off-CPU and wall profiles (no perf event's) */
	if (!strcmp(p->event, "off-cpu") || !strcmp(p->event, "wall"))
		return p->event;
	size_t n = strcspn(p->event, ":");
	if ((n == 9 && !strncmp(p->event, "cpu-clock", 9)) ||
	    (n == 10 && !strncmp(p->event, "task-clock", 10)))
		return "cpu";
	return NULL;
}

int export_profile_is_time(const struct export_profile *p)
{
	return export_profile_time_kind(p) != NULL;
}

static void add_named_stack(struct export_profile *p, uint32_t thread, char *line,
			    size_t stack_len, uint64_t weight, uint32_t **ids, size_t *cap);

/* One folded line (without its newline): 0 when added, else -1 with *WHY. */
static int folded_line(struct export_profile *p, char *line, size_t len, uint32_t **ids,
		       size_t *cap, const char **why)
{
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	if (!len)
		return 0;
	size_t end = len;
	while (end && line[end - 1] >= '0' && line[end - 1] <= '9')
		end--;
	if (end == len || !end || (line[end - 1] != ' ' && line[end - 1] != '\t')) {
		*why = "no whole-number count at the end of the line";
		return -1;
	}
	uint64_t weight = 0;
	for (size_t i = end; i < len; i++) {
		if (weight > (UINT64_C(1) << 63) / 10) {
			*why = "count too large";
			return -1;
		}
		weight = weight * 10 + (uint64_t)(line[i] - '0');
	}
	if (weight >= (UINT64_C(1) << 63)) {
		*why = "count too large";
		return -1;
	}
	size_t stack_len = end - 1;
	while (stack_len && (line[stack_len - 1] == ' ' || line[stack_len - 1] == '\t'))
		stack_len--;
	if (!stack_len) {
		*why = "no frames";
		return -1;
	}
	if (memchr(line, '\0', stack_len)) {
		*why = "NUL byte in a frame name";
		return -1;
	}
	add_named_stack(p, EXPORT_NONE, line, stack_len, weight, ids, cap);
	return 0;
}

/* Adds WEIGHT to the stack of frame names LINE[0..STACK_LEN) of THREAD (LINE is
 * written to and restored). */
static void add_named_stack(struct export_profile *p, uint32_t thread, char *line,
			    size_t stack_len, uint64_t weight, uint32_t **ids, size_t *cap)
{
	size_t n = 0, start = 0;
	for (size_t i = 0; i <= stack_len; i++) {
		if (i < stack_len && line[i] != ';')
			continue;
		int created;
		size_t loc = hashmap_intern(&p->folded_names, line + start, i - start, &created);
		if (created) {
			line[i] = '\0'; /* for the string table; restored below */
			struct export_line l = { line + start, NULL, NULL, 0 };
			struct export_frame f = { 0, NULL, NULL, 0, &l, 1 };
			sink_frame(p, (uint32_t)loc, &f);
			if (i < stack_len)
				line[i] = ';';
		}
		GROW(*ids, n, *cap, n + 1);
		(*ids)[n++] = (uint32_t)loc;
		start = i + 1;
	}
	/* the key: the thread, then the frames */
	GROW(*ids, n, *cap, n + 1);
	memmove(*ids + 1, *ids, n * sizeof(**ids));
	(*ids)[0] = thread;
	int created;
	size_t id = hashmap_intern(&p->folded_stacks, *ids, (n + 1) * sizeof(**ids), &created);
	if (created)
		add_stack(p, (uint32_t)id, thread, *ids + 1, n, 0, 0);
	struct export_stack *s = &p->stacks[id];
	/* sums saturate where the formats' signed 64-bit values end */
	s->weight = s->weight + weight > INT64_MAX ? INT64_MAX : s->weight + weight;
	s->samples = s->weight;
	/* a source with threads: each stack added is a sample, in the order added */
	if (thread != EXPORT_NONE && p->keep_samples)
		sink_sample(p, (uint32_t)id, weight, 0);
}

void export_profile_add_named(struct export_profile *p, uint32_t thread, const char *stack,
			      size_t len, uint64_t weight)
{
	if (!len)
		return;
	char *copy = xstrndup(stack, len);
	uint32_t *ids = NULL;
	size_t cap = 0;
	add_named_stack(p, thread, copy, len, weight, &ids, &cap);
	free(ids);
	free(copy);
}

void export_profile_set_unit(struct export_profile *p, const char *unit)
{
	free(p->event);
	p->event = xstrdup(unit);
	p->has_sample_counts = 0;
}

int export_profile_read_folded(struct export_profile *p, FILE *f, const char *name,
			       struct export_folded_stats *stats, struct tephra_error *err)
{
	char *line = NULL;
	size_t line_cap = 0, ids_cap = 0;
	uint32_t *ids = NULL;
	ssize_t got;
	memset(stats, 0, sizeof(*stats));
	while ((got = getline(&line, &line_cap, f)) >= 0) {
		size_t len = (size_t)got;
		const char *why = NULL;
		if (len && line[len - 1] == '\n')
			len--;
		stats->lines++;
		if (folded_line(p, line, len, &ids, &ids_cap, &why)) {
			if (!stats->bad_lines++) {
				stats->first_bad_line = stats->lines;
				stats->first_bad_why = why;
			}
		}
	}
	free(line);
	free(ids);
	if (ferror(f)) {
		tephra_error_at(err, name, -1, "read error: %s", strerror(errno));
		return -1;
	}
	return 0;
}

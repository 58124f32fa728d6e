/* trace_export.c - a guest's raw stacks into the export stage (see trace_export.h). */
#include "trace/trace_export.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/xalloc.h"
#include "symbol/symfile.h"

struct trace_export {
	const char *elf_path;
	const struct guest_syms *syms;
	struct guest_dwarf *dw;
	struct export_sink sink;
	uint8_t build_id[64];
	size_t build_id_size;
	struct hashmap frames;  /* 'a' + address, or 'n' + name → frame id */
	struct hashmap stacks;  /* frame ids → stack id */
	uint64_t *weights;      /* per stack */
	size_t cap_weights;
	uint32_t *ids;
	size_t cap_ids;
};

struct trace_export *trace_export_new(const char *elf_path, const struct guest_syms *syms,
				      struct guest_dwarf *dw, const struct export_sink *sink)
{
	struct trace_export *x = xcalloc(1, sizeof(*x));
	x->elf_path = elf_path;
	x->syms = syms;
	x->dw = dw;
	x->sink = *sink;
	hashmap_init(&x->frames);
	hashmap_init(&x->stacks);
	struct symfile sf;
	if (elf_path && symfile_open(&sf, elf_path) == 0) {
		int n = symfile_build_id(&sf, x->build_id, sizeof(x->build_id));
		x->build_id_size = n > 0 ? (size_t)n : 0;
		symfile_close(&sf);
	}
	return x;
}

/* "0x" and 1 to 16 hex digits. */
static int parse_address(const char *s, size_t len, uint64_t *out)
{
	if (len < 3 || len > 18 || s[0] != '0' || s[1] != 'x')
		return -1;
	uint64_t v = 0;
	for (size_t i = 2; i < len; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return 0;
}

static void describe_address(struct trace_export *x, uint32_t id, uint64_t addr)
{
	struct guest_dwarf_fn chain[GUEST_DWARF_MAX_CHAIN];
	struct export_line lines[GUEST_DWARF_MAX_CHAIN];
	size_t n = guest_dwarf_chain(x->dw, x->syms, addr, chain, GUEST_DWARF_MAX_CHAIN);
	for (size_t k = 0; k < n; k++) {
		const struct guest_dwarf_fn *c = &chain[n - 1 - k]; /* innermost first */
		lines[k] = (struct export_line){ c->name, c->inlined ? NULL : c->name, c->file,
						 (uint32_t)c->line };
	}
	struct export_frame f = { addr, x->elf_path, x->build_id_size ? x->build_id : NULL,
				  x->build_id_size, lines, n };
	x->sink.frame(x->sink.ctx, id, &f);
}

static uint32_t frame_id(struct trace_export *x, const char *s, size_t len)
{
	uint64_t addr;
	char key[1 + 1024 + 1];
	size_t klen;
	int is_addr = parse_address(s, len, &addr) == 0;
	if (is_addr) {
		key[0] = 'a';
		memcpy(key + 1, &addr, sizeof(addr));
		klen = 1 + sizeof(addr);
	} else {
		if (len > sizeof(key) - 2)
			len = sizeof(key) - 2;
		key[0] = 'n';
		memcpy(key + 1, s, len);
		klen = 1 + len;
	}
	int created;
	uint32_t id = (uint32_t)hashmap_intern(&x->frames, key, klen, &created);
	if (created) {
		if (is_addr) {
			describe_address(x, id, addr);
		} else {
			key[klen] = '\0';
			struct export_line l = { key + 1, NULL, NULL, 0 };
			struct export_frame f = { 0, NULL, NULL, 0, &l, 1 };
			x->sink.frame(x->sink.ctx, id, &f);
		}
	}
	return id;
}

void trace_export_stack(struct trace_export *x, const char *stack, size_t len, uint64_t weight)
{
	size_t n = 0, start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && stack[i] != ';')
			continue;
		if (n == x->cap_ids) {
			x->cap_ids = x->cap_ids ? 2 * x->cap_ids : 64;
			x->ids = xrealloc(x->ids, x->cap_ids * sizeof(*x->ids));
		}
		x->ids[n++] = frame_id(x, stack + start, i - start);
		start = i + 1;
	}
	int created;
	size_t id = hashmap_intern(&x->stacks, x->ids, n * sizeof(*x->ids), &created);
	if (created) {
		x->sink.stack(x->sink.ctx, (uint32_t)id, UINT32_MAX, x->ids, n);
		if (id >= x->cap_weights) {
			x->cap_weights = x->cap_weights ? 2 * x->cap_weights : 256;
			x->weights = xrealloc(x->weights, x->cap_weights * sizeof(*x->weights));
		}
		x->weights[id] = 0;
	}
	x->weights[id] += weight;
	if (x->sink.sample)
		x->sink.sample(x->sink.ctx, (uint32_t)id, weight, 0);
}

void trace_export_finish(struct trace_export *x)
{
	/* one instruction, one "sample": the weights are the counts */
	for (size_t i = 0; i < hashmap_count(&x->stacks); i++)
		x->sink.stack_total(x->sink.ctx, (uint32_t)i, x->weights[i], x->weights[i]);
	hashmap_release(&x->frames);
	hashmap_release(&x->stacks);
	free(x->weights);
	free(x->ids);
	free(x);
}

int trace_export_read(struct trace_export *x, FILE *f, const char *name, struct tephra_error *err)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	uint64_t off = 0;
	int rc = 0;
	while ((got = getline(&line, &cap, f)) > 0) {
		size_t len = (size_t)got;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		if (!len) {
			off += (uint64_t)got;
			continue;
		}
		size_t digits = len;
		while (digits && line[digits - 1] >= '0' && line[digits - 1] <= '9')
			digits--;
		uint64_t weight = 0;
		int ok = digits < len && len - digits <= 19 && digits > 1 && line[digits - 1] == ' ';
		for (size_t i = digits; ok && i < len; i++)
			weight = weight * 10 + (uint64_t)(line[i] - '0');
		if (!ok) {
			tephra_error_at(err, name, (int64_t)off, "not a folded line \"stack count\"");
			rc = -1;
			break;
		}
		trace_export_stack(x, line, digits - 1, weight);
		off += (uint64_t)got;
	}
	if (!rc && ferror(f)) {
		tephra_error_at(err, name, (int64_t)off, "read error: %s", strerror(errno));
		rc = -1;
	}
	free(line);
	return rc;
}

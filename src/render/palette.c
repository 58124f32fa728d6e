/* palette.c - frame colours (see palette.h). */
#include "render/palette.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/out_file.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

static const char *const names[] = {
	"hot", "mem", "io", "red", "green", "blue", "aqua", "yellow", "purple", "orange",
	"java", "js", "perl", "python", "rust", "wakeup", "chain",
};

int palette_parse(const char *name, enum palette_kind *out)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*out = (enum palette_kind)i;
			return 0;
		}
	return -1;
}

const char *palette_names(void)
{
	return "hot (default), mem, io, red, green, blue, aqua, yellow, purple, orange, "
	       "java, js, perl, python, rust, wakeup, chain";
}

/* Three numbers in [0,1) that depend only on the name. */
struct shade {
	double v1, v2, v3;
};

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* FNV-1a, then mix64: not base/hashmap's hash_bytes, because this function defines the
 * colours every graph shows (the same name keeps its colour from one version to the next). */
static struct shade shade_mixed(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	h = mix64(h);
	struct shade sh = {
		(double)(h & 0xffff) / 65536.0,
		(double)((h >> 16) & 0xffff) / 65536.0,
		(double)((h >> 32) & 0xffff) / 65536.0,
	};
	return sh;
}

/* Early characters decide most of the value, so names sharing a prefix look alike. */
static double prefix_weighted(const char *s, size_t len, int backwards)
{
	double v = 0, total = 0, weight = 1;

	for (size_t i = 0; i < len && i < 10; i++) {
		unsigned char c = (unsigned char)s[backwards ? len - 1 - i : i];
		v += weight * (double)(c % 32) / 32.0;
		total += weight;
		weight *= 0.65;
	}
	return total > 0 ? v / total : 0;
}

static struct shade shade_similar(const char *s, size_t len)
{
	struct shade sh;

	sh.v1 = prefix_weighted(s, len, 0);
	sh.v2 = sh.v3 = prefix_weighted(s, len, 1);
	return sh;
}

static struct rgb mk(double r, double g, double b)
{
	struct rgb c = { (uint8_t)(r > 255 ? 255 : r), (uint8_t)(g > 255 ? 255 : g),
			 (uint8_t)(b > 255 ? 255 : b) };
	return c;
}

/* The single-hue families, each a band of shades. */
static struct rgb family(enum palette_kind k, struct shade s)
{
	switch (k) {
	case PAL_MEM:    return mk(0, 190 + 50 * s.v2, 210 * s.v1);
	case PAL_IO:     return mk(80 + 60 * s.v1, 80 + 60 * s.v1, 190 + 55 * s.v2);
	case PAL_RED:    return mk(200 + 55 * s.v1, 50 + 80 * s.v1, 50 + 80 * s.v1);
	case PAL_GREEN:  return mk(50 + 60 * s.v1, 200 + 55 * s.v1, 50 + 60 * s.v1);
	case PAL_BLUE:   return mk(80 + 60 * s.v1, 80 + 60 * s.v1, 205 + 50 * s.v1);
	case PAL_AQUA:   return mk(50 + 60 * s.v1, 165 + 55 * s.v1, 165 + 55 * s.v1);
	case PAL_YELLOW: return mk(175 + 55 * s.v1, 175 + 55 * s.v1, 50 + 20 * s.v1);
	case PAL_PURPLE: return mk(190 + 65 * s.v1, 80 + 60 * s.v1, 190 + 65 * s.v1);
	case PAL_ORANGE: return mk(190 + 65 * s.v1, 90 + 65 * s.v1, 0);
	case PAL_HOT:
	default:         return mk(205 + 50 * s.v3, 230 * s.v1, 55 * s.v2);
	}
}

static int has(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && !memcmp(s, prefix, n);
}

/* The annotation of stackcollapse's --kernel/--inline/--jit and wakeup chains. */
static char annotation(const char *s, size_t len)
{
	if (len >= 4 && s[len - 4] == '_' && s[len - 3] == '[' && s[len - 1] == ']')
		return s[len - 2];
	return 0;
}

/* Which family a frame belongs to under palette K. */
static enum palette_kind family_of(enum palette_kind k, const char *s, size_t len)
{
	char a = annotation(s, len);

	switch (k) {
	case PAL_WAKEUP:
		return PAL_AQUA;
	case PAL_CHAIN:
		return a == 'w' ? PAL_AQUA : PAL_BLUE;
	case PAL_HOT: case PAL_JAVA: case PAL_JS: case PAL_PERL: case PAL_PYTHON: case PAL_RUST:
		if (starts(s, len, "[off-cpu: ")) /* --wall's waits: blue, as off-CPU graphs are */
			return PAL_BLUE;
		if (a == 'k')
			return PAL_ORANGE;
		if (a == 'i' || a == 'w')
			return PAL_AQUA;
		if (a == 'j')
			return PAL_GREEN;
		break;
	default:
		return k;
	}
	switch (k) {
	case PAL_JAVA:
		if (has(s, len, ":::") || starts(s, len, "java/") || starts(s, len, "javax/") ||
		    starts(s, len, "jdk/") || starts(s, len, "sun/") || starts(s, len, "org/") ||
		    starts(s, len, "com/") || starts(s, len, "net/") || starts(s, len, "io/") ||
		    starts(s, len, "Ljava/") || starts(s, len, "Ljavax/") || starts(s, len, "Ljdk/"))
			return PAL_GREEN;   /* Java code */
		if (has(s, len, "::"))
			return PAL_YELLOW;  /* C++ (the JVM itself) */
		return PAL_RED;             /* native C */
	case PAL_JS:
		if (has(s, len, ".js") || starts(s, len, "LazyCompile:") ||
		    starts(s, len, "Function:") || starts(s, len, "JS:"))
			return PAL_GREEN;   /* JavaScript */
		if (has(s, len, "::"))
			return PAL_YELLOW;  /* C++ (V8, node) */
		return PAL_RED;
	case PAL_PERL:
		if (has(s, len, "::"))
			return PAL_YELLOW;  /* Perl modules */
		if (has(s, len, "Perl") || has(s, len, ".pl") || has(s, len, ".pm"))
			return PAL_GREEN;   /* the interpreter and scripts */
		return PAL_RED;
	case PAL_PYTHON:
		if (has(s, len, ".py") || has(s, len, "<module>"))
			return PAL_GREEN;   /* Python code */
		if (starts(s, len, "_Py") || starts(s, len, "Py"))
			return PAL_YELLOW;  /* the interpreter */
		return PAL_RED;
	case PAL_RUST:
		if (starts(s, len, "std::") || starts(s, len, "core::") || starts(s, len, "alloc::") ||
		    starts(s, len, "<std::") || starts(s, len, "<core::") || starts(s, len, "<alloc::"))
			return PAL_YELLOW;  /* the standard library */
		if (has(s, len, "::"))
			return PAL_GREEN;   /* crate code */
		return PAL_RED;             /* C and the runtime */
	default:
		return k;
	}
}

struct rgb palette_color(enum palette_kind kind, int similar_hash, const char *name, size_t len)
{
	struct shade s = similar_hash ? shade_similar(name, len) : shade_mixed(name, len);

	return family(family_of(kind, name, len), s);
}

struct rgb palette_diff_color(double delta, double max_abs_delta)
{
	double x = max_abs_delta > 0 ? (delta < 0 ? -delta : delta) / max_abs_delta : 0;
	if (x > 1)
		x = 1;
	double fade = 210 * (1 - x);

	if (delta > 0)
		return mk(255, fade, fade);
	if (delta < 0)
		return mk(fade, fade, 255);
	return mk(255, 255, 255);
}

/* --- consistent palette file --- */

/* Name bytes (which may hold NUL bytes) -> colour, packed as 0xRRGGBB. */
struct palette_map {
	struct hashmap names;
};

static uint64_t pack(struct rgb c)
{
	return (uint64_t)c.r << 16 | (uint64_t)c.g << 8 | c.b;
}

static struct rgb unpack(uint64_t v)
{
	struct rgb c = { (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
	return c;
}

static void map_put(struct palette_map *m, const char *s, size_t len, struct rgb c)
{
	size_t i = hashmap_intern(&m->names, s, len, NULL);
	hashmap_entry(&m->names, i)->value = pack(c);
}

struct palette_map *palette_map_load(const char *path, struct tephra_error *err)
{
	struct palette_map *m = xcalloc(1, sizeof(*m));
	hashmap_init(&m->names);
	FILE *f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return m;
		tephra_error_at(err, path, -1, "cannot open: %s", strerror(errno));
		palette_map_free(m);
		return NULL;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long off = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		size_t len = (size_t)n;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		line[len] = '\0';
		char *arrow = len ? memmem(line, len, "->rgb(", 6) : NULL;
		unsigned r, g, b;
		char close;
		if (len && (!arrow || sscanf(arrow + 6, "%u,%u,%u%c", &r, &g, &b, &close) != 4 ||
			    close != ')' || r > 255 || g > 255 || b > 255)) {
			tephra_error_at(err, path, off, "not a \"name->rgb(R,G,B)\" line");
			free(line);
			fclose(f);
			palette_map_free(m);
			return NULL;
		}
		if (len) {
			struct rgb c = { (uint8_t)r, (uint8_t)g, (uint8_t)b };
			map_put(m, line, (size_t)(arrow - line), c);
		}
		off += n;
	}
	int read_errno = errno;
	free(line);
	if (ferror(f)) { /* a directory opens, then fails to read: not an empty palette */
		tephra_error_at(err, path, off, "read error: %s", strerror(read_errno));
		fclose(f);
		palette_map_free(m);
		return NULL;
	}
	fclose(f);
	return m;
}

struct rgb palette_map_get(struct palette_map *m, const char *name, size_t len, struct rgb color)
{
	int created;
	size_t i = hashmap_intern(&m->names, name, len, &created);

	if (created)
		hashmap_entry(&m->names, i)->value = pack(color);
	return unpack(hashmap_entry(&m->names, i)->value);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct hashmap_entry *x = *(const struct hashmap_entry *const *)a;
	const struct hashmap_entry *y = *(const struct hashmap_entry *const *)b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->key, y->key, n);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

int palette_map_save(const struct palette_map *m, const char *path, struct tephra_error *err)
{
	size_t n = hashmap_count(&m->names);
	const struct hashmap_entry **sorted = xmalloc(sizeof(*sorted) * (n ? n : 1));
	for (size_t i = 0; i < n; i++)
		sorted[i] = hashmap_entry(&m->names, i);
	qsort(sorted, n, sizeof(*sorted), cmp_entry);
	struct out_file o;
	if (out_file_open(&o, path, err) != 0) {
		free(sorted);
		return -1;
	}
	FILE *f = o.f;
	for (size_t i = 0; i < n; i++) {
		/* A name holding a newline could not be read back; such names are not kept. */
		if (memchr(sorted[i]->key, '\n', sorted[i]->len))
			continue;
		struct rgb c = unpack(sorted[i]->value);
		fwrite(sorted[i]->key, 1, sorted[i]->len, f);
		fprintf(f, "->rgb(%u,%u,%u)\n", c.r, c.g, c.b);
	}
	free(sorted);
	return out_file_commit(&o, err);
}

void palette_map_free(struct palette_map *m)
{
	if (!m)
		return;
	hashmap_release(&m->names);
	free(m);
}

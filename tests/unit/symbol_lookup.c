/* symbol_lookup - unit test of the symbol store, and the lookup driver of the oracle
 * tests in tests/symbol/.
 *
 * Without arguments: checks hand-worked cases (tables written here, expected names
 * and offsets worked out by hand).
 * With --lookup: reads lines "PATH BUILD-ID ADDR" (BUILD-ID hex or "-", ADDR hex in the
 * dso's lookup space) from stdin and prints "NAME+0xOFF" or "[unknown]" per line, the
 * way perf script prints a callchain symbol.
 * With --inline: the same input; prints the frames perf prints for that address in a
 * DWARF callchain, joined by " | ": "name+0xOFF (inlined)" / "name+0xOFF (DSO)", or
 * just the plain "NAME+0xOFF" when no DWARF covers it.
 * With --srcline: prints "FILE:LINE" (FILE's last component, as perf prints it) or
 * "??:0" when DWARF does not say: dso_srcline, DWARF's own answer (`tephra fold
 * --srcline`).
 * With --frame-srcline: prints what perf 6.1 prints under a plain frame for -F srcline
 * (binutils addr2line's answer, dso_frame_srcline: what `tephra script` prints): the
 * "FILE:LINE" text, "??:0" when perf prints nothing, "-" when addr2line answers
 * nothing.  The two differ where binutils 2.40 misreads DWARF (docs/symbols.md).
 *   options: --buildid-dir DIR  --kallsyms FILE  --debug-dir DIR  --symfs DIR
 *            --no-demangle */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol/symbol_demangle.h"
#include "symbol/perf_rbtree.h"
#include "symbol/symbol_store.h"
#include "symbol/symbol_table.h"

static int failures;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);        \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			failures++;                                            \
		}                                                              \
	} while (0)

static size_t parse_hex_bytes(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;
	if (strcmp(s, "-") == 0)
		return 0;
	while (s[0] && s[1] && n < cap) {
		unsigned v;
		if (sscanf(s, "%2x", &v) != 1)
			break;
		out[n++] = (uint8_t)v;
		s += 2;
	}
	return n;
}

struct chain_print {
	uint64_t off;
	int n;
};

static void print_inline(void *arg, const char *name, int inlined)
{
	struct chain_print *c = arg;
	printf("%s%s+0x%llx (%s)", c->n++ ? " | " : "", name, (unsigned long long)c->off,
	       inlined ? "inlined" : "DSO");
}

static int run_lookup(int argc, char **argv)
{
	int inline_mode = strcmp(argv[1], "--inline") == 0;
	int srcline_mode = strcmp(argv[1], "--srcline") == 0;
	int frame_srcline_mode = strcmp(argv[1], "--frame-srcline") == 0;
	struct symbol_options o = { 0 };
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--buildid-dir") && i + 1 < argc)
			o.buildid_dir = argv[++i];
		else if (!strcmp(argv[i], "--kallsyms") && i + 1 < argc)
			o.kallsyms = argv[++i];
		else if (!strcmp(argv[i], "--debug-dir") && i + 1 < argc)
			o.debug_dir = argv[++i];
		else if (!strcmp(argv[i], "--symfs") && i + 1 < argc)
			o.root_dir = argv[++i];
		else if (!strcmp(argv[i], "--no-demangle"))
			o.no_demangle = 1;
		else {
			fprintf(stderr, "symbol_lookup: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	struct symbol_store *st = symbol_store_new(&o);
	char path[4096], bidtxt[128];
	unsigned long long addr;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, stdin) > 0) {
		if (sscanf(line, "%4095s %127s %llx", path, bidtxt, &addr) != 3) {
			printf("?\n");
			continue;
		}
		uint8_t bid[20];
		size_t n = parse_hex_bytes(bidtxt, bid, sizeof(bid));
		struct dso *d = symbol_store_dso(st, path, n ? bid : NULL, n);
		const struct dso_symbol *s = dso_find_symbol(d, addr);
		if (srcline_mode) {
			const char *file;
			unsigned lineno;
			if (dso_srcline(d, addr, &file, &lineno) == 0) {
				const char *base = strrchr(file, '/');
				printf("%s:%u\n", base ? base + 1 : file, lineno);
			} else {
				printf("??:0\n");
			}
			continue;
		}
		if (frame_srcline_mode) {
			char *text;
			uint64_t file_addr;
			int rc = dso_frame_srcline(d, addr, &text, &file_addr);
			printf("%s\n", rc > 0 ? text : rc == 0 ? "??:0" : "-");
			free(text);
			continue;
		}
		if (inline_mode) {
			struct chain_print c = { s ? addr - s->start : addr, 0 };
			if (dso_inline_chain(d, addr, print_inline, &c) > 0) {
				putchar('\n');
				continue;
			}
		}
		if (s)
			printf("%s+0x%llx\n", s->name, addr - (unsigned long long)s->start);
		else
			printf("[unknown]\n");
	}
	free(line);
	symbol_store_free(st);
	return 0;
}

static const char *find_name(struct symbol_table *t, uint64_t addr, uint64_t *start)
{
	const struct dso_symbol *s = symbol_table_find(t, addr);
	if (!s)
		return NULL;
	*start = s->start;
	return s->name;
}

static void test_table_rules(void)
{
	struct symbol_table t = { 0 };
	uint64_t start = 0;

	/* 0x100 sized 0x10; 0x200 zero-size (ends at 0x300); aliases at 0x300:
	 * weak "w" size 8, global "__g" size 8, global "g2" size 8 -> non-weak, global,
	 * then fewer underscores: "g2"; 0x400 local "loc" size 0 and global "glob" size 0
	 * (both end at 0x500: global wins); 0x500 last zero-size symbol: ends at the next
	 * page boundary plus a page = 0x2000. */
	symbol_table_add(&t, 0x100, 0x10, 1, "f");
	symbol_table_add(&t, 0x200, 0, 1, "z");
	symbol_table_add(&t, 0x300, 8, 2, "w");
	symbol_table_add(&t, 0x300, 8, 1, "__g");
	symbol_table_add(&t, 0x300, 8, 1, "g2");
	symbol_table_add(&t, 0x400, 0, 0, "loc");
	symbol_table_add(&t, 0x400, 0, 1, "glob");
	symbol_table_add(&t, 0x500, 0, 1, "last");
	symbol_table_finish(&t, 0);

	CHECK(find_name(&t, 0xff, &start) == NULL, "below first symbol");
	const char *n = find_name(&t, 0x10f, &start);
	CHECK(n && !strcmp(n, "f") && start == 0x100, "f covers 0x10f");
	CHECK(find_name(&t, 0x110, &start) == NULL, "f ends at 0x110 (exclusive)");
	n = find_name(&t, 0x2ff, &start);
	CHECK(n && !strcmp(n, "z"), "zero-size z extends to 0x300");
	n = find_name(&t, 0x304, &start);
	CHECK(n && !strcmp(n, "g2"), "alias choice at 0x300 gave %s", n ? n : "NULL");
	CHECK(find_name(&t, 0x308, &start) == NULL, "gap after sized aliases");
	n = find_name(&t, 0x4ff, &start);
	CHECK(n && !strcmp(n, "glob"), "global beats local at 0x400: %s", n ? n : "NULL");
	n = find_name(&t, 0x1fff, &start);
	CHECK(n && !strcmp(n, "last"), "last symbol to 0x2000");
	CHECK(find_name(&t, 0x2000, &start) == NULL, "last symbol ends at 0x2000");
	symbol_table_release(&t);

	/* Equal in every rule: the first one listed stays. */
	symbol_table_add(&t, 0x10, 4, 1, "ab");
	symbol_table_add(&t, 0x10, 4, 1, "cd");
	symbol_table_finish(&t, 0);
	n = find_name(&t, 0x10, &start);
	CHECK(n && !strcmp(n, "ab"), "tie keeps first: %s", n ? n : "NULL");
	symbol_table_release(&t);

	/* Longer name wins among otherwise equal symbols. */
	symbol_table_add(&t, 0x10, 4, 1, "ab");
	symbol_table_add(&t, 0x10, 4, 1, "abc");
	symbol_table_finish(&t, 0);
	n = find_name(&t, 0x10, &start);
	CHECK(n && !strcmp(n, "abc"), "longer name wins: %s", n ? n : "NULL");
	symbol_table_release(&t);
}

static void test_demangle(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		/* C++: no parameter lists (perf's default, DMGL_NO_OPTS) */
		{ "_ZN3geo5scaleEli", "geo::scale" },
		{ "_ZNK3geo4GridIdE3sumEi", "geo::Grid<double>::sum" },
		/* Rust legacy: hash suffix dropped */
		{ "_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write" },
		/* OCaml: "__" -> ".", $xx escapes, trailing _stamp dropped */
		{ "camlStdlib__bytes__of_string_114", "Stdlib.bytes.of_string" },
		{ "camlFoo$3ebar_12", "Foo>bar" },
		{ "camlfoo", NULL },
		{ "main", NULL },
		{ "_start", NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = symbol_demangle(cases[i].in);
		if (!cases[i].out)
			CHECK(d == NULL, "%s should not demangle (got %s)", cases[i].in, d);
		else
			CHECK(d && !strcmp(d, cases[i].out), "%s -> %s (want %s)", cases[i].in,
			      d ? d : "NULL", cases[i].out);
		free(d);
	}
}

static char *write_temp(const char *dir, const char *name, const char *text)
{
	char *path = NULL;
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		abort();
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_kallsyms_and_jit(void)
{
	char dir[] = "/tmp/symbol_lookup_test.XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	/* Hand-made kallsyms: 'r' (rodata) and 'A'/'a' types are not kept; two aliases
	 * at 0x...1000 (global _stext vs global _text, same length: first stays... both
	 * zero-size at first; the end fix-up runs first so only the later one gets a
	 * length (0x1000..0x1040) and wins).  A module symbol follows. */
	char *ks = write_temp(dir, "kallsyms",
		"ffffffff81000000 A abs_thing\n"
		"ffffffff81001000 T _stext\n"
		"ffffffff81001000 T _text\n"
		"ffffffff81001040 t local_fn\n"
		"ffffffff81001100 r some_rodata\n"
		"ffffffff81001200 W weak_fn\n"
		"ffffffffc0001000 t mod_fn\t[mymod]\n"
		"ffffffffc0001080 T mod_fn2\t[mymod]\n");
	struct symbol_options o = { .kallsyms = ks };
	struct symbol_store *st = symbol_store_new(&o);
	struct dso *k = symbol_store_dso(st, "[kernel.kallsyms]", NULL, 0);
	const struct dso_symbol *s;
	s = dso_find_symbol(k, 0xffffffff81001010);
	CHECK(s && !strcmp(s->name, "_text") && s->start == 0xffffffff81001000, "_text alias");
	s = dso_find_symbol(k, 0xffffffff81001150);
	/* rodata is skipped, so local_fn runs to weak_fn */
	CHECK(s && !strcmp(s->name, "local_fn"), "local_fn over skipped rodata: %s",
	      s ? s->name : "NULL");
	/* weak_fn is the last kernel symbol before a module one: it ends one page after
	 * its start, rounded up to a page: 0xffffffff81003000 */
	s = dso_find_symbol(k, 0xffffffff81002fff);
	CHECK(s && !strcmp(s->name, "weak_fn"), "weak_fn to page end");
	s = dso_find_symbol(k, 0xffffffff81003000);
	CHECK(s == NULL, "gap before modules");
	s = dso_find_symbol(k, 0xffffffffc0001010);
	CHECK(s == NULL, "module symbol not in the kernel dso");
	struct dso *m = symbol_store_dso(st, "[mymod]", NULL, 0);
	s = dso_find_symbol(m, 0xffffffffc0001010);
	CHECK(s && !strcmp(s->name, "mod_fn"), "module symbol");
	/* the last symbol: up to its page end plus one page */
	s = dso_find_symbol(m, 0xffffffffc0002fff);
	CHECK(s && !strcmp(s->name, "mod_fn2"), "last module symbol");
	CHECK(dso_find_symbol(m, 0xffffffffc0003000) == NULL, "after last symbol");

	/* JIT maps are known by their /tmp/perf-PID.map name; with root_dir=DIR the
	 * file is read from DIR/tmp/perf-PID.map. */
	struct symbol_options o3 = { .root_dir = dir };
	char *tmpdir = NULL;
	if (asprintf(&tmpdir, "%s/tmp", dir) < 0)
		abort();
	mkdir(tmpdir, 0700);
	char *jit2 = write_temp(tmpdir, "perf-4242.map",
		"7f0000001000 40 jitted_one\n"
		"7f0000001040 10 LazyCompile:~foo bar.js:1\n"
		"garbage line\n");
	struct symbol_store *st3 = symbol_store_new(&o3);
	struct dso *jd = symbol_store_dso(st3, "/tmp/perf-4242.map", NULL, 0);
	CHECK(dso_kind(jd) == DSO_JIT_MAP, "perf map kind");
	s = dso_find_symbol(jd, 0x7f000000103f);
	CHECK(s && !strcmp(s->name, "jitted_one"), "jit symbol");
	s = dso_find_symbol(jd, 0x7f0000001045);
	CHECK(s && !strcmp(s->name, "LazyCompile:~foo bar.js:1"), "jit name with spaces");
	CHECK(dso_find_symbol(jd, 0x7f0000001050) == NULL, "after last jit symbol");
	symbol_store_free(st3);

	symbol_store_free(st);
	unlink(jit2);
	rmdir(tmpdir);
	unlink(ks);
	rmdir(dir);
	free(ks);
	free(jit2);
	free(tmpdir);
}

/* Checks red-black rules below N; returns the black height, -1 on a violation. */
static int rb_check(const struct perf_rbtree *t, uint32_t n, uint64_t lo, uint64_t hi)
{
	if (n == PERF_RBTREE_NIL)
		return 1;
	if (t->key[n] < lo || t->key[n] > hi)
		return -1;
	uint32_t l = t->left[n], r = t->right[n];
	if (t->red[n] && ((l != PERF_RBTREE_NIL && t->red[l]) ||
			  (r != PERF_RBTREE_NIL && t->red[r])))
		return -1;
	if ((l != PERF_RBTREE_NIL && t->parent[l] != n) ||
	    (r != PERF_RBTREE_NIL && t->parent[r] != n))
		return -1;
	int hl = rb_check(t, l, lo, t->key[n]), hr = rb_check(t, r, t->key[n], hi);
	if (hl < 0 || hr < 0 || hl != hr)
		return -1;
	return hl + !t->red[n];
}

/* The mirrored rbtree must stay a valid red-black tree through inserts (with equal
 * keys) and erasures in any order. */
static void test_rbtree(void)
{
	struct perf_rbtree t;
	unsigned seed = 7;
	perf_rbtree_init(&t);
	enum { N = 3000 };
	static uint8_t live[N];
	memset(live, 0, sizeof(live));
	for (uint32_t id = 0; id < N; id++) {
		seed = seed * 1103515245u + 12345u;
		perf_rbtree_insert(&t, id, (seed >> 8) % 500);   /* many equal keys */
		live[id] = 1;
		if (id % 3 == 2) {
			seed = seed * 1103515245u + 12345u;
			uint32_t victim = (seed >> 8) % (id + 1);
			if (live[victim]) {
				perf_rbtree_erase(&t, victim);
				live[victim] = 0;
			}
		}
		if (id % 97 == 0)
			CHECK(rb_check(&t, t.root, 0, UINT64_MAX) > 0, "rbtree invalid after %u", id);
	}
	CHECK(t.root == PERF_RBTREE_NIL || !t.red[t.root], "red root");
	CHECK(rb_check(&t, t.root, 0, UINT64_MAX) > 0, "rbtree invalid at end");
	size_t count = 0;
	for (uint32_t id = 0; id < N; id++)
		if (live[id]) {
			perf_rbtree_erase(&t, id);
			if (++count % 211 == 0)
				CHECK(rb_check(&t, t.root, 0, UINT64_MAX) > 0, "invalid while draining");
		}
	CHECK(t.root == PERF_RBTREE_NIL, "tree not empty after erasing everything");
	perf_rbtree_release(&t);
}

static void ignore_inline(void *arg, const char *name, int inlined)
{
	(void)arg;
	(void)name;
	(void)inlined;
}

/* Damaged ELF files (truncated, bytes overwritten) must load as "no symbols" or as
 * whatever survives, never crash: run under ASan too. */
static void test_damaged_elf(void)
{
	FILE *in = fopen("/proc/self/exe", "rb");
	if (!in) {
		CHECK(0, "cannot read /proc/self/exe");
		return;
	}
	size_t cap = 1 << 20, n = 0;
	unsigned char *img = malloc(cap);
	size_t r;
	while ((r = fread(img + n, 1, cap - n, in)) > 0) {
		n += r;
		if (n == cap)
			img = realloc(img, cap *= 2);
	}
	fclose(in);
	char dir[] = "/tmp/symbol_damaged.XXXXXX";
	if (!mkdtemp(dir)) {
		free(img);
		return;
	}
	char path[128];
	snprintf(path, sizeof(path), "%s/damaged", dir);
	unsigned seed = 12345;
	for (int round = 0; round < 60; round++) {
		unsigned char *copy = malloc(n);
		memcpy(copy, img, n);
		size_t len = n;
		if (round % 3 == 0) {
			len = (size_t)(n * (round + 1) / 61);          /* truncated */
		} else {
			for (int k = 0; k < 40; k++) {                 /* bytes overwritten */
				seed = seed * 1103515245u + 12345u;
				size_t at = (seed >> 4) % (round % 2 ? 4096 : n);
				copy[at] = (unsigned char)(seed >> 20);
			}
		}
		FILE *out = fopen(path, "wb");
		if (out) {
			fwrite(copy, 1, len, out);
			fclose(out);
		}
		free(copy);
		struct symbol_options o = { .buildid_dir = dir, .debug_dir = dir };
		struct symbol_store *st = symbol_store_new(&o);
		struct dso *d = symbol_store_dso(st, path, NULL, 0);
		for (uint64_t a = 0; a < 0x20000; a += 0x101)
			(void)dso_find_symbol(d, a);
		const char *file;
		unsigned line;
		(void)dso_srcline(d, 0x1100, &file, &line);
		for (uint64_t a = 0x1000; a < 0x3000; a += 0x33)
			(void)dso_inline_chain(d, a, ignore_inline, NULL);
		symbol_store_free(st);
	}
	unlink(path);
	rmdir(dir);
	free(img);
}

int main(int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "--lookup") == 0 || strcmp(argv[1], "--inline") == 0 ||
			 strcmp(argv[1], "--srcline") == 0 || strcmp(argv[1], "--frame-srcline") == 0))
		return run_lookup(argc, argv);
	test_table_rules();
	test_demangle();
	test_kallsyms_and_jit();
	test_damaged_elf();
	test_rbtree();
	if (failures)
		fprintf(stderr, "symbol_lookup: %d failures\n", failures);
	return failures != 0;
}

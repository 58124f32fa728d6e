/* Unit tests of fold_table: summing, bytewise sorting by stack text, empty names and
 * stacks, bytes >= 0x80, many frames and stacks; plus an adds/second figure (printed,
 * not asserted). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fold/fold_table.h"

#include "unit/check.h"

/* Writes the table to memory and compares with EXPECTED (written by hand). */
static void check_output(const struct fold_table *t, const char *expected, int line)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (fold_table_write(t, f) != 0) {
		fprintf(stderr, "line %d: write failed\n", line);
		failures++;
	}
	fclose(f);
	if (len != strlen(expected) || memcmp(buf, expected, len) != 0) {
		fprintf(stderr, "line %d: output differs\n--- expected\n%s--- got\n%.*s---\n",
			line, expected, (int)len, buf);
		failures++;
	}
	free(buf);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t fr(struct fold_table *t, const char *s)
{
	return fold_table_frame(t, s, strlen(s));
}

static void test_sum_and_sort(void)
{
	struct fold_table *t = fold_table_new();
	uint32_t a = fr(t, "a"), b = fr(t, "b"), c = fr(t, "c"), bang = fr(t, "a!");

	CHECK(a == 0 && b == 1 && c == 2 && bang == 3);
	CHECK(fr(t, "b") == b); /* interning is stable */
	CHECK(fold_table_nr_frames(t) == 4);
	CHECK(!strcmp(fold_table_frame_name(t, c), "c"));

	uint32_t s1[] = { a, b, c }, s2[] = { a, b }, s3[] = { a }, s4[] = { bang, c };
	fold_table_add(t, s1, 3, 5);
	fold_table_add(t, s2, 2, 1);
	fold_table_add(t, s1, 3, 7);   /* same stack: summed */
	fold_table_add(t, s3, 1, 2);
	fold_table_add(t, s4, 2, 1);   /* "a!;c" sorts before "a;b" ('!' < ';') */
	CHECK(fold_table_nr_stacks(t) == 4);
	CHECK(fold_table_total(t) == 16);
	check_output(t,
		     "a 2\n"
		     "a!;c 1\n"
		     "a;b 1\n"
		     "a;b;c 12\n",
		     __LINE__);
	fold_table_free(t);
}

static void test_text_and_edges(void)
{
	struct fold_table *t = fold_table_new();

	/* Empty frame names, the empty stack, bytes >= 0x80 (sorted as unsigned bytes,
	 * after every ASCII byte), "a;b" vs "a b" (' ' < ';'), case (upper first). */
	fold_table_add_text(t, "x;;y", 4, 3);
	fold_table_add_text(t, "", 0, 4);
	fold_table_add_text(t, "\xc3\xa9t\xc3\xa9", 5, 1);
	fold_table_add_text(t, "z", 1, 1);
	fold_table_add_text(t, "a b", 3, 1);
	fold_table_add_text(t, "a;b", 3, 1);
	fold_table_add_text(t, "B", 1, 1);
	fold_table_add_text(t, "x;;y", 4, 3);
	fold_table_add_text(t, ";", 1, 2); /* two empty frames */
	CHECK(fold_table_nr_stacks(t) == 8);
	check_output(t,
		     " 4\n"
		     "; 2\n"
		     "B 1\n"
		     "a b 1\n"
		     "a;b 1\n"
		     "x;;y 6\n"
		     "z 1\n"
		     "\xc3\xa9t\xc3\xa9 1\n",
		     __LINE__);

	/* Frame names with a NUL byte are distinct from their prefix. */
	uint32_t n1 = fold_table_frame(t, "q\0r", 3), n2 = fold_table_frame(t, "q", 1);
	CHECK(n1 != n2);
	CHECK(fold_table_frame_len(t, n1) == 3);
	fold_table_free(t);
}

static void test_saturation(void)
{
	struct fold_table *t = fold_table_new();
	uint32_t a = fr(t, "a");

	fold_table_add(t, &a, 1, UINT64_MAX - 1);
	fold_table_add(t, &a, 1, 5);
	check_output(t, "a 18446744073709551615\n", __LINE__);
	fold_table_free(t);
}

/* Many frames and stacks: each stack i is "f<i%1000>;g<i>", deep stacks of 10000
 * frames; checks counts and totals (the values follow from the loop, by hand). */
static void test_many(void)
{
	struct fold_table *t = fold_table_new();
	char name[32];
	uint32_t frames[2];

	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 200000; i++) {
			snprintf(name, sizeof(name), "f%d", i % 1000);
			frames[0] = fr(t, name);
			snprintf(name, sizeof(name), "g%d", i);
			frames[1] = fr(t, name);
			fold_table_add(t, frames, 2, 1);
		}
	CHECK(fold_table_nr_frames(t) == 201000);
	CHECK(fold_table_nr_stacks(t) == 200000);
	CHECK(fold_table_total(t) == 400000);

	uint32_t *deep = malloc(10000 * sizeof(*deep));
	for (int i = 0; i < 10000; i++)
		deep[i] = frames[i % 2];
	fold_table_add(t, deep, 10000, 3);
	fold_table_add(t, deep, 10000, 3);
	CHECK(fold_table_nr_stacks(t) == 200001);
	CHECK(fold_table_total(t) == 400006);
	free(deep);

	/* Sorting and writing 200,001 stacks (one of 10,000 frames): timed, not asserted. */
	FILE *sink = fopen("/dev/null", "w");
	if (sink) {
		double t0 = now();
		CHECK(fold_table_write(t, sink) == 0);
		printf("fold_table_write: %zu stacks sorted and written in %.0f ms\n",
		       fold_table_nr_stacks(t), (now() - t0) * 1e3);
		fclose(sink);
	}
	fold_table_free(t);
}

/* Random stacks over names built to stress the order (prefixes, '!' < ';' < 'a', ' ',
 * names holding ';', bytes >= 0x80): the written keys must be strictly increasing
 * under memcmp (the definition of the order) and the weights must add up. */
static void test_random_order(void)
{
	static const char *names[] = { "a", "a!", "ab", "a;x", "a b", "", "b", "\xff", ";", "a;",
				       "x:y", "A" };
	enum { NR_NAMES = sizeof(names) / sizeof(names[0]) };
	struct fold_table *t = fold_table_new();
	uint32_t ids[NR_NAMES], stack[6];
	unsigned seed = 12345;

	for (int i = 0; i < NR_NAMES; i++)
		ids[i] = fr(t, names[i]);
	/* The naive model: each stack's joined text; the output must have one line per
	 * distinct text (stacks joining to the same text are one line, as in the script). */
	static struct text { char s[64]; size_t len; } texts[20000];
	for (int k = 0; k < 20000; k++) {
		size_t n = 0, depth = (seed = seed * 1103515245 + 12345) >> 16;
		depth %= 6;
		texts[k].len = 0;
		for (n = 0; n < depth; n++) {
			seed = seed * 1103515245 + 12345;
			size_t pick = (seed >> 16) % NR_NAMES;
			stack[n] = ids[pick];
			if (n)
				texts[k].s[texts[k].len++] = ';';
			memcpy(texts[k].s + texts[k].len, names[pick], strlen(names[pick]));
			texts[k].len += strlen(names[pick]);
		}
		fold_table_add(t, stack, n, 1);
	}
	size_t distinct = 0;
	for (int k = 0; k < 20000; k++) {
		int seen = 0;
		for (int j = 0; j < k && !seen; j++)
			seen = texts[j].len == texts[k].len && !memcmp(texts[j].s, texts[k].s, texts[k].len);
		distinct += !seen;
	}

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(fold_table_write(t, f) == 0);
	fclose(f);
	/* Split lines at '\n' (names hold none), the key is up to the last ' '. */
	const char *prev = NULL;
	size_t prev_len = 0, lines = 0;
	uint64_t total = 0;
	for (char *p = buf; p < buf + len;) {
		char *nl = memchr(p, '\n', (size_t)(buf + len - p));
		char *sp = nl;
		while (sp > p && sp[-1] != ' ')
			sp--;
		size_t key_len = (size_t)(sp - 1 - p);
		total += strtoull(sp, NULL, 10);
		if (prev) {
			size_t m = prev_len < key_len ? prev_len : key_len;
			int c = memcmp(prev, p, m);
			CHECK(c < 0 || (c == 0 && prev_len < key_len));
		}
		prev = p;
		prev_len = key_len;
		lines++;
		p = nl + 1;
	}
	CHECK(total == 20000);
	CHECK(lines == distinct);
	CHECK(lines < fold_table_nr_stacks(t)); /* some stacks did join to equal texts */
	free(buf);
	fold_table_free(t);
}


/* Micro-benchmark: adds of already-seen stacks (the hot path of folding samples).
 * 10000 distinct stacks of depth 24 over 2000 frames, added round robin. */
static void bench_adds(void)
{
	enum { NR_STACKS = 10000, DEPTH = 24, ROUNDS = 300 };
	struct fold_table *t = fold_table_new();
	uint32_t *stacks = malloc(sizeof(uint32_t) * NR_STACKS * DEPTH);
	char name[32];

	for (int s = 0; s < NR_STACKS; s++)
		for (int d = 0; d < DEPTH; d++) {
			snprintf(name, sizeof(name), "func_%d", (s * 7 + d * 13) % 2000);
			stacks[s * DEPTH + d] = fr(t, name);
		}
	for (int s = 0; s < NR_STACKS; s++)
		fold_table_add(t, stacks + s * DEPTH, DEPTH, 1);
	double t0 = now();
	for (int r = 0; r < ROUNDS; r++)
		for (int s = 0; s < NR_STACKS; s++)
			fold_table_add(t, stacks + s * DEPTH, DEPTH, 1);
	double dt = now() - t0;
	CHECK(fold_table_total(t) == (uint64_t)NR_STACKS * (ROUNDS + 1));
	printf("fold_table_add (seen stack, depth %d): %.1f million adds/s\n", DEPTH,
	       (double)NR_STACKS * ROUNDS / dt / 1e6);
	free(stacks);
	fold_table_free(t);
}

int main(void)
{
	test_sum_and_sort();
	test_text_and_edges();
	test_saturation();
	test_many();
	test_random_order();
	bench_adds();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}

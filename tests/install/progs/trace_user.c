/* trace_user.c - a third-party program using libtephra as docs/library.md shows, built
 * by tests/install/capi.test.sh against an installed tephra through pkg-config.
 *
 * An emulator that knows its own calls and returns reports them for a three-function
 * guest: _start [0x1000,0x1010) calls main [0x1010,0x1030) from 0x1008, main calls
 * work [0x1030,0x1040) from 0x1020; work runs 10 instructions and returns to 0x1024,
 * main runs 2 more and returns to 0x100c, _start runs 1 more.  Worked out by hand from
 * the documented API (include/tephra/trace.h): _start 3+1, main 5+2, work 10.  Prints
 * the profile written to a FILE * and then through the callback; exits non-zero on any
 * difference from that, or if the library prints anything. */
#include <stdio.h>
#include <string.h>

#include <tephra/tephra.h>

static const char expected[] = "_start 4\n_start;main 7\n_start;main;work 10\n";

struct collect {
	char text[4096];
	size_t len;
	int calls;
	int stop_after;
};

static int collect_line(void *ctx, const char *stack, size_t len, uint64_t count)
{
	struct collect *c = ctx;
	int n = snprintf(c->text + c->len, sizeof(c->text) - c->len, "%.*s %llu\n", (int)len,
			 stack, (unsigned long long)count);
	if (n < 0 || (size_t)n >= sizeof(c->text) - c->len)
		return 1;
	c->len += (size_t)n;
	return ++c->calls == c->stop_after;
}

static int fail(const char *what)
{
	fprintf(stderr, "trace_user: %s\n", what);
	return 1;
}

int main(void)
{
	int major, minor, patch;
	const char *v = tephra_version(&major, &minor, &patch);
	if (strcmp(v, TEPHRA_VERSION_STRING) || major != TEPHRA_VERSION_MAJOR ||
	    minor != TEPHRA_VERSION_MINOR || patch != TEPHRA_VERSION_PATCH)
		return fail("tephra_version() differs from the header's");
	printf("version %s\n", v);

	char err[256] = "";
	if (tephra_trace_new_elf("/nonexistent/guest", NULL, err, sizeof(err)) || !err[0])
		return fail("a missing ELF file gave no error");

	const struct tephra_trace_symbol syms[] = {
		{ 0x1000, 0x10, "_start", TEPHRA_SYM_GLOBAL },
		{ 0x1010, 0x20, "main", TEPHRA_SYM_GLOBAL },
		{ 0x1030, 0x10, "work", TEPHRA_SYM_GLOBAL },
	};
	struct tephra_trace *t = tephra_trace_new(syms, 3, NULL);
	if (!t)
		return fail("tephra_trace_new");
	tephra_trace_charge(t, 0x1000, 3);
	tephra_trace_transfer(t, 0x1008, 0x1010, TEPHRA_CALL);
	tephra_trace_charge(t, 0x1010, 5);
	tephra_trace_transfer(t, 0x1020, 0x1030, TEPHRA_CALL);
	tephra_trace_charge(t, 0x1030, 10);
	tephra_trace_transfer(t, 0x103c, 0x1024, TEPHRA_RETURN);
	tephra_trace_charge(t, 0x1024, 2);
	tephra_trace_transfer(t, 0x1028, 0x100c, TEPHRA_RETURN);
	tephra_trace_charge(t, 0x100c, 1);

	char filed[4096] = "";
	FILE *mem = fmemopen(filed, sizeof(filed) - 1, "w");
	if (!mem || tephra_trace_write_folded(t, mem) != 0)
		return fail("tephra_trace_write_folded");
	fclose(mem);
	struct collect c = { .stop_after = -1 };
	if (tephra_trace_each_folded(t, collect_line, &c) != 0)
		return fail("tephra_trace_each_folded");
	printf("%s", c.text);
	if (strcmp(filed, expected) || strcmp(c.text, expected))
		return fail("the profile differs from the hand-worked one");
	struct collect first = { .stop_after = 1 };
	if (tephra_trace_each_folded(t, collect_line, &first) != -1 || first.calls != 1)
		return fail("a callback returning non-zero did not stop the walk");

	struct tephra_trace_counts n;
	char line[256];
	tephra_trace_counts(t, &n);
	tephra_trace_format_counts(&n, line, sizeof(line));
	printf("%s\n", line);
	if (n.instructions != 21 || n.calls != 2 || n.returns != 2 || n.underflows != 0)
		return fail("counters");
	tephra_trace_free(t);
	return 0;
}

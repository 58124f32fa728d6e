/* unwind_quality.c - the unwinding section of the stack-quality report, on walk
 * outcomes made up here, against text written by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quality/unwind_quality.h"

static void add(struct unwind_quality *q, enum unwind_status st, uint64_t needed,
		const char *object)
{
	struct unwind_result res;

	memset(&res, 0, sizeof(res));
	res.status = st;
	res.stack_needed = needed;
	snprintf(res.object, sizeof(res.object), "%s", object ? object : "");
	unwind_quality_add(q, &res, 8192);
}

int main(void)
{
	struct unwind_quality *q = unwind_quality_new();
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	int failures = 0;
	static const char expect[] =
		"user stacks unwound from DWARF CFI: 8\n"
		"  complete                    3   37.5%\n"
		"  stack cut short             2   25.0%  (the walks wanted up to 10000 bytes of a 8192-byte dump)\n"
		"  no CFI                      3   37.5%\n"
		"  walks ended for want of CFI in:\n"
		"             2  /lib/a.so\n"
		"             1  /lib/b.so\n"
		"  to get the cut stacks further, record with --call-graph dwarf,12288 (at least)\n";

	/* nothing added: nothing printed, no suggestion */
	out = open_memstream(&text, &len);
	unwind_quality_print(q, out);
	fclose(out);
	if (len != 0 || unwind_quality_suggested_dump(q) != 0) {
		fprintf(stderr, "empty report printed %zu bytes\n", len);
		failures++;
	}
	free(text);

	add(q, UNWIND_COMPLETE, 0, NULL);
	add(q, UNWIND_NO_CFI, 0, "/lib/b.so");
	add(q, UNWIND_STACK_CUT, 9216, NULL);
	add(q, UNWIND_COMPLETE, 0, NULL);
	add(q, UNWIND_NO_CFI, 0, "/lib/a.so: build-id differs from the recorded one");
	add(q, UNWIND_STACK_CUT, 10000, NULL);
	add(q, UNWIND_NO_CFI, 0, "/lib/a.so");
	add(q, UNWIND_COMPLETE, 0, NULL);

	if (unwind_quality_suggested_dump(q) != 12288) {
		fprintf(stderr, "suggested %lu, expected 12288\n",
			(unsigned long)unwind_quality_suggested_dump(q));
		failures++;
	}
	out = open_memstream(&text, &len);
	unwind_quality_print(q, out);
	fclose(out);
	if (strcmp(text, expect)) {
		fprintf(stderr, "got:\n%sexpected:\n%s", text, expect);
		failures++;
	}
	free(text);

	/* deeper than perf can dump: capped, and said so */
	add(q, UNWIND_STACK_CUT, 70000, NULL);
	if (unwind_quality_suggested_dump(q) != UNWIND_MAX_PERF_DUMP) {
		fprintf(stderr, "cap: suggested %lu\n", (unsigned long)unwind_quality_suggested_dump(q));
		failures++;
	}
	out = open_memstream(&text, &len);
	unwind_quality_print(q, out);
	fclose(out);
	if (!strstr(text, "deeper than perf can copy (65528 bytes)")) {
		fprintf(stderr, "cap not reported:\n%s", text);
		failures++;
	}
	free(text);
	unwind_quality_free(q);
	return failures ? 1 : 0;
}

/* Unit test of xmalloc_huge / xalloc_advise_huge / xalloc_heap_on_huge_pages
 * (base/xalloc.h): big buffers come 2 MB-aligned and their mappings are eligible for
 * transparent huge pages, as the kernel itself reports it in /proc/self/smaps
 * ("THPeligible"), and so is malloc's heap once set up; small buffers are plain
 * xmalloc.  Skipped (exit 77) when the kernel has THP off or says nothing about it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#include "unit/check.h"

/* The kernel's THPeligible for the mapping holding P: 1, 0, or -1 when not found. */
static int thp_eligible(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int inside = 0, answer = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		int v;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		if (inside && sscanf(line, "THPeligible: %d", &v) == 1) {
			answer = v;
			break;
		}
	}
	fclose(f);
	return answer;
}

static int thp_possible(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128] = "";

	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	return strstr(line, "[never]") == NULL && line[0] != '\0';
}

int main(void)
{
	const size_t big = 6u << 20;

	xalloc_heap_on_huge_pages(); /* first, as a main() does */
	if (!thp_possible()) {
		printf("transparent huge pages are off on this kernel\n");
		return 77;
	}
	char *p = xmalloc_huge(big);
	CHECK((uintptr_t)p % (2u << 20) == 0);
	memset(p, 1, big);
	if (thp_eligible(p) < 0) {
		printf("/proc/self/smaps has no THPeligible field\n");
		free(p);
		return 77;
	}
	CHECK(thp_eligible(p) == 1);
	CHECK(thp_eligible(p + big - 1) == 1);
	free(p);

	/* a small one is an ordinary allocation */
	char *s = xmalloc_huge(100);
	memset(s, 2, 100);
	free(s);

	/* a grown buffer advised afterwards: its whole pages become eligible */
	char *g = xmalloc(1u << 20);
	g = xrealloc(g, 16u << 20);
	xalloc_advise_huge(g, 16u << 20);
	CHECK(thp_eligible(g + (8u << 20)) == 1);
	free(g);

	/* malloc itself: an 8 MB block comes from the heap, which is on huge pages (ASan's
	 * allocator is its own: mallopt does not reach it) */
#ifndef __SANITIZE_ADDRESS__
	char *m = malloc(8u << 20);
	memset(m, 3, 8u << 20);
	CHECK(thp_eligible(m + (4u << 20)) == 1);
	free(m);
#endif
	return failures != 0;
}

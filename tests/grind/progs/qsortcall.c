/* qsortcall.c - main sorts with glibc's qsort, which tail-calls qsort_r (a jmp, not a
 * call), whose merge sort (msort_with_tmp) recurses; called once, through the PLT with
 * lazy binding, so the resolver tail-calls qsort too (tests/grind/nest-qsort.test.sh). */
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	enum { N = 20000 };
	static int v[N];
	unsigned s = 1;
	for (int i = 0; i < N; i++) {
		s = s * 1103515245 + 12345;
		v[i] = (int)(s >> 8);
	}
	qsort(v, N, sizeof(v[0]), cmp);
	printf("%d\n", v[N / 2]);
	return 0;
}

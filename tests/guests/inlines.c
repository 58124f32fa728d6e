/* inlines.c - functions inlined into one another, for tephra symbolize: the raw
 * profile's addresses in outer() must expand into outer, sumsq_[i], sq_[i] with the
 * lines of the calls (marked CALL-... below; tests/emu/symbolize.test.sh finds them). */
static inline __attribute__((always_inline)) int sq(int x)
{
	return x * x + (x >> 3); /* LINE-SQ */
}

static inline __attribute__((always_inline)) int sumsq(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += sq(i); /* CALL-SQ */
	return s;
}

__attribute__((noinline)) int outer(int n)
{
	return sumsq(n) + 1; /* CALL-SUMSQ */
}

volatile int sink, count = 200;

int main(void)
{
	sink = outer(count); /* CALL-OUTER */
	return 0;
}

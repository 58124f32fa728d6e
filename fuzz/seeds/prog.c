/* prog.c - the program the seed recordings of fuzz/corpus/perf_* sampled (see
 * fuzz/seeds/make-seeds.sh): no libc, so the object is a few kilobytes; two call
 * paths with an inlined leaf, frame pointers and unwind tables for -g and DWARF. */
static volatile unsigned long sink;

static inline __attribute__((always_inline)) void mix(unsigned long i)
{
	sink = sink * 31 + i;
}

__attribute__((noinline)) static void leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		mix(i);
}

__attribute__((noinline)) static void left(unsigned long n)
{
	leaf(n);
}

__attribute__((noinline)) static void right(unsigned long n)
{
	leaf(n / 2);
	left(n / 2);
}

void _start(void)
{
	for (int k = 0; k < 40; k++) {
		left(200000);
		right(200000);
	}
	__asm__ volatile("mov $60, %eax\n\txor %edi, %edi\n\tsyscall");
	__builtin_unreachable();
}

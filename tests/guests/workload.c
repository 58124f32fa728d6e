/* workload.c - a C guest with the shapes a call-stack tracker must get right: deep real
 * recursion (fib), library code through function pointers (qsort + comparator), a
 * longjmp out of deep recursion, tail calls and mutual tail recursion (at -O2 gcc turns
 * `return g(x)` into a jump), and stdio/malloc.  Built at several optimisation levels,
 * with and without -msave-restore (millicode called through t0) by tests/emu/*. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;

__attribute__((noinline)) int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

__attribute__((noinline)) void deep(int n)
{
	if (n == 0)
		longjmp(env, 1);
	deep(n - 1);
	__asm__ volatile("" ::: "memory"); /* keep it a real call, not a loop */
}

__attribute__((noinline)) int triple(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int tail_caller(int x)
{
	return triple(x + 1);
}

int is_even(unsigned n);
__attribute__((noinline)) int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}
__attribute__((noinline)) int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 12;
	int r = fib(n);
	int arr[64];
	for (int i = 0; i < 64; i++)
		arr[i] = (i * 37) % 64;
	qsort(arr, 64, sizeof(arr[0]), cmp_int);
	if (!setjmp(env))
		deep(16);
	int t = tail_caller(5) + is_even(41);
	char *p = malloc(64);
	snprintf(p, 64, "%d %d %d", r, arr[63], t);
	puts(p);
	free(p);
	return 0;
}

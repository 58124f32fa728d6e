/* junk_rbp_hot.c: the hot loop of tests/perf-dwarf/missing-object, in a library of its
 * own (libhot.so) so that the caller's object can go missing while the sampled one stays. */
long hot(long n)
{
	volatile long s = 0;
	for (long i = 0; i < n; i++)
		s += i;
	return s;
}

/* fault.c - does some work, then stores through a null pointer without a handler: QEMU
 * kills itself with SIGSEGV, and tephra emu must still write the profile so far. */
__attribute__((noinline)) int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i * i;
	return s;
}

__attribute__((noinline)) void crash(volatile int *p, int v)
{
	*p = v;
}

int main(void)
{
	crash((volatile int *)0, work(1000));
	return 0;
}

/* A tiny "JIT": copies a counting loop into anonymous executable memory, describes
 * it in /tmp/perf-PID.map and runs it (x86-64 only). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	long n = argc > 1 ? atol(argv[1]) : 3000;
	/* mov ecx, 100000; l: dec ecx; jnz l; ret */
	static const unsigned char loop[] = { 0xb9, 0xa0, 0x86, 0x01, 0x00, 0xff, 0xc9,
					      0x75, 0xfc, 0xc3 };
	unsigned char *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	memset(mem, 0xcc, 4096);
	memcpy(mem + 0x100, loop, sizeof(loop));
	memcpy(mem + 0x200, loop, sizeof(loop));
	char path[64];
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	FILE *f = fopen(path, "w");
	if (!f)
		return 1;
	/* an enclosing region and a stale entry at the same start, as JITs that reuse
	 * code memory leave behind: perf's answer then depends on its rbtree */
	fprintf(f, "%lx 1000 jit_region\n", (unsigned long)mem);
	fprintf(f, "%lx %x jit_loop_stale\n", (unsigned long)(mem + 0x100), (unsigned)sizeof(loop));
	fprintf(f, "%lx %x jit_loop_one\n", (unsigned long)(mem + 0x100), (unsigned)sizeof(loop));
	fprintf(f, "%lx %x LazyCompile:~two script.js:12\n", (unsigned long)(mem + 0x200),
		(unsigned)sizeof(loop));
	fclose(f);
	void (*one)(void) = (void (*)(void))(mem + 0x100);
	void (*two)(void) = (void (*)(void))(mem + 0x200);
	for (long i = 0; i < n; i++) {
		one();
		two();
	}
	puts("done");
	return 0;
#else
	(void)argc; (void)argv;
	return 77;
#endif
}

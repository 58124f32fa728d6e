/* jit.c - a workload for the perf oracle tests: runs code from anonymous executable
 * memory (recorded as //anon, shown by perf as /tmp/perf-PID.map) and writes that map
 * file naming it, as JITs do.  x86-64 only.  Usage: jit [MILLISECONDS of CPU time [NAME]]
 * (NAME: the code's name in the map file, default jitted_spin_loop; the map file is
 * /tmp/perf-PID.map; its path is printed so the caller can remove it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cpu_ms.h"


int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300;
#if defined(__x86_64__)
	/* mov ecx, 200000; 1: dec ecx; jnz 1b; ret */
	static const unsigned char code[] = { 0xb9, 0x40, 0x0d, 0x03, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };
	unsigned char *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memcpy(mem + 0x40, code, sizeof(code));
	char path[64];
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "%lx %zx %s\n", (unsigned long)(mem + 0x40), sizeof(code),
		argc > 2 ? argv[2] : "jitted_spin_loop");
	fclose(f);
	printf("%s\n", path);
	void (*fn)(void) = (void (*)(void))(mem + 0x40);
	double end = cpu_ms() + ms;
	while (cpu_ms() < end)
		for (int i = 0; i < 64; i++)
			fn();
	return 0;
#else
	(void)ms;
	fprintf(stderr, "jit: x86-64 only\n");
	return 77;
#endif
}

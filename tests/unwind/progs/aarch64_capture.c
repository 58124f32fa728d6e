/* aarch64_capture.c - runs as an aarch64 program (under qemu-aarch64 on an x86_64 host)
 * and writes what a perf DWARF sample of it would carry: the user registers in perf's
 * aarch64 numbering (X0..X30, SP, PC), a copy of the stack from sp to the top, and the
 * process's file mappings.  build/unwind/unwind-capture then unwinds that on the host.
 *
 * The sample is taken in f3, called as main -> f1 -> f2 -> f3, all without frame
 * pointers; x29 is overwritten in the written registers so only CFI can do the walk.
 *
 * Output (text): "arch aarch64", "mask 0x...", one "reg VALUE" per register,
 * "map START END PGOFF PATH" per file mapping, "stack N", then N bytes in hex. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aarch64_capture_regs.h"

static uint64_t stack_top(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uint64_t start, end, top = 0, sp = (uint64_t)(uintptr_t)&line;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &start, &end) == 2 && sp >= start && sp < end)
			top = end;
	if (f)
		fclose(f);
	return top;
}


__attribute__((noinline, optimize("omit-frame-pointer"))) static int f3(FILE *out)
{
	uint64_t regs[NR_REGS];
	const volatile uint8_t *p;
	uint64_t top, n;

	capture_regs(regs);
	top = stack_top();
	regs[29] = 0x5a5a5a5a5a5a5a5aULL; /* no frame pointer to lean on */
	n = top > regs[31] ? top - regs[31] : 0;
	fprintf(out, "arch aarch64\nmask 0x1ffffffff\n");
	for (int i = 0; i < NR_REGS; i++)
		fprintf(out, "reg %#lx\n", (unsigned long)regs[i]);
	write_maps(out);
	fprintf(out, "stack %lu\n", (unsigned long)n);
	p = (const volatile uint8_t *)(uintptr_t)regs[31];
	for (uint64_t i = 0; i < n; i++)
		fprintf(out, "%02x%s", p[i], (i + 1) % 32 ? "" : "\n");
	fprintf(out, "\n");
	return 3;
}

__attribute__((noinline, optimize("omit-frame-pointer"))) static int f2(FILE *out)
{
	int r = f3(out);

	__asm__ volatile("" ::: "memory");
	return r + 2;
}

__attribute__((noinline, optimize("omit-frame-pointer"))) static int f1(FILE *out)
{
	int r = f2(out);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

int main(int argc, char **argv)
{
	FILE *out = argc > 1 ? fopen(argv[1], "w") : stdout;
	int r;

	if (!out)
		return 1;
	r = f1(out);
	fclose(out);
	return r == 6 ? 0 : 1;
}

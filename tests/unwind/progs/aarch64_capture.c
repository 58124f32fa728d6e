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

#define NR_REGS 33 /* x0..x30, sp, pc */

/* Stores x0..x30 into regs[0..30], then sp and the return address as the pc: the
 * state of the caller right after this call returns. */
void capture_regs(uint64_t *regs);
__asm__(".text\n"
	".globl capture_regs\n"
	".type capture_regs, %function\n"
	"capture_regs:\n"
	"  stp x0, x1, [x0, #0]\n"
	"  stp x2, x3, [x0, #16]\n"
	"  stp x4, x5, [x0, #32]\n"
	"  stp x6, x7, [x0, #48]\n"
	"  stp x8, x9, [x0, #64]\n"
	"  stp x10, x11, [x0, #80]\n"
	"  stp x12, x13, [x0, #96]\n"
	"  stp x14, x15, [x0, #112]\n"
	"  stp x16, x17, [x0, #128]\n"
	"  stp x18, x19, [x0, #144]\n"
	"  stp x20, x21, [x0, #160]\n"
	"  stp x22, x23, [x0, #176]\n"
	"  stp x24, x25, [x0, #192]\n"
	"  stp x26, x27, [x0, #208]\n"
	"  stp x28, x29, [x0, #224]\n"
	"  str x30, [x0, #240]\n"
	"  mov x1, sp\n"
	"  str x1, [x0, #248]\n"
	"  str x30, [x0, #256]\n"
	"  ret\n"
	".size capture_regs, .-capture_regs\n");

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

static void write_maps(FILE *out)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long start, end, pgoff;
		char perms[8];
		int name_at = 0;

		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %n", &start, &end, perms, &pgoff,
			   &name_at) < 4 || name_at == 0 || line[name_at] != '/')
			continue;
		line[strcspn(line, "\n")] = 0;
		fprintf(out, "map %lx %lx %lx %s\n", start, end, pgoff, line + name_at);
	}
	if (f)
		fclose(f);
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

/* aarch64_capture_regs.h - what the aarch64 capture programs share: the register
 * file in perf's aarch64 numbering, capture_regs(), which stores it, and write_maps(),
 * which writes the process's file mappings ("map START END PGOFF PATH"). */
#ifndef AARCH64_CAPTURE_REGS_H
#define AARCH64_CAPTURE_REGS_H

#include <stdint.h>
#include <stdio.h>
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


/* The file mappings of /proc/self/maps, one "map" line each. */
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

#endif

/* three_libs.c - capstone, libiberty and libtephra in one program, as an emulator
 * author's tool would link them (tests/install/symbols.test.sh).  Before libtephra hid
 * its internal names, its xmalloc/xcalloc/xrealloc clashed with libiberty's at link
 * time ("multiple definition of `xmalloc'") and its cs_free (call stacks) replaced
 * capstone's, so cs_free(insn, n) crashed. */
#include <capstone/capstone.h>
#include <demangle.h>
#include <libiberty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tephra/trace.h>

int main(void)
{
	/* capstone: push rbp; mov rbp, rsp; ret */
	const uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0xc3 };
	csh h;
	cs_insn *insn;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return 1;
	size_t n = cs_disasm(h, code, sizeof(code), 0x1000, 0, &insn);
	for (size_t i = 0; i < n; i++)
		printf("%s %s\n", insn[i].mnemonic, insn[i].op_str);
	cs_free(insn, n);
	cs_close(&h);

	/* libiberty: its own allocator (xmalloc.o) and demangler */
	xmalloc_set_program_name("three_libs");
	char *s = xstrdup("libiberty");
	char *d = cplus_demangle("_Z4workv", DMGL_PARAMS);
	printf("%s %s\n", s, d ? d : "?");
	free(s);
	free(d);

	/* libtephra: one instruction (addi x0, x0, 0) in main */
	const struct tephra_trace_symbol syms[] = { { 0x1000, 8, "main", TEPHRA_SYM_GLOBAL } };
	struct tephra_trace *t = tephra_trace_new(syms, 1, NULL);
	if (!t || tephra_trace_step(t, 0x1000, 0x00000013, 4) != 0)
		return 1;
	int rc = tephra_trace_write_folded(t, stdout);
	tephra_trace_free(t);
	return rc ? 1 : 0;
}

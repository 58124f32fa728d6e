/* Unit test of src/trace/guest_syms.c, the function table the call stack judges tail
 * calls by: zero-size symbols, section limits, nesting, partial overlap, aliases,
 * labels (zero-size symbols inside sized functions) and code labels (NOTYPE).
 * Expected owners are worked out by hand from the rules in guest_syms.h. */
#include <stdio.h>
#include <string.h>

#include "trace/guest_syms.h"

static int failures;

static void owner(const struct guest_syms *gs, uint64_t addr, const char *want,
		  uint64_t want_start)
{
	const struct guest_func *f = guest_syms_find(gs, addr);
	const char *got = f ? f->name : NULL;
	if ((want == NULL) != (got == NULL) || (want && strcmp(want, got)) ||
	    (f && f->start != want_start)) {
		fprintf(stderr, "FAIL 0x%llx: got %s (0x%llx), want %s (0x%llx)\n",
			(unsigned long long)addr, got ? got : "none",
			(unsigned long long)(f ? f->start : 0), want ? want : "none",
			(unsigned long long)want_start);
		failures++;
	}
}

int main(void)
{
	static const struct guest_sym_in in[] = {
		/* zero-size a, b: a ends at b, b at the next symbol c */
		{ 0x1000, 0, 0, "a", GUEST_GLOBAL },
		{ 0x1010, 0, 0, "b", GUEST_LOCAL },
		{ 0x1020, 0x10, 0, "c", GUEST_GLOBAL },
		/* nested: inner owns [0x2010, 0x2020), outer the rest of [0x2000, 0x2040) */
		{ 0x2000, 0x40, 0, "outer", GUEST_GLOBAL },
		{ 0x2010, 0x10, 0, "inner", GUEST_LOCAL },
		/* partial overlap: p [0x3000,0x3020), q [0x3010,0x3030): q from 0x3010 */
		{ 0x3000, 0x20, 0, "p", GUEST_GLOBAL },
		{ 0x3010, 0x20, 0, "q", GUEST_GLOBAL },
		/* aliases: global over weak over local, whatever the order */
		{ 0x4000, 0x10, 0, "l_alias", GUEST_LOCAL },
		{ 0x4000, 0x10, 0, "w_alias", GUEST_WEAK },
		{ 0x4000, 0x10, 0, "g_alias", GUEST_GLOBAL },
		{ 0x4100, 0x10, 0, "w2", GUEST_WEAK },
		{ 0x4100, 0x20, 0, "l2", GUEST_LOCAL },
		/* last zero-size symbol: ends at its section's end */
		{ 0x5000, 0, 0x5080, "tail", GUEST_GLOBAL },
	};
	struct guest_syms gs;
	guest_syms_build(&gs, in, sizeof(in) / sizeof(in[0]));
	owner(&gs, 0x0fff, NULL, 0);
	owner(&gs, 0x1000, "a", 0x1000);
	owner(&gs, 0x100f, "a", 0x1000);
	owner(&gs, 0x1010, "b", 0x1010);
	owner(&gs, 0x101f, "b", 0x1010);
	owner(&gs, 0x1020, "c", 0x1020);
	owner(&gs, 0x1030, NULL, 0);
	owner(&gs, 0x2000, "outer", 0x2000);
	owner(&gs, 0x200f, "outer", 0x2000);
	owner(&gs, 0x2010, "inner", 0x2010);
	owner(&gs, 0x201f, "inner", 0x2010);
	owner(&gs, 0x2020, "outer", 0x2000);
	owner(&gs, 0x203f, "outer", 0x2000);
	owner(&gs, 0x2040, NULL, 0);
	owner(&gs, 0x300f, "p", 0x3000);
	owner(&gs, 0x3010, "q", 0x3010);
	owner(&gs, 0x302f, "q", 0x3010);
	owner(&gs, 0x4008, "g_alias", 0x4000);
	owner(&gs, 0x4100, "w2", 0x4100);   /* weak over local ... */
	owner(&gs, 0x411f, "w2", 0x4100);   /* ... with the larger size of the two */
	owner(&gs, 0x5000, "tail", 0x5000);
	owner(&gs, 0x507f, "tail", 0x5000);
	owner(&gs, 0x5080, NULL, 0);
	const struct guest_func *f = guest_syms_by_start(&gs, 0x2010);
	if (!f || strcmp(f->name, "inner")) {
		fprintf(stderr, "FAIL by_start 0x2010\n");
		failures++;
	}
	if (guest_syms_by_start(&gs, 0x2011)) {
		fprintf(stderr, "FAIL by_start 0x2011 found something\n");
		failures++;
	}
	uint64_t start = 0;
	if (!guest_syms_func_of(&gs, 0x2025, &start) || start != 0x2000) {
		fprintf(stderr, "FAIL func_of 0x2025\n");
		failures++;
	}
	guest_syms_release(&gs);

	/* Labels and code labels (NOTYPE in code), rules of guest_syms.h. */
	static const struct guest_sym_in lab[] = {
		/* sized loopy [0x1000, 0x1040) with a zero-size function symbol and a code
		 * label inside: labels, loopy owns it all */
		{ 0x1000, 0x40, 0x9000, "loopy", GUEST_GLOBAL, GUEST_SYM_FUNC },
		{ 0x1010, 0, 0x9000, "loopy_fnlabel", GUEST_GLOBAL, GUEST_SYM_FUNC },
		{ 0x1020, 0, 0x9000, "loopy_code", GUEST_LOCAL, GUEST_SYM_CODE },
		/* a zero-size function right at loopy's end is outside it: a function, up to
		 * the next function symbol (0x1100), not up to the code label at 0x1080 */
		{ 0x1040, 0, 0x9000, "after", GUEST_LOCAL, GUEST_SYM_FUNC },
		{ 0x1080, 0, 0x9000, "after_code", GUEST_GLOBAL, GUEST_SYM_CODE },
		/* a code label in a gap: [0x1200, 0x1300) up to the next symbol */
		{ 0x1100, 0x100, 0x9000, "sized", GUEST_LOCAL, GUEST_SYM_FUNC },
		{ 0x1200, 0, 0x9000, "load_gp", GUEST_LOCAL, GUEST_SYM_CODE },
		/* a code label at a function's start never names it, whatever its binding */
		{ 0x1300, 0x10, 0x9000, "f_local", GUEST_LOCAL, GUEST_SYM_FUNC },
		{ 0x1300, 0x20, 0x9000, "f_code", GUEST_GLOBAL, GUEST_SYM_CODE },
		/* a sized code label under a zero-size function: the function wins where it
		 * reaches (0x1400..0x1410), the code label owns the rest */
		{ 0x13f0, 0x40, 0x9000, "wide_code", GUEST_LOCAL, GUEST_SYM_CODE },
		{ 0x1400, 0, 0x1410, "short_fn", GUEST_LOCAL, GUEST_SYM_FUNC },
		/* a zero-size code label at its section's end labels nothing */
		{ 0x2000, 0, 0x2000, "etext", GUEST_GLOBAL, GUEST_SYM_CODE },
		/* a zero-size function after a code label of another section ends at its
		 * own section's end */
		{ 0x3000, 0, 0x3010, "last", GUEST_GLOBAL, GUEST_SYM_FUNC },
	};
	guest_syms_build(&gs, lab, sizeof(lab) / sizeof(lab[0]));
	owner(&gs, 0x1000, "loopy", 0x1000);
	owner(&gs, 0x1010, "loopy", 0x1000);
	owner(&gs, 0x1020, "loopy", 0x1000);
	owner(&gs, 0x103f, "loopy", 0x1000);
	if (guest_syms_by_start(&gs, 0x1010) || guest_syms_by_start(&gs, 0x1020)) {
		fprintf(stderr, "FAIL labels inside loopy are functions\n");
		failures++;
	}
	owner(&gs, 0x1040, "after", 0x1040);
	owner(&gs, 0x1080, "after", 0x1040);
	owner(&gs, 0x10ff, "after", 0x1040);
	owner(&gs, 0x1100, "sized", 0x1100);
	owner(&gs, 0x1200, "load_gp", 0x1200);
	owner(&gs, 0x12ff, "load_gp", 0x1200);
	owner(&gs, 0x1300, "f_local", 0x1300);
	owner(&gs, 0x130f, "f_local", 0x1300);
	owner(&gs, 0x1310, NULL, 0);
	owner(&gs, 0x13f0, "wide_code", 0x13f0);
	owner(&gs, 0x1400, "short_fn", 0x1400);
	owner(&gs, 0x140f, "short_fn", 0x1400);
	owner(&gs, 0x1410, "wide_code", 0x13f0);
	owner(&gs, 0x142f, "wide_code", 0x13f0);
	owner(&gs, 0x1430, NULL, 0);
	owner(&gs, 0x2000, NULL, 0);
	owner(&gs, 0x3000, "last", 0x3000);
	owner(&gs, 0x300f, "last", 0x3000);
	owner(&gs, 0x3010, NULL, 0);
	guest_syms_release(&gs);
	/* An empty table. */
	guest_syms_build(&gs, NULL, 0);
	owner(&gs, 0x1000, NULL, 0);
	guest_syms_release(&gs);
	return failures != 0;
}

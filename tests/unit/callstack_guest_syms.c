/* Unit test of src/trace/guest_syms.c, the function table the call stack judges tail
 * calls by: zero-size symbols, section limits, nesting, partial overlap, aliases.
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
	/* An empty table. */
	guest_syms_build(&gs, NULL, 0);
	owner(&gs, 0x1000, NULL, 0);
	guest_syms_release(&gs);
	return failures != 0;
}

/* a2l_walks.c - counts how many of tephra's a2l lookups walk DWARF DIEs.  Linked with
 * -Wl,--wrap=dwarf_child,--wrap=dwarf_getscopes_die, so every call a2l.c makes to
 * libdw's DIE walk goes through the counters here.  Reads addresses (hex, one per
 * line) on stdin, asks a2l_inline_records for each, and prints one line:
 * "lookups N walked M", M being the lookups during which a walk began (the first
 * lookup in each compile unit builds its index; no other should walk).
 * Used by tests/perf-dwarf/a2l_index.test.sh.  Usage: a2l_walks FILE < addresses */
#include <elfutils/libdw.h>
#include <stdio.h>
#include <stdlib.h>

#include "symbol/a2l.h"

static unsigned long walks;

int __real_dwarf_child(Dwarf_Die *die, Dwarf_Die *result);
int __wrap_dwarf_child(Dwarf_Die *die, Dwarf_Die *result);
int __wrap_dwarf_child(Dwarf_Die *die, Dwarf_Die *result)
{
	walks++;
	return __real_dwarf_child(die, result);
}

int __real_dwarf_getscopes_die(Dwarf_Die *die, Dwarf_Die **scopes);
int __wrap_dwarf_getscopes_die(Dwarf_Die *die, Dwarf_Die **scopes);
int __wrap_dwarf_getscopes_die(Dwarf_Die *die, Dwarf_Die **scopes)
{
	walks++;
	return __real_dwarf_getscopes_die(die, scopes);
}

static void ignore(void *arg, const char *name, const char *file, unsigned line)
{
	(void)arg;
	(void)name;
	(void)file;
	(void)line;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: a2l_walks FILE < addresses\n");
		return 2;
	}
	struct a2l *dl = a2l_open(argv[1]);
	if (!dl) {
		fprintf(stderr, "a2l_walks: %s: cannot open\n", argv[1]);
		return 1;
	}
	char buf[64];
	unsigned long lookups = 0, walked = 0;
	while (fgets(buf, sizeof(buf), stdin)) {
		unsigned long before = walks;
		a2l_inline_records(dl, strtoull(buf, NULL, 16), ignore, NULL);
		lookups++;
		walked += walks != before;
	}
	a2l_close(dl);
	printf("lookups %lu walked %lu\n", lookups, walked);
	return 0;
}

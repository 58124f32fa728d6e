/* a2l_driver.c - prints what tephra's a2l answers for each address read from
 * standard input (hex, one per line), in the text `addr2line -i -f -e FILE` prints
 * (records "name" then "file:line", "?" for line 0), with each file reduced to its
 * last component, as perf uses it.  Used by tests/perf-dwarf/addr2line.test.sh,
 * which builds it against build/libtephra-internal.a (internal names included).
 * Usage: a2l_driver FILE < addresses */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/a2l.h"

static void print_record(void *arg, const char *name, const char *file, unsigned line)
{
	(void)arg;
	const char *f = file ? file : "??";
	const char *slash = strrchr(f, '/');
	printf("%s\n%s:", name, slash ? slash + 1 : f);
	if (line)
		printf("%u\n", line);
	else
		printf("?\n");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: a2l_driver FILE < addresses\n");
		return 2;
	}
	struct a2l *dl = a2l_open(argv[1]);
	if (!dl) {
		fprintf(stderr, "a2l_driver: %s: cannot open\n", argv[1]);
		return 1;
	}
	char buf[64];
	while (fgets(buf, sizeof(buf), stdin)) {
		unsigned long long a = strtoull(buf, NULL, 16);
		printf("0x%016llx\n", a);
		if (a2l_inline_records(dl, a, print_record, NULL) == 0)
			printf("??\n??:0\n");
	}
	a2l_close(dl);
	return 0;
}

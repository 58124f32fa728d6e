/* symbol_cli.c - --symfs, --kallsyms, --buildid-dir (see symbol_cli.h). */
#include "symbol_cli.h"

#include <string.h>

int symbol_cli_option(struct symbol_options *o, int c, char *arg)
{
	switch (c) {
	case SYMBOL_O_SYMFS: {
		/* perf's DIR[,LAYOUT]: "flat" looks for an object's basename in DIR,
		 * "hierarchy" (the default) for its whole path under DIR */
		char *comma = strrchr(arg, ',');
		o->root_flat = 0;
		if (comma && (!strcmp(comma, ",flat") || !strcmp(comma, ",hierarchy"))) {
			o->root_flat = !strcmp(comma, ",flat");
			*comma = '\0';
		}
		o->root_dir = arg;
		return 1;
	}
	case SYMBOL_O_KALLSYMS:
		o->kallsyms = arg;
		return 1;
	case SYMBOL_O_BUILDID_DIR:
		o->buildid_dir = arg;
		return 1;
	case SYMBOL_O_FORCE:
		o->force = 1;
		return 1;
	default:
		return 0;
	}
}

void symbol_cli_usage(FILE *f, int col, int short_force)
{
	static const char *const lines[][2] = {
		{ "--symfs DIR[,flat]", "objects under DIR: DIR/PATH (,flat: DIR/BASENAME);" },
		{ "", "the build-id cache is then DIR/.debug, and kernel" },
		{ "", "frames need --kallsyms (as perf --symfs)" },
		{ "--kallsyms FILE", "kernel symbols from FILE, not /proc/kallsyms" },
		{ "--buildid-dir DIR", "perf's build-id cache (default ~/.debug): e.g. where" },
		{ "", "a `perf archive` tarball was unpacked" },
		{ "--force", "read a perf.data or /tmp/perf-PID.map that root or" },
		{ "", "you do not own (as perf -f)" },
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		const char *name = lines[i][0];
		if (short_force && !strcmp(name, "--force"))
			name = "-f, --force";
		int w = col - 6 - (int)strlen(name);
		fprintf(f, "      %s%*s%s\n", name, w < 2 ? 2 : w, "", lines[i][1]);
	}
}

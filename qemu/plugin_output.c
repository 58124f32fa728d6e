/* plugin_output.c - folded profile files of the QEMU plugin (see plugin_output.h). */
#include "qemu/plugin_output.h"

#include <stdio.h>
#include <string.h>

#include "fold/fold_table.h"
#include "trace/trace_fold.h"

void plugin_output_init(struct plugin_output *o, const char *path)
{
	snprintf(o->path, sizeof(o->path), "%s", path);
	o->writes = 0;
}

int plugin_output_write(struct plugin_output *o, struct callstack *const *stacks, size_t n,
			const struct trace_namer *namer, int raw, int final, const char *why)
{
	struct fold_table *ft = fold_table_new();
	struct trace_counts c = { 0 };
	for (size_t i = 0; i < n; i++) {
		trace_fold_add(ft, stacks[i], namer, raw);
		trace_counts_add(&c, stacks[i]);
	}
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp", o->path);
	int rc = -1;
	FILE *f = fopen(tmp, "w");
	if (f) {
		rc = fold_table_write(ft, f);
		if (fclose(f) != 0)
			rc = -1;
		if (rc == 0 && rename(tmp, o->path) != 0)
			rc = -1;
	}
	if (rc != 0) {
		fprintf(stderr, "tephra plugin: %s: cannot write the profile: %m\n", o->path);
		remove(tmp);
	}
	fold_table_free(ft);
	o->writes++;
	if (final) {
		char line[512];
		trace_counts_format(&c, line, sizeof(line));
		fprintf(stderr, "tephra emu: %s%s%s%s\n", line, why ? " (" : "", why ? why : "",
			why ? ")" : "");
	}
	return rc;
}

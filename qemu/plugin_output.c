/* plugin_output.c - folded profile files of the QEMU plugin (see plugin_output.h). */
#include "qemu/plugin_output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/out_file.h"
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
	/* base/out_file.h's rule, as every tephra command: a file is written beside
	 * (O_EXCL, an unpredictable name) and renamed over the output. */
	struct out_file f;
	struct tephra_error err;
	int rc = out_file_open(&f, o->path, &err);
	if (rc == 0 && fold_table_write(ft, f.f) != 0) {
		tephra_error_set(&err, "%s: write error: %s", o->path, strerror(errno));
		out_file_abort(&f);
		rc = -1;
	} else if (rc == 0) {
		rc = out_file_commit(&f, &err);
	}
	if (rc != 0)
		fprintf(stderr, "tephra plugin: cannot write the profile: %s\n", err.msg);
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

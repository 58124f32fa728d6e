/* unwind_session_root.c - a session's DWARF unwinder looks for objects where its symbol
 * options say (root_dir, as perf --symfs), not on the host.
 *
 * The recording is the fuzz seed fuzz/corpus/perf_pipeline/dwarf (DWARF call graphs of
 * fuzz/seeds/prog.c), with the program's recorded path /tmp/tephra-fuzz/prog rewritten
 * in place to /tephra-root-only/prg (same length, so no offset moves): a path no host
 * has, whose object exists only under the root given to the fold.  HOME points at an
 * empty directory, so perf's build-id cache of this machine is out of reach too.  With
 * the root reaching the unwinder, the stacks are prog.c's call paths as read from its
 * source (_start calls left and right, both call leaf, right also calls left); without,
 * libdwfl has no CFI for the program and its frame-pointer fallback loses the caller of
 * an inlined-into or frameless leaf (seen: no stack through left). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fold/fold_table.h"
#include "perffold/perf_fold.h"

#define RECORDED "/tmp/tephra-fuzz/prog"
#define MOVED "/tephra-root-only/prg"

static char *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*size = (size_t)n;
	}
	fclose(f);
	return buf;
}

static int write_all(const char *path, const char *buf, size_t size)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(buf, 1, size, f) == size;

	if (f && fclose(f) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

int main(void)
{
	const char *top = getenv("TOP") ? getenv("TOP") : ".";
	const char *tmp = getenv("TEST_TMP") ? getenv("TEST_TMP") : "/tmp";
	char dir[2048], path[4096], kallsyms[2048];
	char *data, *prog, *text = NULL;
	size_t size = 0, prog_size = 0, text_size = 0, nr_moved = 0;
	struct stat st;

	_Static_assert(sizeof(RECORDED) == sizeof(MOVED), "same length");
	if (stat("/tephra-root-only", &st) == 0) {
		printf("/tephra-root-only exists on this machine\n");
		return 77;
	}
	snprintf(path, sizeof(path), "%s/fuzz/corpus/perf_pipeline/dwarf", top);
	data = read_all(path, &size);
	snprintf(path, sizeof(path), "%s/fuzz/root" RECORDED, top);
	prog = read_all(path, &prog_size);
	CHECK(data && prog);
	if (!data || !prog)
		return 1;
	for (char *p = data; (p = memmem(p, size - (size_t)(p - data), RECORDED,
					  sizeof(RECORDED) - 1)) != NULL; nr_moved++)
		memcpy(p, MOVED, sizeof(MOVED) - 1);
	CHECK(nr_moved >= 1);

	snprintf(dir, sizeof(dir), "%s/unwind_session_root.%d", tmp, (int)getpid());
	CHECK(mkdir(dir, 0700) == 0);
	snprintf(path, sizeof(path), "%s/home", dir);
	CHECK(mkdir(path, 0700) == 0);
	setenv("HOME", path, 1);
	unsetenv("DEBUGINFOD_URLS");
	snprintf(path, sizeof(path), "%s/root", dir);
	CHECK(mkdir(path, 0700) == 0);
	snprintf(path, sizeof(path), "%s/root/tephra-root-only", dir);
	CHECK(mkdir(path, 0700) == 0);
	snprintf(path, sizeof(path), "%s/root" MOVED, dir);
	CHECK(write_all(path, prog, prog_size) == 0);
	snprintf(path, sizeof(path), "%s/recording.data", dir);
	CHECK(write_all(path, data, size) == 0);
	if (failures)
		return 1;

	snprintf(kallsyms, sizeof(kallsyms), "%s/fuzz/root/kallsyms", top);
	char root[2100];

	snprintf(root, sizeof(root), "%s/root", dir);
	struct symbol_options symbols = { .root_dir = root, .kallsyms = kallsyms };
	struct perf_fold_options o = { .symbols = &symbols };
	struct fold_table *t = fold_table_new();
	struct tephra_error err;
	FILE *out = open_memstream(&text, &text_size);

	CHECK(perf_fold_file(path, &o, t, &err) == 0);
	CHECK(out && fold_table_write(t, out) == 0);
	if (out)
		fclose(out);
	CHECK(text && strstr(text, ";_start;left;leaf"));
	CHECK(text && strstr(text, ";_start;right;leaf"));
	CHECK(text && strstr(text, ";_start;right;left;leaf"));
	if (failures && text)
		fprintf(stderr, "folded:\n%s", text);
	fold_table_free(t);
	free(text);
	free(data);
	free(prog);

	static const char *const made[] = {
		"/recording.data", "/root" MOVED, "/root/tephra-root-only", "/root", "/home", "",
	};
	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", dir, made[i]);
		remove(path);
	}
	return failures != 0;
}

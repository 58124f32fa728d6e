/* unwind_module_reports.c - every module the unwinder holds stays one libdwfl has.
 *
 * libdwfl takes a module reported again under the same name and addresses from another
 * file, or from another open of the same file, for a conflict: it rejects the new one
 * and drops (frees) the one it had.  The unwinder reports one module per file and load
 * bias, and keeps pointers to them, so such a report left it a dangling module (found by
 * fuzz_perf_pipeline: SEGV in elf_getshdrstrndx on the dropped module's unmapped image).
 *
 * The object is the fuzz target's program, fuzz/root/tmp/tephra-fuzz/prog: an ET_EXEC,
 * which libdwfl places at its link-time addresses whatever bias it is given.
 *   1. Two maps of it with different biases (one past the file's segments, as the fuzzed
 *      recordings had it): the bias must not make a second report.
 *   2. Two maps of it at one bias, one found through its build-id in perf's cache, the
 *      other at its recorded path (two files): the first module must stay libdwfl's.
 * The oracle is libdwfl's own module list (dwfl_getmodules), compared by pointer only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "unwind/unwind_space.h"

#define PROG "/tmp/tephra-fuzz/prog"

static const uint8_t prog_build_id[20] = {
	0x45, 0x87, 0x01, 0xeb, 0x6c, 0x98, 0xbc, 0x9f, 0xcb, 0xd4,
	0x83, 0xc0, 0x33, 0x74, 0x02, 0x12, 0x7d, 0x56, 0x49, 0x5e,
};

struct module_set {
	Dwfl_Module *mods[16];
	size_t nr;
};

static int collect(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base,
		   void *arg)
{
	struct module_set *set = arg;

	(void)userdata;
	(void)name;
	(void)base;
	if (set->nr < sizeof(set->mods) / sizeof(set->mods[0]))
		set->mods[set->nr++] = mod;
	return DWARF_CB_OK;
}

/* Whether every module SP holds (mod != NULL) is in libdwfl's list; *NR_HELD: how many. */
static int held_modules_are_libdwfls(struct unwind_space *sp, size_t *nr_held)
{
	struct module_set set = { .nr = 0 };

	dwfl_getmodules(sp->dwfl, collect, &set, 0);
	*nr_held = 0;
	for (size_t i = 0; i < sp->nr_modules; i++) {
		Dwfl_Module *mod = sp->modules[i]->mod;
		int known = 0;

		if (!mod)
			continue;
		(*nr_held)++;
		for (size_t j = 0; j < set.nr; j++)
			known |= set.mods[j] == mod;
		if (!known)
			return 0;
	}
	return 1;
}

static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	char buf[4096];
	size_t n;
	int ok = in && out;

	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static void learn(struct unwind_space *sp, uint64_t start, uint64_t end, uint64_t pgoff,
		  int with_build_id)
{
	struct unwind_map map = {
		.path = PROG, .start = start, .end = end, .pgoff = pgoff,
		.build_id = with_build_id ? prog_build_id : NULL,
		.build_id_size = with_build_id ? sizeof(prog_build_id) : 0,
	};

	sp->new_map_addr = start;
	unwind_space_learn(sp, &map);
}

/* Case 1: the program's text at its place, and a map past its segments (bias 0x400000
 * by the map's start and offset). */
static void two_biases(const char *root)
{
	struct unwinder_options opts = { .arch = UNWIND_ARCH_X86_64, .root_dir = root };
	struct unwind_space sp;
	size_t held = 0;

	unwind_space_init(&sp, &opts);
	sp.dwfl = dwfl_begin(&callbacks);
	learn(&sp, 0x404000, 0x3100401000, 0x4000, 0);
	learn(&sp, 0x401000, 0x402000, 0x1000, 0);
	CHECK(held_modules_are_libdwfls(&sp, &held));
	CHECK(held >= 1);
	/* the text's map has the program's module: the one libdwfl has at its pc */
	CHECK(sp.nr_maps == 2 && sp.maps[1].module->mod &&
	      sp.maps[1].module->mod == dwfl_addrmodule(sp.dwfl, 0x401000));
	dwfl_end(sp.dwfl);
	sp.dwfl = NULL;
	unwind_space_release(&sp);
}

/* Case 2: one map found through perf's cache (with the build-id), the next at the
 * recorded path (without): two files at the same addresses. */
static void two_files(const char *root)
{
	struct unwinder_options opts = { .arch = UNWIND_ARCH_X86_64, .root_dir = root };
	struct unwind_space sp;
	size_t held = 0;

	unwind_space_init(&sp, &opts);
	sp.dwfl = dwfl_begin(&callbacks);
	learn(&sp, 0x401000, 0x402000, 0x1000, 1);
	learn(&sp, 0x402000, 0x403000, 0x2000, 0);
	CHECK(sp.nr_modules == 2 && sp.modules[0]->file && sp.modules[1]->file &&
	      strcmp(sp.modules[0]->file, sp.modules[1]->file) != 0);
	CHECK(held_modules_are_libdwfls(&sp, &held));
	CHECK(sp.modules[0]->mod != NULL);
	CHECK(sp.modules[0]->mod == dwfl_addrmodule(sp.dwfl, 0x401000));
	dwfl_end(sp.dwfl);
	sp.dwfl = NULL;
	unwind_space_release(&sp);
}

int main(void)
{
	const char *top = getenv("TOP"), *tmp = getenv("TEST_TMP");
	char prog[2048], root[2048], path[4096];

	snprintf(prog, sizeof(prog), "%s/fuzz/root" PROG, top ? top : ".");
	if (!tmp)
		tmp = "/tmp";
	/* a root of our own: the program at its recorded path and in perf's cache */
	snprintf(root, sizeof(root), "%s/unwind_module_reports.%d", tmp, (int)getpid());
	snprintf(path, sizeof(path), "%s", root);
	CHECK(mkdir(path, 0700) == 0);
	strcat(path, "/tmp");
	mkdir(path, 0700);
	strcat(path, "/tephra-fuzz");
	mkdir(path, 0700);
	strcat(path, "/prog");
	CHECK(copy_file(prog, path) == 0);
	snprintf(path, sizeof(path), "%s/.debug", root);
	mkdir(path, 0700);
	strcat(path, "/.build-id");
	mkdir(path, 0700);
	strcat(path, "/45");
	mkdir(path, 0700);
	strcat(path, "/8701eb6c98bc9fcbd483c0337402127d56495e");
	mkdir(path, 0700);
	strcat(path, "/elf");
	CHECK(copy_file(prog, path) == 0);
	if (failures)
		return 1;

	elf_version(EV_CURRENT);
	two_biases(root);
	two_files(root);

	static const char *const made[] = {
		"/.debug/.build-id/45/8701eb6c98bc9fcbd483c0337402127d56495e/elf",
		"/.debug/.build-id/45/8701eb6c98bc9fcbd483c0337402127d56495e",
		"/.debug/.build-id/45", "/.debug/.build-id", "/.debug",
		"/tmp/tephra-fuzz/prog", "/tmp/tephra-fuzz", "/tmp", "",
	};
	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, made[i]);
		remove(path);
	}
	return failures != 0;
}

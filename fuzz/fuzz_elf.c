/* fuzz_elf.c - libFuzzer target: an ELF object (executable, shared object, debug file)
 * as the readers that open one take it: the symbol store (ELF symbols with perf's rules,
 * the PLT, DWARF inline chains and source lines, the addr2line answers) as for an object
 * a recording points at, and the guest readers of tephra trace/emu (symbols, executable
 * segments, instruction fetch, DWARF frames).
 *
 * The input is the file /obj under a fresh --symfs root of the process's own, so no
 * other file (debug link, build-id cache, /usr/lib/debug) is found for it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"
#include "base/strbuf.h"
#include "symbol/symbol_store.h"
#include "trace/guest_dwarf.h"
#include "trace/guest_elf.h"

static char root[64], obj[96];

static void remove_root(void)
{
	unlink(obj);
	rmdir(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	unsetenv("DEBUGINFOD_URLS");
	snprintf(root, sizeof(root), "/tmp/tephra-fuzz-elf-%d", (int)getpid());
	snprintf(obj, sizeof(obj), "%s/obj", root);
	if (mkdir(root, 0700) != 0 && errno != EEXIST)
		abort();
	atexit(remove_root);
	return 0;
}

static void count_cb(void *arg, const char *name, int inlined)
{
	*(size_t *)arg += strlen(name) + (size_t)inlined;
}

static void src_cb(void *arg, const char *name, int inlined, const char *srcline)
{
	*(size_t *)arg += strlen(name) + (size_t)inlined + (srcline ? strlen(srcline) : 0);
}

static void symbols(void)
{
	const struct symbol_options o = { .root_dir = root, .kallsyms = "/dev/null" };
	struct symbol_store *store = symbol_store_new(&o);
	struct dso *d = symbol_store_dso(store, "/obj", NULL, 0);
	volatile size_t sink = 0;
	size_t n = 0;

	/* addresses where small objects put their code, and the first symbols' own */
	static const uint64_t probes[] = { 0, 0x40, 0x400, 0x1000, 0x1040, 0x1100, 0x2000 };
	uint64_t addrs[16];
	size_t na = 0;

	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		addrs[na++] = probes[i];
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]) && na < 16; i++) {
		const struct dso_symbol *s = dso_find_symbol(d, probes[i]);

		if (s)
			addrs[na++] = s->start + (s->end - s->start) / 2;
	}
	for (size_t i = 0; i < na; i++) {
		const struct dso_symbol *s = dso_find_symbol(d, addrs[i]);
		const char *file;
		unsigned line;
		char *text = NULL;
		uint64_t file_addr;

		if (s)
			sink += strlen(s->name);
		dso_inline_chain(d, addrs[i], count_cb, &n);
		dso_inline_chain_srclines(d, addrs[i], src_cb, &n);
		if (dso_srcline(d, addrs[i], &file, &line) == 0)
			sink += strlen(file) + line;
		if (dso_frame_srcline(d, addrs[i], &text, &file_addr) == 1)
			sink += strlen(text);
		free(text);
	}
	sink += (size_t)dso_has_symbols(d) + (size_t)dso_build_id_mismatch(d) + n;
	symbol_store_free(store);
	(void)sink;
}

static void guest(void)
{
	struct guest_elf g;
	struct tephra_error err;
	struct guest_dwarf *dw;
	struct strbuf out = STRBUF_INIT;

	if (guest_elf_open(&g, obj, &err) != 0)
		return;
	dw = guest_dwarf_open(obj, &err);
	for (size_t i = 0; i < g.nsegs && i < 4; i++) {
		uint32_t bits;

		for (uint64_t off = 0; off < 64; off += 2)
			guest_elf_fetch(&g, g.segs[i].vaddr + off, &bits);
	}
	for (size_t i = 0; dw && i < g.syms.nfuncs && i < 16; i++) {
		guest_dwarf_frames(dw, &g.syms, g.syms.funcs[i].start, &out);
		strbuf_reset(&out);
	}
	if (dw) {
		guest_dwarf_frames(dw, &g.syms, g.entry, &out);
		guest_dwarf_close(dw);
	}
	strbuf_release(&out);
	guest_elf_close(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(obj, "w");

	if (!f)
		return 0;
	if (size && fwrite(data, 1, size, f) != size) {
		fclose(f);
		return 0;
	}
	fclose(f);
	symbols();
	guest();
	return 0;
}

/* symbol_store.h - "what is at this address in this object".
 *
 * One struct dso per object (ELF file identified by path + build-id, the kernel, a
 * kernel module, a JIT map), loaded lazily on first lookup and cached for the life of
 * the store: nothing is re-read per sample.  Names come out demangled the way perf 6.1
 * prints them (libiberty).
 *
 * Address space of lookups, as perf's:
 *   - user objects: the "map_ip" address, ip - map.start + map.pgoff, i.e. a file
 *     offset based address; ELF symbol values are converted into that space (perf's
 *     adjust_symbols: st_value - sh_addr + sh_offset of the symbol's section);
 *   - kernel and modules: the absolute kernel address;
 *   - JIT maps (/tmp/perf-PID.map): the absolute address (perf maps them 1:1).
 *
 * Where the symbols come from, in perf 6.1's order (the first file with a .symtab
 * gives the symbols, the first with a .dynsym places them and gives the PLT; every
 * file must carry the recorded build-id): .gnu_debuglink targets, the build-id cache
 * (BUILDID_DIR/.build-id/xx/rest/elf, then .../debug), DEBUG_DIR/PATH.debug,
 * DEBUG_DIR/PATH, DEBUG_DIR/.build-id/xx/rest.debug, the file itself.  See
 * docs/symbols.md. */
#ifndef TEPHRA_SYMBOL_SYMBOL_STORE_H
#define TEPHRA_SYMBOL_SYMBOL_STORE_H

#include <stddef.h>
#include <stdint.h>

struct symbol_options {
	const char *buildid_dir; /* perf's build-id cache; NULL = $HOME/.debug */
	const char *debug_dir;   /* NULL = /usr/lib/debug */
	const char *kallsyms;    /* NULL = /proc/kallsyms */
	const char *root_dir;    /* prefix for object paths (perf --symfs); NULL = none.
				  * As with perf, it also moves /usr/lib/debug and the build-id
				  * cache (ROOT/.debug, overriding buildid_dir) under it, and
				  * the kernel gets no symbols (unless kallsyms is given). */
	int root_flat;           /* with root_dir: perf's "--symfs DIR,flat", an object is
				  * looked up as ROOT/its basename (debug_paths.h) */
	int no_demangle;
	int force;               /* perf -f: read a perf.data and /tmp/perf-PID.map files
				  * that root or the user running tephra does not own */
};

enum dso_kind {
	DSO_USER,     /* an ELF file (executable, shared object) */
	DSO_KERNEL,   /* [kernel.kallsyms] */
	DSO_MODULE,   /* [modname] */
	DSO_VDSO,     /* [vdso] */
	DSO_JIT_MAP,  /* symbols from /tmp/perf-PID.map */
	DSO_ANON,     /* //anon, [heap], [stack], memfd without a file: no symbols */
};

struct dso_symbol {
	const char *name; /* demangled unless no_demangle */
	uint64_t start;   /* in the dso's lookup address space (see above) */
	uint64_t end;     /* exclusive; zero-size symbols end where the next one starts */
};

struct symbol_store;
struct dso;

struct symbol_store *symbol_store_new(const struct symbol_options *opts);
void symbol_store_free(struct symbol_store *store);

struct tephra_report;
struct tephra_error;

/* Where warnings go (NULL: nowhere): an object under the root (--symfs) whose build-id
 * is not the recorded one is refused with one warning, given on the thread that looks
 * the object up. */
void symbol_store_set_report(struct symbol_store *store, const struct tephra_report *report);

/* Checks the places OPTS names before anything is read: the root and an explicit
 * build-id cache must be directories, and an explicit build-id cache goes with no root
 * (under a root perf's cache is ROOT/.debug).  Returns 0, or -1 with ERR. */
int symbol_options_check(const struct symbol_options *opts, struct tephra_error *err);

/* With an explicit kallsyms file (opts.kallsyms): reads it now, so that a file that
 * names no kernel symbol is an error before any output rather than frames quietly
 * [unknown].  Returns 0 (also when no file was given), or -1 with ERR. */
int symbol_store_read_kallsyms(struct symbol_store *store, struct tephra_error *err);

/* How many objects' files were not opened because they are not regular files or
 * another user's map file (named_file.h), each warned of once; *FIRST: the first, as
 * "PATH: why" (NULL when none). */
size_t symbol_store_skipped_files(const struct symbol_store *store, const char **first);

struct debug_paths;
/* Where the store looks for objects, debug files and perf's copies (its options' root
 * and build-id cache): the DWARF unwinder of the same session looks there too. */
const struct debug_paths *symbol_store_debug_paths(const struct symbol_store *store);

/* 1 while symbols are still being read on other threads: the kernel's (started when
 * the kernel's dso appears with a recorded build-id, i.e. samples hit the kernel) or
 * objects asked for with dso_prefetch.  A caller with other work can do it first, as
 * the first lookup waits for them. */
int symbol_store_loading(const struct symbol_store *store);

/* Starts loading D's symbols (with DWARF set, its DWARF for inline chains and source
 * lines too) on the store's pool of worker threads (one per CPU the process may use;
 * distinct dsos in parallel), once per dso; lookups wait for it.  For callers that
 * name frames after reading the records: the loading overlaps the reading. */
void symbol_store_prefetch(struct symbol_store *store, struct dso *d, int dwarf);

/* The same, and the DWARF walks of the inline chain at ADDR (dso_inline_chain's
 * address) done ahead on the pool; each (dso, address) once. */
void symbol_store_prefetch_inline(struct symbol_store *store, struct dso *d, uint64_t addr);

/* Returns when the pool has finished every request, the calling thread taking its
 * share of them meanwhile (any lookup does this first anyway). */
void symbol_store_settle(struct symbol_store *store);

/* Returns the dso for an object, creating it on first use (never NULL except on
 * out-of-memory).  PATH is the name as recorded (an MMAP filename, "[vdso]",
 * "[kernel.kallsyms]", "[modname]", "/tmp/perf-123.map"); BUILD_ID may be NULL.
 * The same path with a different build-id is a different dso. */
struct dso *symbol_store_dso(struct symbol_store *store, const char *path,
			     const uint8_t *build_id, size_t build_id_size);

/* The same for an object that a live process maps from its own root (a chroot, a
 * container): PROC_ROOT ("/proc/PID/root") is looked in after perf's build-id cache
 * and before the path itself, and a file there is used only when it carries
 * BUILD_ID (one warning when it does not).  PROC_ROOT NULL: symbol_store_dso. */
struct dso *symbol_store_dso_in(struct symbol_store *store, const char *path,
				const uint8_t *build_id, size_t build_id_size,
				const char *proc_root);

/* The GNU build-id of the ELF file PATH into OUT (up to SIZE bytes): its length, or 0
 * when PATH is no readable ELF file or has none. */
size_t symbol_file_build_id(const char *path, uint8_t *out, size_t size);

enum dso_kind dso_kind(const struct dso *d);
/* The process root symbol_store_dso_in gave D (NULL: none). */
const char *dso_proc_root(const struct dso *d);
const char *dso_path(const struct dso *d);      /* as recorded */
/* The build-id the recording gave (NULL, *SIZE 0: none). */
const uint8_t *dso_recorded_build_id(const struct dso *d, size_t *size);
const char *dso_loaded_from(struct dso *d);     /* file the symbols came from, or NULL */

/* The symbol covering ADDR, or NULL.  Loads the symbols on first call.  The
 * returned pointer stays valid for the life of the store. */
const struct dso_symbol *dso_find_symbol(struct dso *d, uint64_t addr);

/* DWARF inline chain at ADDR (same address space as dso_find_symbol), as perf 6.1
 * prints frames of DWARF callchains: CB gets each function innermost first, ending
 * with the containing function, names demangled like symbols.  INLINED is 0 only
 * for an entry whose name is the ELF symbol's (dso_find_symbol) name: perf prints
 * that one as "sym+0xoff (dso)" and every other one as "name+0xoff (inlined)", all
 * with the ELF symbol's offset (addr - sym->start; addr itself when there is no
 * symbol).  Returns the number of entries; 0 means no DWARF covers ADDR and perf
 * prints the plain frame.  The DWARF index is built once per object, lazily. */
typedef void (*dso_inline_cb)(void *arg, const char *name, int inlined);
int dso_inline_chain(struct dso *d, uint64_t addr, dso_inline_cb cb, void *arg);

/* The same entries with the source position perf prints for each under `-F srcline`
 * ("file:line", the file's last component; "??" / 0 when unknown): the innermost
 * function's line at ADDR, then each caller's call site. */
/* The -F srcline text perf prints under a frame it does not expand: returns 1 with
 * TEXT (malloc'd) addr2line's "file:line" of ADDR; 0 when that is "??:0" (perf prints
 * nothing); -1 when addr2line answers nothing or cannot be asked (perf prints
 * "object[FILE_ADDR]", FILE_ADDR the address in the file). */
int dso_frame_srcline(struct dso *d, uint64_t addr, char **text, uint64_t *file_addr);

typedef void (*dso_inline_src_cb)(void *arg, const char *name, int inlined, const char *srcline);
int dso_inline_chain_srclines(struct dso *d, uint64_t addr, dso_inline_src_cb cb, void *arg);

/* The functions at ADDR as the DWARF nests them (a2l_function_chain: what
 * llvm-symbolizer --inlining answers, not addr2line's quirks), innermost first: names
 * mangled (linkage names) or plain, NULL when DWARF names none; INLINED 1 for all but
 * the outermost (the subprogram); SRCLINE "file:line" (last component) of ADDR for the
 * innermost, of the call site for the others ("??:0" when unknown).  Returns the
 * number of entries, 0 when no DWARF function covers ADDR. */
int dso_function_chain(struct dso *d, uint64_t addr, dso_inline_src_cb cb, void *arg);

/* Source file and line for ADDR from DWARF; 0 on success, -1 when unknown.  *FILE
 * is valid for the life of the store. */
int dso_srcline(struct dso *d, uint64_t addr, const char **file, unsigned *line);

/* Quality facts for the stack-quality report. */
int dso_has_symbols(struct dso *d);
int dso_build_id_mismatch(struct dso *d); /* file on disk has another build-id and no cached copy matched */

#endif

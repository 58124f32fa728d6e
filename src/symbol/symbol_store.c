/* symbol_store.c - the dso cache and the choice of the file each dso's symbols come
 * from, following perf 6.1's search order (see docs/symbols.md); the kernel's symbols
 * and the objects are read ahead on other threads (kallsyms_prefetch.h,
 * dso_prefetch.h).  The lookups are in dso.c. */
#include "symbol/symbol_store.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cpus.h"
#include "base/error.h"
#include "base/report.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "symbol/a2l.h"
#include "symbol/dso_prefetch.h"
#include "symbol/kallsyms_prefetch.h"
#include "symbol/named_file.h"
#include "symbol/perf_map.h"
#include "symbol/symbol_store_internal.h"
#include "symbol/symfile.h"
#include "symbol/vdso_image.h"

static void start_kallsyms_prefetch(struct symbol_store *st, const struct dso *d);

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct symbol_store *symbol_store_new(const struct symbol_options *opts)
{
	struct symbol_store *st = xcalloc(1, sizeof(*st));
	struct symbol_options def = { 0 };

	if (!opts)
		opts = &def;
	st->opts.no_demangle = opts->no_demangle;
	st->opts.force = opts->force;
	st->opts.kallsyms = dup_or_null(opts->kallsyms);
	st->opts.root_dir = dup_or_null(opts->root_dir);
	debug_paths_init(&st->paths, opts->root_dir, opts->debug_dir, opts->buildid_dir);
	st->paths.root_flat = opts->root_dir && opts->root_flat;
	hashmap_init(&st->dsos);
	return st;
}

void symbol_store_set_report(struct symbol_store *st, const struct tephra_report *report)
{
	st->report = report;
}

/* DIR must be a directory; WHAT names it in the error. */
static int check_dir(const char *what, const char *dir, struct tephra_error *err)
{
	struct stat sb;

	if (stat(dir, &sb) != 0) {
		tephra_error_set(err, "%s %s: %s", what, dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		tephra_error_set(err, "%s %s: not a directory", what, dir);
		return -1;
	}
	return 0;
}

int symbol_options_check(const struct symbol_options *o, struct tephra_error *err)
{
	if (o->root_dir && check_dir("--symfs", o->root_dir, err))
		return -1;
	if (o->buildid_dir && o->root_dir) {
		tephra_error_set(err, "--buildid-dir %s with --symfs %s: under a symfs the "
				 "build-id cache is %s/.debug (as perf's); unpack there",
				 o->buildid_dir, o->root_dir, o->root_dir);
		return -1;
	}
	if (o->buildid_dir && check_dir("--buildid-dir", o->buildid_dir, err))
		return -1;
	return 0;
}

int symbol_store_read_kallsyms(struct symbol_store *st, struct tephra_error *err)
{
	const char *file = st->opts.kallsyms;

	if (!file || st->kallsyms_tried)
		return 0;
	struct stat sb;
	if (stat(file, &sb) != 0) {
		tephra_error_set(err, "--kallsyms %s: %s", file, strerror(errno));
		return -1;
	}
	if (S_ISDIR(sb.st_mode)) { /* a pipe is fine: <(ssh host cat /proc/kallsyms) */
		tephra_error_set(err, "--kallsyms %s: a directory, not a kallsyms file", file);
		return -1;
	}
	st->kallsyms_tried = 1;
	st->kallsyms_from = xstrdup(file);
	if (kallsyms_load(&st->kallsyms, file) != 0) {
		tephra_error_set(err, "--kallsyms %s: cannot read it", file);
		return -1;
	}
	st->kallsyms_ok = 1;
	if (!st->kallsyms.table.nr) {
		tephra_error_set(err, "--kallsyms %s: no kernel symbol in it (a copy of "
				 "/proc/kallsyms has lines 'ADDRESS TYPE NAME')", file);
		return -1;
	}
	if (st->kallsyms.restricted) {
		tephra_error_set(err, "--kallsyms %s: every address is 0 (copied while "
				 "kptr_restrict hid them: copy /proc/kallsyms as root)", file);
		return -1;
	}
	return 0;
}

void symbol_store_warn_pending(struct dso *d)
{
	if (d->skipped) {
		struct symbol_store *st = d->store;
		tephra_warn(st->report, "warning: %s: not opened, its frames stay unnamed",
			    d->skipped);
		st->nr_skipped_files++;
		if (!st->first_skipped)
			st->first_skipped = d->skipped;
		else
			free(d->skipped);
		d->skipped = NULL;
	}
	if (!d->refused)
		return;
	static const char digits[] = "0123456789abcdef";
	char hex[2 * MAX_BUILD_ID + 1];
	for (size_t i = 0; i < d->build_id_size; i++) {
		hex[2 * i] = digits[d->build_id[i] >> 4];
		hex[2 * i + 1] = digits[d->build_id[i] & 15];
	}
	hex[2 * d->build_id_size] = '\0';
	tephra_warn(d->store->report, "warning: %s: not the recorded %s (its build-id is not "
		    "%s): not used, its frames stay unnamed", d->refused, d->path, hex);
	free(d->refused);
	d->refused = NULL;
}

static void dso_free(struct dso *d)
{
	symbol_table_release(&d->table);
	a2l_close(d->a2l);
	free(d->path);
	free(d->proc_root);
	free(d->module);
	free(d->loaded_from);
	free(d->refused);
	free(d->skipped);
	free(d);
}

size_t symbol_store_skipped_files(const struct symbol_store *st, const char **first)
{
	*first = st->first_skipped;
	return st->nr_skipped_files;
}

const struct debug_paths *symbol_store_debug_paths(const struct symbol_store *st)
{
	return &st->paths;
}

void symbol_store_free(struct symbol_store *st)
{
	if (!st)
		return;
	kallsyms_prefetch_cancel(st->prefetch);
	st->prefetch = NULL;
	dso_prefetch_free(st->dso_prefetch);
	st->dso_prefetch = NULL;
	for (size_t i = 0; i < hashmap_count(&st->dsos); i++)
		dso_free((struct dso *)(uintptr_t)hashmap_entry(&st->dsos, i)->value);
	hashmap_release(&st->dsos);
	if (st->kallsyms_ok)
		kallsyms_release(&st->kallsyms);
	free(st->kallsyms_from);
	free(st->first_skipped);
	debug_paths_release(&st->paths);
	free((char *)st->opts.kallsyms);
	free((char *)st->opts.root_dir);
	free(st);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* The module name perf gives a kernel module file: basename without .ko*, '-' as '_'. */
static char *module_name_of(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (base[0] == '[') {
		size_t n = strlen(base + 1);
		if (n && base[n] == ']')
			n--;
		return xstrndup(base + 1, n);
	}
	const char *ko = strstr(base, ".ko");
	char *m = xstrndup(base, ko ? (size_t)(ko - base) : strlen(base));
	for (char *p = m; *p; p++)
		if (*p == '-')
			*p = '_';
	return m;
}

static enum dso_kind kind_of(const char *path)
{
	if (strcmp(path, "[kernel.kallsyms]") == 0 || strncmp(path, "[kernel.kallsyms]", 17) == 0)
		return DSO_KERNEL;
	if (strcmp(path, "[vdso]") == 0)
		return DSO_VDSO;
	if (strncmp(path, "/tmp/perf-", 10) == 0 && ends_with(path, ".map"))
		return DSO_JIT_MAP;
	if (strcmp(path, "[heap]") == 0 || strcmp(path, "[stack]") == 0 ||
	    strcmp(path, "[vsyscall]") == 0 || strcmp(path, "[vvar]") == 0 ||
	    strncmp(path, "//anon", 6) == 0 || strncmp(path, "/dev/zero", 9) == 0 ||
	    strncmp(path, "/anon_hugepage", 14) == 0 || strncmp(path, "/memfd:", 7) == 0 ||
	    strncmp(path, "/SYSV", 5) == 0 || strcmp(path, "[unknown]") == 0 || !*path)
		return DSO_ANON;
	if (path[0] == '[')
		return DSO_MODULE;
	if (ends_with(path, ".ko") || ends_with(path, ".ko.xz") || ends_with(path, ".ko.gz") ||
	    ends_with(path, ".ko.zst"))
		return DSO_MODULE;
	return DSO_USER;
}

struct dso *symbol_store_dso(struct symbol_store *st, const char *path,
			     const uint8_t *build_id, size_t build_id_size)
{
	return symbol_store_dso_in(st, path, build_id, build_id_size, NULL);
}

struct dso *symbol_store_dso_in(struct symbol_store *st, const char *path,
				const uint8_t *build_id, size_t build_id_size,
				const char *proc_root)
{
	if (!path)
		path = "";
	if (!build_id)
		build_id_size = 0;
	if (build_id_size > MAX_BUILD_ID)
		build_id_size = MAX_BUILD_ID;
	/* the key: the path, its NUL (a path holds none), the build-id, then 0, or 1 and
	 * the process root (which starts with '/') */
	size_t len = strlen(path), root_len = proc_root ? strlen(proc_root) : 0;
	size_t key_len = len + 1 + build_id_size + 1 + root_len;
	char *key = xmalloc(key_len);
	int created;
	memcpy(key, path, len + 1);
	if (build_id_size)
		memcpy(key + len + 1, build_id, build_id_size);
	key[len + 1 + build_id_size] = proc_root ? 1 : 0;
	if (root_len)
		memcpy(key + len + 2 + build_id_size, proc_root, root_len);
	size_t i = hashmap_intern(&st->dsos, key, key_len, &created);
	free(key);
	if (!created)
		return (struct dso *)(uintptr_t)hashmap_entry(&st->dsos, i)->value;
	struct dso *d = xcalloc(1, sizeof(*d));
	d->store = st;
	d->path = xstrdup(path);
	d->kind = kind_of(path);
	d->proc_root = proc_root ? xstrdup(proc_root) : NULL;
	if (d->kind == DSO_MODULE)
		d->module = module_name_of(path);
	if (build_id_size) {
		memcpy(d->build_id, build_id, build_id_size);
		memcpy(d->key_build_id, build_id, build_id_size);
	}
	d->build_id_size = d->key_build_id_size = build_id_size;
	d->table.demangle = !st->opts.no_demangle && (d->kind == DSO_USER || d->kind == DSO_VDSO);
	hashmap_entry(&st->dsos, i)->value = (uintptr_t)d;
	/* perf records the kernel's build-id only when samples hit it: then its symbols
	 * will be needed, and reading them can start now */
	if (d->kind == DSO_KERNEL && build_id_size)
		start_kallsyms_prefetch(st, d);
	return d;
}

/* Build-ids of different lengths (a 16-byte one recorded padded to 20) match when
 * the common part agrees and the longer one's rest is zero. */
static int build_id_equal(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
	size_t n = na < nb ? na : nb;
	if (n == 0 || memcmp(a, b, n) != 0)
		return 0;
	const uint8_t *rest = na > nb ? a : b;
	for (size_t i = n; i < (na > nb ? na : nb); i++)
		if (rest[i])
			return 0;
	return 1;
}

static int is_regular_file(const char *path)
{
	return named_file_check(path, 0, NULL) == 0;
}

/* Remembers the first file D's search did not open for WHY (named_file.h), to warn of
 * on the looking-up thread. */
static void note_skipped(struct dso *d, const char *path, const char *why)
{
	if (d->skipped || !named_file_refused(why))
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s: %s", path, why);
	d->skipped = sb.buf;
}

/* ---- kernel ---------------------------------------------------------------- */

/* Reads the running kernel's build-id from /sys/kernel/notes; returns its size. */
static size_t running_kernel_build_id(uint8_t *out)
{
	FILE *f = fopen("/sys/kernel/notes", "re");
	if (!f)
		return 0;
	uint8_t buf[4096];
	size_t n = fread(buf, 1, sizeof(buf), f), off = 0, got = 0;
	fclose(f);
	while (off + 12 <= n) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		size_t name_off = off + 12, desc_off = name_off + ((namesz + 3u) & ~3u);
		size_t next = desc_off + ((descsz + 3u) & ~3u);
		if (namesz > n || descsz > n || next > n)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(buf + name_off, "GNU", 4) == 0) {
			got = descsz < MAX_BUILD_ID ? descsz : MAX_BUILD_ID;
			memcpy(out, buf + desc_off, got);
			break;
		}
		off = next;
	}
	return got;
}

/* Which kallsyms file describes the recorded kernel, in perf 6.1's order: the running
 * kernel's when the build-ids agree or none was recorded, then the copy in the
 * build-id cache.  With a --symfs root perf reads no local kernel files at all.
 * NULL: nothing names this kernel. */
static const char *pick_kallsyms(struct symbol_store *st, const struct dso *d, struct strbuf *sb)
{
	if (st->opts.kallsyms)
		return st->opts.kallsyms;   /* an explicit file stands for the recorded kernel */
	if (st->opts.root_dir)
		return NULL;
	int host = !d->build_id_size;
	if (!host) {
		uint8_t run[MAX_BUILD_ID];
		size_t n = running_kernel_build_id(run);
		host = build_id_equal(run, n, d->build_id, d->build_id_size);
	}
	if (host && access("/proc/kallsyms", R_OK) == 0)
		return "/proc/kallsyms";
	if (!d->build_id_size)
		return NULL;
	/* perf's copy: BUILDID_DIR/[kernel.kallsyms]/HEX/kallsyms */
	struct debug_paths_object kernel = {
		.path = "[kernel.kallsyms]", .build_id = d->build_id,
		.build_id_size = d->build_id_size, .cache_name = "kallsyms",
	};
	if (debug_paths_build(&st->paths, DEBUG_PATH_CACHE_BY_PATH, &kernel, sb) != 0)
		return NULL;
	return is_regular_file(sb->buf) ? sb->buf : NULL;
}

/* Reads the kernel's kallsyms ahead (kallsyms_prefetch.h) until load_kernel needs it. */
static void start_kallsyms_prefetch(struct symbol_store *st, const struct dso *d)
{
	if (st->prefetch || st->kallsyms_tried)
		return;
	struct strbuf sb = STRBUF_INIT;
	const char *file = pick_kallsyms(st, d, &sb);
	if (file)
		st->prefetch = kallsyms_prefetch_start(file);
	strbuf_release(&sb);
}

static void load_kernel(struct dso *d)
{
	struct symbol_store *st = d->store;
	struct strbuf sb = STRBUF_INIT;
	const char *file = pick_kallsyms(st, d, &sb);

	if (!file) {
		d->mismatch = 1;
		strbuf_release(&sb);
		return;
	}
	/* One kallsyms per store: the kernel and every module share it. */
	if (!st->kallsyms_tried || (st->kallsyms_from && strcmp(st->kallsyms_from, file) != 0)) {
		if (st->kallsyms_ok)
			kallsyms_release(&st->kallsyms);
		free(st->kallsyms_from);
		st->kallsyms_tried = 1;
		st->kallsyms_from = xstrdup(file);
		struct kallsyms_prefetch *p = st->prefetch;
		st->prefetch = NULL;
		st->kallsyms_ok = kallsyms_prefetch_finish(p, &st->kallsyms, file) == 0 &&
				  !st->kallsyms.restricted;
	}
	if (st->kallsyms_ok)
		d->loaded_from = xstrdup(file);
	strbuf_release(&sb);
}

/* ---- user objects ------------------------------------------------------------ */

/* Where D's symbols may come from, in perf 6.1's order (debug_paths.h). */
static void list_candidates(struct dso *d, struct debug_paths_list *c)
{
	struct symbol_store *st = d->store;
	char *ondisk = debug_paths_on_disk(&st->paths, d->path);
	struct symfile h = { .fd = -1 };
	int have_link = 0;
	struct debug_paths_object obj = {
		.path = d->path, .build_id = d->build_id, .build_id_size = d->build_id_size,
		.cache_name = d->kind == DSO_VDSO ? "vdso" : "elf", .proc_root = d->proc_root,
	};

	if (d->proc_root) {
		/* the debuglink is the mapped file's: the one in the process's root */
		free(ondisk);
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s%s", d->proc_root, d->path);
		ondisk = sb.buf;
	}
	if (d->kind == DSO_USER) {
		if (symfile_open(&h, ondisk) == 0) {
			have_link = 1;
			obj.debuglink = symfile_debuglink(&h);
		} else {
			note_skipped(d, ondisk, h.why);
		}
	}
	debug_paths_list(&st->paths, d->kind == DSO_USER ? DEBUG_PATHS_SYMBOLS :
			 DEBUG_PATHS_SYMBOLS_VDSO, &obj, c);
	if (have_link)
		symfile_close(&h);
	free(ondisk);
}

/* Whether FILE is D's object in its process's root. */
static int is_proc_root_file(const struct dso *d, const char *file)
{
	size_t n = d->proc_root ? strlen(d->proc_root) : 0;
	return n && !strncmp(file, d->proc_root, n) && !strcmp(file + n, d->path);
}

size_t symbol_file_build_id(const char *path, uint8_t *out, size_t size)
{
	struct symfile h;
	if (symfile_open(&h, path) != 0)
		return 0;
	int n = symfile_build_id(&h, out, size);
	symfile_close(&h);
	return n > 0 ? (size_t)n : 0;
}

static void load_elf_object(struct dso *d)
{
	struct debug_paths_list c = { 0 };
	struct symfile syms = { .fd = -1 }, runtime = { .fd = -1 };
	int have_syms = 0, have_runtime = 0;

	if (!d->build_id_size && d->kind == DSO_USER) {
		/* Like perf: with no recorded build-id, take the one of the file on disk, so
		 * /usr/lib/debug/.build-id and the cache can still be searched. */
		char *ondisk = debug_paths_on_disk(&d->store->paths, d->path);
		struct symfile h;
		if (symfile_open(&h, ondisk) == 0) {
			int n = symfile_build_id(&h, d->build_id, sizeof(d->build_id));
			if (n > 0)
				d->build_id_size = (size_t)n;
			symfile_close(&h);
		}
		free(ondisk);
	}
	/* [vdso] with a recorded build-id: only the build-id cache's copy.  perf 6.1
	 * script does not fall back to its own vdso then (observed: [unknown] once the
	 * cached copy is gone).  With no build-id recorded (pipe mode) perf names the
	 * frames from its own vdso, and so do we. */
	list_candidates(d, &c);
	char *object_file = debug_paths_on_disk(&d->store->paths, d->path);
	int own_vdso = -1;
	if (d->kind == DSO_VDSO && !d->build_id_size && !d->store->opts.root_dir) {
		own_vdso = vdso_image_memfd();
		if (own_vdso >= 0) {
			struct strbuf fd_path = STRBUF_INIT;
			strbuf_addf(&fd_path, "/proc/self/fd/%d", own_vdso);
			debug_paths_list_add(&c, fd_path.buf);
		}
	}
	for (size_t i = 0; i < c.nr && !(have_syms && have_runtime); i++) {
		struct symfile h;
		if (symfile_open(&h, c.paths[i]) != 0) {
			note_skipped(d, c.paths[i], h.why);
			continue;
		}
		if (d->build_id_size) {
			/* perf always rejects a file whose build-id is not the recorded one */
			uint8_t bid[MAX_BUILD_ID];
			int n = symfile_build_id(&h, bid, sizeof(bid));
			if (n < 0 || !build_id_equal(bid, (size_t)n, d->build_id, d->build_id_size)) {
				/* the user pointed at this file (--symfs), or it is what a process
				 * in another root mapped: say why it is not used */
				if ((d->store->opts.root_dir || d->proc_root) &&
				    d->kind == DSO_USER && !d->refused &&
				    (!strcmp(c.paths[i], object_file) || is_proc_root_file(d, c.paths[i])))
					d->refused = xstrdup(c.paths[i]);
				symfile_close(&h);
				continue;
			}
		}
		int used = 0;
		if (!have_syms && symfile_has_symtab(&h)) {
			syms = h;
			have_syms = used = 1;
		}
		if (!have_runtime && symfile_has_dynsym(&h)) {
			if (used) {
				/* same file serves both: reopen a second handle */
				if (symfile_open(&runtime, c.paths[i]) == 0)
					have_runtime = 1;
			} else {
				runtime = h;
				have_runtime = used = 1;
			}
		}
		if (!used)
			symfile_close(&h);
	}
	if (have_syms || have_runtime) {
		struct symfile *s = have_syms ? &syms : &runtime;
		struct symfile *r = have_runtime ? &runtime : &syms;
		if (symfile_load_symbols(&d->table, s, r) > 0)
			d->loaded_from = xstrdup(s->path);
		d->text_offset = symfile_text_offset(r);
	} else if (d->build_id_size && d->kind == DSO_USER) {
		char *ondisk = debug_paths_on_disk(&d->store->paths, d->path);
		d->mismatch = is_regular_file(ondisk);
		free(ondisk);
	}
	if (have_syms)
		symfile_close(&syms);
	if (have_runtime)
		symfile_close(&runtime);
	if (own_vdso >= 0) {
		close(own_vdso);
		if (d->loaded_from) {
			free(d->loaded_from);
			d->loaded_from = xstrdup("[vdso] of the running kernel");
		}
	}
	debug_paths_list_release(&c);
	free(object_file);
}

void symbol_store_load_now(struct dso *d)
{
	if (d->loaded)
		return;
	d->loaded = 1;
	switch (d->kind) {
	case DSO_USER:
	case DSO_VDSO:
		load_elf_object(d);
		break;
	case DSO_KERNEL:
	case DSO_MODULE:
		load_kernel(d);
		break;
	case DSO_JIT_MAP: {
		char *p = debug_paths_on_disk(&d->store->paths, d->path);
		const char *why = NULL;
		if (perf_map_load(&d->table, p, !d->store->opts.force, &why) > 0) {
			d->loaded_from = p;
		} else {
			note_skipped(d, p, why);
			free(p);
		}
		break;
	}
	case DSO_ANON:
		break;
	}
}

struct a2l *symbol_store_a2l_now(struct dso *d)
{
	symbol_store_load_now(d);
	if (!d->a2l_tried) {
		d->a2l_tried = 1;
		/* perf asks addr2line about the file the symbols came from (which answers
		 * by ELF symbols where there is no DWARF); not about [vdso] */
		if (d->kind == DSO_USER && d->loaded_from)
			d->a2l = a2l_open(d->loaded_from);
	}
	return d->a2l;
}

/* ---- objects loaded on worker threads (dso_prefetch.h) ------------------------- */

/* One request: whichever thread runs it owns the dso meanwhile. */
static void prefetch_run(struct dso_request rq)
{
	symbol_store_load_now(rq.d);
	struct a2l *dl = rq.dwarf ? symbol_store_a2l_now(rq.d) : NULL;
	/* inline_chain's question, asked ahead: only where it will be asked */
	if (dl && rq.inline_facts && symbol_table_find(&rq.d->table, rq.addr))
		a2l_prepare(dl, rq.addr + rq.d->text_offset);
}

/* The workers, started on first use, one per CPU the process may use (at most
 * PREFETCH_MAX_WORKERS); NULL when no thread can be made (then the lookups load
 * objects themselves). */
#define PREFETCH_MAX_WORKERS 8
static struct dso_prefetch *prefetch_worker(struct symbol_store *st)
{
	if (!st->dso_prefetch)
		st->dso_prefetch = dso_prefetch_new(prefetch_run,
						    cpus_workers(PREFETCH_MAX_WORKERS));
	return st->dso_prefetch;
}

void symbol_store_settle(struct symbol_store *st)
{
	dso_prefetch_settle(st->dso_prefetch);
}

void symbol_store_prefetch(struct symbol_store *st, struct dso *d, int dwarf)
{
	/* only ELF files: the kernel has its own thread, the rest costs nothing */
	int want = dwarf ? 2 : 1;
	if (d->kind != DSO_USER || d->prefetch_asked >= want)
		return;
	d->prefetch_asked = want;
	struct dso_prefetch *p = prefetch_worker(st);
	if (p)
		dso_prefetch_request(p, (struct dso_request){ .d = d, .dwarf = dwarf });
}

void symbol_store_prefetch_inline(struct symbol_store *st, struct dso *d, uint64_t addr)
{
	if (d->kind != DSO_USER)
		return;
	struct dso_prefetch *p = prefetch_worker(st);
	if (!p)
		return;
	d->prefetch_asked = 2;
	/* each (dso, address) once: the caller meets the same frames over and over */
	if (dso_prefetch_first_ask(p, d, addr))
		dso_prefetch_request(p, (struct dso_request){ .d = d, .dwarf = 1,
							      .inline_facts = 1, .addr = addr });
}

int symbol_store_loading(const struct symbol_store *st)
{
	if (st->prefetch && !kallsyms_prefetch_done(st->prefetch))
		return 1;
	return st->dso_prefetch && dso_prefetch_busy(st->dso_prefetch);
}


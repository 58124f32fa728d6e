/* symbol_store.c - the dso cache and the choice of the file each dso's symbols come
 * from, following perf 6.1's search order (see docs/symbols.md). */
#include "symbol/symbol_store.h"

#include <elf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/hashmap.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "symbol/symbol_demangle.h"
#include "symbol/a2l.h"
#include "symbol/debug_paths.h"
#include "symbol/symfile.h"
#include "symbol/kallsyms.h"
#include "symbol/perf_map.h"
#include "symbol/symbol_table.h"
#include "symbol/vdso_image.h"

#define MAX_BUILD_ID 20

struct dso {
	struct dso *next;          /* hash chain */
	struct symbol_store *store;
	char *path;
	char *module;              /* DSO_MODULE: the module name */
	uint8_t key_build_id[MAX_BUILD_ID];  /* as given to symbol_store_dso (the key) */
	size_t key_build_id_size;
	uint8_t build_id[MAX_BUILD_ID];      /* the one searched for (disk's when none given) */
	size_t build_id_size;
	enum dso_kind kind;
	int loaded;
	int mismatch;
	char *loaded_from;
	struct symbol_table table;
	uint64_t text_offset;      /* file offset -> ELF address, for DWARF */
	int dwarf_tried;
	struct a2l *dwarf;
	int prefetch_asked;        /* symbol_store_prefetch: 1 symbols, 2 and DWARF (the
				    * caller's thread only) */
};

struct symbol_store {
	struct symbol_options opts;  /* strings owned; debug_dir and buildid_dir unused */
	struct debug_paths paths;    /* where debug files and perf's copies are */
	struct dso **buckets;
	size_t nr_buckets, nr_dsos;
	int kallsyms_tried;
	struct kallsyms kallsyms;
	int kallsyms_ok;
	char *kallsyms_from;
	struct kallsyms_prefetch *prefetch; /* kallsyms loading on a second thread, or NULL */
	struct dso_prefetch *dso_prefetch;  /* objects loading on another thread, or NULL */
};

static void kallsyms_prefetch_start(struct symbol_store *st, const struct dso *d);
static void kallsyms_prefetch_cancel(struct symbol_store *st);
static void dso_prefetch_stop(struct symbol_store *st);

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
	st->opts.kallsyms = dup_or_null(opts->kallsyms);
	st->opts.root_dir = dup_or_null(opts->root_dir);
	debug_paths_init(&st->paths, opts->root_dir, opts->debug_dir, opts->buildid_dir);
	st->nr_buckets = 64;
	st->buckets = xcalloc(st->nr_buckets, sizeof(*st->buckets));
	return st;
}

static void dso_free(struct dso *d)
{
	symbol_table_release(&d->table);
	a2l_close(d->dwarf);
	free(d->path);
	free(d->module);
	free(d->loaded_from);
	free(d);
}

void symbol_store_free(struct symbol_store *st)
{
	if (!st)
		return;
	kallsyms_prefetch_cancel(st);
	dso_prefetch_stop(st);
	for (size_t i = 0; i < st->nr_buckets; i++) {
		struct dso *d = st->buckets[i], *n;
		for (; d; d = n) {
			n = d->next;
			dso_free(d);
		}
	}
	free(st->buckets);
	if (st->kallsyms_ok)
		kallsyms_release(&st->kallsyms);
	free(st->kallsyms_from);
	debug_paths_release(&st->paths);
	free((char *)st->opts.kallsyms);
	free((char *)st->opts.root_dir);
	free(st);
}

static uint64_t hash_key(const char *path, const uint8_t *bid, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (const char *p = path; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ bid[i]) * 1099511628211ull;
	return h;
}

static void grow_buckets(struct symbol_store *st)
{
	size_t nb = st->nr_buckets * 2;
	struct dso **b = xcalloc(nb, sizeof(*b));

	for (size_t i = 0; i < st->nr_buckets; i++) {
		struct dso *d = st->buckets[i], *n;
		for (; d; d = n) {
			n = d->next;
			size_t k = hash_key(d->path, d->key_build_id, d->key_build_id_size) & (nb - 1);
			d->next = b[k];
			b[k] = d;
		}
	}
	free(st->buckets);
	st->buckets = b;
	st->nr_buckets = nb;
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
	if (!path)
		path = "";
	if (!build_id)
		build_id_size = 0;
	if (build_id_size > MAX_BUILD_ID)
		build_id_size = MAX_BUILD_ID;
	size_t k = hash_key(path, build_id, build_id_size) & (st->nr_buckets - 1);
	for (struct dso *d = st->buckets[k]; d; d = d->next) {
		if (d->key_build_id_size == build_id_size && strcmp(d->path, path) == 0 &&
		    (!build_id_size || memcmp(d->key_build_id, build_id, build_id_size) == 0))
			return d;
	}
	struct dso *d = xcalloc(1, sizeof(*d));
	d->store = st;
	d->path = xstrdup(path);
	d->kind = kind_of(path);
	if (d->kind == DSO_MODULE)
		d->module = module_name_of(path);
	if (build_id_size) {
		memcpy(d->build_id, build_id, build_id_size);
		memcpy(d->key_build_id, build_id, build_id_size);
	}
	d->build_id_size = d->key_build_id_size = build_id_size;
	d->table.demangle = !st->opts.no_demangle && (d->kind == DSO_USER || d->kind == DSO_VDSO);
	d->next = st->buckets[k];
	st->buckets[k] = d;
	if (++st->nr_dsos > st->nr_buckets * 2)
		grow_buckets(st);
	/* perf records the kernel's build-id only when samples hit it: then its symbols
	 * will be needed, and reading them can start now */
	if (d->kind == DSO_KERNEL && build_id_size)
		kallsyms_prefetch_start(st, d);
	return d;
}

enum dso_kind dso_kind(const struct dso *d)
{
	return d->kind;
}

const char *dso_path(const struct dso *d)
{
	return d->path;
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
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
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

/* ---- kallsyms on a second thread ---------------------------------------------
 *
 * The kernel takes ~40 ms to produce /proc/kallsyms and parsing and sorting it takes
 * ~10 ms more; none of it depends on the records.  So it runs on a second thread from
 * the moment the kernel's dso appears with a recorded build-id (its MMAP record, among
 * the first) until the first kernel symbol lookup (load_kernel) joins it.  The thread
 * touches nothing but its own struct kallsyms_prefetch; the owner reads the result
 * only after pthread_join.  A store freed before any lookup stops the thread (it
 * checks STOP between reads) and joins it. */
struct kallsyms_prefetch {
	pthread_t thread;
	char *path;              /* the file it reads (owned) */
	struct kallsyms result;
	int rc;                  /* kallsyms_load's answer */
	atomic_int stop;         /* the result is no longer wanted */
	atomic_int done;         /* the thread has finished (RESULT still needs the join) */
};

static void *kallsyms_prefetch_main(void *arg)
{
	struct kallsyms_prefetch *p = arg;
	p->rc = kallsyms_load_stoppable(&p->result, p->path, &p->stop);
	atomic_store(&p->done, 1);
	return NULL;
}

static void kallsyms_prefetch_start(struct symbol_store *st, const struct dso *d)
{
	if (st->prefetch || st->kallsyms_tried)
		return;
	struct strbuf sb = STRBUF_INIT;
	const char *file = pick_kallsyms(st, d, &sb);
	if (file) {
		struct kallsyms_prefetch *p = xcalloc(1, sizeof(*p));
		p->path = xstrdup(file);
		atomic_init(&p->stop, 0);
		atomic_init(&p->done, 0);
		if (pthread_create(&p->thread, NULL, kallsyms_prefetch_main, p) == 0) {
			st->prefetch = p;
		} else {
			/* no thread: load_kernel reads the file itself */
			free(p->path);
			free(p);
		}
	}
	strbuf_release(&sb);
}

/* Waits for the thread and hands over its struct (NULL when none runs). */
static struct kallsyms_prefetch *kallsyms_prefetch_join(struct symbol_store *st)
{
	struct kallsyms_prefetch *p = st->prefetch;
	if (p) {
		st->prefetch = NULL;
		pthread_join(p->thread, NULL);
	}
	return p;
}


static void kallsyms_prefetch_free(struct kallsyms_prefetch *p)
{
	if (p->rc == 0 && !p->result.restricted)
		kallsyms_release(&p->result);
	free(p->path);
	free(p);
}

static void kallsyms_prefetch_cancel(struct symbol_store *st)
{
	if (st->prefetch)
		atomic_store(&st->prefetch->stop, 1);
	struct kallsyms_prefetch *p = kallsyms_prefetch_join(st);
	if (p)
		kallsyms_prefetch_free(p);
}

/* kallsyms_load of FILE into K, taking the second thread's result when it read FILE. */
static int load_kallsyms_file(struct symbol_store *st, struct kallsyms *k, const char *file)
{
	struct kallsyms_prefetch *p = kallsyms_prefetch_join(st);
	int rc;
	if (p && strcmp(p->path, file) == 0) {
		*k = p->result;
		rc = p->rc;
		memset(&p->result, 0, sizeof(p->result));
		p->rc = -1;
	} else {
		rc = kallsyms_load(k, file);
	}
	if (p)
		kallsyms_prefetch_free(p);
	return rc;
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
		st->kallsyms_ok = load_kallsyms_file(st, &st->kallsyms, file) == 0 &&
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
		.cache_name = d->kind == DSO_VDSO ? "vdso" : "elf",
	};

	if (d->kind == DSO_USER && is_regular_file(ondisk) && symfile_open(&h, ondisk) == 0) {
		have_link = 1;
		obj.debuglink = symfile_debuglink(&h);
	}
	debug_paths_list(&st->paths, d->kind == DSO_USER ? DEBUG_PATHS_SYMBOLS :
			 DEBUG_PATHS_SYMBOLS_VDSO, &obj, c);
	if (have_link)
		symfile_close(&h);
	free(ondisk);
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
		if (is_regular_file(ondisk) && symfile_open(&h, ondisk) == 0) {
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
		if (symfile_open(&h, c.paths[i]) != 0)
			continue;
		if (d->build_id_size) {
			/* perf always rejects a file whose build-id is not the recorded one */
			uint8_t bid[MAX_BUILD_ID];
			int n = symfile_build_id(&h, bid, sizeof(bid));
			if (n < 0 || !build_id_equal(bid, (size_t)n, d->build_id, d->build_id_size)) {
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
}

static void load_now(struct dso *d)
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
		if (perf_map_load(&d->table, p) > 0)
			d->loaded_from = p;
		else
			free(p);
		break;
	}
	case DSO_ANON:
		break;
	}
}

static struct a2l *dso_a2l_now(struct dso *d)
{
	load_now(d);
	if (!d->dwarf_tried) {
		d->dwarf_tried = 1;
		/* perf asks addr2line about the file the symbols came from (which answers
		 * by ELF symbols where there is no DWARF); not about [vdso] */
		if (d->kind == DSO_USER && d->loaded_from)
			d->dwarf = a2l_open(d->loaded_from);
	}
	return d->dwarf;
}

/* ---- objects loaded on a second thread ------------------------------------------
 *
 * Reading an object's symbols and opening its DWARF (inflating glibc's debug sections)
 * are fixed costs of tens of milliseconds that depend on nothing but the file.  A
 * reader that will name frames later (tephra fold names each new stack at the end)
 * asks for them with symbol_store_prefetch as soon as it meets an object, and one
 * worker thread loads them while the records are still being read.
 *
 * Ownership: a queued dso belongs to the worker until the queue is empty again;
 * every public lookup first waits for that (settle), so a caller can never read a
 * dso the worker is writing.  The worker touches only the dsos it dequeues (never
 * the hash table) and the store's options, which do not change. */
struct dso_request {
	struct dso *d;
	int dwarf;         /* open its DWARF too */
	int inline_facts;  /* and work out the inline chain facts at ADDR */
	uint64_t addr;
};

struct dso_prefetch {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;        /* a request was queued or freed up, or closing */
	pthread_cond_t progress;    /* a request was finished */
	struct dso_request *queue;  /* taken requests have d == NULL */
	size_t head, nr, cap;
	atomic_size_t outstanding;  /* requests queued and not finished */
	const struct dso *working;  /* the dso the worker is loading (NULL: none) */
	const struct dso *helping;  /* the dso the caller's thread is loading, see settle */
	int closing;
	struct hashmap asked;       /* (dso, address) of inline requests made (the
				     * asking thread's alone) */
};

/* One request: whichever thread runs it owns the dso meanwhile. */
static void prefetch_run(struct dso_request rq)
{
	load_now(rq.d);
	struct a2l *dl = rq.dwarf ? dso_a2l_now(rq.d) : NULL;
	/* inline_chain's question, asked ahead: only where it will be asked */
	if (dl && rq.inline_facts && symbol_table_find(&rq.d->table, rq.addr))
		a2l_prepare(dl, rq.addr + rq.d->text_offset);
}

/* Under LOCK: the first queued request whose dso is not BUSY (the other thread's), or
 * -1.  Requests of one dso thus run one at a time, in queue order. */
static ptrdiff_t next_request(struct dso_prefetch *p, const struct dso *busy)
{
	while (p->head < p->nr && !p->queue[p->head].d)
		p->head++;
	if (p->head == p->nr) {
		p->head = p->nr = 0;
		return -1;
	}
	for (size_t i = p->head; i < p->nr; i++)
		if (p->queue[i].d && p->queue[i].d != busy)
			return (ptrdiff_t)i;
	return -1;
}

/* Under LOCK (released meanwhile): runs queued request I, its dso marked as OWNER's
 * while it runs (the worker's or the helping caller's). */
static void run_queued(struct dso_prefetch *p, size_t i, const struct dso **owner)
{
	struct dso_request rq = p->queue[i];
	p->queue[i].d = NULL;
	*owner = rq.d;
	pthread_mutex_unlock(&p->lock);
	prefetch_run(rq);
	pthread_mutex_lock(&p->lock);
	*owner = NULL;
	atomic_fetch_sub_explicit(&p->outstanding, 1, memory_order_release);
}

static void *dso_prefetch_main(void *arg)
{
	struct dso_prefetch *p = arg;
	ptrdiff_t i = -1;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->closing && (i = next_request(p, p->helping)) < 0)
			pthread_cond_wait(&p->wake, &p->lock);
		if (p->closing)
			break;
		run_queued(p, (size_t)i, &p->working);
		pthread_cond_broadcast(&p->progress);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Returns once every request is finished: then all dsos are the caller's.  Meanwhile
 * the caller's thread runs the requests of other dsos than the worker's (at the end of
 * a fold the main thread would otherwise sit idle while the worker finishes). */
static void settle(struct symbol_store *st)
{
	struct dso_prefetch *p = st->dso_prefetch;
	if (!p || atomic_load_explicit(&p->outstanding, memory_order_acquire) == 0)
		return;
	pthread_mutex_lock(&p->lock);
	while (atomic_load_explicit(&p->outstanding, memory_order_acquire) != 0) {
		ptrdiff_t i = next_request(p, p->working);
		if (i < 0) {
			pthread_cond_wait(&p->progress, &p->lock);
			continue;
		}
		run_queued(p, (size_t)i, &p->helping);
		pthread_cond_signal(&p->wake); /* the worker may wait for that dso */
	}
	pthread_mutex_unlock(&p->lock);
}

void symbol_store_settle(struct symbol_store *st)
{
	settle(st);
}

static void dso_prefetch_stop(struct symbol_store *st)
{
	struct dso_prefetch *p = st->dso_prefetch;
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->closing = 1;
	p->head = p->nr; /* what is still queued is no longer wanted */
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->wake);
	pthread_cond_destroy(&p->progress);
	free(p->queue);
	hashmap_release(&p->asked);
	free(p);
	st->dso_prefetch = NULL;
}

/* The worker, started on first use; NULL when no thread can be made (then the lookups
 * load objects themselves). */
static struct dso_prefetch *prefetch_worker(struct symbol_store *st)
{
	if (st->dso_prefetch)
		return st->dso_prefetch;
	struct dso_prefetch *p = xcalloc(1, sizeof(*p));
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	pthread_cond_init(&p->progress, NULL);
	atomic_init(&p->outstanding, 0);
	hashmap_init(&p->asked);
	if (pthread_create(&p->thread, NULL, dso_prefetch_main, p) != 0) {
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->wake);
		pthread_cond_destroy(&p->progress);
		hashmap_release(&p->asked);
		free(p);
		return NULL;
	}
	return st->dso_prefetch = p;
}

static void prefetch_request(struct dso_prefetch *p, struct dso_request rq)
{
	pthread_mutex_lock(&p->lock);
	if (p->nr == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->queue = xrealloc(p->queue, p->cap * sizeof(*p->queue));
	}
	p->queue[p->nr++] = rq;
	atomic_fetch_add_explicit(&p->outstanding, 1, memory_order_relaxed);
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
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
		prefetch_request(p, (struct dso_request){ .d = d, .dwarf = dwarf });
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
	struct { const struct dso *d; uint64_t addr; } key = { d, addr };
	int created;
	hashmap_intern(&p->asked, &key, sizeof(key), &created);
	if (created)
		prefetch_request(p, (struct dso_request){ .d = d, .dwarf = 1, .inline_facts = 1,
							  .addr = addr });
}

int symbol_store_loading(const struct symbol_store *st)
{
	if (st->prefetch && !atomic_load(&st->prefetch->done))
		return 1;
	return st->dso_prefetch &&
	       atomic_load_explicit(&st->dso_prefetch->outstanding, memory_order_acquire) != 0;
}

static void load(struct dso *d)
{
	settle(d->store);
	load_now(d);
}

static struct a2l *dso_a2l(struct dso *d)
{
	settle(d->store);
	return dso_a2l_now(d);
}

const char *dso_loaded_from(struct dso *d)
{
	load(d);
	return d->loaded_from;
}

const struct dso_symbol *dso_find_symbol(struct dso *d, uint64_t addr)
{
	load(d);
	if (d->kind == DSO_KERNEL || d->kind == DSO_MODULE) {
		if (!d->loaded_from)
			return NULL;
		return kallsyms_find(&d->store->kallsyms, d->module, addr);
	}
	return symbol_table_find(&d->table, addr);
}


struct inline_walk {
	struct dso *d;
	const char *base_name;
	dso_inline_cb cb;
	dso_inline_src_cb src_cb;
	void *arg;
};

/* perf's srcline_from_fileline: the file's last component (addr2line's "??" when
 * unknown), a colon, the line (0 when unknown). */
static char *srcline_text(const char *file, unsigned line)
{
	const char *f = file ? file : "??";
	const char *slash = strrchr(f, '/');
	if (slash)
		f = slash + 1;
	size_t n = strlen(f) + 16;
	char *s = xmalloc(n);
	snprintf(s, n, "%s:%u", f, line);
	return s;
}

static void inline_record_cb(void *arg, const char *raw, const char *file, unsigned line)
{
	struct inline_walk *w = arg;
	char *dem = w->d->table.demangle ? symbol_demangle(raw) : NULL;
	const char *name = dem ? dem : raw;
	int inlined = !(w->base_name && strcmp(name, w->base_name) == 0);

	if (w->src_cb) {
		char *src = srcline_text(file, line);
		w->src_cb(w->arg, name, inlined, src);
		free(src);
	} else {
		w->cb(w->arg, name, inlined);
	}
	free(dem);
}

static int inline_chain(struct dso *d, uint64_t addr, struct inline_walk *w)
{
	struct a2l *dl = dso_a2l(d);
	if (!dl)
		return 0;
	const struct dso_symbol *base = dso_find_symbol(d, addr);
	if (!base) /* perf expands only frames it has a symbol for */
		return 0;
	w->d = d;
	w->base_name = base->name;
	return a2l_inline_records(dl, addr + d->text_offset, inline_record_cb, w);
}

int dso_inline_chain(struct dso *d, uint64_t addr, dso_inline_cb cb, void *arg)
{
	struct inline_walk w = { .cb = cb, .arg = arg };
	return inline_chain(d, addr, &w);
}

int dso_inline_chain_srclines(struct dso *d, uint64_t addr, dso_inline_src_cb cb, void *arg)
{
	struct inline_walk w = { .src_cb = cb, .arg = arg };
	return inline_chain(d, addr, &w);
}

int dso_frame_srcline(struct dso *d, uint64_t addr, char **text, uint64_t *file_addr)
{
	struct a2l *dl = dso_a2l(d);
	const char *file = NULL;
	unsigned line = 0;
	*text = NULL;
	*file_addr = addr + d->text_offset;
	if (!dl || !a2l_first_record(dl, addr + d->text_offset, &file, &line))
		return -1;
	char *s = srcline_text(file, line);
	if (strncmp(s, "??:0", 4) == 0) { /* perf's "unknown": nothing printed */
		free(s);
		return 0;
	}
	*text = s;
	return 1;
}

int dso_srcline(struct dso *d, uint64_t addr, const char **file, unsigned *line)
{
	struct a2l *dl = dso_a2l(d);
	if (!dl)
		return -1;
	return a2l_srcline(dl, addr + d->text_offset, file, line);
}

int dso_has_symbols(struct dso *d)
{
	load(d);
	if (d->kind == DSO_KERNEL || d->kind == DSO_MODULE)
		return d->loaded_from != NULL;
	return d->table.nr > 0;
}

int dso_build_id_mismatch(struct dso *d)
{
	load(d);
	return d->mismatch;
}

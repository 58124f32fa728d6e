/* machine.c - processes, threads and maps of a recorded system (see machine.h). */
#include "machine/machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "base/hashmap.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "symbol/debug_paths.h"
#include "symbol/symbol_store.h"

#define MAP_HUGETLB_FLAG 0x40000 /* mmap flag, as recorded in MMAP2 */

struct machine {
	struct symbol_store *store;
	const struct perf_build_id_entry *build_ids;
	size_t nr_build_ids;

	struct hashmap threads;  /* tid (hashmap_*_u64) -> the current thread of that tid */
	struct thread *last;     /* the thread found last: samples come in runs of one thread */
	struct thread **all;     /* every thread ever made (replaced ones too), for freeing */
	size_t nr_all, cap_all;

	struct maps *kernel_maps;
	/* The rest of the kernel half of the address space, as the kernel object: perf,
	 * reading the running kernel's /proc/kcore, resolves init text and other kernel
	 * addresses outside the recorded kernel mmap to [kernel.kallsyms] too. */
	struct map_entry kernel_rest;
	struct map_object **objects;
	size_t nr_objects, cap_objects;

	struct hashmap strings;  /* interned comms and names: the map's own copies */
	uint64_t last_version; /* of any maps: each change gets the next one */
};

static struct maps *stamp(struct machine *m, struct maps *maps)
{
	maps->version = ++m->last_version;
	return maps;
}

const char *machine_intern(struct machine *m, const char *s)
{
	size_t i = hashmap_intern(&m->strings, s, strlen(s), NULL);
	return hashmap_entry(&m->strings, i)->key; /* NUL-terminated, never moved */
}

struct machine *machine_new(struct symbol_store *store, const struct perf_build_id_entry *build_ids,
			    size_t nr_build_ids)
{
	struct machine *m = xcalloc(1, sizeof(*m));
	m->store = store;
	m->build_ids = build_ids;
	m->nr_build_ids = nr_build_ids;
	m->kernel_maps = stamp(m, maps_new());
	return m;
}

void machine_free(struct machine *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_all; i++) {
		maps_put(m->all[i]->maps);
		free(m->all[i]);
	}
	free(m->all);
	hashmap_release(&m->threads);
	maps_put(m->kernel_maps);
	for (size_t i = 0; i < m->nr_objects; i++)
		free(m->objects[i]);
	free(m->objects);
	hashmap_release(&m->strings);
	free(m);
}

size_t machine_nr_objects(const struct machine *m)
{
	return m->nr_objects;
}

uint64_t machine_kernel_maps_version(const struct machine *m)
{
	return m->kernel_maps->version;
}

const struct map_object *machine_object(const struct machine *m, uint32_t id)
{
	return id < m->nr_objects ? m->objects[id] : NULL;
}

/* --- threads --- */

static struct thread *find_thread(struct machine *m, int32_t tid)
{
	if (m->last && m->last->tid == tid)
		return m->last;
	int64_t i = hashmap_find_u64(&m->threads, (uint32_t)tid);
	if (i < 0)
		return NULL;
	m->last = (struct thread *)(uintptr_t)hashmap_entry(&m->threads, (size_t)i)->value;
	return m->last;
}

/* Makes T the current thread of its tid (replacing any other). */
static void set_thread(struct machine *m, struct thread *t)
{
	size_t i = hashmap_intern_u64(&m->threads, (uint32_t)t->tid, NULL);
	hashmap_entry(&m->threads, i)->value = (uintptr_t)t;
	m->last = t;
	if (m->nr_all == m->cap_all) {
		m->cap_all = m->cap_all ? m->cap_all * 2 : 64;
		m->all = xrealloc(m->all, m->cap_all * sizeof(*m->all));
	}
	m->all[m->nr_all++] = t;
}

static struct thread *new_thread(struct machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = xcalloc(1, sizeof(*t));
	char name[32];
	t->pid = pid;
	t->tid = tid;
	snprintf(name, sizeof(name), ":%d", tid);
	t->comm = machine_intern(m, name);
	/* perf: a thread of a known process shares the leader's address space. */
	if (pid == tid || pid == -1) {
		t->maps = stamp(m, maps_new());
		set_thread(m, t);
	} else {
		set_thread(m, t);
		struct thread *leader = machine_findnew_thread(m, pid, pid);
		t->maps = leader->maps;
		maps_get(t->maps);
	}
	return t;
}

struct thread *machine_findnew_thread(struct machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = find_thread(m, tid);
	if (t) {
		if (t->pid == -1 && pid != -1)
			t->pid = pid; /* perf fills in a pid learnt later */
		return t;
	}
	return new_thread(m, pid, tid);
}

void machine_comm(struct machine *m, int32_t pid, int32_t tid, const char *comm, int exec)
{
	(void)exec; /* perf keeps the maps across exec; the new mmaps replace what they overlap */
	struct thread *t = machine_findnew_thread(m, pid, tid);
	t->comm = machine_intern(m, comm);
	t->comm_set = 1;
}

void machine_fork(struct machine *m, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid)
{
	struct thread *parent = machine_findnew_thread(m, ppid, ptid);
	if (parent->pid != ppid) {
		/* a stale thread under that tid: start the parent afresh, as perf does */
		parent = new_thread(m, ppid, ptid);
	}
	/* A fork for a known tid replaces that thread (the old one's tid was reused). */
	struct thread *t = find_thread(m, tid);
	if (t && t != parent) {
		struct thread *fresh = xcalloc(1, sizeof(*fresh));
		fresh->pid = pid;
		fresh->tid = tid;
		char name[32];
		snprintf(name, sizeof(name), ":%d", tid);
		fresh->comm = machine_intern(m, name);
		set_thread(m, fresh);
		if (pid == tid || pid == -1) {
			fresh->maps = stamp(m, maps_new());
		} else {
			struct thread *leader = machine_findnew_thread(m, pid, pid);
			fresh->maps = leader->maps;
			maps_get(fresh->maps);
		}
		t = fresh;
	} else if (!t) {
		t = new_thread(m, pid, tid);
	}
	if (t == parent)
		return;
	if (parent->comm_set) {
		t->comm = parent->comm;
		t->comm_set = 1;
	}
	if (t->pid != parent->pid && t->maps != parent->maps) {
		/* a new process: a private copy of the parent's address space */
		struct maps *copy = stamp(m, maps_clone(parent->maps));
		if (t->pid == t->tid) {
			maps_put(t->maps);
			t->maps = copy;
		} else {
			/* a thread whose leader we never saw: give the copy to the leader's space */
			for (size_t i = 0; i < copy->n; i++)
				maps_insert(t->maps, &copy->v[i]);
			stamp(m, t->maps);
			maps_put(copy);
		}
	}
}

void machine_exit(struct machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = find_thread(m, tid);
	(void)pid;
	if (t)
		t->exited = 1;
}

/* --- maps --- */

static int defined_build_id(const struct perf_build_id_entry *b, size_t *size)
{
	/* an all-zero build-id is "not recorded" (perf's build_id__is_defined) */
	size_t n = b->size <= sizeof(b->build_id) ? b->size : sizeof(b->build_id);
	int defined = 0;
	for (size_t j = 0; j < n; j++)
		defined |= b->build_id[j] != 0;
	*size = n;
	return b->path && defined;
}

/* PATH's first recorded build-id; with WANT (WANT_SIZE > 0) that one when recorded;
 * with AVOID, the first other than AVOID.  NULL, *SIZE 0: none. */
static const uint8_t *recorded_build_id(const struct machine *m, const char *path,
					const uint8_t *want, size_t want_size,
					const uint8_t *avoid, size_t avoid_size, size_t *size)
{
	const uint8_t *first = NULL;
	size_t first_size = 0;
	for (size_t i = 0; i < m->nr_build_ids; i++) {
		const struct perf_build_id_entry *b = &m->build_ids[i];
		size_t n;
		if (!defined_build_id(b, &n) || strcmp(b->path, path))
			continue;
		if (want_size && n == want_size && !memcmp(b->build_id, want, n)) {
			*size = n;
			return b->build_id;
		}
		if (avoid_size && n == avoid_size && !memcmp(b->build_id, avoid, n))
			continue;
		if (!first) {
			first = b->build_id;
			first_size = n;
		}
	}
	*size = first_size;
	return first;
}

/* Whether FILE is the file F names. */
enum file_match {
	FILE_MISSING,
	FILE_SAME,          /* device and inode */
	FILE_OTHER,         /* another inode of the same device: surely another file */
	FILE_OTHER_DEVICE,  /* not telling: overlayfs and btrfs subvolumes show stat()
			     * another device than the kernel records */
};

static enum file_match match_mapped_file(const char *file, const struct mmap_file *f)
{
	struct stat st;
	if (stat(file, &st) != 0)
		return FILE_MISSING;
	if (major(st.st_dev) != f->maj || minor(st.st_dev) != f->min)
		return FILE_OTHER_DEVICE;
	return st.st_ino == f->ino ? FILE_SAME : FILE_OTHER;
}

/* The dso of a user object NAME that PID maps, F saying which file (may be NULL).
 * The recorded build-id is perf record's, read from NAME in the recorder's root at
 * the end of the recording: for a process in another root (a chroot, a container)
 * that is another file.  So when a live process's /proc/PID/root/NAME is the mapped
 * file and NAME is not, the object is that file, with its own build-id; when NAME is
 * another file than the mapped one (same device, another inode), a recorded
 * build-id other than NAME's is taken first.  The object's file must carry the
 * build-id taken (symbol_store.h): NAME is used only when it does.  MMAP2's own build-id (perf record
 * --buildid-mmap) is always the right one.  Under --symfs the user says where the
 * files are: the recorded build-ids only. */
static struct dso *user_dso(struct machine *m, int32_t pid, const char *name,
			    const struct mmap_file *f)
{
	const struct debug_paths *dp = symbol_store_debug_paths(m->store);
	int symfs = dp->root[0] != 0;
	uint8_t host_bid[20], own_bid[20];
	size_t host_size = 0, own_size = 0, bid_size;
	const uint8_t *bid = NULL;
	struct strbuf proc = STRBUF_INIT;
	const char *proc_root = NULL;
	struct dso *d;

	if (f && f->build_id_size) {
		bid = f->build_id;
		bid_size = f->build_id_size;
	} else if (f && f->ino && !symfs && name[0] == '/') {
		char *host = debug_paths_on_disk(dp, name);
		enum file_match host_is = match_mapped_file(host, f);
		if (host_is != FILE_MISSING)
			host_size = symbol_file_build_id(host, host_bid, sizeof(host_bid));
		if (host_is != FILE_SAME && pid > 0) {
			strbuf_addf(&proc, "/proc/%d/root%s", (int)pid, name);
			if (match_mapped_file(proc.buf, f) == FILE_SAME)
				own_size = symbol_file_build_id(proc.buf, own_bid, sizeof(own_bid));
		}
		free(host);
		if (own_size) {
			bid = own_bid;
			bid_size = own_size;
			strbuf_reset(&proc);
			strbuf_addf(&proc, "/proc/%d/root", (int)pid);
			proc_root = proc.buf;
		} else if (host_is == FILE_SAME) {
			bid = recorded_build_id(m, name, host_bid, host_size, NULL, 0, &bid_size);
		} else if (host_is == FILE_OTHER) {
			/* another file's id first: NAME's was read from NAME, which is not
			 * the mapped file (perf record reads the path in its own root); a
			 * copy with the same contents (a chroot's libc) has NAME's */
			bid = recorded_build_id(m, name, NULL, 0, host_bid, host_size, &bid_size);
			if (!bid)
				bid = recorded_build_id(m, name, NULL, 0, NULL, 0, &bid_size);
		} else {
			bid = recorded_build_id(m, name, NULL, 0, NULL, 0, &bid_size);
		}
	} else {
		bid = recorded_build_id(m, name, NULL, 0, NULL, 0, &bid_size);
	}
	d = symbol_store_dso_in(m->store, name, bid, bid_size, proc_root);
	strbuf_release(&proc);
	return d;
}

static int same_file(const struct map_object *o, const struct mmap_file *f)
{
	if (!f)
		return !o->ino && !o->build_id_size;
	return o->maj == f->maj && o->min == f->min && o->ino == f->ino &&
	       o->build_id_size == f->build_id_size &&
	       (!f->build_id_size || !memcmp(o->build_id, f->build_id, f->build_id_size));
}

/* The object NAME (F: which file, for user files; NULL otherwise), made on first use
 * (PID: the process that maps it first). */
static const struct map_object *get_object_of(struct machine *m, const char *name,
					      unsigned identity, unsigned kernel, int32_t pid,
					      const struct mmap_file *f)
{
	name = machine_intern(m, name);
	for (size_t i = m->nr_objects; i-- > 0;) {
		const struct map_object *o = m->objects[i];
		if (o->name == name && o->identity == identity && o->kernel == kernel &&
		    same_file(o, f))
			return o;
	}
	struct map_object *o = xcalloc(1, sizeof(*o));
	o->name = name;
	o->identity = identity;
	o->kernel = kernel;
	o->id = (uint32_t)m->nr_objects;
	if (f) {
		o->maj = f->maj;
		o->min = f->min;
		o->ino = f->ino;
		o->build_id_size = (uint8_t)f->build_id_size;
		if (f->build_id_size)
			memcpy(o->build_id, f->build_id, f->build_id_size);
	}
	if (m->store) {
		if (f) {
			o->dso = user_dso(m, pid, name, f);
		} else {
			size_t bid_size;
			const uint8_t *bid = recorded_build_id(m, name, NULL, 0, NULL, 0, &bid_size);
			o->dso = symbol_store_dso(m->store, name, bid, bid_size);
		}
	}
	if (m->nr_objects == m->cap_objects) {
		m->cap_objects = m->cap_objects ? m->cap_objects * 2 : 64;
		m->objects = xrealloc(m->objects, m->cap_objects * sizeof(*m->objects));
	}
	m->objects[m->nr_objects++] = o;
	return o;
}

static const struct map_object *get_object(struct machine *m, const char *name, unsigned identity,
					   unsigned kernel)
{
	return get_object_of(m, name, identity, kernel, 0, NULL);
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* "[name]" for a module path ".../name.ko" (also .ko.xz/.gz/.zst), '-' read as '_'. */
static int module_name(const char *path, char *out, size_t size)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *ko = strstr(base, ".ko");
	if (!ko || (ko[3] && ko[3] != '.'))
		return 0;
	size_t len = (size_t)(ko - base);
	if (len + 3 > size)
		return 0;
	out[0] = '[';
	for (size_t i = 0; i < len; i++)
		out[i + 1] = base[i] == '-' ? '_' : base[i];
	out[len + 1] = ']';
	out[len + 2] = 0;
	return 1;
}

static void kernel_mmap(struct machine *m, uint64_t start, uint64_t len, uint64_t pgoff,
			const char *filename)
{
	char name[256];
	const struct map_object *o;
	if (starts_with(filename, "[kernel.kallsyms]") || starts_with(filename, "[guest.kernel.kallsyms")) {
		o = get_object(m, "[kernel.kallsyms]", 0, 1);
		m->kernel_rest.start = 1ULL << 63;
		m->kernel_rest.end = UINT64_MAX;
		m->kernel_rest.pgoff = 1ULL << 63;
		m->kernel_rest.obj = o;
	}
	else if (module_name(filename, name, sizeof(name)))
		o = get_object(m, name, 0, 1);
	else if (filename[0] == '[')
		o = get_object(m, filename, 0, 1);
	else
		return;
	/* Kernel and module symbols are looked up by absolute address. */
	struct map_entry e = { start, len ? start + len : start, pgoff, o };
	if (e.end < e.start)
		e.end = UINT64_MAX; /* a length reaching past the top of the address space */
	maps_insert(m->kernel_maps, &e);
	stamp(m, m->kernel_maps);
}

void machine_mmap(struct machine *m, int32_t pid, int32_t tid, uint16_t misc, uint64_t start,
		  uint64_t len, uint64_t pgoff, uint32_t flags, const char *filename)
{
	machine_mmap_file(m, pid, tid, misc, start, len, pgoff, flags, filename, NULL);
}

void machine_mmap_file(struct machine *m, int32_t pid, int32_t tid, uint16_t misc,
		       uint64_t start, uint64_t len, uint64_t pgoff, uint32_t flags,
		       const char *filename, const struct mmap_file *file)
{
	unsigned cpumode = misc & PERF_MISC_CPUMODE_MASK;
	if (cpumode == PERF_MISC_KERNEL || cpumode == PERF_MISC_GUEST_KERNEL) {
		kernel_mmap(m, start, len, pgoff, filename);
		return;
	}
	struct thread *t = machine_findnew_thread(m, pid, tid);
	int anon = !strcmp(filename, "//anon") || starts_with(filename, "/dev/zero") ||
		   starts_with(filename, "/anon_hugepage") || (flags & MAP_HUGETLB_FLAG);
	int no_dso = starts_with(filename, "[stack") || starts_with(filename, "/SYSV") ||
		     !strcmp(filename, "[heap]");
	char jit_name[64];
	const struct map_object *o;
	if (anon) {
		/* perf reads symbols of anonymous executable memory from the JIT's map file */
		snprintf(jit_name, sizeof(jit_name), "/tmp/perf-%d.map", pid);
		o = get_object(m, jit_name, 1, 0);
	} else if (no_dso) {
		o = get_object(m, filename, 1, 0);
	} else {
		if (!strcmp(filename, "[vdso]"))
			pgoff = 0;
		int has_file = file && (file->ino || file->build_id_size) && filename[0] == '/';
		struct mmap_file f = has_file ? *file : (struct mmap_file){ 0 };
		if (f.build_id_size > 20)
			f.build_id_size = 20; /* a build-id is at most 20 bytes (map_object) */
		o = get_object_of(m, filename, 0, 0, pid, has_file ? &f : NULL);
	}
	uint64_t end = start + len;
	if (end < start)
		end = UINT64_MAX;
	struct map_entry e = { start, end, pgoff, o };
	maps_insert(t->maps, &e);
	stamp(m, t->maps);
}

void machine_process_event(struct machine *m, const struct perf_event *ev)
{
	switch (ev->type) {
	case PERF_REC_MMAP:
		machine_mmap(m, (int32_t)ev->u.mmap.pid, (int32_t)ev->u.mmap.tid, ev->misc,
			     ev->u.mmap.start, ev->u.mmap.len, ev->u.mmap.pgoff, 0,
			     ev->u.mmap.filename);
		break;
	case PERF_REC_MMAP2: {
		struct mmap_file f = { 0 };
		if (ev->misc & PERF_MISC_MMAP_BUILD_ID) {
			f.build_id = ev->u.mmap.build_id;
			f.build_id_size = ev->u.mmap.build_id_size;
		} else {
			f.maj = ev->u.mmap.maj;
			f.min = ev->u.mmap.min;
			f.ino = ev->u.mmap.ino;
		}
		machine_mmap_file(m, (int32_t)ev->u.mmap.pid, (int32_t)ev->u.mmap.tid, ev->misc,
				  ev->u.mmap.start, ev->u.mmap.len, ev->u.mmap.pgoff,
				  ev->u.mmap.flags, ev->u.mmap.filename, &f);
		break;
	}
	case PERF_REC_COMM:
		machine_comm(m, (int32_t)ev->u.comm.pid, (int32_t)ev->u.comm.tid, ev->u.comm.comm,
			     ev->u.comm.exec);
		break;
	case PERF_REC_FORK:
		machine_fork(m, (int32_t)ev->u.fork.pid, (int32_t)ev->u.fork.tid,
			     (int32_t)ev->u.fork.ppid, (int32_t)ev->u.fork.ptid);
		break;
	case PERF_REC_EXIT:
		machine_exit(m, (int32_t)ev->u.fork.pid, (int32_t)ev->u.fork.tid);
		break;
	default:
		break;
	}
}

const struct map_entry *machine_find_map(const struct machine *m, const struct thread *t,
					 unsigned cpumode, uint64_t addr)
{
	if (cpumode == PERF_MISC_KERNEL) {
		const struct map_entry *e = maps_find(m->kernel_maps, addr);
		if (!e && m->kernel_rest.obj && addr >= m->kernel_rest.start)
			e = &m->kernel_rest;
		return e;
	}
	if (cpumode == PERF_MISC_USER)
		return maps_find(t->maps, addr);
	return NULL;
}

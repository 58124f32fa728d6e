/* machine.h - the recorded system: processes, threads, their comms and address maps.
 *
 * Fed with the non-sample records of a perf.data file in the order perf delivers them
 * (MMAP/MMAP2, COMM, FORK, EXIT), it answers what a sample needs: the thread of (pid,
 * tid), its comm at that point, and the map holding an address.  The rules are perf's,
 * so names and addresses come out as `perf script` prints them:
 *   - a thread first seen without COMM is called ":TID"; threads of a process (pid !=
 *     tid) share the leader's maps;
 *   - FORK of a new process copies the parent's maps and comm; FORK of a thread shares
 *     them; a FORK for a tid already known replaces that thread;
 *   - COMM sets the comm (exec or not); like perf, exec does not drop old maps: the new
 *     program's mmaps replace what they overlap;
 *   - EXIT keeps the thread (samples may still arrive for it);
 *   - user mmaps: //anon (and /dev/zero, /anon_hugepage, MAP_HUGETLB) become
 *     "/tmp/perf-PID.map" with identity addresses, as do [heap], [stack*], /SYSV*;
 *     [vdso] keeps its name; other names ("/x (deleted)", "/memfd:n (deleted)") as recorded;
 *   - kernel-mode mmaps: "[kernel.kallsyms]_text" is the kernel map, a module path
 *     ".../name.ko[.xz|.gz|.zst]" becomes "[name]". */
#ifndef TEPHRA_MACHINE_MACHINE_H
#define TEPHRA_MACHINE_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "machine/maps.h"
#include "perfdata/perf_reader.h"

struct symbol_store;

struct thread {
	int32_t pid, tid;
	const char *comm;   /* current comm, interned in the machine (compare by pointer) */
	int comm_set;       /* a COMM (or a fork from a named parent) set it */
	int exited;
	struct maps *maps;  /* shared with the other threads of the process */
};

struct machine;

/* STORE may be NULL (maps then carry no dso).  BUILD_IDS: the header's BUILD_ID table
 * (may be NULL), used to give each object its recorded build-id. */
struct machine *machine_new(struct symbol_store *store, const struct perf_build_id_entry *build_ids,
			    size_t nr_build_ids);
void machine_free(struct machine *m);

/* Applies a non-sample record (others are ignored). */
void machine_process_event(struct machine *m, const struct perf_event *ev);

/* Individual record handlers (also what the unit tests drive). */
void machine_mmap(struct machine *m, int32_t pid, int32_t tid, uint16_t misc, uint64_t start,
		  uint64_t len, uint64_t pgoff, uint32_t flags, const char *filename);
/* What an MMAP2 record says of the mapped file: device and inode, or its build-id
 * (then BUILD_ID_SIZE > 0).  All zero: nothing (MMAP). */
struct mmap_file {
	uint32_t maj, min;
	uint64_t ino;
	const uint8_t *build_id;
	size_t build_id_size;
};
/* machine_mmap with the file's identity: maps of one path from different files get
 * different objects, each with its own build-id; an object that a live process maps
 * from its own root (/proc/PID/root/PATH is that file, another than PATH) is looked
 * up there (symbol_store_dso_in). */
void machine_mmap_file(struct machine *m, int32_t pid, int32_t tid, uint16_t misc,
		       uint64_t start, uint64_t len, uint64_t pgoff, uint32_t flags,
		       const char *filename, const struct mmap_file *file);
void machine_comm(struct machine *m, int32_t pid, int32_t tid, const char *comm, int exec);
void machine_fork(struct machine *m, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid);
void machine_exit(struct machine *m, int32_t pid, int32_t tid);

/* The thread TID (created as perf does when unknown).  Never NULL. */
struct thread *machine_findnew_thread(struct machine *m, int32_t pid, int32_t tid);

/* The map holding ADDR for a frame of cpumode CPUMODE (PERF_MISC_KERNEL: kernel maps;
 * PERF_MISC_USER: the thread's maps; anything else: none), or NULL. */
const struct map_entry *machine_find_map(const struct machine *m, const struct thread *t,
					 unsigned cpumode, uint64_t addr);

/* The kernel maps' version (see struct maps): with the thread's maps->version it says
 * whether an address resolves as it did before. */
uint64_t machine_kernel_maps_version(const struct machine *m);

/* Number of distinct map objects so far (their ids are 0..n-1), and one by id. */
size_t machine_nr_objects(const struct machine *m);
const struct map_object *machine_object(const struct machine *m, uint32_t id);

/* Interns a string for the life of the machine. */
const char *machine_intern(struct machine *m, const char *s);

#endif

/* machine_maps.c - unit tests of the machine model: perf's map overlap rules, fork/exec/
 * thread semantics and the special mapping names.  Expected values worked out by hand. */
#include <stdio.h>
#include <string.h>

#include "machine/machine.h"
#include "machine/maps.h"

static int failures;

#define CHECK(cond)                                                                      \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                                      \
		}                                                                        \
	} while (0)

static const struct map_object obj_a = { "/a", NULL, 0, 0, 0 };
static const struct map_object obj_b = { "/b", NULL, 0, 0, 1 };
static const struct map_object obj_c = { "/c", NULL, 0, 0, 2 };

static void insert(struct maps *m, uint64_t start, uint64_t end, uint64_t pgoff,
		   const struct map_object *o)
{
	struct map_entry e = { start, end, pgoff, o };
	maps_insert(m, &e);
}

static int is_map(const struct map_entry *e, uint64_t start, uint64_t end, uint64_t pgoff,
		  const struct map_object *o)
{
	return e && e->start == start && e->end == end && e->pgoff == pgoff && e->obj == o;
}

static void test_overlaps(void)
{
	struct maps *m = maps_new();
	insert(m, 0x1000, 0x5000, 0x0, &obj_a);
	insert(m, 0x8000, 0x9000, 0x100, &obj_b);
	CHECK(m->n == 2);
	CHECK(maps_find(m, 0x0fff) == NULL);
	CHECK(is_map(maps_find(m, 0x1000), 0x1000, 0x5000, 0, &obj_a));
	CHECK(is_map(maps_find(m, 0x4fff), 0x1000, 0x5000, 0, &obj_a));
	CHECK(maps_find(m, 0x5000) == NULL); /* end is exclusive */
	CHECK(maps_find(m, 0x7fff) == NULL);

	/* A map in the middle of /a splits it: head keeps pgoff, tail's pgoff moves by
	 * 0x3000 - 0x1000 so 0x3000 still means file offset 0x2000. */
	insert(m, 0x2000, 0x3000, 0x700, &obj_c);
	CHECK(m->n == 4);
	CHECK(is_map(&m->v[0], 0x1000, 0x2000, 0x0, &obj_a));
	CHECK(is_map(&m->v[1], 0x2000, 0x3000, 0x700, &obj_c));
	CHECK(is_map(&m->v[2], 0x3000, 0x5000, 0x2000, &obj_a));
	CHECK(is_map(&m->v[3], 0x8000, 0x9000, 0x100, &obj_b));
	CHECK(map_entry_map_ip(maps_find(m, 0x3010), 0x3010) == 0x2010);
	CHECK(map_entry_map_ip(maps_find(m, 0x2010), 0x2010) == 0x710);

	/* One map covering the tail of /a, the gap and the head of /b. */
	insert(m, 0x4000, 0x8800, 0x0, &obj_c);
	CHECK(m->n == 5);
	CHECK(is_map(&m->v[2], 0x3000, 0x4000, 0x2000, &obj_a));
	CHECK(is_map(&m->v[3], 0x4000, 0x8800, 0x0, &obj_c));
	CHECK(is_map(&m->v[4], 0x8800, 0x9000, 0x900, &obj_b));

	/* Exactly replacing a map, and a map swallowing several. */
	insert(m, 0x2000, 0x3000, 0x0, &obj_b);
	CHECK(m->n == 5 && is_map(&m->v[1], 0x2000, 0x3000, 0x0, &obj_b));
	insert(m, 0x0, 0x10000, 0x0, &obj_a);
	CHECK(m->n == 1 && is_map(&m->v[0], 0x0, 0x10000, 0x0, &obj_a));
	/* Empty maps are ignored. */
	insert(m, 0x20000, 0x20000, 0, &obj_b);
	CHECK(m->n == 1);

	struct maps *copy = maps_clone(m);
	insert(copy, 0x0, 0x1000, 0, &obj_b);
	CHECK(copy->n == 2 && m->n == 1); /* a fork's copy is private */
	maps_put(copy);
	maps_put(m);
}

static void test_threads(void)
{
	struct machine *m = machine_new(NULL, NULL, 0);
	const uint16_t user = PERF_MISC_USER;

	/* Unknown thread: named ":tid". */
	struct thread *t = machine_findnew_thread(m, 100, 100);
	CHECK(!strcmp(t->comm, ":100"));
	machine_comm(m, 100, 100, "parent", 1);
	CHECK(!strcmp(t->comm, "parent"));
	machine_mmap(m, 100, 100, user, 0x400000, 0x1000, 0x1000, 0, "/bin/parent");

	/* A thread of the process shares its maps, and inherits the comm at fork. */
	machine_fork(m, 100, 101, 100, 100);
	struct thread *th = machine_findnew_thread(m, 100, 101);
	CHECK(th->maps == t->maps);
	CHECK(!strcmp(th->comm, "parent"));
	machine_comm(m, 100, 101, "worker", 0);
	CHECK(!strcmp(th->comm, "worker") && !strcmp(t->comm, "parent"));
	machine_mmap(m, 100, 101, user, 0x500000, 0x1000, 0, 0, "/lib/x.so");
	CHECK(machine_find_map(m, t, PERF_MISC_USER, 0x500010) != NULL);

	/* A child process gets a private copy of the maps. */
	machine_fork(m, 200, 200, 100, 100);
	struct thread *c = machine_findnew_thread(m, 200, 200);
	CHECK(c->maps != t->maps);
	CHECK(!strcmp(c->comm, "parent"));
	const struct map_entry *e = machine_find_map(m, c, PERF_MISC_USER, 0x400010);
	CHECK(e && !strcmp(e->obj->name, "/bin/parent") && map_entry_map_ip(e, 0x400010) == 0x1010);

	/* exec: new comm; perf keeps old maps until new mmaps overlap them. */
	machine_comm(m, 200, 200, "child", 1);
	machine_mmap(m, 200, 200, user, 0x400000, 0x2000, 0, 0, "/bin/child");
	CHECK(!strcmp(c->comm, "child"));
	e = machine_find_map(m, c, PERF_MISC_USER, 0x400010);
	CHECK(e && !strcmp(e->obj->name, "/bin/child"));
	e = machine_find_map(m, t, PERF_MISC_USER, 0x400010);
	CHECK(e && !strcmp(e->obj->name, "/bin/parent")); /* the parent is untouched */
	CHECK(machine_find_map(m, c, PERF_MISC_USER, 0x500010) != NULL);

	/* Special names: anon → JIT map of the pid with identity addresses; heap identity;
	 * vdso by name; deleted and memfd kept verbatim. */
	machine_mmap(m, 200, 200, user, 0x7000000, 0x1000, 0x55, 0, "//anon");
	e = machine_find_map(m, c, PERF_MISC_USER, 0x7000010);
	CHECK(e && !strcmp(e->obj->name, "/tmp/perf-200.map") && map_entry_map_ip(e, 0x7000010) == 0x7000010);
	machine_mmap(m, 200, 200, user, 0x8000000, 0x1000, 0, 0, "[heap]");
	e = machine_find_map(m, c, PERF_MISC_USER, 0x8000010);
	CHECK(e && !strcmp(e->obj->name, "[heap]") && map_entry_map_ip(e, 0x8000010) == 0x8000010);
	machine_mmap(m, 200, 200, user, 0x9000000, 0x2000, 0, 0, "[vdso]");
	e = machine_find_map(m, c, PERF_MISC_USER, 0x9001000);
	CHECK(e && !strcmp(e->obj->name, "[vdso]") && map_entry_map_ip(e, 0x9001000) == 0x1000);
	machine_mmap(m, 200, 200, user, 0xa000000, 0x1000, 0x3000, 0, "/memfd:jit (deleted)");
	e = machine_find_map(m, c, PERF_MISC_USER, 0xa000004);
	CHECK(e && !strcmp(e->obj->name, "/memfd:jit (deleted)") && map_entry_map_ip(e, 0xa000004) == 0x3004);

	/* Kernel maps: looked up only for kernel-mode addresses, modules named [name]. */
	machine_mmap(m, -1, 0, PERF_MISC_KERNEL, 0xffffffff81000000ULL, 0x1000000,
		     0xffffffff81000000ULL, 0, "[kernel.kallsyms]_text");
	machine_mmap(m, -1, 0, PERF_MISC_KERNEL, 0xffffffffc0000000ULL, 0x5000, 0, 0,
		     "/lib/modules/6.1.0/kernel/drivers/virtio-net.ko");
	e = machine_find_map(m, c, PERF_MISC_KERNEL, 0xffffffff81000010ULL);
	CHECK(e && !strcmp(e->obj->name, "[kernel.kallsyms]") && e->obj->kernel);
	e = machine_find_map(m, c, PERF_MISC_KERNEL, 0xffffffffc0000010ULL);
	CHECK(e && !strcmp(e->obj->name, "[virtio_net]"));
	CHECK(machine_find_map(m, c, PERF_MISC_USER, 0xffffffff81000010ULL) == NULL);
	/* Kernel addresses past the recorded kernel map (init text) are still the kernel's,
	 * as perf finds them through /proc/kcore. */
	e = machine_find_map(m, c, PERF_MISC_KERNEL, 0xffffffff83000000ULL);
	CHECK(e && !strcmp(e->obj->name, "[kernel.kallsyms]"));
	CHECK(machine_find_map(m, c, PERF_MISC_KERNEL, 0x400010) == NULL);
	CHECK(machine_find_map(m, c, PERF_MISC_HYPERVISOR, 0x400010) == NULL);

	/* A fork for a reused tid replaces the old thread. */
	machine_exit(m, 200, 200);
	machine_fork(m, 200, 200, 100, 100);
	struct thread *again = machine_findnew_thread(m, 200, 200);
	CHECK(again != c && !strcmp(again->comm, "parent"));
	e = machine_find_map(m, again, PERF_MISC_USER, 0x400010);
	CHECK(e && !strcmp(e->obj->name, "/bin/parent"));

	/* Threads first seen by a sample of a known process share its maps. */
	struct thread *late = machine_findnew_thread(m, 100, 150);
	CHECK(late->maps == t->maps && !strcmp(late->comm, ":150"));
	machine_free(m);
}

/* Random mmaps over a small space against a brute-force model: each page remembers the
 * object and file offset of the last map that covered it, which is what the kernel (and
 * perf's overlap rules) leave behind. */
static void test_random_against_pages(void)
{
	enum { PAGES = 64, PAGE = 0x1000, ROUNDS = 3000 };
	static const struct map_object objs[4] = {
		{ "/o0", NULL, 0, 0, 0 }, { "/o1", NULL, 0, 0, 1 }, { "/o2", NULL, 0, 0, 2 },
		{ "/o3", NULL, 0, 0, 3 },
	};
	const struct map_object *page_obj[PAGES] = { 0 };
	uint64_t page_off[PAGES] = { 0 };
	struct maps *m = maps_new();
	unsigned seed = 12345;
	for (int round = 0; round < ROUNDS && !failures; round++) {
		seed = seed * 1103515245 + 12345;
		unsigned start = (seed >> 8) % PAGES;
		seed = seed * 1103515245 + 12345;
		unsigned len = 1 + (seed >> 8) % 12;
		if (start + len > PAGES)
			len = PAGES - start;
		seed = seed * 1103515245 + 12345;
		const struct map_object *o = &objs[(seed >> 8) % 4];
		uint64_t pgoff = ((seed >> 12) % 16) * PAGE;
		insert(m, (uint64_t)start * PAGE, (uint64_t)(start + len) * PAGE, pgoff, o);
		for (unsigned p = start; p < start + len; p++) {
			page_obj[p] = o;
			page_off[p] = pgoff + (uint64_t)(p - start) * PAGE;
		}
		for (size_t i = 0; i + 1 < m->n; i++)
			CHECK(m->v[i].end <= m->v[i + 1].start && m->v[i].start < m->v[i].end);
		for (unsigned p = 0; p < PAGES; p++) {
			uint64_t addr = (uint64_t)p * PAGE + 0x123;
			const struct map_entry *e = maps_find(m, addr);
			if (!page_obj[p]) {
				CHECK(e == NULL);
				continue;
			}
			CHECK(e && e->obj == page_obj[p] && map_entry_map_ip(e, addr) == page_off[p] + 0x123);
		}
	}
	maps_put(m);
}

int main(void)
{
	test_overlaps();
	test_random_against_pages();
	test_threads();
	if (failures)
		fprintf(stderr, "machine_maps: %d failures\n", failures);
	return failures != 0;
}

/* symbol_debug_paths.c - the places debug_paths lists, in order, for each search.
 *
 * Expected paths are written out by hand from the layouts the tools document: perf's
 * build-id cache (perf-buildid-cache(1): BUILDID_DIR/.build-id/xx/rest linking to
 * BUILDID_DIR/PATH/HEX/, which holds `elf`, `vdso`, `kallsyms` or `debug`), gdb's and
 * libdwfl's separate debug files (DEBUG_DIR/.build-id/xx/rest.debug, and the
 * .gnu_debuglink name next to the object, in its .debug/ and under DEBUG_DIR), and
 * perf --symfs (the root prefixes objects, the system debug directory and the cache). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "symbol/debug_paths.h"

static const uint8_t bid[4] = { 0xab, 0xcd, 0x01, 0xef };

/* Whether L is exactly the NULL-terminated WANT. */
static int list_is(const struct debug_paths_list *l, const char *const *want)
{
	size_t n = 0;

	while (want[n])
		n++;
	if (l->nr != n) {
		for (size_t i = 0; i < l->nr; i++)
			fprintf(stderr, "  got %s\n", l->paths[i]);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (strcmp(l->paths[i], want[i]) != 0) {
			fprintf(stderr, "  #%zu: got %s, want %s\n", i, l->paths[i], want[i]);
			return 0;
		}
	}
	return 1;
}

static int search_is(const struct debug_paths *dp, enum debug_paths_search search,
		     const struct debug_paths_object *obj, const char *const *want)
{
	struct debug_paths_list l = { 0 };
	int ok;

	debug_paths_list(dp, search, obj, &l);
	ok = list_is(&l, want);
	debug_paths_list_release(&l);
	return ok;
}

static void test_symbols(void)
{
	struct debug_paths dp;
	struct debug_paths_object lib = {
		.path = "/usr/lib/libfoo.so", .debuglink = "libfoo.debug",
		.build_id = bid, .build_id_size = sizeof(bid),
	};
	static const char *const perf_order[] = {
		"libfoo.debug",
		"/usr/lib/libfoo.debug",
		"/usr/lib/.debug/libfoo.debug",
		"/usr/lib/debug/usr/lib/libfoo.debug",
		"/home/u/.debug/.build-id/ab/cd01ef/elf",
		"/home/u/.debug/.build-id/ab/cd01ef",
		"/home/u/.debug//usr/lib/libfoo.so/abcd01ef/elf",
		"/home/u/.debug/.build-id/ab/cd01ef/debug",
		"/usr/lib/debug/usr/lib/libfoo.so.debug",
		"/usr/lib/debug/usr/lib/libfoo.so",
		"/usr/lib/debug/.build-id/ab/cd01ef.debug",
		"/usr/lib/libfoo.so",
		NULL,
	};
	static const char *const no_link_no_id[] = {
		"/usr/lib/debug/usr/lib/libfoo.so.debug",
		"/usr/lib/debug/usr/lib/libfoo.so",
		"/usr/lib/libfoo.so",
		NULL,
	};

	setenv("HOME", "/home/u", 1);
	debug_paths_init(&dp, NULL, NULL, NULL);
	CHECK(search_is(&dp, DEBUG_PATHS_SYMBOLS, &lib, perf_order));
	lib.debuglink = NULL;
	lib.build_id_size = 0;
	CHECK(search_is(&dp, DEBUG_PATHS_SYMBOLS, &lib, no_link_no_id));
	debug_paths_release(&dp);
}

static void test_vdso_and_kernel(void)
{
	struct debug_paths dp;
	struct debug_paths_object vdso = {
		.path = "[vdso]", .build_id = bid, .build_id_size = sizeof(bid), .cache_name = "vdso",
	};
	struct debug_paths_object kernel = {
		.path = "[kernel.kallsyms]", .build_id = bid, .build_id_size = sizeof(bid),
		.cache_name = "kallsyms",
	};
	static const char *const vdso_order[] = {
		"/cache/.build-id/ab/cd01ef/vdso",
		"/cache/.build-id/ab/cd01ef",
		"/cache/[vdso]/abcd01ef/vdso",
		"/cache/.build-id/ab/cd01ef/debug",
		"/dbg/.build-id/ab/cd01ef.debug",
		NULL,
	};
	static const char *const nothing[] = { NULL };
	struct strbuf sb = STRBUF_INIT;

	debug_paths_init(&dp, NULL, "/dbg", "/cache");
	CHECK(search_is(&dp, DEBUG_PATHS_SYMBOLS_VDSO, &vdso, vdso_order));
	vdso.build_id_size = 0; /* no build-id, no place to look */
	CHECK(search_is(&dp, DEBUG_PATHS_SYMBOLS_VDSO, &vdso, nothing));
	CHECK(debug_paths_build(&dp, DEBUG_PATH_CACHE_BY_PATH, &kernel, &sb) == 0 &&
	      !strcmp(sb.buf, "/cache/[kernel.kallsyms]/abcd01ef/kallsyms"));
	kernel.build_id_size = 0;
	CHECK(debug_paths_build(&dp, DEBUG_PATH_CACHE_BY_PATH, &kernel, &sb) == -1);
	strbuf_release(&sb);
	debug_paths_release(&dp);
}

/* perf --symfs: the root prefixes the object, the debug directory and the cache (the
 * cache under the root even when a build-id directory was given). */
static void test_root(void)
{
	struct debug_paths dp;
	struct debug_paths_object lib = {
		.path = "/usr/lib/libfoo.so", .debuglink = "libfoo.debug",
		.build_id = bid, .build_id_size = sizeof(bid),
	};
	static const char *const rooted[] = {
		"libfoo.debug",
		"/r/usr/lib/libfoo.debug",
		"/r/usr/lib/.debug/libfoo.debug",
		"/r/usr/lib/debug/r/usr/lib/libfoo.debug",
		"/r/.debug/.build-id/ab/cd01ef/elf",
		"/r/.debug/.build-id/ab/cd01ef",
		"/r/.debug//usr/lib/libfoo.so/abcd01ef/elf",
		"/r/.debug/.build-id/ab/cd01ef/debug",
		"/r/usr/lib/debug/usr/lib/libfoo.so.debug",
		"/r/usr/lib/debug/usr/lib/libfoo.so",
		"/r/usr/lib/debug/.build-id/ab/cd01ef.debug",
		"/r/usr/lib/libfoo.so",
		NULL,
	};
	char *on_disk;

	debug_paths_init(&dp, "/r", NULL, "/ignored");
	CHECK(search_is(&dp, DEBUG_PATHS_SYMBOLS, &lib, rooted));
	on_disk = debug_paths_on_disk(&dp, "/tmp/perf-1.map");
	CHECK(!strcmp(on_disk, "/r/tmp/perf-1.map"));
	free(on_disk);
	debug_paths_release(&dp);
}

/* perf --symfs DIR,flat: an object is DIR/its basename (and so its debuglink
 * neighbours are in DIR), for the symbols and the unwinder alike; the debug directory
 * and the cache (DIR/.debug) are as in the hierarchy layout. */
static void test_root_flat(void)
{
	struct debug_paths dp;
	struct debug_paths_object lib = {
		.path = "/usr/lib/libfoo.so", .debuglink = "libfoo.debug",
		.build_id = bid, .build_id_size = sizeof(bid),
	};
	static const char *const flat[] = {
		"libfoo.debug",
		"/r/libfoo.debug",
		"/r/.debug/libfoo.debug",
		"/r/usr/lib/debug/r/libfoo.debug",
		"/r/.debug/.build-id/ab/cd01ef/elf",
		"/r/.debug/.build-id/ab/cd01ef",
		"/r/.debug//usr/lib/libfoo.so/abcd01ef/elf",
		"/r/.debug/.build-id/ab/cd01ef/debug",
		"/r/usr/lib/debug/usr/lib/libfoo.so.debug",
		"/r/usr/lib/debug/usr/lib/libfoo.so",
		"/r/usr/lib/debug/.build-id/ab/cd01ef.debug",
		"/r/libfoo.so",
		NULL,
	};
	static const char *const unwind[] = {
		"/r/.debug/.build-id/ab/cd01ef/elf",
		"/r/libfoo.so",
		NULL,
	};
	char *on_disk;

	debug_paths_init(&dp, "/r", NULL, NULL);
	dp.root_flat = 1;
	CHECK(search_is(&dp, DEBUG_PATHS_SYMBOLS, &lib, flat));
	CHECK(search_is(&dp, DEBUG_PATHS_UNWIND, &lib, unwind));
	on_disk = debug_paths_on_disk(&dp, "/tmp/perf-1.map");
	CHECK(!strcmp(on_disk, "/r/perf-1.map"));
	free(on_disk);
	on_disk = debug_paths_on_disk(&dp, "tool");
	CHECK(!strcmp(on_disk, "/r/tool"));
	free(on_disk);
	debug_paths_release(&dp);
}

/* The unwinder's file: perf's copy, then the object, which must have an absolute name. */
static void test_unwind(void)
{
	struct debug_paths dp;
	struct debug_paths_object lib = {
		.path = "/usr/lib/libfoo.so", .build_id = bid, .build_id_size = sizeof(bid),
	};
	struct debug_paths_object heap = { .path = "[heap]" };
	static const char *const order[] = {
		"/home/u/.debug/.build-id/ab/cd01ef/elf",
		"/usr/lib/libfoo.so",
		NULL,
	};
	static const char *const nothing[] = { NULL };

	setenv("HOME", "/home/u", 1);
	debug_paths_init(&dp, NULL, NULL, NULL);
	CHECK(search_is(&dp, DEBUG_PATHS_UNWIND, &lib, order));
	CHECK(search_is(&dp, DEBUG_PATHS_UNWIND, &heap, nothing));
	debug_paths_release(&dp);
}

/* An object a live process maps from its own root: that root's file after perf's
 * copies and before the debug directory and the path itself, for symbols and the
 * unwinder alike; a name that is no path has none. */
static void test_proc_root(void)
{
	struct debug_paths dp;
	struct debug_paths_object lib = {
		.path = "/usr/lib/libfoo.so", .build_id = bid, .build_id_size = sizeof(bid),
		.proc_root = "/proc/42/root",
	};
	struct debug_paths_object vdso = { .path = "[vdso]", .proc_root = "/proc/42/root" };
	static const char *const symbols[] = {
		"/home/u/.debug/.build-id/ab/cd01ef/elf",
		"/home/u/.debug/.build-id/ab/cd01ef",
		"/home/u/.debug//usr/lib/libfoo.so/abcd01ef/elf",
		"/home/u/.debug/.build-id/ab/cd01ef/debug",
		"/proc/42/root/usr/lib/libfoo.so",
		"/usr/lib/debug/usr/lib/libfoo.so.debug",
		"/usr/lib/debug/usr/lib/libfoo.so",
		"/usr/lib/debug/.build-id/ab/cd01ef.debug",
		"/usr/lib/libfoo.so",
		NULL,
	};
	static const char *const unwind[] = {
		"/home/u/.debug/.build-id/ab/cd01ef/elf",
		"/proc/42/root/usr/lib/libfoo.so",
		"/usr/lib/libfoo.so",
		NULL,
	};
	static const char *const nothing[] = { NULL };

	setenv("HOME", "/home/u", 1);
	debug_paths_init(&dp, NULL, NULL, NULL);
	CHECK(search_is(&dp, DEBUG_PATHS_SYMBOLS, &lib, symbols));
	CHECK(search_is(&dp, DEBUG_PATHS_UNWIND, &lib, unwind));
	CHECK(search_is(&dp, DEBUG_PATHS_UNWIND, &vdso, nothing));
	debug_paths_release(&dp);
}

/* libdwfl's standard places: /usr/lib/debug/.build-id, then the debuglink places for
 * an absolute module name, never the module itself. */
static void test_libdwfl(void)
{
	struct debug_paths_object mod = {
		.path = "/opt/app/bin/tool", .debuglink = "tool.debug",
		.build_id = bid, .build_id_size = sizeof(bid),
	};
	struct debug_paths_object self = { .path = "/opt/app/tool.debug", .debuglink = "tool.debug" };
	struct debug_paths_object relative = { .path = "tool", .debuglink = "tool.debug" };
	static const char *const order[] = {
		"/usr/lib/debug/.build-id/ab/cd01ef.debug",
		"/opt/app/bin/tool.debug",
		"/opt/app/bin/.debug/tool.debug",
		"/usr/lib/debug/opt/app/bin/tool.debug",
		NULL,
	};
	static const char *const not_itself[] = {
		"/opt/app/.debug/tool.debug",
		"/usr/lib/debug/opt/app/tool.debug",
		NULL,
	};
	static const char *const nothing[] = { NULL };

	CHECK(search_is(&debug_paths_libdwfl, DEBUG_PATHS_LIBDWFL, &mod, order));
	CHECK(search_is(&debug_paths_libdwfl, DEBUG_PATHS_LIBDWFL, &self, not_itself));
	CHECK(search_is(&debug_paths_libdwfl, DEBUG_PATHS_LIBDWFL, &relative, nothing));
}

int main(void)
{
	test_symbols();
	test_vdso_and_kernel();
	test_root();
	test_root_flat();
	test_unwind();
	test_proc_root();
	test_libdwfl();
	if (!failures)
		printf("debug_paths: all checks passed\n");
	return failures != 0;
}

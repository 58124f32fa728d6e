/* debug_paths.h - where the files that describe an object may be: its debug files,
 * the copies perf keeps of it, the object itself; and the orders in which perf 6.1 and
 * libdwfl look at those places.  Paths only: whether a file is there and is the right
 * one (build-id) is the caller's question.
 *
 * Each place is a kind (as perf's enum dso_binary_type) and debug_paths_build() makes
 * its path (as perf's dso__binary_type_file); debug_paths_list() lists the places of
 * one search in order.  Configured by a root prefix for object paths (perf --symfs),
 * the system's debug directory and perf's build-id cache.  See docs/symbols.md. */
#ifndef TEPHRA_SYMBOL_DEBUG_PATHS_H
#define TEPHRA_SYMBOL_DEBUG_PATHS_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

/* ROOT prefixes every object path, DEBUG_DIR is the system's debug directory,
 * BUILDID_DIR perf's build-id cache (NULL: none).  DIR below is the directory of
 * ROOT/PATH, LINK the object's .gnu_debuglink name, XX/REST its build-id in hex
 * (first byte, the rest), HEX all of it, NAME the cached copy's file name. */
enum debug_path_kind {
	DEBUG_PATH_DEBUGLINK_CWD,       /* LINK, relative to the working directory */
	DEBUG_PATH_DEBUGLINK,           /* DIR/LINK: next to the object */
	DEBUG_PATH_DEBUGLINK_SUBDIR,    /* DIR/.debug/LINK */
	DEBUG_PATH_DEBUGLINK_DEBUG_DIR, /* DEBUG_DIR/DIR/LINK */
	DEBUG_PATH_CACHE,               /* BUILDID_DIR/.build-id/XX/REST/NAME: perf's copy */
	DEBUG_PATH_CACHE_LINK,          /* BUILDID_DIR/.build-id/XX/REST: older perf's link */
	DEBUG_PATH_CACHE_BY_PATH,       /* BUILDID_DIR/PATH/HEX/NAME: the copy by its name */
	DEBUG_PATH_CACHE_DEBUG,         /* BUILDID_DIR/.build-id/XX/REST/debug: a debug file */
	DEBUG_PATH_DEBUG_DIR_DOT_DEBUG, /* DEBUG_DIR/PATH.debug (Fedora's layout) */
	DEBUG_PATH_DEBUG_DIR_PATH,      /* DEBUG_DIR/PATH (Ubuntu's layout) */
	DEBUG_PATH_DEBUG_DIR_BUILD_ID,  /* DEBUG_DIR/.build-id/XX/REST.debug */
	DEBUG_PATH_PROC_ROOT,           /* PROC_ROOT/PATH: the object in the root of a
					 * process that maps it (a chroot, a container) */
	DEBUG_PATH_OBJECT,              /* ROOT/PATH: the object itself */
};

struct debug_paths {
	const char *root;        /* "" for none */
	int root_flat;           /* perf's --symfs DIR,flat: an object PATH is ROOT/its
				  * basename, not ROOT/PATH (set after debug_paths_init) */
	const char *debug_dir;
	const char *buildid_dir; /* NULL: no build-id cache */
};

/* perf 6.1's places: ROOT (NULL: none), DEBUG_DIR (NULL: ROOT/usr/lib/debug) and
 * BUILDID_DIR (NULL: $HOME/.debug).  As with perf --symfs, a ROOT also moves the
 * build-id cache to ROOT/.debug, whatever BUILDID_DIR says.  Strings are copied. */
void debug_paths_init(struct debug_paths *dp, const char *root, const char *debug_dir,
		      const char *buildid_dir);
void debug_paths_release(struct debug_paths *dp);

/* The places libdwfl's standard search knows (its default debuginfo_path): no root,
 * /usr/lib/debug, no build-id cache. */
extern const struct debug_paths debug_paths_libdwfl;

struct debug_paths_object {
	const char *path;          /* as recorded: "/usr/lib/libc.so.6", "[vdso]" */
	const char *debuglink;     /* its .gnu_debuglink name; NULL or "": none */
	const uint8_t *build_id;
	size_t build_id_size;      /* 0: unknown */
	const char *cache_name;    /* NAME of perf's copy; NULL: "elf" ("vdso", "kallsyms") */
	const char *proc_root;     /* "/proc/PID/root" of a live process that maps another
				    * file than ROOT/PATH under PATH; NULL: none */
};

/* Replaces OUT's contents with the path of KIND for OBJ; returns 0, or -1 when KIND
 * has no path for OBJ (no debuglink, no build-id, no build-id cache). */
int debug_paths_build(const struct debug_paths *dp, enum debug_path_kind kind,
		      const struct debug_paths_object *obj, struct strbuf *out);

/* ROOT/PATH (ROOT/basename with root_flat), malloc'd: where an object recorded as
 * PATH is read from. */
char *debug_paths_on_disk(const struct debug_paths *dp, const char *path);

enum debug_paths_search {
	/* perf 6.1's order for an ELF object's symbols (dso__load): the debuglink places
	 * (the bare name first), the build-id cache (the copy, older perf's link, the
	 * copy by name, a cached debug file), the object in its process's root
	 * (PROC_ROOT/PATH), DEBUG_DIR/PATH.debug, DEBUG_DIR/PATH, DEBUG_DIR/.build-id,
	 * the object itself. */
	DEBUG_PATHS_SYMBOLS,
	/* The same for [vdso], which has no file of its own: the build-id places. */
	DEBUG_PATHS_SYMBOLS_VDSO,
	/* The unwinder's file for a mapping: perf's copy, the object in its process's
	 * root, then the object itself (only under an absolute name: not [vdso],
	 * [heap]...). */
	DEBUG_PATHS_UNWIND,
	/* libdwfl's standard search for a separate debug file: DEBUG_DIR/.build-id, then
	 * the debuglink places (only for an absolute PATH, never PATH itself). */
	DEBUG_PATHS_LIBDWFL,
};

struct debug_paths_list {
	char **paths;
	size_t nr, cap;
};

/* Appends the paths of SEARCH for OBJ to OUT (a zeroed list to start), in order. */
void debug_paths_list(const struct debug_paths *dp, enum debug_paths_search search,
		      const struct debug_paths_object *obj, struct debug_paths_list *out);
/* Appends PATH (malloc'd; the list takes it). */
void debug_paths_list_add(struct debug_paths_list *l, char *path);
void debug_paths_list_release(struct debug_paths_list *l);

#endif

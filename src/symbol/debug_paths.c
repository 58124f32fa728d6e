/* debug_paths.c - the places an object's files may be, and the orders of the searches
 * (see debug_paths.h). */
#include "symbol/debug_paths.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

const struct debug_paths debug_paths_libdwfl = {
	.root = "",
	.debug_dir = "/usr/lib/debug",
	.buildid_dir = NULL,
};

void debug_paths_init(struct debug_paths *dp, const char *root, const char *debug_dir,
		      const char *buildid_dir)
{
	struct strbuf sb = STRBUF_INIT;

	dp->root = xstrdup(root ? root : "");
	dp->root_flat = 0;
	if (debug_dir) {
		dp->debug_dir = xstrdup(debug_dir);
	} else {
		strbuf_addf(&sb, "%s/usr/lib/debug", dp->root);
		dp->debug_dir = sb.buf;
	}
	if (root) {
		struct strbuf cache = STRBUF_INIT;

		strbuf_addf(&cache, "%s/.debug", root);
		dp->buildid_dir = cache.buf;
	} else if (buildid_dir) {
		dp->buildid_dir = xstrdup(buildid_dir);
	} else {
		const char *home = getenv("HOME");
		struct strbuf cache = STRBUF_INIT;

		strbuf_addf(&cache, "%s/.debug", home ? home : "");
		dp->buildid_dir = cache.buf;
	}
}

void debug_paths_release(struct debug_paths *dp)
{
	free((char *)dp->root);
	free((char *)dp->debug_dir);
	free((char *)dp->buildid_dir);
	memset(dp, 0, sizeof(*dp));
}

/* ROOT/PATH, or ROOT/basename of PATH in the flat layout (perf's symfs join). */
static void add_on_disk(struct strbuf *out, const struct debug_paths *dp, const char *path)
{
	const char *slash = strrchr(path, '/');

	strbuf_addstr(out, dp->root);
	if (dp->root_flat && dp->root[0])
		strbuf_addf(out, "/%s", slash ? slash + 1 : path);
	else
		strbuf_addstr(out, path);
}

char *debug_paths_on_disk(const struct debug_paths *dp, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	add_on_disk(&sb, dp, path);
	return sb.buf;
}

/* The build-id in hex: "XX/REST" (SPLIT) or "HEX". */
static void add_build_id(struct strbuf *out, const struct debug_paths_object *obj, int split)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < obj->build_id_size; i++) {
		if (split && i == 1)
			strbuf_addch(out, '/');
		strbuf_addch(out, digits[obj->build_id[i] >> 4]);
		strbuf_addch(out, digits[obj->build_id[i] & 15]);
	}
	if (split && obj->build_id_size == 1)
		strbuf_addch(out, '/');
}

/* The directory of ROOT/PATH: everything before its last slash ("" without one). */
static void add_dir(struct strbuf *out, const struct debug_paths *dp, const char *path)
{
	char *file = debug_paths_on_disk(dp, path);
	char *slash = strrchr(file, '/');

	strbuf_add(out, file, slash ? (size_t)(slash - file) : 0);
	free(file);
}

int debug_paths_build(const struct debug_paths *dp, enum debug_path_kind kind,
		      const struct debug_paths_object *obj, struct strbuf *out)
{
	const char *link = obj->debuglink;
	const char *name = obj->cache_name ? obj->cache_name : "elf";

	strbuf_reset(out);
	switch (kind) {
	case DEBUG_PATH_DEBUGLINK_CWD:
	case DEBUG_PATH_DEBUGLINK:
	case DEBUG_PATH_DEBUGLINK_SUBDIR:
	case DEBUG_PATH_DEBUGLINK_DEBUG_DIR:
		if (!link || !*link)
			return -1;
		if (kind == DEBUG_PATH_DEBUGLINK_DEBUG_DIR)
			strbuf_addstr(out, dp->debug_dir);
		if (kind != DEBUG_PATH_DEBUGLINK_CWD) {
			add_dir(out, dp, obj->path);
			strbuf_addstr(out, kind == DEBUG_PATH_DEBUGLINK_SUBDIR ? "/.debug/" : "/");
		}
		strbuf_addstr(out, link);
		return 0;
	case DEBUG_PATH_CACHE:
	case DEBUG_PATH_CACHE_LINK:
	case DEBUG_PATH_CACHE_DEBUG:
		if (!obj->build_id_size || !dp->buildid_dir)
			return -1;
		strbuf_addf(out, "%s/.build-id/", dp->buildid_dir);
		add_build_id(out, obj, 1);
		if (kind != DEBUG_PATH_CACHE_LINK)
			strbuf_addf(out, "/%s", kind == DEBUG_PATH_CACHE ? name : "debug");
		return 0;
	case DEBUG_PATH_CACHE_BY_PATH:
		if (!obj->build_id_size || !dp->buildid_dir)
			return -1;
		strbuf_addf(out, "%s/%s/", dp->buildid_dir, obj->path);
		add_build_id(out, obj, 0);
		strbuf_addf(out, "/%s", name);
		return 0;
	case DEBUG_PATH_DEBUG_DIR_DOT_DEBUG:
		strbuf_addf(out, "%s%s.debug", dp->debug_dir, obj->path);
		return 0;
	case DEBUG_PATH_DEBUG_DIR_PATH:
		strbuf_addf(out, "%s%s", dp->debug_dir, obj->path);
		return 0;
	case DEBUG_PATH_DEBUG_DIR_BUILD_ID:
		if (!obj->build_id_size)
			return -1;
		strbuf_addf(out, "%s/.build-id/", dp->debug_dir);
		add_build_id(out, obj, 1);
		strbuf_addstr(out, ".debug");
		return 0;
	case DEBUG_PATH_PROC_ROOT:
		if (!obj->proc_root || obj->path[0] != '/')
			return -1;
		strbuf_addf(out, "%s%s", obj->proc_root, obj->path);
		return 0;
	case DEBUG_PATH_OBJECT:
		add_on_disk(out, dp, obj->path);
		return 0;
	}
	return -1;
}

static const enum debug_path_kind symbols_order[] = {
	DEBUG_PATH_DEBUGLINK_CWD, DEBUG_PATH_DEBUGLINK, DEBUG_PATH_DEBUGLINK_SUBDIR,
	DEBUG_PATH_DEBUGLINK_DEBUG_DIR, DEBUG_PATH_CACHE, DEBUG_PATH_CACHE_LINK,
	DEBUG_PATH_CACHE_BY_PATH, DEBUG_PATH_CACHE_DEBUG, DEBUG_PATH_PROC_ROOT,
	DEBUG_PATH_DEBUG_DIR_DOT_DEBUG, DEBUG_PATH_DEBUG_DIR_PATH, DEBUG_PATH_DEBUG_DIR_BUILD_ID,
	DEBUG_PATH_OBJECT,
};

static const enum debug_path_kind symbols_vdso_order[] = {
	DEBUG_PATH_CACHE, DEBUG_PATH_CACHE_LINK, DEBUG_PATH_CACHE_BY_PATH,
	DEBUG_PATH_CACHE_DEBUG, DEBUG_PATH_DEBUG_DIR_BUILD_ID,
};

static const enum debug_path_kind unwind_order[] = {
	DEBUG_PATH_CACHE, DEBUG_PATH_PROC_ROOT, DEBUG_PATH_OBJECT,
};

static const enum debug_path_kind libdwfl_order[] = {
	DEBUG_PATH_DEBUG_DIR_BUILD_ID, DEBUG_PATH_DEBUGLINK, DEBUG_PATH_DEBUGLINK_SUBDIR,
	DEBUG_PATH_DEBUGLINK_DEBUG_DIR,
};

static int is_debuglink(enum debug_path_kind kind)
{
	return kind == DEBUG_PATH_DEBUGLINK_CWD || kind == DEBUG_PATH_DEBUGLINK ||
	       kind == DEBUG_PATH_DEBUGLINK_SUBDIR || kind == DEBUG_PATH_DEBUGLINK_DEBUG_DIR;
}

/* Whether SEARCH looks at KIND's place for OBJ beyond KIND's own conditions. */
static int search_takes(enum debug_paths_search search, enum debug_path_kind kind,
			const struct debug_paths_object *obj)
{
	int absolute = obj->path[0] == '/';

	if (search == DEBUG_PATHS_UNWIND && kind == DEBUG_PATH_OBJECT)
		return absolute;
	if (search == DEBUG_PATHS_LIBDWFL && is_debuglink(kind))
		return absolute;
	return 1;
}

void debug_paths_list(const struct debug_paths *dp, enum debug_paths_search search,
		      const struct debug_paths_object *obj, struct debug_paths_list *out)
{
	const enum debug_path_kind *order = symbols_order;
	size_t nr = sizeof(symbols_order) / sizeof(symbols_order[0]);
	struct strbuf sb = STRBUF_INIT;

	switch (search) {
	case DEBUG_PATHS_SYMBOLS:
		break;
	case DEBUG_PATHS_SYMBOLS_VDSO:
		order = symbols_vdso_order;
		nr = sizeof(symbols_vdso_order) / sizeof(symbols_vdso_order[0]);
		break;
	case DEBUG_PATHS_UNWIND:
		order = unwind_order;
		nr = sizeof(unwind_order) / sizeof(unwind_order[0]);
		break;
	case DEBUG_PATHS_LIBDWFL:
		order = libdwfl_order;
		nr = sizeof(libdwfl_order) / sizeof(libdwfl_order[0]);
		break;
	}
	for (size_t i = 0; i < nr; i++) {
		if (!search_takes(search, order[i], obj) ||
		    debug_paths_build(dp, order[i], obj, &sb) != 0)
			continue;
		/* libdwfl never takes the object for its own debug file */
		if (search == DEBUG_PATHS_LIBDWFL && is_debuglink(order[i]) &&
		    !strcmp(sb.buf, obj->path))
			continue;
		debug_paths_list_add(out, xstrdup(sb.buf));
	}
	strbuf_release(&sb);
}

void debug_paths_list_add(struct debug_paths_list *l, char *path)
{
	if (l->nr == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->paths = xrealloc(l->paths, l->cap * sizeof(*l->paths));
	}
	l->paths[l->nr++] = path;
}

void debug_paths_list_release(struct debug_paths_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->paths[i]);
	free(l->paths);
	memset(l, 0, sizeof(*l));
}

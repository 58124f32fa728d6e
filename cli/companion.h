/* companion.h - where tephra finds the files it runs beside itself: the Valgrind tool
 * directory (tephra grind) and the QEMU plugin (tephra emu).
 *
 * Looked up relative to the running binary (/proc/self/exe, symlinks resolved), so an
 * installed tree works wherever it is copied:
 *   installed:   BIN/../lib/tephra/grind/   BIN/../lib/tephra/libtephra-qemu.so
 *   build tree:  build/grind/lib/           build/qemu/libtephra-qemu.so
 * An environment variable (TEPHRA_GRIND_LIB, TEPHRA_QEMU_PLUGIN) overrides both. */
#ifndef TEPHRA_CLI_COMPANION_H
#define TEPHRA_CLI_COMPANION_H

#include <stddef.h>

#include "base/error.h"

enum companion {
	COMPANION_GRIND_LIB,    /* directory: the tool, VERSION, links to Valgrind's files */
	COMPANION_QEMU_PLUGIN,  /* the plugin shared object */
};

/* The companion's path into OUT (CAP bytes): the environment override as given (the
 * caller checks it), else the first of the installed and build-tree places that holds
 * it.  Returns 0, or -1 with ERR naming the places tried. */
int companion_path(enum companion which, char *out, size_t cap, struct tephra_error *err);

/* The environment variable that overrides WHICH. */
const char *companion_env(enum companion which);

#endif

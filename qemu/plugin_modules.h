/* plugin_modules.h - which guest ELF (executable, ld.so, shared library) holds a pc,
 * found the way QEMU user mode maps them: the guest's mappings are mappings of the
 * QEMU process at guest address + guest_base, with their file names in
 * /proc/self/maps.  Each file is loaded once, with its load bias. */
#ifndef TEPHRA_QEMU_PLUGIN_MODULES_H
#define TEPHRA_QEMU_PLUGIN_MODULES_H

#include <pthread.h>
#include <stdint.h>

#include "trace/guest_modules.h"

/* Makes sure PC's module is in M (loading it under LOCK if not).  Never fails: code
 * with no file or no symbols becomes a module without symbols. */
void plugin_modules_ensure(struct guest_modules *m, pthread_mutex_t *lock, int64_t guest_base,
			   uint64_t pc);

#endif

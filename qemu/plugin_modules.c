/* plugin_modules.c - guest modules from /proc/self/maps (see plugin_modules.h). */
#include "qemu/plugin_modules.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void load(struct guest_modules *m, int64_t guest_base, uint64_t pc)
{
	uint64_t host = pc + (uint64_t)guest_base;
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4400];
	while (f && fgets(line, sizeof(line), f)) {
		uint64_t lo, hi, off;
		int path_at = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %n", &lo, &hi, &off,
			   &path_at) < 3)
			continue;
		if (host < lo || host >= hi)
			continue;
		char *path = path_at ? line + path_at : NULL;
		if (path) {
			path[strcspn(path, "\n")] = 0;
			/* " (deleted)" files and pseudo files like [heap] have no usable ELF. */
			if (path[0] != '/' || strstr(path, " (deleted)"))
				path = NULL;
		}
		uint64_t glo = lo - (uint64_t)guest_base, ghi = hi - (uint64_t)guest_base;
		struct tephra_error err;
		const struct guest_module *g = NULL;
		if (path)
			g = guest_modules_add_elf(m, path, glo, ghi, off, &err);
		else
			guest_modules_add_anon(m, glo, ghi);
		/* A module must cover PC, or every block there would scan the maps again. */
		if (path && (!g || pc < g->lo || pc >= g->hi))
			guest_modules_add_anon(m, glo, ghi);
		fclose(f);
		return;
	}
	if (f)
		fclose(f);
	guest_modules_add_anon(m, pc, pc + 1);
}

void plugin_modules_ensure(struct guest_modules *m, pthread_mutex_t *lock, int64_t guest_base,
			   uint64_t pc)
{
	if (guest_modules_find(m, pc))
		return;
	pthread_mutex_lock(lock);
	if (!guest_modules_find(m, pc))
		load(m, guest_base, pc);
	pthread_mutex_unlock(lock);
}

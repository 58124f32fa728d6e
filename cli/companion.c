/* companion.c - the companion files of the tephra binary (companion.h). */
#include "companion.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct place {
	const char *what;
	const char *env;
	const char *marker;       /* a file inside the directory that must exist, or NULL */
	const char *relative[2];  /* from the binary's directory: installed, build tree */
};

/* The installed names follow dist/build.mk's PKGLIBDIR (PREFIX/lib/tephra) from BINDIR
 * (PREFIX/bin). */
static const struct place places[] = {
	[COMPANION_GRIND_LIB] = { "the Valgrind tool (tephragrind)", "TEPHRA_GRIND_LIB", "VERSION",
				  { "../lib/tephra/grind", "grind/lib" } },
	[COMPANION_QEMU_PLUGIN] = { "the QEMU plugin", "TEPHRA_QEMU_PLUGIN", NULL,
				    { "../lib/tephra/libtephra-qemu.so",
				      "qemu/libtephra-qemu.so" } },
};

const char *companion_env(enum companion which)
{
	return places[which].env;
}

static int holds(const struct place *p, const char *path)
{
	char file[PATH_MAX];
	struct stat st;
	if (!p->marker)
		return stat(path, &st) == 0 && S_ISREG(st.st_mode);
	int n = snprintf(file, sizeof(file), "%s/%s", path, p->marker);
	return n > 0 && (size_t)n < sizeof(file) && stat(file, &st) == 0;
}

int companion_path(enum companion which, char *out, size_t cap, struct tephra_error *err)
{
	const struct place *p = &places[which];
	const char *env = getenv(p->env);
	if (env && *env) {
		if (strlen(env) >= cap) {
			tephra_error_set(err, "%s: too long a path", p->env);
			return -1;
		}
		strcpy(out, env);
		return 0;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		tephra_error_set(err, "/proc/self/exe: %s", strerror(errno));
		return -1;
	}
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	char tried[2][PATH_MAX];
	for (int i = 0; i < 2; i++) {
		int len = snprintf(tried[i], sizeof(tried[i]), "%s/%s", exe, p->relative[i]);
		if (len <= 0 || (size_t)len >= sizeof(tried[i]))
			continue;
		if (holds(p, tried[i]) && (size_t)len < cap) {
			strcpy(out, tried[i]);
			return 0;
		}
	}
	tephra_error_set(err, "%s is neither in %s nor in %s (install tephra with make "
			 "install, build it with make, or set %s)", p->what, tried[0], tried[1],
			 p->env);
	return -1;
}

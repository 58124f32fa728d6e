#include "symbol/demangle.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

/* perf strips a Rust legacy hash left after C++-style demangling: "::h" followed by
 * 16 hex digits at the very end. */
static void strip_rust_hash(char *s)
{
	size_t n = strlen(s);

	if (n < 19)
		return;
	char *h = s + n - 19;
	if (memcmp(h, "::h", 3) != 0)
		return;
	for (int i = 3; i < 19; i++) {
		char c = h[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return;
	}
	*h = '\0';
}

char *symbol_demangle(const char *name)
{
	/* Every name libiberty's automatic style can demangle (_Z C++ and Rust legacy,
	 * _R Rust v0, _GLOBAL_ constructor names) starts with '_': skip the call for the
	 * plain C names that make up most tables. */
	if (name[0] != '_')
		return NULL;
	char *out = cplus_demangle(name, DMGL_NO_OPTS);
	if (out)
		strip_rust_hash(out);
	return out;
}

#include "symbol/symbol_demangle.h"

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

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* OCaml native names, as perf rewrites them when libiberty declines: "caml" + an
 * upper-case module name; "__" separates path components (printed "."), "$xx" is a
 * hex-escaped character, and a trailing "_<digits>" stamp is dropped. */
static char *ocaml_demangle(const char *name)
{
	if (strncmp(name, "caml", 4) != 0 || !(name[4] >= 'A' && name[4] <= 'Z'))
		return NULL;
	const char *in = name + 4;
	char *out = malloc(strlen(in) + 1);
	if (!out)
		return NULL;
	size_t j = 0;
	while (*in) {
		if (in[0] == '_' && in[1] == '_') {
			out[j++] = '.';
			in += 2;
		} else if (in[0] == '$' && hex_digit(in[1]) >= 0 && hex_digit(in[2]) >= 0) {
			out[j++] = (char)(hex_digit(in[1]) << 4 | hex_digit(in[2]));
			in += 3;
		} else {
			out[j++] = *in++;
		}
	}
	out[j] = '\0';
	size_t k = j;
	while (k > 0 && out[k - 1] >= '0' && out[k - 1] <= '9')
		k--;
	if (k < j && k > 0 && out[k - 1] == '_')
		out[k - 1] = '\0';
	return out;
}

static char *demangle_with(const char *name, int options)
{
	if (name[0] == 'c')
		return ocaml_demangle(name);
	/* Every name libiberty's automatic style can demangle (_Z C++ and Rust legacy,
	 * _R Rust v0, _GLOBAL_ constructor names) starts with '_': skip the call for the
	 * plain C names that make up most tables. */
	if (name[0] != '_')
		return NULL;
	/* DMGL_VERBOSE makes a Rust v0 name show every crate's hash ("std[e28293b1aa0f68bd]::
	 * rt::..."); perf, rustfilt and llvm-symbolizer print "std::rt::...", and a v0 name
	 * has no parameter list to gain from it. */
	if (name[1] == 'R')
		options &= ~DMGL_VERBOSE;
	char *out = cplus_demangle(name, options);
	if (out)
		strip_rust_hash(out);
	return out;
}

char *symbol_demangle(const char *name)
{
	return demangle_with(name, DMGL_NO_OPTS);
}

char *symbol_demangle_full(const char *name)
{
	/* c++filt's defaults (Rust v0 names without crate hashes, see demangle_with); a Rust
	 * legacy name carries no parameters either way */
	return demangle_with(name, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE);
}

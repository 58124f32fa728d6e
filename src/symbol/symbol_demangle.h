/* symbol_demangle.h - symbol names as perf 6.1 prints them.
 *
 * perf (Debian's build, no libbfd) demangles with libiberty's cplus_demangle and no
 * options: C++ names without parameter lists, Rust legacy names without the
 * "::h<hash>" suffix, Rust v0 names; then its own OCaml rewriting ("camlFoo__bar_12"
 * -> "Foo.bar"); anything else is printed as it is. */
#ifndef TEPHRA_SYMBOL_SYMBOL_DEMANGLE_H
#define TEPHRA_SYMBOL_SYMBOL_DEMANGLE_H

/* Returns a malloc'd demangled name, or NULL when NAME is not mangled. */
char *symbol_demangle(const char *name);

#endif

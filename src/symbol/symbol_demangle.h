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

/* The same with C++ parameter lists and template details, as binutils' c++filt prints
 * them ("spin(int)", not perf's "spin"), so that overloads keep apart (tephra fold's
 * default names); Rust and OCaml names as symbol_demangle gives them (v0 names without
 * crate hashes, as perf, rustfilt and llvm-symbolizer print them). */
char *symbol_demangle_full(const char *name);

#endif

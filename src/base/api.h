/* api.h - marks the definitions of the public C API (include/tephra/).
 *
 * The library is compiled with -fvisibility=hidden: only what carries TEPHRA_API is
 * exported by libtephra.so and stays global in the public libtephra.a, so internal names
 * (xmalloc, cs_free, hashmap_*...) cannot clash with the caller's or other libraries'.
 * Every TEPHRA_API name starts with tephra_ (tests/install/symbols.test.sh). */
#ifndef TEPHRA_BASE_API_H
#define TEPHRA_BASE_API_H

#define TEPHRA_API __attribute__((visibility("default")))

#endif

/* tephra/tephra.h - the whole public C API of libtephra (docs/library.md):
 * the version (tephra/version.h) and the call-stack tracer for emulators
 * (tephra/trace.h).  Link with `pkg-config --libs tephra`. */
#ifndef TEPHRA_TEPHRA_H
#define TEPHRA_TEPHRA_H

#include <tephra/version.h>
#include <tephra/trace.h>

#endif

/* xalloc.h - allocation that aborts with a message on out-of-memory.
 * Sizes come from data we have actually read, never from an unchecked length field. */
#ifndef TEPHRA_BASE_XALLOC_H
#define TEPHRA_BASE_XALLOC_H

#include <stddef.h>
#include <stdlib.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif

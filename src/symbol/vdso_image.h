/* vdso_image.h - the running process's own vDSO as a file, for [vdso] maps whose
 * recording names no build-id (pipe mode, some -z files).  perf 6.1 then names vdso
 * frames from a copy of its own vdso (/tmp/perf-vdso.so-XXXXXX), which is right when
 * the recording was made under the running kernel; tephra does the same. */
#ifndef TEPHRA_SYMBOL_VDSO_IMAGE_H
#define TEPHRA_SYMBOL_VDSO_IMAGE_H

/* A memory file (memfd) holding a copy of this process's [vdso] mapping, readable
 * through "/proc/self/fd/N"; the caller closes it.  -1 when the process has no vdso
 * or it cannot be copied. */
int vdso_image_memfd(void);

#endif

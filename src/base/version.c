/* version.c - tephra_version(): the version of the library linked at run time. */
#include "tephra/version.h"

#include "base/api.h"

TEPHRA_API const char *tephra_version(int *major, int *minor, int *patch)
{
	if (major)
		*major = TEPHRA_VERSION_MAJOR;
	if (minor)
		*minor = TEPHRA_VERSION_MINOR;
	if (patch)
		*patch = TEPHRA_VERSION_PATCH;
	return TEPHRA_VERSION_STRING;
}

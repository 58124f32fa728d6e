/* dlsym of a name no object defines, in a loop: each lookup walks every loaded
 * object's hash table inside ld.so (_dl_lookup_symbol_x), so nearly every sample
 * of this program lands in ld.so. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000, hits = 0;
	for (long i = 0; i < n; i++)
		hits += dlsym(RTLD_DEFAULT, "tephra_no_such_symbol") != NULL;
	printf("%ld\n", hits);
	return 0;
}

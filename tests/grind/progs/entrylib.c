/* entrylib.c - libentry.so: lib_main plays Py_BytesMain in a Python built with a
 * shared libpython: the program's main jumps to it (progs/entrymain.c), and it calls
 * into code that is not in the library (libc's malloc and free, then the program's
 * callback); it also runs the callback on a thread whose start routine,
 * lib_thread, is in the library. */
#include <pthread.h>
#include <stdlib.h>

static void *lib_thread(void *cb)
{
	((void (*)(void))cb)();
	return NULL;
}

int lib_main(int argc, char **argv, void (*cb)(void))
{
	(void)argc, (void)argv;
	char *volatile p = malloc(100); /* volatile: gcc drops an unused malloc+free */
	free(p);
	cb();
	pthread_t t;
	if (pthread_create(&t, NULL, lib_thread, (void *)cb) == 0)
		pthread_join(t, NULL);
	return 0;
}

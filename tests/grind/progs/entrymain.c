/* entrymain.c - the shape of python3 over a shared libpython: main tail-calls
 * lib_main in libentry.so (progs/entrylib.c), which calls libc, then cb(), then
 * runs cb() on a thread started in the library.
 * Without skipping the root is lib_main (main's frame was replaced by the tail
 * call):  lib_main;cb;work 4002   lib_thread;cb;work 4002
 * With --skip-obj=libentry.so the library's functions are hidden and its calls hang
 * below the entry, which shows as main (the thread's as [libentry.so]):
 *   main;cb;work 4002   main;malloc...   main;free...   [libentry.so];cb;work 4002
 * and every stack starts at main, [libentry.so] or (below main). */
#include "work.h"

int lib_main(int argc, char **argv, void (*cb)(void));

void cb(void) { work(2000); }

int main(int argc, char **argv);
__asm__(".text\n.globl main\n.type main,@function\n"
	"main:\n\tlea cb(%rip),%rdx\n\tjmp lib_main@PLT\n.size main,.-main\n");

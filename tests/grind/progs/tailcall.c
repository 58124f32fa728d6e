/* tailcall.c - tailer() ends in a jump to work(): a tail call the compiler cannot undo.
 * main calls caller(), which calls tailer(); then work(2000) from main.
 *   replace (default): main;caller;tailer 2   main;caller;work 2002   main;work 4002
 *   nest (callgrind):  main;caller;tailer 2   main;caller;tailer;work 2002 */
#include "work.h"

void tailer(void);
__asm__(".text\n.globl tailer\n.type tailer,@function\n"
	"tailer:\n\tmov $1000,%edi\n\tjmp work\n.size tailer,.-tailer\n");

void caller(void) { tailer(); }
int main(void) { caller(); work(2000); return 0; }

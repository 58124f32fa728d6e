/* exec.c - works, then replaces itself with /bin/true.  Expected: main;work 2002 is
 * written although the process never exits through Valgrind's end of run. */
#include <unistd.h>
#include "work.h"

int main(void)
{
	work(1000);
	execl("/bin/true", "true", (char *)0);
	return 1;
}

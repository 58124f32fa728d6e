/* spawnee.c - what spawn.c execs: main;work 6002, exit status 5. */
#include "work.h"

int main(void)
{
	work(3000);
	return 5;
}

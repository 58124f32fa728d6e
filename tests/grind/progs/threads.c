/* threads.c - two threads, each rooted at its start routine.  Expected:
 *   worker_a;work 2002   worker_b;work 4002   main;work 6002 */
#include <pthread.h>
#include "work.h"

void *worker_a(void *arg) { work(1000); return arg; }
void *worker_b(void *arg) { work(2000); return arg; }

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, worker_a, NULL);
	pthread_join(a, NULL);
	pthread_create(&b, NULL, worker_b, NULL);
	pthread_join(b, NULL);
	work(3000);
	return 0;
}

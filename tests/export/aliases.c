/* Spends its time in two glibc functions that have several ELF symbols each
 * (getrlimit: __getrlimit, getrlimit64, __GI___getrlimit64...; pthread_mutex_lock:
 * pthread_mutex_lock@@GLIBC_2.2.5, ___pthread_mutex_lock...), which perf report and
 * perf script name differently (tests/export/report_compare.py). */
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5000000, sum = 0;
	struct rlimit r;
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&lock);
		pthread_mutex_unlock(&lock);
		if (!(i & 15) && getrlimit(RLIMIT_STACK, &r) == 0)
			sum += (long)r.rlim_cur;
	}
	return sum == 1;
}

/* forks.c - the guest forks a child that does its own work and exits; the parent waits
 * and then works: the profile is the parent's (QEMU forks with the guest, and only the
 * original QEMU process writes the file). */
#include <sys/wait.h>
#include <unistd.h>

volatile long sink;

__attribute__((noinline)) long child_work(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i;
	return s;
}

__attribute__((noinline)) long parent_work(long n)
{
	long s = 1;
	for (long i = 0; i < n; i++)
		s ^= i;
	return s;
}

int main(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		sink = child_work(100000);
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	sink = parent_work(1000);
	return 0;
}

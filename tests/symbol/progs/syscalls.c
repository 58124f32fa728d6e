/* Syscall-heavy loop for kernel frames, plus clock_gettime for vdso frames. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	char buf[256];
	long total = 0;
	struct timespec ts;
	for (long i = 0; i < n; i++) {
		int fd = open("/proc/self/stat", O_RDONLY);
		if (fd >= 0) {
			total += read(fd, buf, sizeof(buf));
			close(fd);
		}
		for (int k = 0; k < 20; k++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			total += ts.tv_nsec & 1;
		}
	}
	printf("%ld\n", total);
	return 0;
}

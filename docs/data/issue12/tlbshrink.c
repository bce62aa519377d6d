// SPDX-License-Identifier: GPL-2.0
/* Two processes on one CPU ping-pong through pipes for SECONDS; each
 * touches PAGES pages of its own between switches (each switch writes
 * CR3: a full TLB flush in QEMU TCG, where the TLB is resized). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <time.h>
int main(int argc, char **argv)
{
	long pages = atol(argv[1]);
	double secs = atof(argv[2]);
	int a[2], b[2];
	char c = 0;
	struct timespec t0, t;
	if (pipe(a) || pipe(b)) return 1;
	pid_t pid = fork();
	volatile char *buf = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (pid) {
			if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1) break;
		} else {
			if (read(a[0], &c, 1) != 1) return 0;
		}
		for (long i = 0; i < pages; i++) buf[i * 4096]++;
		if (!pid) { if (write(b[1], &c, 1) != 1) return 0; continue; }
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 > secs) break;
	}
	close(a[1]);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* every 0.5 s, time 64 KiB (thread CPU time) of rep movsb and of rep movsq */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>

static double now(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void movsb(void *d, const void *s, size_t n)
{
	asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

static void movsq(void *d, const void *s, size_t n)
{
	n /= 8;
	asm volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

int main(int argc, char **argv)
{
	size_t len = 65536;
	char *a = aligned_alloc(4096, len), *b = aligned_alloc(4096, len);
	int cpu = argc > 1 ? atoi(argv[1]) : 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	memset(a, 1, len);
	memset(b, 2, len);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (;;) {
		double t0, t1, t2, t3, c0, c1;

		double up = now(CLOCK_BOOTTIME);

		t0 = now(CLOCK_THREAD_CPUTIME_ID);
		for (size_t o = 0; o < len; o += 4096)
			movsb(b + o, a + o, 4096);
		t1 = now(CLOCK_THREAD_CPUTIME_ID);
		for (size_t o = 0; o < len; o += 4096)
			movsq(b + o, a + o, 4096);
		t2 = now(CLOCK_THREAD_CPUTIME_ID);
		memcpy(b, a, len);
		t3 = now(CLOCK_THREAD_CPUTIME_ID);
		c0 = c1 = 0;
		printf("%.2f cpu%d movsb %.1f movsq %.1f memcpy %.1f MB/s (thread cpu time)%s\n",
		       up, sched_getcpu(), len / (t1 - t0) / 1e6, len / (t2 - t1) / 1e6,
		       len / (t3 - t2) / 1e6, c0 + c1 ? "" : "");
		usleep(500000);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Experiment for fragment-stride.sh: fill SIZE MiB of base pages on node
 * 1, free those whose pfn matches MODE, create READY and wait for SIGUSR1.
 *   odd   free the pages at odd pfns (holes never at a pfn compaction's
 *         free scanner probes at stride 2..32 from a pageblock start)
 *   flip  free the pages whose pfn bit 0 differs from pfn bit 5
 * Prints how many pages it freed and kept. Needs root (pagemap pfns).
 *   gcc -O2 -o holes-by-pfn holes-by-pfn.c -lnuma
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <numaif.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile sig_atomic_t go;

static void on_usr1(int s)
{
	(void)s;
	go = 1;
}

int main(int argc, char **argv)
{
	unsigned long n, i, freed = 0, mask = 1UL << 1;
	size_t len;
	uint64_t e, pfn;
	char *p, *gone;
	int fd;

	if (argc != 4)
		return fprintf(stderr, "usage: holes-by-pfn odd|flip MIB READY\n"), 1;
	len = strtoul(argv[2], NULL, 0) << 20;
	n = len / 4096;
	signal(SIGUSR1, on_usr1);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || madvise(p, len, MADV_NOHUGEPAGE) ||
	    mbind(p, len, MPOL_BIND, &mask, 8 * sizeof(mask), 0))
		return perror("mmap/madvise/mbind"), 1;
	gone = calloc(n, 1);
	if (!gone)
		return perror("calloc"), 1;
	memset(p, 0x5a, len);
	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		return perror("pagemap"), 1;
	for (i = 0; i < n; i++) {
		if (pread(fd, &e, 8, ((uintptr_t)p / 4096 + i) * 8) != 8)
			return perror("pread"), 1;
		pfn = e & ((1ULL << 55) - 1);
		if (!strcmp(argv[1], "odd") ? (pfn & 1) : ((pfn ^ (pfn >> 5)) & 1)) {
			madvise(p + i * 4096, 4096, MADV_DONTNEED);
			gone[i] = 1;
			freed++;
		}
	}
	close(fd);
	close(open(argv[3], O_CREAT | O_WRONLY, 0644));
	while (!go)
		pause();
	/* every byte of every kept page still as written */
	for (i = 0; i < n * 4096; i++)
		if (!gone[i / 4096] && p[i] != 0x5a)
			return fprintf(stderr, "page %lu corrupt\n", i / 4096), 2;
	printf("%s: freed %lu kept %lu\n", argv[1], freed, n - freed);
	return 0;
}

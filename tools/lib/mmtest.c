// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the memaccel tools: folio size selection (mTHP sysfs),
 * folio size and node checks (pagemap + kpageflags), data patterns.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <numaif.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "mmtest.h"

bool mm_no_mthp_setup;
int pagemap_fd = -1, kpageflags_fd = -1;

void mm_open_proc(void)
{
	pagemap_fd = open("/proc/self/pagemap", O_RDONLY);
	kpageflags_fd = open("/proc/kpageflags", O_RDONLY);
	if (pagemap_fd < 0 || kpageflags_fd < 0)
		fatal(EXIT_SYS, "open pagemap/kpageflags (root needed): %s",
		      strerror(errno));
}

void fatal(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: FAIL: ", program_invocation_short_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(code);
}

/* ---- mTHP / THP sysfs: set per measurement, restored at exit ---- */

static struct {
	char path[128];
	char saved[32];
} mthp[MAX_MTHP + 1];
static int nr_mthp;
static bool mthp_saved;

static int read_selected(const char *path, char *buf, size_t len)
{
	char line[256], *l, *r;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	l = strchr(line, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!l || !r)
		return -1;
	*r = '\0';
	snprintf(buf, len, "%s", l + 1);
	return 0;
}

void write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) < 0)
		fatal(EXIT_SYS, "write '%s' to %s: %s", val, path, strerror(errno));
	close(fd);
}

void mthp_restore(void)
{
	int i;

	if (!mthp_saved)
		return;
	for (i = 0; i < nr_mthp; i++) {
		int fd = open(mthp[i].path, O_WRONLY);

		if (fd >= 0) {
			if (write(fd, mthp[i].saved, strlen(mthp[i].saved)) < 0)
				perror(mthp[i].path);
			close(fd);
		}
	}
	mthp_saved = false;
}

static void on_signal(int sig)
{
	mthp_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

void mthp_save(void)
{
	static const unsigned int kb[] = { 16, 32, 64, 128, 256, 512, 1024, 2048 };
	unsigned int i;

	snprintf(mthp[nr_mthp].path, sizeof(mthp[0].path), THP_DIR "/enabled");
	if (read_selected(mthp[nr_mthp].path, mthp[nr_mthp].saved,
			  sizeof(mthp[0].saved)))
		fatal(EXIT_SYS, "cannot read %s (THP support missing?)",
		      mthp[nr_mthp].path);
	nr_mthp++;
	for (i = 0; i < sizeof(kb) / sizeof(kb[0]); i++) {
		snprintf(mthp[nr_mthp].path, sizeof(mthp[0].path),
			 THP_DIR "/hugepages-%ukB/enabled", kb[i]);
		if (read_selected(mthp[nr_mthp].path, mthp[nr_mthp].saved,
				  sizeof(mthp[0].saved)) == 0)
			nr_mthp++;
	}
	mthp_saved = true;
	atexit(mthp_restore);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
}

/*
 * Make anonymous faults produce folios of exactly @size: only that size's
 * mTHP control is "always" (2M: THP "madvise" + MADV_HUGEPAGE on the range),
 * every other size "never".
 */
void mthp_select(unsigned long size)
{
	char path[128];
	int i;

	if (mm_no_mthp_setup)
		return;
	write_str(THP_DIR "/enabled", "madvise");
	for (i = 1; i < nr_mthp; i++)
		write_str(mthp[i].path, "never");
	if (size == PAGE_SZ)
		return;
	snprintf(path, sizeof(path), THP_DIR "/hugepages-%lukB/enabled",
		 size >> 10);
	if (access(path, W_OK))
		fatal(EXIT_SYS, "%s: %s (folio size not supported by this kernel)",
		      path, strerror(errno));
	write_str(path, size == PMD_SZ ? "inherit" : "always");
}

/* ---- folio size and placement checks ---- */

static uint64_t pfn_of(uint64_t pm)
{
	return pm & ((1ULL << 55) - 1);
}

static void read_pagemap(char *addr, unsigned long npages, uint64_t *out)
{
	off_t off = (uintptr_t)addr / PAGE_SZ * 8;
	ssize_t want = npages * 8;

	if (pread(pagemap_fd, out, want, off) != want)
		fatal(EXIT_SYS, "read /proc/self/pagemap: %s", strerror(errno));
}

uint64_t pfn_at(const void *addr)
{
	uint64_t pm;

	read_pagemap((char *)addr, 1, &pm);
	return pm >> 63 ? pfn_of(pm) : 0;
}

bool is_thp_at(const void *addr)
{
	uint64_t pfn = pfn_at(addr), kf;

	if (!pfn || pfn % PMD_PAGES ||
	    pread(kpageflags_fd, &kf, 8, pfn * 8) != 8)
		return false;
	return (kf & (1ULL << KPF_THP)) && (kf & (1ULL << KPF_COMPOUND_HEAD)) &&
	       pfn_at((const char *)addr + PMD_SZ - PAGE_SZ) == pfn + PMD_PAGES - 1;
}

/* Fails unless [addr, addr+len) is made of folios of exactly @fsize. */
void check_folios(char *addr, unsigned long len, unsigned long fsize,
			 const char *when)
{
	unsigned long npages = len / PAGE_SZ, per = fsize / PAGE_SZ, i, j;
	uint64_t *pm = malloc(npages * 8), *kf = malloc((per + 1) * 8);

	if (!pm || !kf)
		fatal(EXIT_SYS, "out of memory");
	read_pagemap(addr, npages, pm);
	for (i = 0; i < npages; i += per) {
		uint64_t pfn = pfn_of(pm[i]);
		ssize_t got;

		if (!(pm[i] >> 63) || !pfn)
			fatal(EXIT_CHECK, "%s: page at +%lu not present", when,
			      i * PAGE_SZ);
		for (j = 1; j < per; j++)
			if (pfn_of(pm[i + j]) != pfn + j)
				fatal(EXIT_CHECK,
				      "%s: asked %lu KiB folios, but +%lu KiB is not physically contiguous with its folio head",
				      when, fsize >> 10, ((i + j) * PAGE_SZ) >> 10);
		got = pread(kpageflags_fd, kf, (per + 1) * 8, pfn * 8);
		if (got < (ssize_t)(per * 8))
			fatal(EXIT_SYS, "read /proc/kpageflags: %s", strerror(errno));
		if (got < (ssize_t)((per + 1) * 8))
			kf[per] = 0;
		if (per == 1) {
			if (kf[0] & ((1ULL << KPF_COMPOUND_HEAD) | (1ULL << KPF_COMPOUND_TAIL)))
				fatal(EXIT_CHECK,
				      "%s: asked 4 KiB pages, got a large folio at +%lu KiB",
				      when, (i * PAGE_SZ) >> 10);
			continue;
		}
		if (!(kf[0] & (1ULL << KPF_COMPOUND_HEAD)))
			fatal(EXIT_CHECK,
			      "%s: asked %lu KiB folios, but +%lu KiB is not a folio head (smaller folio or base page)",
			      when, fsize >> 10, (i * PAGE_SZ) >> 10);
		for (j = 1; j < per; j++)
			if (!(kf[j] & (1ULL << KPF_COMPOUND_TAIL)))
				fatal(EXIT_CHECK,
				      "%s: asked %lu KiB folios, got a %lu KiB folio at +%lu KiB",
				      when, fsize >> 10, (j * PAGE_SZ) >> 10,
				      (i * PAGE_SZ) >> 10);
		if (kf[per] & (1ULL << KPF_COMPOUND_TAIL))
			fatal(EXIT_CHECK,
			      "%s: asked %lu KiB folios, got a larger folio at +%lu KiB",
			      when, fsize >> 10, (i * PAGE_SZ) >> 10);
	}
	free(pm);
	free(kf);
}

int *query_nodes(char *addr, unsigned long len)
{
	unsigned long npages = len / PAGE_SZ, i;
	void **pages = malloc(npages * sizeof(void *));
	int *status = malloc(npages * sizeof(int));

	if (!pages || !status)
		fatal(EXIT_SYS, "out of memory");
	for (i = 0; i < npages; i++)
		pages[i] = addr + i * PAGE_SZ;
	if (move_pages(0, npages, pages, NULL, status, 0))
		fatal(EXIT_SYS, "move_pages(query): %s", strerror(errno));
	free(pages);
	return status;
}

void check_node(char *addr, unsigned long len, int node)
{
	int *status = query_nodes(addr, len);
	unsigned long i;

	for (i = 0; i < len / PAGE_SZ; i++)
		if (status[i] != node)
			fatal(EXIT_CHECK, "page at +%lu KiB is on node %d, expected %d",
			      (i * PAGE_SZ) >> 10, status[i], node);
	free(status);
}

/* ---- data pattern ---- */

uint64_t pattern(uint64_t word, uint64_t seed)
{
	uint64_t x = (word + 1) * 0x9E3779B97F4A7C15ULL ^ seed;

	return x ^ (x >> 29);
}

void fill(char *addr, unsigned long len, uint64_t seed)
{
	uint64_t *w = (uint64_t *)addr;
	unsigned long i;

	for (i = 0; i < len / 8; i++)
		w[i] = pattern(i, seed);
}

void verify(char *addr, unsigned long len, uint64_t seed)
{
	uint64_t *w = (uint64_t *)addr;
	unsigned long i;

	for (i = 0; i < len / 8; i++)
		if (w[i] != pattern(i, seed))
			fatal(EXIT_CHECK,
			      "data corrupted after move at +%lu: %#" PRIx64 " != %#" PRIx64,
			      i * 8, w[i], pattern(i, seed));
}


double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

char *alloc_on(unsigned long len, int node, unsigned long fsize)
{
	return alloc_on_map(len, node, fsize, MAP_PRIVATE);
}

char *alloc_on_map(unsigned long len, int node, unsigned long fsize, int type)
{
	unsigned long mask = 1UL << node;
	char *raw, *p;

	/* Over-allocate so the range can be aligned to the PMD size. */
	raw = mmap(NULL, len + PMD_SZ, PROT_READ | PROT_WRITE,
		   type | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		fatal(EXIT_SYS, "mmap %lu: %s", len, strerror(errno));
	p = (char *)(((uintptr_t)raw + PMD_SZ - 1) & ~(PMD_SZ - 1));
	if (p != raw)
		munmap(raw, p - raw);
	munmap(p + len, raw + PMD_SZ - p);
	if (mbind(p, len, MPOL_BIND, &mask, sizeof(mask) * 8, 0))
		fatal(EXIT_SYS, "mbind node %d: %s", node, strerror(errno));
	/*
	 * 2M: THP is "madvise". mTHP sizes: no advice (MADV_NOHUGEPAGE would
	 * turn mTHP off for the VMA too). 4K: no large folio at all.
	 */
	if (fsize == PMD_SZ && madvise(p, len, MADV_HUGEPAGE))
		fatal(EXIT_SYS, "madvise(MADV_HUGEPAGE): %s", strerror(errno));
	if (fsize == PAGE_SZ && madvise(p, len, MADV_NOHUGEPAGE))
		fatal(EXIT_SYS, "madvise(MADV_NOHUGEPAGE): %s", strerror(errno));
	return p;
}


unsigned long parse_size(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (end == s)
		fatal(EXIT_USAGE, "bad size '%s'", s);
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	case '\0': break;
	default: fatal(EXIT_USAGE, "bad size '%s'", s);
	}
	if (*end && strcmp(end, "B") && strcmp(end, "iB"))
		fatal(EXIT_USAGE, "bad size '%s'", s);
	return v;
}

/* ---- folio splits and failed migrations, system-wide ---- */

static unsigned long read_ulong(const char *path)
{
	unsigned long v = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	if (fscanf(f, "%lu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

void mm_counters_read(struct mm_counters *c)
{
	char path[160], name[64];
	unsigned long v;
	unsigned int kb;
	FILE *f;

	c->splits = 0;
	for (kb = 8; kb <= 2048; kb *= 2) {
		snprintf(path, sizeof(path), THP_DIR "/hugepages-%ukB/stats/split", kb);
		c->splits += read_ulong(path);
	}
	c->pgmigrate_fail = c->pgscan_kswapd = c->pgscan_direct = 0;
	c->allocstall = c->compact_stall = 0;
	f = fopen("/proc/vmstat", "r");
	if (!f)
		return;
	while (fscanf(f, "%63s %lu", name, &v) == 2) {
		if (!strcmp(name, "pgmigrate_fail"))
			c->pgmigrate_fail = v;
		else if (!strcmp(name, "pgscan_kswapd"))
			c->pgscan_kswapd = v;
		else if (!strcmp(name, "pgscan_direct"))
			c->pgscan_direct = v;
		else if (!strncmp(name, "allocstall_", 11))
			c->allocstall += v;
		else if (!strcmp(name, "compact_stall"))
			c->compact_stall = v;
	}
	fclose(f);
}

void mm_counters_since(struct mm_counters *c, const struct mm_counters *before)
{
	struct mm_counters now;

	mm_counters_read(&now);
	c->splits = now.splits - before->splits;
	c->pgmigrate_fail = now.pgmigrate_fail - before->pgmigrate_fail;
	c->pgscan_kswapd = now.pgscan_kswapd - before->pgscan_kswapd;
	c->pgscan_direct = now.pgscan_direct - before->pgscan_direct;
	c->allocstall = now.allocstall - before->allocstall;
	c->compact_stall = now.compact_stall - before->compact_stall;
}

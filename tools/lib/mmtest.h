/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the memaccel tools, see mmtest.c. */
#ifndef MEMACCEL_MMTEST_H
#define MEMACCEL_MMTEST_H

#include <linux/kernel-page-flags.h>
#include <numaif.h>
#include <stdbool.h>
#include <stdint.h>

#define PAGE_SZ		4096UL
#define PMD_SZ		(2UL << 20)
#define PMD_PAGES	(PMD_SZ / PAGE_SZ)
#define THP_DIR		"/sys/kernel/mm/transparent_hugepage"
#define MAX_MTHP	16

#ifndef MPOL_MF_EXCHANGE
#define MPOL_MF_EXCHANGE	(1 << 8)	/* memaccel: move_pages(2) pairs */
#endif

enum { EXIT_USAGE = 1, EXIT_CHECK = 2, EXIT_SYS = 3 };

/* Leave the mTHP/THP sysfs settings alone (mthp_select() does nothing) */
extern bool mm_no_mthp_setup;
extern int pagemap_fd, kpageflags_fd;

__attribute__((noreturn, format(printf, 2, 3)))
void fatal(int code, const char *fmt, ...);
void write_str(const char *path, const char *val);
/* Save the mTHP settings now; restored at exit and on SIGINT/SIGTERM */
void mthp_save(void);
void mthp_restore(void);
/* Make anonymous faults produce folios of exactly @size */
void mthp_select(unsigned long size);
void mm_open_proc(void);
/* Exit EXIT_CHECK unless [addr, addr+len) is folios of exactly @fsize */
void check_folios(char *addr, unsigned long len, unsigned long fsize,
		  const char *when);
/* The page frame number behind @addr, 0 if no page is present there */
uint64_t pfn_at(const void *addr);
/* Does a 2 MB THP start at @addr (PMD-aligned), whole and present? */
bool is_thp_at(const void *addr);
/* The node (or -errno) of every base page of [addr, addr+len), malloc()ed */
int *query_nodes(char *addr, unsigned long len);
/* Exit EXIT_CHECK unless every page of [addr, addr+len) is on @node */
void check_node(char *addr, unsigned long len, int node);
uint64_t pattern(uint64_t word, uint64_t seed);
void fill(char *addr, unsigned long len, uint64_t seed);
/* Exit EXIT_CHECK at the first word that differs from fill()'s pattern */
void verify(char *addr, unsigned long len, uint64_t seed);
double now(void);
/* PMD-aligned anonymous range bound to @node, advised for folios of @fsize */
char *alloc_on(unsigned long len, int node, unsigned long fsize);
/* The same with @type MAP_PRIVATE or MAP_SHARED (shmem folios) */
char *alloc_on_map(unsigned long len, int node, unsigned long fsize, int type);
/* "4096", "16K", "2M", "1GiB": bytes; exits EXIT_USAGE if malformed */
unsigned long parse_size(const char *s);

/*
 * System-wide counters around a move: large folios split (the per-size
 * mTHP stats/split, 8K..2M), pages that failed to migrate (pgmigrate_fail
 * in /proc/vmstat), and the reclaim and compaction work done meanwhile
 * (pgscan_kswapd, pgscan_direct, allocstall_*, compact_stall). A counter
 * the kernel does not have reads 0.
 */
struct mm_counters {
	unsigned long splits;
	unsigned long pgmigrate_fail;
	/* reclaim and compaction, which a full node can set off */
	unsigned long pgscan_kswapd;
	unsigned long pgscan_direct;
	unsigned long allocstall;	/* every zone's allocstall_* */
	unsigned long compact_stall;
};
void mm_counters_read(struct mm_counters *c);
/* @c = the counters now minus @before */
void mm_counters_since(struct mm_counters *c, const struct mm_counters *before);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * migbench - move_pages(2) throughput by folio size and by folio count.
 *
 * Reproduces the two tables of the "batch folio copy + copy offload" RFC:
 *  (a) GB/s moving a fixed total from node SRC to node DST, for folio sizes
 *      4K..2M (mTHP sysfs sizes; 2M through THP with MADV_HUGEPAGE);
 *  (b) GB/s for 2 MB folios by number of folios moved in one call (each
 *      repetition repeats the call until --b-min bytes have moved);
 *  (w) GB/s and the migrating thread's own CPU time per GB for the mixed
 *      workloads of DSA-2LM: A = 1023 x 4K + 1 x 2M, B = 1000 x 4K + 24 x 2M,
 *      moved in one move_pages(2) call;
 *  (x) exchange against two migrations: folios on SRC and on DST trade
 *      nodes by move_pages(2) with MPOL_MF_EXCHANGE, or by moving the DST
 *      ones to SRC and then the SRC ones to DST; GB/s of both sides and
 *      the calling thread's CPU time;
 *  (xfull) the same with DST full: before each timed call, mlocked filler
 *      leaves DST with only a small guard of free memory above its low
 *      watermark, so the two migrations promote into the memory the
 *      demotion freed, while the exchange needs no free memory at all;
 * plus the in-guest copy limit: memcpy bandwidth SRC->DST with one thread
 * and with N threads, measured the same way, so each table can be read
 * against what the machine can copy at all.
 *
 * migbench measures and checks; it does not summarise. Each repetition is
 * one line on stdout and, with --csv, one CSV row: one quantity per column,
 * the unit in the column's name (see CSV_HEADER). scripts/results.py turns
 * the CSV into tables and plots, and compares two runs. Around every move
 * it also records the large folios split (mTHP stats/split) and the pages
 * that failed to migrate (pgmigrate_fail), system-wide.
 *
 * Every measurement is checked: before the move, each folio must have
 * exactly the asked size (from /proc/self/pagemap + /proc/kpageflags); after
 * the move, every base page must be on DST, still in a folio of that size,
 * and hold exactly the bytes written before. Any mismatch is fatal (exit 2).
 * Needs root (kpageflags, mTHP sysfs).
 *
 * Under QEMU TCG, where a copy runs 13x slower when its source and
 * destination frames alias in the vCPU's software TLB, every row counts
 * the folios that moved between such frames, and --hold-placement holds
 * the frames that would (see "TCG's software TLB" below).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <numaif.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../lib/mmtest.h"

#define MAX_LIST	32

static struct {
	unsigned long sizes[MAX_LIST];
	int nr_sizes;
	unsigned long counts[MAX_LIST];
	int nr_counts;
	unsigned long batches[MAX_LIST];
	int nr_batches;
	unsigned long total;
	unsigned long b_min;
	int reps;
	int first_rep;
	int src, dst;
	int threads;
	bool do_a, do_b, do_limit, do_first, do_w, do_x, do_xfull;
	int cpu;		/* --cpu: x and xfull call from it; -1 any */
	long fill_guard;	/* --fill-guard in pages; -1: computed */
	const char *label;
	const char *csv_path;
	bool inject_corrupt;
	bool hold_placement;
} opt;

static FILE *csv;

/* ---- TCG's software TLB and the frames a move gets ---- */

/*
 * QEMU TCG gives each vCPU a direct-mapped TLB of 2^n entries, resized at
 * flushes (n was 10..12 in every sweep of docs/benchmarks.md, "mtcopy at
 * 2 MB and the slow state"). The kernel copies through the direct map, so
 * a copy whose source and destination frame numbers differ by a multiple
 * of 2^n misses that TLB on every access and runs 13x slower, whatever the
 * engine. A folio "aliases" when its frames before and after the move
 * differ by a multiple of the smallest size seen, 2^10 pages.
 */
#define TLB_ALIAS_PAGES	1024UL

static void frames_of(void *const *pages, unsigned long nr, uint64_t *pfn)
{
	unsigned long i;

	for (i = 0; i < nr; i++)
		pfn[i] = pfn_at(pages[i]);
}

/* How many of the @nr folios at @pages moved between aliasing frames */
static unsigned long tlb_aliased(void *const *pages, unsigned long nr,
				 const uint64_t *from)
{
	unsigned long i, n = 0;

	for (i = 0; i < nr; i++)
		n += (pfn_at(pages[i]) - from[i]) % TLB_ALIAS_PAGES == 0;
	return n;
}

/*
 * Take every free 2 MB block of @node whose block number (frame / 512) has
 * the parity @hold, by faulting THPs until the node has none left, and
 * give the blocks of the other parity back, all at once at the end (given
 * back one by one, the next fault would get them again). The kernel's
 * next 2 MB allocations on @node then come from the blocks given back.
 */
static void hold_node(int node, unsigned int hold, unsigned long *held,
		      unsigned long *freed)
{
	const unsigned long chunk = 64UL << 20;
	char **back = NULL;
	unsigned long nr_back = 0, max_back = 0, off, i;
	bool more = true;

	while (more) {
		char *p = alloc_on(chunk, node, PMD_SZ);

		for (off = 0; off < chunk; off += PMD_SZ) {
			char *b = p + off;

			b[0] = 1;
			if (!is_thp_at(b)) {
				/* the node has no free 2 MB block left */
				munmap(b, chunk - off);
				more = false;
				break;
			}
			if ((pfn_at(b) / PMD_PAGES & 1) == hold) {
				(*held)++;
				continue;
			}
			if (nr_back == max_back) {
				max_back = max_back ? 2 * max_back : 1024;
				back = realloc(back, max_back * sizeof(*back));
				if (!back)
					fatal(EXIT_SYS, "out of memory");
			}
			back[nr_back++] = b;
		}
	}
	for (i = 0; i < nr_back; i++)
		if (munmap(back[i], PMD_SZ))
			fatal(EXIT_SYS, "munmap: %s", strerror(errno));
	*freed += nr_back;
	free(back);
}

/*
 * --hold-placement: hold the even 2 MB blocks of the source node and the
 * odd ones of the destination node until SIGTERM or SIGINT. While held,
 * a 2 MB folio moves between frames an odd multiple of 512 pages apart,
 * which no TLB of 1024 entries or more aliases, and every configuration
 * is measured on placements of the same kind. Run it beside the
 * benchmark; each row's TLB-alias count shows whether it held.
 */
static void hold_placement(void)
{
	unsigned long held[2] = { 0 }, freed[2] = { 0 };

	mthp_select(PMD_SZ);
	hold_node(opt.src, 0, &held[0], &freed[0]);
	hold_node(opt.dst, 1, &held[1], &freed[1]);
	mthp_restore();
	printf("placement held: node %d: %lu even 2 MB blocks held, %lu odd given back; node %d: %lu odd held, %lu even given back\n",
	       opt.src, held[0], freed[0], opt.dst, held[1], freed[1]);
	fflush(stdout);
	for (;;)
		pause();
}

/* ---- one measurement ---- */

/*
 * Watches the first folio of a move: reads it every ~20 us and records the
 * longest time a read took to come back, which is how long the folio was
 * unavailable (unmapped) while it migrated.
 */
struct watch {
	volatile char *addr;
	atomic_bool stop;
	double max_gap;
};

static void *watch_fn(void *arg)
{
	struct watch *w = arg;
	struct timespec nap = { 0, 20000 };
	double prev = now(), t;

	while (!atomic_load(&w->stop)) {
		(void)*w->addr;
		t = now();
		if (t - prev > w->max_gap)
			w->max_gap = t - prev;
		prev = t;
		nanosleep(&nap, NULL);
	}
	return NULL;
}

/*
 * move_pages(2) returned @ret for @nr entries: every one must have moved,
 * the even entries to node @even and the odd ones to node @odd.
 */
static void check_status(long ret, const int *status, unsigned long nr,
			 int even, int odd)
{
	unsigned long i;

	if (ret < 0)
		fatal(EXIT_SYS, "move_pages: %s", strerror(errno));
	if (ret > 0)
		fatal(EXIT_CHECK, "move_pages: %ld pages not moved", ret);
	for (i = 0; i < nr; i++)
		if (status[i] != (i % 2 ? odd : even))
			fatal(EXIT_CHECK, "entry %lu: status %d, expected node %d",
			      i, status[i], i % 2 ? odd : even);
}

static void check_moved(long ret, const int *status, unsigned long nr)
{
	check_status(ret, status, nr, opt.dst, opt.dst);
}

/*
 * After a move: [@p, @p + @len) must be on @node, in folios of @fsize, and
 * hold what fill(@seed) wrote; then it is unmapped.
 */
static void check_unmap(char *p, unsigned long len, int node,
			unsigned long fsize, uint64_t seed, const char *when)
{
	check_node(p, len, node);
	check_folios(p, len, fsize, when);
	verify(p, len, seed);
	munmap(p, len);
}

/*
 * Moves @nr folios of @fsize from src to dst; returns seconds for move_pages.
 * With @first_gap, also how long the first folio was unavailable.
 */
static double measure_move(unsigned long fsize, unsigned long nr, int rep,
			   double *first_gap, struct mm_counters *mc,
			   unsigned long *aliased)
{
	struct mm_counters before;
	struct watch w = { 0 };
	pthread_t watcher;
	unsigned long len = fsize * nr, i;
	uint64_t seed = ((uint64_t)fsize << 20) ^ ((uint64_t)nr << 8) ^ rep;
	void **pages = malloc(nr * sizeof(void *));
	int *nodes = malloc(nr * sizeof(int)), *status = malloc(nr * sizeof(int));
	uint64_t *from = malloc(nr * sizeof(uint64_t));
	char *p;
	double t0, t1;
	long ret;

	if (!pages || !nodes || !status || !from)
		fatal(EXIT_SYS, "out of memory");
	mthp_select(fsize);
	p = alloc_on(len, opt.src, fsize);
	fill(p, len, seed);
	check_folios(p, len, fsize, "before move");
	check_node(p, len, opt.src);
	for (i = 0; i < nr; i++) {
		pages[i] = p + i * fsize;
		nodes[i] = opt.dst;
		status[i] = INT_MIN;
	}
	frames_of(pages, nr, from);
	if (first_gap) {
		w.addr = p;
		if (pthread_create(&watcher, NULL, watch_fn, &w))
			fatal(EXIT_SYS, "pthread_create");
		usleep(2000);
	}
	mm_counters_read(&before);
	t0 = now();
	ret = move_pages(0, nr, pages, nodes, status, MPOL_MF_MOVE);
	t1 = now();
	mm_counters_since(mc, &before);
	if (first_gap) {
		usleep(2000);
		atomic_store(&w.stop, true);
		pthread_join(watcher, NULL);
		*first_gap = w.max_gap;
	}
	check_moved(ret, status, nr);
	*aliased = tlb_aliased(pages, nr, from);
	if (opt.inject_corrupt)
		p[len / 2] ^= 0x5a;
	check_unmap(p, len, opt.dst, fsize, seed, "after move");
	free(pages);
	free(nodes);
	free(status);
	free(from);
	return t1 - t0;
}

static double thread_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		fatal(EXIT_SYS, "getrusage: %s", strerror(errno));
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * Moves @n_small 4 KB folios and @n_large 2 MB folios, the large ones
 * spread evenly through the list, in one move_pages(2) call. Returns its
 * seconds; *@cpu is the CPU time (user + system) of the calling thread in
 * that call, that is what the migration cost the migrating task itself.
 */
static double measure_mix(unsigned long n_small, unsigned long n_large,
			  int rep, double *cpu, struct mm_counters *mc,
			  unsigned long *aliased)
{
	struct mm_counters before;
	unsigned long ls = n_small * PAGE_SZ, ll = n_large * PMD_SZ;
	unsigned long nr = n_small + n_large, i, s = 0, l = 0;
	uint64_t seed = (n_small << 32) ^ (n_large << 8) ^ rep;
	void **pages = malloc(nr * sizeof(void *));
	int *nodes = malloc(nr * sizeof(int)), *status = malloc(nr * sizeof(int));
	uint64_t *from = malloc(nr * sizeof(uint64_t));
	char *big, *small;
	double t0, t1, c0, c1;
	long ret;

	if (!pages || !nodes || !status || !from || !n_small || !n_large)
		fatal(EXIT_SYS, "measure_mix: bad workload or out of memory");
	/* Pages are allocated at first touch: under each one's THP setting */
	mthp_select(PMD_SZ);
	big = alloc_on(ll, opt.src, PMD_SZ);
	fill(big, ll, seed);
	mthp_select(PAGE_SZ);
	small = alloc_on(ls, opt.src, PAGE_SZ);
	fill(small, ls, seed + 1);
	check_folios(big, ll, PMD_SZ, "before move");
	check_folios(small, ls, PAGE_SZ, "before move");
	for (i = 0; i < nr; i++) {
		/* large folio l at the middle of the l-th of n_large segments */
		if (l < n_large && i == (2 * l + 1) * nr / (2 * n_large))
			pages[i] = big + l++ * PMD_SZ;
		else
			pages[i] = small + s++ * PAGE_SZ;
		nodes[i] = opt.dst;
		status[i] = INT_MIN;
	}
	frames_of(pages, nr, from);
	mm_counters_read(&before);
	c0 = thread_cpu();
	t0 = now();
	ret = move_pages(0, nr, pages, nodes, status, MPOL_MF_MOVE);
	t1 = now();
	c1 = thread_cpu();
	mm_counters_since(mc, &before);
	check_moved(ret, status, nr);
	*aliased = tlb_aliased(pages, nr, from);
	check_unmap(big, ll, opt.dst, PMD_SZ, seed, "after move");
	check_unmap(small, ls, opt.dst, PAGE_SZ, seed + 1, "after move");
	free(pages);
	free(nodes);
	free(status);
	free(from);
	*cpu = c1 - c0;
	return t1 - t0;
}

/* ---- copy limit: memcpy SRC -> DST ---- */

struct cp_job {
	char *dst, *src;
	unsigned long len;
	pthread_barrier_t *bar;
};

static void *cp_thread(void *arg)
{
	struct cp_job *j = arg;

	pthread_barrier_wait(j->bar);
	memcpy(j->dst, j->src, j->len);
	/* The copy is used: the compiler may not drop it. */
	__asm__ volatile("" : : "r"(j->dst) : "memory");
	pthread_barrier_wait(j->bar);
	return NULL;
}

static double measure_copy(int threads, unsigned long len)
{
	pthread_t tid[64];
	struct cp_job job[64];
	pthread_barrier_t bar;
	unsigned long chunk = len / threads / PAGE_SZ * PAGE_SZ;
	char *s = alloc_on(len, opt.src, PAGE_SZ), *d = alloc_on(len, opt.dst, PAGE_SZ);
	double t0, t1;
	int i;

	fill(s, len, 7);
	memset(d, 1, len);	/* fault in: measure the copy, not page faults */
	pthread_barrier_init(&bar, NULL, threads + 1);
	for (i = 0; i < threads; i++) {
		job[i] = (struct cp_job){ d + i * chunk, s + i * chunk,
			i == threads - 1 ? len - i * chunk : chunk, &bar };
		if (pthread_create(&tid[i], NULL, cp_thread, &job[i]))
			fatal(EXIT_SYS, "pthread_create");
	}
	pthread_barrier_wait(&bar);
	t0 = now();
	pthread_barrier_wait(&bar);
	t1 = now();
	for (i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&bar);
	if (memcmp(s, d, len))
		fatal(EXIT_CHECK, "copy limit: memcpy result differs");
	munmap(s, len);
	munmap(d, len);
	return t1 - t0;
}

/* ---- a full destination node (table xfull) ---- */

/*
 * DST as its allocator sees it, from /proc/zoneinfo after
 * /proc/sys/vm/stat_refresh has folded the per-CPU counter deltas in:
 * @room is the sum over DST's zones of free pages above the low watermark
 * (boost included) and above the reserve each zone keeps from movable
 * allocations (its lowmem protection). An allocation on DST takes the fast
 * path, with no kswapd wake-up, while its zone stays above low. @guard is
 * the room a full DST is left with: the per-CPU page list high mark of
 * the calling CPU (a list refill takes up to that from the free lists),
 * plus the two 2 MB blocks a refill of the THP list takes, plus every
 * CPU's vmstat threshold (the error of the free count), so that the
 * promotion of the two migrations, which refills those lists from the
 * frames the demotion freed, does not wake kswapd. The high mark must
 * hold still: with auto-tuned lists (vm.percpu_pagelist_high_fraction=0)
 * it moves with every refill and flush, and the fill may not converge.
 * @blocks: DST's free 2 MB blocks, from /proc/buddyinfo.
 */
struct dst_state {
	long room, guard, batch;
	unsigned long blocks;
};

#define ZONES_MAX	8

/* A number from /proc/sys/@path; -1 if it cannot be read */
static long sysctl_read(const char *path)
{
	char file[128];
	long v = -1;
	FILE *f;

	snprintf(file, sizeof(file), "/proc/sys/%s", path);
	f = fopen(file, "r");
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static void dst_read(struct dst_state *d)
{
	struct {
		char name[32];
		long free, low, prot[ZONES_MAX], pcp_high, pcp_max, thresh;
	} z[ZONES_MAX];
	char line[512], name[32];
	long v;
	int node, nz = 0, movable = ZONES_MAX - 1, cpu = -1, i, n;
	bool mine = false;
	FILE *f;

	f = fopen("/proc/sys/vm/stat_refresh", "w");
	if (f) {
		fputs("1\n", f);
		fclose(f);
	}
	memset(d, 0, sizeof(*d));
	memset(z, 0, sizeof(z));
	f = fopen("/proc/zoneinfo", "r");
	if (!f)
		fatal(EXIT_SYS, "/proc/zoneinfo: %s", strerror(errno));
	/* DST's zones, in index order; z[nz - 1] is the one being read */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %31s", &node, name) == 2) {
			mine = node == opt.dst && nz < ZONES_MAX;
			if (mine)
				snprintf(z[nz++].name, sizeof(z[0].name), "%s", name);
			cpu = -1;
			continue;
		}
		if (!mine)
			continue;
		if (sscanf(line, " pages free %ld", &v) == 1) {
			z[nz - 1].free = v;
		} else if (sscanf(line, " low %ld", &v) == 1) {
			z[nz - 1].low = v;
		} else if (!strncmp(line + strspn(line, " "), "protection: (", 13)) {
			char *p = strchr(line, '(') + 1, *end;

			for (n = 0; n < ZONES_MAX; n++, p = end + 1) {
				z[nz - 1].prot[n] = strtol(p, &end, 10);
				if (end == p || *end != ',')
					break;
			}
		} else if (sscanf(line, " cpu: %d", &cpu) == 1) {
			continue;
		} else if (sscanf(line, " high: %ld", &v) == 1) {
			if (cpu == opt.cpu)
				z[nz - 1].pcp_high = v;
			if (v > z[nz - 1].pcp_max)
				z[nz - 1].pcp_max = v;
		} else if (sscanf(line, " batch: %ld", &v) == 1) {
			if (v > d->batch)
				d->batch = v;
		} else if (sscanf(line, " vm stats threshold: %ld", &v) == 1) {
			if (v > z[nz - 1].thresh)
				z[nz - 1].thresh = v;
		}
	}
	fclose(f);
	/* A movable allocation must leave each zone its ZONE_MOVABLE reserve */
	for (i = 0; i < nz; i++)
		if (!strcmp(z[i].name, "Movable"))
			movable = i;
	for (i = 0; i < nz; i++) {
		v = z[i].free - z[i].low - z[i].prot[movable];
		d->room += v > 0 ? v : 0;
		if (!z[i].pcp_max)	/* an empty zone lists no pagesets */
			continue;
		d->guard += z[i].pcp_high ?: z[i].pcp_max;
		d->guard += 2 * (PMD_SZ / PAGE_SZ);
		d->guard += z[i].thresh * sysconf(_SC_NPROCESSORS_ONLN);
	}
	if (opt.fill_guard >= 0)
		d->guard = opt.fill_guard;

	f = fopen("/proc/buddyinfo", "r");
	if (!f)
		fatal(EXIT_SYS, "/proc/buddyinfo: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long cnt[16];
		int off;

		if (sscanf(line, "Node %d, zone %31s%n", &node, name, &off) != 2 ||
		    node != opt.dst)
			continue;
		for (n = 0; n < 16 && sscanf(line + off, "%lu%n", &cnt[n], &i) == 1; n++)
			off += i;
		/* an order-k block holds 2^(k-9) blocks of 2 MB */
		for (i = 9; i < n; i++)
			d->blocks += cnt[i] << (i - 9);
	}
	fclose(f);
}

/*
 * The filler: mlocked 4 KB pages bound to DST, in mappings that grow and
 * shrink at their end, rebuilt for each measurement of table xfull.
 */
static struct {
	char *chunk[4096];
	unsigned long len[4096];
	int nr;
} filler;

static void filler_grow(unsigned long pages)
{
	unsigned long len = pages * PAGE_SZ;
	char *p;

	if (filler.nr == 4096)
		fatal(EXIT_SYS, "filler: too many chunks");
	p = alloc_on(len, opt.dst, PAGE_SZ);
	/* mlock faults every page in and keeps it from reclaim */
	if (mlock(p, len))
		fatal(EXIT_SYS, "mlock %lu bytes on node %d: %s", len, opt.dst,
		      strerror(errno));
	filler.chunk[filler.nr] = p;
	filler.len[filler.nr++] = len;
}

static void filler_shrink(unsigned long pages)
{
	while (pages && filler.nr) {
		unsigned long *len = &filler.len[filler.nr - 1];
		unsigned long cut = pages * PAGE_SZ < *len ? pages * PAGE_SZ : *len;

		munmap(filler.chunk[filler.nr - 1] + *len - cut, cut);
		*len -= cut;
		pages -= cut / PAGE_SZ;
		if (!*len)
			filler.nr--;
	}
}

static void filler_release(void)
{
	while (filler.nr)
		filler_shrink(filler.len[filler.nr - 1] / PAGE_SZ);
}

/*
 * Grow or shrink the filler until DST's room is within [guard, guard +
 * tolerance]; the tolerance covers one per-CPU list flush (freed pages
 * reach the free lists in batches). Leaves the final state in @d.
 */
static void fill_dst(struct dst_state *d)
{
	long tol;
	int round;

	for (round = 0; round < 64; round++) {
		dst_read(d);
		tol = 4 * (d->batch ?: 64);
		if (d->room > d->guard + tol)
			filler_grow(d->room - d->guard - tol / 2);
		else if (d->room < d->guard)
			filler_shrink(d->guard - d->room + tol / 2);
		else
			return;
	}
	fatal(EXIT_SYS, "node %d: room %ld pages, cannot bring it to %ld (+%ld)%s",
	      opt.dst, d->room, d->guard, tol,
	      sysctl_read("vm/percpu_pagelist_high_fraction") ? "" :
	      "; per-CPU list auto-tuning moves the guard: set vm.percpu_pagelist_high_fraction (bench/engines.sh does)");
}

/* ---- output: one line and one CSV row per repetition ---- */

#define CSV_HEADER "label,table,folio_size_B,folios,small_folios,large_folios," \
	"batch_folios,threads,moved_B,rep,wall_s,cpu_s,first_unavailable_s," \
	"folio_splits,pgmigrate_fail,pages_migrated,free_2M_blocks,hog_iterations," \
	"tlb_alias_folios,dst_room_pages,pgscan_kswapd,pgscan_direct,allocstall," \
	"compact_stall"

/* One repetition; a field that does not apply is 0 (a time: < 0). */
struct row {
	const char *table;
	unsigned long folio_size, folios, small, large, batch;
	int threads;
	unsigned long bytes;
	int rep;
	double wall, cpu, first;
	const struct mm_counters *mc;
	long aliased;		/* folios moved between aliasing frames; < 0: n/a */
	const struct dst_state *dst;	/* table xfull: DST before the call */
};

static void csv_ulong(unsigned long v)
{
	if (v)
		fprintf(csv, ",%lu", v);
	else
		fputc(',', csv);
}

static void csv_secs(double v)
{
	if (v >= 0)
		fprintf(csv, ",%.6f", v);
	else
		fputc(',', csv);
}

static void emit(const struct row *r)
{
	printf("%-5s size %lu x %lu (4K %lu, 2M %lu) batch %lu threads %d rep %d: %.6f s, %.3f GB/s",
	       r->table, r->folio_size, r->folios, r->small, r->large, r->batch,
	       r->threads, opt.first_rep + r->rep, r->wall, r->bytes / r->wall / 1e9);
	if (r->cpu >= 0)
		printf(", cpu %.6f s", r->cpu);
	if (r->first >= 0)
		printf(", first folio unavailable %.3f ms", r->first * 1e3);
	if (r->mc)
		printf(", splits %lu, pgmigrate_fail %lu", r->mc->splits, r->mc->pgmigrate_fail);
	if (r->aliased >= 0)
		printf(", TLB-alias folios %ld", r->aliased);
	if (r->dst)
		printf(", DST room %ld pages (guard %ld), %lu free 2M blocks",
		       r->dst->room, r->dst->guard, r->dst->blocks);
	if (r->mc && r->dst)
		printf(", pgscan_kswapd %lu, pgscan_direct %lu, allocstall %lu, compact_stall %lu",
		       r->mc->pgscan_kswapd, r->mc->pgscan_direct,
		       r->mc->allocstall, r->mc->compact_stall);
	printf("\n");
	fflush(stdout);
	if (!csv)
		return;
	fprintf(csv, "%s,%s", opt.label, r->table);
	csv_ulong(r->folio_size);
	csv_ulong(r->folios);
	csv_ulong(r->small);
	csv_ulong(r->large);
	csv_ulong(r->batch);
	csv_ulong(r->threads);
	csv_ulong(r->bytes);
	fprintf(csv, ",%d", opt.first_rep + r->rep);
	csv_secs(r->wall);
	csv_secs(r->cpu);
	csv_secs(r->first);
	/* the last three columns are the compaction rows' (bench/dma.sh) */
	if (r->mc)
		fprintf(csv, ",%lu,%lu,", r->mc->splits, r->mc->pgmigrate_fail);
	else
		fprintf(csv, ",,,");
	if (r->dst)
		fprintf(csv, ",%lu,", r->dst->blocks);
	else
		fprintf(csv, ",,");
	if (r->aliased >= 0)
		fprintf(csv, ",%ld", r->aliased);
	else
		fputc(',', csv);
	if (r->dst)
		fprintf(csv, ",%ld", r->dst->room);
	else
		fputc(',', csv);
	if (r->mc && r->dst)
		fprintf(csv, ",%lu,%lu,%lu,%lu\n", r->mc->pgscan_kswapd,
			r->mc->pgscan_direct, r->mc->allocstall,
			r->mc->compact_stall);
	else
		fprintf(csv, ",,,,\n");
	fflush(csv);
}

static void table_a(void)
{
	struct mm_counters mc;
	unsigned long al;
	int s, r;

	for (s = 0; s < opt.nr_sizes; s++) {
		unsigned long fsize = opt.sizes[s], nr = opt.total / fsize;

		for (r = 0; r < opt.reps; r++) {
			double t = measure_move(fsize, nr, r, NULL, &mc, &al);

			emit(&(struct row){ .table = "a", .folio_size = fsize,
				.folios = nr, .bytes = nr * fsize, .rep = r,
				.wall = t, .cpu = -1, .first = -1, .mc = &mc,
				.aliased = al });
		}
	}
}

/*
 * Table (b): one repetition is as many calls of @nr folios as move
 * --b-min bytes (at least one), timed and counted together, so that a
 * point of one small call is not one host hiccup.
 */
static void table_b(void)
{
	struct mm_counters mc, sum;
	unsigned long al, alsum, calls, k;
	int c, r;

	for (c = 0; c < opt.nr_counts; c++) {
		unsigned long nr = opt.counts[c];

		calls = opt.b_min / (nr * PMD_SZ) ?: 1;
		for (r = 0; r < opt.reps; r++) {
			double t = 0;

			memset(&sum, 0, sizeof(sum));
			for (k = 0, alsum = 0; k < calls; k++) {
				t += measure_move(PMD_SZ, nr, r * calls + k,
						  NULL, &mc, &al);
				sum.splits += mc.splits;
				sum.pgmigrate_fail += mc.pgmigrate_fail;
				alsum += al;
			}
			emit(&(struct row){ .table = "b", .folio_size = PMD_SZ,
				.folios = nr, .bytes = calls * nr * PMD_SZ,
				.rep = r, .wall = t, .cpu = -1, .first = -1,
				.mc = &sum, .aliased = alsum });
		}
	}
}

/* The mixed workloads of DSA-2LM, in one move_pages(2) call each */
static void table_w(void)
{
	static const struct { unsigned long small, large; } w[] = {
		{ 1023, 1 },	/* A */
		{ 1000, 24 },	/* B */
	};
	struct mm_counters mc;
	unsigned long al;
	unsigned int k;
	int r;

	for (k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
		unsigned long bytes = w[k].small * PAGE_SZ + w[k].large * PMD_SZ;

		for (r = 0; r < opt.reps; r++) {
			double c, t = measure_mix(w[k].small, w[k].large, r, &c,
						  &mc, &al);

			emit(&(struct row){ .table = "w",
				.folios = w[k].small + w[k].large,
				.small = w[k].small, .large = w[k].large,
				.bytes = bytes, .rep = r, .wall = t, .cpu = c,
				.first = -1, .mc = &mc, .aliased = al });
		}
	}
}

/*
 * --cpu: tables x and xfull make their calls from that CPU only, and give
 * the calling thread its old affinity back when they end (the threads of
 * the other tables must not share one CPU).
 */
static void pin_calls(bool on)
{
	static cpu_set_t saved;
	cpu_set_t set;

	if (opt.cpu < 0)
		return;
	if (on) {
		if (sched_getaffinity(0, sizeof(saved), &saved))
			fatal(EXIT_SYS, "sched_getaffinity: %s", strerror(errno));
		CPU_ZERO(&set);
		CPU_SET(opt.cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			fatal(EXIT_USAGE, "--cpu %d: %s", opt.cpu, strerror(errno));
	} else if (sched_setaffinity(0, sizeof(saved), &saved)) {
		fatal(EXIT_SYS, "sched_setaffinity: %s", strerror(errno));
	}
}

/*
 * Exchange against two migrations: @nr folios A of @fsize on SRC and @nr
 * folios B on DST trade nodes, either by one move_pages(2) call with
 * MPOL_MF_EXCHANGE (pairs A_i, B_i) or, with @two_moves, by moving every
 * B to SRC and then every A to DST (what tiering does when DST, the fast
 * node, is full: demote first, then promote). With @dst, DST is filled
 * (fill_dst()) once both sides are in place, from an empty filler each
 * time, and @dst is its state just before the timed call. Returns
 * seconds; *@cpu the calling thread's CPU time. Both ends are checked:
 * nodes, folio sizes, data.
 */
static double measure_exchange(unsigned long fsize, unsigned long nr,
			       int rep, bool two_moves, double *cpu,
			       struct mm_counters *mc, struct dst_state *dst)
{
	struct mm_counters before;
	unsigned long len = fsize * nr, i;
	uint64_t seed = ((uint64_t)fsize << 20) ^ ((uint64_t)nr << 8) ^ rep;
	void **pages = malloc(2 * nr * sizeof(void *));
	int *nodes = malloc(2 * nr * sizeof(int));
	int *status = malloc(2 * nr * sizeof(int));
	double t0, t1, c0, c1;
	char *a, *b;
	long ret;

	if (!pages || !nodes || !status)
		fatal(EXIT_SYS, "out of memory");
	/*
	 * A filler kept from the last call would leave DST only the 4 KB
	 * holes that call's folios left: B could not get its folio size.
	 */
	if (dst)
		filler_release();
	mthp_select(fsize);
	a = alloc_on(len, opt.src, fsize);
	b = alloc_on(len, opt.dst, fsize);
	fill(a, len, seed);
	fill(b, len, seed + 1);
	check_folios(a, len, fsize, "before exchange");
	check_folios(b, len, fsize, "before exchange");
	check_node(a, len, opt.src);
	check_node(b, len, opt.dst);
	for (i = 0; i < 2 * nr; i++)
		status[i] = INT_MIN;
	if (dst)
		fill_dst(dst);
	mm_counters_read(&before);
	c0 = thread_cpu();
	t0 = now();
	if (!two_moves) {
		for (i = 0; i < nr; i++) {
			pages[2 * i] = a + i * fsize;
			pages[2 * i + 1] = b + i * fsize;
		}
		ret = move_pages(0, 2 * nr, pages, NULL, status,
				 MPOL_MF_MOVE | MPOL_MF_EXCHANGE);
	} else {
		for (i = 0; i < nr; i++) {
			pages[i] = b + i * fsize;
			nodes[i] = opt.src;
			pages[nr + i] = a + i * fsize;
			nodes[nr + i] = opt.dst;
		}
		ret = move_pages(0, nr, pages, nodes, status, MPOL_MF_MOVE);
		if (!ret)
			ret = move_pages(0, nr, pages + nr, nodes + nr,
					 status + nr, MPOL_MF_MOVE);
	}
	t1 = now();
	c1 = thread_cpu();
	mm_counters_since(mc, &before);
	if (!two_moves) {
		check_status(ret, status, 2 * nr, opt.dst, opt.src);
	} else {
		/* @ret is the second call's only if the first moved all */
		check_status(ret, status, nr, opt.src, opt.src);
		check_moved(ret, status + nr, nr);
	}
	check_unmap(a, len, opt.dst, fsize, seed, "after exchange");
	check_unmap(b, len, opt.src, fsize, seed + 1, "after exchange");
	free(pages);
	free(nodes);
	free(status);
	*cpu = c1 - c0;
	return t1 - t0;
}

/*
 * Table x: per folio size, --total of folios on each node traded by
 * exchange ("x") and by two migrations ("x2m"), interleaved repetition by
 * repetition; the moved bytes are both sides'. With @full, table xfull:
 * the same with DST full before each call ("xf", "x2mf"), the two
 * alternating which goes first from one repetition to the next. Pinned
 * with --cpu, every call frees and allocates through that CPU's per-CPU
 * lists, as the guard of a full DST assumes.
 */
static void table_exchange(bool full)
{
	struct mm_counters mc;
	struct dst_state d;
	int s, r, i;

	/* An even count with no pages: 0 here, EINVAL without the flag */
	if (move_pages(0, 0, NULL, NULL, NULL, MPOL_MF_MOVE | MPOL_MF_EXCHANGE)) {
		printf("table %s: skipped (move_pages(2) MPOL_MF_EXCHANGE: %s; not a memaccel kernel)\n",
		       full ? "xfull" : "x", strerror(errno));
		return;
	}
	pin_calls(true);
	if (full) {
		dst_read(&d);
		printf("xfull: node %d has %ld pages above its low watermarks and %lu free 2M blocks; a full node keeps %ld (the guard)\n",
		       opt.dst, d.room, d.blocks, d.guard);
	}
	for (s = 0; s < opt.nr_sizes; s++) {
		unsigned long fsize = opt.sizes[s], nr = opt.total / fsize;

		for (r = 0; r < opt.reps; r++) {
			for (i = 0; i < 2; i++) {
				bool two = full ? i ^ ((opt.first_rep + r) & 1) : i;
				double c, t = measure_exchange(fsize, nr, r, two, &c,
							       &mc, full ? &d : NULL);

				emit(&(struct row){
					.table = full ? (two ? "x2mf" : "xf") :
							(two ? "x2m" : "x"),
					.folio_size = fsize, .folios = nr,
					.bytes = 2 * nr * fsize, .rep = r,
					.wall = t, .cpu = c, .first = -1,
					.mc = &mc, .aliased = -1,
					.dst = full ? &d : NULL });
			}
		}
	}
	filler_release();
	pin_calls(false);
}

#define BATCH_MAX_PATH "/sys/kernel/mm/migrate_offload/batch_max"
#define FIRST_NR	32

/*
 * First-folio latency: 32 2 MB folios moved with batch_max set to 1, 2, 4,
 * ... folios per batch; how long the first folio of the first batch is
 * unavailable, and the time of the whole move.
 */
static void table_first(void)
{
	struct mm_counters mc;
	unsigned long al;
	char saved[32] = "", val[32];
	int b, r, fd;
	ssize_t n;

	fd = open(BATCH_MAX_PATH, O_RDONLY);
	if (fd < 0) {
		printf("first-folio latency: skipped (%s: %s; not a memaccel kernel)\n",
		       BATCH_MAX_PATH, strerror(errno));
		return;
	}
	n = read(fd, saved, sizeof(saved) - 1);
	close(fd);
	if (n <= 0)
		fatal(EXIT_SYS, "read %s", BATCH_MAX_PATH);
	saved[n] = '\0';
	for (b = 0; b < opt.nr_batches; b++) {
		snprintf(val, sizeof(val), "%lu", opt.batches[b] * PMD_PAGES);
		write_str(BATCH_MAX_PATH, val);
		for (r = 0; r < opt.reps; r++) {
			double g, t = measure_move(PMD_SZ, FIRST_NR, r, &g, &mc, &al);

			emit(&(struct row){ .table = "first", .folio_size = PMD_SZ,
				.folios = FIRST_NR, .batch = opt.batches[b],
				.bytes = FIRST_NR * PMD_SZ, .rep = r, .wall = t,
				.cpu = -1, .first = g, .mc = &mc, .aliased = al });
		}
	}
	write_str(BATCH_MAX_PATH, saved);
}

static void table_limit(void)
{
	int tlist[2] = { 1, opt.threads }, i, r, n = opt.threads > 1 ? 2 : 1;

	for (i = 0; i < n; i++) {
		for (r = 0; r < opt.reps; r++) {
			double t = measure_copy(tlist[i], opt.total);

			emit(&(struct row){ .table = "limit", .threads = tlist[i],
				.bytes = opt.total, .rep = r, .wall = t,
				.cpu = -1, .first = -1, .aliased = -1 });
		}
	}
}

/* ---- options ---- */

static int parse_list(const char *s, unsigned long *out, bool sizes)
{
	char *dup = strdup(s), *tok, *save = NULL;
	int n = 0;

	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_LIST)
			fatal(EXIT_USAGE, "list too long: %s", s);
		out[n] = sizes ? parse_size(tok) : strtoul(tok, NULL, 10);
		if (!out[n])
			fatal(EXIT_USAGE, "bad list element '%s'", tok);
		if (sizes && (out[n] < PAGE_SZ || out[n] > PMD_SZ ||
			      (out[n] & (out[n] - 1))))
			fatal(EXIT_USAGE, "folio size %s: must be a power of two in 4K..2M", tok);
		n++;
	}
	free(dup);
	return n;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: migbench [options]\n"
		"  --sizes LIST     folio sizes for table (a) [4K,16K,64K,256K,1M,2M]\n"
		"  --total SIZE     bytes per move in (a) and the copy limit [64M]\n"
		"  --counts LIST    2 MB folio counts for table (b) [1,2,4,8,16,32,64]\n"
		"  --b-min SIZE     least data per repetition of (b): calls of COUNT\n"
		"                   folios are repeated up to it [32M]\n"
		"  --batches LIST   2 MB folios per batch for the first-folio table [1,2,4,8,16,32]\n"
		"  --reps N         repetitions per point [5]\n"
		"  --first-rep N    number the repetitions from N (a caller that\n"
		"                   interleaves single repetitions of several runs) [0]\n"
		"  --src N --dst N  source and destination node [0, 1]\n"
		"  --threads N      threads for the multi-threaded copy limit [online CPUs]\n"
		"  --tables LIST    any of a,b,limit,first,w,x,xfull [a,b,limit,first]; x:\n"
		"                   exchange (MPOL_MF_EXCHANGE) against two migrations, per\n"
		"                   --sizes; xfull: the same with --dst full\n"
		"  --cpu N          tables x, xfull: make the calls from CPU N only [any]\n"
		"  --fill-guard N   xfull: pages a full --dst keeps above its low watermark\n"
		"                   [that CPU's per-CPU list high mark + two 2M blocks + CPUs x\n"
		"                   vmstat threshold, per zone]\n"
		"  --label NAME     row label in the CSV [this kernel's release]\n"
		"  --csv FILE       append one row per repetition to FILE (scripts/results.py\n"
		"                   makes tables and plots of it)\n"
		"  --csv-header     print the CSV header line and exit\n"
		"  --hold-placement hold the 2 MB blocks of --src and --dst where a folio\n"
		"                   would move between frames that alias in QEMU TCG's TLB,\n"
		"                   until SIGTERM; run it beside the benchmark\n"
		"test-only:\n"
		"  --inject-corrupt flip a byte after each move (verification must fail)\n"
		"  --no-mthp-setup  leave THP sysfs alone (folio size check must fail)\n");
}

static void parse_tables(const char *s)
{
	char *dup = strdup(s), *tok, *save = NULL;

	opt.do_a = opt.do_b = opt.do_limit = opt.do_first = opt.do_w = false;
	opt.do_x = opt.do_xfull = false;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "a"))
			opt.do_a = true;
		else if (!strcmp(tok, "b"))
			opt.do_b = true;
		else if (!strcmp(tok, "limit"))
			opt.do_limit = true;
		else if (!strcmp(tok, "first"))
			opt.do_first = true;
		else if (!strcmp(tok, "w"))
			opt.do_w = true;
		else if (!strcmp(tok, "x"))
			opt.do_x = true;
		else if (!strcmp(tok, "xfull"))
			opt.do_xfull = true;
		else
			fatal(EXIT_USAGE, "--tables: unknown table '%s' (a, b, limit, first, w, x, xfull)", tok);
	}
	free(dup);
	if (!opt.do_a && !opt.do_b && !opt.do_limit && !opt.do_first && !opt.do_w &&
	    !opt.do_x && !opt.do_xfull)
		fatal(EXIT_USAGE, "--tables: nothing selected in '%s'", s);
}

/* An integer option's value: all of @v, or a usage error */
static long parse_num(const char *name, const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < INT_MIN || n > INT_MAX)
		fatal(EXIT_USAGE, "%s: '%s' is not a number", name, v);
	return n;
}

int main(int argc, char **argv)
{
	static char release[128];
	char on_cpu[16];
	struct utsname u;
	int i;

	parse_list("4K,16K,64K,256K,1M,2M", opt.sizes, true);
	opt.nr_sizes = 6;
	opt.nr_counts = parse_list("1,2,4,8,16,32,64", opt.counts, false);
	opt.nr_batches = parse_list("1,2,4,8,16,32", opt.batches, false);
	opt.total = 64UL << 20;
	opt.b_min = 32UL << 20;
	opt.reps = 5;
	opt.src = 0;
	opt.dst = 1;
	opt.threads = sysconf(_SC_NPROCESSORS_ONLN);
	opt.do_a = opt.do_b = opt.do_limit = opt.do_first = true;
	opt.cpu = -1;
	opt.fill_guard = -1;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool needs = true;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--csv-header")) {
			puts(CSV_HEADER);
			return 0;
		} else if (!strcmp(a, "--inject-corrupt")) {
			opt.inject_corrupt = true;
			needs = false;
		} else if (!strcmp(a, "--hold-placement")) {
			opt.hold_placement = true;
			needs = false;
		} else if (!strcmp(a, "--no-mthp-setup")) {
			mm_no_mthp_setup = true;
			needs = false;
		} else if (!v) {
			fatal(EXIT_USAGE, "%s: missing value or unknown option", a);
		} else if (!strcmp(a, "--sizes")) {
			opt.nr_sizes = parse_list(v, opt.sizes, true);
		} else if (!strcmp(a, "--counts")) {
			opt.nr_counts = parse_list(v, opt.counts, false);
		} else if (!strcmp(a, "--batches")) {
			opt.nr_batches = parse_list(v, opt.batches, false);
		} else if (!strcmp(a, "--b-min")) {
			opt.b_min = parse_size(v);
		} else if (!strcmp(a, "--total")) {
			opt.total = parse_size(v);
		} else if (!strcmp(a, "--reps")) {
			opt.reps = parse_num(a, v);
		} else if (!strcmp(a, "--first-rep")) {
			opt.first_rep = parse_num(a, v);
		} else if (!strcmp(a, "--src")) {
			opt.src = parse_num(a, v);
		} else if (!strcmp(a, "--dst")) {
			opt.dst = parse_num(a, v);
		} else if (!strcmp(a, "--threads")) {
			opt.threads = parse_num(a, v);
		} else if (!strcmp(a, "--label")) {
			opt.label = v;
		} else if (!strcmp(a, "--csv")) {
			opt.csv_path = v;
		} else if (!strcmp(a, "--tables")) {
			parse_tables(v);
		} else if (!strcmp(a, "--cpu")) {
			opt.cpu = parse_num(a, v);
			if (opt.cpu < 0)
				fatal(EXIT_USAGE, "--cpu must be a CPU number");
		} else if (!strcmp(a, "--fill-guard")) {
			opt.fill_guard = parse_num(a, v);
			if (opt.fill_guard < 0)
				fatal(EXIT_USAGE, "--fill-guard must be >= 0 pages");
		} else {
			fatal(EXIT_USAGE, "unknown option %s", a);
		}
		if (needs)
			i++;
	}
	if (opt.reps < 1 || opt.first_rep < 0 || opt.threads < 1 || opt.threads > 64)
		fatal(EXIT_USAGE, "--reps must be >= 1, --first-rep >= 0 and --threads in 1..64");
	if (opt.src < 0 || opt.dst < 0 || opt.src > 63 || opt.dst > 63 || opt.src == opt.dst)
		fatal(EXIT_USAGE, "--src and --dst must be two different nodes");
	if (opt.total < PMD_SZ || opt.total % PMD_SZ)
		fatal(EXIT_USAGE, "--total must be a multiple of 2M");
	uname(&u);
	if (!opt.label) {
		snprintf(release, sizeof(release), "%s", u.release);
		opt.label = release;
	}
	if (strchr(opt.label, ',') || strchr(opt.label, '|'))
		fatal(EXIT_USAGE, "--label must not contain ',' or '|'");
	if (geteuid())
		fatal(EXIT_USAGE, "needs root (reads /proc/kpageflags, sets mTHP sysfs)");
	mm_open_proc();
	if (opt.csv_path) {
		bool fresh = access(opt.csv_path, F_OK) != 0;

		csv = fopen(opt.csv_path, "a");
		if (!csv)
			fatal(EXIT_SYS, "%s: %s", opt.csv_path, strerror(errno));
		if (fresh)
			fprintf(csv, CSV_HEADER "\n");
	}
	/* Check --cpu now; tables x and xfull pin themselves (pin_calls()) */
	pin_calls(true);
	pin_calls(false);
	mthp_save();
	if (opt.hold_placement)
		hold_placement();

	snprintf(on_cpu, sizeof(on_cpu), opt.cpu >= 0 ? "%d" : "any", opt.cpu);
	printf("## migbench: node %d -> node %d, kernel %s, %ld CPUs, %d reps, label %s, on CPU %s\n",
	       opt.src, opt.dst, u.release, sysconf(_SC_NPROCESSORS_ONLN), opt.reps,
	       opt.label, on_cpu);
	printf("command:");
	for (i = 0; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	if (opt.do_limit)
		table_limit();
	if (opt.do_a)
		table_a();
	if (opt.do_b)
		table_b();
	if (opt.do_first)
		table_first();
	if (opt.do_w)
		table_w();
	if (opt.do_x)
		table_exchange(false);
	if (opt.do_xfull)
		table_exchange(true);
	printf("migbench: all moves verified (folio sizes, placement, data)\n");
	return 0;
}

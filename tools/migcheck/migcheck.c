// SPDX-License-Identifier: GPL-2.0
/*
 * migcheck - data integrity of page migration under concurrent access.
 *
 * Default mode: allocate folios of one size (--size) or of every size
 * interleaved (--mixed) on node SRC, fill them with a known pattern, start
 * writer and reader threads, and move the folios SRC -> DST -> SRC ... with
 * move_pages(2) --moves times. Writer w owns 8-byte slot w at the start of
 * every page and keeps writing increasing values to it, before, during and
 * after the moves; readers check the pattern in the rest of the page the
 * whole time. At the end every slot must hold the last value its writer
 * wrote, and every other byte the pattern. Without threads, every folio
 * must also have reached its node at each move (--strict-moves).
 *
 * --exchange: the second half of each size's folios starts on DST, and
 * each "move" is one move_pages(2) call with MPOL_MF_EXCHANGE that trades
 * folio i of the first half with folio i of the second (pairs of every
 * size interleaved in the call), so that every folio changes node at every
 * exchange. A pair not exchanged because it stayed busy (-EBUSY) is left
 * where it was and counted; with --strict-moves, or any other errno, it is
 * a failed check, and so is a run in which no pair was exchanged. Every
 * folio must be on the node its pair's results say, after each call with
 * --strict-moves, and always after the last one. With
 * --settle MS every page gets new contents after the last move and the
 * check comes MS milliseconds later, so that a late write of old data (a
 * DMA engine completing after its timeout) into a page in use is caught.
 * Folio sizes are checked before the moves. The large folios split
 * system-wide during each move (mTHP stats/split) and the pages that
 * failed to migrate (pgmigrate_fail) are reported. A split during the
 * first move, where every folio is moved for the first time and memory is
 * ample, is a failed check unless --allow-splits. Later moves are only
 * reported: 6.12.117, vanilla and patched alike, splits every mTHP folio
 * (order 2..8) that is itself the product of a migration when it migrates
 * again (docs/testing.md).
 *
 * --await NODE: nothing is moved by migcheck. Once the folios are filled
 * on SRC their memory policy is reset to the default, and migcheck waits
 * (at most --timeout seconds) while its writers and readers run for
 * --await-pct percent of the pages to be on NODE: for the kernel's own
 * migrations, such as NUMA balancing's promotion of the pages its threads
 * touch from NODE's CPUs (run migcheck bound to them). Not reaching it is
 * a failed check, reported after the data check; the time it took is
 * printed. --cold BYTES adds a region of base pages filled on NODE with
 * its policy reset too, that nothing touches after the fill and that is
 * checked at the end: partners for the kernel to exchange the hot folios
 * with when NODE is full. --cold-touch MS makes that region warm instead:
 * a thread reads a word of each of its pages every MS milliseconds, and
 * the fewest of its pages seen on NODE during the wait is printed ("cold
 * region: fewest F of N pages on node X"). --ready FILE is created once the folios are
 * filled and their policy reset, before the wait. --until FILE ends the
 * wait early once FILE exists (for a test that waits on the kernel's
 * side instead): the pages are then counted where they are, and too few
 * of them on NODE is still a failed check.
 *
 * --shmem: the folios moved or awaited are shmem (a shared anonymous
 * mapping), not anonymous ones; with --size 4096 only.
 *
 * --fragment mode: fill --total of base pages on SRC, free half of them,
 * create the --ready file and wait for SIGUSR1 (meanwhile, for example,
 * compaction runs); then check the data of the pages kept. Which half is
 * freed flips every 32 pages (see fragment_kept()), so that compaction's
 * free scanner finds the holes at any stride.
 *
 * Exit 0 when every check passed, 2 on a failed check, 1 usage, 3 system.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <numaif.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../lib/mmtest.h"

#define MAX_WRITERS	8
#define MAX_SEGS	8
/* Slots of the writers at the start of each page; pattern after them */
#define SLOT_BYTES	(MAX_WRITERS * 8)

static const unsigned long all_sizes[] = {
	4096, 16384, 65536, 262144, 1048576, 2097152,
};

static struct {
	unsigned long size, total;
	bool mixed, fragment, strict, allow_splits, exchange, shmem;
	int src, dst, moves, writers, readers, settle_ms;
	int await_node, await_pct, timeout_s;
	unsigned long cold;
	int cold_touch_ms;
	const char *ready, *until;
} opt = { .size = 4096, .total = 16 << 20, .src = 0, .dst = 1, .moves = 4,
	  .await_node = -1, .await_pct = 100, .timeout_s = 60 };

struct seg {
	char *addr;
	unsigned long len, fsize;
	uint64_t seed;
};

static struct seg segs[MAX_SEGS];
static int nr_segs;
static unsigned long nr_pages;
static char **page_addr;	/* every base page, in move order */
static char **folio_addr;	/* every folio's first page, in move order */
static unsigned long nr_folios;
/* --exchange: the pairs, and which node each pair's first folio is on */
static char **pair_addr;
static unsigned long nr_pairs;
static int *pair_node;
static atomic_bool stop;
static atomic_ulong reader_checks;
static struct mm_counters moved_counters;	/* summed over the moves */
static unsigned long first_move_splits;

static uint64_t *slot(unsigned long page, int w)
{
	return (uint64_t *)page_addr[page] + w;
}

/* Pattern check of one page, skipping the writers' slots */
static bool page_intact(unsigned long page, unsigned long *bad)
{
	uint64_t *w = (uint64_t *)page_addr[page];
	unsigned long i, base;
	struct seg *s;

	for (s = segs; s < segs + nr_segs; s++)
		if (page_addr[page] >= s->addr && page_addr[page] < s->addr + s->len)
			break;
	base = (page_addr[page] - s->addr) / 8;
	for (i = SLOT_BYTES / 8; i < PAGE_SZ / 8; i++) {
		if (w[i] != pattern(base + i, s->seed)) {
			*bad = i * 8;
			return false;
		}
	}
	return true;
}

struct writer {
	pthread_t tid;
	int id;
	uint64_t *last;		/* last value written, per page */
};

static void *writer_fn(void *arg)
{
	struct writer *w = arg;
	uint64_t seq = 0;
	unsigned long p;

	do {
		for (p = 0; p < nr_pages; p++) {
			seq++;
			__atomic_store_n(slot(p, w->id), seq, __ATOMIC_RELAXED);
			w->last[p] = seq;
		}
	} while (!atomic_load(&stop));
	return NULL;
}

static void *reader_fn(void *arg)
{
	unsigned long p = (uintptr_t)arg, bad;

	while (!atomic_load(&stop)) {
		p = (p * 2862933555777941757ULL + 3037000493ULL) % nr_pages;
		if (!page_intact(p, &bad))
			fatal(EXIT_CHECK, "reader: page %lu corrupt at +%lu during migration",
			      p, bad);
		atomic_fetch_add(&reader_checks, 1);
	}
	return NULL;
}

static void add_seg(unsigned long fsize, unsigned long len)
{
	struct seg *s = &segs[nr_segs];

	mthp_select(fsize);
	s->addr = alloc_on_map(len, opt.src, fsize,
			       opt.shmem ? MAP_SHARED : MAP_PRIVATE);
	s->len = len;
	s->fsize = fsize;
	s->seed = 0x6d6967636865636bULL ^ (fsize << 8) ^ nr_segs;
	fill(s->addr, len, s->seed);
	check_folios(s->addr, len, fsize, "before moves");
	nr_segs++;
}

/* Page list: segments interleaved folio by folio, for mixed batches */
static void build_pages(void)
{
	unsigned long idx = 0, f, i, nf, max_nf = 0;
	int k;

	for (k = 0; k < nr_segs; k++) {
		nr_pages += segs[k].len / PAGE_SZ;
		nf = segs[k].len / segs[k].fsize;
		if (nf > max_nf)
			max_nf = nf;
	}
	page_addr = malloc(nr_pages * sizeof(*page_addr));
	folio_addr = malloc(nr_pages * sizeof(*folio_addr));
	if (!page_addr || !folio_addr)
		fatal(EXIT_SYS, "out of memory");
	for (f = 0; f < max_nf; f++)
		for (k = 0; k < nr_segs; k++) {
			if (f >= segs[k].len / segs[k].fsize)
				continue;
			folio_addr[nr_folios++] = segs[k].addr + f * segs[k].fsize;
			for (i = 0; i < segs[k].fsize / PAGE_SZ; i++)
				page_addr[idx++] = segs[k].addr + f * segs[k].fsize + i * PAGE_SZ;
		}
}

/*
 * --exchange: pair folio i of each segment's first half with folio i of
 * its second half, the pairs of all segments interleaved, and move every
 * second half to DST.
 */
static void build_pairs(void)
{
	unsigned long f, nf, max_nf = 0, i;
	int *nodes, *status, k;
	char **second;
	long ret;

	for (k = 0; k < nr_segs; k++) {
		nf = segs[k].len / segs[k].fsize / 2;
		max_nf = nf > max_nf ? nf : max_nf;
		nr_pairs += nf;
	}
	pair_addr = malloc(2 * nr_pairs * sizeof(*pair_addr));
	pair_node = malloc(nr_pairs * sizeof(*pair_node));
	second = malloc(nr_pairs * sizeof(*second));
	nodes = malloc(nr_pairs * sizeof(*nodes));
	status = malloc(nr_pairs * sizeof(*status));
	if (!pair_addr || !pair_node || !second || !nodes || !status)
		fatal(EXIT_SYS, "out of memory");
	for (f = 0, i = 0; f < max_nf; f++)
		for (k = 0; k < nr_segs; k++) {
			nf = segs[k].len / segs[k].fsize / 2;
			if (f >= nf)
				continue;
			pair_addr[2 * i] = segs[k].addr + f * segs[k].fsize;
			pair_addr[2 * i + 1] = segs[k].addr + (nf + f) * segs[k].fsize;
			second[i] = pair_addr[2 * i + 1];
			nodes[i] = opt.dst;
			pair_node[i++] = opt.src;
		}
	ret = move_pages(0, nr_pairs, (void **)second, nodes, status, MPOL_MF_MOVE);
	if (ret < 0)
		fatal(EXIT_SYS, "move_pages: %s", strerror(errno));
	for (i = 0; i < nr_pairs; i++)
		if (status[i] != opt.dst)
			fatal(EXIT_SYS, "set-up: folio %lu of the second halves did not reach node %d (status %d)",
			      i, opt.dst, status[i]);
	free(second);
	free(nodes);
	free(status);
}

/* Both folios of pair @i on the nodes its results so far say */
static void check_pair(unsigned long i)
{
	check_node(pair_addr[2 * i], PAGE_SZ, pair_node[i]);
	check_node(pair_addr[2 * i + 1], PAGE_SZ,
		   pair_node[i] == opt.src ? opt.dst : opt.src);
}

/* Exchange every pair; returns the pairs not exchanged */
static unsigned long exchange_all(void)
{
	int *status = malloc(2 * nr_pairs * sizeof(int));
	unsigned long i, missed = 0;
	long ret;

	if (!status)
		fatal(EXIT_SYS, "out of memory");
	for (i = 0; i < 2 * nr_pairs; i++)
		status[i] = INT_MIN;
	ret = move_pages(0, 2 * nr_pairs, (void **)pair_addr, NULL, status,
			 MPOL_MF_MOVE | MPOL_MF_EXCHANGE);
	if (ret < 0)
		fatal(EXIT_SYS, "move_pages(MPOL_MF_EXCHANGE): %s%s", strerror(errno),
		      errno == EINVAL ? " (a kernel without exchange?)" : "");
	for (i = 0; i < nr_pairs; i++) {
		int a = pair_node[i], b = a == opt.src ? opt.dst : opt.src;

		if (status[2 * i] == b && status[2 * i + 1] == a) {
			pair_node[i] = b;
		} else if (status[2 * i] == -EBUSY && status[2 * i + 1] == -EBUSY) {
			/* in use past the retries: left as it was */
			missed++;
			if (opt.strict)
				fatal(EXIT_CHECK, "pair %lu not exchanged: %s", i,
				      strerror(-status[2 * i]));
		} else {
			fatal(EXIT_CHECK, "pair %lu: status %d and %d, nodes %d and %d before",
			      i, status[2 * i], status[2 * i + 1], a, b);
		}
		if (opt.strict)
			check_pair(i);
	}
	free(status);
	return missed;
}

/* Move every folio to @node; returns the folios that did not get there */
static unsigned long move_all(int node)
{
	int *nodes = malloc(nr_folios * sizeof(int));
	int *status = malloc(nr_folios * sizeof(int));
	struct mm_counters before, mc;
	unsigned long i, missed = 0;
	long ret;

	if (!nodes || !status)
		fatal(EXIT_SYS, "out of memory");
	for (i = 0; i < nr_folios; i++) {
		nodes[i] = node;
		status[i] = INT_MIN;
	}
	mm_counters_read(&before);
	ret = move_pages(0, nr_folios, (void **)folio_addr, nodes, status,
			 MPOL_MF_MOVE);
	if (ret < 0)
		fatal(EXIT_SYS, "move_pages: %s", strerror(errno));
	mm_counters_since(&mc, &before);
	if (mc.splits || mc.pgmigrate_fail)
		printf("migcheck: move to node %d: %lu large folios split, pgmigrate_fail +%lu\n",
		       node, mc.splits, mc.pgmigrate_fail);
	moved_counters.splits += mc.splits;
	moved_counters.pgmigrate_fail += mc.pgmigrate_fail;
	for (i = 0; i < nr_folios; i++)
		if (status[i] != node)
			missed++;
	if (opt.strict && (ret || missed))
		fatal(EXIT_CHECK, "move to node %d: %ld not migrated, %lu folios elsewhere",
		      node, ret, missed);
	free(nodes);
	free(status);
	return missed;
}

/*
 * --settle: give every page new contents (a new pattern, the writers'
 * slots kept), then wait. A late write into a page the folios left, once
 * given back to them, would bring old data back, which the final check
 * sees: the old pattern differs from the new one everywhere.
 */
static void settle(struct writer *w)
{
	unsigned long p;
	int k, i;

	for (k = 0; k < nr_segs; k++) {
		segs[k].seed ^= 0x736574746c65ULL;
		fill(segs[k].addr, segs[k].len, segs[k].seed);
	}
	for (p = 0; p < nr_pages; p++)
		for (i = 0; i < opt.writers; i++)
			*slot(p, i) = w[i].last[p];
	usleep(1000L * opt.settle_ms);
}

/* Base pages of the folios now on @node */
static unsigned long pages_on(int node)
{
	int *status = malloc(nr_pages * sizeof(int));
	unsigned long p, on = 0;

	if (!status)
		fatal(EXIT_SYS, "out of memory");
	if (move_pages(0, nr_pages, (void **)page_addr, NULL, status, 0))
		fatal(EXIT_SYS, "move_pages(query): %s", strerror(errno));
	for (p = 0; p < nr_pages; p++)
		on += status[p] == node;
	free(status);
	return on;
}

/* --cold: never touched after its fill, checked at the end */
static char *cold_addr;
static const uint64_t cold_seed = 0x636f6c64ULL;

/* --until: its file ended the wait */
static bool until_seen;

/*
 * --cold-touch: read a word of every page of the cold region each period,
 * and keep the longest time from the end of one pass to the end of the
 * next: a region "read every 100 ms" on a host that stopped this thread
 * for seconds was not warm, and the caller needs to know it
 */
static _Atomic double cold_gap_max;

static void *cold_toucher(void *arg __attribute__((unused)))
{
	volatile char *c = (volatile char *)cold_addr;
	double last = now(), t;
	unsigned long p;

	while (!atomic_load(&stop)) {
		for (p = 0; p < opt.cold / PAGE_SZ; p++)
			(void)c[p * PAGE_SZ];
		t = now();
		if (t - last > cold_gap_max)
			cold_gap_max = t - last;
		last = t;
		usleep(1000L * opt.cold_touch_ms);
	}
	return NULL;
}

/* Base pages of the cold region now on @node */
static unsigned long cold_on(int node)
{
	int *status = query_nodes(cold_addr, opt.cold);
	unsigned long p, on = 0;

	for (p = 0; p < opt.cold / PAGE_SZ; p++)
		on += status[p] == node;
	free(status);
	return on;
}

/* --await: true if --await-pct of the pages reached the node in time */
static bool await_node(void)
{
	unsigned long want = (nr_pages * opt.await_pct + 99) / 100, on = 0;
	unsigned long cold_fewest = ULONG_MAX;
	double t0 = now(), t;
	int k;

	if (opt.cold && mbind(cold_addr, opt.cold, MPOL_DEFAULT, NULL, 0, 0))
		fatal(EXIT_SYS, "mbind(MPOL_DEFAULT): %s", strerror(errno));
	if (opt.ready) {
		int fd = open(opt.ready, O_CREAT | O_WRONLY | O_TRUNC, 0644);

		if (fd < 0)
			fatal(EXIT_SYS, "%s: %s", opt.ready, strerror(errno));
		close(fd);
	}

	for (k = 0; k < nr_segs; k++)
		if (mbind(segs[k].addr, segs[k].len, MPOL_DEFAULT, NULL, 0, 0))
			fatal(EXIT_SYS, "mbind(MPOL_DEFAULT): %s", strerror(errno));
	do {
		on = pages_on(opt.await_node);
		if (opt.cold_touch_ms) {
			unsigned long c = cold_on(opt.await_node);

			cold_fewest = c < cold_fewest ? c : cold_fewest;
		}
		t = now() - t0;
		if (on >= want)
			break;
		if (opt.until && !access(opt.until, F_OK)) {
			until_seen = true;
			break;
		}
		usleep(100000);
	} while (t < opt.timeout_s);
	printf("migcheck: %lu of %lu pages on node %d after %.1f s (wanted %lu)\n",
	       on, nr_pages, opt.await_node, t, want);
	if (opt.cold_touch_ms)
		printf("migcheck: cold region: fewest %lu of %lu pages on node %d, longest gap between reads %.0f ms\n",
		       cold_fewest, opt.cold / PAGE_SZ, opt.await_node,
		       1000 * cold_gap_max);
	return on >= want;
}

static int run_moves(void)
{
	bool awaited = true;
	struct writer w[MAX_WRITERS];
	pthread_t rd[16], ct;
	unsigned long p, bad, missed = 0;
	int i, m, k;

	/* --exchange: two folios of each size at least */
	unsigned long unit = opt.exchange ? 2 * PMD_SZ : PMD_SZ;

	if (opt.mixed)
		for (i = 0; i < (int)(sizeof(all_sizes) / sizeof(all_sizes[0])); i++)
			add_seg(all_sizes[i], opt.total / 6 / unit * unit ?: unit);
	else
		add_seg(opt.size, opt.total);
	if (opt.cold) {
		cold_addr = alloc_on(opt.cold, opt.await_node, PAGE_SZ);
		fill(cold_addr, opt.cold, cold_seed);
	}
	build_pages();
	if (opt.exchange)
		build_pairs();

	for (i = 0; i < opt.writers; i++) {
		w[i].id = i;
		w[i].last = calloc(nr_pages, sizeof(uint64_t));
		if (!w[i].last)
			fatal(EXIT_SYS, "out of memory");
		for (p = 0; p < nr_pages; p++)
			w[i].last[p] = *slot(p, i);
		if (pthread_create(&w[i].tid, NULL, writer_fn, &w[i]))
			fatal(EXIT_SYS, "pthread_create");
	}
	for (i = 0; i < opt.readers; i++)
		if (pthread_create(&rd[i], NULL, reader_fn, (void *)(uintptr_t)(i + 1)))
			fatal(EXIT_SYS, "pthread_create");
	if (opt.cold_touch_ms &&
	    pthread_create(&ct, NULL, cold_toucher, NULL))
		fatal(EXIT_SYS, "pthread_create");

	usleep(20000);	/* writes before the first move */
	if (opt.await_node >= 0) {
		awaited = await_node();
		opt.moves = 0;
	}
	for (m = 0; m < opt.moves; m++) {
		int node = m % 2 ? opt.src : opt.dst;

		struct mm_counters before = moved_counters;

		if (opt.exchange) {
			missed += exchange_all();
			continue;
		}
		missed += move_all(node);
		if (m == 0)
			first_move_splits = moved_counters.splits - before.splits;
		/*
		 * Only the node: a migration may legitimately split a large
		 * folio (no free block of its order on the target node).
		 */
		if (opt.strict)
			for (k = 0; k < nr_segs; k++)
				check_node(segs[k].addr, segs[k].len, node);
	}
	usleep(20000);	/* writes after the last move */
	atomic_store(&stop, true);
	for (i = 0; i < opt.readers; i++)
		pthread_join(rd[i], NULL);
	if (opt.cold_touch_ms)
		pthread_join(ct, NULL);
	for (i = 0; i < opt.writers; i++)
		pthread_join(w[i].tid, NULL);
	if (opt.settle_ms)
		settle(w);

	for (p = 0; p < nr_pages; p++) {
		for (i = 0; i < opt.writers; i++)
			if (*slot(p, i) != w[i].last[p])
				fatal(EXIT_CHECK,
				      "page %lu: writer %d's last write %" PRIu64 " lost, found %" PRIu64,
				      p, i, w[i].last[p], *slot(p, i));
		if (!page_intact(p, &bad))
			fatal(EXIT_CHECK, "page %lu corrupt at +%lu after moves", p, bad);
	}
	if (opt.cold)
		verify(cold_addr, opt.cold, cold_seed);
	if (!awaited && until_seen)
		fatal(EXIT_CHECK, "data intact, but fewer than %d%% of the pages reached node %d before %s appeared",
		      opt.await_pct, opt.await_node, opt.until);
	if (!awaited)
		fatal(EXIT_CHECK, "data intact, but fewer than %d%% of the pages reached node %d within %d s",
		      opt.await_pct, opt.await_node, opt.timeout_s);
	if (first_move_splits && !opt.allow_splits)
		fatal(EXIT_CHECK, "%lu large folios split during the first move (pgmigrate_fail +%lu): with memory to spare none should (--allow-splits where the target may lack free blocks)",
		      first_move_splits, moved_counters.pgmigrate_fail);
	if (opt.exchange) {
		/* Where each exchange left each pair, now that nothing moves */
		for (p = 0; p < nr_pairs; p++)
			check_pair(p);
		if (opt.moves && missed == (unsigned long)opt.moves * nr_pairs)
			fatal(EXIT_CHECK, "no pair was exchanged in %d calls", opt.moves);
		printf("migcheck: ok: %lu pairs of folios, %lu pages in %d segment(s), %d exchanges, %d writers, %d readers (%lu reader checks), %lu pair exchanges not done\n",
		       nr_pairs, nr_pages, nr_segs, opt.moves, opt.writers,
		       opt.readers, atomic_load(&reader_checks), missed);
		return 0;
	}
	printf("migcheck: ok: %lu folios, %lu pages in %d segment(s), %d moves, %d writers, %d readers (%lu reader checks), %lu folio moves not done, %lu folios split, pgmigrate_fail +%lu\n",
	       nr_folios, nr_pages, nr_segs, opt.moves, opt.writers, opt.readers,
	       atomic_load(&reader_checks), missed, moved_counters.splits,
	       moved_counters.pgmigrate_fail);
	return 0;
}

static volatile sig_atomic_t released;

static void on_usr1(int sig)
{
	(void)sig;
	released = 1;
}

/*
 * Keep page i when bit 0 of i and bit 5 of i agree. Freeing plain every
 * other page left the holes at one parity of pfn when the pages came
 * physically in order: compaction's free scanner, which probes every 32nd
 * page once a pageblock gave it nothing (isolate_freepages(), stride up
 * to COMPACT_CLUSTER_MAX), then probed only kept pages, found no free
 * page, and compaction migrated nothing. With the parity flipped every 32
 * pages, every stride's probes meet holes in half of the 32-page runs.
 */
static bool fragment_kept(unsigned long i)
{
	return !((i ^ (i >> 5)) & 1);
}

static int run_fragment(void)
{
	unsigned long i, kept = 0, bad;
	int fd;

	signal(SIGUSR1, on_usr1);
	add_seg(PAGE_SZ, opt.total);
	nr_pages = opt.total / PAGE_SZ;
	page_addr = malloc(nr_pages * sizeof(*page_addr));
	if (!page_addr)
		fatal(EXIT_SYS, "out of memory");
	for (i = 0; i < nr_pages; i++) {
		page_addr[i] = segs[0].addr + i * PAGE_SZ;
		if (!fragment_kept(i) && madvise(page_addr[i], PAGE_SZ, MADV_DONTNEED))
			fatal(EXIT_SYS, "madvise(MADV_DONTNEED): %s", strerror(errno));
	}
	fd = open(opt.ready, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		fatal(EXIT_SYS, "%s: %s", opt.ready, strerror(errno));
	close(fd);
	while (!released)
		pause();
	for (i = 0; i < nr_pages; i++) {
		if (!fragment_kept(i))
			continue;
		if (!page_intact(i, &bad))
			fatal(EXIT_CHECK, "kept page %lu corrupt at +%lu", i, bad);
		kept++;
	}
	printf("migcheck: ok: %lu kept pages intact\n", kept);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: migcheck [--size BYTES | --mixed] [--total BYTES] [--src N] [--dst N]\n"
		"                [--moves N] [--writers N] [--readers N] [--strict-moves]\n"
		"                [--settle MS] [--allow-splits] [--exchange] [--shmem]\n"
		"                [--await NODE [--await-pct P] [--timeout S] [--cold BYTES\n"
		"                 [--cold-touch MS]] [--ready FILE] [--until FILE]]\n"
		"       migcheck --fragment --ready FILE [--total BYTES] [--src N]\n");
	exit(EXIT_USAGE);
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--mixed")) {
			opt.mixed = true;
			continue;
		} else if (!strcmp(a, "--fragment")) {
			opt.fragment = true;
			continue;
		} else if (!strcmp(a, "--strict-moves")) {
			opt.strict = true;
			continue;
		} else if (!strcmp(a, "--allow-splits")) {
			opt.allow_splits = true;
			continue;
		} else if (!strcmp(a, "--exchange")) {
			opt.exchange = true;
			continue;
		} else if (!strcmp(a, "--shmem")) {
			opt.shmem = true;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--size"))
			opt.size = parse_size(v);
		else if (!strcmp(a, "--total"))
			opt.total = parse_size(v);
		else if (!strcmp(a, "--src"))
			opt.src = atoi(v);
		else if (!strcmp(a, "--dst"))
			opt.dst = atoi(v);
		else if (!strcmp(a, "--moves"))
			opt.moves = atoi(v);
		else if (!strcmp(a, "--writers"))
			opt.writers = atoi(v);
		else if (!strcmp(a, "--readers"))
			opt.readers = atoi(v);
		else if (!strcmp(a, "--ready"))
			opt.ready = v;
		else if (!strcmp(a, "--until"))
			opt.until = v;
		else if (!strcmp(a, "--settle"))
			opt.settle_ms = atoi(v);
		else if (!strcmp(a, "--await"))
			opt.await_node = atoi(v);
		else if (!strcmp(a, "--await-pct"))
			opt.await_pct = atoi(v);
		else if (!strcmp(a, "--timeout"))
			opt.timeout_s = atoi(v);
		else if (!strcmp(a, "--cold"))
			opt.cold = parse_size(v);
		else if (!strcmp(a, "--cold-touch"))
			opt.cold_touch_ms = atoi(v);
		else
			usage();
	}
	if (opt.writers < 0 || opt.writers > MAX_WRITERS || opt.readers < 0 ||
	    opt.readers > 16 || opt.moves < 0 || !opt.total ||
	    opt.settle_ms < 0 || opt.settle_ms > 600000 ||
	    opt.size < PAGE_SZ || opt.size > PMD_SZ || (opt.size & (opt.size - 1)) ||
	    opt.total % PMD_SZ || (opt.fragment && !opt.ready) ||
	    (opt.exchange && (opt.fragment || opt.total < 2 * opt.size)) ||
	    (opt.await_node >= 0 && (opt.exchange || opt.fragment)) ||
	    (opt.until && opt.await_node < 0) ||
	    opt.await_pct < 1 || opt.await_pct > 100 || opt.timeout_s < 1 ||
	    (opt.cold && (opt.await_node < 0 || opt.cold % PMD_SZ)) ||
	    opt.cold_touch_ms < 0 || opt.cold_touch_ms > 60000 ||
	    (opt.cold_touch_ms && !opt.cold) ||
	    (opt.shmem && (opt.mixed || opt.fragment || opt.exchange || opt.size != PAGE_SZ)))
		usage();
	if (geteuid())
		fatal(EXIT_USAGE, "needs root (reads /proc/kpageflags, sets mTHP sysfs)");
	mm_open_proc();
	mthp_save();
	return opt.fragment ? run_fragment() : run_moves();
}

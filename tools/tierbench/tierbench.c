// SPDX-License-Identifier: GPL-2.0
/*
 * tierbench - a workload whose hot set moves, and the hot set's residency
 * on the fast tier over time (bench/tiering.sh, issue 14).
 *
 * A region of --total bytes: its first --fast-init bytes are placed on the
 * fast node (they start cold there and fill it), the rest on the slow node;
 * then the memory policy is dropped, so that the kernel may move any page.
 * The hot set is a window of --hot bytes in the slow part, written in a
 * loop by one thread (one word per page per pass); every --period seconds
 * it jumps to the next window. Another thread reads every page of the
 * rest once per period, spread over it ("touched rarely").
 *
 * Every --interval seconds the main thread asks where every page is
 * (move_pages(2) without nodes) and prints one CSV row:
 *   t,shift,residency,fast_pages,moved,wasted,writes_per_s,nodes,memcpy_MBps
 * residency: the share of the hot window's pages on the fast node;
 * moved: pages whose node changed since the last sample; wasted: those
 * among them that had moved already less than one period before; nodes:
 * the region's pages on nodes 0, 1, 2... ("16384/0/49152/0"); memcpy_MBps:
 * the rate of a 256 KiB memcpy() the main thread times beside the query
 * (the best of three), so that a move's speed can be read against the
 * guest's copy speed of the moment (QEMU TCG's varies). At the
 * end, "summary ..." gives the time to 90 % residency after each shift
 * ("-" if never within the period), the mean residency over the last half
 * of every period, and the totals; the moves also by direction and by
 * what the page was when the move was seen: up_hot/down_hot (in the hot
 * window), up_old/down_old (in a window that was hot before), up_init/
 * down_init (in the part placed on the fast node at the start, never hot),
 * up_rest/down_rest (in a window not hot yet, or past the last window),
 * and misplaced, the moves against the hot set of the moment (every move
 * up but up_hot, and down_hot). Each page holds its own index in its
 * first word, checked at the end: exit 2 if one does not. The summary's
 * memcpy_MBps is the median of the samples'.
 *
 * --marker FILE (a tracefs trace_marker) gets a line at each sample,
 * "tierbench t=T shift=N residency=R", so that a trace of the kernel's
 * tiering events can be lined up with the samples.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../lib/mmtest.h"

#define QUERY_CHUNK	4096UL
#define COPY_BYTES	(256UL << 10)
#define MAX_NODES	64

static struct {
	unsigned long total, hot, fast_init;
	int fast, slow, shifts;
	double period, interval;
	bool thp;
	const char *ready, *marker;
} opt = {
	.total = 256UL << 20, .hot = 32UL << 20, .fast_init = 64UL << 20,
	.fast = 0, .slow = 2, .shifts = 4, .period = 20, .interval = 1,
};

static char *region;
static unsigned long nr_pages, hot_pages, first_win, nr_wins;
/* Index of the hot window, in windows after the fast part */
static atomic_ulong window;
static atomic_ulong writes;
static atomic_bool stop;

static uint64_t *word(unsigned long page)
{
	return (uint64_t *)(region + page * PAGE_SZ);
}

/* The hot window's first page */
static unsigned long hot_first(unsigned long w)
{
	return first_win + (w % nr_wins) * hot_pages;
}

static void *writer(void *arg)
{
	uint64_t pass = 0;

	(void)arg;
	while (!atomic_load(&stop)) {
		unsigned long first = hot_first(atomic_load(&window)), p;

		pass++;
		for (p = first; p < first + hot_pages; p++)
			word(p)[1] = pass;
		atomic_fetch_add(&writes, hot_pages);
	}
	return NULL;
}

/* Read every page outside the hot window once per period */
static void *toucher(void *arg)
{
	unsigned long p = 0, step = nr_pages / (opt.period * 10) + 1;
	volatile uint64_t sink = 0;

	(void)arg;
	while (!atomic_load(&stop)) {
		unsigned long first = hot_first(atomic_load(&window)), end;

		for (end = p + step; p < end && p < nr_pages; p++)
			if (p < first || p >= first + hot_pages)
				sink += word(p)[0];
		if (p >= nr_pages)
			p = 0;
		usleep(100000);
	}
	return NULL;
}

/*
 * A page's class for the move counts: in the hot window, in a window hot
 * before, in the part placed on the fast node at the start, or the rest
 */
enum { HOT, OLD, INIT, REST, NR_CLASSES };
static const char *const class_name[NR_CLASSES] = { "hot", "old", "init", "rest" };

static int page_class(unsigned long p, int shift)
{
	unsigned long w;

	if (p < first_win)
		return INIT;
	if (p >= first_win + nr_wins * hot_pages)
		return REST;
	w = (p - first_win) / hot_pages;
	if (w == (unsigned long)shift % nr_wins)
		return HOT;
	return (unsigned long)shift >= nr_wins || w < (unsigned long)shift ?
	       OLD : REST;
}

static void query(void **pages, int *status)
{
	unsigned long i, n;

	for (i = 0; i < nr_pages; i += n) {
		n = nr_pages - i < QUERY_CHUNK ? nr_pages - i : QUERY_CHUNK;
		if (move_pages(0, n, pages + i, NULL, status + i, 0))
			fatal(EXIT_SYS, "move_pages query: %s", strerror(errno));
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: tierbench [--total SIZE] [--hot SIZE] [--fast-init SIZE]\n"
		"  [--fast NODE] [--slow NODE] [--period S] [--shifts N]\n"
		"  [--interval S] [--thp] [--ready FILE] [--marker FILE]\n");
	exit(EXIT_USAGE);
}

static void parse(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "total", 1, 0, 't' }, { "hot", 1, 0, 'h' },
		{ "fast-init", 1, 0, 'f' }, { "fast", 1, 0, 'F' },
		{ "slow", 1, 0, 'S' }, { "period", 1, 0, 'p' },
		{ "shifts", 1, 0, 'n' }, { "interval", 1, 0, 'i' },
		{ "thp", 0, 0, 'T' }, { "ready", 1, 0, 'r' },
		{ "marker", 1, 0, 'm' }, { 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 't': opt.total = parse_size(optarg); break;
		case 'h': opt.hot = parse_size(optarg); break;
		case 'f': opt.fast_init = parse_size(optarg); break;
		case 'F': opt.fast = atoi(optarg); break;
		case 'S': opt.slow = atoi(optarg); break;
		case 'p': opt.period = atof(optarg); break;
		case 'n': opt.shifts = atoi(optarg); break;
		case 'i': opt.interval = atof(optarg); break;
		case 'T': opt.thp = true; break;
		case 'r': opt.ready = optarg; break;
		case 'm': opt.marker = optarg; break;
		default: usage();
		}
	}
	if (optind != argc || !opt.hot || opt.hot % PMD_SZ ||
	    opt.fast_init % PMD_SZ || opt.total % PMD_SZ ||
	    opt.fast_init + opt.hot > opt.total || opt.period <= 0 ||
	    opt.interval <= 0 || opt.shifts < 1)
		usage();
}

/* MB/s of the best of three memcpy() of COPY_BYTES from @src to @dst */
static double copy_rate(char *dst, const char *src)
{
	double best = 0;
	int i;

	for (i = 0; i < 3; i++) {
		double t = now(), d;

		memcpy(dst, src, COPY_BYTES);
		/* Keep the copy: dst is read by nothing else */
		asm volatile("" : : "r"(dst) : "memory");
		d = now() - t;
		if (d > 0 && COPY_BYTES / d / 1e6 > best)
			best = COPY_BYTES / d / 1e6;
	}
	return best;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	unsigned long fast_mask, p, moved_total = 0, wasted_total = 0;
	/* Moves seen, [0] up to the fast node, [1] down, by page_class() */
	unsigned long moves[2][NR_CLASSES] = { { 0 } };
	int *status, *last, shift = -1, i, bad = 0;
	double *moved_at, t0, t, res_sum = 0, *rates = NULL;
	unsigned long res_n = 0, nr_rates = 0;
	char *cp_src, *cp_dst;
	FILE *marker = NULL;
	double *t90;
	pthread_t wt, tt;
	void **pages;

	parse(argc, argv);
	nr_pages = opt.total / PAGE_SZ;
	hot_pages = opt.hot / PAGE_SZ;
	first_win = opt.fast_init / PAGE_SZ;
	nr_wins = (nr_pages - first_win) / hot_pages;
	region = alloc_on(opt.total, opt.slow, opt.thp ? PMD_SZ : PAGE_SZ);
	fast_mask = 1UL << opt.fast;
	if (opt.fast_init &&
	    mbind(region, opt.fast_init, MPOL_BIND, &fast_mask,
		  sizeof(fast_mask) * 8, 0))
		fatal(EXIT_SYS, "mbind node %d: %s", opt.fast, strerror(errno));
	for (p = 0; p < nr_pages; p++)
		word(p)[0] = p;
	if (mbind(region, opt.total, MPOL_DEFAULT, NULL, 0, 0))
		fatal(EXIT_SYS, "mbind(MPOL_DEFAULT): %s", strerror(errno));

	pages = calloc(nr_pages, sizeof(*pages));
	status = calloc(nr_pages, sizeof(*status));
	last = calloc(nr_pages, sizeof(*last));
	moved_at = calloc(nr_pages, sizeof(*moved_at));
	t90 = calloc(opt.shifts, sizeof(*t90));
	cp_src = malloc(COPY_BYTES);
	cp_dst = malloc(COPY_BYTES);
	if (!pages || !status || !last || !moved_at || !t90 || !cp_src ||
	    !cp_dst)
		fatal(EXIT_SYS, "out of memory");
	memset(cp_src, 0x5a, COPY_BYTES);
	memset(cp_dst, 0, COPY_BYTES);
	for (p = 0; p < nr_pages; p++) {
		pages[p] = word(p);
		moved_at[p] = -1e9;
	}
	query(pages, last);
	printf("# tierbench: %lu MiB, hot %lu MiB in %lu windows, %lu MiB placed on node %d, rest on node %d, %s, period %g s, %d shifts\n",
	       opt.total >> 20, opt.hot >> 20, nr_wins, opt.fast_init >> 20,
	       opt.fast, opt.slow, opt.thp ? "THP" : "4K", opt.period,
	       opt.shifts);
	printf("t,shift,residency,fast_pages,moved,wasted,writes_per_s,nodes,memcpy_MBps\n");
	fflush(stdout);
	if (opt.marker) {
		marker = fopen(opt.marker, "w");
		if (!marker)
			fatal(EXIT_SYS, "%s: %s", opt.marker, strerror(errno));
		setvbuf(marker, NULL, _IOLBF, 0);
	}
	if (opt.ready) {
		FILE *f = fopen(opt.ready, "w");

		if (!f || fclose(f))
			fatal(EXIT_SYS, "%s: %s", opt.ready, strerror(errno));
	}

	if (pthread_create(&wt, NULL, writer, NULL) ||
	    pthread_create(&tt, NULL, toucher, NULL))
		fatal(EXIT_SYS, "pthread_create");
	t0 = now();
	for (i = 0; i < opt.shifts; i++)
		t90[i] = -1;
	for (t = 0;; ) {
		unsigned long first, on_hot = 0, on_fast = 0, moved = 0;
		unsigned long wasted = 0, w0 = atomic_load(&writes), w1;
		unsigned long per_node[MAX_NODES] = { 0 };
		int n, nr_nodes = 0;
		double next = t + opt.interval, res, rate;

		while ((t = now() - t0) < next)
			usleep((next - t) * 1e6 + 1000);
		if ((int)(t / opt.period) != shift) {
			shift = t / opt.period;
			if (shift >= opt.shifts)
				break;
			atomic_store(&window, shift);
		}
		query(pages, status);
		rate = copy_rate(cp_dst, cp_src);
		if (!(nr_rates & (nr_rates - 1))) {
			double *r = realloc(rates, (2 * nr_rates + 1) *
					    sizeof(*rates));

			if (!r)
				fatal(EXIT_SYS, "out of memory");
			rates = r;
		}
		rates[nr_rates++] = rate;
		first = hot_first(shift);
		for (p = 0; p < nr_pages; p++) {
			if (status[p] >= 0 && status[p] < MAX_NODES) {
				per_node[status[p]]++;
				if (status[p] >= nr_nodes)
					nr_nodes = status[p] + 1;
			}
			if (status[p] == opt.fast) {
				on_fast++;
				if (p >= first && p < first + hot_pages)
					on_hot++;
			}
			if (status[p] != last[p] && status[p] >= 0 &&
			    last[p] >= 0) {
				moved++;
				if (t - moved_at[p] < opt.period)
					wasted++;
				moved_at[p] = t;
				if (status[p] == opt.fast || last[p] == opt.fast)
					moves[status[p] != opt.fast][page_class(p, shift)]++;
			}
			last[p] = status[p];
		}
		w1 = atomic_load(&writes);
		res = (double)on_hot / hot_pages;
		if (t90[shift] < 0 && res >= 0.9)
			t90[shift] = t - shift * opt.period;
		if (t - shift * opt.period >= opt.period / 2) {
			res_sum += res;
			res_n++;
		}
		moved_total += moved;
		wasted_total += wasted;
		printf("%.1f,%d,%.4f,%lu,%lu,%lu,%.0f,", t, shift, res,
		       on_fast, moved, wasted, (w1 - w0) / opt.interval);
		for (n = 0; n < nr_nodes; n++)
			printf("%s%lu", n ? "/" : "", per_node[n]);
		printf(",%.0f\n", rate);
		fflush(stdout);
		if (marker)
			fprintf(marker, "tierbench t=%.1f shift=%d residency=%.4f\n",
				t, shift, res);
	}
	if (marker)
		fclose(marker);
	atomic_store(&stop, true);
	pthread_join(wt, NULL);
	pthread_join(tt, NULL);

	for (p = 0; p < nr_pages; p++)
		if (word(p)[0] != p && bad++ < 5)
			fprintf(stderr, "page %lu holds %llu\n", p,
				(unsigned long long)word(p)[0]);
	printf("summary t90=");
	for (i = 0; i < opt.shifts; i++)
		if (t90[i] < 0)
			printf("%s-", i ? "/" : "");
		else
			printf("%s%.1f", i ? "/" : "", t90[i]);
	printf(" residency_late=%.4f moved=%lu wasted=%lu",
	       res_n ? res_sum / res_n : 0, moved_total, wasted_total);
	for (i = 0; i < 2 * NR_CLASSES; i++)
		printf(" %s_%s=%lu", i < NR_CLASSES ? "up" : "down",
		       class_name[i % NR_CLASSES],
		       moves[i / NR_CLASSES][i % NR_CLASSES]);
	printf(" misplaced=%lu", moves[0][OLD] + moves[0][INIT] +
	       moves[0][REST] + moves[1][HOT]);
	if (nr_rates) {
		qsort(rates, nr_rates, sizeof(*rates), cmp_double);
		printf(" memcpy_MBps=%.0f", nr_rates % 2 ? rates[nr_rates / 2] :
		       (rates[nr_rates / 2 - 1] + rates[nr_rates / 2]) / 2);
	}
	printf(" data=%s\n", bad ? "LOST" : "ok");
	return bad ? EXIT_CHECK : 0;
}

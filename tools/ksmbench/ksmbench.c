// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbench - KSM on a workload with known duplicates, and what it cost
 * ksmd (bench/ksm.sh).
 *
 * --procs processes map --size MiB in all, MADV_MERGEABLE, and fill it:
 * a --dup share of the pages are copies of --templates templates (as
 * evenly as the count allows, every template at least twice), --zero
 * pages are empty, a --volatile share are rewritten every 10 ms by a
 * thread of the first process, the rest are unique. Pages sit in random
 * order; every page starts with the same --prefix bytes, which makes
 * every compare of two pages read at least that far. --thp maps with
 * MADV_HUGEPAGE (else MADV_NOHUGEPAGE).
 *
 * Expected once KSM converged (use_zero_pages 0, max_page_sharing above
 * the largest copy count, smart_scan 0): pages_shared = templates + 1
 * (the empty pages), pages_sharing = duplicates - templates + zero - 1.
 *
 * It sets batch_size, pages_to_scan and sleep_millisecs (and, if asked,
 * batch_engine and checksum_algo), starts ksmd
 * (run 1), samples the counters every 50 ms until both reach the
 * expected values or --timeout seconds pass, then stops ksmd (run 0,
 * before the counters are read; then run 2, which unmerges) and puts
 * every knob back. It prints one line:
 *   ksmbench key=value ...
 * with the settings, the expected and reached counters, converge_s (the
 * time to reach them), ksmd_cpu_s (ksmd's sum_exec_runtime over that
 * time, from /proc/PID/schedstat), dedup_per_cpu_s (pages_sharing
 * gained per ksmd CPU-second), scanned (pages_scanned), ns_per_page
 * (ksmd CPU per scanned page), helper_cpu_s (the CPU time of the batch
 * engines' threads: ksm_mt workers, the ksm_swaccel device),
 * total_cpu_s and dedup_per_total_cpu_s (ksmd and those threads), and
 * the deltas of the batch counters.
 * Every page is checked at the end: exit 2 if one does not hold what was
 * written to it, 1 if KSM did not converge, else 0.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#define KSM "/sys/kernel/mm/ksm/"
#define PAGE 4096UL

static const char *const knobs[] = {
	"run", "pages_to_scan", "sleep_millisecs", "batch_size",
	"max_page_sharing", "use_zero_pages", "smart_scan", "merge_across_nodes",
};
#define NKNOBS (sizeof(knobs) / sizeof(knobs[0]))

static const char *const stats[] = {
	"pages_scanned", "full_scans", "batches", "batch_pages",
	"batch_deferred", "batch_joined", "batch_serial", "batch_checksums",
	"batch_checksums_offloaded", "batch_engine_errors", "batch_fallbacks",
	"batch_walk_levels", "batch_walk_lookups", "batch_walk_compares",
};
#define NSTATS (sizeof(stats) / sizeof(stats[0]))

static long rd(const char *name)
{
	char path[256], buf[64];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), KSM "%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 10);
	fclose(f);
	return v;
}

/* The bracketed word of a choice such as "[cpu] mt" into @word */
static int rd_choice(const char *name, char *word, size_t len)
{
	char path[256], buf[256], *a, *b;
	FILE *f;

	snprintf(path, sizeof(path), KSM "%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	a = fgets(buf, sizeof(buf), f);
	fclose(f);
	a = a ? strchr(buf, '[') : NULL;
	b = a ? strchr(a, ']') : NULL;
	if (!b || (size_t)(b - a) > len)
		return -1;
	*b = 0;
	snprintf(word, len, "%s", a + 1);
	return 0;
}

static int wr_str(const char *name, const char *v)
{
	char path[256];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), KSM "%s", name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ret = fputs(v, f) < 0 ? -EIO : 0;
	if (fclose(f))
		ret = -errno;
	return ret;
}

static int wr(const char *name, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	return wr_str(name, buf);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The first number of /proc/@pid/schedstat: CPU time in ns, or -1 */
static long long schedstat_ns(const char *pid)
{
	char path[300];
	long long ns = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/schedstat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &ns) != 1)
		ns = -1;
	fclose(f);
	return ns;
}

/* ksmd's CPU time in ns, from /proc/PID/schedstat; -1 if not found */
static long long ksmd_ns(void)
{
	static char pid[256];
	struct dirent *d;
	char path[300], buf[64];
	FILE *f;

	if (!pid[0]) {
		DIR *dir = opendir("/proc");

		while (dir && (d = readdir(dir))) {
			snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(buf, sizeof(buf), f) && !strcmp(buf, "ksmd\n"))
				snprintf(pid, sizeof(pid), "%s", d->d_name);
			fclose(f);
		}
		if (dir)
			closedir(dir);
	}
	return pid[0] ? schedstat_ns(pid) : -1;
}

/*
 * The CPU time of the batch engines' threads, in ns: the ksm_mt/N
 * workers and the ksm_swaccel device. A thread made during the run
 * started from 0, so the difference of two sums is the run's share.
 */
static long long helpers_ns(void)
{
	DIR *dir = opendir("/proc");
	long long sum = 0, ns;
	struct dirent *d;
	char path[300], buf[64];
	FILE *f;

	while (dir && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) &&
		    (!strncmp(buf, "ksm_mt/", 7) || !strcmp(buf, "ksm_swaccel\n"))) {
			ns = schedstat_ns(d->d_name);
			if (ns > 0)
				sum += ns;
		}
		fclose(f);
	}
	if (dir)
		closedir(dir);
	return sum;
}

struct opts {
	long size_mb, templates, zero, procs, prefix, batch, scan, sleep_ms;
	const char *engine, *algo;
	double dup, vol, timeout;
	bool thp;
	unsigned int seed;
};

/* Page kinds: a template (>= 0), or one of these */
#define K_ZERO		(-1)
#define K_UNIQUE	(-2)
#define K_VOLATILE	(-3)

static void fill(char *p, long kind, long idx, long prefix, uint64_t gen)
{
	uint64_t *w = (uint64_t *)p;
	size_t i;

	if (kind == K_ZERO) {
		memset(p, 0, PAGE);
		return;
	}
	memset(p, 0x5a, prefix);
	for (i = prefix / 8; i < PAGE / 8; i++)
		w[i] = (kind >= 0 ? (uint64_t)kind : (1ULL << 40) + idx) *
		       0x9e3779b97f4a7c15ULL + i + (gen << 48);
}

static bool check(const char *p, long kind, long idx, long prefix)
{
	static char page[PAGE];

	if (kind == K_VOLATILE)
		return true;	/* rewritten all the time */
	fill(page, kind, idx, prefix, 0);
	return !memcmp(p, page, PAGE);
}

struct proc {
	char *mem;
	long n, first;		/* pages, index of its first page */
	long *kind;
	const struct opts *o;
	atomic_bool stop;
};

static void *volatile_writer(void *arg)
{
	struct proc *p = arg;
	uint64_t gen = 1;
	long i;

	while (!atomic_load(&p->stop)) {
		for (i = 0; i < p->n; i++)
			if (p->kind[p->first + i] == K_VOLATILE)
				fill(p->mem + i * PAGE, K_VOLATILE,
				     p->first + i, p->o->prefix, gen);
		gen++;
		usleep(10000);
	}
	return NULL;
}

/* A worker process: map, fill, tell the parent, wait, check, exit */
static int worker(struct proc *p, int ready, int go)
{
	pthread_t th;
	long i, bad = 0;
	bool vol = false;
	char c = 0;

	p->mem = mmap(NULL, p->n * PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p->mem == MAP_FAILED)
		return 3;
	madvise(p->mem, p->n * PAGE, p->o->thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	if (madvise(p->mem, p->n * PAGE, MADV_MERGEABLE))
		return 3;
	for (i = 0; i < p->n; i++) {
		fill(p->mem + i * PAGE, p->kind[p->first + i], p->first + i,
		     p->o->prefix, 0);
		vol |= p->kind[p->first + i] == K_VOLATILE;
	}
	if (vol && pthread_create(&th, NULL, volatile_writer, p))
		return 3;
	if (write(ready, &c, 1) != 1)
		return 3;
	while (read(go, &c, 1) > 0)
		;
	if (vol) {
		atomic_store(&p->stop, true);
		pthread_join(th, NULL);
	}
	for (i = 0; i < p->n; i++)
		bad += !check(p->mem + i * PAGE, p->kind[p->first + i],
			      p->first + i, p->o->prefix);
	if (bad)
		fprintf(stderr, "ksmbench: %ld pages wrong in a worker\n", bad);
	return bad ? 2 : 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ksmbench [--size MiB] [--dup F] [--templates K] [--zero N]\n"
		"  [--volatile F] [--prefix BYTES] [--procs N] [--thp] [--batch N]\n"
		"  [--pages-to-scan N] [--sleep-ms N] [--timeout S] [--seed N]\n"
		"  [--engine NAME] [--algo xxhash|crc32c]\n");
	exit(4);
}

int main(int argc, char **argv)
{
	struct opts o = { .size_mb = 64, .templates = 256, .zero = 64,
			  .procs = 1, .batch = 1, .scan = 1024, .dup = 0.5,
			  .timeout = 300, .seed = 1 };
	static const struct option lo[] = {
		{ "size", 1, 0, 's' }, { "dup", 1, 0, 'd' },
		{ "templates", 1, 0, 'k' }, { "zero", 1, 0, 'z' },
		{ "volatile", 1, 0, 'v' }, { "prefix", 1, 0, 'x' },
		{ "procs", 1, 0, 'n' }, { "thp", 0, 0, 'H' },
		{ "batch", 1, 0, 'b' }, { "pages-to-scan", 1, 0, 'p' },
		{ "sleep-ms", 1, 0, 'm' }, { "timeout", 1, 0, 't' },
		{ "seed", 1, 0, 'r' }, { "engine", 1, 0, 'e' },
		{ "algo", 1, 0, 'a' }, { 0 }
	};
	long saved[NKNOBS], before[NSTATS], after[NSTATS];
	long total, ndup, nvol, i, j, per, want_shared, want_sharing;
	long shared = 0, sharing = 0, sharing0;
	long long cpu0, cpu1, h0, h1;
	char engine0[32] = "", algo0[32] = "", engine[32] = "-", algo[32] = "-";
	double t0, t1 = 0;
	int c, ready[2], go[2], rc = 0, status;
	struct proc *procs;
	long *kind;
	pid_t *pids;
	bool ok = false;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 's': o.size_mb = atol(optarg); break;
		case 'd': o.dup = atof(optarg); break;
		case 'k': o.templates = atol(optarg); break;
		case 'z': o.zero = atol(optarg); break;
		case 'v': o.vol = atof(optarg); break;
		case 'x': o.prefix = atol(optarg); break;
		case 'n': o.procs = atol(optarg); break;
		case 'H': o.thp = true; break;
		case 'b': o.batch = atol(optarg); break;
		case 'p': o.scan = atol(optarg); break;
		case 'm': o.sleep_ms = atol(optarg); break;
		case 't': o.timeout = atof(optarg); break;
		case 'r': o.seed = atoi(optarg); break;
		case 'e': o.engine = optarg; break;
		case 'a': o.algo = optarg; break;
		default: usage();
		}
	}
	total = o.size_mb * (1L << 20) / PAGE;
	ndup = (long)(total * o.dup);
	nvol = (long)(total * o.vol);
	if (o.templates < 1 || ndup < 2 * o.templates || o.zero < 2 ||
	    o.procs < 1 || o.prefix < 0 || o.prefix > 4000 || o.prefix % 8 ||
	    ndup + o.zero + nvol > total) {
		fprintf(stderr, "ksmbench: inconsistent sizes\n");
		usage();
	}
	if (access(KSM "run", W_OK)) {
		fprintf(stderr, "ksmbench: no KSM\n");
		return 4;
	}

	/* What every page holds, shuffled */
	kind = calloc(total, sizeof(*kind));
	for (i = 0; i < total; i++)
		kind[i] = i < ndup ? i % o.templates :
			  i < ndup + o.zero ? K_ZERO :
			  i < ndup + o.zero + nvol ? K_VOLATILE : K_UNIQUE;
	srand(o.seed);
	for (i = total - 1; i > 0; i--) {
		long t;

		j = ((long)rand() * RAND_MAX + rand()) % (i + 1);
		t = kind[i], kind[i] = kind[j], kind[j] = t;
	}
	want_shared = o.templates + 1;
	want_sharing = ndup - o.templates + o.zero - 1;

	for (i = 0; i < (long)NKNOBS; i++)
		saved[i] = rd(knobs[i]);
	if (wr("run", 2) || wr("max_page_sharing", ndup + 1) ||
	    wr("use_zero_pages", 0) || wr("pages_to_scan", o.scan) ||
	    wr("sleep_millisecs", o.sleep_ms) ||
	    (o.batch != 1 && wr("batch_size", o.batch))) {
		fprintf(stderr, "ksmbench: cannot set the KSM knobs\n");
		rc = 4;
		goto restore;
	}
	wr("smart_scan", 0);
	rd_choice("batch_engine", engine0, sizeof(engine0));
	rd_choice("checksum_algo", algo0, sizeof(algo0));
	if ((o.engine && wr_str("batch_engine", o.engine)) ||
	    (o.algo && wr_str("checksum_algo", o.algo))) {
		fprintf(stderr, "ksmbench: cannot select engine %s, algorithm %s\n",
			o.engine ?: "-", o.algo ?: "-");
		rc = 4;
		goto restore;
	}
	rd_choice("batch_engine", engine, sizeof(engine));
	rd_choice("checksum_algo", algo, sizeof(algo));

	/* The workers */
	if (pipe(ready) || pipe(go))
		return 4;
	procs = calloc(o.procs, sizeof(*procs));
	pids = calloc(o.procs, sizeof(*pids));
	per = total / o.procs;
	for (i = 0; i < o.procs; i++) {
		procs[i].first = i * per;
		procs[i].n = i == o.procs - 1 ? total - i * per : per;
		procs[i].kind = kind;
		procs[i].o = &o;
		pids[i] = fork();
		if (!pids[i]) {
			close(ready[0]);
			close(go[1]);
			_exit(worker(&procs[i], ready[1], go[0]));
		}
	}
	close(ready[1]);
	close(go[0]);
	for (i = 0; i < o.procs; i++)
		if (read(ready[0], &c, 1) != 1) {
			fprintf(stderr, "ksmbench: a worker failed to start\n");
			rc = 4;
			goto reap;
		}

	for (i = 0; i < (long)NSTATS; i++)
		before[i] = rd(stats[i]);
	sharing0 = rd("pages_sharing");
	cpu0 = ksmd_ns();
	h0 = helpers_ns();
	t0 = now();
	wr("run", 1);
	while (now() - t0 < o.timeout) {
		shared = rd("pages_shared");
		sharing = rd("pages_sharing");
		if (shared == want_shared && sharing == want_sharing) {
			ok = true;
			break;
		}
		usleep(50000);
	}
	t1 = now();
	cpu1 = ksmd_ns();
	h1 = helpers_ns();
	/* Stopped, so that the counters read together hold still */
	wr("run", 0);
	for (i = 0; i < (long)NSTATS; i++)
		after[i] = rd(stats[i]);

	printf("ksmbench size_mb=%ld procs=%ld dup=%.2f templates=%ld zero=%ld volatile=%.2f prefix=%ld thp=%d batch=%ld pages_to_scan=%ld sleep_ms=%ld",
	       o.size_mb, o.procs, o.dup, o.templates, o.zero, o.vol, o.prefix,
	       o.thp, o.batch, o.scan, o.sleep_ms);
	printf(" engine=%s algo=%s", engine, algo);
	printf(" want_shared=%ld want_sharing=%ld shared=%ld sharing=%ld converged=%d converge_s=%.3f",
	       want_shared, want_sharing, shared, sharing, ok, t1 - t0);
	if (cpu0 >= 0 && cpu1 > cpu0) {
		double cpu = (cpu1 - cpu0) / 1e9;
		long scanned = after[0] - before[0];

		double help = (h1 - h0) / 1e9;

		printf(" ksmd_cpu_s=%.3f dedup_per_cpu_s=%.0f scanned=%ld ns_per_page=%.0f",
		       cpu, (sharing - sharing0) / cpu, scanned,
		       scanned > 0 ? (cpu1 - cpu0) / (double)scanned : 0.0);
		printf(" helper_cpu_s=%.3f total_cpu_s=%.3f dedup_per_total_cpu_s=%.0f",
		       help, cpu + help, (sharing - sharing0) / (cpu + help));
	} else {
		printf(" ksmd_cpu_s=- dedup_per_cpu_s=- scanned=%ld ns_per_page=-",
		       after[0] - before[0]);
		printf(" helper_cpu_s=- total_cpu_s=- dedup_per_total_cpu_s=-");
	}
	for (i = 1; i < (long)NSTATS; i++)
		printf(" %s=%ld", stats[i], before[i] < 0 ? -1 : after[i] - before[i]);
	printf("\n");
	fflush(stdout);
	if (!ok)
		rc = 1;

reap:
	close(go[1]);
	for (i = 0; i < o.procs; i++) {
		if (waitpid(pids[i], &status, 0) < 0)
			continue;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "ksmbench: worker %ld: %s %d\n", i,
				WIFEXITED(status) ? "exit" : "signal",
				WIFEXITED(status) ? WEXITSTATUS(status) :
				WTERMSIG(status));
			rc = 2;
		}
	}
restore:
	wr("run", 2);
	if (o.algo && algo0[0])
		wr_str("checksum_algo", algo0);
	if (o.engine && engine0[0])
		wr_str("batch_engine", engine0);
	for (i = NKNOBS - 1; i >= 0; i--)
		if (saved[i] >= 0)
			wr(knobs[i], saved[i]);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tlbskew: a diagnostic for the mtcopy slow state under QEMU TCG (issue 12),
 * not part of the series.
 *
 * QEMU's software TLB is direct-mapped and indexed by virtual page number.
 * Two buddy-allocated 2 MB blocks are 2 MB aligned in the direct map, so
 * when a vCPU's TLB has 512 entries or fewer, source page i and destination
 * page i share a slot and a page-by-page copy evicts its own entries on
 * every load/store alternation. Skewing the destination by one page puts
 * them in different slots. This module times both copies on a chosen CPU,
 * from a kworker bound to that CPU as mtcopy's helpers are:
 *
 *   echo CPU > /sys/kernel/debug/tlbskew/run; cat /sys/kernel/debug/tlbskew/run
 *
 * prints "cpu C aligned_ns A skewed_ns S src_pfn P dst_pfn Q" (medians of
 * 9 copies of 1 MB, copy_mc_highpage() page by page, as mtcopy copies).
 *
 *   echo CPU > /sys/kernel/debug/tlbskew/sweep; cat /sys/kernel/debug/tlbskew/sweep
 *
 * varies only the distance: from TLBSKEW_BLOCKS 2 MB blocks of the CPU's
 * node it picks, for each power of two 2^k pages (k = 9..TLBSKEW_TOP), a
 * source and a destination block whose page numbers differ by an odd
 * multiple of 2^k (the last class: any multiple), and prints one line per
 * distance class with the medians of aligned and skewed 1 MB copies, the
 * classes interleaved round by round. A direct-mapped TLB of 2^n entries
 * makes exactly the classes k >= n slow.
 */
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sort.h>
#include <linux/workqueue.h>

#define TLBSKEW_ORDER	9
#define TLBSKEW_PAGES	256	/* 1 MB: one mtcopy share of a 2 MB folio */
#define TLBSKEW_ROUNDS	9

#define TLBSKEW_BLOCKS	64	/* 128 MB of 2 MB blocks for the sweep */
#define TLBSKEW_TOP	14	/* classes 2^9 .. 2^14 pages */
#define TLBSKEW_CLASSES	(TLBSKEW_TOP - TLBSKEW_ORDER + 1)

static struct dentry *tlbskew_dir;
static DEFINE_MUTEX(tlbskew_lock);
static char tlbskew_result[160];
static char tlbskew_sweep_result[TLBSKEW_CLASSES * 120 + 64];

struct tlbskew_run {
	struct page *src, *dst;
	u64 aligned[TLBSKEW_ROUNDS], skewed[TLBSKEW_ROUNDS];
};

static u64 tlbskew_copy(struct page *dst, struct page *src)
{
	u64 t = ktime_get_ns();
	int i;

	for (i = 0; i < TLBSKEW_PAGES; i++)
		copy_mc_highpage(dst + i, src + i);
	return ktime_get_ns() - t;
}

static long tlbskew_fn(void *arg)
{
	struct tlbskew_run *r = arg;
	int i;

	for (i = 0; i < TLBSKEW_ROUNDS; i++) {
		r->aligned[i] = tlbskew_copy(r->dst, r->src);
		r->skewed[i] = tlbskew_copy(r->dst + 1, r->src);
	}
	return 0;
}

static int tlbskew_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 tlbskew_median(u64 *v)
{
	sort(v, TLBSKEW_ROUNDS, sizeof(*v), tlbskew_cmp, NULL);
	return v[TLBSKEW_ROUNDS / 2];
}

/* The online CPU written to a debugfs file */
static int tlbskew_cpu(const char __user *buf, size_t count, unsigned int *cpu)
{
	int ret = kstrtouint_from_user(buf, count, 0, cpu);

	if (ret)
		return ret;
	return *cpu < nr_cpu_ids && cpu_online(*cpu) ? 0 : -EINVAL;
}

/* Read @text, a result, under the lock that its writer holds */
static ssize_t tlbskew_show(char __user *buf, size_t count, loff_t *ppos,
			    const char *text)
{
	ssize_t ret;

	mutex_lock(&tlbskew_lock);
	ret = simple_read_from_buffer(buf, count, ppos, text, strlen(text));
	mutex_unlock(&tlbskew_lock);
	return ret;
}

static ssize_t tlbskew_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	struct tlbskew_run *r;
	unsigned int cpu;
	int ret;

	ret = tlbskew_cpu(buf, count, &cpu);
	if (ret)
		return ret;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->src = alloc_pages_node(cpu_to_node(cpu), GFP_KERNEL, TLBSKEW_ORDER);
	r->dst = alloc_pages_node(cpu_to_node(cpu), GFP_KERNEL, TLBSKEW_ORDER);
	ret = -ENOMEM;
	if (r->src && r->dst) {
		work_on_cpu(cpu, tlbskew_fn, r);
		mutex_lock(&tlbskew_lock);
		snprintf(tlbskew_result, sizeof(tlbskew_result),
			 "cpu %u aligned_ns %llu skewed_ns %llu src_pfn %#lx dst_pfn %#lx\n",
			 cpu, tlbskew_median(r->aligned),
			 tlbskew_median(r->skewed), page_to_pfn(r->src),
			 page_to_pfn(r->dst));
		mutex_unlock(&tlbskew_lock);
		ret = count;
	}
	if (r->src)
		__free_pages(r->src, TLBSKEW_ORDER);
	if (r->dst)
		__free_pages(r->dst, TLBSKEW_ORDER);
	kfree(r);
	return ret;
}

static ssize_t tlbskew_read(struct file *file, char __user *buf, size_t count,
			    loff_t *ppos)
{
	return tlbskew_show(buf, count, ppos, tlbskew_result);
}

struct tlbskew_sweep {
	struct page *blk[TLBSKEW_BLOCKS];
	struct page *src[TLBSKEW_CLASSES], *dst[TLBSKEW_CLASSES];
	u64 aligned[TLBSKEW_CLASSES][TLBSKEW_ROUNDS];
	u64 skewed[TLBSKEW_CLASSES][TLBSKEW_ROUNDS];
};

static long tlbskew_sweep_fn(void *arg)
{
	struct tlbskew_sweep *w = arg;
	int i, c;

	for (i = 0; i < TLBSKEW_ROUNDS; i++) {
		for (c = 0; c < TLBSKEW_CLASSES; c++) {
			if (!w->src[c])
				continue;
			w->aligned[c][i] = tlbskew_copy(w->dst[c], w->src[c]);
			w->skewed[c][i] = tlbskew_copy(w->dst[c] + 1, w->src[c]);
		}
	}
	return 0;
}

/* Class of distance @d (pages, a multiple of 2^TLBSKEW_ORDER) */
static int tlbskew_class(unsigned long d)
{
	int k = __ffs(d);

	return min(k, TLBSKEW_TOP) - TLBSKEW_ORDER;
}

static ssize_t tlbskew_sweep_write(struct file *file, const char __user *buf,
				   size_t count, loff_t *ppos)
{
	struct tlbskew_sweep *w;
	unsigned long ps, pd;
	unsigned int cpu;
	size_t len = 0;
	int ret, i, j, c;

	ret = tlbskew_cpu(buf, count, &cpu);
	if (ret)
		return ret;
	w = kvzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	for (i = 0; i < TLBSKEW_BLOCKS; i++)
		w->blk[i] = alloc_pages_node(cpu_to_node(cpu), GFP_KERNEL |
					     __GFP_THISNODE | __GFP_NOWARN,
					     TLBSKEW_ORDER);
	/* The first pair found of each class */
	for (i = 0; i < TLBSKEW_BLOCKS; i++) {
		for (j = 0; j < TLBSKEW_BLOCKS && w->blk[i]; j++) {
			if (!w->blk[j])
				continue;
			ps = page_to_pfn(w->blk[i]);
			pd = page_to_pfn(w->blk[j]);
			if (pd <= ps)
				continue;
			c = tlbskew_class(pd - ps);
			if (!w->src[c]) {
				w->src[c] = w->blk[i];
				w->dst[c] = w->blk[j];
			}
		}
	}
	work_on_cpu(cpu, tlbskew_sweep_fn, w);
	mutex_lock(&tlbskew_lock);
	for (c = 0; c < TLBSKEW_CLASSES; c++) {
		if (!w->src[c]) {
			len += scnprintf(tlbskew_sweep_result + len,
					 sizeof(tlbskew_sweep_result) - len,
					 "cpu %u class 2^%d no-pair\n", cpu,
					 c + TLBSKEW_ORDER);
			continue;
		}
		len += scnprintf(tlbskew_sweep_result + len,
				 sizeof(tlbskew_sweep_result) - len,
				 "cpu %u class 2^%d%s distance %lu aligned_ns %llu skewed_ns %llu\n",
				 cpu, c + TLBSKEW_ORDER,
				 c == TLBSKEW_CLASSES - 1 ? "+" : "",
				 page_to_pfn(w->dst[c]) - page_to_pfn(w->src[c]),
				 tlbskew_median(w->aligned[c]),
				 tlbskew_median(w->skewed[c]));
	}
	mutex_unlock(&tlbskew_lock);
	for (i = 0; i < TLBSKEW_BLOCKS; i++)
		if (w->blk[i])
			__free_pages(w->blk[i], TLBSKEW_ORDER);
	kvfree(w);
	return count;
}

static ssize_t tlbskew_sweep_read(struct file *file, char __user *buf,
				  size_t count, loff_t *ppos)
{
	return tlbskew_show(buf, count, ppos, tlbskew_sweep_result);
}

static const struct file_operations tlbskew_sweep_fops = {
	.write = tlbskew_sweep_write,
	.read = tlbskew_sweep_read,
};

static const struct file_operations tlbskew_fops = {
	.write = tlbskew_write,
	.read = tlbskew_read,
};

static int __init tlbskew_init(void)
{
	tlbskew_dir = debugfs_create_dir("tlbskew", NULL);
	debugfs_create_file("run", 0600, tlbskew_dir, NULL, &tlbskew_fops);
	debugfs_create_file("sweep", 0600, tlbskew_dir, NULL,
			    &tlbskew_sweep_fops);
	return 0;
}
module_init(tlbskew_init);

static void __exit tlbskew_exit(void)
{
	debugfs_remove_recursive(tlbskew_dir);
}
module_exit(tlbskew_exit);

MODULE_DESCRIPTION("Aligned against skewed page copies on one CPU (TCG TLB diagnostic)");
MODULE_LICENSE("GPL");

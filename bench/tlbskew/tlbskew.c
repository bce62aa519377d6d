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

static struct dentry *tlbskew_dir;
static DEFINE_MUTEX(tlbskew_lock);
static char tlbskew_result[160];

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

static ssize_t tlbskew_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	struct tlbskew_run *r;
	unsigned int cpu;
	int ret;

	ret = kstrtouint_from_user(buf, count, 0, &cpu);
	if (ret)
		return ret;
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
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
	ssize_t ret;

	mutex_lock(&tlbskew_lock);
	ret = simple_read_from_buffer(buf, count, ppos, tlbskew_result,
				      strlen(tlbskew_result));
	mutex_unlock(&tlbskew_lock);
	return ret;
}

static const struct file_operations tlbskew_fops = {
	.write = tlbskew_write,
	.read = tlbskew_read,
};

static int __init tlbskew_init(void)
{
	tlbskew_dir = debugfs_create_dir("tlbskew", NULL);
	debugfs_create_file("run", 0600, tlbskew_dir, NULL, &tlbskew_fops);
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

# SPDX-License-Identifier: GPL-2.0
# bench/engines.sh's xphases_add: from a trace buffer, the mm_exchange_batch
# events summed per folio size (pages / 2 / pairs exchanged): one CSV line
# ENG,REP,FOLIO_B,BATCHES,PAIRS,UNMAP_NS,FLUSH_NS,FREEZE_NS,SWAP_NS,REMAP_NS.
# Variables: eng, rep, page (the page size). Sums are printed with %.0f:
# mawk's %d stops at 2^31 - 1, 2.1 s of nanoseconds.
/mm_exchange_batch:/ {
	for (i = 1; i <= NF; i++) {
		n = split($i, kv, "=")
		if (n == 2) v[kv[1]] = kv[2]
	}
	if (v["exchanged"] == 0) next
	fs = v["pages"] / 2 / v["exchanged"] * page
	b[fs]++; p[fs] += v["exchanged"]
	u[fs] += v["unmap_ns"]; f[fs] += v["flush_ns"]
	z[fs] += v["freeze_ns"]; s[fs] += v["swap_ns"]
	r[fs] += v["remap_ns"]
}
END {
	for (fs in b)
		printf "%s,%s,%d,%d,%d,%.0f,%.0f,%.0f,%.0f,%.0f\n", eng, rep, fs,
		       b[fs], p[fs], u[fs], f[fs], z[fs], s[fs], r[fs]
}

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Which folios the batch copy may take ahead of their move (see
# migrate_folio_copy_ahead() and the admin guide): page cache of a block
# device (buffer_migrate_folio_norefs: buffer heads written without the
# folio lock) must move without ever reaching the engine, while tmpfs
# (migrate_folio) pages, the control, do reach it. Pages are mapped from
# the file and moved to the other node with move_pages(2) under mtcopy,
# only the syscall reason offloaded; stats/folios counts what the engine
# copied.
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/engines.sh"
set -u
ktap_plan 4

# move.py PATH BYTES: map PATH shared, fault every page in, move every page
# to the node the first one is not on; prints "moved N of M".
cat >/tmp/move.py <<'PY'
import ctypes, mmap, os, sys
path, size = sys.argv[1], int(sys.argv[2])
fd = os.open(path, os.O_RDWR)
m = mmap.mmap(fd, size, mmap.MAP_SHARED)
ps = mmap.PAGESIZE
n = size // ps
s = sum(m[i * ps] for i in range(n))  # fault every page in
base = ctypes.addressof(ctypes.c_char.from_buffer(m))
numa = ctypes.CDLL("libnuma.so.1", use_errno=True)
numa.move_pages.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.POINTER(ctypes.c_void_p),
                            ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int), ctypes.c_int]
pages = (ctypes.c_void_p * n)(*[base + i * ps for i in range(n)])
status = (ctypes.c_int * n)()
numa.move_pages(0, n, pages, None, status, 0)
target = 1 - status[0] if status[0] in (0, 1) else 1
nodes = (ctypes.c_int * n)(*([target] * n))
rc = numa.move_pages(0, n, pages, nodes, status, 2)  # MPOL_MF_MOVE
print(f"moved {sum(1 for x in status if x == target)} of {n} (rc {rc}, node {target})")
PY

restore $MO/batch_min $MO/engine $MO/reasons
require "select mtcopy" mo_select mtcopy-2
echo syscall >$MO/reasons
# check NAME PATH EXPECT: EXPECT "engine" or "cpu"
check() {
	local name=$1 path=$2 expect=$3 f out moved
	snap mo:folios
	out=$(python3 /tmp/move.py "$path" $((4 << 20)) 2>&1)
	f=$(since mo:folios)
	echo "$name: $out; engine folios +$f" | ktap_diag
	moved=$(echo "$out" | sed -n 's/^moved \([0-9]*\) of.*/\1/p')
	ktap_check "$name: pages moved" test "${moved:-0}" -ge 512
	if [ "$expect" = engine ]; then
		ktap_check "$name: copied by the engine ahead of the move" test "$f" -ge 512
	else
		ktap_check "$name: never given to the engine" test "$f" = 0
	fi
}
mkdir -p /tmp/elig
mountpoint -q /tmp/elig || mount -t tmpfs none /tmp/elig
at_exit umount /tmp/elig
dd if=/dev/urandom of=/tmp/elig/shm bs=1M count=4 status=none
check "tmpfs (migrate_folio)" /tmp/elig/shm engine
dd if=/dev/urandom of=/tmp/elig/disk bs=1M count=4 status=none
loop=$(losetup -f --show /tmp/elig/disk)
at_exit losetup -d "$loop"
check "block device page cache (buffer_migrate_folio_norefs)" "$loop" cpu
ktap_finished

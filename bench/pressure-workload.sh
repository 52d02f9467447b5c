#!/bin/sh
# A few minutes of memory pressure for recordings and benchmarks: a kernel-
# build-like load of many short compiler runs, a large file written and read
# back (page cache, dirty pages, writeback), memory hogs that take most of
# what is available (kswapd, direct reclaim, compaction, THP) and stress-ng
# --vm workers that keep rewriting theirs (--vm-keep), with a task held in D
# through vfork. Marks go to every running pagetop. Phases scale with
# SECONDS (the file is 40 MB a second of it, at most 6 GB).
#   bench/pressure-workload.sh [SECONDS]      (default 150)
set -u
cd "$(dirname "$0")/.."
secs=${1:-150}
command -v stress-ng >/dev/null || apt-get install -y -qq stress-ng >/dev/null 2>&1
[ -x tests/vfork-helper ] || make -s tests/vfork-helper >/dev/null 2>&1
big_mb=$((secs * 40 > 6000 ? 6000 : secs * 40))
work=$(mktemp -d /var/tmp/pagetop-load.XXXXXX)
# Only our own jobs: "kill 0" would take the caller's process group with us.
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT INT TERM
mark() { ./pagetop mark "$*" 2>/dev/null || true; }
end=$(( $(date +%s) + secs ))

# Many short compiler-like processes, as make -j does.
build() {
	i=0
	while [ "$(date +%s)" -lt "$end" ]; do
		for f in src/*/*.c; do
			cc -std=c11 -D_GNU_SOURCE -O2 -Isrc -I. -c "$f" -o "$work/$i.o" 2>/dev/null &
			i=$((i + 1))
			[ $((i % 8)) = 0 ] && wait
		done
		wait
	done
}

# Take most of MemAvailable, touch it, hold it, let go; THP-eligible.
hog() {
	python3 - "$1" <<'PY'
import mmap, sys, time
avail = int([l.split()[1] for l in open('/proc/meminfo') if l.startswith('MemAvailable')][0]) * 1024
size = max(avail - (1536 << 20), 256 << 20)
m = mmap.mmap(-1, size)
try:
    m.madvise(mmap.MADV_HUGEPAGE)
except Exception:
    pass
for off in range(0, size, 4096):
    m[off] = 1
time.sleep(float(sys.argv[1]))
PY
}

# stress-ng --vm workers, one per CPU, together taking MemAvailable less
# 2 GB, each rewriting its own mapping in place (--vm-keep: no unmapping).
vm_stress() {
	n=$(nproc)
	kb=$(awk -v n="$n" '/^MemAvailable:/ { k = ($2 - 2097152) / n; print (k < 262144 ? 262144 : int(k)) }' /proc/meminfo)
	stress-ng --vm "$n" --vm-bytes "${kb}k" --vm-keep --timeout "${1}s" -q >/dev/null 2>&1
}

mark "workload: build starts"
build &
sleep 10
mark "workload: writing a large file"
dd if=/dev/zero of="$work/big" bs=1M count="$big_mb" conv=fsync 2>/dev/null
mark "workload: reading it back"
cat "$work/big" > /dev/null
mark "workload: memory hog"
hog $((secs / 10 + 1))
mark "workload: stress-ng --vm --vm-keep"
vm_stress $((secs / 8 + 1))
./tests/vfork-helper 12 >/dev/null 2>&1 &
mark "workload: second hog with the page cache full"
cat "$work/big" > /dev/null
hog $((secs / 15 + 1))
rm -f "$work/big"
while [ "$(date +%s)" -lt "$end" ]; do sleep 1; done
mark "workload: done"
wait

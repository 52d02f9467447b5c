#!/bin/sh
# pagetop compare on two day-long recordings (86,400 samples at 1 s each,
# made by bench/replay-bench.c from this machine's samples), with 4 tasks
# in D at every sample (as bench/report.sh's second file). Target (#16):
# under 1 s. Also the peak RSS (ru_maxrss): it must not grow with the day.
#   bench/compare.sh [A B]     (two files of your own instead)
# SAMPLES=N makes shorter files, to check the script.
set -eu
cd "$(dirname "$0")/.."
[ -x pagetop ] && [ -f libpagetop.a ] || { echo "bench: build first (./bootstrap && make)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
result() { [ -z "${BENCH_RESULTS:-}" ] || echo "$1 $2" >> "$BENCH_RESULTS"; }

# time_compare NAME A B [KEY]: the best of 5 runs.
time_compare() {
	: > "$tmp/times"
	for run in 1 2 3 4 5; do
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" ./pagetop compare "$2" "$3" \
			> "$tmp/compare.txt" 2>/dev/null
		cat "$tmp/time" >> "$tmp/times"
	done
	awk -v name="$1" 'NR == 1 || $1 < m { m = $1; cpu = $2 + $3 } $4 > r { r = $4 }
		END { printf "%-40s %6.2f s (CPU %.2f s, peak RSS %.2f MB)\n", name, m, cpu, r / 1024 }' \
		"$tmp/times"
	if [ -n "${4:-}" ]; then
		result "compare.$4" "$(awk 'NR == 1 || $1 < m { m = $1 } END { print m }' "$tmp/times")"
		result "rss.compare.$4" "$(awk '$4 > r { r = $4 } END { printf "%.2f\n", r / 1024 }' "$tmp/times")"
	fi
	awk -v name="$1" '{ if (length > m) m = length } END {
		printf "%-40s %6d\n", "  its longest line", m }' "$tmp/compare.txt"
}

if [ $# -eq 2 ]; then
	time_compare "pagetop compare $1 $2, best of 5" "$1" "$2"
	exit
fi
cc -std=c11 -D_GNU_SOURCE -O2 -DBLOCKED_TASKS=4 -Isrc -I. bench/replay-bench.c libpagetop.a \
	$(pkg-config --libs libzstd) -lm -pthread -o "$tmp/replay-bench"
"$tmp/replay-bench" "$tmp/a.ptrec" ${SAMPLES:-} > /dev/null
"$tmp/replay-bench" "$tmp/b.ptrec" ${SAMPLES:-} > /dev/null
time_compare "compare, two days, 4 tasks in D: best of 5" "$tmp/a.ptrec" "$tmp/b.ptrec" days

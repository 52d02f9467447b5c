#!/bin/sh
# pagetop report on day-long recordings (86,400 samples at 1 s, made by
# bench/replay-bench.c from this machine's samples): one without a task
# scan, one with 4 tasks in D at every sample (a new task every 7 to 46 s).
# Target: under 1 s each. Also the peak RSS of each run (ru_maxrss).
#   bench/report.sh [FILE]     (a FILE of your own instead of the two)
set -eu
cd "$(dirname "$0")/.."
[ -x pagetop ] && [ -f libpagetop.a ] || { echo "bench: build first (./bootstrap && make)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
result() { [ -z "${BENCH_RESULTS:-}" ] || echo "$1 $2" >> "$BENCH_RESULTS"; }

synthesize() {	# synthesize FILE BLOCKED_TASKS
	cc -std=c11 -D_GNU_SOURCE -O2 -DBLOCKED_TASKS=$2 -Isrc -I. bench/replay-bench.c libpagetop.a \
		$(pkg-config --libs libzstd) -lm -pthread -o "$tmp/replay-bench"
	"$tmp/replay-bench" "$1" > /dev/null
}

# time_report NAME FILE [KEY]: the best of 5 runs.
time_report() {
	: > "$tmp/times"
	for run in 1 2 3 4 5; do
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" ./pagetop report "$2" > "$tmp/report.txt"
		cat "$tmp/time" >> "$tmp/times"
	done
	samples=$(./pagetop dump "$2" --info | sed -n 's/^\([0-9]*\) samples$/\1/p')
	awk -v name="$1" -v n="$samples" 'NR == 1 || $1 < m { m = $1; cpu = $2 + $3 } $4 > r { r = $4 }
		END { printf "%-40s %6.2f s (CPU %.2f s, %d samples, peak RSS %.2f MB)\n", name, m, cpu, n, r / 1024 }' "$tmp/times"
	if [ -n "${3:-}" ]; then
		result "report.$3" "$(awk 'NR == 1 || $1 < m { m = $1 } END { print m }' "$tmp/times")"
		result "rss.report.$3" "$(awk '$4 > r { r = $4 } END { printf "%.2f\n", r / 1024 }' "$tmp/times")"
	fi
	awk -v name="$1" '{ if (length > m) m = length } END {
		printf "%-40s %6d\n", "  its longest line", m }' "$tmp/report.txt"
}

if [ $# -gt 0 ]; then
	time_report "pagetop report $1, best of 5" "$1"
	exit
fi
synthesize "$tmp/day.ptrec" 0
synthesize "$tmp/day-tasks.ptrec" 4
time_report "a day, no task scan: best of 5" "$tmp/day.ptrec" day
time_report "a day, 4 tasks in D throughout: best of 5" "$tmp/day-tasks.ptrec" tasks

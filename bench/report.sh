#!/bin/sh
# pagetop report and pagetop export (CSV and JSON) on day-long recordings
# (86,400 samples at 1 s, made by bench/replay-bench.c from this machine's
# samples): one without a task scan, one with 4 tasks in D at every sample
# (a new task every 7 to 46 s). Target (#16): at most 0.3 s each. Also the
# peak RSS of each run (ru_maxrss).
#   bench/report.sh [FILE]     (a FILE of your own instead of the two)
#   BENCH_SAMPLES=3600 bench/report.sh   (a shorter day, to try the script)
set -eu
cd "$(dirname "$0")/.."
[ -x pagetop ] && [ -f libpagetop.a ] || { echo "bench: build first (./bootstrap && make)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
result() { [ -z "${BENCH_RESULTS:-}" ] || echo "$1 $2" >> "$BENCH_RESULTS"; }

synthesize() {	# synthesize FILE BLOCKED_TASKS
	cc -std=c11 -D_GNU_SOURCE -O2 -DBLOCKED_TASKS=$2 -Isrc -I. bench/replay-bench.c libpagetop.a \
		$(pkg-config --libs libzstd) -lm -pthread -o "$tmp/replay-bench"
	"$tmp/replay-bench" "$1" ${BENCH_SAMPLES:-86400} > /dev/null
}

# time_report NAME FILE [KEY [COMMAND...]]: the best of 5 runs of COMMAND
# (report) on FILE.
time_report() {
	name=$1 file=$2 key=${3:-}
	shift 2; [ $# -gt 0 ] && shift
	[ $# -gt 0 ] || set -- report
	cmd=$1
	shift
	: > "$tmp/times"
	for run in 1 2 3 4 5; do
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" ./pagetop "$cmd" "$file" "$@" > "$tmp/report.txt"
		cat "$tmp/time" >> "$tmp/times"
	done
	set -- "$name" "$file" "$key" "$cmd"
	samples=$(./pagetop dump "$2" --info | sed -n 's/^\([0-9]*\) samples$/\1/p')
	awk -v name="$1" -v n="$samples" 'NR == 1 || $1 < m { m = $1; cpu = $2 + $3 } $4 > r { r = $4 }
		END { printf "%-40s %6.2f s (CPU %.2f s, %d samples, peak RSS %.2f MB)\n", name, m, cpu, n, r / 1024 }' "$tmp/times"
	if [ -n "${3:-}" ]; then
		case $3 in export*) k=$3 ;; *) k=report.$3 ;; esac
		result "$k" "$(awk 'NR == 1 || $1 < m { m = $1 } END { print m }' "$tmp/times")"
		result "rss.$k" "$(awk '$4 > r { r = $4 } END { printf "%.2f\n", r / 1024 }' "$tmp/times")"
	fi
	[ "$4" != report ] || awk -v name="$1" '{ if (length > m) m = length } END {
		printf "%-40s %6d\n", "  its longest line", m }' "$tmp/report.txt"
}

if [ $# -gt 0 ]; then
	time_report "pagetop report $1, best of 5" "$1"
	exit
fi
synthesize "$tmp/day.ptrec" 0
synthesize "$tmp/day-tasks.ptrec" 4
time_report "report, a day, no task scan: best of 5" "$tmp/day.ptrec" day
time_report "report, a day, 4 tasks in D: best of 5" "$tmp/day-tasks.ptrec" tasks
for f in csv json; do
	time_report "export $f, a day, no task scan" "$tmp/day.ptrec" export.$f.day export --format $f
	time_report "export $f, a day, 4 tasks in D" "$tmp/day-tasks.ptrec" export.$f.tasks export --format $f
done

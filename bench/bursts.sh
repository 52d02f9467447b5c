#!/bin/sh
# What bursts cost: two recorders at 1 s side by side under
# bench/pressure-workload.sh, one with bursts (the default trigger, 0.1 s
# while PSI memory or io fires) and one with --no-burst, over the same
# seconds. For each: samples, bytes, bytes a sample, CPU (user+sys, from
# /proc/PID/stat at the end) a tick and a second. Then a burst second's
# cost against a normal one, from the difference of the two runs:
#   normal second   C_off / T                (the --no-burst run)
#   burst second    (C_on - normal x (T - B)) / B, B the seconds spent in
#                   bursts (the intervals under 0.75 s of the bursts run)
# and the same for bytes. As root (a trigger needs write access to
# /proc/pressure/*); without it the bursts run says "bursts off" and the
# figures are those of two plain runs.
#   bench/bursts.sh [SECONDS]     (default 120)
set -u
cd "$(dirname "$0")/.."
secs=${1:-120}
[ -x ./pagetop ] || { echo "bench: build first (./bootstrap && make)" >&2; exit 1; }
tmp=$(mktemp -d /var/tmp/pagetop-bursts.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
# result KEY VALUE: for bench/run's table
result() { [ -z "${BENCH_RESULTS:-}" ] || echo "$1 $2" >> "$BENCH_RESULTS"; }
# CPU seconds (user + system) of a live process.
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.3f\n", ($12 + $13) / hz }' "/proc/$1/stat"; }
long=$((secs * 20))

./pagetop record -o "$tmp/on.ptrec" -d 1 --duration "$long" 2>"$tmp/on.err" &
on=$!
./pagetop record -o "$tmp/off.ptrec" -d 1 --no-burst --duration "$long" 2>"$tmp/off.err" &
off=$!
t0=$(date +%s.%N)
bench/pressure-workload.sh "$((secs - 5))" >/dev/null 2>&1
sleep 5
c_on=$(cpu_s $on); c_off=$(cpu_s $off)
t1=$(date +%s.%N)
kill -INT $on $off
wait
T=$(echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }')
if grep -q "bursts off" "$tmp/on.err"; then
	echo "bench/bursts.sh: $(grep -m1 'bursts off' "$tmp/on.err" | tr -d '\r')"
fi

# Samples, and the seconds and samples inside bursts, from the times.
intervals() {
	./pagetop export "$1" --format csv --source pressure 2>/dev/null |
		awk -F, 'NR > 1 { if (p != "") { d = $1 - p; if (d < 0.75) { b += d; nb++ } } p = $1; n++ }
			END { printf "%d %.1f %d\n", n, b, nb }'
}
set -- $(intervals "$tmp/on.ptrec"); n_on=$1 B=$2 nb=$3
set -- $(intervals "$tmp/off.ptrec"); n_off=$1
s_on=$(stat -c %s "$tmp/on.ptrec"); s_off=$(stat -c %s "$tmp/off.ptrec")

echo "bursts on and off, at 1 s over $T s under bench/pressure-workload.sh $((secs - 5));"
echo "$nb burst samples in $B s of bursts"
printf '%-20s %8s %10s %12s %12s %12s\n' "" samples bytes "bytes/sample" "CPU ms/tick" "CPU ms/s"
row() {
	echo "$2 $3 $4 $T" | awk -v name="$1" '{
		printf "%-20s %8d %10d %12.1f %12.3f %12.3f\n", name, $1, $2, $2 / $1, $3 * 1000 / $1, $3 * 1000 / $4 }'
}
row "bursts on" "$n_on" "$s_on" "$c_on"
row "--no-burst" "$n_off" "$s_off" "$c_off"
echo "$c_on $c_off $s_on $s_off $n_off $T $B $nb" | awk '{
	cn = $2 / $6; bn = $4 / $6; bps = $4 / $5
	if ($7 > 0) {
		cb = ($1 - cn * ($6 - $7)) / $7; bb = ($3 - bn * ($6 - $7)) / $7
		printf "a burst second: %.2f ms CPU (%.1fx a normal second'"'"'s %.2f ms), %.0f bytes (%.1fx %.0f)\n",
			cb * 1000, cb / cn, cn * 1000, bb, bb / bn, bn
		printf "a burst sample: %.0f bytes (a normal one %.0f)\n", ($3 - bps * ($6 - $7)) / $8, bps
	} else
		print "no burst happened: the workload did not make PSI fire the trigger"
	printf "the whole recording: %.2fx the bytes, %.2fx the CPU of --no-burst\n", $3 / $4, $1 / $2
}' | tee "$tmp/summary"
result bursts.secs "$B"
result bursts.size_ratio "$(echo "$s_on $s_off" | awk '{ printf "%.2f", $1 / $2 }')"
result bursts.cpu_ratio "$(echo "$c_on $c_off" | awk '{ printf "%.2f", $1 / $2 }')"
result bursts.bytes_on "$(echo "$s_on $n_on" | awk '{ printf "%.1f", $1 / $2 }')"
result bursts.bytes_off "$(echo "$s_off $n_off" | awk '{ printf "%.1f", $1 / $2 }')"

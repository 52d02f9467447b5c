#!/bin/sh
# Bytes per sample of a recording at 1 s while bench/pressure-workload.sh
# runs, next to atop -w and sadc recording the same seconds, and the peak
# RSS (VmHWM) of each recorder at the end of the run. The recorders start
# together, run until the workload is over (its memory hogs can take longer
# than asked on a VM that hands memory back to its host) and stop together.
# Target: pagetop at most 150 bytes a sample, everything included, and
# record's peak RSS at most 4 MB. The bytes a sample follow how long the
# workload's hogs hold the machine, which a VM varies from run to run, so
# the pagetop of the target's 137 (3ce738d, before issue 8) records the
# same seconds beside today's, built from this checkout's history once
# and kept in /var/tmp (BASELINE=none skips it): the ratio of the two is
# the figure that says whether the recording grew, at most 1.10. Then where pagetop's bytes go
# (bench/recording-split.c), and the bytes and memory of other zstd
# settings on the same samples (bench/zstd-levels.c).
#   bench/recording-size.sh [SECONDS]     (default 150)
#   KEEP=FILE bench/recording-size.sh     keeps pagetop's recording
set -u
cd "$(dirname "$0")/.."
secs=${1:-150}
[ -x ./pagetop ] || { echo "bench: build first (./bootstrap && make)" >&2; exit 1; }
command -v atop >/dev/null || apt-get install -y -qq atop >/dev/null 2>&1
[ -x /usr/lib/sysstat/sadc ] || apt-get install -y -qq sysstat >/dev/null 2>&1
tmp=$(mktemp -d /var/tmp/pagetop-size.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
# result KEY VALUE: for bench/run's table
result() { [ -z "${BENCH_RESULTS:-}" ] || echo "$1 $2" >> "$BENCH_RESULTS"; }
hwm_mb() { awk '/^VmHWM:/ { printf "%.2f\n", $2 / 1024 }' "/proc/$1/status"; }
long=$((secs * 20))

# The baseline's binary, built from git history: its path, or nothing.
base_rev=${BASELINE:-3ce738d}
baseline() {
	[ "$base_rev" != none ] || return 0
	dir=/var/tmp/pagetop-baseline-$base_rev
	if [ ! -x "$dir/pagetop" ]; then
		git cat-file -e "$base_rev^{commit}" 2>/dev/null || return 0
		rm -rf "$dir" && mkdir -p "$dir" &&
			git archive "$base_rev" | tar -x -C "$dir" &&
			(cd "$dir" && ./bootstrap && ./configure -q && make -s -j"$(nproc)" pagetop) \
			>"$dir.log" 2>&1 || { echo "bench: baseline $base_rev did not build: $dir.log" >&2; return 0; }
	fi
	echo "$dir/pagetop"
}
base=$(baseline)

t0=$(date +%s.%N)
./pagetop record -o "$tmp/p.ptrec" -d 1 --duration "$long" 2>/dev/null &
p_pid=$!
./pagetop record --no-probes -o "$tmp/n.ptrec" -d 1 --duration "$long" 2>/dev/null &
n_pid=$!
if [ -n "$base" ]; then
	"$base" record -o "$tmp/b.ptrec" -d 1 --duration "$long" 2>/dev/null &
	b_pid=$!
fi
atop -w "$tmp/a.raw" 1 "$long" >/dev/null 2>&1 &
a_pid=$!
/usr/lib/sysstat/sadc -S XALL 1 "$long" "$tmp/s.sa" >/dev/null 2>&1 &
s_pid=$!
bench/pressure-workload.sh "$((secs - 5))" >/dev/null 2>&1
sleep 5
pr=$(hwm_mb $p_pid); ar=$(hwm_mb $a_pid); sr=$(hwm_mb $s_pid); nr=$(hwm_mb $n_pid)
br=$( [ -z "${b_pid:-}" ] || hwm_mb $b_pid)
kill -INT $p_pid $n_pid ${b_pid:-}; kill $a_pid $s_pid
t1=$(date +%s.%N)
wait
el=$(echo "$t0 $t1" | awk '{ printf "%.0f\n", $2 - $1 }')
[ -n "${KEEP:-}" ] && cp "$tmp/p.ptrec" "$KEEP"

# per_sample FILE: bytes a sample of a recording, everything included
per_sample() {
	k=$(./pagetop dump "$1" --info | sed -n 's/^\([0-9]*\) samples$/\1/p')
	echo "$(stat -c %s "$1") ${k:-0}" | awk '{ print ($2 ? $1 / $2 : 0) }'
}
n=$(./pagetop dump "$tmp/p.ptrec" --info | sed -n 's/^\([0-9]*\) samples$/\1/p')
p=$(stat -c %s "$tmp/p.ptrec")
nb=$(per_sample "$tmp/n.ptrec")
a=$(stat -c %s "$tmp/a.raw" 2>/dev/null || echo 0)
s=$(stat -c %s "$tmp/s.sa" 2>/dev/null || echo 0)
pb=$(echo "$p $n" | awk '{ print $1 / $2 }')
ab=$(echo "$a $el" | awk '{ print $1 / $2 }')
sb=$(echo "$s $el" | awk '{ print $1 / $2 }')
echo "recording size over $el s at 1 s under bench/pressure-workload.sh $((secs - 5)) ($n pagetop samples)"
printf '%-22s %12s %14s %10s %14s\n' "" bytes "bytes/sample" "vs pagetop" "peak RSS (MB)"
printf '%-22s %12d %14.1f %10s %14.2f\n' "pagetop record" "$p" "$pb" 1.00 "$pr"
printf '%-22s %12d %14.1f %10.2f %14.2f\n' "pagetop --no-probes" "$(stat -c %s "$tmp/n.ptrec")" \
	"$nb" "$(echo "$nb $pb" | awk '{ print $1 / $2 }')" "$nr"
printf '%-22s %12d %14.1f %10.2f %14.2f\n' "atop -w" "$a" "$ab" \
	"$(echo "$a $p" | awk '{ print ($2 ? $1 / $2 : 0) }')" "$ar"
printf '%-22s %12d %14.1f %10.2f %14.2f\n' "sadc -S XALL" "$s" "$sb" \
	"$(echo "$s $p" | awk '{ print ($2 ? $1 / $2 : 0) }')" "$sr"
if [ -n "$base" ]; then
	bb=$(per_sample "$tmp/b.ptrec")
	printf '%-22s %12d %14.1f %10.2f %14.2f\n' "pagetop $base_rev" "$(stat -c %s "$tmp/b.ptrec")" \
		"$bb" "$(echo "$bb $pb" | awk '{ print $1 / $2 }')" "$br"
	echo "$pb $bb $nb" | awk -v rev="$base_rev" '{
		printf "today against %s, the same seconds: %.3f with the probes, %.3f without (target at most 1.10)\n",
			rev, $1 / $2, $3 / $2 }'
	result size.baseline "$bb"
	result size.vs_baseline "$(echo "$pb $bb" | awk '{ printf "%.3f", $1 / $2 }')"
fi
result size.noprobes "$nb"
result size.secs "$el"
result size.pagetop "$pb"
result size.atop "$ab"
result size.sadc "$sb"
result rss.record "$pr"
result rss.atop_w "$ar"
result rss.sadc "$sr"
echo
cc -std=c11 -D_GNU_SOURCE -O2 -Isrc -I. bench/recording-split.c libpagetop.a \
	$(pkg-config --libs libzstd) -lm -pthread -o "$tmp/split" &&
	"$tmp/split" "$tmp/p.ptrec"
# Bytes against memory at other zstd settings, on the same samples: what
# the writer's level, window and tables were chosen by.
echo
cc -std=c11 -D_GNU_SOURCE -O2 -Isrc -I. bench/zstd-levels.c libpagetop.a \
	$(pkg-config --libs libzstd) -lm -pthread -o "$tmp/levels" &&
	"$tmp/levels" "$tmp/p.ptrec" 19:21:16 19:18:15 15:18:15 12:18:15 9:18:16 9:18:14 \
	9:21:15 6:18:15 3:18:15 | tee "$tmp/levels.out"
awk '/\(today\)/ { printf "size.zstd_mb %s\n", $6 }' "$tmp/levels.out" |
	while read -r k v; do result "$k" "$v"; done

#!/bin/sh
# Bytes per sample of a recording at 1 s while bench/pressure-workload.sh
# runs, next to atop -w and sadc recording the same seconds.
# Target: pagetop at most 150 bytes a sample, everything included. Then
# where pagetop's bytes go (bench/recording-split.c).
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

./pagetop record -o "$tmp/p.ptrec" -d 1 --duration "$secs" 2>/dev/null &
atop -w "$tmp/a.raw" 1 "$secs" >/dev/null 2>&1 &
/usr/lib/sysstat/sadc -S XALL 1 "$secs" "$tmp/s.sa" >/dev/null 2>&1 &
bench/pressure-workload.sh "$((secs - 5))" >/dev/null 2>&1
wait

[ -n "${KEEP:-}" ] && cp "$tmp/p.ptrec" "$KEEP"
n=$(./pagetop dump "$tmp/p.ptrec" --info | sed -n 's/^\([0-9]*\) samples$/\1/p')
p=$(stat -c %s "$tmp/p.ptrec")
a=$(stat -c %s "$tmp/a.raw" 2>/dev/null || echo 0)
s=$(stat -c %s "$tmp/s.sa" 2>/dev/null || echo 0)
echo "recording size over $secs s at 1 s under bench/pressure-workload.sh ($n pagetop samples)"
printf '%-22s %12s %14s %10s\n' "" bytes "bytes/sample" "vs pagetop"
printf '%-22s %12d %14.1f %10s\n' "pagetop record" "$p" "$(echo "$p $n" | awk '{ print $1 / $2 }')" 1.00
printf '%-22s %12d %14.1f %10.2f\n' "atop -w" "$a" "$(echo "$a $secs" | awk '{ print $1 / $2 }')" \
	"$(echo "$a $p" | awk '{ print ($2 ? $1 / $2 : 0) }')"
printf '%-22s %12d %14.1f %10.2f\n' "sadc -S XALL" "$s" "$(echo "$s $secs" | awk '{ print $1 / $2 }')" \
	"$(echo "$s $p" | awk '{ print ($2 ? $1 / $2 : 0) }')"
echo
cc -std=c11 -D_GNU_SOURCE -O2 -Isrc -I. bench/recording-split.c libpagetop.a \
	$(pkg-config --libs ncursesw libproc2 libzstd) -lsensors -lm -pthread -o "$tmp/split" &&
	"$tmp/split" "$tmp/p.ptrec"

#!/bin/sh
# Opening and seeking a day-long recording (86,400 samples at 1 s), made
# from this machine's samples; targets: open well under 1 s, seek < 20 ms.
#   bench/replay.sh [FILE]
set -eu
cd "$(dirname "$0")/.."
[ -f libpagetop.a ] || { echo "bench: build first (./bootstrap && make)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -D_GNU_SOURCE -O2 -Isrc -I. bench/replay-bench.c libpagetop.a \
	$(pkg-config --libs ncursesw libproc2 libzstd) -lsensors -lm -pthread -o "$tmp/replay-bench"
"$tmp/replay-bench" "${1:-$tmp/day.ptrec}"

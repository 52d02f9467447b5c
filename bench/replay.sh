#!/bin/sh
# Opening and seeking a day-long recording (86,400 samples at 1 s), made
# from this machine's samples; targets (#16): open <= 20 ms, a seek
# anywhere <= 2 ms in the worst case (the last sample before a keyframe,
# nothing decoded before: bench/replay-bench.c says how many it decodes).
# Then pagetop replay on it in tmux (80x24): the time to its first screen,
# a walk around the day with keys (End, Home, g +6h, n, play at x16, the
# screens), and its peak RSS (VmHWM) after that.
#   bench/replay.sh [FILE]
#   BENCH_SAMPLES=3600 bench/replay.sh   (a shorter day, to try the script)
set -eu
cd "$(dirname "$0")/.."
[ -f libpagetop.a ] && [ -x pagetop ] || { echo "bench: build first (./bootstrap && make)" >&2; exit 1; }
command -v tmux >/dev/null || apt-get install -y -qq tmux >/dev/null 2>&1
tmp=$(mktemp -d)
S=pagetop-replay-$$
trap 'tmux -L $S kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
result() { [ -z "${BENCH_RESULTS:-}" ] || echo "$1 $2" >> "$BENCH_RESULTS"; }
file=${1:-$tmp/day.ptrec}
cc -std=c11 -D_GNU_SOURCE -O2 -Isrc -I. bench/replay-bench.c libpagetop.a \
	$(pkg-config --libs libzstd) -lm -pthread -o "$tmp/replay-bench"
"$tmp/replay-bench" "$file" ${BENCH_SAMPLES:-86400} | tee "$tmp/out"
result replay.open "$(awk '/^open / { print $2 }' "$tmp/out")"
result replay.seek.mean "$(awk '/seek to a random time, mean/ { print $(NF - 1) }' "$tmp/out")"
result replay.seek.worst "$(awk '/seek to a random time, worst/ { print $(NF - 1) }' "$tmp/out")"
result replay.open.index "$(awk '/of which the index/ { print $(NF - 1) }' "$tmp/out")"
result replay.open.verify "$(awk '/of which checking every chunk/ { print $(NF - 1) }' "$tmp/out")"
result replay.seek.worst_case "$(awk '/^seek, worst case/ { print $4 }' "$tmp/out")"
result replay.bytes "$(awk '/^bytes per sample/ { print $NF }' "$tmp/out")"

now_ms() { date +%s%3N; }
screen() { tmux -L $S capture-pane -p -t r; }
# key KEYS...: sends them and lets the screen settle
key() { tmux -L $S send-keys -t r "$@"; sleep 0.3; }

t0=$(now_ms)
tmux -L $S new-session -d -s r -x 80 -y 24 "LANG=C.UTF-8 exec ./pagetop replay $file"
until screen | grep -q ' REPLAY '; do
	[ $(($(now_ms) - t0)) -lt 30000 ] || { echo "replay.sh: no REPLAY screen" >&2; exit 1; }
	sleep 0.005
done
t1=$(now_ms)
pid=$(tmux -L $S display-message -p -t r '#{pane_pid}')
key End; key Home; key g +6h Enter; key g +6h Enter; key n; key n; key N
key ] ] ] ] Space; sleep 2; key Space
key 2; key 3; key 4; key 6; key 1
key g -3h Enter; key Left Left Left Left Left; key End; key g 12:00:00 Enter
hwm=$(awk '/^VmHWM:/ { printf "%.2f\n", $2 / 1024 }' /proc/$pid/status)
anon=$(awk '/^RssAnon:/ { printf "%.2f\n", $2 / 1024 }' /proc/$pid/status)
echo "pagetop replay in tmux: first screen after $((t1 - t0)) ms; after a walk with keys:"
echo "  $(screen | head -1 | sed 's/^ *//')"
printf '%-34s %10s MB\n' "peak RSS (VmHWM)" "$hwm" "RssAnon" "$anon"
result replay.first_screen "$((t1 - t0))"
result rss.replay "$hwm"
result anon.replay "$anon"

#!/bin/sh
# CPU per tick and peak RSS of the dashboard next to htop's, in one run on
# this machine. Both run in tmux at 80x24, refreshing every 0.1 s, for the
# same wall time; CPU comes from /proc/PID/stat, peak RSS from VmHWM.
# pagetop keeps --history of 360 s at 0.1 s: 3600 entries, the same count
# as one hour at 1 s, and the run is long enough to fill it.
#   BENCH_SECONDS=60 bench/dashboard.sh   for a shorter run (history not full)
set -eu
cd "$(dirname "$0")/.."
secs=${BENCH_SECONDS:-380}
[ -x ./pagetop ] || { echo "bench: build first (./bootstrap && make)" >&2; exit 1; }
command -v htop >/dev/null || apt-get install -y -qq htop >/dev/null
S=pagetop-bench-$$
trap 'tmux -L $S kill-server 2>/dev/null' EXIT
# One server for all the sessions, kept when the last one ends (a new
# session started as the old server exits fails).
tmux -L $S start-server \; set -s exit-empty off
hz=$(getconf CLK_TCK)

# run NAME COMMAND: prints "user_ticks system_ticks hwm_kB anon_kB libproc2_maps"
# (anon: RssAnon, the process's own memory, without the shared libraries)
run() {
	tmux -L $S new-session -d -s "$1" -x 80 -y 24 "$2"
	sleep 1
	pid=$(pgrep -P "$(tmux -L $S display-message -p -t "$1" '#{pane_pid}')" | head -1)
	[ -n "$pid" ] || pid=$(tmux -L $S display-message -p -t "$1" '#{pane_pid}')
	sleep "$secs"
	u=$(awk '{ sub(/.*\) /, ""); print $12, $13 }' /proc/$pid/stat)
	m=$(awk '/^VmHWM:/ { print $2 }' /proc/$pid/status)
	a=$(awk '/^RssAnon:/ { print $2 }' /proc/$pid/status)
	l=$(grep -c libproc2 /proc/$pid/maps || true)
	tmux -L $S kill-session -t "$1"
	echo "$u $m $a $l"
}

# A task held in D all along: pagetop loads libproc2 (about 1 MB) the first
# time a task blocks, which any busy machine does; measure with it loaded.
make -s tests/vfork-helper >/dev/null
tests/vfork-helper $((2 * secs + 60)) >/dev/null &
helper=$!
# (set -e holds in the trap too: a helper already gone must not fail it)
trap 'pkill -P $helper 2>/dev/null || true; kill $helper 2>/dev/null || true
	tmux -L $S kill-server 2>/dev/null || true' EXIT

echo "bench: $secs s each, 0.1 s refresh, $(nproc) CPUs, $(uname -r), a task in D"
p=$(run pagetop "LANG=C.UTF-8 ./pagetop -d 0.1 --history 360")
h=$(run htop "LANG=C.UTF-8 htop -d 1")
echo "$p $h" | awk -v hz="$hz" -v t="$((secs * 10))" '{
	pu = $1 / hz * 1000 / t; ps = $2 / hz * 1000 / t
	hu = $6 / hz * 1000 / t; hs = $7 / hz * 1000 / t
	printf "%-28s %10s %10s %8s\n", "", "pagetop", "htop", "ratio"
	printf "%-28s %10.3f %10.3f %8.2f\n", "user CPU per tick (ms)", pu, hu, hu ? pu / hu : 0
	printf "%-28s %10.3f %10.3f %8.2f\n", "system CPU per tick (ms)", ps, hs, hs ? ps / hs : 0
	printf "%-28s %10.2f %10.2f %8.2f\n", "peak RSS (MB)", $3 / 1024, $8 / 1024, $3 / $8
	printf "%-28s %10.2f %10.2f %8.2f\n", "own memory, RssAnon (MB)", $4 / 1024, $9 / 1024, $4 / $9
	printf "pagetop had libproc2 loaded: %s\n", ($5 > 0 ? "yes" : "no")
	printf "targets: pagetop user CPU < 2 ms per tick, RSS < 6 MB with 3600 entries\n"
}'
[ -z "${BENCH_RESULTS:-}" ] || echo "$p $h" | awk -v hz="$hz" -v t="$((secs * 10))" -v secs="$secs" '{
	printf "dash.secs %d\n", secs
	printf "dash.cpu.pagetop %.4f\n", ($1 + $2) / hz * 1000 / t
	printf "dash.cpu.htop %.4f\n", ($6 + $7) / hz * 1000 / t
	printf "dash.rss.pagetop %.2f\ndash.rss.htop %.2f\n", $3 / 1024, $8 / 1024
	printf "dash.anon.pagetop %.2f\ndash.anon.htop %.2f\n", $4 / 1024, $9 / 1024
	printf "dash.libproc2 %s\n", ($5 > 0 ? "yes" : "no")
}' >> "$BENCH_RESULTS"

#!/bin/sh
# Start-up: the time from exec to the first full screen, pagetop's
# dashboard against htop's, with 5,000 extra sleeping threads on the box
# (bench/spawn-threads.c). Each starts ROUNDS times (default 5) in tmux at
# 80x24; the clock starts as tmux is asked for the session and stops at
# the first capture of the pane that shows the whole screen: for pagetop
# the title line and the overview's last row (OOM kills), for htop its
# function-key bar with a process row above it. A capture takes 1 to 3
# ms, which bounds the resolution; tmux's own start is in both figures.
#   bench/startup.sh [THREADS]        (default 5000)
set -eu
cd "$(dirname "$0")/.."
n=${1:-5000}
ROUNDS=${ROUNDS:-5}
[ -x ./pagetop ] || { echo "bench: build first (./bootstrap && make)" >&2; exit 1; }
command -v tmux >/dev/null || apt-get install -y -qq tmux >/dev/null
command -v htop >/dev/null || apt-get install -y -qq htop >/dev/null
tmp=$(mktemp -d "${TMPDIR:-/tmp}/startup-bench.XXXXXX")
S=startup-bench-$$
spawner=
trap '[ -z "$spawner" ] || kill "$spawner" 2>/dev/null; tmux -L $S kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
tmux -L $S start-server \; set -s exit-empty off
# result KEY VALUE: for bench/run's table
result() { [ -z "${BENCH_RESULTS:-}" ] || echo "$1 $2" >> "$BENCH_RESULTS"; }

cc -std=c11 -D_GNU_SOURCE -O2 -pthread -o "$tmp/spawn-threads" bench/spawn-threads.c
"$tmp/spawn-threads" "$n" >"$tmp/spawn.out" &
spawner=$!
while ! grep -q ready "$tmp/spawn.out" 2>/dev/null; do
	kill -0 "$spawner" 2>/dev/null || { echo "startup.sh: spawn-threads $n failed" >&2; exit 1; }
	sleep 0.1
done
sleep 1

now_ms() { date +%s%N | awk '{ printf "%.3f\n", $1 / 1e6 }'; }

# full WHAT FILE: whether the capture in FILE is WHAT's whole first screen
full() {
	case $1 in
	pagetop)
		head -1 "$2" | grep -q '^ pagetop ' && grep -q 'OOM kills' "$2" ;;
	htop)
		tail -1 "$2" | grep -q 'F10Quit' &&
			sed -n '23p' "$2" | grep -q '^ *[0-9][0-9]* ' ;;
	esac
}

# once WHAT COMMAND: ms from asking tmux to the full screen (or "timeout")
once() {
	t0=$(now_ms)
	tmux -L $S new-session -d -s "$1" -x 80 -y 24 "$2"
	got=
	i=0
	while [ $i -lt 5000 ]; do
		tmux -L $S capture-pane -p -t "$1" >"$tmp/cap" 2>/dev/null || true
		if full "$1" "$tmp/cap"; then
			got=$(now_ms)
			break
		fi
		i=$((i + 1))
	done
	tmux -L $S kill-session -t "$1" 2>/dev/null || true
	if [ -n "$got" ]; then
		echo "$t0 $got" | awk '{ printf "%.1f\n", $2 - $1 }'
	else
		echo timeout
		cp "$tmp/cap" "$tmp/last-$1" 2>/dev/null || true
	fi
}

stats() { sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f %.1f %.1f\n", v[int((NR + 1) / 2)], v[1], v[NR] }'; }

echo "start-up to the first full screen, tmux 80x24, $n extra threads ($(ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null | wc -l) tasks), $ROUNDS starts each"
printf '%-10s %10s %10s %10s\n' "" "median ms" "best" "worst"
for what in pagetop htop; do
	: >"$tmp/$what.ms"
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		case $what in
		pagetop) cmd="LANG=C.UTF-8 HOME=$tmp exec ./pagetop -d 1" ;;
		htop) cmd="LANG=C.UTF-8 HOME=$tmp exec htop -d 10" ;;
		esac
		ms=$(once "$what" "$cmd")
		if [ "$ms" = timeout ]; then
			echo "startup.sh: $what: no full screen seen; its last screen:" >&2
			cat "$tmp/last-$what" >&2 2>/dev/null || true
			exit 1
		fi
		echo "$ms" >>"$tmp/$what.ms"
		sleep 0.5
		r=$((r + 1))
	done
	set -- $(stats <"$tmp/$what.ms")
	printf '%-10s %10s %10s %10s\n' "$what" "$1" "$2" "$3"
	result "startup.$what.median" "$1"
	result "startup.$what.worst" "$3"
done

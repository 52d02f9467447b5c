#!/bin/sh
# Key-to-screen latency of the dashboard in tmux (80x24, sampling every
# 1 s): the time from tmux send-keys to the pane showing the other screen,
# for KEYS keys (default 20) alternating 2 and 1, measured by
# bench/key-latency.py (one tmux control client sends and polls). Cases:
#   no recording        pagetop -d 1
#   recording           --record to a file on this disk
#   stalled: FIFO       --record to a FIFO whose reader never reads and whose
#                       buffer is full: the writer thread blocks in write()
#   stalled: frozen fs  --record on an ext4 image mounted through a loop
#                       device and frozen with fsfreeze once the file is
#                       made (root only): the writer blocks in D
#   htop -d 10          Tab between its Main and I/O tabs, the same way
# Prints the median and the worst for each, and what pagetop's other threads
# were waiting in while the keys went in.
#   KEYS=20 bench/keys.sh
set -eu
cd "$(dirname "$0")/.."
[ -x ./pagetop ] || { echo "bench: build first (./bootstrap && make)" >&2; exit 1; }
command -v tmux >/dev/null || apt-get install -y -qq tmux >/dev/null 2>&1
command -v htop >/dev/null || apt-get install -y -qq htop >/dev/null 2>&1
n=${KEYS:-20}
S=pagetop-keys-$$
tmp=$(mktemp -d /var/tmp/pagetop-keys.XXXXXX)
mnt=
reader=
cleanup() {
	[ -z "$mnt" ] || fsfreeze -u "$mnt" 2>/dev/null || true
	[ -z "$reader" ] || kill "$reader" 2>/dev/null || true
	tmux -L $S kill-server 2>/dev/null || true
	sleep 0.5
	[ -z "$mnt" ] || umount "$mnt" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
# One server for all the sessions, kept when the last one ends (a new
# session started as the old server exits fails).
tmux -L $S start-server \; set -s exit-empty off
result() { [ -z "${BENCH_RESULTS:-}" ] || echo "$1 $2" >> "$BENCH_RESULTS"; }

# start NAME COMMAND, then wait for its first screen
start() {
	tmux -L $S new-session -d -s "$1" -x 80 -y 24 "HOME=$tmp LANG=C.UTF-8 exec $2"
	i=0
	until tmux -L $S capture-pane -p -t "$1" | grep -q "$3"; do
		i=$((i + 1))
		[ $i -lt 100 ] || { echo "keys.sh: $1 did not start" >&2; exit 1; }
		sleep 0.1
	done
}

# The wait channels of a process's threads but the first (pagetop's writer
# and detail threads), e.g. "pipe_write futex_wait_queue".
waits() {
	pid=$(tmux -L $S display-message -p -t "$1" '#{pane_pid}')
	for t in /proc/$pid/task/*; do
		[ "${t##*/}" = "$pid" ] && continue
		printf '%s(%s) ' "$(cat $t/wchan 2>/dev/null)" "$(sed 's/.*) //' $t/stat | cut -c1)"
	done
}

# measure NAME KEY1 RE1 KEY2 RE2: prints the summary, keeps the figures
measure() {
	name=$1
	shift
	python3 bench/key-latency.py $S "$name" "$n" "$@" > "$tmp/$name.out"
	w=$(waits "$name")
	awk -v name="$name" -v w="$w" '/^keys / {
		printf "%-22s %9.2f %9.2f %8.3f %4d   %s\n", name, $4, $6, $8, $10, w }' "$tmp/$name.out"
	result "keys.$name.median" "$(awk '/^keys / { print $4 }' "$tmp/$name.out")"
	result "keys.$name.worst" "$(awk '/^keys / { print $6 }' "$tmp/$name.out")"
}

pt() { measure "$1" 2 '^Zone:' 1 '^Memory '; }

# stop NAME: ends the session and waits for its program to be gone
stop() {
	pid=$(tmux -L $S display-message -p -t "$1" '#{pane_pid}')
	tmux -L $S kill-session -t "$1"
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

echo "key to screen in tmux, $n keys each, $(nproc) CPUs, $(uname -r)"
printf '%-22s %9s %9s %8s %4s   %s\n' "" "median ms" "worst ms" "poll ms" lost "other threads waiting in (state)"

start plain "./pagetop -d 1" '^Memory '
pt plain
stop plain

start recording "./pagetop -d 1 --record $tmp/r.ptrec" ' REC '
pt recording
stop recording

# A FIFO already full, whose reader never reads (as tests/record.sh does).
mkfifo "$tmp/fifo"
sleep 3600 < "$tmp/fifo" &
reader=$!
dd if=/dev/zero bs=65536 count=1 of="$tmp/fifo" 2>/dev/null
start fifo "./pagetop -d 1 --record $tmp/fifo" ' REC '
sleep 6		# past the first flush (every 5 s)
pt fifo
kill $reader 2>/dev/null || true
reader=
stop fifo

if [ "$(id -u)" = 0 ] && command -v fsfreeze >/dev/null && command -v mkfs.ext4 >/dev/null; then
	truncate -s 64M "$tmp/img"
	mkfs.ext4 -q -F "$tmp/img"
	mkdir "$tmp/mnt"
	if mount -o loop "$tmp/img" "$tmp/mnt" 2>/dev/null; then
		mnt=$tmp/mnt
		start frozen "./pagetop -d 1 --record $mnt/r.ptrec" ' REC '
		sync
		fsfreeze -f "$mnt"
		sleep 6		# past the next flush
		pt frozen
		fsfreeze -u "$mnt"
		stop frozen
		umount "$mnt"
		mnt=
	else
		echo "frozen fs: skipped (no loop device)"
	fi
else
	echo "frozen fs: skipped (needs root, fsfreeze and mkfs.ext4)"
fi

start htop "htop -d 10" 'PRI  *NI  *VIRT'
measure htop Tab 'DISK R|IO_R' Tab 'PRI +NI +VIRT'
stop htop

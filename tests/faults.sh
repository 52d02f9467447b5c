#!/bin/sh
# Faults while recording and sampling: a disk that fills up (a 256 KB
# tmpfs) under `pagetop record` and under the dashboard's --record and R,
# SIGKILL of a dashboard that records, too few file descriptors for the
# task scan, and a terminal shrunk to 20x5 and grown back. Each fault must
# cost one clear line or one panel's note, never what was already recorded
# and never the rest of the program.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export LANG=C.UTF-8 XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR
make_root $T/root buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
	meminfo=$L/meminfo zoneinfo=$L/zoneinfo pressure/memory=$L/pressure/memory \
	pressure/io=$L/pressure/io uptime=$L/uptime
# No sys/kernel/hostname: the host is "?", which must not reach a file name.
mkdir -p $T/root/sys/kernel
echo 6.18.44-test > $T/root/sys/kernel/osrelease

# The tmpfs is unmounted before lib.sh's trap removes $T; our own jobs are
# killed by pid.
pids=
cleanup() {
	rm -f $T/writer.run
	for p in $pids; do kill $p 2>/dev/null; done
	tm kill-server 2>/dev/null	# its panes may sit in the tmpfs
	mountpoint -q $T/full 2>/dev/null && umount $T/full
	tmux_cleanup
}
trap cleanup EXIT

# vmstat rewritten every 0.05 s: at step k pgscan_kswapd is 1000000 + k and
# pgsteal_kswapd 2000000 + 2k, every other counter random, so that samples
# are large (about 1 KB each, compressed) and each can be checked whole.
writer() {
	k=0
	while [ -f $T/writer.run ]; do
		k=$((k + 1))
		awk -v k=$k 'BEGIN { srand(k) }
			$1 == "pgscan_kswapd" { $2 = 1000000 + k; print; next }
			$1 == "pgsteal_kswapd" { $2 = 2000000 + 2 * k; print; next }
			{ $2 = int(rand() * 1e9); print }' "$FIXTURES/$L/vmstat" > $T/root/vmstat.new &&
			mv $T/root/vmstat.new $T/root/vmstat
		sleep 0.05
	done
}
touch $T/writer.run
writer &
pids="$pids $!"
i=0
until grep -q '^pgscan_kswapd 100000[1-9]' $T/root/vmstat || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done

# check_whole DESCRIPTION FILE: FILE replays samples that are each as
# written (pgsteal = 2 pgscan, steps in order) with buddyinfo byte for byte.
check_whole() {
	"$PAGETOP" dump "$2" --json > $T/whole.jsonl 2>$T/whole.err
	if jq -se 'length > 0 and all(.[]; .vmstat.pgsteal_kswapd == 2 * .vmstat.pgscan_kswapd and
	    .vmstat.pgscan_kswapd > 1000000) and ([.[].vmstat.pgscan_kswapd] | . == sort)' \
	    $T/whole.jsonl >/dev/null 2>&1 &&
	    "$PAGETOP" dump "$2" --source buddyinfo | sed 1d | cmp -s - "$FIXTURES/$L/buddyinfo"; then
		ok "$1 ($(wc -l < $T/whole.jsonl) samples, each as written)"
	else
		not_ok "$1" "$(head -c 300 $T/whole.jsonl; cat $T/whole.err)"
	fi
}
samples_in() { "$PAGETOP" dump "$1" --info 2>/dev/null | sed -n 's/^\([0-9]*\) samples$/\1/p'; }
# wait_exit PID SECONDS: until PID is gone; 1 if it is still there.
wait_exit() {
	i=0
	while kill -0 $1 2>/dev/null; do
		[ $i -ge $(($2 * 10)) ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}
clock_of() { screen_of "$1" | sed -En '1s/.* LIVE ([0-9:]{8}) .*/\1/p'; }
# check_clock_moves DESCRIPTION NAME: the header's LIVE time changes.
check_clock_moves() {
	c1=$(clock_of "$2")
	i=0
	while [ "$(clock_of "$2")" = "$c1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	c2=$(clock_of "$2")
	if [ -n "$c1" ] && [ -n "$c2" ] && [ "$c1" != "$c2" ]; then ok "$1 ($c1, then $c2)"; else not_ok "$1" "$(screen_of "$2")"; fi
}

# A full disk: a 256 KB tmpfs, filled but for a few KB.
mkdir $T/full
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=256k,mode=755 pagetop-faults $T/full 2>$T/mount.err; then
	ok "disk full # SKIP cannot mount a tmpfs: $(cat $T/mount.err 2>/dev/null)"
else
	# fill KB: leaves KB free on the tmpfs.
	fill() {
		rm -f $T/full/filler
		avail=$(df -k --output=avail $T/full | tail -1)
		dd if=/dev/zero of=$T/full/filler bs=4k count=$(((avail - $1) / 4)) 2>/dev/null
	}

	# Headless: one line naming the file, exit 1, and the file as it was.
	fill 16
	$PAGETOP record --proc-root $T/root -o $T/full/rec.ptrec -d 0.1 --flush 0.2 2>$T/rec.err &
	rpid=$!
	if wait_exit $rpid 60; then
		wait $rpid
		check_eq "disk full: record stops with status 1" "$?" 1
	else
		kill $rpid; wait $rpid
		not_ok "disk full: record stops by itself" "still running after 60 s: $(cat $T/rec.err)"
	fi
	check_eq "... and one line naming the file and the error" "$(grep -v '^pagetop: recording to ' $T/rec.err)" \
		"pagetop: $T/full/rec.ptrec: No space left on device"
	n=$(samples_in $T/full/rec.ptrec)
	if [ "${n:-0}" -ge 3 ]; then ok "disk full: what was flushed replays ($n samples)"; else not_ok "disk full: what was flushed replays" "$n samples"; fi
	check_whole "disk full: the recording's samples are whole" $T/full/rec.ptrec
	info=$($PAGETOP dump $T/full/rec.ptrec --info 2>&1)
	check_match "... the file was not closed (no index), said so" "$info" 'not closed properly'
	if printf '%s\n' "$info" | grep -q '^damage'; then not_ok "... and no damage: no frame was left cut short" "$info"; else ok "... and no damage: no frame was left cut short"; fi
	rm -f $T/full/rec.ptrec

	# The dashboard: its first flush (5 s) fits, a later one does not. The
	# status line says so and stays; sampling and keys go on.
	fill 48
	tmux_start df 80 24 "cd $T/full && $PAGETOP --proc-root $T/root -d 0.2 --record $T/full/dash.ptrec"
	check_screen "dashboard --record: REC in the header" df ' REC [0-9.]+[KM]? '
	check_screen "disk full: the status line says why recording stopped, and the file" df \
		"^recording stopped: No space left on device \($T/full/dash" 60
	check_screen "... the header says REC STOPPED" df ' REC [0-9.]+[KM] STOPPED '
	check_clock_moves "... sampling goes on" df
	keys df 2
	check_screen "... keys answer (fragmentation)" df '^Zone: '
	check_screen "... and the message stays after a key" df '^recording stopped: No space left on device '
	keys df 1
	keys df R
	check_screen "R after the failure: REC gone from the header" df 'every 0\.2s  up '
	check_screen "... and the status line says why it stopped" df '^recording stopped: No space left on device '
	# Room again: R records afresh, under a name without the unknown host's "?".
	rm -f $T/full/filler
	keys df R
	check_screen "space back: R records again" df '^recording to pagetop-host-[0-9]{8}-[0-9]{6}\.ptrec \(R stops\)'
	check_screen "... and flushes (its size in the header)" df ' REC [1-9][0-9.]*[KM] ' 15
	keys df R
	check_screen "... R stops it cleanly" df '^recorded to pagetop-host-'
	keys df q
	check_screen "the dashboard quits with status 0" df '^exit=0$'
	check_whole "the dashboard's recording up to the full disk replays" $T/full/dash.ptrec
	f=$(ls $T/full/pagetop-host-*.ptrec | head -1)
	check_whole "... and the one made after" "$f"
	info=$($PAGETOP dump "$f" --info 2>&1)
	if printf '%s\n' "$info" | grep -q 'not closed'; then not_ok "... which was closed properly" "$info"; else ok "... which was closed properly"; fi
	# (Unmounted at exit, once tmux's panes have left it.)
fi

# SIGKILL of a dashboard that records: what was flushed (every 5 s) survives.
tmux_start kd 80 24 "$PAGETOP --proc-root $T/root -d 0.2 --record $T/kill.ptrec"
i=0
until [ "$(samples_in $T/kill.ptrec)" -gt 0 ] 2>/dev/null || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.6
kpid=
i=0
while [ -z "$kpid" ] && [ $i -lt 50 ]; do
	kpid=$(pgrep -P "$(tm display-message -p -t kd '#{pane_pid}')" -x pagetop)
	[ -n "$kpid" ] || sleep 0.1
	i=$((i + 1))
done
[ -n "$kpid" ] && kill -KILL $kpid
check_screen "SIGKILL: the dashboard is gone" kd '^exit=137$' 15
check_whole "SIGKILL of a recording dashboard: the flushed samples replay" $T/kill.ptrec
check_match "... and --info says it was not closed" "$($PAGETOP dump $T/kill.ptrec --info 2>&1)" 'not closed properly'
rm -f $T/writer.run

# Too few descriptors for the task scan (RLIMIT_NOFILE 32, soft and hard)
# on the live /proc with 100 extra tasks and threads coming and going: the
# scan reopens each task's stat every tick and says so; nothing else moves.
if ! command -v prlimit >/dev/null || [ ! -d /proc/self/task ]; then
	ok "RLIMIT_NOFILE # SKIP needs prlimit and a procfs"
else
	for i in $(seq 100); do sleep 300 & pids="$pids $!"; done
	churn=$(dirname "$VFORK_HELPER")/thread-churn
	if [ -x "$churn" ]; then "$churn" 60 50 >/dev/null 2>&1 & pids="$pids $!"; fi
	# --no-probes: the /proc scan, whose descriptors the cap is about (the
	# BPF task iterator needs none; checked after).
	tmux_start nf 100 30 "prlimit --nofile=32:32 $PAGETOP -d 0.5 --no-probes"
	check_screen "nofile 32: the dashboard starts" nf '^Memory '
	keys nf 4
	check_screen "nofile 32: the Tasks screen says why the scan is slower" nf \
		'^descriptor limit 32: [0-9]+ tasks reopened each tick'
	th=$(screen_of nf | sed -En 's/^Tasks .* of ([0-9]+) threads.*/\1/p')
	if [ "${th:-0}" -ge 100 ]; then ok "... and still counts every task ($th threads)"; else not_ok "... and still counts every task" "$(screen_of nf)"; fi
	keys nf 1
	check_screen "nofile 32: the overview's panels work" nf '^ 0 Normal +[^ ]+ +-?[0-9]+ +[01]\.[0-9]{3} +[01]\.[0-9]{3}'
	check_clock_moves "... and keep updating" nf
	keys nf 2
	check_screen "nofile 32: fragmentation works" nf '^ord +free +'
	keys nf q
	check_screen "nofile 32: q quits with status 0" nf '^exit=0$'

	prlimit --nofile=32:32 $PAGETOP snapshot --no-probes --json > $T/nf.json 2>$T/nf.err
	check_eq "nofile 32: snapshot succeeds" "$?" 0
	check_jq "... its tasks say why" $T/nf.json '.tasks.note | test("^descriptor limit 32: [0-9]+ tasks reopened each tick$")'
	check_jq "... every task still counted" $T/nf.json '.tasks.threads >= 100'
	check_jq "... the files all read" $T/nf.json "(.buddyinfo | length) == $(grep -c '^Node' /proc/buddyinfo) and .vmstat.pgfault > 0 and .meminfo.MemTotal > 0"
	check_match "nofile 32: snapshot's text says it too" "$(prlimit --nofile=32:32 $PAGETOP snapshot --no-probes)" \
		'^  descriptor limit 32: [0-9]+ tasks reopened each tick$'
	# With the BPF task iterator (where the probes load) the scan holds no
	# descriptor per task: nothing is reopened, every task still counted.
	prlimit --nofile=32:32 $PAGETOP snapshot --json > $T/nfi.json 2>/dev/null
	if jq -e '.probes.state == "on"' $T/nfi.json >/dev/null 2>&1; then
		check_jq "nofile 32, the task iterator: nothing reopened, every task counted" $T/nfi.json \
			'((.tasks.note // "") | test("reopened|out of descriptors") | not) and .tasks.threads >= 100'
	else
		ok "nofile 32, the task iterator # SKIP the probes do not load here"
	fi
	# Every limit from 4 to 31: no crash; each source is read or listed
	# with its reason; the tasks are counted or say why not. (The lowest
	# may leave the dynamic loader no descriptor, with those inherited
	# from make: that is not pagetop's to handle.)
	bad=
	ran=0
	for n in $(seq 4 31); do
		prlimit --nofile=$n:$n $PAGETOP snapshot --json > $T/nf$n.json 2>$T/nf$n.err
		st=$?
		[ $st = 127 ] && grep -q 'error while loading shared libraries' $T/nf$n.err && continue
		ran=$((ran + 1))
		jq -e 'def seen($k; $src): has($k) or any(.unavailable[]; .source == $src);
			seen("buddyinfo"; "buddyinfo") and seen("vmstat"; "vmstat") and
			seen("meminfo"; "meminfo") and seen("zones"; "zoneinfo") and
			seen("uptime"; "uptime") and seen("pagetypeinfo"; "pagetypeinfo") and
			(.psi.memory != null or any(.unavailable[]; .source == "pressure/memory")) and
			all(.unavailable[]; .reason | test("^not present|^Too many open files$")) and
			(.tasks.threads > 0 or (.tasks.note | test("Too many open files$")))' \
			$T/nf$n.json >/dev/null 2>&1 && [ $st = 0 ] || bad="$bad $n(status $st)"
	done
	check_eq "nofile 4 to 31: snapshot never fails, each missing part says why ($ran limits)" "$bad" ""
	check_eq "... pagetop itself started under most of them" "$([ $ran -ge 20 ] && echo yes)" yes
	for p in $pids; do kill $p 2>/dev/null; done
	pids=
fi

# A terminal shrunk to 20x5 (and smaller) and grown back: no crash,
# something sensible while small, and every screen as before afterwards.
# -d 1h: one sample, so the screens do not change while compared.
R="$PAGETOP --proc-root $T/root -d 1h"
screens='1 2 3 4 6 ?'
shot() {	# shot NAME PREFIX: every screen into $T/PREFIX.KEY
	for s in $screens; do
		keys $1 "$s"
		sleep 0.3
		screen_of $1 > "$T/$2.$(printf %s "$s" | tr '?' h)"
		keys $1 Escape
	done
	keys $1 1
}
tmux_start rz 80 24 "$R"
wait_screen rz '^Memory ' >/dev/null
shot rz a80
tm resize-window -t rz -x 160 -y 50
check_screen "160x50 first" rz 'Memory.*Free blocks per order'
shot rz a160
tm resize-window -t rz -x 20 -y 5
check_screen "20x5: the header" rz '^ pagetop  \?  6\.18' 15
check_screen "20x5: the status line" rz '^q quit  space pause' 15
small_ok=yes
for s in 1:'^Memory' 2:'^Zone: ' 3:'^Reclaim' 4:'^Tasks ' 6:'^Sensors' '?:^Keys'; do
	keys rz "${s%%:*}"
	wait_screen rz "${s#*:}" 2 || small_ok="no: ${s%%:*} shows $(screen_of rz)"
	keys rz Escape
done
check_eq "20x5: each screen shows its first line" "$small_ok" yes
for size in 1x1 5x2 20x3 2x24 200x1; do
	tm resize-window -t rz -x ${size%x*} -y ${size#*x}
	for s in 1 2 3 4 6 '?' Escape; do keys rz "$s"; done
	sleep 0.3
done
check_no_screen "even at 1x1, 5x2, 20x3, 2x24 and 200x1: no crash" rz '^exit='
tm resize-window -t rz -x 80 -y 24
keys rz 1
wait_screen rz '^Memory ' >/dev/null
shot rz b80
tm resize-window -t rz -x 20 -y 5
sleep 0.3
tm resize-window -t rz -x 160 -y 50
wait_screen rz 'Memory.*Free blocks per order' >/dev/null
shot rz b160
for s in 1 2 3 4 6 h; do
	if cmp -s $T/a80.$s $T/b80.$s; then ok "back to 80x24: screen $s as before"; else not_ok "back to 80x24: screen $s as before" "$(diff $T/a80.$s $T/b80.$s)"; fi
	if cmp -s $T/a160.$s $T/b160.$s; then ok "back to 160x50: screen $s as before"; else not_ok "back to 160x50: screen $s as before" "$(diff $T/a160.$s $T/b160.$s)"; fi
done
keys rz q
check_screen "after all that, q quits with status 0" rz '^exit=0$'
done_testing

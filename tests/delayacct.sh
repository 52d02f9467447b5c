#!/bin/sh
# Delay accounting on this kernel, for real (tests/delayacct-live.c): with
# kernel.task_delayacct=1, a dd reading a file with O_DIRECT shows block
# I/O waits equal to the kernel's own delayacct_blkio_ticks (field 42 of
# /proc/PID/stat) over the same ticks, and is in the top by tid and comm;
# with 0, the state says off and how to turn it on, and turning it on
# while running is seen; not root, unavailable with the reason. The
# switch is put back as it was, whatever happens.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
SYSCTL=/proc/sys/kernel/task_delayacct

if [ "$(id -u)" != 0 ]; then
	ok "delay accounting # SKIP needs root"
	done_testing
	exit 0
fi
if [ ! -e "$SYSCTL" ]; then
	ok "delay accounting # SKIP no kernel.task_delayacct here"
	done_testing
	exit 0
fi
was=$(cat $SYSCTL)
ddpid=
restore() {
	[ -n "$ddpid" ] && kill "$ddpid" 2>/dev/null
	echo "$was" > $SYSCTL
	tmux_cleanup
}
trap restore EXIT
trap 'exit 1' INT TERM HUP
val() { sed -n "s/^$1=//p" "$2"; }

# A file on a disk (not tmpfs: O_DIRECT), written through to it.
dir=$(mktemp -d "${DELAYACCT_DIR:-/var/tmp}/pagetop-da.XXXXXX") || dir=$T
f=$dir/blocks
dd if=/dev/urandom of=$f bs=1M count=32 conv=fsync 2>/dev/null

echo 1 > $SYSCTL
# 512-byte direct reads of 32 MB: many seconds on any disk; killed after.
dd if=$f of=/dev/null iflag=direct bs=512 2>/dev/null &
ddpid=$!
sleep 0.3
if ! $DELAYACCT_LIVE -w $ddpid -n 9 -i 0.25 > $T/on.txt 2> $T/on.err; then
	not_ok "delayacct-live ran" "$(cat $T/on.err)"
fi
# The same through pagetop record and dump --json: the live feed reads it
# each tick and the recording keeps it (field 31). A dd of its own: the one
# above may have read its file through by now.
kill $ddpid 2>/dev/null
wait $ddpid 2>/dev/null
dd if=$f of=/dev/null iflag=direct bs=512 2>/dev/null &
ddpid=$!
sleep 0.3
$PAGETOP record -d 0.5 --duration 3s --no-probes -o $T/da.ptrec 2>/dev/null
$PAGETOP dump --json $T/da.ptrec > $T/da.jsonl 2>/dev/null
check_eq "record: every sample has delay accounting on" \
	"$(jq -r '.delays.state' $T/da.jsonl | sort -u)" on
check "record: the dd is in the top of a sample, with block I/O wait" \
	test "$(jq -s --argjson p $ddpid '[.[] | .delays.top[]? | select(.tid == $p and .comm == "dd" and .blkio.seconds > 0)] | length' $T/da.jsonl)" -ge 1
$PAGETOP record -d 0.5 --duration 1s --no-probes --no-delayacct -o $T/nda.ptrec 2>/dev/null
check_eq "--no-delayacct: none recorded" \
	"$($PAGETOP dump --json $T/nda.ptrec | jq -r '.delays.state // "none"' | sort -u)" none
kill $ddpid 2>/dev/null
wait $ddpid 2>/dev/null
ddpid=
rm -rf "$dir"

check_eq "on: the state" "$(val state $T/on.txt)" on
check_eq "on: every tick read" "$(val states $T/on.txt)" on,on,on,on,on,on,on,on,on
check_match "on: this kernel gives reclaim, thrashing, compaction" \
	"$(val kinds $T/on.txt)" 'blkio,swapin,reclaim,thrashing,compact,cpu'
check "on: tasks answered" test "$(val answered $T/on.txt)" -gt 0
# Every tick, but for one where more tasks ran than a tick keeps (the
# first, on a box of more than 512 tasks) and the dd's turn was later.
check "the dd ran in every tick, by the task scan ($(val watch_ran $T/on.txt), $(val watch_capped $T/on.txt) ticks over the cap)" \
	test "$(val watch_ran $T/on.txt)" -ge 8 -a \
	"$(($(val watch_ran $T/on.txt) + $(val watch_capped $T/on.txt)))" -eq 9
check "the dd is in the top by tid, in 7 ticks or more after its first" \
	test "$(val watch_top $T/on.txt)" -ge 7
check_eq "... by comm" "$(val watch_comm $T/on.txt)" dd
got=$(val watch_delay_blkio_ns $T/on.txt)
want=$(val watch_stat_blkio_ns $T/on.txt)
# Field 42 is in clock ticks (10 ms), truncated at each end: 20 ms, and
# the moments of the two reads differ a little in each tick.
# At least 40 ms, so that a reader that saw none would be outside the
# tolerance below (a fast disk gives the dd 50 ms in these 2 s).
check "the dd waited on block I/O (stat says ${want} ns)" test "$want" -ge 40000000
check "its block I/O wait ($got ns) is the kernel's own ($want ns) within 30 ms + 5%" \
	awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 30e6 + w * 0.05) }'
check "all tasks' block I/O wait holds the dd's" \
	test "$(val total_blkio_ns $T/on.txt)" -ge "$got"
a=$(val allocs $T/on.txt)
if [ "$a" = -1 ]; then
	ok "no allocation in the reads # SKIP a sanitizer build"
else
	check_eq "no allocation in the reads after the first two" "$a" 0
fi

echo 0 > $SYSCTL
$DELAYACCT_LIVE -n 2 -i 0.1 > $T/off.txt 2>&1
check_eq "off: the state" "$(val state $T/off.txt)" off
check_match "off: says how to turn it on" "$(val why $T/off.txt)" \
	'turn it on: sysctl kernel\.task_delayacct=1'
check_eq "off: nothing asked" "$(val asked $T/off.txt)" 0

# Turned on while running: seen at the next look at the switch (2 s).
$DELAYACCT_LIVE -n 8 -i 0.5 > $T/turn.txt 2>&1 &
lp=$!
sleep 0.8
echo 1 > $SYSCTL
wait $lp
check_match "turned on while running: off, then on" \
	"$(val states $T/turn.txt)" '^off,(off,)*on(,on)*$'
check "... and read" test "$(val answered $T/turn.txt)" -gt 0

# Not root: the program copied where nobody may run it.
cp $DELAYACCT_LIVE $T/delayacct-live
chmod 755 $T $T/delayacct-live
if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		$T/delayacct-live -n 1 > $T/user.txt 2>&1
	check_eq "not root: unavailable" "$(val state $T/user.txt)" unavailable
	check_match "... with the reason" "$(val why $T/user.txt)" \
		'not root: TASKSTATS_CMD_GET needs CAP_NET_ADMIN'
else
	ok "not root # SKIP no setpriv"
	ok "not root, why # SKIP no setpriv"
fi

restore
trap - EXIT
check_eq "kernel.task_delayacct put back" "$(cat $SYSCTL)" "$was"
done_testing

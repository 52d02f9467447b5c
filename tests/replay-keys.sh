#!/bin/sh
# Replay's stops, in tmux at 80x24 and 200x60, on two recordings made here
# with things at known moments: ' and " go to the next and previous mark
# (the header shows the mark's first sample at or after it), n and N stop
# at the kinds f chose (not new task groups until asked), the status line
# names what a stop found; g outside the recording, R and m say why not.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export LANG=C.UTF-8 TZ=UTC XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR

# Marks one (+4.5 s: sample 5, 22:13:25), two (+12 s: 22:13:32), three
# (+20.3 s: 22:13:41); three new ways of blocking at 22:13:28, a fourth at
# 22:13:37; a gap before 22:13:45.
check "the crafted recording is made" $MKREC_TASKS $T/tasks.ptrec

# A recording of a proc root: mark alpha at about 1 s, PSI memory past 10%
# from 2 s, beta at 3 s, reclaim stalls from 4 s, an OOM kill in the
# kernel log at 5 s, gamma at 6 s.
make_root $T/root buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
	meminfo=$L/meminfo zoneinfo=$L/zoneinfo uptime=$L/uptime
mkdir -p $T/root/sys/kernel
echo keyhost > $T/root/sys/kernel/hostname
echo 6.1.0-keys > $T/root/sys/kernel/osrelease
: > $T/kmsg
start=$(date +%s.%N)
# Each file is there before the recorder starts: a file missing at its
# first read is taken as one this kernel lacks.
write_root() {
	e=$(awk -v s=$start -v n=$(date +%s.%N) 'BEGIN { print n - s }')
	awk -v e=$e '$1 == "allocstall_normal" && e >= 4 { $2 = $2 + int((e - 4) * 50) + 1 } { print }' \
		"$FIXTURES/$L/vmstat" > $T/root/vmstat.new && mv $T/root/vmstat.new $T/root/vmstat
	awk -v e=$e 'BEGIN { printf "some avg10=%s avg60=0.50 avg300=0.10 total=100\n", (e >= 2 ? "25.00" : "1.00");
		print "full avg10=0.00 avg60=0.00 avg300=0.00 total=50" }' \
		> $T/root/pressure/memory.new && mv $T/root/pressure/memory.new $T/root/pressure/memory
	if [ ! -f $T/oom ] && awk -v e=$e 'BEGIN { exit !(e >= 5) }'; then
		head -1 "$FIXTURES/kmsg/oom-kill-5.x-global.kmsg" >> $T/kmsg
		touch $T/oom
	fi
}
write_root
( while [ ! -f $T/stop ]; do
	write_root
	sleep 0.05
done ) &
wpid=$!
$PAGETOP record --proc-root $T/root --kmsg $T/kmsg -o $T/k.ptrec -d 0.2 --flush 0.2 \
	--duration 7 2>$T/rec.err &
rpid=$!
sleep 1; $PAGETOP mark "alpha" >/dev/null
sleep 2; $PAGETOP mark "beta" >/dev/null
sleep 3; $PAGETOP mark "gamma" >/dev/null
wait $rpid
touch $T/stop
wait $wpid
check_eq "the proc root's recording has its three marks" \
	"$($PAGETOP dump $T/k.ptrec --info | grep -c '^mark: ')" 3

# The time of the sample a mark's moment picks (its first at or after it).
mark_sample() {
	$PAGETOP dump $T/k.ptrec --at "mark:$1" --source buddyinfo |
		sed -n 's/^==> .* at [0-9-]* \([0-9:.]*\) <==$/\1/p'
}
# press NAME KEY REGEX DESCRIPTION: the key, then the screen matches.
press() {
	keys "$1" "$2"
	check_screen "$1: $4" "$1" "$3"
}

for size in 80x24 200x60; do
	c=${size%x*}; r=${size#*x}
	n=t$c
	tmux_start $n $c $r "$PAGETOP replay $T/tasks.ptrec"
	check_screen "$n: replay starts at the first sample" $n 'REPLAY 22:13:20\.000 x1 paused'
	check_screen "$n: the keys on the status line" $n "n/N/f event  '\" mark  \\? help"
	press $n "'" "REPLAY 22:13:25\.000 .*" "' goes to the first mark's first sample after it"
	check_screen "$n: ... and names it" $n "^mark 'one' 22:13:24\.500"
	press $n "'" "REPLAY 22:13:32\.000 " "' again: the second mark (a sample at its moment)"
	check_screen "$n: ... named" $n "^mark 'two' 22:13:32\.000"
	press $n "'" "REPLAY 22:13:41\.000 " "' again: the third"
	check_screen "$n: ... named" $n "^mark 'three' 22:13:40\.300"
	press $n "'" "^no later mark" "' past the last mark: said so"
	check_screen "$n: ... and stays" $n 'REPLAY 22:13:41\.000 '
	press $n '"' "REPLAY 22:13:32\.000 " "\" goes back to the second mark"
	press $n '"' "REPLAY 22:13:25\.000 " "\" back to the first"
	press $n '"' "^no earlier mark" "\" before the first: said so"
	# n by default: marks and the gap, not the new task groups at :28.
	keys $n Home
	press $n n "^mark 'one' " "n stops at the mark"
	press $n n "^mark 'two' " "n skips the new task groups by default"
	check_screen "$n: ... at the mark's sample" $n 'REPLAY 22:13:32\.000 '
	press $n n "^mark 'three' " "n: the third mark"
	press $n n "^gap: 3 samples lost from 22:13:42\.200" "n stops at the gap, named"
	check_screen "$n: ... the sample after the gap" $n 'REPLAY 22:13:45\.000 '
	press $n n "^no later event of the kinds f chose" "n past the last: said so"
	# f: the kinds; 5 adds the new task groups.
	press $n f "^n/N stop at: 1 \\+marks 2 \\+kernel log 3 \\+stalls 4 \\+PSI 5 -new task groups 6 \\+gaps" \
		"f shows the kinds, new task groups off"
	press $n 5 "5 \\+new task groups" "5 turns them on"
	if [ $c -ge 100 ]; then
		check_screen "$n: ... and says how" $n '6 \+gaps  \(digits toggle\)'
	fi
	keys $n Enter
	keys $n Home
	press $n n "^mark 'one' " "n with groups: the mark first"
	press $n n "^3 new task groups: journal, writeback, vfork" "n: the three groups, all named"
	check_screen "$n: ... at the sample they appeared in" $n 'REPLAY 22:13:28\.000 '
	press $n n "^mark 'two' " "n: then the mark"
	press $n n "^1 new task group: page-io" "n: the fourth way of blocking"
	check_screen "$n: ... at its sample" $n 'REPLAY 22:13:37\.000 '
	press $n N "^mark 'two' " "N goes back to the mark"
	press $n N "^3 new task groups: " "N back to the groups"
	check_screen "$n: ... at their sample" $n 'REPLAY 22:13:28\.000 '
	keys $n f 1 Enter
	keys $n Home
	press $n n "^3 new task groups: " "marks off (f 1): n passes the mark to the groups"
	keys $n f 1 5 6 Enter
	keys $n End
	press $n N "^mark 'three' " "groups and gaps off: N from the end is the mark"
	# g outside the recording; R and m.
	keys $n g + 1 h Enter
	check_screen "$n: g past the end says so" $n "^'\\+1h' is after the recording's end \\(2023-11-14 22:13:20\\.000 to 22:13:49\\.000\\)"
	keys $n g
	keys $n "2023-11-14 22:00:00" Enter
	check_screen "$n: g before the start says so" $n "^'2023-11-14 22:00:00' is before the recording's start"
	check_screen "$n: ... and stays where it was" $n 'REPLAY 22:13:41\.000 '
	press $n R "^R records a live session: this is a recording already" "R says why not"
	press $n m "^m marks a recording as it is made: live, or with pagetop mark" "m says why not"
	check_eq "$n: nothing past $c columns" "$(screen_of $n | wc -L)" $c
	keys $n q
	check_screen "$n: q quits" $n '^exit=0$'

	# The proc root's recording: PSI, stalls, the kernel log, marks.
	n=k$c
	tmux_start $n $c $r "$PAGETOP replay $T/k.ptrec"
	check_screen "$n: replay starts" $n 'REPLAY [0-9:.]{12} x1 paused'
	for m in alpha beta gamma; do
		at=$(mark_sample $m)
		press $n "'" "REPLAY $at " "' lands on mark $m's first sample at or after it ($at)"
		check_screen "$n: ... named" $n "^mark '$m' [0-9:]{8}\\.[0-9]{3}"
	done
	keys $n Home
	press $n n "^mark 'alpha' " "n: alpha"
	check_screen "$n: ... at its sample" $n "REPLAY $(mark_sample alpha) "
	press $n n '^memory pressure 25\.0% \(some avg10\)' "n: PSI memory rising past 10%"
	press $n n "^mark 'beta' " "n: beta"
	press $n n '^stalls begin: [0-9]+ in direct reclaim, 0 in compaction' "n: reclaim stalls beginning"
	press $n n '^kernel: oom-kill python3:15784 ' "n: the OOM kill in the kernel log"
	press $n n "^mark 'gamma' " "n: gamma, the stalls going on are no new event"
	press $n N '^kernel: oom-kill ' "N: back to the OOM kill"
	keys $n f 3 Enter
	press $n N "^mark 'beta' " "stalls off: N passes them"
	keys $n q
	check_screen "$n: q quits" $n '^exit=0$'
done
done_testing

#!/bin/sh
# pagetop replay A --compare B, in tmux at 80x24 and 200x60: two proc
# roots recorded side by side, B's pgscan_kswapd counting twice as fast
# and B started a second later; B's sample is the one at the same elapsed
# time (or from a mark both have), its time in the header, its memory,
# rates (beside A's, its trend under them), Reclaim rows, heatmap and
# kernel log events, from B's own files.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export LANG=C.UTF-8 TZ=UTC XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR

for w in a b; do
	make_root $T/$w buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
		meminfo=$L/meminfo zoneinfo=$L/zoneinfo pressure/memory=$L/pressure/memory \
		uptime=$L/uptime
	mkdir -p $T/$w/sys/kernel
	echo host$w > $T/$w/sys/kernel/hostname
	echo 6.1.0-$w > $T/$w/sys/kernel/osrelease
done
# B's free memory is its own: 1 GiB; and 4242 free blocks of order 0 in DMA32.
awk '$1 == "MemFree:" { $2 = 1048576 } { print }' $T/b/meminfo > $T/b/meminfo.new &&
	mv $T/b/meminfo.new $T/b/meminfo
awk '$4 == "DMA32" { $5 = 4242 } { print }' $T/b/buddyinfo > $T/b/buddyinfo.new &&
	mv $T/b/buddyinfo.new $T/b/buddyinfo
# And its Normal zone has 1 GiB free (262144 pages) in zoneinfo.
awk '/^Node/ { z = $4 } z == "Normal" && $1 == "pages" && $2 == "free" { $3 = 262144; z = "" } { print }' \
	$T/b/zoneinfo > $T/b/zoneinfo.new && mv $T/b/zoneinfo.new $T/b/zoneinfo
start=$(date +%s.%N)
( while [ ! -f $T/stop ]; do
	n=$(date +%s.%N)
	for w in a b; do
		awk -v s=$start -v n=$n -v k=$([ $w = a ] && echo 10000 || echo 20000) \
			'$1 == "pgscan_kswapd" { $2 = int((n - s) * k) } { print }' \
			"$FIXTURES/$L/vmstat" > $T/$w/vmstat.new && mv $T/$w/vmstat.new $T/$w/vmstat
	done
	sleep 0.05
done ) &
wpid=$!
# B's kernel log has an OOM kill, A's nothing.
: > $T/a.kmsg
head -1 "$FIXTURES/kmsg/oom-kill-5.x-global.kmsg" > $T/b.kmsg
$PAGETOP record --proc-root $T/a --kmsg $T/a.kmsg -o $T/a.ptrec -d 0.2 --duration 6 2>/dev/null &
p1=$!
# Half an interval more than a second: B's samples fall between A's, so
# that the same moment seldom lies within a millisecond of one of B's.
sleep 1.1
$PAGETOP record --proc-root $T/b --kmsg $T/b.kmsg -o $T/b.ptrec -d 0.2 --duration 6 2>/dev/null &
p2=$!
sleep 2.5
$PAGETOP mark "halfway" >/dev/null
wait $p1 $p2
touch $T/stop
wait $wpid
$PAGETOP dump $T/a.ptrec --json > $T/a.json
$PAGETOP dump $T/b.ptrec --json > $T/b.json
check "both recordings were made" test -s $T/a.json -a -s $T/b.json

# The index of the sample of FILE.json a time of the day picks: the last
# at or before it, to the millisecond.
py() { python3 -c "$@"; }
at_time() {	# FILE.json SECONDS-SINCE-EPOCH: index
	py 'import json, sys
t = [json.loads(l)["time"] for l in open(sys.argv[1])]
w = float(sys.argv[2]); i = max([k for k in range(len(t)) if round(t[k], 3) <= round(w, 3) + 1e-9] or [0])
print(i)' "$1" "$2"
}
time_of() {	# FILE.json INDEX: seconds since the epoch
	py 'import json, sys; print(repr([json.loads(l)["time"] for l in open(sys.argv[1])][int(sys.argv[2])]))' "$1" "$2"
}
clock() {	# SECONDS: HH:MM:SS.mmm, rounded as pagetop prints
	py 'import sys, time; t = round(float(sys.argv[1]), 3); s = int(t)
print(time.strftime("%H:%M:%S", time.gmtime(s)) + ".%03d" % round((t - s) * 1000))' "$1"
}
clock_epoch() {	# HH:MM:SS.mmm on the day of A's start: seconds since the epoch
	py 'import sys, time, calendar
d = time.strftime("%Y-%m-%d", time.gmtime(float(sys.argv[2])))
h, f = sys.argv[1].split(".")
print(calendar.timegm(time.strptime(d + " " + h, "%Y-%m-%d %H:%M:%S")) + int(f) / 1000)' "$1" "$a0"
}
rate_k() {	# FILE.json INDEX: pgscan_kswapd's rate there in thousands a second, 1 decimal
	py 'import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]; i = int(sys.argv[2])
print("%.1f" % ((s[i]["vmstat"]["pgscan_kswapd"] - s[i - 1]["vmstat"]["pgscan_kswapd"]) / (s[i]["time"] - s[i - 1]["time"]) / 1000))' "$1" "$2"
}
# Within 10% (the screen divides by monotonic intervals, the JSON has wall times).
near() {	# GOT WANT
	py 'import sys; g, w = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if abs(g - w) <= max(0.1 * abs(w), 0.15) else 1)' "$1" "$2"
}
a0=$(time_of $T/a.json 0)
b0=$(time_of $T/b.json 0)
ma=$($PAGETOP dump $T/a.ptrec --info | sed -n 's/^mark: *\([0-9-]* [0-9:.]*\)  halfway$/\1/p')
mb=$($PAGETOP dump $T/b.ptrec --info | sed -n 's/^mark: *\([0-9-]* [0-9:.]*\)  halfway$/\1/p')
# One interval's rate jitters with the writer's beat; the whole run's does not.
avg() {	# FILE.json: pgscan_kswapd's mean rate
	py 'import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
print((s[-1]["vmstat"]["pgscan_kswapd"] - s[0]["vmstat"]["pgscan_kswapd"]) / (s[-1]["time"] - s[0]["time"]))' "$1"
}
check "B counted about twice as fast as A" \
	py "import sys; sys.exit(0 if 1.6 <= $(avg $T/b.json) / $(avg $T/a.json) <= 2.5 else 1)"
check_match "both have the mark" "$ma|$mb" '^[0-9-]+ [0-9:.]+\|[0-9-]+ [0-9:.]+$'

err=$($PAGETOP replay $T/a.ptrec --align start 2>&1)
check_eq "--align without --compare: refused" "$?:$err" "2:pagetop: replay: --align needs --compare"
err=$($PAGETOP replay $T/a.ptrec --compare $T/a.ptrec --align middle 2>&1)
check_eq "--align neither start nor mark: refused" "$?:$err" \
	"2:pagetop: replay: --align: 'middle' is neither start nor mark:TEXT"
tmux_start nomark 100 24 "$PAGETOP replay $T/a.ptrec --compare $T/b.ptrec --align mark:nope"
check_screen "--align at a mark neither has: one line naming the file" nomark \
	"^pagetop: --align \\($T/a.ptrec\\): 'mark:nope': no mark contains 'nope'"
check_screen "... exit 2" nomark '^exit=2$'
tmux_start bad 80 24 "$PAGETOP replay $T/a.ptrec --compare /etc/passwd"
check_screen "--compare a file that is not a recording: one line" bad '^pagetop: /etc/passwd: not a pagetop recording'
check_screen "... exit 1" bad '^exit=1$'

for size in 80x24 200x60; do
	c=${size%x*}; r=${size#*x}
	n=c$c
	tmux_start $n $c $r "$PAGETOP replay $T/a.ptrec --compare $T/b.ptrec"
	check_screen "$n: the header has A's time and B's, both first samples" $n \
		"REPLAY $(clock $a0) x1 paused  B $(clock $b0) "
	keys $n Right Right Right Right Right Right Right Right Right Right
	check_screen "$n: A steps 10 samples" $n "REPLAY $(clock $(time_of $T/a.json 10)) "
	# B at the same elapsed time: A's 10th sample's time from A's start.
	# The JSON's times are to the millisecond: where A's and B's elapsed
	# times are within 2 ms of each other, either sample is the same time.
	tb=$(py "print($(time_of $T/a.json 10) - $a0 + $b0)")
	want=$(at_time $T/b.json $(py "print($tb + 0.002)"))
	alt=$(at_time $T/b.json $(py "print($tb - 0.002)"))
	check_screen "$n: B at the same elapsed time (its sample $want)" $n \
		"REPLAY [0-9:.]{12} x1 paused  B ($(clock $(time_of $T/b.json $want))|$(clock $(time_of $T/b.json $alt))) "
	want=$(at_time $T/b.json $(clock_epoch "$(screen_of $n | sed -En '1s/.*  B ([0-9:.]{12}) .*/\1/p')"))
	row=$(screen_of $n | grep -Eo 'kswapd scan +[0-9.]+k +[0-9.]+k')
	ga=$(echo "$row" | sed -En 's/^kswapd scan +([0-9.]+)k +([0-9.]+)k$/\1/p')
	gb=$(echo "$row" | sed -En 's/^kswapd scan +([0-9.]+)k +([0-9.]+)k$/\2/p')
	wa=$(rate_k $T/a.json 10)
	wb=$(rate_k $T/b.json $want)
	if [ -n "$ga" ] && near "$ga" "$wa"; then ok "$n: A's kswapd scan rate is A's (${ga}k, ${wa}k recorded)"
	else not_ok "$n: A's kswapd scan rate is A's" "shown '$ga' in '$row', recorded ${wa}k"; fi
	if [ -n "$gb" ] && near "$gb" "$wb"; then ok "$n: B's beside it is B's (${gb}k, ${wb}k recorded)"
	else not_ok "$n: B's beside it is B's" "shown '$gb' in '$row', recorded ${wb}k"; fi
	check_screen "$n: Memory: A's free" $n '^ total [0-9.]+G  avail [0-9.]+G  free 23\.2G '
	if [ $r -ge 26 ]; then
		check_screen "$n: ... and B's line under it with B's" $n '^ B total [0-9.]+G  avail [0-9.]+G  free 1\.0G '
	else
		check_no_screen "$n: ... no room for B's at $size: the rates keep theirs" $n '^ B total '
	fi
	if [ $c -ge 150 ]; then
		# The right half: free blocks per order, B's line under each zone's.
		rows=$(screen_of $n | cut -c102- | grep -A1 '^ 0 DMA32 ')
		la=$(echo "$rows" | sed -n 1p | awk '{ print $3 }')
		lb=$(echo "$rows" | sed -n 2p | awk '{ print $1 ":" $2 }')
		check_match "$n: free blocks per order: B's line under DMA32's" "$lb" '^B:[▁▂▃▄▅▆▇█.]{11}$'
		check "$n: ... B's own (4242 blocks at order 0 in B, 1 in A)" test "B:$la" != "$lb"
	fi
	check_screen "$n: B's trend under A's" $n '  B +[▁▂▃▄▅▆▇█ ]*[▁▂▃▄▅▆▇█]'
	check_eq "$n: nothing past $c columns" "$(screen_of $n | wc -L)" $c
	# Zones: B's line under each of A's where the rows allow, B's own.
	if [ $r -ge 40 ]; then
		check_screen "$n: Zones: B's Normal under A's, 1 GiB free" $n '^   B +free +1\.0G  min '
		check "$n: ... right under A's Normal" sh -c "tmux -L '$TMUX_SOCK' capture-pane -p -t $n |
			grep -A1 '^ 0 Normal ' | sed -n 2p | grep -q '^   B  *free  *1.0G'"
	else
		check_no_screen "$n: Zones: no B lines at $r rows" $n '^   B +free '
	fi
	# Reclaim: B's row under each of A's, its value and chart B's.
	keys $n 3
	check_screen "$n: the Reclaim screen" $n '^Reclaim  per second'
	ga=$(screen_of $n | sed -En 's/^kswapd scan +([0-9.]+)k .*/\1/p')
	gb=$(screen_of $n | grep -A1 '^kswapd scan ' | sed -En '2s/^ +B +([0-9.]+)k .*/\1/p')
	if [ -n "$ga" ] && near "$ga" "$wa"; then ok "$n: Reclaim: A's kswapd scan is A's (${ga}k)"
	else not_ok "$n: Reclaim: A's kswapd scan is A's" "shown '$ga', recorded ${wa}k"; fi
	if [ -n "$gb" ] && near "$gb" "$wb"; then ok "$n: Reclaim: B's row under it is B's (${gb}k)"
	else not_ok "$n: Reclaim: B's row under it is B's" "shown '$gb', recorded ${wb}k"; fi
	check_screen "$n: ... with its chart and scale" $n '^ +B +[0-9.]+k +[▁▂▃▄▅▆▇█ ]*[▁▂▃▄▅▆▇█] +max [0-9.]+k$'
	check_eq "$n: nothing past $c columns on Reclaim" "$(screen_of $n | wc -L)" $c
	# Fragmentation: B's heatmap of the same zone under A's, where there is room.
	keys $n 2
	check_screen "$n: Fragmentation: B's free blocks beside A's" $n '^ord +free +B free '
	check_screen "$n: ... B's own (DMA32, order 0: 1 in A, 4242 in B)" $n '^ 0 +1 +4242 '
	if [ $r -ge 40 ]; then
		check_screen "$n: Fragmentation: A's heatmap, named" $n '^A: free pages at each order'
		check_screen "$n: ... and B's under it" $n '^B: free pages at each order'
		check "$n: ... B's after A's" sh -c "screen_of() { tmux -L '$TMUX_SOCK' capture-pane -p -t $n; }
			screen_of | grep -n '^[AB]: free pages' | cut -d: -f2 | tr -d '\n' | grep -qx AB"

	else
		check_screen "$n: Fragmentation: the table" $n '^ord +free'
	fi
	# Events: B's under A's, B's own.
	keys $n 5
	check_screen "$n: Events: A's list has none" $n '^no event so far'
	check_screen "$n: ... B's events under it" $n '^B: its kernel log events up to its sample'
	check_screen "$n: ... with B's OOM kill" $n '^[0-9:.]{12}  oom-kill +Out of memory: Killed process 15784'
	keys $n 1
	keys $n End
	check_screen "$n: End: A's last sample" $n "REPLAY $(clock $(time_of $T/a.json $(($(wc -l < $T/a.json) - 1)))) "
	keys $n Home
	check_screen "$n: Home: B back at its start" $n "B $(clock $b0) "
	keys $n q
	check_screen "$n: q quits" $n '^exit=0$'

	n=m$c
	tmux_start $n $c $r "$PAGETOP replay $T/a.ptrec --compare $T/b.ptrec --align mark:half"
	check_screen "$n: aligned at the mark, B starts a second after A: not started" $n \
		"REPLAY $(clock $a0) x1 paused  B not started "
	keys $n "'"
	wa=$(at_time $T/a.json $(py "import time, calendar; print(calendar.timegm(time.strptime('${ma%.*}', '%Y-%m-%d %H:%M:%S')) + 0.${ma#*.})"))
	check_screen "$n: ' to the mark in A" $n "^mark 'halfway' "
	ta=$(screen_of $n | sed -En '1s/.*REPLAY ([0-9:.]{12}) .*/\1/p')
	# B's mark plus what A's sample is past A's mark.
	tb=$(py "import time, calendar
def ep(s):
    d, f = s.rsplit('.', 1); return calendar.timegm(time.strptime(d, '%Y-%m-%d %H:%M:%S')) + float('0.' + f)
day = '${ma% *}'
print(ep('$mb') + ep(day + ' $ta') - ep('$ma'))")
	# The marks' times and A's are to the millisecond: within 2 ms of a
	# sample of B's, either is its moment.
	want=$(at_time $T/b.json $(py "print($tb + 0.002)"))
	alt=$(at_time $T/b.json $(py "print($tb - 0.002)"))
	check_screen "$n: B at its own mark's moment (its sample $want)" $n \
		"REPLAY $ta x1 paused  B ($(clock $(time_of $T/b.json $want))|$(clock $(time_of $T/b.json $alt))) "
	keys $n q
	check_screen "$n: q quits" $n '^exit=0$'
done

# A tall screen: B's unusable-index heatmap under A's, below the free pages'.
tmux_start tall 200 110 "$PAGETOP replay $T/a.ptrec --compare $T/b.ptrec"
wait_screen tall 'REPLAY ' >/dev/null
keys tall Right Right Right Right Right Right Right Right Right Right 2
check_screen "200x110: B's unusable index under A's" tall '^B: unusable free index at each order'
check "... in the order A free, B free, A unusable, B unusable" sh -c \
	"tmux -L '$TMUX_SOCK' capture-pane -p -t tall | grep -E '^[AB]: (free pages|unusable)' |
	cut -c1 | tr -d '\n' | grep -qx ABAB"
keys tall q

# Tasks: B's groups under A's list, from B's history. B's three ways of
# blocking start at its sample 3, A's at 8: at A's sample 5 only B has them.
check "the crafted recordings are made" sh -c "$MKREC_TASKS $T/ta.ptrec && $MKREC_TASKS $T/tb.ptrec 3"
for size in 80x24 200x60; do
	c=${size%x*}; r=${size#*x}
	n=k$c
	tmux_start $n $c $r "$PAGETOP replay $T/ta.ptrec --compare $T/tb.ptrec"
	wait_screen $n 'REPLAY 22:13:20\.000 ' >/dev/null
	keys $n Right Right Right Right Right
	# The Overview: B's tasks under A's where the rows allow.
	if [ $r -ge 30 ]; then
		check_screen "$n: Overview: B's tasks line, 3 blocked" $n '^  B   0 running 3 blocked: '
	else
		check_no_screen "$n: Overview: no B tasks line at $r rows" $n '^  B   [0-9]+ running'
	fi
	keys $n 4
	if [ $r -ge 30 ]; then
		check_screen "$n: Tasks: delay accounting, A's 8 ms of reclaim" $n '^ reclaim 8\.0ms  compact 0 '
		check_screen "$n: ... and B's own under it, 3 ms" $n '^B reclaim 3\.0ms  compact 0 .*\(5/5 tasks\)'
	fi
	check_screen "$n: Tasks: A at its sample 5" $n 'REPLAY 22:13:25\.000 x1 paused  B 22:13:25\.000 '
	check_screen "$n: ... no task blocked in A" $n 'no task is blocked'
	check_screen "$n: ... B's groups under it" $n '^B: blocked tasks at its sample'
	check_screen "$n: ... B's journal wait" $n '^ +1 +[0-9a-z]+ +journal +waiting for the ext4 journal to commit'
	check_screen "$n: ... and its vfork" $n '^ +1 +[0-9a-z]+ +vfork '
	check_eq "$n: nothing past $c columns" "$(screen_of $n | wc -L)" $c
	# Sensors: B's reading of the same chip and label beside A's (A at
	# 40 + 8 + 5, B at 40 + 3 + 5 degrees); B has no fan: "-".
	keys $n 6
	check_screen "$n: Sensors: a B column" $n '^  Sensor .* Value +B( |$)'
	check_screen "$n: ... B's temperature beside A's" $n '^  Package id 0 +53\.0.C +48\.0.C'
	check_screen "$n: ... B without the fan: -" $n '^  fan1 +1200 RPM +-( |$)'
	check_eq "$n: nothing past $c columns" "$(screen_of $n | wc -L)" $c
	keys $n q
	check_screen "$n: q quits" $n '^exit=0$'
done
done_testing

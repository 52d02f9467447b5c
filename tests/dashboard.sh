#!/bin/sh
# The dashboard driven in tmux as a person would: screens at 80x24 and
# 160x50, keys, pause and step, resize, colour and ASCII modes, rates from a
# proc root whose counters change, signals, no terminal.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export LANG=C.UTF-8

# A proc root of this kernel's files whose vmstat the test rewrites.
make_root $T/root buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
	meminfo=$L/meminfo zoneinfo=$L/zoneinfo pressure/memory=$L/pressure/memory \
	pressure/io=$L/pressure/io pressure/cpu=$L/pressure/cpu uptime=$L/uptime
mkdir -p $T/root/sys/kernel
echo testhost > $T/root/sys/kernel/hostname
echo 6.18.44-test > $T/root/sys/kernel/osrelease
R="$PAGETOP --proc-root $T/root"

# No terminal: one clear line, nonzero exit.
err=$($PAGETOP </dev/null 2>&1 >/dev/null)
st=$?
check_eq "no terminal: exit 1" "$st" 1
check_match "no terminal: points at snapshot" "$err" "^pagetop: the dashboard needs a terminal.*pagetop snapshot"
check_fails "-d below 0.1 is refused" $PAGETOP -d 0.05
check_fails "an unknown option is refused" $PAGETOP --frobnicate

# Overview at 80x24.
tmux_start ov 80 24 "$R -d 5"
check_screen "header: host, kernel, LIVE, interval" ov '^ pagetop  testhost  6\.18\.44-test  LIVE [0-9:]{8}  every 5s  up '
check_screen "overview: memory" ov '^ total 23\.5G  avail '
check_screen "overview: zones against watermarks" ov '^ 0 Normal  free +[0-9.]+[KMG]  min [0-9.]+M low [0-9.]+M high [0-9.]+M  ok'
check_screen "overview: PSI memory and io" ov '^ memory +[0-9]+\.[0-9]{2} '
check_screen "overview: free blocks per order with the indices" ov '^ 0 Normal .* +10 +0\.[0-9]{3} +0\.[0-9]{3} +0\.[0-9]{3}$'
check_screen "overview: first sample has no rate yet (–, not 0)" ov 'kswapd scan +– '
check_screen "overview: status line keys" ov '^q quit  space pause'
lines=$(screen_of ov | wc -l)
check_eq "overview fits 24 rows" "$lines" 24
check_eq "nothing past 80 columns" "$(screen_of ov | wc -L)" 80
# The "/" filter hides the zones it does not name in every zone section,
# and a section it empties says so.
keys ov / D M A 3 2 Enter
check_screen "/DMA32: the rates say they are filtered" ov '^ filtered: no rate.s name contains "DMA32"'
check_screen "/DMA32: the free-block row of DMA32 stays" ov '^ 0 DMA32 +[^ ]+ +10 '
check_screen "/DMA32: its watermark row stays" ov '^ 0 DMA32   free '
check_no_screen "/DMA32: no Normal watermark row" ov '^ 0 Normal  free'
check_no_screen "/DMA32: no Normal free-block row" ov '^ 0 Normal '
keys ov Escape
sleep 0.3
keys ov / x y z Enter
# The sections' title is there with or without the filter: wait for what
# only the filtered frame draws before counting (one frame draws both).
check_screen "/xyz: the watermarks say they are filtered" ov \
	'^ filtered: no zone.s name contains "xyz"$' 2
check_eq "/xyz: each emptied section says so" \
	"$(screen_of ov | grep -c '^ filtered: no zone.s name contains "xyz"$')" 2
keys ov Escape
check_screen "Esc clears the filter: Normal is back" ov '^ 0 Normal  free'
keys ov '?'
check_screen "? shows help" ov '^ +space +pause / resume'
keys ov Escape
check_screen "Esc goes back" ov 'Memory'
keys ov q
check_screen "q quits with status 0" ov '^exit=0$'
check_no_screen "the terminal is restored (no dashboard left on the screen)" ov 'pagetop  testhost'

# Fragmentation at 80x24: one zone, orders down, migratetypes across.
tmux_start fr 80 24 "$R -d 5"
wait_screen fr 'Memory' >/dev/null
keys fr 2
check_screen "fragmentation: zone list with the largest zone selected" fr '^Zone: .*\[0 DMA32\]'
check_screen "fragmentation: headers" fr '^ord +free +unusable +extfrag .*Unmovab'
keys fr Down
check_screen "Down selects the next zone" fr '^Zone: .*\[0 Normal\]'
check_screen "fragmentation: order 0 row of buddyinfo Normal" fr '^ 0 +217 +0\.000 +-1 '
check_screen "fragmentation: the pageblock order is marked" fr '^ 9 pb'
check_screen "fragmentation: pageblocks per migratetype" fr 'pageblocks'
check_screen "fragmentation: pagetypeinfo age and why it is read less often" fr 'pagetypeinfo read [0-9]+s ago \(every 10s: it takes the zone lock\)'
check_screen "fragmentation: heatmap over time" fr 'free pages at each order'
check_eq "fragmentation fits 80 columns" "$(screen_of fr | wc -L)" 80
check_no_screen "fragmentation at 80 columns: no chg column" fr '^ord +free +chg '
# The help says chg (and pages) need a wide screen.
keys fr '?' NPage
check_screen "help: chg is explained" fr "^ +chg: free blocks gained or lost since the heatmap's left edge;$"
check_screen "help: ... and said to appear only on wide screens" fr \
	'^ +chg, pages and pages>=o appear only on wide enough screens$'
keys fr Escape
wait_screen fr '^Zone: ' >/dev/null
keys fr Up
check_screen "Up selects the previous zone" fr '^Zone: .*\[0 DMA32\]'
keys fr / D M A Enter
check_screen "/ filters zones: only DMA and DMA32 listed" fr '^Zone: +(\[?0 DMA\]? +\[?0 DMA32\]?) +free'
check_screen "... and the status line shows the filter" fr 'filter: DMA'
keys fr Escape q

# Reclaim and sensors at 80x24.
tmux_start rc 80 24 "$R -d 5"
wait_screen rc 'Memory' >/dev/null
keys rc 3
check_screen "reclaim: kswapd scan rate row" rc '^kswapd scan +(–|0)( |$)'
check_screen "reclaim: compaction group" rc '^Compaction '
check_screen "reclaim: more rows below at 24 lines" rc 'more below'
keys rc 6
check_screen "sensors: only on the live system" rc 'Sensors are read only on the live system'
keys rc q

# A 2.6.20 kernel: no compaction counters, said once.
mkdir -p $T/old/pressure
cp "$FIXTURES/proc/vmstat/lkml-2007-2.6.20-uml-i386-pgsteal_zone-kswapd_steal.txt" $T/old/vmstat
tmux_start old 80 24 "$PAGETOP --proc-root $T/old -d 5"
keys old 3
check_screen "old kernel: compaction counters absent, with the reason" old 'compaction counters absent \(kernel without CONFIG_COMPACTION\)'
keys old 1
check_screen "old kernel: missing buddyinfo is said in its panel" old 'buddyinfo: not present'
check_screen "old kernel: no PSI is said in its panel" old 'pressure/memory: not present'
keys old q

# Large terminal: two columns.
tmux_start big 160 50 "$R -d 5"
check_screen "160x50: memory and free blocks side by side" big 'Memory.*Free blocks per order'
check_screen "160x50: all four PSI lines" big '^ cpu '
keys big 2
check_screen "160x50 fragmentation: the zone table" big '^>? +0 Normal +[0-9]+ '
check_screen "160x50 fragmentation: watermarks in bytes, as on the overview" big \
	'^>? +0 Normal +227993 +891M +19\.6M +24\.5M +29\.4M +10 '
check_screen "160x50 fragmentation: the chg column" big '^ord +free +chg +pages +pages>=o '
keys big 3
check_screen "160x50 reclaim: every group on one screen" big '^Swap & OOM'
keys big q

# Rates from counters that grow by 10000 pages a second.
awk_writer() {
	start=$(date +%s.%N)
	while [ -f $T/writer.run ]; do
		now=$(date +%s.%N)
		# and an uptime that goes on with them.
		awk -v s=$start -v n=$now -v u=$T/root/uptime.new \
			'BEGIN { printf "%.2f 1845.72\n", 1022.5 + n - s > u }
			$1 == "pgscan_kswapd" { $2 = int((n - s) * 10000) + 5 } { print }' \
			"$FIXTURES/$L/vmstat" > $T/root/vmstat.new && mv $T/root/vmstat.new $T/root/vmstat &&
			mv $T/root/uptime.new $T/root/uptime
		sleep 0.05
	done
}
touch $T/writer.run
awk_writer &
wpid=$!
tmux_start rate 80 24 "$R -d 1"
sleep 3.5
rate=$(screen_of rate | sed -En 's/^ kswapd scan +([0-9.]+k) .*/\1/p')
case $rate in
# The writer's steps (0.05 s, more on a loaded machine) against pagetop's
# 1 s ticks: within 10%.
9.*k|10k|10.*k|11k) ok "kswapd scan rate is 10k/s (shown $rate)" ;;
*) not_ok "kswapd scan rate is 10k/s" "$(screen_of rate)" ;;
esac
check_screen "a counter that does not move shows 0" rate 'direct scan +0 '
keys rate Space
check_screen "space pauses: PAUSED with the time shown" rate 'PAUSED [0-9:]{8} \(-0s\)'
sleep 2.2
check_screen "paused: sampling goes on (the pinned entry ages)" rate 'PAUSED [0-9:]{8} \(-[12]s\)'
# The entry's own clock, not its age (which grows while the check waits on
# a loaded machine): Left shows the sample one interval older.
paused_at() { screen_of rate | sed -En '1s/.* PAUSED ([0-9]{2}):([0-9]{2}):([0-9]{2}) .*/\1 \2 \3/p' | awk '{ print $1 * 3600 + $2 * 60 + $3 }'; }
p0=$(paused_at)
keys rate Left
i=0
while [ "$(paused_at)" = "$p0" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
p1=$(paused_at)
check_eq "Left steps back one sample (its clock 1 s earlier)" "$((p0 - p1))" 1
keys rate Home
check_screen "Home goes to the oldest sample: no predecessor, no rate" rate 'kswapd scan +– '
keys rate End
check_screen "End resumes the live view" rate ' LIVE [0-9:]{8} '
# Paused, "up" is the uptime of the entry shown, not of the newest sample.
# "up" as seconds: 17m04s is 1024.
up_of() {
	screen_of rate | sed -En '1s/.* up ([0-9]+)m([0-9]+)s *$/\1 \2/p' | awk '{ print $1 * 60 + $2 }'
}
u0=$(up_of)
sleep 2.1
u1=$(up_of)
check_match "live: up counts (it is the sample's uptime)" "$u0 $u1" '^1[0-9]{3} 1[0-9]{3}$'
if [ -n "$u0" ] && [ -n "$u1" ] && [ $((u1 - u0)) -ge 1 ]; then ok "live: up goes on"; else
	not_ok "live: up goes on" "$u0 then $u1"; fi
keys rate Space
wait_screen rate 'PAUSED' >/dev/null
u0=$(up_of)
sleep 3
check_eq "paused for 3 s: up does not change" "$(up_of)" "$u0"
keys rate Left Left
sleep 0.3
u1=$(up_of)
check_eq "stepped back two samples: up is 2 s less" "$((u0 - u1))" 2
keys rate End
rm -f $T/writer.run
wait $wpid
keys rate q

# A counter that goes backwards is a reset, not a negative rate.
tmux_start reset 80 24 "$R -d 0.5"
sleep 1.2
awk '$1 == "pgscan_kswapd" { $2 = 1 } { print }' "$FIXTURES/$L/vmstat" > $T/root/vmstat.new &&
	mv $T/root/vmstat.new $T/root/vmstat
check_screen "after a counter reset the rate is unknown" reset 'kswapd scan +– '
check_no_screen "no negative rate" reset 'kswapd scan +-'
keys reset q
cp "$FIXTURES/$L/vmstat" $T/root/vmstat

# Resize: redraws to the new size.
tmux_start rs 80 24 "$R -d 5"
wait_screen rs 'Memory' >/dev/null
tm resize-window -t rs -x 160 -y 50
check_screen "resize to 160x50: two columns" rs 'Memory.*Free blocks per order'
tm resize-window -t rs -x 80 -y 24
check_screen "resize back to 80x24: one column" rs '^Memory ─'
keys rs q

# Colour: on by default, off with NO_COLOR and --no-color.
tmux_start col 80 24 "$R -d 5"
wait_screen col 'Memory' >/dev/null
if tm capture-pane -p -e -t col | grep -q "$(printf '\033')\[3[0-7]m\|$(printf '\033')\[[0-9;]*3[0-7]m"; then ok "colour by default"; else not_ok "colour by default"; fi
keys col q
tmux_start nocol 80 24 "NO_COLOR=1 $R -d 5"
wait_screen nocol 'Memory' >/dev/null
if tm capture-pane -p -e -t nocol | grep -q "$(printf '\033')\[[0-9;]*3[0-7]m"; then not_ok "NO_COLOR: no colour"; else ok "NO_COLOR: no colour"; fi
keys nocol q
tmux_start nocol2 80 24 "$R -d 5 --no-color"
wait_screen nocol2 'Memory' >/dev/null
if tm capture-pane -p -e -t nocol2 | grep -q "$(printf '\033')\[[0-9;]*3[0-7]m"; then not_ok "--no-color: no colour"; else ok "--no-color: no colour"; fi
keys nocol2 q

# ASCII: a non-UTF-8 locale, or --ascii.
tmux_start asc 80 24 "LANG=C LC_ALL=C $R -d 5"
check_screen "non-UTF-8 locale: ASCII rules" asc '^Memory -----'
check_no_screen "non-UTF-8 locale: no block glyphs" asc '[▁▂▃▄▅▆▇█─]'
keys asc q
tmux_start asc2 80 24 "$R -d 5 --ascii"
check_screen "--ascii: ASCII rules" asc2 '^Memory -----'
keys asc2 q

# -n exits after N samples; signals quit cleanly.
tmux_start iter 80 24 "$R -d 0.2 -n 5"
check_screen "-n 5 exits by itself with status 0" iter '^exit=0$' 5
for sig in TERM INT HUP; do
	tmux_start sig$sig 80 24 "$R -d 5"
	wait_screen sig$sig 'Memory' >/dev/null
	pkill -$sig -P "$(tm display-message -p -t sig$sig '#{pane_pid}')"
	check_screen "SIG$sig quits with status 0" sig$sig '^exit=0$'
	check_no_screen "SIG$sig: terminal restored" sig$sig 'pagetop  testhost'
done

# The overview fits 80 columns: a line the test can read is whole or ends
# at a word with an ellipsis; at 200x60 it fills the screen with the
# blocked groups, the recent events and taller charts.
# cut_lines NAME REGEX: lines matching REGEX that reach column 80 without
# an ellipsis or a "(+N)" of groups not shown at their end (cut by the
# screen's edge, maybe mid-word).
cut_lines() {
	screen_of "$1" | grep -E -- "$2" | awk 'length($0) >= 80 && $0 !~ /(…|\(\+[0-9]+\))$/'
}
# Zones below each watermark: DMA below high, DMA32 below low, Normal below min.
make_root $T/low buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
	meminfo=$L/meminfo pressure/memory=$L/pressure/memory uptime=$L/uptime
mkdir -p $T/low/sys/kernel && echo lowhost > $T/low/sys/kernel/hostname
awk '/^Node/ { z = $4 } $1 == "pages" && $2 == "free" {
	$0 = "  pages free     " (z == "DMA" ? 80 : z == "DMA32" ? 13000 : z == "Normal" ? 3000 : $3) }
	{ print }' "$FIXTURES/$L/zoneinfo" > $T/low/zoneinfo
tmux_start wm 80 24 "$PAGETOP --proc-root $T/low -d 5"
check_screen "80x24: a zone below min says so" wm '^ 0 Normal  free .* high [0-9.]+[KMG]  (below min|<min)'
check_screen "80x24: below low" wm '^ 0 DMA32   free .*  (below low|<low)'
check_screen "80x24: below high" wm '^ 0 DMA     free .*  (below high|<high)'
check_eq "80x24: no watermark verdict cut by the edge" "$(cut_lines wm '^ 0 [A-Za-z0-9]+ +free ')" ""
tm resize-window -t wm -x 200 -y 60
check_screen "200x60: the whole verdict" wm ' 0 Normal  free .*  below min: allocations reclaim directly'
keys wm q

# A recording of this machine with a task blocked in vfork and, a second
# in, kernel log events whose newest is long (an OOM kill).
K=$FIXTURES/kmsg
now_records() {
	awk -F, -v OFS=, -v now="$(awk '{ printf "%.0f", $1 * 1000000 }' /proc/uptime)" \
		'NR == 1 { base = $3 } { $3 = sprintf("%.0f", $3 - base + now); print }' "$1"
}
if [ -d /proc/self/task ]; then
	$VFORK_HELPER 20 > $T/vfork.pid &
	vpid=$!
	mkfifo $T/kf
	$PAGETOP record --kmsg $T/kf -o $T/tk.ptrec -d 0.3 --duration 3 2>/dev/null &
	rpid=$!
	sleep 1.5
	{ now_records $K/hung-task-6.18-fsfreeze.kmsg | head -46
	  now_records $K/vmalloc-failure-6.18-memcg.kmsg; now_records $K/oom-memcg-6.18.kmsg; } > $T/kf
	wait $rpid
	kill $vpid 2>/dev/null
	wait $vpid 2>/dev/null
	tmux_start tk 80 24 "$PAGETOP replay $T/tk.ptrec"
	check_screen "80x24 replay: before the events, the biggest blocked group" tk \
		'^Tasks [0-9]+ running [0-9]+ blocked: [0-9]+ vfork, '
	check_eq "80x24: the Tasks line is not cut by the edge" "$(cut_lines tk '^Tasks ')" ""
	keys tk End
	check_screen "80x24 replay: at the end, the newest event after the counts" tk \
		'^Tasks [0-9]+ running [0-9]+ blocked +Events [0-9:]{8} oom-kill tail'
	check_eq "80x24: the Events line is not cut by the edge" "$(cut_lines tk '^Tasks ')" ""
	check_screen "80x24: ... it ends with the event whole or at a word with an ellipsis" tk \
		'^Tasks .* oom-kill tail:32464( anon 63\.8M( file)?)?(…| file 1\.6M)$'
	check_eq "80x24: still 24 rows" "$(screen_of tk | wc -l)" 24
	check_eq "80x24: nothing past 80 columns" "$(screen_of tk | wc -L)" 80
	tm resize-window -t tk -x 200 -y 60
	check_screen "200x60: the task states on a line" tk '^Tasks [0-9]+ running  [0-9]+ blocked  [0-9]+ sleeping '
	check_screen "200x60: the blocked groups one a line" tk \
		'^       [0-9]+ vfork, (≥)?[0-9][0-9dhms]*: parent waiting for its vfork child'
	check_screen "200x60: the newest event first" tk '^Events [0-9:]{8} oom-kill tail:32464 anon 63\.8M file 1\.6M'
	check_eq "200x60: the four events, one a line" \
		"$(screen_of tk | grep -cE '^(Events|      ) [0-9:]{8} (oom-kill|oom-invoked|alloc-failure|hung-task) ')" 4
	scan=$(screen_of tk | grep -n 'kswapd scan ' | cut -d: -f1)
	steal=$(screen_of tk | grep -n 'kswapd steal ' | cut -d: -f1)
	check_eq "200x60: taller charts (4 lines a rate)" "$((steal - scan))" 4
	used=$(screen_of tk | grep -n 'OOM kills ' | cut -d: -f1)
	[ "${used:-0}" -ge 50 ] && ok "200x60: the overview uses the screen (to row $used of 60)" ||
		not_ok "200x60: the overview uses the screen" "OOM kills at row '$used': $(screen_of tk)"
	keys tk q
else
	ok "recorded blocked tasks and events # SKIP no procfs"
fi

# Not root: pagetypeinfo unreadable is one panel's note, the rest works.
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
	chmod 755 $T && cp $PAGETOP $T/pagetop-copy && chmod 755 $T/pagetop-copy
	tmux_start nobody 80 24 "runuser -u nobody -- $T/pagetop-copy -d 5"
	check_screen "not root: the overview works" nobody '^ 0 Normal  free'
	keys nobody 2
	check_screen "not root: fragmentation says pagetypeinfo needs root" nobody 'pagetypeinfo: permission denied \(needs root\)'
	# The top order is the live machine's: 10 when it is idle, lower under pressure.
	check_screen "not root: ... and still shows buddyinfo per order" nobody '^ ?[0-9]+ [a-z,]*top +[0-9]+ '
	keys nobody q
else
	ok "not root # SKIP needs root and runuser"
fi
done_testing

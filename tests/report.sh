#!/bin/sh
# pagetop report: a recording made here from a proc root that changes
# (figures checked against the samples dump gives), --since/--until,
# 78 columns, damaged files, files that are not recordings, and the
# committed recordings.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export TZ=UTC
make_root $T/root buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
	meminfo=$L/meminfo zoneinfo=$L/zoneinfo pressure/memory=$L/pressure/memory \
	pressure/io=$L/pressure/io uptime=$L/uptime
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR

# within78 NAME FILE: every line of FILE at most 78 columns.
within78() {
	w=$(awk '{ if (length > m) m = length } END { print m + 0 }' "$2")
	if [ "$w" -le 78 ]; then ok "$1: every line within 78 columns ($w)"; else
		not_ok "$1: every line within 78 columns" "$(awk 'length > 78' "$2")"; fi
}
clock() { date -u -d "@$1" +%H:%M:%S.%3N; }

# Five versions, each held 0.6 s while recording every 0.2 s: version k
# moves pgscan_kswapd to 1000000 + 1000k and Normal's order-0 count by
# 1000k; version 2 also takes away Normal's blocks of order 8 and up (its
# worst moment) and has the highest memory pressure, 42.50%.
version() {
	awk -v k=$1 '/^Node/ { printf "Node %d, zone %8s ", $2, $4; for (i = 5; i <= NF; i++) printf "%6d ", (k == 2 && $4 == "Normal" && i >= 13) ? 0 : $i + (i == 5 && $4 == "Normal" ? 1000 * k : 0); print "" }' \
		"$FIXTURES/$L/buddyinfo" > $T/root/buddyinfo.new && mv $T/root/buddyinfo.new $T/root/buddyinfo
	awk -v k=$1 '$1 == "pgscan_kswapd" { $2 = 1000000 + 1000 * k } { print }' "$FIXTURES/$L/vmstat" \
		> $T/root/vmstat.new && mv $T/root/vmstat.new $T/root/vmstat
	avg=$(echo "1.00 5.00 42.50 3.00 0.50" | cut -d' ' -f$(($1 + 1)))
	printf 'some avg10=%s avg60=0.00 avg300=0.00 total=%d\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
		$avg $((1000 * $1)) > $T/root/pressure/memory.new && mv $T/root/pressure/memory.new $T/root/pressure/memory
	cp $T/root/buddyinfo $T/buddyinfo.$1
}
version 0
$PAGETOP record --proc-root $T/root -o $T/rt.ptrec -d 0.2 --flush 0.5 2>$T/rec.err &
rpid=$!
sleep 0.3
for k in 1 2 3 4; do sleep 0.6; version $k; done
sleep 0.6
$PAGETOP mark "mke2fs starts"
sleep 0.3
kill -INT $rpid
wait $rpid
check_eq "the recording is made" "$?" 0

$PAGETOP dump $T/rt.ptrec --json > $T/rt.jsonl
$PAGETOP report $T/rt.ptrec > $T/full.txt 2>$T/full.err
check_eq "report: exit 0" "$?" 0
check_eq "report: nothing on stderr" "$(cat $T/full.err)" ""
within78 "report" $T/full.txt
full=$(cat $T/full.txt)
n=$(jq -s 'length' $T/rt.jsonl)
first=$(jq -s '.[0].time' $T/rt.jsonl)
last=$(jq -s '.[-1].time' $T/rt.jsonl)
check_match "the samples and the interval" "$full" "^Samples: +$n, one every 0\\.2s\$"
check_match "the range, dated once" "$full" \
	"^Time: +$(date -u -d @$first '+%Y-%m-%d %H:%M:%S.%3N') to $(clock $last) "
t2=$(jq -s 'map(select(.vmstat.pgscan_kswapd == 1002000))[0].time' $T/rt.jsonl)
t3=$(jq -s 'map(select(.vmstat.pgscan_kswapd == 1003000))[0].time' $T/rt.jsonl)
# The files of a version are renamed one after the other: a sample may take
# version 2's vmstat with version 1's pressure, so the peak's moment is
# the first sample with version 2's pressure.
tp=$(jq -s 'map(select(.psi.memory.some.avg10 == 42.5))[0].time' $T/rt.jsonl)
check_match "PSI memory some: the peak avg10 and when (version 2's first sample)" "$full" \
	"^  memory some +[0-9.]+% +42\\.50% +$(clock $tp)\$"
total=$(jq -s '.[-1].vmstat.pgscan_kswapd - .[0].vmstat.pgscan_kswapd' $T/rt.jsonl)
check_match "pgscan_kswapd: the total over the recording ($total)" "$full" \
	"^  pgscan_kswapd +pages +$total +[0-9.]+k/s +[0-9:]{8}\.[0-9]{3}\$"
tb=$(jq -s 'map(select(.buddyinfo[] | select(.zone == "Normal") | .free[8] == 0))[0].time' $T/rt.jsonl)
check_match "Normal: the worst moment is version 2's first sample, order 7 its highest" "$full" \
	"^  Node 0, zone Normal: worst at $(clock $tb): highest free order 7,"
row() {	# row K: Normal's counts in version K, as the report prints them
	awk '$4 == "Normal" { for (i = 5; i <= NF; i++) printf " +%s", $i }' $T/buddyinfo.$1
}
norm=$(sed -n '/zone Normal:/,/^    end/p' $T/full.txt)
check_match "Normal: the buddyinfo row at the start (version 0)" "$norm" "^    start$(row 0)\$"
check_match "Normal: the row at the worst moment (version 2)" "$norm" "^    worst$(row 2)\$"
check_match "Normal: the row at the end (version 4)" "$norm" "^    end$(row 4)\$"
check_match "the mark made with pagetop mark" "$full" '^  [0-9:]{8}\.[0-9]{3}  mke2fs starts$'
check_match "the host" "$full" '^Host: +[^ ].*, Linux '
check_match "no gaps" "$full" '^Gaps: +none$'

# --since and --until: exactly version 2's samples.
n2=$(jq -s 'map(select(.vmstat.pgscan_kswapd == 1002000)) | length' $T/rt.jsonl)
since=$(awk -v t=$t2 'BEGIN { printf "%.3f", t - 0.05 }')
until=$(awk -v t=$t3 'BEGIN { printf "%.3f", t - 0.05 }')
$PAGETOP report $T/rt.ptrec --since "$since" --until "$until" > $T/narrow.txt
narrow=$(cat $T/narrow.txt)
check_match "--since/--until: version 2's $n2 samples" "$narrow" "^Samples: +$n2, one every 0\\.2s\$"
check_match "--since/--until: starts at version 2, says the recording's range" "$narrow" \
	"^Time: +[0-9-]+ $(clock $t2) to .*, of a recording"
check_match "--since/--until: no pages scanned within" "$narrow" '^  pgscan_kswapd +pages +0 +0/s +-$'
check_match "--since/--until: the mark after it left out" "$narrow" '^Marks: none$'
within78 "--since/--until" $T/narrow.txt
$PAGETOP report $T/rt.ptrec --since -1s > $T/last.txt
k=$(sed -n 's/^Samples: *\([0-9]*\),.*/\1/p' $T/last.txt)
if [ "$k" -ge 4 ] && [ "$k" -le 6 ]; then ok "--since -1s: the last second ($k samples)"; else not_ok "--since -1s: the last second" "$k samples"; fi
$PAGETOP report $T/rt.ptrec --until +0.3s > $T/first.txt
check_match "--until +0.3s: the first two samples" "$(cat $T/first.txt)" '^Samples: +2, '
err=$($PAGETOP report $T/rt.ptrec --since "next week" 2>&1)
check_eq "a bad --since: exit 2" "$?" 2
check_match "... and says what a time is" "$err" "^pagetop: report: --since: 'next week' is not a time"
err=$($PAGETOP report $T/rt.ptrec --since -1h 2>&1)
check_eq "--since before the recording: exit 2" "$?" 2
check_match "... one line naming its span" "$err" \
	"^pagetop: report: --since: '-1h' is before the recording's start \\([0-9-]+ [0-9:]+\\.[0-9]{3} to ([0-9-]+ )?[0-9:]+\\.[0-9]{3}\\)\$"
err=$($PAGETOP report $T/rt.ptrec --since "$last" --until "$first" 2>&1)
check_eq "an empty range: exit 1" "$?" 1
check_eq "... with one line" "$err" "pagetop: $T/rt.ptrec: no samples between --since and --until"

# Damaged: a warning on stderr, still a report. (The bundled recording:
# its chunks are known, so the damage hits one of them in the middle.)
size=$(stat -c %s $PAGETOP_DATADIR/sample-build-6.18.ptrec)
cp $PAGETOP_DATADIR/sample-build-6.18.ptrec $T/flip.ptrec
printf 'XXXXXXXXXXXXXXXX' | dd of=$T/flip.ptrec bs=1 seek=$((size * 2 / 7)) conv=notrunc 2>/dev/null
$PAGETOP report $T/flip.ptrec > $T/flip.txt 2>$T/flip.err
check_eq "damaged: exit 0, a report all the same" "$?" 0
check_eq "damaged: one line of warning" "$(wc -l < $T/flip.err)" 1
check_match "... saying where" "$(cat $T/flip.err)" "^pagetop: $T/flip.ptrec: damaged at byte [0-9]+: .* ([0-9]+) samples lost\$"
lost=$(sed -n 's/.* \([0-9]*\) samples lost$/\1/p' $T/flip.err)
check_match "damaged: the report counts what could be read" "$(cat $T/flip.txt)" \
	"^Samples: +$((150 - lost)) of 150, one every 1s\$"
check_match "... and what could not, under Gaps" "$(cat $T/flip.txt)" "^(Gaps:)? +$lost samples could not be read \\(damage\\)\$"
check_match "damaged: the rest is summarised" "$(cat $T/flip.txt)" '^  Node 0, zone Normal: worst at '
within78 "damaged" $T/flip.txt
# Cut inside a frame: a cut that falls between two frames leaves a file
# that is only unindexed (the recording's size varies from run to run).
c=$(($(stat -c %s $T/rt.ptrec) * 3 / 4))
head -c $c $T/rt.ptrec > $T/cut.ptrec
while ! $PAGETOP dump $T/cut.ptrec --info 2>/dev/null | grep -q 'frame cut short' && [ $c -gt 1000 ]; do
	c=$((c - 7))
	head -c $c $T/rt.ptrec > $T/cut.ptrec
done
$PAGETOP report $T/cut.ptrec > $T/cut.txt 2>$T/cut.err
check_eq "cut short: exit 0" "$?" 0
check_match "cut short: one line of warning" "$(cat $T/cut.err)" "^pagetop: $T/cut.ptrec: cut short"
check_match "cut short: a report" "$(cat $T/cut.txt)" '^Samples: +[0-9]+'

# Damaged where nothing after can be read (the bundled recording's first
# chunk, on which every later sample depends): the report says so, exit 1.
cp $PAGETOP_DATADIR/sample-build-6.18.ptrec $T/dead.ptrec
printf 'XXXXXXXXXXXXXXXX' | dd of=$T/dead.ptrec bs=1 seek=300 conv=notrunc 2>/dev/null
$PAGETOP report $T/dead.ptrec > $T/dead.txt 2>/dev/null
check_eq "nothing readable: exit 1" "$?" 1
check_match "... and the report says so" "$(cat $T/dead.txt)" '^Time: +no sample could be read, of a recording from'

# Not a recording.
out=$($PAGETOP report /etc/passwd 2>$T/nr.err)
st=$?
check_eq "not a recording: one clear line" "$(cat $T/nr.err)" "pagetop: /etc/passwd: not a pagetop recording"
check_eq "... a nonzero exit" "$([ $st -ne 0 ] && echo yes)" yes
check_eq "... and no report" "$out" ""
check_fails "a missing file: a nonzero exit" $PAGETOP report $T/none.ptrec
check_fails "no file: a usage error" $PAGETOP report

# The committed recordings.
f=$FIXTURES/recordings/format-1.0.ptrec
$PAGETOP report $f > $T/f10.txt 2>&1
f10=$(cat $T/f10.txt)
check_match "format 1.0: host" "$f10" '^Host: +fixturehost, Linux 6\.18\.44 x86_64, 2 CPUs,'
check_match "format 1.0: 10 samples at 0.2 s" "$f10" '^Samples: +10, one every 0\.2s$'
check_match "format 1.0: its mark" "$f10" '^  [0-9:]{8}\.[0-9]{3}  format 1\.0 fixture$'
norm=$(sed -n '/zone Normal:/,/^    end/p' $T/f10.txt)
fix=$(awk '$4 == "Normal" { for (i = 5; i <= NF; i++) printf " +%s", $i }' $FIXTURES/$L/buddyinfo)
check_match "format 1.0: Normal as captured, at the start" "$norm" "^    start$fix\$"
check_match "format 1.0: ... and at the end" "$norm" "^    end$fix\$"
within78 "format 1.0" $T/f10.txt

s=$PAGETOP_DATADIR/sample-build-6.18.ptrec
$PAGETOP report $s > $T/sb.txt 2>&1
sb=$(cat $T/sb.txt)
$PAGETOP dump $s --json > $T/sb.jsonl
check_match "sample recording: 150 samples" "$sb" '^Samples: +150, one every 1s$'
check_match "sample recording: its 5 marks" "$sb" '^Marks: 5$'
# The worst moment of Normal, worked out here from every sample: the lowest
# highest free order, then the highest unusable index at 9, 3, 2
# (mm/vmstat.c: (free - suitable << j) * 1000 / free), the earliest first.
worst=$(jq -rs '
	def unus(f; j): (f | to_entries | map(.value * pow(2; .key)) | add) as $free |
		(f | to_entries | map(select(.key >= j) | .value * pow(2; .key - j)) | add) as $s |
		if $free == 0 then 1000 else ((($free - $s * pow(2; j)) * 1000 / $free) | floor) end;
	to_entries | map(.key as $i | .value | (.buddyinfo[] | select(.zone == "Normal") | .free) as $f |
		{ i: $i, t: .time,
		  high: ([$f | to_entries[] | select(.value > 0) | .key] | max // -1),
		  u9: unus($f; 9), u3: unus($f; 3), u2: unus($f; 2) })
	| sort_by(.high, -.u9, -.u3, -.u2, .i) | .[0] | "\(.t) \(.high)"' $T/sb.jsonl)
check_match "sample recording: Normal's worst moment as worked out from the samples" "$sb" \
	"^  Node 0, zone Normal: worst at $(clock ${worst% *}): highest free order ${worst#* },"
check_match "sample recording: the vfork parents, grouped" "$sb" \
	'^ +[0-9]+ +[0-9.]+s +[0-9.]+s +vfork: parent waiting for its vfork child'
check_match "sample recording: the stack of the longest" "$sb" '^          __do_sys_vfork$'
within78 "sample recording" $T/sb.txt
check_match "sample recording (made before the kernel log was): says so" "$sb" '^Kernel log: not recorded$'

# The kernel log: events of a recording made with --kmsg (an OOM kill of a
# cgroup, then a hung task warned about three times).
K=$FIXTURES/kmsg
cat $K/oom-memcg-6.18.kmsg $K/hung-task-6.18-fsfreeze.kmsg > $T/k.kmsg
$PAGETOP record --proc-root $T/root --kmsg $T/k.kmsg -d 0.1 --duration 1s -o $T/k.ptrec 2>/dev/null
$PAGETOP report $T/k.ptrec > $T/k.txt
kr=$(cat $T/k.txt)
check_match "kernel log: counted per kind" "$kr" \
	'^Kernel log: 5 events \(3 hung-task, 1 oom-invoked, 1 oom-kill\)$'
check_match "kernel log: the OOM victim, with its rss" "$kr" \
	'^  [0-9:]{8}\.[0-9]{3}  oom-kill       tail:32464 anon 63\.8M file 1\.6M$'
check_match "kernel log: the hung task with how long" "$kr" '^  [0-9:]{8}\.[0-9]{3}  hung-task      sh:30810 blocked 6s$'
within78 "kernel log" $T/k.txt
done_testing

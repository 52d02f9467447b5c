#!/bin/sh
# Moments you can name (util/when.h, man/pagetop.1 "Times"): on a recording
# at -d 0.5 with marks put by `pagetop mark`, every form of a time picks the
# sample the man page says (the last at or before it; a mark's own moment
# the first at or after the mark), compared on dump --at X --json's time.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export TZ=UTC
make_root $T/root buddyinfo=$L/buddyinfo vmstat=$L/vmstat meminfo=$L/meminfo uptime=$L/uptime
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR
$PAGETOP record --proc-root $T/root -o $T/m.ptrec -d 0.5 --flush 0.5 2>$T/rec.err &
rpid=$!
i=0
while [ $i -lt 50 ] && [ -z "$(ls $XDG_RUNTIME_DIR/pagetop 2>/dev/null)" ]; do sleep 0.1; i=$((i + 1)); done
sleep 1.3
$PAGETOP mark "mke2fs starts" >/dev/null
sleep 1.7
$PAGETOP mark "mke2fs done" >/dev/null
sleep 1.2
$PAGETOP mark "mke2fs again" >/dev/null
sleep 1.4
kill -INT $rpid
wait $rpid
check_eq "the recording is made" "$?" 0
$PAGETOP dump $T/m.ptrec --json | jq -s 'map(.time)' > $T/times.json
n=$(jq length $T/times.json)
[ "$n" -ge 10 ] && ok "$n samples" || not_ok "$n samples, want 10 or more"
$PAGETOP dump $T/m.ptrec --info > $T/info
first=$(jq '.[0]' $T/times.json)
last=$(jq '.[-1]' $T/times.json)

# The sample a time picks, by the man page's rule, and by dump.
at_or_before() { jq --argjson t "$1" 'map(select(. <= $t + 0.0005)) | last' $T/times.json; }
after_mark() { jq --argjson t "$1" 'map(select(. >= $t - 0.0005)) | first' $T/times.json; }
picked() { $PAGETOP dump $T/m.ptrec --at "$1" --json 2>&1 | jq .time; }
epoch() { date -u -d "$1" +%s.%N; }	# a printed date and time as epoch seconds
mark_at() { sed -n "s/^mark: *\\([0-9-]* [0-9:.]*\\)  .*$1.*/\\1/p" $T/info | sed -n "${2:-1}p"; }

m1=$(mark_at "starts"); m2=$(mark_at "done"); m3=$(mark_at "again")
check_match "dump --info prints a mark's time to the millisecond" "$m1" '^[0-9-]+ [0-9:]{8}\.[0-9]{3}$'
t1=$(epoch "$m1"); t2=$(epoch "$m2")

check_eq "start: the first sample" "$(picked start)" "$first"
check_eq "end: the last sample" "$(picked end)" "$last"
check_eq "+2.2s: the last sample at or before" "$(picked +2.2s)" \
	"$(at_or_before $(echo "$first + 2.2" | bc))"
check_eq "-1.2s: the last sample at or before" "$(picked -1.2s)" \
	"$(at_or_before $(echo "$last - 1.2" | bc))"
check_eq "end-0.8s: the last sample at or before" "$(picked end-0.8s)" \
	"$(at_or_before $(echo "$last - 0.8" | bc))"
# Off the 0.5 s grid: a time on it is within the sampler's jitter of a sample.
check_eq "start+1700ms" "$(picked start+1700ms)" "$(at_or_before $(echo "$first + 1.7" | bc))"
# Every sample by its printed clock time, date-time and epoch seconds.
bad=0
for i in $(seq 0 $((n - 1))); do
	s=$(jq ".[$i]" $T/times.json)
	clock=$(date -u -d "@$s" +%H:%M:%S.%3N)
	full=$(date -u -d "@$s" '+%Y-%m-%d %H:%M:%S.%3N')
	for spec in "$clock" "$full" "$s"; do
		got=$(picked "$spec")
		# A sample just after a mark may be the mark's (the same moment).
		[ "$got" = "$s" ] || { bad=$((bad + 1)); echo "# $spec picked $got, want $s"; }
	done
done
check_eq "every sample at -d 0.5 reached by its clock time, date and epoch seconds" "$bad" 0
# A tenth between two samples: the one before it.
s=$(jq '.[3]' $T/times.json)
tenth=$(date -u -d "@$(echo "$s + 0.25" | bc)" +%H:%M:%S.%1N)
check_eq "a clock time with one decimal ($tenth)" "$(picked "$tenth")" \
	"$(at_or_before $(epoch "$(date -u -d "@$s" +%Y-%m-%d) $tenth"))"
check_eq "a clock time with an offset ($tenth+1s)" "$(picked "$tenth+1s")" \
	"$(at_or_before $(echo "$(epoch "$(date -u -d "@$s" +%Y-%m-%d) $tenth") + 1" | bc))"
# Marks.
check_eq "mark:TEXT: the first sample at or after the mark" "$(picked mark:starts)" \
	"$(after_mark $t1)"
check_eq "mark:mke2fs#2: the second mark containing it" "$(picked 'mark:mke2fs#2')" \
	"$(after_mark $t2)"
check_eq "mark:mke2fs-1s: the last sample at or before a second before it" \
	"$(picked mark:mke2fs-1s)" "$(at_or_before $(echo "$t1 - 1" | bc))"
check_eq "mark:done+0.6s" "$(picked mark:done+0.6s)" "$(at_or_before $(echo "$t2 + 0.6" | bc))"
for m in "$m1" "$m2" "$m3"; do
	got=$(picked "$m")
	check "dump --at '$m' (a mark's printed time): no sample before the mark" \
		[ "$(echo "$got >= $(epoch "$m") - 0.0005" | bc)" = 1 ]
	check_eq "... the first sample after it" "$got" "$(after_mark $(epoch "$m"))"
done
# Bad times: one line, exit 2.
for spec in "mark:fsck" "mark:mke2fs#4" "08:61:00" "end+1h" "mark:starts-1h"; do
	err=$($PAGETOP dump $T/m.ptrec --at "$spec" 2>&1 >/dev/null)
	st=$?
	check_eq "--at '$spec': exit 2" "$st" 2
	check_eq "... one line" "$(printf '%s\n' "$err" | wc -l)" 1
done
check_match "mark:fsck says no mark has it" \
	"$($PAGETOP dump $T/m.ptrec --at mark:fsck 2>&1)" "^pagetop: dump: --at: 'mark:fsck': no mark contains 'fsck' \\(3 marks"
# report --since/--until take marks too.
check "report --since mark:starts --until mark:done" $PAGETOP report $T/m.ptrec \
	--since mark:starts --until mark:done
done_testing

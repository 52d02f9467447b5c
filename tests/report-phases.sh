#!/bin/sh
# pagetop report FILE --phases (cmd/cmd-report.c): on a recording made
# here with two marks, and a counter the test sets around them, each phase
# is named by the mark that opens it (the part before the first mark by
# "before <it>"), holds the samples from its mark's to the next mark's
# (both included) and totals the counter's increase between them; the
# whole, last, is the plain report.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export TZ=UTC
make_root $T/root buddyinfo=$L/buddyinfo vmstat=$L/vmstat meminfo=$L/meminfo uptime=$L/uptime
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR
pgscan() {	# pgscan N: pgscan_kswapd is N from now on
	sed "s/^pgscan_kswapd .*/pgscan_kswapd $1/" $FIXTURES/$L/vmstat > $T/root/v.new
	mv $T/root/v.new $T/root/vmstat
}
pgscan 500
$PAGETOP record --proc-root $T/root -o $T/p.ptrec -d 0.5 --flush 0.5 2>$T/rec.err &
rpid=$!
i=0
while [ $i -lt 50 ] && [ -z "$(ls $XDG_RUNTIME_DIR/pagetop 2>/dev/null)" ]; do sleep 0.1; i=$((i + 1)); done
sleep 1.2
pgscan 1000
sleep 1.2
$PAGETOP mark "phase A" >/dev/null
sleep 1.2
pgscan 4000
sleep 1.2
$PAGETOP mark "phase B" >/dev/null
sleep 1.2
pgscan 9000
sleep 1.2
kill -INT $rpid
wait $rpid
check_eq "the recording is made" "$?" 0

$PAGETOP report $T/p.ptrec --phases > $T/out 2>$T/err
check_eq "report --phases exits 0" "$?" 0
$PAGETOP report $T/p.ptrec > $T/plain 2>/dev/null
wide=$(awk 'length > 78' $T/out)
check_eq "every line within 78 columns" "$wide" ""

# The samples each phase should hold, from the samples' and marks' times.
$PAGETOP dump $T/p.ptrec --json 2>/dev/null | jq -s 'map(.time)' > $T/times.json
n=$(jq length $T/times.json)
mark_epoch() { date -u -d "$($PAGETOP dump $T/p.ptrec --info |
	sed -n "s/^mark: *\\([0-9-]* [0-9:.]*\\)  .*$1.*/\\1/p")" +%s.%N; }
first_after() { jq --argjson t "$1" 'map(. >= $t - 0.0005) | index(true)' $T/times.json; }
sa=$(first_after $(mark_epoch "phase A"))
sb=$(first_after $(mark_epoch "phase B"))
check "both marks have samples after them ($sa, $sb of $n)" [ "$sb" -gt "$sa" ]

# The reports, split at the rules: 3 phases, then the whole.
awk -v d=$T 'BEGIN { k = 1 } /^=+$/ && length == 78 { k++; next } { print > (d "/part" k) }' $T/out
check "three phases and the whole: four reports" [ -f $T/part4 ] && [ ! -f $T/part5 ]
phase() { sed -n 's/^Phase: *//p' $T/part$1; }
samples() { sed -n 's/^Samples: *\([0-9]*\).*/\1/p' $T/part$1; }
total() { sed -n 's/^  pgscan_kswapd  *pages  *\([0-9]*\) .*/\1/p' $T/part$1; }
check_eq "phase 1 is before the first mark" "$(phase 1)" '1 of 3, before "phase A"'
check_match "phase 2 is named by its mark" "$(phase 2)" '^2 of 3, "phase A" \(the mark at [0-9-]+ [0-9:]{8}\.[0-9]{3}\)$'
check_match "phase 3 is named by its mark" "$(phase 3)" '^3 of 3, "phase B" \(the mark at '
check_eq "the whole has no phase line" "$(phase 4)" ""
check_eq "before the mark: samples 0 to its sample" "$(samples 1)" $((sa + 1))
check_eq "phase A: from its mark's sample to the next mark's" "$(samples 2)" $((sb - sa + 1))
check_eq "phase B: from its mark's sample to the end" "$(samples 3)" $((n - sb))
check_eq "before the mark: pgscan_kswapd 500 -> 1000" "$(total 1)" 500
check_eq "phase A: pgscan_kswapd 1000 -> 4000" "$(total 2)" 3000
check_eq "phase B: pgscan_kswapd 4000 -> 9000" "$(total 3)" 5000
check_eq "the whole: 500 -> 9000" "$(total 4)" 8500
check_eq "phase A's total is what diff gives between the marks" "$(total 2)" \
	"$($PAGETOP diff $T/p.ptrec mark:A mark:B --json 2>/dev/null |
	   jq '.vmstat[] | select(.counter == "pgscan_kswapd") | .increase')"
# (the blank line after the rule is the rule's)
sed '1{/^$/d}' $T/part4 > $T/whole
check "the whole is the plain report" cmp $T/whole $T/plain

# Within --since/--until: marks outside open no phase.
$PAGETOP report $T/p.ptrec --phases --since mark:B > $T/since 2>/dev/null
check_eq "--since mark:B: one phase, then the whole" "$(grep -c '^Phase:' $T/since)" 1
check_match "... the one of mark B" "$(grep '^Phase:' $T/since)" '1 of 1, "phase B"'
$PAGETOP report $T/p.ptrec --phases --until mark:A-1s > $T/until 2>/dev/null
check_match "no mark in range: said" "$(head -1 $T/until)" '^No marks between --since and --until'
done_testing

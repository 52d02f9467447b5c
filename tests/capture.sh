#!/bin/sh
# Captures at the event through the real binary: a recorded allocation
# failure (tests/fixtures/kmsg) written as a kernel record into the
# recorder's --kmsg FIFO makes pagetop read pagetypeinfo at once, with
# --pagetypeinfo-every 30 (the last regular read seconds before): the
# capture holds the root's pagetypeinfo of that moment; dump --at event:1
# shows it with the verdict; a storm of 100 failures within a second
# opens the root's pagetypeinfo at most twice more (the 1 s floor),
# counted with strace; the Events screen (tmux) shows it on Enter.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
K=$FIXTURES/kmsg
make_root $T/root buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
	meminfo=$L/meminfo zoneinfo=$L/zoneinfo pressure/memory=$L/pressure/memory \
	pressure/io=$L/pressure/io pressure/cpu=$L/pressure/cpu uptime=$L/uptime
command -v strace >/dev/null || { echo "1..0 # SKIP no strace"; exit 0; }

now_us() { awk '{ printf "%.0f", $1 * 1000000 }' /proc/uptime; }
mkfifo $T/kf
# LeakSanitizer does not run under ptrace: off for this run (sanitizer builds).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -f -qq -e trace=openat -o $T/trace $PAGETOP record --proc-root $T/root --kmsg $T/kf \
	-o $T/c.ptrec -d 0.2 --duration 6 --pagetypeinfo-every 30 2>$T/err &
rec=$!
exec 3>$T/kf
sleep 1.5
# The free lists change just before the failure: Normal's Movable at
# order 10 becomes 777, which no regular read saw.
awk '/zone +Normal, type +Movable/ { $NF = 777 } { print }' $T/root/pagetypeinfo > $T/pti.new
mv $T/pti.new $T/root/pagetypeinfo
head -n 1 $K/alloc-failure-4.9-order10.kmsg | awk -F, -v OFS=, -v now="$(now_us)" \
	'{ $3 = now; print }' >&3
sleep 1.5
# The storm: 100 failures of 100 tasks (not merged as one) in a second.
i=0
while [ $i -lt 10 ]; do
	awk -v base=$((5000 + i * 10)) -v now="$(now_us)" 'BEGIN { for (k = 0; k < 10; k++)
		printf "4,%d,%d,-;t%d: page allocation failure: order:3, mode:0xcc0(GFP_KERNEL)\n",
		    base + k, now + k, base + k }' >&3
	sleep 0.1
	i=$((i + 1))
done
exec 3>&-
wait $rec
check_eq "the recording was made" "$?" 0

$PAGETOP dump $T/c.ptrec --json | jq -s . > $T/all.json
check_jq "the first failure has a capture" $T/all.json \
	'[.[] | .capture // empty][0] | .seq == 4021 and .order == 10 and .migratetype == "Unmovable"'
check_jq "... whose pagetypeinfo is the root's at that moment (777, not 203)" $T/all.json \
	'[.[] | .capture // empty][0].zones[] | select(.zone == "Normal") | .free_blocks.Movable[10] == 777'
check_jq "... while the regular read in force still had 203" $T/all.json \
	'[.[] | .pagetypeinfo // empty][0].free[] | select(.zone == "Normal" and .type == "Movable") | .free[10] == 203'
check_jq "... and the verdict in words" $T/all.json \
	'[.[] | .capture // empty][0].verdict | test("^no free Unmovable block of order >= 10 in DMA, DMA32, Normal; Movable had 1532 at order >= 10 but the request was Unmovable$")'
storm=$(jq '[.[] | .capture // empty | select(.seq >= 5000)] | length' $T/all.json)
check_match "the storm: one or two captures, not 100 ($storm)" "$storm" '^[12]$'
opens=$(grep -c "openat(.*$T/root/pagetypeinfo\"" $T/trace)
# One regular read at the start, one capture, at most two in the storm.
check_match "pagetypeinfo opened 3 or 4 times in all ($opens)" "$opens" '^[34]$'
check_jq "the last capture counts the captures and the events not captured" $T/all.json \
	'[.[] | .capture // empty] | .[-1].reads == length and .[-1].skipped >= 1'

out=$($PAGETOP dump $T/c.ptrec --at event:1 --source events)
check_match "dump --at event:1: the failure" "$out" '==> /dev/kmsg: alloc-failure at .* \(record 4021\) <=='
check_match "... and its capture with the verdict" "$out" \
	'verdict: no free Unmovable block of order >= 10 in DMA, DMA32, Normal; Movable'
check_match "... the free blocks per migratetype at the order" "$out" \
	'  node 0 Normal: free [0-9]+ min 5012 low 6265 high 7518'
at=$(printf '%s\n' "$out" | sed -n '1s/.* at \(.*\) (record.*/\1/p')
check_match "the event's printed time picks the same sample" \
	"$($PAGETOP dump $T/c.ptrec --at "$at" --source events)" 'verdict: no free Unmovable'
# The report: the failure's line, with the zone and the verdict under it.
$PAGETOP report $T/c.ptrec > $T/rep.txt 2>/dev/null
check_match "report: the allocation failure with its verdict" "$(tr '\n' ' ' < $T/rep.txt | tr -s ' ')" \
	'alloc-failure .* order 10, .*no free Unmovable block of order >= 10 in DMA, DMA32, Normal; Movable had 1532'
check "report: within 78 columns" test "$(awk '{ if (length > m) m = length } END { print m + 0 }' $T/rep.txt)" -le 78
# OpenMetrics: the capture in force from its sample on, as gauges.
$PAGETOP export --format openmetrics --source capture $T/c.ptrec > $T/c.om 2>$T/om.err
check_eq "export --source capture" "$?" 0
capsample=$(jq '[.[] | select(.capture)][0].time' $T/all.json)
first=$(awk '/^pagetop_capture_order / { print $3; exit }' $T/c.om)
check "OpenMetrics: the capture's series start at its sample ($first, $capsample)" \
	awk -v a="$first" -v b="$capsample" 'BEGIN { exit !(a - b < 0.0015 && b - a < 0.0015) }'
at_first() { awk -v f="$first" -v k="$1" 'index($0, k " ") == 1 && $NF == f { print $(NF - 1) }' $T/c.om; }
check_eq "... at it: the order" "$(at_first 'pagetop_capture_order')" 10
check_eq "... what asked for it" "$(at_first 'pagetop_capture_trigger{trigger="kmsg"}')" 1
check_eq "... the type asked for" \
	"$(at_first 'pagetop_capture_request_migratetype{migratetype="Unmovable"}')" 1
check_eq "... Normal's Movable blocks at order >= 10 as read at the failure (777)" \
	"$(at_first 'pagetop_capture_free_blocks_at_or_above{node="0",zone="Normal",migratetype="Movable"}')" 777
check_eq "... and its min watermark in bytes (5012 pages)" \
	"$(at_first 'pagetop_capture_zone_bytes{node="0",zone="Normal",field="min"}')" $((5012 * 4096))
check_eq "... its timestamp is the capture's" \
	"$(at_first 'pagetop_capture_timestamp_seconds')" "$(jq -r '[.[] | .capture // empty][0].time' $T/all.json)"
ncap=$(jq '[.[] | .capture // empty] | length' $T/all.json)
check_eq "the captures counter ends at the number of captures" \
	"$(awk '/^pagetop_captures_total / { v = $2 } END { print v }' $T/c.om)" "$ncap"
if command -v promtool >/dev/null; then
	check "promtool takes the capture series" promtool tsdb create-blocks-from openmetrics \
		$T/c.om $T/tsdb
fi
err=$($PAGETOP dump $T/c.ptrec --at event:999 2>&1)
check_match "event:N past the last: said" "$err" "has [0-9]+ kernel-log events$"

# The Events screen: Enter on the failure shows what was read at it.
mkfifo $T/kf2
tmux_start ev 160 50 "$PAGETOP --proc-root $T/root --kmsg $T/kf2 -d 0.5 --pagetypeinfo-every 30"
wait_screen ev 'Memory' >/dev/null
head -n 1 $K/alloc-failure-4.9-order10.kmsg | awk -F, -v OFS=, -v now="$(now_us)" \
	'{ $3 = now; print }' > $T/kf2
keys ev e
check_screen "Events: the failure listed" ev 'alloc-failure +xxxx: page allocation failure: order:10'
keys ev Enter
check_screen "Enter: what was read at the event" ev 'read at the event'
check_screen "... the verdict" ev '^no free Unmovable block of order >= 10 in DMA, DMA32, Normal; Movable had 1532'
check_screen "... the watermarks" ev '^node 0 Normal: free [0-9]+ min 5012 low 6265 high 7518'
check_screen "... the free blocks of the type asked for, at and above the order" ev \
	'^  \* Unmovable    o10 0: 0 at order >= 10'
keys ev q
done_testing

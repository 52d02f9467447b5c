#!/bin/sh
# pagetop export: a recording as CSV, JSON lines and OpenMetrics, checked
# against `pagetop dump --json` value by value, and the OpenMetrics through
# promtool into Prometheus blocks and back out.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
REC=$FIXTURES/../../data/sample-build-6.18.ptrec	# 150 samples of real pressure
FMT=$FIXTURES/recordings/format-1.0.ptrec

$PAGETOP dump $REC --json > $T/dump.jsonl
n=$($PAGETOP dump $REC --info | sed -n 's/^\([0-9]*\) samples$/\1/p')

# CSV: a header, one row per sample, the same number of fields in every row.
$PAGETOP export $REC --format csv > $T/r.csv
check_eq "csv: exit 0" "$?" 0
check_eq "csv: a header and one row per sample" "$(wc -l < $T/r.csv)" $((n + 1))
check_eq "csv: every row has every column" "$(awk -F, '{ print NF }' $T/r.csv | sort -u | wc -l)" 1
check_match "csv: the header names the figures" "$(head -1 $T/r.csv)" \
	'^time,buddyinfo_free_blocks\.0\.DMA\.0,.*,vmstat_pgscan_kswapd_total,.*,meminfo_mem_total_bytes,'
# col NAME FILE: the values of one column.
col() { awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $c }' "$2"; }
check_eq "csv: time is each sample's, in seconds with milliseconds" \
	"$(col time $T/r.csv | md5sum)" "$(jq -r '.time' $T/dump.jsonl | md5sum)"
check_eq "csv: free blocks at Normal order 3 equal dump's, sample by sample" \
	"$(col buddyinfo_free_blocks.0.Normal.3 $T/r.csv | md5sum)" \
	"$(jq -r '.buddyinfo[] | select(.zone == "Normal") | .free[3]' $T/dump.jsonl | md5sum)"
check_eq "csv: a vmstat counter equals dump's, sample by sample" \
	"$(col vmstat_pgscan_kswapd_total $T/r.csv | md5sum)" "$(jq -r '.vmstat.pgscan_kswapd' $T/dump.jsonl | md5sum)"
check_eq "csv: meminfo in bytes" "$(col meminfo_mem_total_bytes $T/r.csv | md5sum)" \
	"$(jq -r '.meminfo.MemTotal * 1024' $T/dump.jsonl | md5sum)"
check_eq "csv: the unusable index equals snapshot's arithmetic" \
	"$(col unusable_index.0.Normal.9 $T/r.csv | md5sum)" \
	"$(jq -r '.fragmentation[] | select(.zone == "Normal") | .unusable_index[9]' $T/dump.jsonl | md5sum)"
check_eq "csv: PSI avg10 as a ratio (0.53% is 0.0053)" \
	"$(col pressure_avg_ratio.io.some.10s $T/r.csv | awk '{ printf "%.0f\n", $1 * 10000 }' | md5sum)" \
	"$(jq -r '.psi.io.some.avg10' $T/dump.jsonl | awk '{ printf "%.0f\n", $1 * 100 }' | md5sum)"
check_eq "csv: pagetypeinfo (read every 10 s) is in force in every row" \
	"$(col pagetypeinfo_pageblocks.0.Normal.Movable $T/r.csv | grep -c '^[0-9]')" "$n"
check_eq "csv: ... with when it was read" \
	"$(col pagetypeinfo_read_timestamp_seconds $T/r.csv | sort -u | wc -l)" \
	"$(jq -r 'select(.pagetypeinfo) | .time' $T/dump.jsonl | wc -l)"
$PAGETOP export $REC --format json > $T/r.jsonl
check_eq "csv: blocked tasks per category, as the JSON's categories count them" \
	"$(col blocked_tasks.vfork $T/r.csv | md5sum)" \
	"$(jq '[.tasks.blocked[] | select(.category == "vfork")] | length' $T/r.jsonl | md5sum)"
check_match "... the vfork parent held in D among them" "$(col blocked_tasks.vfork $T/r.csv | sort -u | tr '\n' ' ')" "^0 1 "

# --since and --until pick samples by time, both ends included.
t3=$(jq -r '.time' $T/dump.jsonl | sed -n 3p)
t5=$(jq -r '.time' $T/dump.jsonl | sed -n 5p)
$PAGETOP export $REC --format csv --since $t3 --until $t5 > $T/range.csv
check_eq "--since/--until: samples 3 to 5" "$(col time $T/range.csv | tr '\n' ' ')" \
	"$(jq -r '.time' $T/dump.jsonl | sed -n 3,5p | tr '\n' ' ')"
$PAGETOP export $REC --format csv --until +10s > $T/rel.csv
check_eq "--until +10s: relative to the start" "$(($(wc -l < $T/rel.csv) - 1))" \
	"$(jq -s '.[0].time as $t | map(select(.time <= $t + 10)) | length' $T/dump.jsonl)"
# -D counts back from the last sample (as report --since does), not from the first.
$PAGETOP export $REC --format csv --since -10s > $T/last.csv
k=$(($(wc -l < $T/last.csv) - 1))
if [ "$k" -ge 10 ] && [ "$k" -le 11 ]; then ok "--since -10s: the last 10 s ($k samples of $n)"; else not_ok "--since -10s: the last 10 s" "$k samples of $n"; fi
check_eq "... the recording's last $k samples" "$(col time $T/last.csv | md5sum)" \
	"$(jq -r '.time' $T/dump.jsonl | tail -n $k | md5sum)"
$PAGETOP export $REC --format csv --since +10s --until -10s > $T/mid.csv
check_eq "--since +10s --until -10s: all but the first and last 10 s" "$(($(wc -l < $T/mid.csv) - 1))" \
	"$(jq -s '.[0].time as $a | .[-1].time as $b | map(select(.time >= $a + 10 and .time <= $b - 10)) | length' $T/dump.jsonl)"
err=$(TZ=UTC $PAGETOP export $REC --format csv --since -1h 2>&1 >/dev/null)
check_eq "--since -1h on 149 s: usage error" "$?" 2
check_eq "... one line naming the recording's span" "$err" \
	"pagetop: export: --since: '-1h' is before the recording's start (2026-11-30 04:35:11.254 to 04:37:40.255)"
$PAGETOP export $REC --format csv --source vmstat,pressure > $T/src.csv
check_match "--source vmstat,pressure: their columns" "$(head -1 $T/src.csv)" \
	'^time,vmstat_.*,pressure_avg_ratio\..*,source_up\.vmstat,source_up\.pressure/cpu,'
check_eq "--source vmstat,pressure: no others" \
	"$(head -1 $T/src.csv | tr , '\n' | grep -Evc '^(time|vmstat_.*|pressure_.*|source_up\.(vmstat|pressure/.*))$')" 0

# JSON lines: the snapshot shape, one object per sample.
$PAGETOP export $FMT --format json > $T/f.jsonl
check "json: every line parses" jq -e . $T/f.jsonl
$PAGETOP dump $FMT --json > $T/fd.jsonl
check "json: the same objects as dump --json" cmp $T/f.jsonl $T/fd.jsonl
$PAGETOP export $REC --format json --source buddyinfo > $T/b.jsonl
check_eq "json: one line per sample" "$(wc -l < $T/b.jsonl)" "$n"
check_eq "json --source buddyinfo: buddyinfo and its indices only" \
	"$(jq -c 'keys' $T/b.jsonl | sort -u)" '["buddyinfo","fragmentation","psi","time","unavailable","uptime"]'
check_eq "json: blocked tasks carry their category" \
	"$($PAGETOP export $REC --format json --source tasks | jq -r '.tasks.blocked[] | select(.comm == "vfork-helper") | .category' | sort -u)" vfork

# OpenMetrics: what promtool backfills into Prometheus.
$PAGETOP export $REC --format openmetrics > $T/r.om
check_eq "openmetrics: exit 0" "$?" 0
check_eq "openmetrics: ends with # EOF" "$(tail -1 $T/r.om)" "# EOF"
check_eq "openmetrics: no family twice (families do not interleave)" \
	"$(grep '^# TYPE' $T/r.om | sort | uniq -d | wc -l)" 0
check_eq "openmetrics: each series whole before the next (metrics do not interleave)" \
	"$(grep -v '^#' $T/r.om | sed 's/ [^ ]* [^ ]*$//' | uniq | sort | uniq -d | wc -l)" 0
check_eq "openmetrics: counters end in _total" \
	"$(grep '^pagetop_vmstat_pgscan_kswapd' $T/r.om | cut -d' ' -f1 | sort -u)" pagetop_vmstat_pgscan_kswapd_total
if command -v promtool >/dev/null; then
	out=$(promtool tsdb create-blocks-from openmetrics $T/r.om $T/tsdb 2>&1)
	check_eq "promtool create-blocks-from openmetrics takes it" "$?" 0
	series=$(grep -vc '^#' $T/r.om)
	check_match "... every sample lands in a block" "$(echo "$out" | awk 'NR > 1 { s += $5 } END { print s }')" "^$series\$"
	mkdir -p $T/tsdb/wal	# promtool 2.42's dump opens the WAL, which backfilled blocks lack
	promtool tsdb dump --match='pagetop_vmstat_pgscan_kswapd_total' $T/tsdb > $T/kswapd 2>&1
	check_eq "the blocks hold pgscan_kswapd at every sample's time, as dump has it" \
		"$(awk '{ printf "%.0f %s\n", $(NF - 1), $NF }' $T/kswapd | md5sum)" \
		"$(jq -r '"\(.vmstat.pgscan_kswapd) \(.time * 1000 | round)"' $T/dump.jsonl | md5sum)"
	promtool tsdb dump --match='pagetop_pressure_stalled_seconds_total{resource="memory",kind="some"}' \
		$T/tsdb > $T/stall 2>&1
	check_eq "... and memory stall seconds (microseconds / 10^6)" \
		"$(awk '{ printf "%.6f\n", $(NF - 1) }' $T/stall | md5sum)" \
		"$(jq -r '.psi.memory.some.total' $T/dump.jsonl | awk '{ printf "%.6f\n", $1 / 1000000 }' | md5sum)"
else
	not_ok "promtool (Debian package prometheus) is installed" "run ./bootstrap"
fi

# Bad input: one line, nonzero exit.
err=$($PAGETOP export /etc/passwd --format csv 2>&1)
check_eq "not a recording: one clear line" "$err" "pagetop: /etc/passwd: not a pagetop recording"
check_fails "... and a nonzero exit" $PAGETOP export /etc/passwd --format csv
$PAGETOP export $REC --format xml > /dev/null 2>&1
check_eq "unknown format: usage error" "$?" 2
$PAGETOP export $REC > /dev/null 2>&1
check_eq "no --format: usage error" "$?" 2
$PAGETOP export $REC --format csv --source slabinfo > /dev/null 2>&1
check_eq "unknown source: usage error" "$?" 2
err=$($PAGETOP export $REC --format csv --since yesterday 2>&1)
check_eq "bad time: usage error" "$?" 2
check_match "... that says what a time is" "$err" "--since: 'yesterday' is not a time"
$PAGETOP export $REC --format csv --since $t5 --until $t3 > /dev/null 2>$T/empty.err
check_eq "an empty range: nonzero exit" "$?" 1
check_match "... and says so" "$(cat $T/empty.err)" "no samples between --since and --until"
# Kernel log events per kind: a counter from the first sample exported.
L=roots/live-6.18-x86_64
make_root $T/kroot buddyinfo=$L/buddyinfo vmstat=$L/vmstat meminfo=$L/meminfo
$PAGETOP record --proc-root $T/kroot --kmsg $FIXTURES/kmsg/oom-memcg-6.18.kmsg -d 0.1 \
	--duration 1s -o $T/k.ptrec 2>/dev/null
$PAGETOP export $T/k.ptrec --format csv > $T/k.csv
check_match "csv: a column per kind of kernel event" "$(head -1 $T/k.csv)" \
	'kernel_events_total\.oom-kill'
check_eq "csv: the OOM kill counted once, and then stays counted" \
	"$(col kernel_events_total.oom-kill $T/k.csv | sort -u | tr '\n' ' ')" "1 "
$PAGETOP export $T/k.ptrec --format openmetrics > $T/k.om
check_match "openmetrics: kernel events as a counter" "$(cat $T/k.om)" \
	'^# TYPE pagetop_kernel_events counter$'
check_match "openmetrics: ... with the OOM kill" "$(cat $T/k.om)" \
	'^pagetop_kernel_events_total\{kind="oom-kill"\} 1 [0-9.]+$'
# Identical lines merged into one event still count as printed: the
# counter is of lines, as the kernel printed them (30 in 30 ms, one event).
i=0
while [ $i -lt 30 ]; do
	printf '3,%d,%d,-;Buffer I/O error on dev sda1, logical block 4242, lost async page write\n' \
		$((100 + i)) $((5000000 + 1000 * i))
	i=$((i + 1))
done > $T/same.kmsg
$PAGETOP record --proc-root $T/kroot --kmsg $T/same.kmsg -d 0.1 --duration 1s -o $T/same.ptrec 2>/dev/null
check_eq "the 30 lines are one event" "$($PAGETOP dump --source events $T/same.ptrec 2>/dev/null | grep -c '^==>')" 1
$PAGETOP export $T/same.ptrec --format csv > $T/same.csv
check_eq "csv: ... and count 30 in kernel_events_total" \
	"$(col kernel_events_total.io-error $T/same.csv | tail -1)" 30
$PAGETOP export $REC --format csv > $T/nok.csv
check_eq "a recording without the kernel log: no such columns" \
	"$(head -1 $T/nok.csv | grep -c kernel_events)" 0

# What export keeps from the sample before (the CSV row's unmoved columns,
# vmstat names known, the JSON's unmoved members and zones) changes
# nothing: each sample exported alone gives the same line as in the whole.
# Real pressure (counters and free lists moving) and blocked tasks.
for r in $REC $FIXTURES/recordings/format-2.2.ptrec; do
	: > $T/alone.csv
	: > $T/alone.jsonl
	for t in $($PAGETOP dump $r --json 2>/dev/null | jq -r '.time' | sed -n '1,40p'); do
		$PAGETOP export $r --format csv --since $t --until $t 2>/dev/null | sed 1d >> $T/alone.csv
		$PAGETOP export $r --format json --since $t --until $t 2>/dev/null >> $T/alone.jsonl
	done
	k=$(wc -l < $T/alone.csv)
	check_eq "$(basename $r): 40 samples (or all) alone" "$k" \
		"$($PAGETOP dump $r --json 2>/dev/null | sed -n '1,40p' | wc -l)"
	check_eq "$(basename $r): csv rows alone are the whole export's" \
		"$($PAGETOP export $r --format csv 2>/dev/null | sed 1d | head -n $k | md5sum)" \
		"$(md5sum < $T/alone.csv)"
	check_eq "$(basename $r): json lines alone are the whole export's" \
		"$($PAGETOP export $r --format json 2>/dev/null | head -n $k | md5sum)" \
		"$(md5sum < $T/alone.jsonl)"
done
# Written out by a thread of its own: a full disk is still an error.
if [ -w /dev/full ]; then
	$PAGETOP export $REC --format json > /dev/full 2> $T/full.err
	check_eq "json to a full disk: exit 1" "$?" 1
	check_match "... saying why" "$(cat $T/full.err)" 'export: writing: No space left on device'
fi
done_testing

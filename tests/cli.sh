#!/bin/sh
# The command line: version, help, dispatch, usage errors.
set -u
. "$TESTLIB"

v=$($PAGETOP --version)
check_match "--version prints the version" "$v" '^pagetop [0-9]+\.[0-9]+\.[0-9]+$'
h=$($PAGETOP --help)
check_match "--help lists snapshot" "$h" '^  snapshot '
check_fails "an unknown command fails" $PAGETOP frobnicate
err=$($PAGETOP frobnicate 2>&1)
check_eq "... with one line naming it" "$err" "pagetop: unknown command 'frobnicate' (see pagetop --help)"
$PAGETOP frobnicate >/dev/null 2>&1
check_eq "... and exit status 2" "$?" 2
check_fails "an unknown snapshot option fails" $PAGETOP snapshot --bogus
err=$($PAGETOP snapshot --proc-root /nonexistent 2>&1)
check_eq "a missing proc root is one clear line" "$err" "pagetop: /nonexistent: No such file or directory"
check_fails "... with a nonzero exit" $PAGETOP snapshot --proc-root /nonexistent
check_fails "a stray argument fails" $PAGETOP snapshot extra

# Times on a recording mean the same in every command: -D back from the
# last sample, +D forward from the first; outside the recording, an error
# that names its span.
REC=$PAGETOP_DATADIR/sample-build-6.18.ptrec	# 150 samples, one a second
$PAGETOP dump $REC --json > $TMPDIR_TEST/all.jsonl
first=$(jq -s '.[0].time' $TMPDIR_TEST/all.jsonl)
last=$(jq -s '.[-1].time' $TMPDIR_TEST/all.jsonl)
# within T BASE LOW HIGH: T in [BASE + LOW, BASE + HIGH], as numbers
within() { awk -v t="$1" -v c="$2" -v a="$3" -v b="$4" 'BEGIN { exit !(t >= c + a && t <= c + b) }'; }
at=$($PAGETOP dump $REC --at -10s --json | jq .time)
if within "$at" "$last" -11 -9.999; then
	ok "dump --at -10s: the sample in force 10 s before the last ($at, last $last)"
else
	not_ok "dump --at -10s: the sample in force 10 s before the last" "got $at, last $last"
fi
at=$($PAGETOP dump $REC --at +10s --json | jq .time)
if within "$at" "$first" 9 10.001; then
	ok "dump --at +10s: the sample in force 10 s after the first ($at, first $first)"
else
	not_ok "dump --at +10s: the sample in force 10 s after the first" "got $at, first $first"
fi
check_eq "dump --at start: the first sample" "$($PAGETOP dump $REC --at start --json | jq .time)" "$first"
check_eq "dump --at end: the last sample" "$($PAGETOP dump $REC --at end --json | jq .time)" "$last"
check_eq "dump --at the first sample's time: that sample" \
	"$($PAGETOP dump $REC --at "$first" --json | jq .time)" "$first"
check_eq "dump --at -10s --info: --info still gives the whole recording" \
	"$($PAGETOP dump $REC --at -10s --info | grep -c '^150 samples$')" 1
span="(2026-11-30 04:35:11.254 to 04:37:40.255)"
err=$(TZ=UTC $PAGETOP dump $REC --at -1h 2>&1)
check_eq "dump --at -1h on 149 s: exit status 2" "$?" 2
check_eq "... one line naming the span" "$err" \
	"pagetop: dump: --at: '-1h' is before the recording's start $span"
err=$(TZ=UTC $PAGETOP report $REC --until +150s 2>&1)
check_eq "report --until +150s: exit status 2" "$?" 2
check_eq "... one line naming the span" "$err" \
	"pagetop: report: --until: '+150s' is after the recording's end $span"
err=$(TZ=UTC $PAGETOP export $REC --format csv --since 04:30:00 2>&1 >/dev/null)
check_eq "export --since a clock time before the start: exit status 2" "$?" 2
check_eq "... one line: the next day's is not within it either" "$err" \
	"pagetop: export: --since: '04:30:00' is not within the recording $span"
err=$(TZ=UTC $PAGETOP dump $REC --at "2026-11-30 04:37:42" 2>&1)
check_eq "dump --at a date past the end: one line" "$err" \
	"pagetop: dump: --at: '2026-11-30 04:37:42' is after the recording's end $span"
check_eq "dump --at 04:35:11 (the start's second): the first sample" \
	"$(TZ=UTC $PAGETOP dump $REC --at 04:35:11 --json | jq .time)" "$first"
for bad in +1e308 -1e308 nan inf +inf "+5 m" +5x 90 "" "next week"; do
	err=$($PAGETOP dump $REC --at "$bad" 2>&1 >/dev/null)
	st=$?
	if [ $st -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
	   printf '%s\n' "$err" | grep -q "^pagetop: dump: --at: '$bad' is "; then
		ok "dump --at '$bad': one line, exit status 2"
	else
		not_ok "dump --at '$bad': one line, exit status 2" "exit $st: $err"
	fi
done
# dump --at T --json between two pagetypeinfo reads: the read in force,
# with its time (as the text dump's heading gives it), with or without
# --source pagetypeinfo.
T=$TMPDIR_TEST
$PAGETOP record --proc-root $FIXTURES/roots/live-6.18-x86_64 -d 0.2 --pagetypeinfo-every 5 \
	--duration 1.5s -o $T/pti.ptrec 2>/dev/null
first=$($PAGETOP dump $T/pti.ptrec --json 2>/dev/null | jq -s '.[0].time')
for src in "" "--source pagetypeinfo"; do
	# shellcheck disable=SC2086
	$PAGETOP dump $T/pti.ptrec --at end --json $src > $T/pti.json 2>/dev/null
	check_jq "dump --at end --json $src: the pagetypeinfo in force" $T/pti.json \
		'.pagetypeinfo.pageblock_order == 9 and (.pagetypeinfo.free | length) > 0'
	check_jq "... with the time of its read, the first sample's, before the sample's" $T/pti.json \
		".pagetypeinfo.time == $first and .time > .pagetypeinfo.time"
done
text=$($PAGETOP dump $T/pti.ptrec --at end --source pagetypeinfo 2>/dev/null | head -1)
check_eq "... the same time as the text dump's heading" "$text" \
	"==> /proc/pagetypeinfo at $(date -d @"$first" '+%Y-%m-%d %H:%M:%S.%3N') <=="
$PAGETOP dump $T/pti.ptrec --at start --json > $T/pti0.json 2>/dev/null
check_jq "dump --at start --json: a sample that read it has no other time" $T/pti0.json \
	'.pagetypeinfo.pageblock_order == 9 and (.pagetypeinfo | has("time") | not)'
done_testing

#!/bin/sh
# pagetop export --jobs N: JSON lines made by N workers chunk by chunk, CSV
# rows formatted by a thread of their own, byte for byte what one job
# writes: on a recording of many chunks with kernel-log totals climbing
# across them, over spans that start and end inside chunks, with a damaged
# chunk, and to a full disk.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
REC=$FIXTURES/../../data/sample-build-6.18.ptrec	# 150 samples of real pressure

# 1,500 samples, a keyframe every 50: 30 chunks; an OOM kill every 37.
$MKREC_CYCLE $T/long.ptrec $REC 1500 50 37
check_eq "the recording: 1500 samples" \
	"$($PAGETOP dump $T/long.ptrec --info | sed -n 's/^\([0-9]*\) samples$/\1/p')" 1500

# same NAME ARGS...: the export with --jobs 1, 2 and 3, stdout and stderr
# and status alike.
same() {
	name=$1
	shift
	$PAGETOP export "$@" --jobs 1 > $T/one.out 2> $T/one.err
	one=$?
	for j in 2 3; do
		$PAGETOP export "$@" --jobs $j > $T/many.out 2> $T/many.err
		st=$?
		check_eq "$name: --jobs $j writes what --jobs 1 does" \
			"$(md5sum < $T/many.out) $st" "$(md5sum < $T/one.out) $one"
		check_eq "$name: --jobs $j says what --jobs 1 does" "$(cat $T/many.err)" "$(cat $T/one.err)"
	done
}
same "json" $T/long.ptrec --format json
check_eq "json: a line per sample" "$(wc -l < $T/one.out)" 1500
check_eq "json: the lines in time order" "$(jq -r .time $T/one.out | sort -n | md5sum)" \
	"$(jq -r .time $T/one.out | md5sum)"
# Workers that share a scratch race: a blocked task's reason came out as
# another's one run in three (a static struct stack). Five more runs of 4.
for run in 1 2 3 4 5; do
	$PAGETOP export $T/long.ptrec --format json --jobs 4 | md5sum
done | sort | uniq -c > $T/runs
check_eq "json: 5 runs of 4 jobs, each what one job writes" "$(cat $T/runs)" \
	"      5 $(md5sum < $T/one.out)"
# Written from the names and text of the sample before (the memo), vmstat,
# meminfo and the reclaim counters are what dump writes afresh.
$PAGETOP dump $T/long.ptrec --json > $T/dump.jsonl
check_eq "json: vmstat, meminfo and reclaim as dump writes them, sample by sample" \
	"$(jq -c '[.vmstat, .meminfo, .reclaim]' $T/one.out | md5sum)" \
	"$(jq -c '[.vmstat, .meminfo, .reclaim]' $T/dump.jsonl | md5sum)"
check_eq "... and those move: 150 vmstat objects of the 150 samples cycled" \
	"$(jq -c .vmstat $T/one.out | sort -u | wc -l)" 150
# The jobs default to the CPUs online: the same again without --jobs.
check_eq "json: the default writes it too" \
	"$($PAGETOP export $T/long.ptrec --format json | md5sum)" "$(md5sum < $T/one.out)"
same "csv" $T/long.ptrec --format csv
check_eq "csv: the OOM kills counted across chunks, 1500 / 37 of them, 2 times in 3" \
	"$(tail -1 $T/one.out | awk -F, -v h="$(head -1 $T/one.out)" \
		'BEGIN { n = split(h, c, ",") } { for (i = 1; i <= n; i++) if (c[i] == "kernel_events_total.oom-kill") print $i }')" \
	"$(awk 'BEGIN { for (i = 36; i < 1500; i += 37) s += i % 3 + 1; print s }')"
$PAGETOP export $T/long.ptrec --format json --jobs 1 | jq -r .time > $T/times
same "json, a span inside chunks" $T/long.ptrec --format json --since +133s --until +1211s
check_eq "... its lines, those of the span" "$(jq -r .time $T/one.out | md5sum)" \
	"$(awk 'NR == 1 { t = $1 } $1 >= t + 133 && $1 <= t + 1211' $T/times | md5sum)"
same "csv, a span inside chunks" $T/long.ptrec --format csv --since +133s --until +1211s
same "json, one source" $T/long.ptrec --format json --source buddyinfo

# A damaged chunk: the samples up to the next keyframe are lost, said once
# on stderr, the rest written.
cp $T/long.ptrec $T/flip.ptrec
size=$(wc -c < $T/flip.ptrec)
printf 'XXXXXXXXXXXXXXXX' | dd of=$T/flip.ptrec bs=1 seek=$((size * 3 / 7)) conv=notrunc 2>/dev/null
same "json, damaged" $T/flip.ptrec --format json
check_match "... the damage said" "$(cat $T/one.err)" 'damaged at byte [0-9]+: [0-9]+ bytes skipped, [0-9]+ samples lost'
check_eq "... the rest written" "$(($(wc -l < $T/one.out) > 1000 && $(wc -l < $T/one.out) < 1500))" 1
same "csv, damaged" $T/flip.ptrec --format csv

# Keyframes 65,536 samples apart: a chunk runs to the next one, not 300
# samples into the middle (whose worker would decode from the keyframe
# before, chunk after chunk: 26 s for 2 jobs where one took 2.7).
$MKREC_DENSE $T/dense.ptrec 70000 $REC
same "json, keyframes far apart" $T/dense.ptrec --format json
check_eq "... every sample" "$(wc -l < $T/one.out)" 70000

if [ -w /dev/full ]; then
	$PAGETOP export $T/long.ptrec --format json --jobs 2 > /dev/full 2> $T/full.err
	check_eq "json by 2 jobs to a full disk: exit 1" "$?" 1
	check_eq "... saying why, once" "$(cat $T/full.err)" \
		'pagetop: export: writing: No space left on device'
	$PAGETOP export $T/long.ptrec --format csv --jobs 2 > /dev/full 2> $T/full.err
	check_eq "csv with its thread to a full disk: exit 1" "$?" 1
	check_match "... saying why" "$(cat $T/full.err)" 'export: writing: No space left on device'
fi
for bad in 0 17 x 2x ''; do
	$PAGETOP export $T/long.ptrec --format json --jobs "$bad" > $T/bad.out 2> $T/bad.err
	check_eq "--jobs '$bad': a usage error" "$? $(wc -c < $T/bad.out)" "2 0"
	check_eq "... saying why" "$(head -1 $T/bad.err)" \
		"pagetop: export: --jobs: '$bad' is not a number from 1 to 16"
done
done_testing

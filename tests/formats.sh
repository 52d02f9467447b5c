#!/bin/sh
# Recordings made by earlier versions stay readable: one per format version,
# committed under tests/fixtures/recordings and checked value by value.
set -u
. "$TESTLIB"
R=$FIXTURES/recordings
L=$FIXTURES/roots/live-6.18-x86_64

# Format 1.0: 10 samples of the live-6.18 capture at 0.2 s, with a mark.
f=$R/format-1.0.ptrec
info=$($PAGETOP dump $f --info)
check_match "1.0: opens, format 1.0" "$info" 'format 1\.0\)'
check_match "1.0: its host facts" "$info" '^host: +fixturehost, Linux 6\.18\.44 x86_64, .*pageblock order 9'
check_match "1.0: 10 samples" "$info" '^10 samples$'
check_match "1.0: its mark" "$info" 'mark: .*format 1\.0 fixture'
for src in buddyinfo pagetypeinfo vmstat meminfo; do
	$PAGETOP dump $f --source $src | sed 1d > $TMPDIR_TEST/$src
	check "1.0: $src as the kernel printed it" cmp $TMPDIR_TEST/$src $L/$src
done
$PAGETOP dump $f --source pressure | sed -n '/pressure\/memory/,/^$/p' | sed '1d;/^$/d' > $TMPDIR_TEST/psi
check "1.0: pressure/memory as the kernel printed it" cmp $TMPDIR_TEST/psi $L/pressure/memory
check_eq "1.0: every sample as JSON" "$($PAGETOP dump $f --json | jq -s 'length')" 10
check_eq "1.0: zoneinfo watermarks" "$($PAGETOP dump $f --json | jq -s '.[0].zones | map(select(.zone == "Normal"))[0].min')" \
	"$(awk '/zone +Normal/ { z = 1 } z && $1 == "min" { print $2; exit }' $L/zoneinfo)"

# Format 2.0: the first 40 samples of the bundled recording (a build, a
# large file written, blocked tasks; keyframes at 0 and 20), written again
# by bench/recording-split. The bundled file is format 1.0: every value of
# the 2.0 file must be what the 1.0 reader finds there.
f=$R/format-2.0.ptrec
b=$PAGETOP_DATADIR/sample-build-6.18.ptrec
info=$($PAGETOP dump $f --info)
check_match "2.0: opens, format 2.0" "$info" 'format 2\.0\)'
check_match "2.0: its host facts" "$info" '^host: +vm, Linux 6\.18\.44-fc-v669 x86_64, 2 CPUs, .*pageblock order 9'
check_match "2.0: 40 samples" "$info" '^40 samples$'
check_eq "2.0: its four marks" "$(echo "$info" | grep -c '^mark: .*workload: ')" 4
$PAGETOP dump $f --json | jq -c . > $TMPDIR_TEST/2.0.json
$PAGETOP dump $b --json | jq -c . | head -n 40 > $TMPDIR_TEST/1.0.json
check_eq "2.0: 40 samples as JSON" "$(wc -l < $TMPDIR_TEST/2.0.json)" 40
check "2.0: every value as in the 1.0 recording they came from" \
	cmp $TMPDIR_TEST/2.0.json $TMPDIR_TEST/1.0.json
check_eq "2.0: with blocked tasks and their stacks" \
	"$(jq -s '[.[].tasks.blocked[] | select((.stack | length) > 0)] | length > 0' $TMPDIR_TEST/2.0.json)" true
for src in buddyinfo pagetypeinfo vmstat meminfo pressure; do
	$PAGETOP dump $f --source $src --at +34s > $TMPDIR_TEST/$src.2
	$PAGETOP dump $b --source $src --at +34s > $TMPDIR_TEST/$src.1
	check "2.0: $src as the kernel printed it" cmp $TMPDIR_TEST/$src.2 $TMPDIR_TEST/$src.1
done
# Format 2.2: the kernel probes in field 29, PROBES (tests/mkprobes over
# the 2.1 fixture). Today's pagetop writes them as 2.3's PROBES2, its D
# stacks by number against the previous sample's: the same mkprobes
# samples written now must read as the 2.2 file, value by value.
f=$R/format-2.2.ptrec
$MKPROBES $R/format-2.1.ptrec $TMPDIR_TEST/p.ptrec > /dev/null
check_match "2.2: opens, format 2.2" "$($PAGETOP dump $f --info)" 'format 2\.2\)'
check_match "... mkprobes today writes 2.3" "$($PAGETOP dump $TMPDIR_TEST/p.ptrec --info)" 'format 2\.3\)'
$PAGETOP dump $f --json | jq -c . > $TMPDIR_TEST/2.2.json
$PAGETOP dump $TMPDIR_TEST/p.ptrec --json | jq -c . > $TMPDIR_TEST/2.3.json
check_eq "2.2: 40 samples with D stacks" \
	"$(jq -s '[.[] | select((.probes.dstacks | length) > 0)] | length' $TMPDIR_TEST/2.2.json)" 40
check "2.2: every value as 2.3 writes the same samples" cmp $TMPDIR_TEST/2.2.json $TMPDIR_TEST/2.3.json
done_testing

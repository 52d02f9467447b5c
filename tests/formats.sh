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
done_testing

#!/bin/sh
# Reader memory is bounded whatever the file claims (issue 12, item 6): a
# 32 MB recording whose frames all check, 3000 real samples then 8 crafted
# chunks of 4 million one-byte times each (an older reader kept 8 bytes a
# sample: 9 times the file), is read by dump --info, report and dump --at
# under ulimit -v at twice the file's size, with the real samples right
# and the crafted chunks reported as damage. A chunk whose zstd frame
# declares 1 TiB of content gets one line naming the file and the byte.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
export PAGETOP_DATADIR

# Sanitizers reserve terabytes of address space: ulimit -v cannot apply.
if [ "${SANITIZED:-no}" = yes ]; then
	echo "1..0 # SKIP ulimit -v under a sanitizer"
	exit 0
fi
$MKREC_DENSE $T/fat.ptrec 3000 - fat 8
size=$(stat -c %s $T/fat.ptrec)
check_eq "the file is over 30 MB" "$((size > 30000000))" 1
lim=$((size * 2 / 1024))	# kB

(ulimit -v $lim; exec $PAGETOP dump --info $T/fat.ptrec) > $T/info 2> $T/info.err
check_eq "dump --info within ${lim} kB: exit 0" "$?" 0
check_match "... the 3000 real samples" "$(cat $T/info)" "^3000 samples\$"
check_eq "... each crafted chunk is damage" "$(grep -c '^damage: .* 0 samples lost$' $T/info)" 8

(ulimit -v $lim; exec $PAGETOP report $T/fat.ptrec) > $T/report 2> $T/report.err
check_eq "report within ${lim} kB: exit 0" "$?" 0
check_match "... of the 3000 samples" "$(cat $T/report)" "^Samples: +3000, one every 5e-05s$"

(ulimit -v $lim; exec $PAGETOP dump --at end --source meminfo $T/fat.ptrec) > $T/at 2> $T/at.err
check_eq "dump --at end within ${lim} kB: exit 0" "$?" 0
# mkrec-dense counts MemFree up from 1000000, one a sample.
check_match "... the last real sample" "$(cat $T/at)" "^MemFree: +1002999 kB\$"

$MKREC_DENSE $T/huge.ptrec 100 - huge
(ulimit -v $lim; exec $PAGETOP dump --at end $T/huge.ptrec) > $T/out 2> $T/err
check_eq "a chunk declaring 1 TiB: exit 1" "$?" 1
check_eq "... one line" "$(wc -l < $T/err)" 1
check_match "... naming the file and the byte" "$(cat $T/err)" \
	"^pagetop: $T/huge.ptrec: damaged at byte [0-9]+: [0-9]+ bytes skipped, 1 samples lost\$"
(ulimit -v $lim; exec $PAGETOP dump --at start $T/huge.ptrec --source meminfo) > $T/out 2> $T/err
check_match "... the samples before it read" "$(cat $T/out)" "^MemFree: +1000000 kB\$"
done_testing

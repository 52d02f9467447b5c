#!/bin/sh
# dump with kernel probes: --source probes on a recording made by
# tests/mkprobes, the tick's figures checked against differences worked
# out here from dump --json's cumulative ones (python3); --json's probes
# object; a recording without probes, one where they were unavailable.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
export TZ=UTC
R=$FIXTURES/recordings
$MKPROBES $R/format-2.1.ptrec $T/p.ptrec
check "mkprobes writes a recording" test -s $T/p.ptrec
$MKPROBES $R/format-2.1.ptrec $T/u.ptrec unavailable

$PAGETOP dump --json $T/p.ptrec >$T/all.json
check_eq "dump --json: 40 samples with probes" \
    "$(grep -c '"probes":{"state":"on"' $T/all.json)" 40
# Sample 8 (index 8) against sample 7: the tick's figures by hand.
want=$(python3 - $T/all.json <<'PY'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
a, b = s[7]["probes"], s[8]["probes"]
d = lambda k: b["stall"][k]["latency"]["count"] - a["stall"][k]["latency"]["count"]
ns = lambda k: b["stall"][k]["latency"]["sum_ns"] - a["stall"][k]["latency"]["sum_ns"]
fb = sum(f["count"] for f in b["fallbacks"]) - sum(f["count"] for f in a["fallbacks"])
wt = b["throttle"]["writeback"]["count"] - a["throttle"]["writeback"]["count"]
rw = b["reclaim_writes"] - a["reclaim_writes"]
print("direct %d %d memcg %d fallbacks %d writeback %d writes %d tasks %d" % (
    d("direct"), ns("direct"), d("memcg"), fb, wt, rw, len(b["tasks"])))
PY
)
at=$(python3 -c "import json; print([json.loads(l) for l in open('$T/all.json')][8]['time'])")
when=$(date -u -d @"$(echo "$at + 0.5" | bc)" +%H:%M:%S.%N | cut -c1-12)
$PAGETOP dump --source probes --at "$when" $T/p.ptrec >$T/d.txt 2>$T/d.err
check_eq "dump --source probes at sample 8: exit 0" "$?" 0
got=$(awk '
    $1 == "direct" && dc == "" { dc = $2; dt = $4 " " $5 }
    $1 == "memcg" && mc == "" { mc = $2 }
    $1 == "fallbacks:" { fb = $2 }
    $1 == "throttled:" { for (i = 2; i <= NF; i++) if ($i == "writeback") wt = $(i + 1) }
    $1 == "written" { rw = $4 }
    /stalled tasks this tick/ { gsub(/[():]/, "", $5); tk = $5 }
    END { print dc, dt, mc, fb, wt, rw, tk }' $T/d.txt)
# The text's total is rounded: compare counts exactly, the total in us.
w_dc=$(echo "$want" | awk '{ print $2 }'); w_ns=$(echo "$want" | awk '{ print $3 }')
check_eq "direct stalls this tick as the JSON's difference" \
    "$(echo "$got" | awk '{ print $1 }')" "$w_dc"
check_eq "their total time, in us" "$(echo "$got" | awk '{ print $2, $3 }')" \
    "$(awk -v n="$w_ns" 'BEGIN { if (n < 1000000) printf "%.0f us\n", n / 1e3;
	else printf "%.2f ms\n", n / 1e6 }')"
check_eq "memcg, fallbacks, writeback throttling, reclaim writes, tasks" \
    "$(echo "$got" | awk '{ print $4, $5, $6, $7, $8 }')" \
    "$(echo "$want" | awk '{ print $5, $7, $9, $11, $13 }')"
check_match "migratetypes by the kernel's names" "$(cat $T/d.txt)" \
    'order  0  Unmovable -> Movable'
check_match "the vfork stack with its frames" "$(cat $T/d.txt)" \
    'wait_for_vfork_done'
check_match "the jbd2 stack" "$(cat $T/d.txt)" 'jbd2_log_wait_commit'

# Sample 30: the probes reattached.
at=$(python3 -c "import json; print([json.loads(l) for l in open('$T/all.json')][30]['time'])")
when=$(date -u -d @"$(echo "$at + 0.5" | bc)" +%H:%M:%S.%N | cut -c1-12)
$PAGETOP dump --source probes --at "$when" $T/p.ptrec >$T/r.txt 2>&1
check_match "a new epoch is said" "$(cat $T/r.txt)" 'reattached'
check_match "... and counted from it (3 direct stalls)" "$(cat $T/r.txt)" \
    '  direct +3 '

$PAGETOP dump --source probes $T/u.ptrec >$T/u.txt 2>&1
check_match "unavailable: the why" "$(cat $T/u.txt)" \
    'probes: unavailable: not root'
$PAGETOP dump --source probes $R/format-2.1.ptrec >$T/o.txt 2>&1
check_eq "a recording without probes: exit 1" "$?" 1
check_match "... saying so in one line" "$(cat $T/o.txt)" \
    'no kernel probes at .*: not recorded'
check_eq "... only one" "$(wc -l <$T/o.txt)" 1
$PAGETOP dump $R/format-2.1.ptrec >$T/o2.txt 2>&1
check_eq "dump of an old recording: no probes block" \
    "$(grep -c 'kernel probes' $T/o2.txt)" 0
done_testing

#!/bin/sh
# report's "Kernel probes" section on a recording made by tests/mkprobes:
# every figure against sums worked out here from dump --json's cumulative
# ones (python3), with the reattach at sample 30 inside the window and a
# window without it; 78 columns; a recording without probes and one where
# they were unavailable.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
R=$FIXTURES/recordings
export TZ=UTC
$MKPROBES $R/format-2.1.ptrec $T/p.ptrec
$MKPROBES $R/format-2.1.ptrec $T/u.ptrec unavailable
$PAGETOP dump --json $T/p.ptrec >$T/all.json 2>/dev/null

within78() {
	w=$(awk '{ if (length > m) m = length } END { print m + 0 }' "$2")
	if [ "$w" -le 78 ]; then ok "$1: every line within 78 columns ($w)"; else
		not_ok "$1: every line within 78 columns" "$(awk 'length > 78' "$2")"; fi
}

# want FIRST LAST: the section's lines that the samples FIRST..LAST give,
# worked out from the JSON: each tick cur less prev, or cur's own after a
# new epoch.
cat >$T/want.py <<'PY'
import json, sys, time
s = [json.loads(l) for l in open(sys.argv[1])]
lo, hi = int(sys.argv[2]), int(sys.argv[3])
def ns(v):
    if v < 1000000: return "%.0f us" % (v / 1e3)
    if v < 1000000000: return ("%.2f ms" if v < 10000000 else "%.1f ms") % (v / 1e6)
    return "%.2f s" % (v / 1e9)
kinds = ["direct", "memcg", "compact"]
cnt = dict.fromkeys(kinds, 0); tot = dict.fromkeys(kinds, 0)
thr = {}; fb = frag = owner = 0; comp = {}; tasks = {}; stacks = {}
ticks = resets = 0; over = 0.0
for i in range(lo + 1, hi + 1):
    a, b = s[i - 1]["probes"], s[i]["probes"]
    ticks += 1; over += s[i]["time"] - s[i - 1]["time"]
    if a["epoch_ns"] != b["epoch_ns"]:
        resets += 1
        a = None
    def d(get):
        return get(b) - (get(a) if a else 0)
    for k in kinds:
        cnt[k] += d(lambda p: p["stall"][k]["latency"]["count"])
        tot[k] += d(lambda p: p["stall"][k]["latency"]["sum_ns"])
    for r in b["throttle"]:
        c = d(lambda p: p["throttle"][r]["count"]); u = d(lambda p: p["throttle"][r]["us"])
        thr[r] = (thr.get(r, (0, 0))[0] + c, thr.get(r, (0, 0))[1] + u)
    fb += d(lambda p: sum(f["count"] for f in p["fallbacks"]))
    frag += d(lambda p: sum(p["fallback_fragmenting_by_order"]))
    owner += d(lambda p: sum(p["fallback_owner_by_order"]))
    for r, v in b["compaction"].items():
        if isinstance(v, dict):
            comp[r] = comp.get(r, 0) + d(lambda p: p["compaction"][r]["runs"])
    for t in b["tasks"]:
        e = tasks.setdefault((t["tid"], t["comm"]), [0, 0])
        e[0] += t["count"]; e[1] += t["total_ns"]
    for t in b["dstacks"]:
        e = stacks.setdefault(tuple(t["stack"]), [0, 0])
        e[0] += t["count"]; e[1] += t["total_ns"]
print("Kernel probes: %d ticks over %.1fs%s" % (ticks, over,
      ", reattached %d time%s" % (resets, "" if resets == 1 else "s") if resets else ""))
for k in kinds:
    print("%s %d %s %.1f" % (k, cnt[k], ns(tot[k]), cnt[k] / over))
print("  Throttled: " + ", ".join("%s %d (%s)" % (r, c, ns(u * 1000))
                                  for r, (c, u) in thr.items() if c))
print("  Fallbacks: %d, %d fragmenting (%.0f%%), %d changed a block's owner" % (
    fb, frag, 100.0 * frag / fb, owner))
print("  Compaction runs: " + ", ".join("%s %d" % (r, n) for r, n in comp.items() if n))
(tid, comm), (c, t) = max(tasks.items(), key=lambda kv: kv[1][1])
print("task %d %s %d %s" % (tid, comm, c, ns(t)))
st = next(k for k in stacks if "wait_for_vfork_done" in k)
print("vfork %d %s" % (stacks[st][0], ns(stacks[st][1])))
PY
# got FILE: the same lines from the report.
got() {
	sed -n '/^Kernel probes/,/^Kernel log/p' "$1" | awk '
	/^Kernel probes:/ { print; next }
	$1 == "direct" || $1 == "memcg" || $1 == "compact" { print $1, $2, $3 " " $4, $5; next }
	/^  Throttled:|^  Fallbacks:|^  Compaction runs:/ { print; next }
	$1 ~ /^[0-9]+$/ && $2 != "" && t == "" && NF >= 6 && $NF ~ /direct|memcg|compact/ {
		t = "task " $1 " " $2 " " $3 " " $4 " " $5 }
	/wait_for_vfork_done/ { v = "vfork " $1 " " $2 " " $3 }
	END { print t; print v }'
}

$PAGETOP report $T/p.ptrec >$T/r.txt 2>$T/r.err
check_eq "report: exit 0" "$?" 0
check_match "a Kernel probes section" "$(cat $T/r.txt)" '^Kernel probes: '
n=$(grep -c . $T/all.json)
check_eq "the whole recording, the reattach inside: figures as the JSON's sums" \
	"$(got $T/r.txt)" "$(python3 $T/want.py $T/all.json 0 $((n - 1)))"
within78 "report with probes" $T/r.txt
check_match "the worst direct tick: the 180 ms stall, its p99 and max" \
	"$(grep '^  direct ' $T/r.txt)" ' 180\.0 ms +180\.0 ms$'
check_match "what did not attach" "$(cat $T/r.txt)" '^  not attached: compaction deferrals$'
check_match "the fallback pairs by the kernel's migratetype names" "$(cat $T/r.txt)" \
	'^    order  0  Unmovable +-> Movable +[0-9]+$'
check_match "the jbd2 stack's innermost frames" "$(cat $T/r.txt)" \
	'  jbd2_log_wait_commit < ext4_sync_file'

# A window of samples 10 to 25: no reattach.
at() { python3 -c "import json; print('%.3f' % [json.loads(l) for l in open('$T/all.json')][$1]['time'])"; }
$PAGETOP report $T/p.ptrec --since "$(at 10)" --until "$(at 25)" >$T/w.txt 2>/dev/null
check_eq "samples 10 to 25: the same, over that window" \
	"$(got $T/w.txt)" "$(python3 $T/want.py $T/all.json 10 25)"
check_match "... 15 ticks, none reattached" "$(cat $T/w.txt)" '^Kernel probes: 15 ticks over 15\.0s$'

$PAGETOP report $T/u.ptrec >$T/u.txt 2>/dev/null
check_match "unavailable: the recorded why" "$(cat $T/u.txt)" \
	'^Kernel probes: unavailable: not root'
within78 "report, unavailable" $T/u.txt
$PAGETOP report $R/format-2.1.ptrec >$T/o.txt 2>/dev/null
check_match "a recording without: said in one line" "$(cat $T/o.txt)" \
	'^Kernel probes: no kernel probes in this recording$'
check_eq "... and nothing else of them" "$(grep -c '^  stalls\|Throttled' $T/o.txt)" 0
done_testing

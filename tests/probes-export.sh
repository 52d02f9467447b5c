#!/bin/sh
# export with kernel probes, on a recording made by tests/mkprobes: the
# OpenMetrics histograms and counters, every sample, against figures worked
# out here from dump --json's (python3); the reattach at sample 30 as a
# counter reset with a new _created; the CSV's probe columns; promtool
# backfills it; an unavailable recording, and one without probes.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
R=$FIXTURES/recordings
$MKPROBES $R/format-2.1.ptrec $T/p.ptrec
$MKPROBES $R/format-2.1.ptrec $T/u.ptrec unavailable
$PAGETOP dump --json $T/p.ptrec >$T/all.json 2>/dev/null

$PAGETOP export --format openmetrics --source probes $T/p.ptrec >$T/p.om 2>$T/p.err
check_eq "openmetrics --source probes: exit 0" "$?" 0
check_match "... a histogram family" "$(cat $T/p.om)" \
	'^# TYPE pagetop_probe_stall_seconds histogram$'
check_match "... in seconds" "$(cat $T/p.om)" \
	'^# UNIT pagetop_probe_stall_seconds seconds$'
check_eq "... only the probes' families (and the end)" \
	"$(grep -v '^pagetop_probe\|^# [A-Z]* pagetop_probe\|^# EOF$' $T/p.om | head -3)" ""

# Every sample line of the file against the JSON: python prints what is
# wrong, nothing when all is right.
cat >$T/check.py <<'PY'
import json, sys
from decimal import Decimal
samples = [json.loads(l) for l in open(sys.argv[1])]
got, created = {}, {}
for line in open(sys.argv[2]):
    if line.startswith("#"):
        continue
    name, value, ts = line.rstrip("\n").rsplit(" ", 2)
    if "_created" in name:
        created.setdefault(name, []).append((ts, value))
    else:
        got[(name, Decimal(ts))] = Decimal(value)
want = {}
def put(name, labels, v, ts):
    lab = ",".join('%s="%s"' % kv for kv in labels)
    want[(name + ("{%s}" % lab if lab else ""), Decimal(ts))] = Decimal(v)
buckets = len(samples[0]["probes"]["bucket_le_us"]) + 1
def le(i):
    if i == buckets - 1:
        return "+Inf"
    us = samples[0]["probes"]["bucket_le_us"][i]
    return ("%d.%06d" % (us // 10**6, us % 10**6)).rstrip("0").rstrip(".")
def hist(name, labels, h, ts):
    c = 0
    for i, b in enumerate(h["buckets"]):
        c += b
        put(name + "_bucket", labels + [("le", le(i))], c, ts)
    put(name + "_count", labels, h["count"], ts)
    put(name + "_sum", labels, Decimal(h["sum_ns"]) / 10**9, ts)
pairs = set()
# pagetypeinfo is read every few samples: its names are in force between.
types = list(next(s for s in samples if "pagetypeinfo" in s)
             ["pagetypeinfo"]["blocks"][0]["counts"].keys())
for s in samples:
    p, ts = s["probes"], "%.3f" % s["time"]
    for k, v in p["stall"].items():
        hist("pagetop_probe_stall_seconds", [("kind", k)], v["latency"], ts)
    for r, v in p["compaction"].items():
        if isinstance(v, dict):
            hist("pagetop_probe_compaction_seconds", [("result", r)], v["latency"], ts)
    hist("pagetop_probe_dsleep_seconds", [], p["dsleep"]["latency"], ts)
    for r, v in p["throttle"].items():
        put("pagetop_probe_throttled_total", [("reason", r)], v["count"], ts)
        put("pagetop_probe_throttled_seconds_total", [("reason", r)],
            Decimal(v["us"]) / 10**6, ts)
    for f in p["fallbacks"]:
        pairs.add((f["order"], types[f["asked"]], types[f["taken"]]))
    for o, n in enumerate(p["fallback_fragmenting_by_order"]):
        put("pagetop_probe_fallbacks_fragmenting_total", [("order", o)], n, ts)
    for o, n in enumerate(p["compaction"]["deferred_by_order"]):
        put("pagetop_probe_compaction_deferrals_total", [("order", o)], n, ts)
    put("pagetop_probe_kswapd_awake_seconds_total", [("node", 0)],
        Decimal(p["kswapd"]["awake_ns_by_node"][0]) / 10**9, ts)
    put("pagetop_probe_reclaim_writes_total", [], p["reclaim_writes"], ts)
# The fallback pairs: every one seen in any sample, from the first sample on.
for s in samples:
    p, ts = s["probes"], "%.3f" % s["time"]
    n = {(f["order"], types[f["asked"]], types[f["taken"]]): f["count"] for f in p["fallbacks"]}
    for o, a, t in pairs:
        put("pagetop_probe_fallbacks_total",
            [("order", o), ("asked", a), ("taken", t)], n.get((o, a, t), 0), ts)
bad = 0
for k, v in want.items():
    if got.get(k) != v:
        bad += 1
        if bad < 5:
            print("%s %s: want %s, got %s" % (k[0], k[1], v, got.get(k)))
fb = {k[0] for k in got if k[0].startswith("pagetop_probe_fallbacks_total")}
if fb != {k[0] for k in want if k[0].startswith("pagetop_probe_fallbacks_total")}:
    print("fallback series: %s" % sorted(fb))
# _created: one value per epoch, before its samples, the new one at 30.
for name, vs in created.items():
    vals = [Decimal(v) for ts, v in vs]
    if len(vs) != len(samples) or len(set(vals[:30])) != 1 or len(set(vals[30:])) != 1 \
            or vals[29] >= vals[30] or any(Decimal(v) > Decimal(ts) for ts, v in vs):
        print("%s: %s" % (name, vals[28:32]))
print("%d %d" % (len(want), len(created)), file=sys.stderr)
PY
out=$(python3 $T/check.py $T/all.json $T/p.om 2>$T/n; echo "exit $?")
check_eq "every probe series, every sample, as dump --json's figures" "$out" "exit 0"
check_match "... that many sample lines and _created series" "$(cat $T/n)" '^[0-9]{4,} [0-9]{2,}$'
check_match "a fallback pair first seen late has its series from the start" \
	"$(grep -c '^pagetop_probe_fallbacks_total{order="9",asked="Movable",taken="Unmovable"}' $T/p.om)" \
	"^$(grep -c . $T/all.json)\$"
check_eq "no series for a pair never seen" \
	"$(grep -c '^pagetop_probe_fallbacks_total{order="1",' $T/p.om)" 0
check_match "the probes are up in every sample" \
	"$(grep -c '^pagetop_probes_up 1 ' $T/p.om)" "^$(grep -c . $T/all.json)\$"
# The reattach: the count goes back (a counter reset).
c29=$(grep '^pagetop_probe_stall_seconds_count{kind="direct"}' $T/p.om | sed -n 30p | cut -d' ' -f2)
c30=$(grep '^pagetop_probe_stall_seconds_count{kind="direct"}' $T/p.om | sed -n 31p | cut -d' ' -f2)
check "the reattach at sample 30 is a reset ($c29 then $c30)" test "$c30" -lt "$c29"

if command -v promtool >/dev/null; then
	out=$(promtool tsdb create-blocks-from openmetrics $T/p.om $T/tsdb 2>&1)
	check_eq "promtool create-blocks-from openmetrics takes the histograms" "$?" 0
	mkdir -p $T/tsdb/wal
	promtool tsdb dump --match='pagetop_probe_stall_seconds_bucket{kind="memcg",le="+Inf"}' \
		$T/tsdb >$T/inf 2>&1
	check_eq "... and gives back +Inf's counts, sample by sample" \
		"$(awk '{ print $(NF - 1) }' $T/inf | md5sum)" \
		"$(jq -r '.probes.stall.memcg.latency.count' $T/all.json | md5sum)"
else
	not_ok "promtool (Debian package prometheus) is installed" "run ./bootstrap"
fi

# CSV: the counts, seconds and totals, no buckets.
$PAGETOP export --format csv --source probes $T/p.ptrec >$T/p.csv 2>/dev/null
check_eq "csv --source probes: exit 0" "$?" 0
check_eq "csv: a row per sample, every row with every column" \
	"$(wc -l <$T/p.csv) $(awk -F, '{ print NF }' $T/p.csv | sort -u | wc -l)" \
	"$(($(grep -c . $T/all.json) + 1)) 1"
check_eq "csv: no bucket, _created or per-pair column" \
	"$(head -1 $T/p.csv | tr , '\n' | grep -c 'bucket\|created\|asked')" 0
col() { awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $c }' "$2"; }
check_eq "csv: direct stalls' count, sample by sample" \
	"$(col probe_stall_seconds_count.direct $T/p.csv | md5sum)" \
	"$(jq -r '.probes.stall.direct.latency.count' $T/all.json | md5sum)"
check_eq "csv: their total seconds" \
	"$(col probe_stall_seconds_sum.compact $T/p.csv | md5sum)" \
	"$(jq -r '.probes.stall.compact.latency.sum_ns' $T/all.json |
	   awk '{ s = sprintf("%.9f", $1 / 1e9); sub(/0+$/, "", s); sub(/\.$/, "", s); print s }' | md5sum)"
check_eq "csv: throttling by reason" \
	"$(col probe_throttled_total.writeback $T/p.csv | md5sum)" \
	"$(jq -r '.probes.throttle.writeback.count' $T/all.json | md5sum)"
check_eq "csv: every fallback, summed" \
	"$(col probe_fallbacks_total.all $T/p.csv | md5sum)" \
	"$(jq -r '[.probes.fallbacks[].count] | add // 0' $T/all.json | md5sum)"

# JSON lines keep the probes when asked for, and only then.
check_eq "json --source probes: the probes object in every line" \
	"$($PAGETOP export --format json --source probes $T/p.ptrec 2>/dev/null | grep -c '"probes":{"state":"on"')" \
	"$(grep -c . $T/all.json)"
check_eq "json --source vmstat: none" \
	"$($PAGETOP export --format json --source vmstat $T/p.ptrec 2>/dev/null | grep -c '"probes"')" 0

$PAGETOP export --format openmetrics $T/u.ptrec >$T/u.om 2>/dev/null
check_match "unavailable: pagetop_probes_up 0" "$(cat $T/u.om)" '^pagetop_probes_up 0 '
check_eq "... and no probe series" "$(grep -c '^pagetop_probe_' $T/u.om)" 0
$PAGETOP export --format openmetrics $R/format-2.1.ptrec >$T/o.om 2>/dev/null
check_eq "a recording without probes: no probe family" "$(grep -c 'pagetop_probe' $T/o.om)" 0
done_testing

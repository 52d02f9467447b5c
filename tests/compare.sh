#!/bin/sh
# pagetop compare A B (output/compare*.c): two recordings made here at the
# same time, of two proc roots alike but for pgscan_kswapd, which the test
# advances with the clock at 1000 a second in A's and 2000 a second in B's,
# both given the same two marks. A against B: +100% (to the jitter of the
# writes) in the whole and in each phase, marked as standing out in the
# whole, the phases matched by their marks' text, nothing else marked; A
# against itself: no change, nothing marked. A third recording, begun
# after the first mark at another interval: the phases only one has are
# listed, the intervals' warning. Every line fits 78 columns, --json says
# the same, --align cuts both to the same length from the mark; the
# probes' totals are the report's; samples that do not decode are said;
# bad input gives one line.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export TZ=UTC
for r in a b; do
	make_root $T/$r buddyinfo=$L/buddyinfo vmstat=$L/vmstat meminfo=$L/meminfo uptime=$L/uptime
done
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR

if ! command -v python3 >/dev/null; then
	ok "compare # SKIP needs python3"
	done_testing
	exit 0
fi
# pgscan_kswapd is 1000 (A) and 2000 (B) times the seconds since the writer
# started, written every 10 ms (a shell loop's writes come too unevenly for
# blocks of half a second), each file replaced whole (a rename).
cat > $T/writer.py <<'PY'
import os, sys, time
t, fixture, stop = sys.argv[1], sys.argv[2], sys.argv[3]
lines = open(fixture).read().split("\n")
t0 = time.monotonic()
while not os.path.exists(stop):
    ms = int((time.monotonic() - t0) * 1000)
    for root, rate in (("a", 1), ("b", 2)):
        text = "\n".join("pgscan_kswapd %d" % (rate * ms) if l.startswith("pgscan_kswapd ")
                         else l for l in lines)
        with open("%s/%s/v.new" % (t, root), "w") as f:
            f.write(text)
        os.rename("%s/%s/v.new" % (t, root), "%s/%s/vmstat" % (t, root))
    time.sleep(0.01)
PY
python3 $T/writer.py $T $FIXTURES/$L/vmstat $T/stop &
wpid=$!
sleep 0.3
for r in a b; do
	$PAGETOP record --proc-root $T/$r -o $T/$r.ptrec -d 0.25 --flush 0.5 2>$T/rec-$r.err &
	eval rpid_$r=$!
done
i=0
while [ $i -lt 50 ] && [ "$(ls $XDG_RUNTIME_DIR/pagetop 2>/dev/null | wc -l)" -lt 2 ]; do
	sleep 0.1; i=$((i + 1))
done
# 6 s a phase: 24 intervals, 12 blocks, enough that a block or two that a
# busy machine's delays put out of line leave the change standing out.
sleep 6
$PAGETOP mark "phase one" > $T/mark1.out
# C: A's root from after the first mark, at another interval: it has the
# second mark only.
$PAGETOP record --proc-root $T/a -o $T/c.ptrec -d 0.5 --flush 0.5 2>$T/rec-c.err &
rpid_c=$!
i=0
while [ $i -lt 50 ] && [ "$(ls $XDG_RUNTIME_DIR/pagetop 2>/dev/null | wc -l)" -lt 3 ]; do
	sleep 0.1; i=$((i + 1))
done
sleep 6
$PAGETOP mark "phase two" >/dev/null
sleep 6
kill -INT $rpid_a $rpid_b $rpid_c
wait $rpid_a
st_a=$?
wait $rpid_b
st_b=$?
wait $rpid_c
st_c=$?
touch $T/stop
wait $wpid
check_eq "the recordings are made" "$st_a $st_b $st_c" "0 0 0"
check_match "the marks reach both" "$(cat $T/mark1.out)" "2 recording"

$PAGETOP compare $T/a.ptrec $T/b.ptrec > $T/ab 2>$T/ab.err
check_eq "compare A B exits 0" "$?" 0
$PAGETOP compare $T/a.ptrec $T/b.ptrec --json > $T/ab.json 2>/dev/null
check_eq "--json exits 0" "$?" 0
check "--json is one JSON object" jq -e 'type == "object"' $T/ab.json
check_eq "every line within 78 columns" "$(awk 'length > 78' $T/ab)" ""

# The rows of pgscan_kswapd, one a span: whole, before, phase one, two.
rows() { grep -E '^(\* |  )pgscan_kswapd ' $1; }
check_eq "pgscan_kswapd has a row in each of the 4 spans" "$(rows $T/ab | wc -l)" 4
# A busy machine that starves the writer for half a second makes that
# block low in both, and a low block of B can fall among A's: a phase's
# 12 blocks may then not stand out. The whole's 36 always do.
check_match "the whole: marked as standing out" "$(rows $T/ab | head -1)" '^\* '
check_eq "... and nothing but pgscan_kswapd is marked" \
	"$(grep '^\* ' $T/ab | grep -vc '^\* pgscan_kswapd ')" 0
pct=$(rows $T/ab | head -1 | awk '{ print $(NF - 1) }')
# The samples fall between the writes, 10 ms apart, and one writer writes
# both roots (a stall of it slows both): B's rate is twice A's to a few
# hundredths of a second over the span.
check "the whole: +100% ($pct)" awk -v p="$pct" 'BEGIN { sub(/%/, "", p); p += 0; exit !(p >= 95 && p <= 105) }'
check_jq "--json: the whole's change is +100% (95 to 105)" $T/ab.json \
	'.spans[0].figures[] | select(.figure == "pgscan_kswapd") | .change_percent >= 95 and .change_percent <= 105'
check_jq "--json: each phase's change is +100% (95 to 105)" $T/ab.json \
	'[.spans[].figures[] | select(.figure == "pgscan_kswapd") | .change_percent] |
	 length == 4 and all(. >= 95 and . <= 105)'
check_jq "--json: the whole's stands out, p < 0.01" $T/ab.json \
	'.spans[0].figures[] | select(.figure == "pgscan_kswapd") | .stands_out and .p < 0.01'
check_jq "--json: stands_out is p < 0.01 and a change, wherever" $T/ab.json \
	'[.spans[].figures[] | .stands_out == (.p != null and .p < 0.01 and .a.value != .b.value)] | all'
# (Not A's rate against 1000/s: a busy machine starves the writer for a
# while now and then, the same for A and B, since one writer writes both.)
check_jq "--json: A's rate is at most 1000/s (5%), B's twice A's" $T/ab.json \
	'.spans[0].figures[] | select(.figure == "pgscan_kswapd") |
	 (.a.value < 1050 and (.b.value / .a.value - 2 | fabs) < 0.1)'
check_jq "--json: the total is the rate times the time compared" $T/ab.json \
	'.spans[0] as $s | $s.figures[] | select(.figure == "pgscan_kswapd") |
	 (.a.total / .a.value - ($s.a.to - $s.a.from) | fabs) < 0.01'
check_jq "--json: only pgscan_kswapd stands out" $T/ab.json \
	'[.spans[].figures[] | select(.stands_out) | .figure] | unique == ["pgscan_kswapd"]'

# Phases by the marks' text.
check_match "the phases are matched" "$(cat $T/ab)" "Phases: 3 matched by their marks' text"
check_eq "the phases' headings" "$(grep '^Phase ' $T/ab)" \
'Phase 1 of 3: before "phase one"
Phase 2 of 3: "phase one"
Phase 3 of 3: "phase two"'
check_jq "--json: the spans are the whole and the phases" $T/ab.json \
	'[.spans[] | .phase] == [null, "phase one", "phase one", "phase two"] and
	 [.spans[] | .before] == [false, true, false, false] and .unmatched == {"a": [], "b": []}'
mark_epoch() { date -u -d "$($PAGETOP dump $1 --info |
	sed -n "s/^mark: *\\([0-9-]* [0-9:.]*\\)  .*$2.*/\\1/p")" +%s.%N; }
check_jq "--json: phase one starts at A's first sample at or after its mark" $T/ab.json \
	"(.spans[2].a.from - $(mark_epoch $T/a.ptrec 'phase one')) as \$d | \$d >= -0.0005 and \$d < 0.3"
check_jq "--json: and at B's in B" $T/ab.json \
	"(.spans[2].b.from - $(mark_epoch $T/b.ptrec 'phase one')) as \$d | \$d >= -0.0005 and \$d < 0.3"
check_jq "--json: each phase has blocks enough for the test" $T/ab.json \
	'[.spans[] | .a.blocks, .b.blocks] | all(. >= 4)'

# The hosts side by side.
check_match "the kernels side by side" "$(cat $T/ab)" "^  kernel +[^ ]+ +[^ ]+$"
check_eq "no warning: the same machine, the same interval" "$(grep -c '^warning' $T/ab)" 0
check_jq "--json: no warnings" $T/ab.json '.warnings == []'

# A against itself: nothing changes, nothing stands out.
$PAGETOP compare $T/a.ptrec $T/a.ptrec > $T/aa 2>/dev/null
check_eq "compare A A exits 0" "$?" 0
check_eq "A against itself: nothing marked" "$(grep -c '^\* ' $T/aa)" 0
check_eq "A against itself: every change +0%" \
	"$(awk 'NF > 2 && $(NF - 1) ~ /%$/ { print $(NF - 1) }' $T/aa | sort -u)" "+0%"
$PAGETOP compare $T/a.ptrec $T/a.ptrec --json > $T/aa.json 2>/dev/null
check_jq "--json A A: no change stands out, p 1 throughout" $T/aa.json \
	'[.spans[].figures[]] | length > 0 and all(.stands_out == false and .change_percent == 0 and (.p == null or .p == 1))'

# Phases only one has are listed, not compared; the intervals differ.
$PAGETOP compare $T/a.ptrec $T/c.ptrec > $T/ac 2>/dev/null
check_eq "compare A C exits 0" "$?" 0
check_eq "A C: the phase both have is matched, the others listed" \
	"$(sed -n '/^Phases:/,/^$/p' $T/ac)" \
	"$(printf '%s\n' "Phases: 1 matched by their marks' text" \
		'  only in A: before "phase one"' '  only in A: "phase one"' \
		'  only in B: before "phase two"')"
check_eq "A C: the whole and phase two" "$(grep -E '^(The whole|Phase )' $T/ac)" \
'The whole window
Phase 1 of 1: "phase two"'
check_eq "A C: the intervals differ, said" "$(grep '^warning' $T/ac)" \
	"warning: the intervals differ (A 0.25 s, B 0.5 s)"
check_eq "A C: every line within 78 columns" "$(awk 'length > 78' $T/ac)" ""
$PAGETOP compare $T/a.ptrec $T/c.ptrec --json > $T/ac.json 2>/dev/null
check_jq "--json A C: the unmatched phases" $T/ac.json \
	'.unmatched == {"a": ["phase one", "phase one"], "b": ["phase two"]} and
	 .warnings == ["the intervals differ (A 0.25 s, B 0.5 s)"]'

# --since: marks before it open no phase.
$PAGETOP compare $T/a.ptrec $T/b.ptrec --since "mark:phase two" --json > $T/since.json 2>/dev/null
check_jq "--since mark:two: the whole and phase two" $T/since.json \
	'[.spans[] | .phase] == [null, "phase two"]'

# --align: from each one's mark, for the same time.
$PAGETOP compare $T/a.ptrec $T/b.ptrec --align "mark:phase one" --json > $T/al.json 2>/dev/null
check_eq "--align exits 0" "$?" 0
check_jq "--align: A's window starts at its mark's sample" $T/al.json \
	"(.a.from - $(mark_epoch $T/a.ptrec 'phase one')) as \$d | \$d >= -0.0005 and \$d < 0.3"
check_jq "--align: both windows as long, to an interval" $T/al.json \
	'((.a.to - .a.from) - (.b.to - .b.from) | fabs) <= 0.26'

# The kernel probes, on a recording made by tests/mkprobes (a reattach
# inside it): the totals are the report's; with one side only, a note.
R=$FIXTURES/recordings
$MKPROBES $R/format-2.1.ptrec $T/p.ptrec
$PAGETOP compare $T/p.ptrec $T/p.ptrec --json > $T/pp.json 2>/dev/null
$PAGETOP report $T/p.ptrec > $T/p.report 2>/dev/null
for kind in direct memcg compact; do
	want=$(sed -n "/^Kernel probes/,/^\$/s/^  $kind  *\([0-9][0-9]*\) .*/\1/p" $T/p.report)
	check_jq "probes: $kind stalls, the report's $want" $T/pp.json \
		".spans[0].figures[] | select(.figure == \"$kind stalls\") | .a.total == $want and .b.total == $want"
done
check_jq "probes: kswapd awake as long as the report says" $T/pp.json \
	"(.spans[0].figures[] | select(.figure == \"kswapd awake\") | .a.total * 100 | round) ==
	 $(sed -n 's/^  kswapd awake \([0-9.]*\) s,.*/\1/p' $T/p.report | awk '{ printf "%d", $1 * 100 + 0.5 }')"
check_jq "probes: against itself, nothing stands out" $T/pp.json \
	'[.spans[].figures[] | select(.section == "probes")] | length >= 5 and all(.stands_out == false)'
$PAGETOP compare $T/p.ptrec $R/format-2.1.ptrec > $T/pn 2>/dev/null
check_match "probes on one side only: said" "$(cat $T/pn)" "note: kernel probes: only A has them"
check_eq "... and not compared" "$(grep -c 'stalls ' $T/pn)" 0

# Samples that do not decode (tests/mkrec): a warning naming the file and
# the rest compared; none readable: exit 1.
$MKREC $T/u.ptrec 20 5
$PAGETOP compare $T/u.ptrec $T/u.ptrec > $T/uu 2>$T/uu.err
check_eq "some samples unreadable: exit 0" "$?" 0
check_match "... said, naming the file" "$(cat $T/uu.err)" "u.ptrec: 5 samples could not be read"
$MKREC $T/z.ptrec 0 4
$PAGETOP compare $T/a.ptrec $T/z.ptrec > /dev/null 2>$T/zz.err
check_eq "no sample readable: exit 1" "$?" 1

# Bad input: one line, naming the file.
err=$($PAGETOP compare $T/a.ptrec $T/a.ptrec --align mark:nosuch 2>&1 >/dev/null)
check_eq "--align with a mark it lacks: exit 2" "$?" 2
check_match "... one line naming the file" "$(printf '%s\n' "$err" | grep -v wait-reasons)" \
	"^pagetop: compare: $T/a.ptrec: --align: 'mark:nosuch'"
echo "not a recording" > $T/bad.ptrec
err=$($PAGETOP compare $T/a.ptrec $T/bad.ptrec 2>&1 >/dev/null)
check_eq "B is not a recording: exit 1" "$?" 1
check_eq "... one line" "$(printf '%s\n' "$err" | grep -v wait-reasons | wc -l)" 1
check_match "... naming it" "$err" "bad.ptrec"
$PAGETOP compare $T/a.ptrec >/dev/null 2>&1
check_eq "one recording only: exit 2" "$?" 2
$PAGETOP compare $T/a.ptrec $T/b.ptrec --align start --since start >/dev/null 2>&1
check_eq "--align with --since: exit 2" "$?" 2
# --html: the two runs drawn over each other in one file, instead of the text.
$PAGETOP compare $T/a.ptrec $T/b.ptrec --align "mark:phase one" --html $T/ab.html >$T/html.out 2>/dev/null
check_eq "--html: exit 0" "$?" 0
check_eq "... nothing on stdout" "$(wc -c < $T/html.out)" 0
if command -v xmllint >/dev/null; then
	check "... well-formed XML" xmllint --noout $T/ab.html
fi
check_eq "... B's series dashed beside A's in the reclaim chart" \
	"$(awk '/<h3>Reclaim/,/<\/svg>/' $T/ab.html | grep -c 'stroke-dasharray="5 3"' | awk '{ print ($1 > 0) }')" 1
check_match "... both recordings named" "$(grep -c 'b.ptrec\|a.ptrec' $T/ab.html)" '^[1-9]'
check_eq "... nothing fetched" "$(grep -c 'src="http\|href="http\|<script' $T/ab.html)" 0
err=$($PAGETOP compare $T/a.ptrec $T/b.ptrec --html $T/no/such/dir.html 2>&1 >/dev/null)
check_eq "--html to an unwritable path: exit 1" "$?" 1
check_match "... one line naming it" "$(printf '%s\n' "$err" | grep -v wait-reasons)" "no/such/dir.html: No such file"
done_testing

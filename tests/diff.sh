#!/bin/sh
# pagetop diff FILE FROM TO (output/diff.c): on a recording made here, of a
# proc root whose buddyinfo, pagetypeinfo and vmstat the test rewrites with
# known values around two marks, `diff mark:A mark:B` shows the values
# written at each mark, their change, a counter's increase and its rate;
# every line fits 78 columns; --json says the same; bad times exit 2 with
# one line.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export TZ=UTC
make_root $T/root buddyinfo=$L/buddyinfo vmstat=$L/vmstat meminfo=$L/meminfo uptime=$L/uptime \
	pagetypeinfo=$L/pagetypeinfo
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR

# state BUDDY MOVABLE PGSCAN: the Normal zone's buddyinfo row, its Movable
# pagetypeinfo row and pgscan_kswapd, each file replaced whole (a rename)
# so that a read never sees half of it.
state() {
	sed "s/^\\(Node 0, zone   Normal\\).*/\\1 $1/" $FIXTURES/$L/buddyinfo > $T/root/b.new
	sed "s/^\\(Node    0, zone   Normal, type      Movable\\).*/\\1 $2/" \
		$FIXTURES/$L/pagetypeinfo > $T/root/p.new
	sed "s/^pgscan_kswapd .*/pgscan_kswapd $3/" $FIXTURES/$L/vmstat > $T/root/v.new
	mv $T/root/b.new $T/root/buddyinfo
	mv $T/root/p.new $T/root/pagetypeinfo
	mv $T/root/v.new $T/root/vmstat
}
BA="217 12 86 186 102 53 26 10 10 18 203"
BB="300 2 86 190 102 50 26 10 10 18 150"
PA="1 1 1 0 1 0 1 0 0 17 203"
PB="5 1 1 4 1 0 1 0 0 17 150"
state "$BA" "$PA" 1000
$PAGETOP record --proc-root $T/root -o $T/d.ptrec -d 0.5 --flush 0.5 \
	--pagetypeinfo-every 0.5 2>$T/rec.err &
rpid=$!
i=0
while [ $i -lt 50 ] && [ -z "$(ls $XDG_RUNTIME_DIR/pagetop 2>/dev/null)" ]; do sleep 0.1; i=$((i + 1)); done
sleep 1.2
$PAGETOP mark "phase A" >/dev/null
sleep 1.3
state "$BB" "$PB" 4000
sleep 1.3
$PAGETOP mark "phase B" >/dev/null
sleep 1.3
kill -INT $rpid
wait $rpid
check_eq "the recording is made" "$?" 0

$PAGETOP diff $T/d.ptrec mark:A mark:B > $T/out 2>$T/err
check_eq "diff mark:A mark:B exits 0" "$?" 0
$PAGETOP diff $T/d.ptrec mark:A mark:B --json > $T/out.json 2>$T/err.json
check_eq "diff --json exits 0" "$?" 0
check "--json is one JSON object" jq -e 'type == "object"' $T/out.json
wide=$(awk 'length > 78' $T/out)
check_eq "every line within 78 columns" "$wide" ""
check_eq "the Normal zone appears once in buddyinfo" \
	"$(sed -n '/^buddyinfo/,/^$/p' $T/out | grep -c 'zone Normal')" 1

# The rows under "Node 0, zone Normal" in a section: FROM, TO, change.
rows() { sed -n "/^$1/,/^\$/p" $T/out | sed -n "/zone Normal/,/zone\\|^\$/p" |
	grep -E "^ +$2 " | head -1 | sed "s/^ *$2 *//; s/  */ /g"; }
change() {	# change "A B" "C D": "+2 -1 0"
	echo "$1|$2" | awk -F'|' '{ n = split($1, a, " "); split($2, b, " "); s = "";
		for (i = 1; i <= n; i++) { d = b[i] - a[i]; if (d > 0) d = "+" d;
		s = s (i > 1 ? " " : "") d }; print s }'
}
check_eq "buddyinfo FROM: what was written before mark A" "$(rows buddyinfo FROM)" "$BA"
check_eq "buddyinfo TO: what was written before mark B" "$(rows buddyinfo TO)" "$BB"
check_eq "buddyinfo change per order" "$(rows buddyinfo change)" "$(change "$BA" "$BB")"
check_eq "pagetypeinfo Movable at FROM" "$(rows pagetypeinfo Movable)" "$PA"
check_eq "pagetypeinfo Movable at TO" \
	"$(sed -n '/^pagetypeinfo/,/^$/p' $T/out | sed -n '/zone Normal/,$p' |
	   sed -n '/Movable/,/change/p' | sed -n 's/^ *TO *//p' | sed 's/  */ /g')" "$PB"
check_eq "pagetypeinfo Movable change" \
	"$(sed -n '/^pagetypeinfo/,/^$/p' $T/out | sed -n '/zone Normal/,$p' |
	   sed -n '/Movable/,/change/p' | sed -n 's/^ *change *//p' | sed 's/  */ /g')" \
	"$(change "$PA" "$PB")"
check_match "pagetypeinfo names the reads in force" "$(cat $T/out)" \
	"reads in force: FROM's at [0-9:]{8}\\.[0-9]{3}, TO's at [0-9:]{8}\\.[0-9]{3}"

# The counter: 3000 more between the marks, at 3000 / the seconds between.
inc=$(sed -n 's/^  pgscan_kswapd  *\([0-9]*\) .*/\1/p' $T/out)
check_eq "pgscan_kswapd increased by what was written (4000 - 1000)" "$inc" 3000
check_eq "only counters that moved (the fixture's others stay)" \
	"$(sed -n '/^vmstat/,/^$/p' $T/out | grep -c '^  [a-z]')" 1
secs=$(jq '.to.time - .from.time' $T/out.json)
rate=$(sed -n 's/^  pgscan_kswapd  *[0-9]*  *\([0-9.]*\)$/\1/p' $T/out)
check "the rate is the increase per second between the samples ($rate/s over ${secs}s)" \
	awk -v r="$rate" -v s="$secs" 'BEGIN { e = 3000 / s; exit !(r > e * 0.99 && r < e * 1.01) }'

# The JSON says what the text says.
check_jq "--json: buddyinfo from" $T/out.json \
	"(.buddyinfo[] | select(.zone == \"Normal\") | .from | map(tostring) | join(\" \")) == \"$BA\""
check_jq "--json: buddyinfo to" $T/out.json \
	"(.buddyinfo[] | select(.zone == \"Normal\") | .to | map(tostring) | join(\" \")) == \"$BB\""
check_jq "--json: buddyinfo change" $T/out.json \
	"(.buddyinfo[] | select(.zone == \"Normal\") | .change | map(if . > 0 then \"+\" + tostring else tostring end) | join(\" \")) == \"$(change "$BA" "$BB")\""
check_jq "--json: pagetypeinfo Movable" $T/out.json \
	"(.pagetypeinfo[] | select(.zone == \"Normal\" and .type == \"Movable\") | [.from, .to] | map(map(tostring) | join(\" \"))) == [\"$PA\", \"$PB\"]"
check_jq "--json: the counter's increase" $T/out.json \
	'.vmstat == [.vmstat[] | select(.counter == "pgscan_kswapd")] and .vmstat[0].increase == 3000 and .vmstat[0].from == 1000 and .vmstat[0].to == 4000'
# The text has 2 decimals below 1000/s, none above.
case $rate in *.*) scale=100 ;; *) scale=1 ;; esac
check_jq "--json: the same rate as the text (to its decimals)" $T/out.json \
	".vmstat[0].per_second * $scale | round == ($rate * $scale | round)"
check_jq "--json: the moments are the marks' samples" $T/out.json \
	'.from.spec == "mark:A" and .to.spec == "mark:B" and .reversed == false'
check_eq "--json: the moment's time as dump --at gives it" "$(jq .from.time $T/out.json)" \
	"$($PAGETOP dump $T/d.ptrec --at mark:A --json 2>/dev/null | jq .time)"

# --source limits the sections.
$PAGETOP diff $T/d.ptrec mark:A mark:B --source vmstat > $T/vm 2>/dev/null
check_eq "--source vmstat: that section alone" \
	"$(grep -cE '^(buddyinfo|pagetypeinfo|meminfo|pressure|blocked|kernel probes)' $T/vm) $(grep -c '^vmstat' $T/vm)" "0 1"
check_jq "--source vmstat --json: that key alone" \
	"$($PAGETOP diff $T/d.ptrec mark:A mark:B --source vmstat --json > $T/vm.json 2>/dev/null; echo $T/vm.json)" \
	'has("vmstat") and (has("buddyinfo") | not) and (has("meminfo") | not)'

# TO before FROM: shown forwards, and said.
$PAGETOP diff $T/d.ptrec mark:B mark:A > $T/rev 2>/dev/null
check_eq "TO before FROM: exit 0" "$?" 0
check_match "TO before FROM: said" "$(cat $T/rev)" "TO is before FROM: shown from the earlier"
check_eq "TO before FROM: the same increase, forwards" \
	"$(sed -n 's/^  pgscan_kswapd  *\([0-9]*\) .*/\1/p' $T/rev)" 3000
check_jq "TO before FROM: reversed in the JSON" \
	"$($PAGETOP diff $T/d.ptrec mark:B mark:A --json > $T/rev.json 2>/dev/null; echo $T/rev.json)" \
	'.reversed == true and .from.spec == "mark:A"'

# Bad times and arguments: one line, exit 2.
for spec in "mark:fsck" "mark:phase#3" "08:61:00" "end+1h"; do
	err=$($PAGETOP diff $T/d.ptrec start "$spec" 2>&1 >/dev/null)
	st=$?
	check_eq "TO '$spec': exit 2" "$st" 2
	check_eq "... one line" "$(printf '%s\n' "$err" | grep -vc wait-reasons)" 1
done
check_match "a bad FROM is named" "$($PAGETOP diff $T/d.ptrec xyz end 2>&1)" \
	"^pagetop: diff: FROM: 'xyz'"
$PAGETOP diff $T/d.ptrec start end --source bogus >/dev/null 2>&1
check_eq "--source bogus: exit 2" "$?" 2
$PAGETOP diff $T/d.ptrec start >/dev/null 2>&1
check_eq "one moment only: exit 2" "$?" 2
$PAGETOP diff $T/none.ptrec start end >/dev/null 2>&1
check_eq "no such file: exit 1" "$?" 1
done_testing

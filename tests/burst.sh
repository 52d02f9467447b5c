#!/bin/sh
# Bursts over uneven intervals, with the test hook PAGETOP_PSI_TRIGGER (a
# FIFO standing in for the kernel's PSI triggers: a byte written is a
# firing). A proc root whose pgscan_kswapd advances at 1000 a second of
# wall time, 5000 a second while the trigger fires: the recording has fast
# samples only around the firings; report and export give 5000/s there
# (per second of the samples' own times: per sample, or per second of the
# recording's interval, it would be 500). Without a trigger (the root's
# pressure files are read-only captured files) the why is said and the
# samples stay at the interval.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
make_root $T/root buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
	meminfo=$L/meminfo zoneinfo=$L/zoneinfo pressure/memory=$L/pressure/memory \
	pressure/io=$L/pressure/io uptime=$L/uptime
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR
mkfifo $T/trig

if ! command -v python3 >/dev/null; then
	ok "bursts # SKIP needs python3"
	done_testing
	exit 0
fi

# The counter, and the firings from 3 s to 5 s; prints the wall times of
# the stretch of 5000/s.
cat > $T/writer.py <<'PY'
import os, sys, time
root, fifo, vmstat = sys.argv[1], sys.argv[2], sys.argv[3]
lines = open(vmstat).read().splitlines()
t0 = time.time(); v = 1000000.0; last = t0; fired = 0
fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
while True:
	now = time.time(); t = now - t0
	if t > 9.5:
		break
	v += (5000 if 3 <= t < 5 else 1000) * (now - last); last = now
	with open(root + "/vmstat.new", "w") as f:
		for l in lines:
			f.write("pgscan_kswapd %d\n" % v if l.startswith("pgscan_kswapd ") else l + "\n")
	os.replace(root + "/vmstat.new", root + "/vmstat")
	if 3 <= t < 5 and t >= 3 + 0.5 * fired:
		os.write(fd, b"x"); fired += 1
	if t > 0.3 and not os.path.exists(root + "/../started"):
		open(root + "/../started", "w").close()
	time.sleep(0.004)
out = open(sys.argv[4], "w")
out.write("%.3f %.3f\n" % (t0 + 3, t0 + 5))
PY
# The counter is the writer's from the first sample on.
python3 $T/writer.py $T/root $T/trig "$FIXTURES/$L/vmstat" $T/stretch &
wpid=$!
while [ ! -e $T/started ]; do sleep 0.05; done
PAGETOP_PSI_TRIGGER=$T/trig $PAGETOP record --proc-root $T/root -o $T/b.ptrec -d 1 \
	--burst 0.1 --burst-for 1 --duration 8.5 2>$T/rec.err
check_eq "record with bursts exits 0" "$?" 0
wait $wpid
stretch=$(cat $T/stretch)
$PAGETOP dump $T/b.ptrec --json > $T/b.json 2>$T/d.err
# Each interval as "END_TIME SECONDS".
jq -r '.time' $T/b.json | awk 'NR > 1 { printf "%.3f %.3f\n", $1, $1 - p } { p = $1 }' > $T/iv
set -- $stretch
from=$1 to=$2
fast=$(awk '$2 < 0.5' $T/iv | wc -l)
# Fast from the first firing until --burst-for after the last (4.5 s).
stray=$(awk -v a=$from -v b=$to '$2 < 0.5 && ($1 < a - 0.3 || $1 > b + 0.8)' $T/iv)
slow=$(awk '$2 > 0.8 && $2 < 1.2' $T/iv | wc -l)
check_match "fast samples while the trigger fires ($fast)" "$fast" '^(1[5-9]|2[0-9]|3[0-9])$'
check_eq "no fast sample away from the firings" "$stray" ""
check_match "at the interval before and after ($slow)" "$slow" '^[4-9]$'
# The first interval of a burst ends when the trigger fired, anywhere in
# the beat: the rest are the burst's own.
near=$(awk '$2 < 0.5 && prev < 0.5 && NR > 1 && ($2 < 0.07 || $2 > 0.14) { print } { prev = $2 }' $T/iv)
check_eq "fast samples 0.1 s apart" "$near" ""

rep=$($PAGETOP report $T/b.ptrec 2>&1)
check_match "report: Samples says the bursts" "$rep" \
	"^Samples: +[0-9]+, one every 1s, $(awk '$2 < 0.75' $T/iv | wc -l) at 0\\.1s in bursts"
# The peak is the largest of some 20 intervals of 0.1 s, and the writer,
# descheduled under load, can move the counter late then all at once: one
# interval can read twice the rate. What this checks is the unit: per
# second of the samples' times it is thousands, per second of the
# interval it would be 500. The mean is checked on the export below.
peak=$(printf '%s\n' "$rep" | awk '$1 == "pgscan_kswapd" { print $4 }')
check_match "report: peak rate per second of the samples' times ($peak)" "$peak" \
	'^([3-9][0-9]{3}|([3-9]|1[0-9])(\.[0-9])?k)/s$'
$PAGETOP export $T/b.ptrec --format csv --source vmstat > $T/b.csv 2>$T/x.err
rows=$(($(wc -l < $T/b.csv) - 1))
check_eq "export: a row per sample, bursts too" "$rows" "$(jq -s length $T/b.json)"
col=$(head -1 $T/b.csv | tr ',' '\n' | grep -n '^vmstat_pgscan_kswapd_total$' | cut -d: -f1)
# Over the burst's fast intervals, the increase per second of their times
# (per sample it would be 500).
rate=$(awk -F, -v c="$col" -v a=$from -v b=$to 'NR > 1 { t = $1 } NR > 2 && t - p < 0.5 &&
	t > a + 0.2 && t < b - 0.1 { dv += $c - v; dt += t - p; n++ }
	NR > 1 { p = t; v = $c } END { if (n > 9) printf "%d", dv / dt }' $T/b.csv)
check_match "export: 5000/s over the burst's own intervals ($rate)" "$rate" \
	'^(4[3-9][0-9][0-9]|5[0-6][0-9][0-9])$'

# A tree of captured files has no triggers: nothing said, the interval stays.
$PAGETOP record --proc-root $T/root -o $T/n.ptrec -d 0.5 --duration 2 2>$T/n.err
check_eq "captured files: no bursts, nothing said" "$(grep -c bursts $T/n.err)" 0
ivs=$($PAGETOP dump $T/n.ptrec --json | jq -r '.time' |
	awk 'NR > 1 && ($1 - p < 0.4 || $1 - p > 0.6) { print $1 - p } { p = $1 }')
check_eq "captured files: every interval the asked one" "$ivs" ""
# The stand-in refused: the why, in the header too.
: > $T/notfifo
tmux_start bo 160 30 "PAGETOP_PSI_TRIGGER=$T/notfifo $PAGETOP --proc-root $T/root -d 0.5"
check_eq "--no-burst: nothing said" \
	"$($PAGETOP record --proc-root $T/root -o $T/m.ptrec -d 0.5 --duration 1 --no-burst 2>&1 |
	grep -c bursts)" 0
check_fails "--burst-trigger: a bad spec" $PAGETOP record --burst-trigger "some 10 20"
check_match "--burst-trigger: its message" \
	"$($PAGETOP record --burst-trigger 'most 1 2' 2>&1)" \
	"^pagetop: --burst-trigger: 'most 1 2' is not \"some\\|full THRESHOLD_US WINDOW_US\""

# The dashboard: BURST in the header while the trigger fires; the why
# without, at its end.
sleep 1.5
check_match "header: bursts off and why" "$(screen_of bo | head -1)" \
	"bursts off: PAGETOP_PSI_TRIGGER=$T/notfifo: not a FIFO"

tmux_start bu 160 30 "PAGETOP_PSI_TRIGGER=$T/trig $PAGETOP --proc-root $T/root -d 1 --burst-for 3"
sleep 1.2
echo x > $T/trig
sleep 0.6
check_match "header: BURST while fast" "$(screen_of bu | head -1)" "every 1s +BURST 0\\.1s"
done_testing

#!/bin/sh
# Faults in the proc root: files that disappear, turn into directories,
# become unreadable (for a user who is not root), empty or garbled while
# the dashboard, record and snapshot read them; and a recording of another
# machine (4 NUMA nodes, 14 orders, made from a synthesized proc root)
# replayed and dumped here.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export LANG=C.UTF-8 XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR
make_root $T/root buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
	meminfo=$L/meminfo zoneinfo=$L/zoneinfo pressure/memory=$L/pressure/memory \
	pressure/io=$L/pressure/io uptime=$L/uptime
chmod -R a+rX $T/root

# put FILE: the fixture back in place, as a whole (rename over).
put() {	# a file replaced by mv, with no moment when it is missing
	[ -d "$T/root/$1" ] && rm -rf "$T/root/$1"
	cp "$FIXTURES/$L/$1" "$T/root/$1.new" && chmod 644 "$T/root/$1.new" &&
		mv "$T/root/$1.new" "$T/root/$1"
}
clock_of() { screen_of "$1" | sed -En '1s/.* LIVE ([0-9:]{8}) .*/\1/p'; }
check_clock_moves() {
	c1=$(clock_of "$2")
	i=0
	while [ "$(clock_of "$2")" = "$c1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	c2=$(clock_of "$2")
	if [ -n "$c1" ] && [ -n "$c2" ] && [ "$c1" != "$c2" ]; then ok "$1"; else not_ok "$1" "$(screen_of "$2")"; fi
}

# The dashboard, as nobody when we are root (so that mode 000 denies).
AS=
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null && id nobody >/dev/null 2>&1; then
	chmod 755 $T
	cp $PAGETOP $T/pagetop-copy && chmod 755 $T/pagetop-copy
	mkdir -m 700 $T/run-nobody && chown nobody $T/run-nobody
	AS="runuser -u nobody -- env XDG_RUNTIME_DIR=$T/run-nobody"
	BIN=$T/pagetop-copy
else
	BIN=$PAGETOP
fi
tmux_start pr 80 24 "$AS $BIN --proc-root $T/root -d 0.2"
BUDDY_ROW='^ 0 Normal +[^ ]+ +10 +0\.[0-9]{3} '
check_screen "dashboard: free blocks per order at first" pr "$BUDDY_ROW"

rm $T/root/buddyinfo
check_screen "buddyinfo removed: its panel says so" pr '^ buddyinfo: not present'
check_screen "... the other panels stay" pr '^ 0 Normal  free +[0-9.]+[KMG]  min '
check_clock_moves "... and sampling goes on" pr
keys pr 2
check_screen "... the fragmentation screen says so too" pr '^buddyinfo: not present'
keys pr 1
put buddyinfo
check_screen "buddyinfo back: its panel is back" pr "$BUDDY_ROW"

rm $T/root/buddyinfo && mkdir $T/root/buddyinfo
check_screen "buddyinfo a directory: its panel says so" pr '^ buddyinfo: Is a directory'
put buddyinfo
check_screen "... and back" pr "$BUDDY_ROW"

if [ -n "$AS" ]; then
	chmod 000 $T/root/buddyinfo
	check_screen "buddyinfo unreadable: its panel says so" pr '^ buddyinfo: permission denied'
	check_screen "... the other panels stay" pr '^ 0 Normal  free +[0-9.]+[KMG]  min '
	chmod 644 $T/root/buddyinfo
	check_screen "... and back when readable" pr "$BUDDY_ROW"
	chmod 000 $T/root/meminfo
	check_screen "meminfo unreadable: the memory panel says so" pr '^ meminfo: permission denied'
	chmod 644 $T/root/meminfo
	check_screen "... and back" pr '^ total 23\.5G '
else
	ok "unreadable files # SKIP needs root, runuser and nobody"
fi

: > $T/root/buddyinfo
check_screen "buddyinfo empty: malformed, said in its panel" pr '^ buddyinfo: malformed: empty'
printf 'Node 0, zone      DMA      0      0\nthis is not buddyinfo\n' > $T/root/buddyinfo
check_screen "buddyinfo garbled: the line named in its panel" pr '^ buddyinfo: malformed: line 2: '
put buddyinfo
check_screen "... and back" pr "$BUDDY_ROW"

rm $T/root/vmstat
rm -r $T/root/pressure
check_screen "vmstat gone: the reclaim panel says so" pr '^ vmstat: not present'
check_screen "pressure gone: the PSI panel says so" pr '^ pressure/memory: not present'
check_screen "... and free blocks still there" pr "$BUDDY_ROW"
keys pr 3
check_screen "... the reclaim screen says so" pr '^vmstat: not present'
keys pr 1
put vmstat
mkdir $T/root/pressure && chmod 755 $T/root/pressure
put pressure/memory
check_screen "vmstat back: rates again (first one unknown)" pr '^ kswapd scan +(–|0) '
check_screen "pressure back" pr '^ memory +[0-9]+\.[0-9]{2} '
keys pr q
check_screen "the dashboard quits with status 0" pr '^exit=0$'

# Recording while files vanish and come back: the samples say which was
# missing and why; the recorder goes on and exits 0.
( sleep 0.5; rm $T/root/buddyinfo; sleep 0.5; put buddyinfo
  sleep 0.5; rm $T/root/vmstat; mkdir $T/root/vmstat; sleep 0.5; put vmstat
  sleep 0.5; : > $T/root/meminfo; sleep 0.5; put meminfo ) &
cpid=$!
$PAGETOP record --proc-root $T/root -o $T/vanish.ptrec -d 0.1 --duration 3.5 2>$T/vanish.err
check_eq "record through vanishing files: status 0" "$?" 0
wait $cpid
check_eq "... and no error line" "$(grep -Ev '^pagetop: (recording to|recorded [0-9]+ of [0-9]+ samples)' $T/vanish.err)" ""
$PAGETOP dump $T/vanish.ptrec --json > $T/vanish.jsonl
# The runs of samples: which files each has, in order.
runs=$(jq -c '[has("buddyinfo"), has("vmstat"), has("meminfo")]' $T/vanish.jsonl | uniq | tr -d '\n')
check_eq "samples with and without each file, in the order it happened" "$runs" \
	'[true,true,true][false,true,true][true,true,true][true,false,true][true,true,true][true,true,false][true,true,true]'
# (A sample may fall between vmstat's rm and mkdir, or rm and mv: then it
# is rightly "not present" for a moment.)
check_eq "... each missing one recorded with its reason" \
	"$(jq -r '.unavailable[] | select(.source | test("^(buddyinfo|vmstat|meminfo)$")) | "\(.source): \(.reason)"' $T/vanish.jsonl |
	   grep -v '^vmstat: not present' | uniq | tr '\n' '|')" \
	'buddyinfo: not present (kernel without it)|vmstat: Is a directory|meminfo: malformed: no "Key: value" line|'
rel=$(jq -s '(map(select(has("buddyinfo") | not))[0].time - .[0].time + 0.02) * 1000 | floor' $T/vanish.jsonl)
err=$($PAGETOP dump $T/vanish.ptrec --at "+${rel}ms" --source buddyinfo 2>&1 >/dev/null)
st=$?
check_match "dump --source of a file missing then: one line saying why" "$err" \
	"^pagetop: $T/vanish.ptrec: no buddyinfo at [0-9 :.-]+: not present"
check_eq "... and exit 1" "$st" 1
tmux_start rv 80 24 "$PAGETOP replay $T/vanish.ptrec --at +${rel}ms"
check_screen "replay at that moment: the panel says why" rv '^ buddyinfo: not present'
keys rv End
check_screen "... and at the end it is back" rv "$BUDDY_ROW"
keys rv q

# snapshot of a root with a file missing, a directory, empty, unreadable.
snap() { $PAGETOP snapshot --json --proc-root $T/root > $T/snap.json 2>$T/snap.err; }
rm $T/root/buddyinfo
snap
check_eq "snapshot, buddyinfo missing: status 0" "$?" 0
check_jq "... listed with its reason, the rest read" $T/snap.json \
	'([.unavailable[] | select(.source == "buddyinfo")][0].reason == "not present (kernel without it)") and .vmstat.pgfault > 0'
mkdir $T/root/buddyinfo
snap
check_jq "snapshot, buddyinfo a directory: listed with why" $T/snap.json \
	'[.unavailable[] | select(.source == "buddyinfo")][0].reason == "Is a directory" and (.zones | length) == 5'
put buddyinfo
: > $T/root/vmstat
snap
check_eq "snapshot, vmstat empty: status 1 (malformed)" "$?" 1
check_match "... one line naming the file" "$(cat $T/snap.err)" "^pagetop: $T/root/vmstat: [^:]+\$"
check_eq "... only one" "$(wc -l < $T/snap.err)" 1
check_jq "... the rest printed" $T/snap.json '(.buddyinfo | length) == 3'
put vmstat
if [ -n "$AS" ]; then
	chmod 000 $T/root/buddyinfo $T/root/zoneinfo
	$AS $BIN snapshot --json --proc-root $T/root > $T/snap.json 2>$T/snap.err
	check_eq "snapshot as nobody, two files unreadable: status 0" "$?" 0
	check_jq "... both listed as permission denied, the rest read" $T/snap.json \
		'([.unavailable[] | select(.reason | startswith("permission denied")) | .source] == ["buddyinfo", "zoneinfo"]) and .meminfo.MemTotal > 0'
	chmod 644 $T/root/buddyinfo $T/root/zoneinfo
fi

# Another machine: an arm64 VM with 4 NUMA nodes and 14 orders
# (tests/fixtures/roots/synth-arm64-4node-14order, synthesized: see the
# README there), recorded through --proc-root and replayed here.
N=$FIXTURES/roots/synth-arm64-4node-14order
$PAGETOP record --proc-root $N -o $T/numa4.ptrec -d 0.2 --duration 1 2>$T/numa4.err
check_eq "4 nodes, 14 orders: recorded" "$?" 0
info=$($PAGETOP dump $T/numa4.ptrec --info)
check_match "... --info: the host of the capture" "$info" '^host: +numa4-arm64, Linux 6\.18\.44-arm64-maxorder13 .* pageblock order 9$'
check_match "... 5 samples" "$info" '^5 samples$'
$PAGETOP dump $T/numa4.ptrec --source buddyinfo | sed 1d > $T/numa4.buddyinfo
check "dump --source buddyinfo equals the input byte for byte" cmp $T/numa4.buddyinfo $N/buddyinfo
$PAGETOP dump $T/numa4.ptrec --source pagetypeinfo | sed 1d > $T/numa4.pagetypeinfo
check "dump --source pagetypeinfo equals the input byte for byte" cmp $T/numa4.pagetypeinfo $N/pagetypeinfo
# The first sample: pagetypeinfo is read on it (then every 10 s).
$PAGETOP dump $T/numa4.ptrec --json | head -1 > $T/numa4.json
check_jq "dump --json: 5 zones on nodes 0 to 3, 14 orders each" $T/numa4.json \
	'[.buddyinfo[].node] == [0,0,1,2,3] and all(.buddyinfo[]; .free | length == 14)'
check_jq "... highest free order 13 where there is one" $T/numa4.json \
	'[.fragmentation[].highest_free_order] == [13,8,11,13,13]'
$PAGETOP snapshot --json --proc-root $N > $T/numa4.snap.json
keys_of='{buddyinfo, pagetypeinfo, fragmentation, zones, vmstat, reclaim, meminfo, psi}'
if [ "$(jq -S "$keys_of" $T/numa4.json)" = "$(jq -S "$keys_of" $T/numa4.snap.json)" ]; then
	ok "the replayed sample equals snapshot of the same root, indices and all"
else
	jq -S "$keys_of" $T/numa4.json > $T/a.json
	jq -S "$keys_of" $T/numa4.snap.json > $T/b.json
	not_ok "the replayed sample equals snapshot of the same root" "$(diff $T/a.json $T/b.json | head -20)"
fi
tmux_start n4 80 24 "$PAGETOP replay $T/numa4.ptrec"
check_screen "replay: the capture's host in the header" n4 '^ pagetop  numa4-arm64  6\.18\.44-arm64-maxorder13  REPLAY'
check_screen "replay overview: node 3's zone with its top order 13" n4 '^ 3 Normal +[^ ]+ +13 +0\.000 +0\.000 +0\.002$'
check_screen "... its watermarks" n4 '^ 3 Normal  free   3\.1G  min 15\.7M '
keys n4 2
check_screen "fragmentation: every zone listed" n4 '^Zone: +0 DMA +0 Normal +\[1 Normal\] +2 Normal +3 Normal '
keys n4 Down Down
check_screen "Down Down: node 3 selected" n4 '^Zone: .*\[3 Normal\]'
check_screen "... order 13 with its 97 free blocks, the top order" n4 '^13 top +97 +0\.012 +-1 │ +0 +97 +0 +0 +0 +0$'
check_screen "... the pageblock order marked" n4 '^ 9 pb +2 '
check_screen "... CMA among the migratetypes" n4 'Unmovab Movable Reclaim HighAto CMA Isolate$'
tm resize-window -t n4 -x 160 -y 50
check_screen "160x50: the table of all zones has node 3" n4 '^>? +3 Normal +804599 +3\.1G '
check_screen "... and 14 heatmap rows, to order 13" n4 '^13 +[▁▂▃▄▅▆▇█]+$'
keys n4 3
check_screen "the reclaim screen works" n4 '^kswapd scan '
keys n4 4
check_screen "the tasks screen says the capture has none" n4 '^Tasks +tasks: not present'
keys n4 q
check_screen "replay quits with status 0" n4 '^exit=0$'
done_testing

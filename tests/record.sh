#!/bin/sh
# Recording and dumping: a round trip of values from a proc root that
# changes, marks, damage, SIGKILL, size limits, and files that are not
# recordings.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
make_root $T/root buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
	meminfo=$L/meminfo zoneinfo=$L/zoneinfo pressure/memory=$L/pressure/memory \
	pressure/io=$L/pressure/io uptime=$L/uptime
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR

# Five versions of buddyinfo and vmstat, each held for 0.6 s while recording every 0.2 s.
version() {
	# Printed as the kernel prints it: "Node %d, zone %8s " then "%6lu " per order.
	awk -v k=$1 '/^Node/ { printf "Node %d, zone %8s ", $2, $4; for (i = 5; i <= NF; i++) printf "%6d ", $i + (i == 5 ? 1000 * k : 0); print "" }' \
		"$FIXTURES/$L/buddyinfo" > $T/root/buddyinfo.new && mv $T/root/buddyinfo.new $T/root/buddyinfo
	awk -v k=$1 '$1 == "pgscan_kswapd" { $2 = 1000000 + k } { print }' "$FIXTURES/$L/vmstat" \
		> $T/root/vmstat.new && mv $T/root/vmstat.new $T/root/vmstat
	cp $T/root/buddyinfo $T/buddyinfo.$1
}
version 0
$PAGETOP record --proc-root $T/root -o $T/rt.ptrec -d 0.2 --flush 0.5 2>$T/rec.err &
rpid=$!
sleep 0.3
for k in 1 2 3 4; do sleep 0.6; version $k; done
sleep 0.6
$PAGETOP mark "mke2fs starts"
check_eq "mark reaches the running recorder" "$?" 0
sleep 0.3
kill -INT $rpid
wait $rpid
check_eq "record stops cleanly on SIGINT" "$?" 0
check_match "record says what it wrote" "$(cat $T/rec.err)" "recorded [0-9]+ of [0-9]+ samples .* to $T/rt.ptrec"
check_eq "the recording is mode 0600" "$(stat -c %a $T/rt.ptrec)" 600

$PAGETOP dump $T/rt.ptrec --json > $T/rt.jsonl
check "dump --json reads every sample" test -s $T/rt.jsonl
check_eq "one JSON object per sample, about 5 a second" "$(jq -s 'length >= 15' $T/rt.jsonl)" true
for k in 0 1 2 3 4; do
	want=$(awk '$4 == "Normal" { for (i = 5; i <= NF; i++) printf "%s%s", $i, (i < NF ? "," : "") }' $T/buddyinfo.$k)
	n=$(jq -c "select(.buddyinfo[2].free == [$want] and .vmstat.pgscan_kswapd == $((1000000 + k)))" $T/rt.jsonl | wc -l)
	if [ "$n" -ge 1 ]; then ok "version $k recorded with every buddyinfo count and vmstat equal ($n samples)"; else not_ok "version $k recorded exactly" "no sample with Normal [$want]"; fi
done
check_eq "every sample has pagetypeinfo, meminfo, zoneinfo, PSI" \
	"$(jq -s 'all(.[]; .meminfo.MemTotal > 0 and (.zones | length) == 5 and .psi.memory.some != null)' $T/rt.jsonl)" true
check_eq "pagetypeinfo recorded at its first read" "$(jq -s '.[0].pagetypeinfo.pageblock_order' $T/rt.jsonl)" 9

# The kernel's format, byte for byte.
$PAGETOP dump $T/rt.ptrec --source buddyinfo | sed 1d > $T/dumped
check "dump --source buddyinfo prints the file as the kernel did" cmp $T/dumped $T/buddyinfo.4
first=$(jq -s '.[0].time' $T/rt.jsonl)
$PAGETOP dump $T/rt.ptrec --at "$first" --source buddyinfo | sed 1d > $T/dumped0
check "dump --at the first sample's time: version 0" cmp $T/dumped0 $T/buddyinfo.0
rel=$(jq -s '(map(select(.vmstat.pgscan_kswapd == 1000001))[0].time - .[0].time + 0.05) * 1000 | floor' $T/rt.jsonl)
$PAGETOP dump $T/rt.ptrec --at "+${rel}ms" --source buddyinfo | sed 1d > $T/dumped1
check "dump --at +${rel}ms (relative): version 1" cmp $T/dumped1 $T/buddyinfo.1
info=$($PAGETOP dump $T/rt.ptrec --info)
check_match "--info: samples counted" "$info" '^[0-9]+ samples$'
check_match "--info: the mark" "$info" 'mark: .*mke2fs starts'
check_match "--info: the host" "$info" '^host: +'
check_match "--info: the command line" "$info" "recorded: .*--proc-root $T/root"

# Not a recording; no recorder to mark.
err=$($PAGETOP dump /etc/passwd 2>&1)
check_eq "not a recording: one clear line" "$err" "pagetop: /etc/passwd: not a pagetop recording"
check_fails "... and a nonzero exit" $PAGETOP dump /etc/passwd
err=$($PAGETOP mark "nobody listens" 2>&1)
check_match "mark with no recorder: a clear message" "$err" '^pagetop: mark: nothing is recording: press R in the dashboard, or start pagetop record$'
check_fails "... and a nonzero exit" $PAGETOP mark "nobody listens"
check_fails "a recording is never overwritten" $PAGETOP record --proc-root $T/root -o $T/rt.ptrec --duration 1

# Cut short anywhere: everything before the cut replays, never a crash.
size=$(stat -c %s $T/rt.ptrec)
bad=0
for cut in 0 20 64 100 $((size / 3)) $((size / 2)) $((size - 50)) $((size - 1)); do
	head -c $cut $T/rt.ptrec > $T/cut.ptrec
	$PAGETOP dump $T/cut.ptrec --json > $T/cut.jsonl 2>$T/cut.err
	st=$?
	[ $st -ge 128 ] && bad=$((bad + 1))
done
check_eq "dump of a file cut at 8 offsets never crashes" $bad 0
# (A cut inside the first chunk, the first keyframe and the samples flushed
# with it, leaves nothing to replay; later cuts keep every earlier chunk.)
# Where the first chunk ends depends on how well the keyframe compresses, so
# try cuts from near the end back to the middle: one must fall after it.
n_all=$(wc -l < $T/rt.jsonl)
n_part=0
for frac in 95 90 80 75 66 50; do
	head -c $((size * frac / 100)) $T/rt.ptrec > $T/part.ptrec
	n_part=$($PAGETOP dump $T/part.ptrec --json 2>/dev/null | wc -l)
	[ "$n_part" -gt 0 ] && [ "$n_part" -lt "$n_all" ] && break
done
if [ "$n_part" -gt 0 ] && [ "$n_part" -lt "$n_all" ]; then ok "a file cut at $frac% replays its first part ($n_part of $n_all)"; else not_ok "a file cut short replays its first part" "$n_part of $n_all"; fi
check_match "--info says the file was not closed properly" "$($PAGETOP dump $T/part.ptrec --info 2>&1)" 'not closed properly'

# Flipped bytes in the middle: replays what is intact, says where the damage is.
cp $T/rt.ptrec $T/flip.ptrec
printf 'XXXXXXXXXXXXXXXX' | dd of=$T/flip.ptrec bs=1 seek=$((size * 3 / 4)) conv=notrunc 2>/dev/null
$PAGETOP dump $T/flip.ptrec --json > $T/flip.jsonl 2>$T/flip.err
st=$?
check_eq "flipped bytes: no crash" "$([ $st -lt 128 ] && echo yes)" yes
n_flip=$(wc -l < $T/flip.jsonl)
if [ "$n_flip" -gt 0 ]; then ok "flipped bytes: $n_flip of $n_all samples still replay"; else not_ok "flipped bytes: samples still replay"; fi
check_match "flipped bytes: dump says where the damage is" "$(cat $T/flip.err)" 'damage|damaged|CRC|byte'

# SIGKILL: what was flushed survives.
for i in 1 2 3; do
	$PAGETOP record --proc-root $T/root -o $T/kill$i.ptrec -d 0.1 --flush 0.3 2>/dev/null &
	kpid=$!
	sleep 1.$i
	kill -KILL $kpid
	wait $kpid 2>/dev/null
	n=$($PAGETOP dump $T/kill$i.ptrec --json 2>/dev/null | wc -l)
	# 1.i s at 0.1 s, less a flush interval (0.3 s) and start-up.
	if [ "$n" -ge 5 ]; then ok "SIGKILL after 1.$i s: $n samples replay"; else not_ok "SIGKILL after 1.$i s: samples replay" "only $n"; fi
done

# SIGKILL in the first seconds, at the default flush interval (5 s): the
# first flush comes after the first sample, so what was sampled is kept.
$PAGETOP record --proc-root $T/root -o $T/early.ptrec -d 0.5 2>/dev/null &
kpid=$!
sleep 1.5
kill -KILL $kpid
wait $kpid 2>/dev/null
n=$($PAGETOP dump $T/early.ptrec --json 2>/dev/null | wc -l)
if [ "$n" -ge 1 ]; then ok "SIGKILL after 1.5 s at the default flush: $n samples kept"; else not_ok "SIGKILL after 1.5 s at the default flush: samples kept" "$($PAGETOP dump --info $T/early.ptrec 2>&1)"; fi
check_match "... and dump --info counts them" "$($PAGETOP dump --info $T/early.ptrec 2>&1)" "[1-9][0-9]* samples"

# --duration and --max-size stop cleanly.
$PAGETOP record --proc-root $T/root -o $T/dur.ptrec -d 0.2 --duration 1 2>/dev/null
check_eq "--duration 1 at 0.2 s: 5 samples" "$($PAGETOP dump $T/dur.ptrec --info | sed -n 's/^\([0-9]*\) samples$/\1/p')" 5
$PAGETOP record --proc-root $T/root -o $T/max.ptrec -d 0.1 --max-size 20k --flush 0.2 2>$T/max.err
check_eq "--max-size stops by itself with status 0" "$?" 0
check_match "... and says so" "$(cat $T/max.err)" 'max size'
sz=$(stat -c %s $T/max.ptrec)
check_eq "... within the limit" "$([ $sz -le 20480 ] && echo yes)" yes
check "... and the file is whole" $PAGETOP dump $T/max.ptrec --info
# What record says it recorded is what the file holds, not what it pushed.
said=$(sed -En 's/.*recorded ([0-9]+) of [0-9]+ samples.*/\1/p' $T/max.err)
check_eq "... and the count it prints is the file's" "$said" \
	"$($PAGETOP dump $T/max.ptrec --info | sed -n 's/^\([0-9]*\) samples$/\1/p')"

# A stalled disk: the recording goes to a FIFO whose reader never reads and
# whose buffer is already full, so the writer thread blocks on its first
# write. The dashboard must go on sampling at its interval and answer keys.
mkfifo $T/stall.fifo
sleep 600 < $T/stall.fifo &
spid=$!
dd if=/dev/zero bs=65536 count=1 of=$T/stall.fifo 2>/dev/null
tmux_start st 80 24 "LANG=C.UTF-8 $PAGETOP --proc-root $T/root -d 0.2 --record $T/stall.fifo"
check_screen "stalled recording: the dashboard starts, REC shown" st ' REC '
t1=$(date +%s.%N)
s1=$(screen_of st | sed -En '1s/.* LIVE ([0-9:]{8}) .*/\1/p')
sleep 3
s2=$(screen_of st | sed -En '1s/.* LIVE ([0-9:]{8}) .*/\1/p')
d=$(( $(date -d "$s2" +%s) - $(date -d "$s1" +%s) ))
if [ "$d" -ge 2 ] && [ "$d" -le 4 ]; then ok "stalled recording: samples keep their interval (clock moved ${d}s in 3s)"; else not_ok "stalled recording: samples keep their interval" "clock went from $s1 to $s2"; fi
keys st 2
check_screen "stalled recording: keys answer at once" st '^Zone: ' 2
keys st 1
check_screen "stalled recording: the overview is back" st '^Memory ' 2
kill $spid 2>/dev/null
wait $spid 2>/dev/null
check_screen "the reader gone, the recording stops with a reason" st 'recording stopped|REC .*STOPPED' 5
keys st q
check_screen "the dashboard still quits cleanly" st '^exit=0$'

# The dashboard records too: R starts, m marks, pagetop mark reaches it, R stops.
mkdir -p $T/dash
tmux_start dr 80 24 "cd $T/dash && LANG=C.UTF-8 $PAGETOP --proc-root $T/root -d 0.3"
wait_screen dr 'Memory' >/dev/null
keys dr R
check_screen "R starts recording: REC in the header" dr ' REC [0-9.]+[KM] '
check_screen "... and the status line names the file" dr 'recording to pagetop-.*\.ptrec \(R stops\)'
keys dr m
check_screen "m asks for a mark" dr '^mark: _'
keys dr "build starts" Enter
check_screen "the mark is taken" dr 'marked: build starts'
$PAGETOP mark "from a script"
check_screen "pagetop mark reaches the dashboard" dr 'marked: from a script'
sleep 0.7
keys dr R
check_screen "R again stops and says where" dr 'recorded to pagetop-'
keys dr q
check_screen "the dashboard quits" dr '^exit=0$'
f=$(ls $T/dash/*.ptrec 2>/dev/null | head -1)
info=$($PAGETOP dump "$f" --info 2>&1)
check_match "the dashboard's recording is whole" "$info" '^[0-9]+ samples$'
check_match "... with the typed mark" "$info" 'mark: .*build starts'
check_match "... and the script's" "$info" 'mark: .*from a script'
check_eq "... mode 0600" "$(stat -c %a "$f")" 600
done_testing

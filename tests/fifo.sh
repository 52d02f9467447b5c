#!/bin/sh
# FIFOs where files should be (issue 12, item 7): a recording that is a
# FIFO, and a proc root whose buddyinfo and meminfo are FIFOs nobody
# writes. Nothing may wait on them: every command is run under timeout 5,
# so a hang fails here rather than blocking the suite.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export LANG=C.UTF-8 XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR
make_root $T/root pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat zoneinfo=$L/zoneinfo \
	pressure/memory=$L/pressure/memory pressure/io=$L/pressure/io uptime=$L/uptime
mkfifo $T/root/buddyinfo $T/root/meminfo
mkfifo $T/rec.fifo

# check_quick DESCRIPTION REGEX COMMAND...: it ends within 5 s with a
# nonzero status and one line naming the FIFO.
check_refused() {
	d=$1; re=$2; shift 2
	timeout -k 2 5 "$@" >$T/out 2>$T/err </dev/null
	st=$?
	if [ $st = 124 ]; then not_ok "$d" "hung: killed after 5 s"
	elif [ $st = 0 ]; then not_ok "$d" "exited 0"
	elif ! grep -Eq -- "$re" $T/err || [ "$(wc -l < $T/err)" != 1 ]; then
		not_ok "$d" "status $st, said: $(cat $T/err)"
	else ok "$d"; fi
}
fifo_re="$T/rec.fifo: not a regular file"
check_refused "dump of a FIFO: refused at once" "$fifo_re" $PAGETOP dump $T/rec.fifo
check_refused "dump --info of a FIFO: refused at once" "$fifo_re" $PAGETOP dump --info $T/rec.fifo
check_refused "report of a FIFO: refused at once" "$fifo_re" $PAGETOP report $T/rec.fifo
check_refused "export of a FIFO: refused at once" "$fifo_re" $PAGETOP export $T/rec.fifo --format csv
tmux_start rp 80 24 "timeout --foreground -k 2 5 $PAGETOP replay $T/rec.fifo"
check_screen "replay of a FIFO: refused at once, naming it" rp "$fifo_re" 4
check_screen "... with a nonzero status" rp "^exit=1" 4

# The proc root: each FIFO is listed as unavailable, the rest is read.
timeout -k 2 5 $PAGETOP snapshot --proc-root $T/root >$T/snap 2>$T/snap.err
check_eq "snapshot on a proc root with FIFOs ends" "$?" 0
check_match "... buddyinfo is unavailable, not waited on" "$(cat $T/snap)" "^  buddyinfo +not a regular file"
check_match "... meminfo too" "$(cat $T/snap)" "^  meminfo +not a regular file"
check_match "... and the rest is read" "$(cat $T/snap)" "^Reclaim"
timeout -k 2 5 $PAGETOP snapshot --json --proc-root $T/root >$T/snap.json
check_eq "snapshot --json too" "$?" 0
timeout -k 2 5 $PAGETOP record --proc-root $T/root -o $T/r.ptrec -d 0.2 --duration 1 2>$T/rec.err
check_eq "record on it ends by its duration" "$?" 0
check_match "... with samples" "$(timeout -k 2 5 $PAGETOP dump --info $T/r.ptrec)" "samples"
tmux_start db 100 30 "timeout --foreground -k 2 5 $PAGETOP --proc-root $T/root -d 0.2"
check_screen "the dashboard starts on it" db "LIVE" 4
keys db q
check_screen "... and quits" db "^exit=0" 4
timeout -k 2 5 $PAGETOP serve --listen 127.0.0.1:0 --proc-root $T/root -d 0.2 2>$T/serve.err &
spid=$!
i=0
while ! grep -q 'serving http://' $T/serve.err && [ $i -lt 40 ]; do sleep 0.1; i=$((i + 1)); done
ADDR=$(sed -n 's|.*http://\([^/]*\)/metrics.*|\1|p' $T/serve.err)
code=$(curl -s -m 3 -o $T/m.txt -w '%{http_code}' http://$ADDR/metrics)
check_eq "serve on it answers a scrape" "$code" 200
check_match "... with what it could read" "$(cat $T/m.txt)" "^pagetop_vmstat"
kill -TERM $spid 2>/dev/null
wait $spid
check_eq "... and stops on SIGTERM" "$?" 0
done_testing

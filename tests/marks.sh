#!/bin/sh
# pagetop mark: a mark longer than 255 bytes is cut on a UTF-8 character
# boundary; a marks directory taken by another user (or open to others)
# is said to be so, not taken for "no pagetop is recording"; whether a
# pagetop takes marks is its socket's mode (a dashboard before R: no).
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
make_root $T/root buddyinfo=$L/buddyinfo vmstat=$L/vmstat meminfo=$L/meminfo uptime=$L/uptime
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR

# 254 bytes of ASCII, then "é" (2 bytes) straddling byte 255: the cut
# leaves it out whole. Then a mark of "€" (3 bytes) 100 times.
long=$(awk 'BEGIN { while (n++ < 254) printf "a"; printf "\303\251tail" }')
euro=$(awk 'BEGIN { while (n++ < 100) printf "\342\202\254" }')
$PAGETOP record --proc-root $T/root -o $T/m.ptrec -d 0.1 --flush 0.2 2>$T/rec.err &
rpid=$!
i=0
while [ $i -lt 50 ] && [ -z "$(ls $XDG_RUNTIME_DIR/pagetop 2>/dev/null)" ]; do sleep 0.1; i=$((i + 1)); done
out=$($PAGETOP mark "$long")
check_eq "mark: a long mark is sent, to the one recording" "$?:$out" "0:marked 1 recording"
check "mark: a long mark of 3-byte characters is sent" $PAGETOP mark "$euro"
sleep 0.5
kill -INT $rpid
wait $rpid
$PAGETOP dump $T/m.ptrec --info > $T/info 2>&1
m1=$(sed -n 's/^mark: .*  \(aaaa*.*\)$/\1/p' $T/info)
check_eq "mark: cut before the character that straddles byte 255" "$m1" \
	"$(awk 'BEGIN { while (n++ < 254) printf "a" }')"
m2=$(sed -n "s/^mark: .*  \\($(printf '\342\202\254')*\\)\$/\\1/p" $T/info)
check_eq "mark: 3-byte characters cut at 255 bytes, 85 whole ones" "$(printf '%s' "$m2" | wc -c)" 255
check "mark: what was kept is valid UTF-8" python3 -c 'import sys; sys.stdin.buffer.read().decode("utf-8")' < $T/info

# A directory in the place that is not ours: said so.
if [ "$(id -u)" = 0 ]; then
	mkdir -m 700 $T/other
	mkdir -m 700 $T/other/pagetop
	chown 65534 $T/other/pagetop
	err=$(XDG_RUNTIME_DIR=$T/other $PAGETOP mark "hello" 2>&1)
	st=$?
	check_eq "another user's directory: exit 1" "$st" 1
	check_eq "... one line saying whose it is" "$err" \
		"pagetop: mark: $T/other/pagetop is taken by another user (uid 65534): marks cannot use it (set XDG_RUNTIME_DIR, or have it removed)"
else
	ok "another user's directory # SKIP needs root to chown"
fi
mkdir -m 700 $T/open
mkdir -m 755 $T/open/pagetop
err=$(XDG_RUNTIME_DIR=$T/open $PAGETOP mark "hello" 2>&1)
check_eq "a directory open to others: said so" "$err" \
	"pagetop: mark: $T/open/pagetop is open to other users (mode 755): marks do not use it"
mkdir -m 700 $T/file
: > $T/file/pagetop
err=$(XDG_RUNTIME_DIR=$T/file $PAGETOP mark "hello" 2>&1)
check_eq "a file in its place: said so" "$err" \
	"pagetop: mark: $T/file/pagetop is not a directory: marks cannot use it"
mkdir -m 700 $T/none
err=$(XDG_RUNTIME_DIR=$T/none $PAGETOP mark "hello" 2>&1)
check_eq "nothing there: exit 1, one line" "$?:$err" \
	"1:pagetop: mark: nothing is recording: press R in the dashboard, or start pagetop record"

# A dashboard that does not record is no receiver: the mark would be lost.
# With R it is, and with a recorder too the count says two.
tmux_start dm 80 24 "cd $T && LANG=C.UTF-8 $PAGETOP --proc-root $T/root -d 0.3"
wait_screen dm 'Memory' >/dev/null
i=0
while [ $i -lt 50 ] && [ -z "$(ls $XDG_RUNTIME_DIR/pagetop/*.sock 2>/dev/null)" ]; do sleep 0.1; i=$((i + 1)); done
err=$($PAGETOP mark "lost" 2>&1)
check_eq "only a dashboard, not recording: exit 1, nothing is recording" "$?:$err" \
	"1:pagetop: mark: nothing is recording: press R in the dashboard, or start pagetop record"
check_no_screen "... and the dashboard did not take it" dm 'not recording: R starts'
keys dm R
check_screen "R records" dm 'recording to .*\(R stops\)'
out=$($PAGETOP mark "kept")
check_eq "the dashboard recording: it gets the mark" "$?:$out" "0:marked 1 recording"
check_screen "... and says so" dm 'marked: kept'
$PAGETOP record --proc-root $T/root -o $T/m2.ptrec -d 0.1 --flush 0.2 2>$T/rec2.err &
rpid=$!
i=0
while [ $i -lt 50 ] && [ "$(ls $XDG_RUNTIME_DIR/pagetop/*.sock 2>/dev/null | wc -l)" -lt 2 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.3
out=$($PAGETOP mark "both")
check_eq "a recorder too: two recordings got it" "$?:$out" "0:marked 2 recordings"
kill -INT $rpid
wait $rpid
keys dm R
check_screen "R stops" dm 'recorded to '
err=$($PAGETOP mark "lost again" 2>&1)
check_eq "the dashboard stopped recording: nothing is recording again" "$?:$err" \
	"1:pagetop: mark: nothing is recording: press R in the dashboard, or start pagetop record"
keys dm q
check_screen "the dashboard quits" dm '^exit=0$'

# Whether a pagetop takes marks is its socket's mode, which it keeps (600
# while recording, 400 while not), not what it has open: a dashboard with
# a file open for writing (here on descriptor 3) is still not recording.
sock_mode() { stat -c %a $XDG_RUNTIME_DIR/pagetop/*.sock 2>/dev/null; }
rm -f $XDG_RUNTIME_DIR/pagetop/*.sock
# In a directory of its own: R's default name is by the second, and the
# dashboard before may have recorded in the same one.
mkdir $T/dw
tmux_start dw 80 24 "cd $T/dw && LANG=C.UTF-8 $PAGETOP --proc-root $T/root -d 0.3 3>>$T/written"
wait_screen dw 'Memory' >/dev/null
i=0
while [ $i -lt 50 ] && [ "$(sock_mode)" != 400 ]; do sleep 0.1; i=$((i + 1)); done
check_eq "a dashboard not recording: its socket is 400" "$(sock_mode)" 400
err=$($PAGETOP mark "lost" 2>&1)
check_eq "... with a file open for writing, nothing is recording" "$?:$err" \
	"1:pagetop: mark: nothing is recording: press R in the dashboard, or start pagetop record"
keys dw R
check_screen "R records" dw 'recording to .*\(R stops\)'
check_eq "... its socket is 600" "$(sock_mode)" 600
out=$($PAGETOP mark "kept")
check_eq "... and it gets the mark" "$?:$out" "0:marked 1 recording"
keys dw R
check_screen "R stops" dw 'recorded to '
check_eq "... its socket is 400 again" "$(sock_mode)" 400
keys dw q
check_screen "the dashboard quits" dw '^exit=0$'
check_eq "... and its socket is gone" "$(sock_mode)" ""

# A socket left at 400 by a pagetop that died is removed by the next mark.
sh -c 'exit 0' &
dead=$!
wait $dead
python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1])' \
	$XDG_RUNTIME_DIR/pagetop/$dead.sock
chmod 400 $XDG_RUNTIME_DIR/pagetop/$dead.sock
err=$($PAGETOP mark "nobody" 2>&1)
check_eq "a dead pagetop's socket: nothing is recording" "$?" 1
check "... and its socket is removed" test ! -e $XDG_RUNTIME_DIR/pagetop/$dead.sock

# A recorder takes marks whatever its umask.
(umask 277; exec $PAGETOP record --proc-root $T/root -o $T/m3.ptrec -d 0.1 --flush 0.2 2>$T/rec3.err) &
rpid=$!
i=0
while [ $i -lt 50 ] && [ -z "$(sock_mode)" ]; do sleep 0.1; i=$((i + 1)); done
check_eq "a recorder under umask 277: its socket is 600" "$(sock_mode)" 600
out=$($PAGETOP mark "umask")
check_eq "... and it gets the mark" "$?:$out" "0:marked 1 recording"
kill -INT $rpid
wait $rpid
done_testing

#!/bin/sh
# ncurses is loaded only to drive a terminal (src/dashboard/curses-dl.c):
# the binary does not link it, a running record never maps it, the
# dashboard and a replay map it and draw their first screen, and a curses
# that does not load is one line naming it and dlerror()'s reason, exit 1,
# with nothing done to the terminal.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
export LANG=C.UTF-8
R="--proc-root $FIXTURES/roots/live-6.18-x86_64"
soname=$(sed -n 's/^#define CURSES_SONAME "\(.*\)"$/\1/p' "$(dirname "$PAGETOP")/config.h")
check_match "config.h names the ncursesw to load" "$soname" '^libncursesw\.so\.[0-9]+$'

out=$(ldd "$PAGETOP" 2>&1)
check_match "ldd reads the binary" "$out" 'libc\.so'
check_eq "the binary links neither ncurses nor tinfo" \
	"$(printf '%s\n' "$out" | grep -cE 'libncurses|libtinfo')" 0

# maps_of PID FILE LIB: a copy of its maps once it has mapped LIB (or
# after 5 s: the check that the maps were read at all).
maps_of() {
	i=0
	while [ $i -lt 50 ] && ! grep -q "$3" /proc/$1/maps 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	cat /proc/$1/maps > $2 2>/dev/null
}

$PAGETOP record $R -o $T/r.ptrec -d 0.2 --duration 30 2>/dev/null &
rpid=$!
i=0
while [ $i -lt 50 ] && [ ! -s $T/r.ptrec ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
maps_of $rpid $T/record.maps libzstd
check_match "record: its maps read" "$(cat $T/record.maps)" 'libzstd'
check_eq "record: neither libncursesw nor libtinfo mapped" \
	"$(grep -cE 'libncurses|libtinfo' $T/record.maps)" 0
kill -INT $rpid; wait $rpid
check_eq "record: exit 0" "$?" 0

# dashboard NAME ARGS: pagetop with ARGS in tmux, its pid in $T/NAME.pid.
dashboard() {
	tmux_start "$1" 80 24 "sh -c 'echo \$\$ > $T/$1.pid; exec $PAGETOP $2'"
}
dashboard live "$R -d 1"
check_screen "dashboard: the header drawn" live '^ pagetop  .*  LIVE [0-9:]{8}  every 1s'
maps_of "$(cat $T/live.pid)" $T/live.maps libncursesw
check_match "dashboard: libncursesw mapped" "$(cat $T/live.maps)" 'libncursesw'
keys live q
check_screen "dashboard: q quits with status 0" live '^exit=0$'
check_no_screen "dashboard: the terminal given back" live 'every 1s'

dashboard rp "replay $T/r.ptrec"
check_screen "replay: the header drawn" rp '^ pagetop  .*  REPLAY [0-9:]{8}\.[0-9]{3} x1 paused'
maps_of "$(cat $T/rp.pid)" $T/rp.maps libncursesw
check_match "replay: libncursesw mapped" "$(cat $T/rp.maps)" 'libncursesw'
keys rp q
check_screen "replay: q quits with status 0" rp '^exit=0$'

# A file by that name that is no library, found first on LD_LIBRARY_PATH.
mkdir $T/lib
echo 'not a library' > $T/lib/$soname
tmux_start bad 200 24 "LD_LIBRARY_PATH=$T/lib $PAGETOP $R -d 1"
check_screen "no curses: exit 1" bad '^exit=1$'
shown=$(screen_of bad | grep -v '^$')
check_eq "no curses: one line, then the exit" "$(printf '%s\n' "$shown" | wc -l)" 2
check_match "no curses: the line names it and why" "$(printf '%s\n' "$shown" | head -1)" \
	"^pagetop: cannot load $soname to drive the terminal: $T/lib/$soname: .+"
done_testing

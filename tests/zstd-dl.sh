#!/bin/sh
# libzstd is loaded only to read or write a recording (src/ptrec/zstd-dl.c):
# the binary does not link it, snapshot and a live dashboard never map it
# (it was 92 KB of the dashboard's resident memory), record and replay do
# and their recordings read back, and a libzstd that does not load is one
# line naming the file and dlerror()'s reason, exit 1, no file made.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
export LANG=C.UTF-8
R="--proc-root $FIXTURES/roots/live-6.18-x86_64"
soname=$(sed -n 's/^#define ZSTD_SONAME "\(.*\)"$/\1/p' "$(dirname "$PAGETOP")/config.h")
check_match "config.h names the libzstd to load" "$soname" '^libzstd\.so\.[0-9]+$'

out=$(ldd "$PAGETOP" 2>&1)
check_match "ldd reads the binary" "$out" 'libc\.so'
check_eq "the binary does not link libzstd" "$(printf '%s\n' "$out" | grep -c libzstd)" 0

# libs_of COMMAND...: the libraries the loader opened for it, dlopen()s too
libs_of() { LD_DEBUG=files "$@" 2>&1 >/dev/null | sed -n 's/.*file=\([^ ]*\) .*/\1/p' | sort -u; }
check_match "snapshot: the loader's list read" "$(libs_of $PAGETOP snapshot $R)" 'libc\.so'
check_eq "snapshot: libzstd never opened" "$(libs_of $PAGETOP snapshot $R | grep -c libzstd)" 0
mkdir -p $T
check_match "record: libzstd opened" \
	"$(libs_of $PAGETOP record $R -o $T/r.ptrec -d 0.2 --duration 1)" 'libzstd'
check_match "and what it wrote reads back" "$($PAGETOP dump --info $T/r.ptrec 2>&1)" \
	'^[1-9][0-9]* samples$'

# The dashboard, live: curses mapped, libzstd not; a replay maps both.
# dashboard NAME ARGS: pagetop with ARGS in tmux, its pid in $T/NAME.pid.
dashboard() {
	tmux_start "$1" 80 24 "sh -c 'echo \$\$ > $T/$1.pid; exec $PAGETOP $2'"
}
dashboard live "$R -d 0.5"
check_screen "dashboard: the header drawn" live '^ pagetop  .*  LIVE [0-9:]{8}'
sleep 1
maps=$(cat /proc/$(cat $T/live.pid)/maps 2>/dev/null)
check_match "dashboard: its maps read, curses in them" "$maps" 'libncursesw'
check_eq "dashboard: libzstd not mapped" "$(printf '%s\n' "$maps" | grep -c libzstd)" 0
keys live q
check_screen "dashboard: q quits with status 0" live '^exit=0$'
dashboard rp "replay $T/r.ptrec"
check_screen "replay: the header drawn" rp '^ pagetop  .*  REPLAY '
check_match "replay: libzstd mapped" "$(cat /proc/$(cat $T/rp.pid)/maps 2>/dev/null)" 'libzstd'
keys rp q
check_screen "replay: q quits with status 0" rp '^exit=0$'

# A file by that name that is no library, found first on LD_LIBRARY_PATH.
mkdir $T/lib
echo 'not a library' > $T/lib/$soname
LD_LIBRARY_PATH=$T/lib $PAGETOP record $R -o $T/bad.ptrec -d 0.2 --duration 1 \
	> $T/bad.out 2> $T/bad.err
check_eq "no libzstd: record exits 1" "$?" 1
check_eq "no libzstd: no file made" "$([ -e $T/bad.ptrec ] && echo made || echo none)" none
check_match "no libzstd: one line naming the file, the library and why" \
	"$(grep -v 'share/pagetop' $T/bad.err)" \
	"^pagetop: $T/bad.ptrec: cannot load $soname to read or write recordings: $T/lib/$soname: .+"
LD_LIBRARY_PATH=$T/lib $PAGETOP report $T/r.ptrec > $T/rep.out 2> $T/rep.err
check_eq "no libzstd: report exits 1" "$?" 1
check_eq "no libzstd: report's one line" "$(grep -c "cannot load $soname" $T/rep.err)" 1
check_eq "no libzstd: snapshot still works" \
	"$(LD_LIBRARY_PATH=$T/lib $PAGETOP snapshot $R > /dev/null 2>&1; echo $?)" 0
done_testing

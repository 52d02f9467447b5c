#!/bin/sh
# record -o never follows a name another user swaps (issue 12, item 1):
# an unprivileged user flips the output name between a symlink to a FIFO
# and one to a root-owned file while root starts recordings onto it.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
TRIES=${RACE_TRIES:-500}
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root to run the recorder and an unprivileged user to race it"
	exit 0
fi
if ! command -v setpriv >/dev/null; then
	echo "1..0 # SKIP no setpriv to run the racer as nobody"
	exit 0
fi
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
chmod 755 $T
make_root $T/root buddyinfo=$L/buddyinfo vmstat=$L/vmstat meminfo=$L/meminfo
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR
printf 'precious root-owned bytes\n' > $T/victim
chmod 644 $T/victim
cp $T/victim $T/victim.orig
# The directory the racer owns: not sticky, so the kernel's protected
# symlinks do not step in and the recorder alone must refuse.
mkdir -m 755 $T/d
chown 65534:65534 $T/d
as_nobody mkfifo $T/d/fifo
as_nobody ln -s $T/d/fifo $T/d/out
# The racer stops by itself when the directory goes, whatever kills us.
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "while [ -d $T/d ]; do ln -s $T/d/fifo $T/d/a; mv -T $T/d/a $T/d/out; ln -s $T/victim $T/d/b; mv -T $T/d/b $T/d/out; done" 2>/dev/null &
racer=$!
i=0 symlink=0 other=0
while [ $i -lt $TRIES ]; do
	timeout 5 $PAGETOP record --proc-root $T/root -o $T/d/out -d 0.1 --duration 0.2 2>$T/err
	grep -q "symbolic link" $T/err && symlink=$((symlink + 1)) || other=$((other + 1))
	i=$((i + 1))
	cmp -s $T/victim $T/victim.orig || break
done
kill $racer 2>/dev/null
wait $racer 2>/dev/null
rm -rf $T/d
check "the root-owned file is untouched after $i tries" cmp $T/victim $T/victim.orig
check_eq "every try refused the symlink ($other said something else: $(head -c 200 $T/err))" "$symlink" "$TRIES"
check_eq "the victim is still owned by root, mode 644" "$(stat -c '%U %a' $T/victim)" "root 644"

# What the recorder does open.
mkfifo $T/f
# The reader has it open before the recorder comes (it refuses a FIFO
# nobody reads), and gives up if the recorder never does.
timeout 20 cat $T/f > $T/f.out &
catpid=$!
i=0
while [ $i -lt 100 ] && ! ls -l /proc/$(pgrep -P $catpid)/fd 2>/dev/null | grep -q " $T/f\$"; do
	sleep 0.05; i=$((i + 1))
done
timeout 5 $PAGETOP record --proc-root $T/root -o $T/f -d 0.1 --duration 0.3 2>$T/err
st=$?
check_eq "a FIFO named itself is still recorded to ($(tail -1 $T/err))" "$st" 0
wait $catpid
check_match "the FIFO's reader got a recording" "$($PAGETOP dump --info $T/f.out 2>&1)" "samples"
ln -s $T/f $T/link
check_fails "a symlink to a FIFO is refused" timeout 5 $PAGETOP record --proc-root $T/root -o $T/link --duration 0.2
check_match "and says why, naming it" "$(timeout 5 $PAGETOP record --proc-root $T/root -o $T/link --duration 0.2 2>&1)" "$T/link: a symbolic link"
check_fails "an existing file is refused" timeout 5 $PAGETOP record --proc-root $T/root -o $T/victim --duration 0.2
check "and left as it was" cmp $T/victim $T/victim.orig
done_testing

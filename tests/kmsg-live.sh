#!/bin/sh
# Kernel log events from this machine's own kernel, as root:
#  - a fake "page allocation failure" written into /dev/kmsg is stored by the
#    kernel with a userspace facility, and never becomes an event;
#  - the kernel's hung-task detector, its timeout lowered for the test, warns
#    about a task held in uninterruptible sleep (a write to a frozen ext4 on
#    a loop device), and `pagetop record` has the event with the task's
#    command and pid.
# Everything changed is put back on exit: sysctls, the freeze, the mount.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
export HOME=$T XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR
HT=/proc/sys/kernel

skip_all() {
	ok "injected lines are no event # SKIP $1"
	ok "a real hung-task warning is an event # SKIP $1"
	done_testing
	exit 0
}
[ "$(id -u)" = 0 ] || skip_all "needs root (writes to /dev/kmsg, sysctls, a loop mount)"
[ -r /dev/kmsg ] && [ -w /dev/kmsg ] || skip_all "no /dev/kmsg"

# Records in a pagetop recording: every event of every sample, as JSON lines.
events_of() {
	$PAGETOP dump "$1" --json | jq -c '.events[]?'
}

# record_start FILE: pagetop recording the live kernel every 0.2 s.
record_start() {
	$PAGETOP record -o "$1" -d 0.2 --flush 0.2 2>$T/record.err &
	rec_pid=$!
	# It reads /dev/kmsg from its start on: wait until it has begun.
	i=0
	while [ ! -s "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.5
}
record_stop() {
	kill -INT $rec_pid 2>/dev/null
	wait $rec_pid 2>/dev/null
	rec_pid=
}
rec_pid=

# --- Injected lines: the kernel gives them facility 1 (user), pagetop ignores them.
mark="pagetop-test-$$"
record_start $T/inject.ptrec
echo "<4>vim: page allocation failure: order:4, mode:0x40dc0 $mark" > /dev/kmsg
echo "INFO: task $mark:666 blocked for more than 999 seconds." > /dev/kmsg
# (Not <0>: journald would forward an emergency to every terminal.)
echo "<3>Out of memory: Killed process 1 ($mark) total-vm:1kB, anon-rss:1kB, file-rss:0kB" > /dev/kmsg
sleep 1
record_stop
# The kernel did take them, as userspace's: facility 1 (PRI 8 to 15).
raw=$(dd if=/dev/kmsg iflag=nonblock bs=8192 count=100000 2>/dev/null | grep -a "$mark")
check_eq "the kernel stored the three injected lines" "$(printf '%s\n' "$raw" | grep -c .)" 3
check_eq "... each with facility 1, whatever prefix was written" \
	"$(printf '%s\n' "$raw" | awk -F, '$1 >= 8 && $1 <= 15' | grep -c .)" 3
$PAGETOP dump $T/inject.ptrec --json | jq -s . > $T/inject.json
check_jq "pagetop read /dev/kmsg while they came (no permission problem)" $T/inject.json \
	'(map(select(has("events"))) | length > 0) and ([.[].unavailable[] | select(.source == "kmsg")] | length == 0)'
check_jq "none of them became an event" $T/inject.json \
	"[.[] | .events[]? | select(.text | contains(\"$mark\"))] | length == 0"

# --- A real hung task.
[ -w $HT/hung_task_timeout_secs ] || { ok "a real hung-task warning is an event # SKIP no hung-task detector (CONFIG_DETECT_HUNG_TASK)"; done_testing; exit 0; }
if [ "$(cat $HT/hung_task_panic 2>/dev/null || echo 0)" != 0 ]; then
	ok "a real hung-task warning is an event # SKIP kernel.hung_task_panic is set: a warning would panic"
	done_testing
	exit 0
fi
for tool in mkfs.ext4 fsfreeze mount umount; do
	command -v $tool >/dev/null || { ok "a real hung-task warning is an event # SKIP no $tool"; done_testing; exit 0; }
done
old_timeout=$(cat $HT/hung_task_timeout_secs)
old_warnings=$(cat $HT/hung_task_warnings)
mnt=$T/mnt
writer=
cleanup() {
	[ -n "$rec_pid" ] && record_stop
	echo "$old_timeout" > $HT/hung_task_timeout_secs
	echo "$old_warnings" > $HT/hung_task_warnings
	if mountpoint -q $mnt 2>/dev/null; then
		fsfreeze -u $mnt 2>/dev/null
		[ -n "$writer" ] && wait $writer 2>/dev/null
		umount $mnt
	fi
	tmux_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

mkdir $mnt
truncate -s 32M $T/fs.img
if ! mkfs.ext4 -q -F $T/fs.img 2>$T/mkfs.err || ! mount -o loop $T/fs.img $mnt 2>$T/mount.err; then
	ok "a real hung-task warning is an event # SKIP cannot mount a loop device: $(cat $T/mkfs.err $T/mount.err | head -1)"
	done_testing
	exit 0
fi
record_start $T/hung.ptrec
fsfreeze -f $mnt
# touch opens the file to create it: mnt_want_write() waits for the thaw in
# TASK_UNINTERRUPTIBLE (not killable), which the detector counts.
touch $mnt/f &
writer=$!
i=0
while [ "$(awk '{ print $3 }' /proc/$writer/stat 2>/dev/null)" != D ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
check_eq "the writer waits in D on the frozen file system" "$(awk '{ print $3 }' /proc/$writer/stat)" D
detected=$(cat $HT/hung_task_detect_count 2>/dev/null || echo 0)
[ "$old_warnings" = 0 ] && echo 10 > $HT/hung_task_warnings
echo 1 > $HT/hung_task_timeout_secs
# The detector checks every second now; wait until it has counted a hung
# task (ours or anyone's), then for pagetop to finish the event.
i=0
while [ "$(cat $HT/hung_task_detect_count 2>/dev/null || echo 0)" = "$detected" ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 2
echo "$old_timeout" > $HT/hung_task_timeout_secs
record_stop
fsfreeze -u $mnt
wpid=$writer
wait $writer
writer=
events_of $T/hung.ptrec > $T/hung.jsonl
jq -s "map(select(.kind == \"hung-task\" and .pid == $wpid))" $T/hung.jsonl > $T/ours.json
check_jq "the kernel's hung-task warning is an event, with the task's pid ($wpid)" $T/ours.json 'length >= 1'
check_jq "... and its command" $T/ours.json '.[0].comm == "touch"'
check_jq "... blocked for at least the lowered timeout" $T/ours.json '.[0].seconds >= 1'
check_jq "... with the stack the kernel printed after it" $T/ours.json \
	'.[0].text | test("\nCall Trace:\n") and test("\n mnt_want_write")'
done_testing

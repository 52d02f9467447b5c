#!/bin/sh
# Kernel log events through the real binary, fed from files and FIFOs of
# /dev/kmsg records (tests/fixtures/kmsg): snapshot and its JSON, bad input,
# the Events screen and the overview's line at 80x24 and 160x50, Enter on an
# event, a recording of them, replay's n stopping at one, dump, and the
# screen's reason when /dev/kmsg cannot be read. kmsg-live.sh makes the
# kernel itself speak.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
K=$FIXTURES/kmsg
export LANG=C.UTF-8 XDG_RUNTIME_DIR=$T/run HOME=$T/home
mkdir -m 700 $XDG_RUNTIME_DIR
mkdir $HOME
make_root $T/root buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
	meminfo=$L/meminfo zoneinfo=$L/zoneinfo pressure/memory=$L/pressure/memory \
	pressure/io=$L/pressure/io pressure/cpu=$L/pressure/cpu uptime=$L/uptime
mkdir -p $T/root/sys/kernel
echo kmsghost > $T/root/sys/kernel/hostname
echo 6.18.44-test > $T/root/sys/kernel/osrelease

# A fixture's records with their times moved to now, as if the kernel had
# just printed them (the screens show recent events on the overview).
now_records() {
	awk -F, -v OFS=, -v now="$(awk '{ printf "%.0f", $1 * 1000000 }' /proc/uptime)" \
		'NR == 1 { base = $3 } { $3 = sprintf("%.0f", $3 - base + now); print }' "$1"
}

# snapshot reads a file of records whole.
$PAGETOP snapshot --proc-root $T/root --kmsg $K/oom-memcg-6.18.kmsg --json > $T/oom.json
check_eq "snapshot --kmsg: exit 0" "$?" 0
check_jq "snapshot: two events, oom-invoked then oom-kill" $T/oom.json \
	'[.events[].kind] == ["oom-invoked", "oom-kill"]'
check_jq "snapshot: the OOM victim, its pid and rss" $T/oom.json \
	'.events[1] | .comm == "tail" and .pid == 32464 and .anon_rss_kb == 65280 and .file_rss_kb == 1676'
check_jq "snapshot: the invoking task, order and GFP mode" $T/oom.json \
	'.events[0] | .comm == "tail" and .order == 0 and .gfp == "0xcc0" and .lines == 77'
check_jq "snapshot: the whole message, continuation lines after a newline" $T/oom.json \
	'.events[0].text | startswith("tail invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0\nCPU: 0 UID: 0 PID: 32464 Comm: tail")'
$PAGETOP snapshot --proc-root $T/root --kmsg $K/hung-task-6.18-fsfreeze.kmsg > $T/hung.txt
check_match "snapshot text: the events with time, kind and what the kernel said" "$(cat $T/hung.txt)" \
	'^  [0-9:]{8}  hung-task      sh:30810 blocked 2s$'
$PAGETOP snapshot --proc-root $T/root --kmsg $K/userspace-injected-6.18.kmsg --json > $T/inj.json
check_jq "lines userspace wrote into /dev/kmsg (facility 1 and 3): no event" $T/inj.json '.events == []'
$PAGETOP snapshot --proc-root $T/root --json > $T/none.json
check_jq "captured files without --kmsg: no kernel log, no events key" $T/none.json 'has("events") | not'

# Bad input: one line naming the file and what is wrong, exit 1.
printf '4,1,2,-;Killed process 5 (y) total-vm:1kB\nthis is not a record\n' > $T/bad.kmsg
err=$($PAGETOP snapshot --proc-root $T/root --kmsg $T/bad.kmsg --json 2>&1 >$T/bad.json)
check_eq "a damaged log: exit 1" "$?" 1
check_match "... one line: the file, the record, what is wrong" "$err" \
	"^pagetop: $T/bad.kmsg: record 2: no ';' after the prefix$"
check_jq "... the records before it still read" $T/bad.json '.events[0].pid == 5'
err=$($PAGETOP snapshot --proc-root $T/root --kmsg $T/nonexistent 2>&1 >/dev/null)
check_eq "a log that does not exist: exit 1" "$?" 1
check_match "... and why" "$err" "^pagetop: $T/nonexistent: No such file or directory$"
printf 'oom-kill\n' > $T/rules
err=$(PAGETOP_DATADIR=$T/nodata XDG_CONFIG_HOME=$T/cfg $PAGETOP snapshot --proc-root $T/root \
	--kmsg $K/oom-kill-5.x-global.kmsg --json 2>&1 >$T/builtin.json)
check_match "no data/kmsg-events installed: said, and the built-in table used" "$err" \
	"^pagetop: $T/nodata/kmsg-events: not found: kernel log events from the built-in table$"
check_jq "... which knows OOM kills" $T/builtin.json '[.events[].kind] == ["oom-kill", "oom-reaped", "oom-kill", "oom-reaped"]'
mkdir -p $T/cfg/pagetop && cp $T/rules $T/cfg/pagetop/kmsg-events
err=$(XDG_CONFIG_HOME=$T/cfg $PAGETOP snapshot --proc-root $T/root --kmsg $K/oom-kill-5.x-global.kmsg 2>&1 >/dev/null)
check_eq "a malformed user table: exit 1" "$?" 1
check_match "... with the file and line" "$err" "^pagetop: $T/cfg/pagetop/kmsg-events: line 1: no pattern after the kind$"
printf '# my own\nlockup  INFO: task *\n' > $T/cfg/pagetop/kmsg-events
XDG_CONFIG_HOME=$T/cfg $PAGETOP snapshot --proc-root $T/root --kmsg $K/hung-task-6.18-fsfreeze.kmsg --json > $T/mine.json
check_jq "a user's rule comes before the table's" $T/mine.json '.events[0].kind == "lockup"'

# The dashboard fed from a FIFO: the overview's line, the Events screen.
mkfifo $T/kf
tmux_start ev 80 24 "$PAGETOP --proc-root $T/root --kmsg $T/kf -d 0.5"
wait_screen ev 'Memory' >/dev/null
check_screen "80x24: the Events tab, all tabs in 80 columns" ev '^ 1 Overview  2 Fragmentation  3 Reclaim  4 Tasks  5 Events  6 Sensors  \? Help'
{ now_records $K/hung-task-6.18-fsfreeze.kmsg | head -46
  now_records $K/userspace-injected-6.18.kmsg; } > $T/kf
check_screen "overview: the latest event on its line" ev '^Events [0-9:]{8} hung-task sh:30810 blocked 2s'
check_eq "overview: still 24 rows" "$(screen_of ev | wc -l)" 24
check_eq "overview: nothing past 80 columns" "$(screen_of ev | wc -L)" 80
keys ev e
check_screen "e opens the Events screen" ev '^time +kind +the kernel.s first line \(Enter: the whole message\)'
check_screen "Events: time, kind, the kernel's first line" ev '^[0-9:]{8}\.[0-9]{3}  hung-task      INFO: task sh:30810 blocked for more than 2 seconds'
check_no_screen "Events: what userspace wrote is not there" ev 'vim|evil|fake-daemon|Killed process 1 '
keys ev Enter
check_screen "Enter: the whole message, fields first" ev '^command sh  pid 30810  2s'
check_screen "... the kernel's 46 lines" ev "^the kernel's message, 46 lines"
check_screen "... its continuation lines" ev '^ "echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message\.'
keys ev NPage NPage NPage
check_screen "PgDn: down to the end of the stack" ev '^  </TASK>'
keys ev Escape
check_screen "Esc: back to the list" ev '^time +kind'
keys ev q
check_screen "q quits" ev '^exit=0$'

tmux_start big 160 50 "$PAGETOP --proc-root $T/root --kmsg $T/kf -d 0.5"
wait_screen big 'Memory' >/dev/null
{ now_records $K/oom-memcg-6.18.kmsg; now_records $K/vmalloc-failure-6.18-memcg.kmsg; } > $T/kf
check_screen "160x50 overview: the latest event on a line of its own" big \
	'^Events [0-9:]{8} alloc-failure fdgrow mode:0x400cc2( |$)'
keys big 5
check_screen "160x50 Events: three events" big '^[0-9:]{8}\.[0-9]{3}  alloc-failure  fdgrow: vmalloc error: size 249856, failed to allocate pages, mode:0x400cc2'
keys big Up Enter
check_screen "Enter on the OOM kill" big '^command tail  pid 32464  anon-rss 65280kB  file-rss 1676kB  shmem-rss 0kB'
keys big Escape Up Enter
check_screen "Enter on oom-invoked: the memcg's state in its lines" big '^ memory: usage 65536kB, limit 65536kB, failcnt 19'
keys big Escape '?'
check_screen "help lists the Events keys" big "^  Enter +the kernel's whole message"
check_screen "... and e" big "^  1-6, Tab +switch screen \(or click its tab\); e the Events screen"
keys big Escape q

# A recording of them; replay stops at the event with n; dump lists them.
rm -f $T/kf && mkfifo $T/kf
$PAGETOP record --proc-root $T/root --kmsg $T/kf -o $T/k.ptrec -d 0.2 --duration 4 2>/dev/null &
rpid=$!
sleep 1.5
now_records $K/hung-task-6.18-fsfreeze.kmsg | head -46 > $T/kf
wait $rpid
check "the recording was made" test -s $T/k.ptrec
$PAGETOP dump $T/k.ptrec --json | jq -s . > $T/k.json
check_jq "dump --json: the event in one sample" $T/k.json \
	'[.[] | .events[]?] | length == 1 and .[0].kind == "hung-task" and .[0].pid == 30810'
info=$($PAGETOP dump $T/k.ptrec --info)
check_match "dump --info: the event" "$info" '^event: +[0-9-]+ [0-9:]{8}\.[0-9]{3}  hung-task  sh:30810 blocked 2s$'
check_match "dump --info: the count" "$info" '^kernel log: 1 events$'
out=$($PAGETOP dump $T/k.ptrec --source events)
check_match "dump --source events: a heading" "$out" \
	'^==> /dev/kmsg: hung-task at [0-9-]+ [0-9:]{8}\.[0-9]{3} \(record 363\) <==$'
check_match "... then the lines in dmesg's format" "$out" \
	'^\[ *[0-9]+\.[0-9]{6}\] INFO: task sh:30810 blocked for more than 2 seconds\.$'
check_eq "... every line of the message" "$(printf '%s\n' "$out" | grep -c '^\[')" 46
tmux_start rp 80 24 "$PAGETOP replay $T/k.ptrec"
check_screen "replay starts at the start" rp '^\[◆.*\] 0s / [34]s$'
keys rp n
check_screen "n stops at the kernel log event, and says which" rp '^kernel: hung-task sh:30810 blocked 2s \(5 Events\)'
keys rp 5
check_screen "replay Events: the event" rp '^[0-9:]{8}\.[0-9]{3}  hung-task      INFO: task sh:30810'
keys rp Left
check_screen "one sample before it: not yet" rp '^Kernel log  since pagetop started'
check_no_screen "... and no event listed" rp 'hung-task'
keys rp q

# Identical lines within a second: one event with its count, recorded.
tail -n 7 $K/io-fs-errors-old-formats.kmsg > $T/rep.kmsg
rm -f $T/kf && mkfifo $T/kf
$PAGETOP record --proc-root $T/root --kmsg $T/kf -o $T/rep.ptrec -d 0.2 --duration 3 2>/dev/null &
rpid=$!
sleep 1
now_records $T/rep.kmsg > $T/kf
wait $rpid
$PAGETOP dump $T/rep.ptrec --json | jq -s '[.[] | .events[]?]' > $T/rep.json
check_jq "repeats: dump --json has 3 events, counts 3, 3 and 1, with their devices" $T/rep.json \
	'map([.kind, .count, .device]) == [["io-error", 3, "mmcblk0"], ["io-error", 3, "mmcblk0p3"], ["io-error", 1, "mmcblk0p3"]]'
check_match "... dump --info: the count after the line" "$($PAGETOP dump $T/rep.ptrec --info)" \
	'^event: .*  io-error  Buffer I/O error on dev mmcblk0p3, logical block 0, async page read \(3 times\)$'
check_match "... report: the count too (its line wrapped)" "$($PAGETOP report $T/rep.ptrec 2>/dev/null)" \
	'^ +block 0, async page read \(3 times\)$'
tmux_start rep 100 24 "$PAGETOP replay $T/rep.ptrec"
keys rep End 5
check_screen "... replay Events: one row, ×3 before the line" rep \
	'^[0-9:]{8}\.[0-9]{3}  io-error       ×3 I/O error, dev mmcblk0, sector 3751936'
keys rep Up Up Enter
check_screen "... Enter: the device and the count" rep '^device mmcblk0  printed 3 times within 1s'
keys rep q

check_match "a recording without kernel log (an older pagetop's): said by dump --info" \
	"$($PAGETOP dump $FIXTURES/../../data/sample-build-6.18.ptrec --info 2>/dev/null)" '^kernel log: not recorded$'
tmux_start old 80 24 "$PAGETOP replay $FIXTURES/../../data/sample-build-6.18.ptrec"
keys old e
check_screen "... and by the Events screen" old '^Kernel log  not read \(captured files, or a recording without it\)$'
keys old q

# Without permission: the screen says why.
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null && [ "$(cat /proc/sys/kernel/dmesg_restrict)" = 1 ]; then
	chmod 755 $T && cp $PAGETOP $T/pagetop-copy && chmod 755 $T/pagetop-copy
	runuser -u nobody -- $T/pagetop-copy snapshot --json > $T/nobody.json 2>/dev/null
	check_jq "not root: snapshot lists the kernel log as unavailable, with why" $T/nobody.json \
		'.unavailable[] | select(.source == "kmsg") | .reason | test("needs root \\(or sysctl kernel.dmesg_restrict=0\\)")'
	tmux_start nobody 80 24 "runuser -u nobody -- $T/pagetop-copy -d 5"
	wait_screen nobody 'Memory' >/dev/null
	keys nobody e
	check_screen "not root: the Events screen says why" nobody \
		'^Kernel log  permission denied: needs root \(or sysctl kernel\.dmesg_restrict=0\)$'
	keys nobody q
else
	ok "not root: snapshot # SKIP needs root, runuser and kernel.dmesg_restrict=1"
	ok "not root: Events screen # SKIP needs root, runuser and kernel.dmesg_restrict=1"
fi
done_testing

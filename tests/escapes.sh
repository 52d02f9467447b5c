#!/bin/sh
# Text from the machine or a file never drives the terminal: a task whose
# name (comm) is a terminal escape, a kernel log record that holds one and
# a proc root with a C1 control and a byte that is not UTF-8 in its zone
# name reach the screen, the text outputs and the error lines escaped
# ("\x1b", "\u009b"), JSON as JSON's own escapes and valid UTF-8, and
# /metrics and export as promtool takes them.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export LANG=C.UTF-8 XDG_RUNTIME_DIR=$T/run HOME=$T/home
mkdir -m 700 $XDG_RUNTIME_DIR
mkdir $HOME

ESC=$(printf '\033')
C1=$(printf '\302\233')
RAW=$(printf '\233')
# What must never be in an output: ESC, BEL, a C1 control in either form.
raw_controls() { LC_ALL=C grep -c "$(printf '[\033\007\233]')" "$1"; }
# Strict UTF-8, as a JSON reader must be given it.
valid_utf8() { python3 -c 'import sys; sys.stdin.buffer.read().decode("utf-8")' < "$1"; }

# --- A task in D whose name clears the screen, sets the title and has
# xterm's one-byte CSI: any user can name a task so (prctl(PR_SET_NAME)).
if [ -d /proc/self/task ]; then
	$VFORK_HELPER 30 "x${ESC}[2J${ESC}]0;PWN$(printf '\007')${C1}" > $T/vfork.pid &
	hpid=$!
	sleep 0.5
	pid=$(head -1 $T/vfork.pid)
	shown='x\\x1b\[2J\\x1b\]0;PWN\\x07\\u009b'

	$PAGETOP snapshot > $T/snap.txt 2>/dev/null
	check_eq "snapshot: no raw control from the task's name" "$(raw_controls $T/snap.txt)" 0
	check_match "snapshot: the task listed with its name escaped" "$(cat $T/snap.txt)" \
		"^ +$pid +$shown +D "
	$PAGETOP snapshot --json > $T/snap.json 2>/dev/null
	check_eq "snapshot --json: no raw control" "$(raw_controls $T/snap.json)" 0
	check "snapshot --json: valid UTF-8" valid_utf8 $T/snap.json
	check_jq "snapshot --json: the name as it is, through JSON's escapes" $T/snap.json \
		"[.tasks.blocked[] | select(.tid == $pid)][0].comm == \"x\\u001b[2J\\u001b]0;PWN\\u0007\\u009b\""

	tmux_start tk 120 30 "$PAGETOP -d 1"
	wait_screen tk 'Memory' >/dev/null
	title=$(tm display-message -p -t tk '#{pane_title}')
	keys tk 4
	keys tk / P W N Enter
	keys tk Enter
	check_screen "dashboard: the task's name escaped on the Tasks screen" tk "$pid $shown"
	check_eq "dashboard: the terminal's title is unchanged" \
		"$(tm display-message -p -t tk '#{pane_title}')" "$title"
	check_no_screen "dashboard: the screen was not cleared by the name" tk '^PWN'
	keys tk q
	kill $hpid 2>/dev/null
	wait $hpid 2>/dev/null
else
	ok "hostile task name # SKIP no procfs"
fi

# --- The kernel log: /dev/kmsg writes what is not printable as \xNN,
# which the reader keeps as text (a raw byte becomes '?'): the outputs
# show the escapes as the kernel wrote them and no raw control.
make_root $T/root buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
	meminfo=$L/meminfo zoneinfo=$L/zoneinfo pressure/memory=$L/pressure/memory \
	uptime=$L/uptime
printf '%s\n' '3,1,2000000,-;Out of memory: Killed process 5 (\x1b]0;PWN\x07) total-vm:1kB, anon-rss:0kB, file-rss:0kB, shmem-rss:0kB' \
	"4,2,3000000,-;raw bytes ${ESC}]0;PWN${C1}" > $T/k.kmsg
$PAGETOP snapshot --proc-root $T/root --kmsg $T/k.kmsg > $T/ks.txt 2>&1
check_eq "snapshot --kmsg: no raw control" "$(raw_controls $T/ks.txt)" 0
check_match "snapshot --kmsg: the record's escape shown" "$(cat $T/ks.txt)" 'Killed process 5 \(\\x1b\]0;PWN\\x07\)'
$PAGETOP record --proc-root $T/root --kmsg $T/k.kmsg -d 0.1 --duration 0.5s -o $T/k.ptrec 2>/dev/null
$PAGETOP dump $T/k.ptrec --source events > $T/kd.txt 2>&1
check_eq "dump --source events: no raw control" "$(raw_controls $T/kd.txt)" 0
check_match "dump: the record's text escaped" "$(cat $T/kd.txt)" '\(\\x1b\]0;PWN\\x07\)'
$PAGETOP dump $T/k.ptrec --info > $T/ki.txt 2>&1
check_eq "dump --info: no raw control" "$(raw_controls $T/ki.txt)" 0
check_match "dump --info: the event's brief escaped" "$(cat $T/ki.txt)" 'oom-kill .*\\x1b\]0;PWN\\x07'
$PAGETOP report $T/k.ptrec > $T/kr.txt 2>&1
check_eq "report: no raw control" "$(raw_controls $T/kr.txt)" 0
check_match "report: the OOM victim's name escaped" "$(cat $T/kr.txt)" 'oom-kill +\\x1b\]0;PWN\\x07:5'
$PAGETOP dump $T/k.ptrec --json > $T/kj.json 2>&1
check "dump --json: valid UTF-8" valid_utf8 $T/kj.json
jq -s . $T/kj.json > $T/kjs.json
check_jq "dump --json: the victim's name as the kernel escaped it" $T/kjs.json \
	'[.[].events[]? | select(.kind == "oom-kill")][0].comm == "\\x1b]0;PWN\\x07"'

# --- A zone named with a UTF-8 C1 control and a byte that is not UTF-8
# (what the parsers let through: no C0 control is a zone name).
mkdir -p $T/zroot
cp -r $T/root/. $T/zroot/
for f in buddyinfo zoneinfo pagetypeinfo; do
	sed "s/Normal/N${C1}${RAW}l/" $T/root/$f > $T/zroot/$f
done
$PAGETOP snapshot --proc-root $T/zroot > $T/z.txt 2>&1
check_eq "zone name: snapshot has no raw control" "$(raw_controls $T/z.txt)" 0
check_match "zone name: snapshot shows it escaped" "$(cat $T/z.txt)" '^  0 +N\\u009b\\x9bl '
$PAGETOP snapshot --proc-root $T/zroot --json > $T/z.json 2>/dev/null
check "zone name: snapshot --json is valid UTF-8" valid_utf8 $T/z.json
check_jq "zone name: the C1 control as \\u009b, the bad byte as U+FFFD" $T/z.json \
	'[.buddyinfo[] | .zone] | index("N\u009b\ufffdl") != null'
$PAGETOP record --proc-root $T/zroot -d 0.1 --duration 0.5s -o $T/z.ptrec 2>/dev/null
$PAGETOP dump $T/z.ptrec --source buddyinfo > $T/zd.txt 2>&1
check_eq "zone name: dump has no raw control" "$(raw_controls $T/zd.txt)" 0
$PAGETOP report $T/z.ptrec > $T/zr.txt 2>&1
check_eq "zone name: report has no raw control" "$(raw_controls $T/zr.txt)" 0
check_match "zone name: report shows it escaped" "$(cat $T/zr.txt)" '^  Node 0, zone N\\u009b\\x9bl: '
$PAGETOP export $T/z.ptrec --format openmetrics > $T/z.om 2>&1
check "zone name: export's OpenMetrics is valid UTF-8" valid_utf8 $T/z.om
check_match "zone name: the label as U+FFFD for the bad byte" "$(cat $T/z.om)" \
	"zone=\"N${C1}$(printf '\357\277\275')l\""
$PAGETOP export $T/z.ptrec --format csv > $T/z.csv 2>&1
check_eq "zone name: export's CSV header has no raw control" "$(raw_controls $T/z.csv)" 0
if command -v promtool >/dev/null; then
	check "zone name: promtool takes export's OpenMetrics" \
		promtool tsdb create-blocks-from openmetrics $T/z.om $T/tsdb
	$PAGETOP serve --listen 127.0.0.1:0 --proc-root $T/zroot -d 0.5 2>$T/serve.err &
	spid=$!
	i=0
	while [ $i -lt 100 ] && ! grep -q 'serving http://' $T/serve.err; do sleep 0.1; i=$((i + 1)); done
	url=$(sed -n 's|.*\(http://[^ ]*/metrics\).*|\1|p' $T/serve.err)
	curl -s -o $T/m.txt "$url"
	check "zone name: promtool check metrics takes /metrics" sh -c "promtool check metrics < $T/m.txt 2>&1 | grep -v 'counter metrics should have' | { ! grep -q 'error'; }"
	check "zone name: /metrics is valid UTF-8" valid_utf8 $T/m.txt
	curl -s -o $T/m.om -H 'Accept: application/openmetrics-text' "$url"
	check "zone name: /metrics as OpenMetrics is valid UTF-8" valid_utf8 $T/m.om
	kill $spid 2>/dev/null
	wait $spid 2>/dev/null
else
	not_ok "promtool (Debian package prometheus) is installed" "run ./bootstrap"
fi

# --- An error line that quotes a file: its control characters escaped.
cp -r $T/root/. $T/eroot/ 2>/dev/null || { mkdir -p $T/eroot && cp -r $T/root/. $T/eroot/; }
printf 'Nod\033]0;PWN\007e 0, zone Normal 1 2 3\n' > $T/eroot/buddyinfo
$PAGETOP snapshot --proc-root $T/eroot > /dev/null 2>$T/e.err
check_eq "error line: no raw control" "$(raw_controls $T/e.err)" 0
check_match "error line: the file's text escaped" "$(cat $T/e.err)" \
	'buddyinfo: line 1: .*Nod\\x1b\]0;PWN\\x07e'

done_testing

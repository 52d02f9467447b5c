#!/bin/sh
# Loading BPF costs the dashboard no peak memory (issue 16): libbpf parses
# the kernel's BTF (megabytes) in a short-lived child, so `pagetop record`
# and the dashboard, probes and task iterator on, stay under 8 MB VmHWM
# (16.6 MB when they loaded in-process; 5.5 to 6.9 MB here, the shared
# libraries' pages moving it by a megabyte), and the probes still count.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
mkdir -p $T
skip_all() { ok "probes memory # SKIP $1"; done_testing; exit 0; }
[ "$(id -u)" = 0 ] || skip_all "not root"
[ -r /sys/kernel/btf/vmlinux ] || skip_all "kernel has no BTF"
# Sanitizers' shadow memory counts in VmHWM: the bound means nothing there.
[ "${SANITIZED:-no}" = yes ] && skip_all "VmHWM under a sanitizer"
LIMIT_KB=8192
hwm() { awk '/^VmHWM:/ { print $2 }' /proc/$1/status; }

$PAGETOP record -o $T/r.ptrec -d 0.5 --duration 4 > $T/rec.out 2> $T/rec.err &
pid=$!
sleep 2.5
k=$(hwm $pid)
wait $pid
check_eq "record exits 0" "$?" 0
if [ -n "$k" ] && [ "$k" -lt $LIMIT_KB ]; then
	ok "record, probes on: VmHWM $k kB < $LIMIT_KB kB"
else
	not_ok "record, probes on: VmHWM under $LIMIT_KB kB" "VmHWM ${k:-none} kB"
fi
$PAGETOP dump --at end --source probes $T/r.ptrec > $T/dump 2>&1
check_match "... the probes were on" "$(head -2 $T/dump)" "^probes: on"
# Each read waits for an RCU grace period in map_update_elem: a D sleep
# of pagetop's own, counted by the probes through the handed-over maps.
check_match "... and counted D sleeps" "$(grep '^  D sleeps' $T/dump)" \
	'^  D sleeps +[1-9]'

trap tmux_cleanup EXIT
tmux_start dash 100 40 "$PAGETOP -d 1"
wait_screen dash "." 5
sleep 3
sh=$(tm list-panes -t dash -F '#{pane_pid}')
dpid=$(pgrep -P "$sh" -x pagetop)
k=$(hwm ${dpid:-0} 2>/dev/null)
if [ -n "$k" ] && [ "$k" -lt $LIMIT_KB ]; then
	ok "dashboard, probes on: VmHWM $k kB < $LIMIT_KB kB"
else
	not_ok "dashboard, probes on: VmHWM under $LIMIT_KB kB" "VmHWM ${k:-none} kB (pid ${dpid:-none})"
fi
# The loaders exited and were reaped: no child is left.
check_eq "... no loader left behind" "$(pgrep -P ${dpid:-0} | wc -l)" 0
check_match "... probes on: descriptors of BPF links held" \
	"$(ls -l /proc/${dpid:-0}/fd 2>/dev/null | grep -c 'anon_inode:bpf_link')" '^[1-9]'
done_testing

#!/bin/sh
# The kernel probes' panels in tmux: on the bundled recording, which has
# no probes, each panel (Overview, Fragmentation, Reclaim, Tasks) says so
# in one whole line at 80x24 and 200x60, and the rest is drawn as before;
# the help describes the probes.
set -u
. "$TESTLIB"
export LANG=C.UTF-8
REC=$PAGETOP_DATADIR/sample-build-6.18.ptrec
NOPROBES="no kernel probes in this recording"

for size in 80x24 200x60; do
	c=${size%x*} r=${size#*x}
	tmux_start p$c $c $r "$PAGETOP replay $REC"
	wait_screen p$c "REPLAY" 5
	check_screen "$size Overview: the probes line says why" p$c " $NOPROBES( |\$)"
	check_screen "$size Overview: the rates still follow" p$c "kswapd scan"
	keys p$c 2
	check_screen "$size Fragmentation: fallbacks say why" p$c "^ $NOPROBES\$"
	check_screen "$size Fragmentation: the free lists as before" p$c "Free blocks|order"
	keys p$c 3
	check_screen "$size Reclaim: the probes panel says why" p$c "^  $NOPROBES\$"
	check_screen "$size Reclaim: its title" p$c "^Kernel probes  stalls, throttling"
	check_screen "$size Reclaim: the counters as before" p$c "^direct scan"
	keys p$c 4
	check_screen "$size Tasks: stalled tasks panel says why" p$c "^ $NOPROBES\$"
	check_screen "$size Tasks: the blocked tasks as before" p$c "no task is blocked"
	keys p$c '?'
	[ $r -lt 40 ] && keys p$c NPage NPage NPage
	check_screen "$size Help: the probes section" p$c "Kernel probes|time stalled in direct reclaim"
	w=$(screen_of p$c | wc -L)
	check_ok=$([ "$w" -le $c ] && echo yes || echo "$w columns")
	check_eq "$size: no line wider than the screen" "$check_ok" yes
	keys p$c q
done
done_testing

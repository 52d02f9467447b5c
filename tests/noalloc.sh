#!/bin/sh
# No allocation per tick: the dashboard run under valgrind for 5 and for 50
# samples must report nearly the same number of heap allocations; any
# allocation on the path sample -> history -> screen would add 45 or more.
# Allowed: fewer than one per two samples. libproc2 allocates a few times
# for a process the first time one of its tasks blocks (its command line
# and user), and other tests start such processes while this one runs.
# libproc2 is loaded when a blocked task's details are first wanted, which
# allocates a lot once: a task held in D for both runs makes both load it.
# The BPF loaders are forked children (source/bpf-child.c): their own
# heap summaries are left out of the log.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
if [ "${SANITIZED:-no}" = yes ]; then
	ok "allocations per tick # SKIP valgrind cannot run a sanitizer build"
	done_testing
	exit 0
fi
if ! command -v valgrind >/dev/null; then
	ok "allocations per tick # SKIP valgrind not installed"
	done_testing
	exit 0
fi
export LANG=C.UTF-8
$VFORK_HELPER 300 > $T/vfork.pid &
helper=$!
trap 'pkill -P $helper 2>/dev/null; kill $helper 2>/dev/null; tmux_cleanup' EXIT
allocs() {	# allocs SAMPLES TRY
	tmux_start vg$1-$2 80 24 "valgrind --child-silent-after-fork=yes --log-file=$T/vg$1-$2.log $PAGETOP -d 0.1 -n $1"
	wait_screen vg$1-$2 '^exit=' 120 || true
	sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' $T/vg$1-$2.log
}
# Twice at most: a task of another test that blocks anew during one run
# makes libproc2 allocate for it, which says nothing of the tick.
for try in 1 2; do
	a=$(allocs 5 $try)
	b=$(allocs 50 $try)
	a=$(echo "$a" | tr -d ,)
	b=$(echo "$b" | tr -d ,)
	[ -n "$a" ] && [ -n "$b" ] && [ $((b - a)) -lt 23 ] && break
done
check_match "valgrind counted the allocations" "$a" '^[0-9]+$'
if [ -n "$a" ] && [ -n "$b" ] && [ $((b - a)) -lt 23 ]; then
	ok "45 more samples add $((b - a)) allocations ($a in all for 5 samples)"
else
	not_ok "45 more samples add no allocations" "5 samples: $a, 50 samples: $b"
fi
done_testing

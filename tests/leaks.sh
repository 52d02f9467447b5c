#!/bin/sh
# No leaks and no memory errors: the dashboard under valgrind
# (--leak-check=full, definite and indirect leaks are errors) for a few
# ticks on a fixture proc root while recording, on the live /proc, and
# replaying the bundled recording through its screens. With
# LEAKS_D_TASK=1 the live run has a task held in D, so the task-detail
# worker and libproc2 run too; .ci/run does that on its own, because
# tasks.sh and noalloc.sh running alongside would count that task.
# tests/valgrind.supp holds the one thing that is not ours: libproc2's
# per-thread buffers.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
if [ "${SANITIZED:-no}" = yes ]; then
	ok "no leaks under valgrind # SKIP valgrind cannot run a sanitizer build"
	done_testing
	exit 0
fi
if ! command -v valgrind >/dev/null; then
	ok "no leaks under valgrind # SKIP valgrind not installed"
	done_testing
	exit 0
fi
export LANG=C.UTF-8
SUPP=$(dirname "$TESTLIB")/valgrind.supp
VG="valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect"
VG="$VG --error-exitcode=99 --num-callers=30 --suppressions=$SUPP"

# start NAME ARGS: the dashboard under valgrind in a pane of its own.
start() {
	tmux_start "$1" 80 24 "$VG --log-file=$T/$1.log $PAGETOP $2"
}
# finish NAME WHAT: waits for the end, then one point for a clean exit.
finish() {
	if ! wait_screen "$1" '^exit=' 180; then
		not_ok "$2: valgrind clean" "did not end: $(screen_of "$1")"
		return
	fi
	st=$(screen_of "$1" | sed -n 's/^exit=//p')
	if [ "$st" = 0 ] && grep -q 'ERROR SUMMARY: 0 errors' "$T/$1.log"; then
		ok "$2: no leak, no memory error"
	else
		not_ok "$2: no leak, no memory error" "exit $st; $(grep -E \
			'lost|ERROR SUMMARY|Invalid|uninitialised' "$T/$1.log" | head -20)"
	fi
}

start fixture "-n 5 -d 0.2 --proc-root $FIXTURES/roots/live-6.18-x86_64 --record $T/r.ptrec"
finish fixture "5 ticks on a fixture root, recording"
check "the recording it made reads" "$PAGETOP" dump "$T/r.ptrec" --info

if [ "${LEAKS_D_TASK:-0}" = 1 ]; then
	$VFORK_HELPER 30 >"$T/vfork.pid" &
	hpid=$!
	start live "-n 10 -d 0.2"
	finish live "10 ticks of the live /proc with a task in D"
	kill $hpid 2>/dev/null
	wait $hpid 2>/dev/null
else
	start live "-n 10 -d 0.2"
	finish live "10 ticks of the live /proc"
fi

start replay "replay $PAGETOP_DATADIR/sample-build-6.18.ptrec"
if wait_screen replay 'REPLAY' 60; then
	for k in Right Right ] 2 End 3 Home 6 1; do
		keys replay "$k"
		sleep 0.3
	done
	keys replay q
fi
finish replay "replaying the bundled recording through its screens"
done_testing

#!/bin/sh
# The BPF task iterator against the /proc scan, for real, as root:
# tests/taskiter-live scans /proc, then through the iterator, then /proc
# again, so the iterator's counts lie between the two /proc scans' but
# for the tasks that changed state in between (the churn, counted as
# the difference of the two /proc scans, plus a little for the time).
#  (a) state counts and totals within that churn
#  (b) a task held in D by vfork-helper: in both, same tid, tgid, comm
#  (c) its reads allocate nothing after open
#  (d) not root, no BTF: the /proc scan is used and says why
#  (e) through the iterator, the task in D's details (command line, user)
#      are read without libproc2, which is not loaded; with the /proc
#      scan (PAGETOP_PROBES_BTF to none) they come through libproc2
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
mkdir -p $T
skip_all() { ok "task iterator # SKIP $1"; done_testing; exit 0; }
[ "$(id -u)" = 0 ] || skip_all "not root"
$TASKITER_LIVE > $T/open.out
case "$(sed -n 's/^how=//p' $T/open.out)" in
"BPF task iterator"*) ;;
*) skip_all "$(sed -n 's/^how=//p' $T/open.out)" ;;
esac
cleanup() { [ -n "${vpid:-}" ] && kill $vpid 2>/dev/null; rm -rf $T; }
trap cleanup EXIT

$VFORK_HELPER 30 > $T/vfork.pid &
vpid=$!
i=0
while [ "$(cut -d' ' -f3 /proc/$vpid/stat 2>/dev/null)" != D ] && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
done
$TASKITER_LIVE > $T/a.out
val() { sed -n "s/^$2=//p" $1; }
abs() { [ $1 -lt 0 ] && echo $((-$1)) || echo $1; }

# (a) Every state, and the total, between the /proc scans within churn.
for k in total R S D T t X Z P I; do
	p0=$(val $T/a.out proc0.$k); it=$(val $T/a.out iter.$k); p1=$(val $T/a.out proc1.$k)
	lo=$p0; hi=$p1; [ $p1 -lt $p0 ] && { lo=$p1; hi=$p0; }
	# Churn: what moved between the /proc scans, and a few for the
	# reader's own threads and tasks woken in between.
	slack=$(( (hi - lo) + 3 + hi / 50 ))
	if [ $it -ge $((lo - slack)) ] && [ $it -le $((hi + slack)) ]; then
		ok "(a) $k: iterator $it, /proc $p0 then $p1"
	else
		not_ok "(a) $k: iterator within the /proc scans' churn" \
			"iterator $it, /proc $p0 then $p1 (slack $slack)"
	fi
done

# (a) The iterator's second tick (pid 1 through held descriptors where
# the iterator hides it) between the next two /proc scans, the same way.
p0=$(val $T/a.out proc1.total); it=$(val $T/a.out iter2.total); p1=$(val $T/a.out proc2.total)
lo=$p0; hi=$p1; [ $p1 -lt $p0 ] && { lo=$p1; hi=$p0; }
slack=$(( (hi - lo) + 3 + hi / 50 ))
check "(a) second tick: iterator $it, /proc $p0 then $p1" \
	test $it -ge $((lo - slack)) -a $it -le $((hi + slack))
check_eq "(a) second tick: the task in D" \
	"$(val $T/a.out iter2.d | grep "^$vpid ")" "$vpid $vpid vfork-helper"

# (b) The vfork parent in D, the same in both.
want="$vpid $vpid vfork-helper"
check_eq "(b) /proc scan lists the task in D" \
	"$(val $T/a.out proc0.d | grep "^$vpid ")" "$want"
check_eq "(b) the iterator lists it alike" \
	"$(val $T/a.out iter.d | grep "^$vpid ")" "$want"
val $T/a.out proc0.d | sort > $T/p0
val $T/a.out proc1.d | sort > $T/p1
val $T/a.out iter.d | sort > $T/it
# In D at both /proc scans: in D at the iterator's, between them.
# (Other tests' tasks may wake and block again between the scans: the
# vfork task, in D all along, must be there; others, all but a few.)
missed=$(comm -12 $T/p0 $T/p1 | comm -23 - $T/it)
check "(b) in D through both /proc scans: listed by the iterator (missed: ${missed:-none})" \
	sh -c "[ \$(printf '%s' \"$missed\" | grep -c .) -le 3 ] && ! printf '%s\n' \"$missed\" | grep -q '^$vpid '"
# Listed by the iterator: in D at one /proc scan at least, but for tasks
# of other tests that blocked only between the scans (a dd, a mv): a few.
extra=$(sort -u $T/p0 $T/p1 | comm -13 - $T/it | wc -l)
check "(b) listed by the iterator: in D at a /proc scan, but for $extra short waits" \
	test "$extra" -le 5

# (c) No allocation in the iterator's reads.
if grep -q '^read_allocs=' $T/a.out; then
	check_eq "(c) 20 reads allocate nothing" \
		"$($TASKITER_LIVE -r 20 | sed -n 's/^read_allocs=//p')" 0
else
	ok "(c) reads allocate nothing # SKIP allocations not counted (sanitizers)"
fi
check_eq "(c) the reads succeed" "$(val $T/a.out read_errors)" 0
if grep -q '^scan_allocs=' $T/a.out; then
	check_eq "(c) the scan's second tick allocates nothing" "$(val $T/a.out scan_allocs)" 0
else
	ok "(c) the scan's second tick # SKIP allocations not counted (sanitizers)"
fi

# (d) Not root, no BTF: /proc, and why.
setpriv --reuid=nobody --regid=nogroup --clear-groups $TASKITER_LIVE > $T/d1.out 2>&1
check_eq "(d) not root: /proc, and why" "$(val $T/d1.out how)" \
	"/proc (task iterator: needs root (CAP_BPF, CAP_PERFMON))"
check_match "(d) not root: the /proc scan counts tasks" "$(val $T/d1.out proc0.total)" '^[1-9][0-9]*$'
PAGETOP_PROBES_BTF=$T/none $TASKITER_LIVE > $T/d2.out
check_eq "(d) no BTF: /proc, and why" "$(val $T/d2.out how)" \
	"/proc (task iterator: kernel has no BTF ($T/none))"
PAGETOP_BPF_CHILD_HANG=300 $TASKITER_LIVE > $T/d3.out
check_eq "(d) a loader that never answers: /proc, and why" "$(val $T/d3.out how)" \
	"/proc (task iterator: loading BPF: the loader did not answer in 0.3 s)"
check_eq "(d) no BTF: the vfork task still in D" \
	"$(val $T/d2.out proc0.d | grep "^$vpid ")" "$want"

# (e) The details without libproc2 through the iterator, with it on /proc.
blocked() {	# blocked JSON: "cmdline user" of the vfork task
	python3 -c 'import json, sys
for b in json.load(open(sys.argv[1]))["tasks"]["blocked"]:
	if b["tgid"] == int(sys.argv[2]):
		print(b["cmdline"], b["user"])' $1 $vpid
}
user=$(id -un)
$PAGETOP snapshot --json > $T/e1.json 2>/dev/null
check_match "(e) iterator: the task in D's command line and user" \
	"$(blocked $T/e1.json)" "vfork-helper 30 $user\$"
PAGETOP_PROBES_BTF=$T/none $PAGETOP snapshot --json > $T/e2.json 2>/dev/null
check_eq "(e) /proc scan: the same through libproc2" "$(blocked $T/e2.json)" \
	"$(blocked $T/e1.json)"
$PAGETOP record -o $T/e.ptrec -d 0.2 --duration 30 2>/dev/null &
rpid=$!
i=0
while [ $i -lt 50 ] && ! grep -q bpf-map /proc/$rpid/maps 2>/dev/null; do
	sleep 0.1; i=$((i + 1))
done
sleep 1
check_eq "(e) record through the iterator: libproc2 not loaded" \
	"$(grep -c libproc2 /proc/$rpid/maps)" 0
kill -INT $rpid; wait $rpid
done_testing

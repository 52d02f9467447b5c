#!/bin/sh
# The kernel probes, for real, as root, against perf counting the same
# tracepoints over the same interval: tests/probes-live reads the probes,
# runs perf (which runs the workload), and reads again, so its interval
# holds perf's; the difference can only be events at the edges.
#  (a) memcg reclaim from a writer in a small memory cgroup
#  (b) migratetype fallbacks from negative dentries, against bpftrace
#  (d) compaction from compact_memory
#  (c) 20 vforks whose child sleeps 200 ms: 20 D episodes under that stack,
#      timed in task storage, then (ch) by the hash of tids
#  (e) not root, no BTF, tracepoints hidden: one clear line, the rest works
#  (f) no read allocates
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
mkdir -p $T
skip_all() { ok "kernel probes # SKIP $1"; done_testing; exit 0; }
[ "$(id -u)" = 0 ] || skip_all "not root"
[ -r /sys/kernel/btf/vmlinux ] || skip_all "kernel has no BTF"
command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
$PROBES_LIVE > $T/open.out
if grep -q '^state=unavailable' $T/open.out; then
	skip_all "$(sed -n 's/^why=//p' $T/open.out)"
fi
val() { sed -n "s/^$2=//p" $1; }
delta() { echo $(( $(val $1 t1.$2) - $(val $1 t0.$2) )); }
perfcount() { awk -F, -v e="$2" '$3 == e { print $1 }' $1; }

mounted=
cg=
cleanup() {
	[ -n "$cg" ] && rmdir $cg 2>/dev/null
	[ -n "$mounted" ] && umount /sys/kernel/tracing
	rm -rf $T
}
trap cleanup EXIT
if [ ! -d /sys/kernel/tracing/events/vmscan ]; then
	mount -t tracefs nodev /sys/kernel/tracing && mounted=1
fi

# (a), (d): one run, two tracepoints.
if [ -d /sys/fs/cgroup/memory ]; then
	cg=/sys/fs/cgroup/memory/pagetop-probes-$$
	mkdir $cg && echo 16M > $cg/memory.limit_in_bytes
	work="echo \$\$ > $cg/cgroup.procs && dd if=/dev/zero of=$T/file bs=1M count=150 conv=fsync 2>/dev/null; rm -f $T/file; echo 1 > /proc/sys/vm/compact_memory"
else
	work="echo 1 > /proc/sys/vm/compact_memory"
fi
$PROBES_LIVE -- perf stat -a -x, -o $T/perf.csv \
	-e vmscan:mm_vmscan_memcg_reclaim_end \
	-e compaction:mm_compaction_end -- sh -c "$work" > $T/a.out
memcg=$(delta $T/a.out memcg_count)
pmemcg=$(perfcount $T/perf.csv vmscan:mm_vmscan_memcg_reclaim_end)
if [ -n "$cg" ]; then
	check_match "(a) perf saw memcg reclaim" "$pmemcg" '^[1-9][0-9]*$'
	if [ "$memcg" -ge "${pmemcg:-0}" ] && [ $((memcg - ${pmemcg:-0})) -le 2 ]; then
		ok "(a) memcg reclaims: probes $memcg, perf $pmemcg"
	else
		not_ok "(a) memcg reclaims equal perf's" "probes $memcg, perf $pmemcg"
	fi
	check_eq "(a) each memcg reclaim in one latency bucket" \
		"$(delta $T/a.out memcg_buckets)" "$memcg"
	check_eq "(a) each memcg reclaim under one order" \
		"$(delta $T/a.out memcg_order_count)" "$memcg"
	check_match "(a) pages reclaimed" "$(delta $T/a.out memcg_reclaimed)" '^[1-9]'
	check_match "(a) the tick's longest memcg stall" "$(val $T/a.out acc.memcg_tick_max_ns)" '^[1-9]'
	check_match "(a) the tasks that stalled" "$(val $T/a.out acc.stall_tasks)" '^[1-9]'
else
	ok "(a) memcg reclaim # SKIP no cgroup v1 memory controller"
fi
# (b) Fallbacks, made on purpose: negative dentries (reclaimable slab)
# past what the Reclaimable free lists hold make reclaimable allocations
# fall back to other migratetypes. bpftrace counts them, not perf: perf
# stat counts 0 kmem:mm_page_alloc_extfrag on this kernel over a window in
# which bpftrace and the probes see dozens.
if command -v bpftrace >/dev/null && [ -x /usr/bin/python3 ]; then
	cat > $T/fill.py <<'PY'
import os, re, sys
def reclaimable():
    return int(re.search(r'SReclaimable:\s+(\d+)', open('/proc/meminfo').read()).group(1)) << 10
free = 0
for line in open('/proc/pagetypeinfo'):
    m = re.match(r'Node\s+\d+, zone\s+\S+, type\s+Reclaimable\s+(.*)', line)
    if m:
        free += sum(int(c) << o for o, c in enumerate(m.group(1).split()))
# Until reclaimable slab has grown 64 MB past the free Reclaimable pages
# (free dentries in the slab's pages are used first).
goal = reclaimable() + free * os.sysconf('SC_PAGE_SIZE') + (64 << 20)
os.makedirs(sys.argv[1])
i = 0
while i < 10000000 and (i % 50000 or reclaimable() < goal):
    try:
        os.stat('%s/n%d' % (sys.argv[1], i))
    except FileNotFoundError:
        pass
    i += 1
PY
	$PROBES_LIVE -- bpftrace -q -e 'tracepoint:kmem:mm_page_alloc_extfrag { @n = count(); }' \
		-c "/usr/bin/python3 $T/fill.py $T/negative" > $T/b.out 2>$T/b.err
	frag=$(delta $T/b.out fallbacks)
	bt=$(awk '/^@n: / { n = $2 } END { print n + 0 }' $T/b.out)
	check_match "(b) the fallbacks happened (bpftrace saw $bt)" "$bt" '^[1-9][0-9]*$'
	# The probes' interval holds bpftrace's: more only at its edges.
	if [ -n "$bt" ] && [ "$frag" -ge "$bt" ] && [ $((frag - bt)) -le $((bt / 10 + 3)) ]; then
		ok "(b) fallbacks: probes $frag, bpftrace $bt"
	else
		not_ok "(b) fallbacks equal bpftrace's" "probes $frag, bpftrace $bt"
	fi
	check_match "(b) they asked for Reclaimable pages" \
		"$(delta $T/b.out fallback_reclaimable)" '^[1-9]'
	check "(b) fragmenting and owner-changing fallbacks are fallbacks" \
		test "$(delta $T/b.out fallback_fragmenting)" -le "$frag" -a \
		"$(delta $T/b.out fallback_owner)" -le "$frag"
	rm -rf $T/negative
else
	ok "(b) fallbacks # SKIP needs bpftrace and python3"
fi
runs=$(delta $T/a.out compact_runs)
pruns=$(perfcount $T/perf.csv compaction:mm_compaction_end)
check_match "(d) perf saw compaction runs" "$pruns" '^[1-9][0-9]*$'
if [ "$runs" -ge "${pruns:-0}" ] && [ $((runs - ${pruns:-0})) -le 2 ]; then
	ok "(d) compaction runs: probes $runs, perf $pruns"
else
	not_ok "(d) compaction runs equal perf's" "probes $runs, perf $pruns"
fi

# (c) Episodes of 100 ms and more only; bash, which forks (dash vforks
# and would add its own episodes, long under load). Twice: D sleeps in
# task storage (Linux 5.12 and later), then by the hash of tids
# (PAGETOP_PROBES_TASK_STORAGE=0, as where tracing programs lack it).
kv=$(uname -r | awk -F. '{ print $1 * 100 + $2 }')
episodes() {
	$PROBES_LIVE -m 100000000 -s __do_sys_vfork -- bash -c \
		"for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do $VFORK_HELPER 0.2 >/dev/null; done"
}
# The probes see the whole machine: tests running beside this one end
# vfork waits of 100 ms and more of their own (under a sanitizer's load,
# five in one run; tasks.sh holds one for seconds). More than 3 such, or
# one over a second, is a run spoilt by others, not a measure of this
# one's: it is run again, at most twice, and said.
episodes_into() {	# FILE
	for try in 1 2 3; do
		episodes > $1
		c=$(val $1 acc.stack_count) m=$(val $1 acc.stack_max_ns)
		[ "${c:-0}" -le 23 ] && [ "${m:-0}" -le 1000000000 ] && return
		echo "# $c episodes under the vfork stack, the longest $m ns: others' too; run again"
	done
}
# The checks of one run: $1 the output, $2 its name in the lines.
episode_checks() {
	o=$1 n=$2
	# A test running beside this one may end a vfork wait of its own
	# (tasks.sh holds one for seconds) in the interval: one more, and as
	# long as it was.
	cnt=$(val $o acc.stack_count)
	tot=$(val $o acc.stack_total_ns)
	max=$(val $o acc.stack_max_ns)
	# A stack is named by the kernel as it comes (ksym.c, Linux 5.14); from
	# kallsyms, on an older kernel, at the next pass, half a second after
	# the first: the first one or two waits may end before, unnamed.
	# One may also end before the first read, or fall under the 100 ms floor.
	check "(c$n) 20 D episodes under the vfork stack ($cnt; 2 fewer, 3 more from other tests)" \
		test "$cnt" -ge 18 -a "$cnt" -le 23
	if [ "$cnt" = 20 ]; then
		check "(c$n) 20 x 200 ms +-20% ($tot ns)" test "$tot" -ge 3200000000 -a "$tot" -le 4800000000
	else
		check "(c$n) $cnt x 200 ms and more ($tot ns)" test "$tot" -ge $((cnt * 160000000))
	fi
	# An episode ends when the task runs again: on a loaded machine one may
	# wait on the run queue too, so only the longest's lower bound is tight.
	check "(c$n) the longest at least 160 ms ($max ns)" test "$max" -ge 160000000 -a "$max" -le 1000000000
	check_match "(c$n) the stack named, innermost first" "$(val $o acc.stack)" \
		'wait_for_completion.*kernel_clone,__do_sys_vfork'
	check "(c$n) the cumulative D histogram counted them ($(delta $o dsleep_count), $cnt under the stack)" \
		test "$(delta $o dsleep_count)" -ge "$cnt"
	check_eq "(c$n) none lost" "$(delta $o dsleep_lost)" 0
}
episodes_into $T/c.out
if [ "$kv" -ge 512 ]; then
	check_eq "(c) D sleeps in task storage" "$(val $T/c.out dsleep_path)" "task storage"
else
	check_eq "(c) D sleeps by tid hash before Linux 5.12" "$(val $T/c.out dsleep_path)" "tid hash"
fi
episode_checks $T/c.out ""
# The namer needs Linux 5.14 (syscall programs); before, kallsyms names.
if [ "$kv" -ge 514 ]; then
	check "(c) its addresses named by the kernel, with no pass over kallsyms ($(val $T/c.out names.kernel) named, $(val $T/c.out names.passes) passes)" \
		test "$(val $T/c.out names.kernel)" -gt 0 -a "$(val $T/c.out names.passes)" = 0
else
	ok "(c) named by the kernel # SKIP Linux $(uname -r) is older than 5.14"
fi
PAGETOP_PROBES_TASK_STORAGE=0 episodes_into $T/ch.out
check_eq "(ch) forced: D sleeps by tid hash" "$(val $T/ch.out dsleep_path)" "tid hash"
check_eq "(ch) ... said in why" "$(val $T/ch.out why)" \
	"D sleeps by tid hash: PAGETOP_PROBES_TASK_STORAGE=0"
episode_checks $T/ch.out h
check_eq "(ch) the same stack as in task storage" "$(val $T/ch.out acc.stack)" "$(val $T/c.out acc.stack)"
# The same from kallsyms (PAGETOP_KSYM=0): the same stack, by a pass.
PAGETOP_KSYM=0 $PROBES_LIVE -m 100000000 -s __do_sys_vfork -- bash -c \
	"for i in 1 2 3 4 5 6 7 8 9 10; do $VFORK_HELPER 0.2 >/dev/null; done" > $T/c0.out
check_eq "(c) from kallsyms instead: the same stack" "$(val $T/c0.out acc.stack)" "$(val $T/c.out acc.stack)"
check "(c) ... by passes over it, the kernel naming none" \
	test "$(val $T/c0.out names.passes)" -gt 0 -a "$(val $T/c0.out names.kernel)" = 0

# (e) Not root, no BTF, tracepoints missing.
setpriv --reuid=nobody --regid=nogroup --clear-groups $PROBES_LIVE > $T/e1.out 2>&1
check_eq "(e) not root: the reason" "$(val $T/e1.out why)" "needs root (CAP_BPF, CAP_PERFMON)"
check "(e) not root: pagetop samples anyway" \
	setpriv --reuid=nobody --regid=nogroup --clear-groups $PAGETOP snapshot
PAGETOP_PROBES_BTF=$T/none $PROBES_LIVE > $T/e2.out
check_eq "(e) no BTF: the reason" "$(val $T/e2.out why)" "kernel has no BTF ($T/none)"
PAGETOP_BPF_CHILD_HANG=300 $PROBES_LIVE > $T/e5.out
check_eq "(e) a loader that never answers: the reason" "$(val $T/e5.out why)" \
	"loading BPF: the loader did not answer in 0.3 s"
check_eq "(e) ... and no loader left behind (killed, not orphaned)" \
	"$(pgrep -fc "^$PROBES_LIVE\$")" 0
cp /sys/kernel/btf/vmlinux $T/btf
PAGETOP_PROBES_BTF=$T/btf $PROBES_LIVE > $T/e3.out
check_eq "(e) a BTF file given: loads" "$(val $T/e3.out state)" on
PAGETOP_PROBES_HIDE=vmscan:mm_vmscan_throttled,sched:sched_switch \
	$PROBES_LIVE -- sh -c "$VFORK_HELPER 0.05 >/dev/null; echo 1 > /proc/sys/vm/compact_memory" \
	> $T/e4.out
check_eq "(e) hidden: the line" "$(val $T/e4.out why)" \
	"missing: vmscan:mm_vmscan_throttled, sched:sched_switch"
check_eq "(e) hidden: missing bits (throttle, D sleeps)" "$(val $T/e4.out t1.missing)" 1056
check_eq "(e) hidden: the rest attached" "$(val $T/e4.out t1.attached)" 991
check_eq "(e) hidden: no D sleeps counted" "$(delta $T/e4.out dsleep_count)" 0
check_eq "(e) hidden: D sleeps timed no way" "$(val $T/e4.out dsleep_path)" none
check_match "(e) hidden: compaction still counted" "$(delta $T/e4.out compact_runs)" '^[1-9]'

# (f) Every read above: no allocation.
for f in a c ch e4; do
	if [ "$(val $T/$f.out read_allocs)" = unknown ] && [ "${SANITIZED:-no}" = yes ]; then
		ok "(f) reads allocate nothing ($f) # SKIP a sanitizer build counts nothing"
		continue
	fi
	check_eq "(f) reads allocate nothing ($f)" "$(val $T/$f.out read_allocs)" 0
done
done_testing

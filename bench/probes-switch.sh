#!/bin/sh
# What one context switch costs in BPF (#13): the D-sleep program runs on
# every sched_switch. For each tool, loaded and settled, a context-switch
# storm (stress-ng --switch 2) of SECONDS: the run time its BPF programs
# took (kernel.bpf_stats_enabled, on for the run and restored) over the
# switches the kernel made meanwhile (/proc/stat ctxt), and the storm's own
# rate (bogo ops/s) against the storm alone. The run time of a bpftrace
# `tracepoint:` program leaves out the perf record the kernel fills for it
# before it runs (tp_btf programs have none): the storm's rate is the
# fairer in-kernel cost of the two.
#   bench/probes-switch.sh [SECONDS] [TOOL...]
# TOOLs: none, probes (pagetop record with its probes: D sleeps in task
# storage where the kernel has it), probes_hash (the same by the tid hash,
# PAGETOP_PROBES_TASK_STORAGE=0), bpftrace (pagetop's D-sleep counting as
# a one-liner); all four by default. PAGETOP=path runs another build
# (an older one ignores PAGETOP_PROBES_TASK_STORAGE); BENCH_CPU below.
# Prints a table, and "key value" lines into $BENCH_RESULTS when set.
set -u
cd "$(dirname "$0")/.."
secs=${1:-10}
[ $# -gt 0 ] && shift
tools=${*:-none probes probes_hash bpftrace}
PT=${PAGETOP:-./pagetop}
# BENCH_CPU=N: the storm on CPU N alone (its switches all local, no
# wake-up crossing CPUs: the rate is then the switch's own cost).
pin=${BENCH_CPU:+taskset -c $BENCH_CPU}
[ "$(id -u)" = 0 ] || { echo "bench/probes-switch.sh: needs root (BPF)" >&2; exit 1; }
[ -x "$PT" ] || { echo "bench/probes-switch.sh: build first (or PAGETOP=path)" >&2; exit 1; }
for p in stress-ng bpftrace jq; do
	command -v $p >/dev/null ||
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $p >/dev/null 2>&1
done
work=$(mktemp -d /var/tmp/pagetop-switch.XXXXXX)
stats0=$(cat /proc/sys/kernel/bpf_stats_enabled)
cleanup() {
	kill $(jobs -p) 2>/dev/null
	wait 2>/dev/null
	echo "$stats0" > /proc/sys/kernel/bpf_stats_enabled
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
echo 1 > /proc/sys/kernel/bpf_stats_enabled
result() { [ -z "${BENCH_RESULTS:-}" ] || echo "$1 $2" >> "$BENCH_RESULTS"; }

# The sched_switch programs (pagetop's sched_switch or dsleep_switch,
# bpftrace's two sched_switch) loaded since the ids in $work/ids:
# "run_time_ns run_cnt" summed (the machine must be otherwise quiet: any
# such program loaded meanwhile counts).
bpf_ids() { bpftool prog show -j 2>/dev/null | jq -c '[.[].id]' > $work/ids; }
bpf_stats() {
	bpftool prog show -j 2>/dev/null | jq -r --slurpfile old $work/ids \
		'[.[] | select(.name == "sched_switch" or .name == "dsleep_switch") |
		 select(.id as $i | $old[0] | index($i) | not)] |
		 "\([.[].run_time_ns // 0] | add // 0) \([.[].run_cnt // 0] | add // 0)"'
}
ctxt() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }

printf '%-12s %12s %12s %12s %12s %10s\n' tool "switches/s" "BPF ns/sw" "BPF ms/s" "load ops/s" "/ alone"
alone=
for tool in $tools; do
	bpf_ids
	rm -f $work/r.ptrec
	case $tool in
	none) tpid= ;;
	probes) $PT record -d 1 --duration "$((secs + 8))s" -o $work/r.ptrec 2>$work/err & tpid=$! ;;
	probes_hash) PAGETOP_PROBES_TASK_STORAGE=0 $PT record -d 1 --duration "$((secs + 8))s" \
		-o $work/r.ptrec 2>$work/err & tpid=$! ;;
	bpftrace)
		timeout "$((secs + 8))s" bpftrace -e '
		tracepoint:sched:sched_switch /args->prev_state == 2/ { @d[args->prev_pid] = nsecs; }
		tracepoint:sched:sched_switch /@d[args->next_pid]/ { @dl[kstack(8)] = hist((nsecs - @d[args->next_pid]) / 1000); delete(@d[args->next_pid]); }' \
			>/dev/null 2>&1 & tpid=$! ;;
	*) echo "bench/probes-switch.sh: no tool $tool" >&2; continue ;;
	esac
	# Loaded and past its start-up (bpftrace's compile, pagetop's loaders).
	sleep 3
	set -- $(bpf_stats)
	b0=$1 n0=$2 c0=$(ctxt) t0=$(date +%s.%N)
	$pin stress-ng --switch 2 -t "${secs}s" --metrics-brief > $work/ops 2>&1
	set -- $(bpf_stats)
	b1=$1 n1=$2 c1=$(ctxt) t1=$(date +%s.%N)
	[ -n "$tpid" ] && { kill $tpid 2>/dev/null; wait $tpid 2>/dev/null; }
	case $tool in probes*) [ "$n1" -gt "$n0" ] ||
		echo "bench/probes-switch.sh: $tool ran no BPF: $(tail -1 $work/err)" >&2 ;;
	esac
	ops=$(awk '$2 == "metrc:" && $5 ~ /^[0-9]+$/ { s += $9 } END { printf "%.0f", s }' $work/ops)
	[ -z "$alone" ] && [ "$tool" = none ] && alone=$ops
	set -- $(awk -v b0="$b0" -v b1="$b1" -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" \
		-v o="$ops" -v a="${alone:-0}" 'BEGIN { d = t1 - t0; sw = c1 - c0
		ns = 0; if (sw > 0) ns = (b1 - b0) / sw
		r = "-"; if (a > 0) r = sprintf("%.2f", o / a)
		printf "%.0f %.1f %.1f %s %s\n", sw / d, ns, (b1 - b0) / 1e6 / d, o, r }')
	printf '%-12s %12s %12s %12s %12s %10s\n' $tool "$1" "$2" "$3" "$4" "$5"
	result probes_switch.$tool.switches "$1"
	result probes_switch.$tool.bpf_ns "$2"
	result probes_switch.$tool.bpf_ms "$3"
	result probes_switch.$tool.ops "$4"
	sleep 1
done

#!/bin/sh
# What the kernel probes cost (#13), side by side in one run under the same
# loads: pagetop recording at 1 s with its probes against --no-probes, and
# the tools that count the same things alone: bcc's drsnoop, compactsnoop
# and offcputime, and a bpftrace one-liner that keeps pagetop's reclaim
# and D-sleep histograms. For each: the tool's own CPU (user+sys, its
# children's too) per second in its steady state (after a quarter of the
# run), its start-up CPU apart (pagetop's BPF loaders, bcc's compiles),
# the CPU its BPF programs took in the traced tasks per second
# (kernel.bpf_stats_enabled, turned on for the run and restored), and the
# load's own rate (stress-ng bogo ops/s) against the load alone.
#
# Loads: stress-ng --switch (a context switch storm: sched_switch fires on
# every one), stress-ng --vm --vm-keep in a memory cgroup with a limit
# below its size (memcg reclaim all the time), and short compiles.
#   bench/probes.sh [SECONDS [LOAD...]]	(default 20 a run; 7 runs x 3 loads)
# LOADs: switch, memcg, compile (all three by default).
# Prints a table, and "key value" lines into $BENCH_RESULTS when set.
set -u
cd "$(dirname "$0")/.."
secs=${1:-${BENCH_SECONDS:-20}}
[ $# -gt 0 ] && shift
loads=${*:-switch memcg compile}
PT=${PAGETOP:-./pagetop}
[ "$(id -u)" = 0 ] || { echo "bench/probes.sh: needs root (BPF)" >&2; exit 1; }
[ -x "$PT" ] || { echo "bench/probes.sh: build first (or PAGETOP=path)" >&2; exit 1; }
$PT snapshot --json 2>/dev/null | jq -e '.probes.state == "on"' >/dev/null ||
	{ echo "bench/probes.sh: the probes do not load here: $($PT snapshot --json 2>/dev/null | jq -r .probes.why)" >&2; exit 1; }
for p in stress-ng bpftrace bpfcc-tools; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >/dev/null 2>&1
done
work=$(mktemp -d /var/tmp/pagetop-probes.XXXXXX)
stats0=$(cat /proc/sys/kernel/bpf_stats_enabled)
CG=/sys/fs/cgroup/memory/pagetop-bench-$$
cleanup() {
	kill $(jobs -p) 2>/dev/null
	wait 2>/dev/null
	echo "$stats0" > /proc/sys/kernel/bpf_stats_enabled
	[ -d $CG ] && { cat $CG/tasks 2>/dev/null | xargs -r kill -9 2>/dev/null; sleep 0.5; rmdir $CG 2>/dev/null; }
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
echo 1 > /proc/sys/kernel/bpf_stats_enabled
result() { [ -z "${BENCH_RESULTS:-}" ] || echo "$1 $2" >> "$BENCH_RESULTS"; }

# The run time so far (ns) of the BPF programs loaded since the ids in
# $work/ids were taken (Debian's bpftool does not name a program's
# holders, so the machine must be otherwise idle: any program loaded
# meanwhile counts).
bpf_ids() { bpftool prog show -j 2>/dev/null | jq -c '[.[].id]' > $work/ids; }
bpf_ns() {
	bpftool prog show -j 2>/dev/null | jq --slurpfile old $work/ids \
		'[.[] | select(.id as $i | $old[0] | index($i) | not) | .run_time_ns // 0] | add // 0'
}
# A process's CPU so far (clock ticks) with its children that ended.
cpu_ticks() { awk '{ print $14 + $15 + $16 + $17 }' /proc/$1/stat 2>/dev/null || echo 0; }
hz=$(getconf CLK_TCK)

# load_start NAME: starts the load in the background for the run, with its
# metrics in $work/ops.yaml; load_ops: its ops/s once it ended.
load_start() {
	rm -f $work/ops.yaml
	case $1 in
	switch)
		stress-ng --switch "$(nproc)" -t "${secs}s" --metrics-brief >$work/ops.yaml 2>&1 & ;;
	memcg)
		mkdir -p $CG
		echo $((256 << 20)) > $CG/memory.limit_in_bytes
		# 2 workers of 200 MB each in 256 MB, no swap: page cache and
		# their own pages reclaimed by the cgroup without an OOM (the
		# file pages go); a dd writer keeps page cache coming.
		sh -c "echo \$\$ > $CG/tasks; exec stress-ng --vm 2 --vm-bytes 96m --vm-keep \
			--hdd 1 --hdd-bytes 512m -t ${secs}s --metrics-brief" >$work/ops.yaml 2>&1 & ;;
	compile)
		sh -c "end=\$((\$(date +%s) + $secs)); n=0; while [ \$(date +%s) -lt \$end ]; do
			for f in src/model/*.c; do cc -std=c11 -D_GNU_SOURCE -O1 -Isrc -I. -c \$f -o $work/x.o 2>/dev/null; n=\$((n + 1)); done
		done; echo \"compiles \$n\" > $work/ops.yaml" & ;;
	esac
	load_pid=$!
}
load_ops() {
	case $1 in
	compile) awk -v s="$secs" '/compiles/ { printf "%.2f", $2 / s }' $work/ops.yaml ;;
	# "stress-ng: metrc: [pid] name bogo-ops real usr sys ops/s-real ops/s-cpu"
	*) awk '$2 == "metrc:" && $5 ~ /^[0-9]+$/ { s += $9 } END { printf "%.0f", s }' $work/ops.yaml 2>/dev/null ;;
	esac
}

# run TOOL LOAD: the tool for the load's length; prints "cpu_ms/s bpf_ms/s ops/s".
run() {
	tool=$1 ld=$2
	bpf_ids
	load_start "$ld"
	# A recording is never overwritten: a file of its own each run.
	rm -f $work/r.ptrec
	case $tool in
	none) tpid= ;;
	probes_off) $PT record --no-probes -d 1 --duration "${secs}s" -o $work/r.ptrec 2>$work/r.err & tpid=$! ;;
	probes_on) $PT record -d 1 --duration "${secs}s" -o $work/r.ptrec 2>$work/r.err & tpid=$! ;;
	bpftrace)
		# pagetop's reclaim latency and D-sleep counting, as a one-liner.
		timeout "${secs}s" bpftrace -e '
		tracepoint:vmscan:mm_vmscan_direct_reclaim_begin, tracepoint:vmscan:mm_vmscan_memcg_reclaim_begin { @s[tid] = nsecs; }
		tracepoint:vmscan:mm_vmscan_direct_reclaim_end, tracepoint:vmscan:mm_vmscan_memcg_reclaim_end /@s[tid]/ { @lat = hist((nsecs - @s[tid]) / 1000); delete(@s[tid]); }
		tracepoint:sched:sched_switch /args->prev_state == 2/ { @d[args->prev_pid] = nsecs; }
		tracepoint:sched:sched_switch /@d[args->next_pid]/ { @dl[kstack(8)] = hist((nsecs - @d[args->next_pid]) / 1000); delete(@d[args->next_pid]); }
		interval:s:1 { print(@lat); clear(@lat); }' >/dev/null 2>$work/t.err & tpid=$! ;;
	drsnoop) timeout "${secs}s" drsnoop-bpfcc >$work/t.err 2>&1 & tpid=$! ;;
	compactsnoop) timeout "${secs}s" compactsnoop-bpfcc >$work/t.err 2>&1 & tpid=$! ;;
	offcputime) timeout "${secs}s" offcputime-bpfcc -K "$secs" >/dev/null 2>$work/t.err & tpid=$! ;;
	esac
	# The tool's CPU (its children too), sampled every 0.1 s until it
	# ends: its steady state is what it took from the end of the warm-up
	# (a quarter of the run: pagetop's BPF loaders, bcc's compiles of its
	# programs) to its last sample, per second; what it took before is
	# its start-up, apart. Its programs' time likewise, from the warm-up
	# on, while they are loaded (every 0.5 s).
	c=0 b=0 cw= bw=0 tw=0 tl=0 st=0 t_end=0
	warm=$(( (secs + 3) / 4 ))
	t0=$(date +%s.%N)
	if [ -n "$tpid" ]; then
		i=0
		while kill -0 $tpid 2>/dev/null && [ $i -lt $((secs * 10 + 50)) ]; do
			pids="$tpid $(pgrep -P $tpid | tr '\n' ' ')"
			c3=0
			for k in $pids; do c2=$(cpu_ticks $k); c3=$((c3 + ${c2:-0})); done
			now=$(date +%s.%N)
			if [ $c3 -gt $c ] || [ -z "$cw" ]; then c=$c3; tl=$now; fi
			if [ $((i % 5)) = 0 ]; then
				b2=$(bpf_ns); [ "${b2:-0}" -gt $b ] && b=$b2
			fi
			if [ -z "$cw" ] && awk -v a="$now" -v z="$t0" -v w="$warm" 'BEGIN { exit !(a - z >= w) }'; then
				cw=$c bw=$b tw=$now
			fi
			sleep 0.1; i=$((i + 1))
		done
		wait $tpid 2>/dev/null
		st=$?
		t_end=$(date +%s.%N)
	fi
	cw=${cw:-$c}
	failed=no
	case $tool in
	probes_*)
		[ -s $work/r.ptrec ] || echo "bench/probes.sh: $tool under $ld recorded nothing: $(tail -1 $work/r.err)" >&2 ;;
	none) ;;
	# A peer that quit before three quarters of its time did not measure
	# (drsnoop says why and exits 0): bcc's tools compile their programs
	# against the kernel's headers, and drsnoop looks up vm_stat.
	*)
		if awk -v a="$t0" -v z="$t_end" -v s="$secs" 'BEGIN { exit !(z - a < s * 0.75) }'; then
			failed=yes
			echo "bench/probes.sh: $tool under $ld did not run (status $st): $(tail -1 $work/t.err)" >&2
		fi ;;
	esac
	wait $load_pid 2>/dev/null
	ops=$(load_ops "$ld")
	ops=${ops:-0}
	if [ $failed = yes ]; then
		echo "- - $ops -"
		return
	fi
	# cpu ms/s and bpf ms/s of the steady state, ops/s, start-up cpu ms
	awk -v c="$c" -v cw="$cw" -v tw="$tw" -v tl="$tl" -v hz="$hz" -v b="$b" -v bw="$bw" -v o="$ops" \
		'BEGIN { d = tl - tw; if (d <= 0) d = 1
		printf "%.2f %.2f %s %.0f\n", (c - cw) * 1000 / hz / d, (b - bw) / 1e6 / d, o, cw * 1000 / hz }'
}

printf '%-14s %-8s %12s %12s %14s %12s\n' tool load "CPU ms/s" "BPF ms/s" "load ops/s" "start-up ms"
for ld in $loads; do
	for tool in none probes_off probes_on bpftrace drsnoop compactsnoop offcputime; do
		set -- $(run $tool $ld)
		printf '%-14s %-8s %12s %12s %14s %12s\n' $tool $ld "$1" "$2" "$3" "$4"
		result probes.$ld.$tool.cpu "$1"
		result probes.$ld.$tool.bpf "$2"
		result probes.$ld.$tool.ops "$3"
		result probes.$ld.$tool.startup "$4"
		eval "cpu_${tool}_$ld=$1 bpf_${tool}_$ld=$2 ops_${tool}_$ld=$3"
		sleep 1
	done
done

# The ratios the issue asks for: pagetop with probes against without (its
# own CPU, then with its programs' time), each peer's CPU and programs'
# time against pagetop's with probes, and each load's rate against alone.
echo
printf '%-46s' "ratios"; printf ' %8s' $loads; echo
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "-" && b > 0) printf "%8.2f", a / b; else printf "%8s", "-" }'; }
for ld in $loads; do
	for t in none probes_off probes_on bpftrace drsnoop compactsnoop offcputime; do
		eval "c=\$cpu_${t}_$ld b=\$bpf_${t}_$ld"
		eval "all_${t}_$ld=$(awk -v c="$c" -v b="$b" 'BEGIN { print c == "-" ? "-" : c + b }')"
	done
done
line() {
	label=$1 num=$2 den=$3
	printf '%-46s' "$label"
	for ld in $loads; do
		eval "a=\$${num}_$ld b=\$${den}_$ld"
		printf ' %s' "$(ratio "$a" "$b")"
	done
	echo
}
line "pagetop CPU: probes on / off" cpu_probes_on cpu_probes_off
line "pagetop CPU + its BPF: probes on / off" all_probes_on all_probes_off
for t in bpftrace drsnoop compactsnoop offcputime; do
	line "$t CPU + its BPF / pagetop's with probes" all_$t all_probes_on
done
for t in probes_off probes_on bpftrace drsnoop compactsnoop offcputime; do
	line "load ops/s with $t / alone" ops_$t ops_none
done
for ld in $loads; do
	eval "result probes.$ld.ratio_on_off \$(ratio \$all_probes_on_$ld \$all_probes_off_$ld)"
done

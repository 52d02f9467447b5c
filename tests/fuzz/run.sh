#!/bin/bash
# Runs the fuzzers built by tests/fuzz/fuzz.mk: run.sh BUILDDIR TARGET.c...
# Each runs for FUZZ_SECONDS (default 60) from a fresh copy of its seeds
# (the fuzzer writes them: PAGETOP_FUZZ_SEEDS), FUZZ_JOBS at a time
# (default: one per CPU); FUZZ_ONLY="a b" runs only those. Prints one
# "ok"/"not ok" line per fuzzer (also in BUILDDIR/fuzz.log) and exits 1 if
# any found something: its input is kept under BUILDDIR/NAME/.
set -u
build=$1
shift
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $seconds$jobs in *[!0-9]*)
	echo "run.sh: FUZZ_SECONDS and FUZZ_JOBS are whole numbers" >&2
	exit 2
esac
[ "$jobs" -ge 1 ] || jobs=1

names=
for src in "$@"; do
	n=$(basename "$src" .c)
	if [ -n "${FUZZ_ONLY:-}" ] && ! printf ' %s ' $FUZZ_ONLY | grep -q " $n "; then
		continue
	fi
	names="$names $n"
done
if [ -z "$names" ]; then
	echo "run.sh: no fuzz target named: ${FUZZ_ONLY:-}" >&2
	exit 2
fi

# One fuzzer: writes BUILDDIR/NAME/result, one line.
fuzz_one() {
	local n=$1 dir=$build/$1 bin=$build/fuzz-$1 why runs
	rm -rf "$dir"
	mkdir -p "$dir/corpus"
	if ! PAGETOP_FUZZ_SEEDS=$dir/corpus "$bin" >"$dir/seeds.log" 2>&1; then
		echo "not ok - $n: could not write its seeds: $(tail -1 "$dir/seeds.log")" >"$dir/result"
		return
	fi
	# Leaks are checked at each input's end; an input slower than 20 s or
	# a process above 1 GB is a finding too.
	if "$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=1024 \
		-print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" >"$dir/fuzz.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/fuzz.log")
		echo "ok - $n: ${seconds} s, ${runs:-?} inputs, no finding" >"$dir/result"
	else
		why=$(grep -m1 -E '^fuzz: invariant|ERROR: |^==[0-9]+==.*(ERROR|WARNING)|runtime error' \
			"$dir/fuzz.log")
		input=$(ls "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* 2>/dev/null | head -1)
		echo "not ok - $n: ${why:-see $dir/fuzz.log}; input: ${input:-none kept}; again: $bin $input" \
			>"$dir/result"
	fi
}

echo "fuzz: $(echo $names | wc -w) fuzzers, ${seconds} s each, $jobs at a time"
running=0
for n in $names; do
	if [ ! -x "$build/fuzz-$n" ]; then
		mkdir -p "$build/$n"
		echo "not ok - $n: $build/fuzz-$n was not built" >"$build/$n/result"
		continue
	fi
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	fuzz_one "$n" &
	running=$((running + 1))
done
wait

failed=0
for n in $names; do
	cat "$build/$n/result" 2>/dev/null || echo "not ok - $n: no result"
done | tee "$build/fuzz.log"
grep -q '^not ok' "$build/fuzz.log" && failed=1
if [ $failed = 1 ]; then
	echo "fuzz: add each input above to tests/fuzz/regress/NAME/ once fixed, so make check replays it"
fi
exit $failed

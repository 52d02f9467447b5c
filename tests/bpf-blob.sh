#!/bin/sh
# The BPF objects are sections of the binary that no segment loads
# (src/source/bpf-blob.h): each is there, byte for byte the object the
# build made, outside every PT_LOAD, and the skeletons embed none of it;
# the loader child reads it and the probes load (as root), from a
# stripped binary too; a binary without it says so on the probes' line
# and records the rest.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
mkdir -p $T
B=$(dirname "$PAGETOP")
skip_all() { ok "BPF objects # SKIP $1"; done_testing; exit 0; }
grep -q '^#define HAVE_PROBES 1' "$B/config.h" || skip_all "built without the probes"
command -v readelf >/dev/null || skip_all "no readelf (Debian package binutils)"

readelf -SW "$PAGETOP" > $T/sections
readelf -lW "$PAGETOP" | awk '$1 == "LOAD" { print $2, $5 }' > $T/loads
check_match "the binary has loaded segments" "$(cat $T/loads)" '^0x'
for name in probes taskiter ksym; do
	line=$(sed -n "s/^ *\[ *[0-9]*\] \.pagetop\.bpf\.$name  *//p" $T/sections)
	check_match "$name: a section of its own" "$line" '^PROGBITS +0+ [0-9a-f]+ [0-9a-f]+ '
	# Fields: type, address, offset, size, entsize, then flags (none), link.
	set -- $line
	off=$((0x$3)) size=$((0x$4))
	check_eq "$name: not allocated (no flags)" "$6" 0
	inside=0
	while read o s; do
		[ $off -ge $((o + s)) ] || [ $((off + size)) -le $((o)) ] || inside=$((inside + 1))
	done < $T/loads
	check_eq "$name: in no loaded segment" "$inside" 0
	tail -c +$((off + 1)) "$PAGETOP" | head -c $size > $T/$name.o
	check_eq "$name: the build's object, byte for byte" \
		"$(cmp -s $T/$name.o "$B/src/source/$name.bpf.o" && echo same)" same
	check_eq "$name: its skeleton embeds no object" \
		"$(grep -c '\\x7f\\x45\\x4c\\x46' "$B/src/source/$name.skel.h")" 0
	check_match "$name: its skeleton reads the section" \
		"$(grep "_bpf__elf_bytes(size_t \*sz) {" "$B/src/source/$name.skel.h")" "return bpf_blob\(\"$name\", sz\)"
done

[ "$(id -u)" = 0 ] || { ok "loading # SKIP not root"; done_testing; exit 0; }
[ -r /sys/kernel/btf/vmlinux ] || { ok "loading # SKIP kernel has no BTF"; done_testing; exit 0; }
R="--proc-root $FIXTURES/roots/live-6.18-x86_64"
# probes_of BINARY NAME: its probes' line after a short recording.
probes_of() {
	"$1" record -o $T/$2.ptrec -d 0.2 --duration 1 > $T/$2.out 2>&1
	echo "exit=$?" >> $T/$2.out
	"$PAGETOP" dump $T/$2.ptrec --source probes 2>&1 | sed -n 's/^probes: //p' | head -1
}
check_eq "the probes load from the binary's section" "$(probes_of "$PAGETOP" plain)" on
strip -o $T/stripped "$PAGETOP"
check_eq "and from a stripped binary" "$(probes_of $T/stripped stripped)" on
objcopy --remove-section .pagetop.bpf.probes "$PAGETOP" $T/without
check_eq "without the section: the probes say why" "$(probes_of $T/without without)" \
	"unavailable: the BPF object probes: /proc/self/exe: not in this binary"
check_match "without the section: the rest recorded" "$(cat $T/without.out)" 'recorded [1-9][0-9]* of [0-9]+ samples'
check_match "without the section: exit 0" "$(cat $T/without.out)" 'exit=0'
done_testing

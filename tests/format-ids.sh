#!/bin/sh
# The ids of the recording format: pagetop-recording(5), which specifies
# it, and the code that writes it name the same sample field ids
# (SAMPLE ENCODING, enum codec_field in src/ptrec/codec-int.h, FRAME for
# F_FRAME), frame types (FRAMES, enum frame_type) and header field ids
# (HEADER, enum header_field in src/ptrec/recfile-common.c).
set -u
. "$TESTLIB"

man=$TOP_SRCDIR/man/pagetop-recording.5
hdr=$TOP_SRCDIR/src/ptrec/codec-int.h

# The table's rows: " 10<TAB>BUDDYINFO<TAB>...", in that section only.
man_ids() {
	awk '/^\.SH / { in_se = ($0 == ".SH SAMPLE ENCODING") }
	    in_se && /^ *[0-9]+\t[A-Z][A-Z0-9_]*\t/ {
		sub(/^ */, ""); split($0, f, "\t"); print f[1], f[2]
	    }' "$1" | sort -n
}
# "	F_BUDDYINFO = 10," in enum codec_field.
hdr_ids() {
	awk '/^enum codec_field \{/ { in_e = 1; next }
	    in_e && /^\};/ { in_e = 0 }
	    in_e && /^\tF_[A-Z0-9_]+ = [0-9]+,/ {
		name = $1; sub(/^F_/, "", name); id = $3; sub(/,$/, "", id)
		print id, name
	    }' "$1" | sort -n
}

m=$(man_ids "$man")
h=$(hdr_ids "$hdr")
nm=$(printf '%s\n' "$m" | grep -c .)
nh=$(printf '%s\n' "$h" | grep -c .)
check_match "the man page lists the field ids ($nm)" "$nm" '^[1-9][0-9]+$'
check_match "codec-int.h's enum codec_field has them ($nh)" "$nh" '^[1-9][0-9]+$'
dup=$(printf '%s\n' "$m" | awk '{ print $1 }' | uniq -d | tr '\n' ' ')
check_eq "the man page gives each id once" "$dup" ""
dup=$(printf '%s\n' "$h" | awk '{ print $1 }' | uniq -d | tr '\n' ' ')
check_eq "codec-int.h gives each id once" "$dup" ""

printf '%s\n' "$m" | sort >"$TMPDIR_TEST/man"
printf '%s\n' "$h" | sort >"$TMPDIR_TEST/hdr"
only_man=$(comm -23 "$TMPDIR_TEST/man" "$TMPDIR_TEST/hdr" | tr '\n' ',')
only_hdr=$(comm -13 "$TMPDIR_TEST/man" "$TMPDIR_TEST/hdr" | tr '\n' ',')
check_eq "every id of the man page is in codec-int.h, same number and name" \
    "$only_man" ""
check_eq "every id of codec-int.h is in the man page, same number and name" \
    "$only_hdr" ""

# The frame types: FRAMES lists ".B 2 CHUNK", enum frame_type FT_CHUNK = 2.
man_frames=$(awk '/^\.SH / { in_f = ($0 == ".SH FRAMES") }
    in_f && /^\.B [0-9]+ [A-Z]+$/ { print $2, $3 }' "$man" | sort -n | tr '\n' ',')
code_frames=$(awk '/^enum frame_type \{/ { in_e = 1; next } in_e && /^\};/ { in_e = 0 }
    in_e && /^\tFT_[A-Z]+ = [0-9]+/ { n = $1; sub(/^FT_/, "", n); id = $3; sub(/,$/, "", id)
	print id, n }' "$TOP_SRCDIR/src/ptrec/recfile-int.h" | sort -n | tr '\n' ',')
check_match "the man page lists the frame types" "$man_frames" '^1 HEADER,2 CHUNK,'
check_eq "... the same as enum frame_type" "$man_frames" "$code_frames"

# The header's field ids: HEADER's table " 4  page size in bytes" and enum
# header_field (names differ: the ids and their count are compared).
man_hf=$(awk '/^\.SS / { in_h = ($0 == ".SS HEADER") } /^\.S[SH] / && $0 != ".SS HEADER" { in_h = 0 }
    in_h && /^ ?[0-9]+  [^ ]/ { print $1 + 0 }' "$man" | sort -n | tr '\n' ',')
code_hf=$(awk '/^enum header_field \{/ { in_e = 1; next } in_e && /^\};/ { in_e = 0 }
    in_e && /^\tHF_[A-Z_]+ = [0-9]+/ { id = $3; sub(/,$/, "", id); print id + 0 }' \
    "$TOP_SRCDIR/src/ptrec/recfile-common.c" | sort -n | tr '\n' ',')
check_match "the man page lists the header's field ids" "$man_hf" '^1,2,3,'
check_eq "... the same as enum header_field" "$man_hf" "$code_hf"
done_testing

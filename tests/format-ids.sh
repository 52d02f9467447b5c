#!/bin/sh
# The sample's field ids: pagetop-recording(5) SAMPLE ENCODING, which
# specifies the format, and enum codec_field in src/ptrec/codec-int.h,
# which writes it, name the same ids (id -> name, FRAME for F_FRAME).
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
done_testing

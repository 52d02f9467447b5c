#!/bin/sh
# What each thread of pagetop costs before it runs a line: its own copy of
# the binary's thread-local storage, zeroed as the thread starts, whether
# the thread ever uses it. Kept to a few pointers (issue 16): the codec's
# fallback rules there were 8.8 KB resident in every thread, in each of
# record's four.
set -u
. "$TESTLIB"
command -v readelf >/dev/null || { ok "TLS # SKIP no readelf (Debian package binutils)"; done_testing; exit 0; }
LIMIT=256
hex=$(readelf -lW "$PAGETOP" | awk '$1 == "TLS" { print $6 }')
size=$((${hex:-0}))
if [ "$size" -le $LIMIT ]; then
	ok "the binary's TLS is $size bytes, at most $LIMIT"
else
	not_ok "the binary's TLS at most $LIMIT bytes" "$size bytes: $(readelf -sW "$PAGETOP" |
		awk '$4 == "TLS" && $3 > 16 { printf "%s %d, ", $8, $3 }')"
fi
done_testing

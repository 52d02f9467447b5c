#!/bin/sh
# The manual pages format without a warning: groff -man -ww (every warning),
# and mandoc -T lint where mandoc is installed (./bootstrap installs it),
# which also reports style (input lines past 80 bytes, ...). And every
# command of pagetop(1)'s SYNOPSIS has its own .TP entry under COMMANDS, so
# one entry cannot run into the paragraph before it.
set -u
. "$TESTLIB"
top=${TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}

# man_commands FILE SECTION: the words after ".B pagetop " in SYNOPSIS, or
# the ".B WORD" lines right after a ".TP" in COMMANDS.
man_synopsis() {
	awk '/^\.SH / { in_s = ($0 == ".SH SYNOPSIS") }
	    in_s && /^\.B pagetop [a-z]/ { print $3 }' "$1" | sort -u
}
man_entries() {
	awk '/^\.SH / { in_c = ($0 == ".SH COMMANDS") }
	    in_c && prev == ".TP" && /^\.B [a-z]/ { print $2 }
	    { prev = $0 }' "$1" | sort -u
}

# The checkers, tried first on a page with a warning in it, so a checker
# that passes everything fails here.
bad=$TMPDIR_TEST/bad.1
printf '.TH BAD 1\n.SH NAME\nbad \\- bad\n.SH DESCRIPTION\n.BX bad\n\\*[nosuch]\n' > "$bad"
out=$(groff -man -ww -z "$bad" 2>&1)
check_match "groff -ww reports a page with an unknown macro" "$out" .
if command -v mandoc >/dev/null; then
	out=$(mandoc -T lint "$bad" 2>&1)
	check_match "mandoc -T lint reports it too" "$out" .
fi
printf '.SH SYNOPSIS\n.B pagetop a\n.br\n.B pagetop b\n.SH COMMANDS\n.TP\n.B a\nx\n.B b\ny\n' > "$bad"
check_eq "a command without its .TP is found" "$(man_synopsis "$bad" | tr '\n' ' ')" "a b "
check_eq "... and not taken for an entry" "$(man_entries "$bad" | tr '\n' ' ')" "a "

for page in "$top"/man/*.[1-8]; do
	name=${page##*/}
	out=$(groff -man -ww -z "$page" 2>&1)
	check_eq "$name: groff -man -ww -z gives no warning" "$out" ""
	if command -v mandoc >/dev/null; then
		out=$(mandoc -T lint "$page" 2>&1)
		check_eq "$name: mandoc -T lint gives no message" "$out" ""
	else
		ok "$name: mandoc -T lint # SKIP mandoc is not installed"
	fi
done

p=$top/man/pagetop.1
want=$(man_synopsis "$p")
got=$(man_entries "$p")
check_match "pagetop.1: SYNOPSIS names the commands" "$want" '^export$'
check_eq "pagetop.1: every command of the SYNOPSIS has a .TP entry under COMMANDS" \
	"$(printf '%s\n' "$want" | while read -r c; do
		printf '%s\n' "$got" | grep -qx "$c" || echo "$c"; done)" ""

done_testing

# TAP helpers for the shell tests; sourced after set -u.
# Every check is one test point; the plan is printed by done_testing.

tap_n=0
TMPDIR_TEST=$(mktemp -d /tmp/pagetop-test.XXXXXX)
trap 'rm -rf "$TMPDIR_TEST"' EXIT

ok() {	# ok DESCRIPTION: passes
	tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"
}
not_ok() {	# not_ok DESCRIPTION [DETAIL]
	tap_n=$((tap_n + 1)); echo "not ok $tap_n - $1"
	[ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/#   /'
	return 0
}
check() {	# check DESCRIPTION COMMAND...: passes when the command exits 0
	d=$1; shift
	if out=$("$@" 2>&1); then ok "$d"; else not_ok "$d" "$out"; fi
}
check_fails() {	# check_fails DESCRIPTION COMMAND...: passes when the command exits non-zero
	d=$1; shift
	if out=$("$@" 2>&1); then not_ok "$d" "exited 0: $out"; else ok "$d"; fi
}
check_jq() {	# check_jq DESCRIPTION FILE EXPR: passes when jq -e EXPR is true
	if out=$(jq -e "$3" "$2" 2>&1); then ok "$1"; else not_ok "$1" "jq '$3' gave: $out"; fi
}
check_eq() {	# check_eq DESCRIPTION GOT WANT
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "got '$2', want '$3'"; fi
}
check_match() {	# check_match DESCRIPTION TEXT REGEX (grep -E)
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then ok "$1"; else not_ok "$1" "no match for /$3/ in: $2"; fi
}
done_testing() {
	echo "1..$tap_n"
}

# make_root DIR NAME=FIXTURE...: a proc root made of captured files.
make_root() {
	r=$1; shift
	mkdir -p "$r/pressure"
	for pair in "$@"; do
		cp "$FIXTURES/${pair#*=}" "$r/${pair%%=*}"
	done
}

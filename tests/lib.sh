# TAP helpers for the shell tests; sourced after set -u.
# Every check is one test point; the plan is printed by done_testing.

tap_n=0
TMPDIR_TEST=$(mktemp -d /tmp/pagetop-test.XXXXXX)
trap 'rm -rf "$TMPDIR_TEST"' EXIT
# Killed (tests/run-test's time limit, ^C): still run the EXIT trap's cleanup.
trap 'exit 1' INT TERM HUP

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

# The dashboard in tmux, on a server of our own so nothing else is touched.
TMUX_SOCK=pagetop-test-$$
tm() { tmux -L "$TMUX_SOCK" "$@"; }
# descendants PID...: every process under them, children first found.
descendants() {
	for d in "$@"; do
		for c in $(pgrep -P "$d" 2>/dev/null); do
			echo "$c"
			descendants "$c"
		done
	done
}
# What still runs in the panes is asked to quit (SIGTERM, pagetop's clean
# quit) and waited for, at most 10 s, while its terminal is still there;
# then the server goes, and anything left is killed. A hangup in the
# middle of a sanitizer build's leak check at exit left it spinning, a CPU
# each, for the rest of the run.
alive() {
	for a in "$@"; do
		kill -0 "$a" 2>/dev/null && echo "$a"
	done
}
tmux_cleanup() {
	left=$(descendants $(tm list-panes -a -F '#{pane_pid}' 2>/dev/null))
	if [ -n "$left" ]; then
		kill -TERM $left 2>/dev/null
		i=0
		while [ $i -lt 100 ] && [ -n "$(alive $left)" ]; do
			sleep 0.1
			i=$((i + 1))
		done
		left=$(alive $left)
	fi
	tm kill-server 2>/dev/null
	[ -z "$left" ] || kill -KILL $left 2>/dev/null
	rm -rf "$TMPDIR_TEST"
}
trap tmux_cleanup EXIT
# tmux_start NAME COLS ROWS COMMAND: runs COMMAND (a shell string) in a new
# session; the pane stays after the command exits so its last screen and
# "exit=N" can be read ("exit=N" at the start of a line of its own, wherever
# a program killed mid-screen left the cursor and its terminal modes).
tmux_start() {
	tm new-session -d -s "$1" -x "$2" -y "$3" "$4; s=\$?; printf '\\r\\nexit=%s\\r\\n' \$s; sleep 600" &&
		tm set-option -t "$1" remain-on-exit on >/dev/null
}
screen_of() { tm capture-pane -p -t "$1"; }
keys() { n=$1; shift; tm send-keys -t "$n" "$@"; }
# wait_screen NAME REGEX [SECONDS]: until the screen matches (grep -E).
wait_screen() {
	i=0
	while [ $i -lt $((${3:-5} * 10)) ]; do
		screen_of "$1" | grep -Eq -- "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# check_screen DESCRIPTION NAME REGEX [SECONDS]
check_screen() {
	if wait_screen "$2" "$3" "${4:-5}"; then ok "$1"; else not_ok "$1" "no /$3/ on screen:
$(screen_of "$2")"; fi
}
# check_no_screen DESCRIPTION NAME REGEX: the screen does not match now.
check_no_screen() {
	if screen_of "$2" | grep -Eq -- "$3"; then not_ok "$1" "/$3/ on screen:
$(screen_of "$2")"; else ok "$1"; fi
}

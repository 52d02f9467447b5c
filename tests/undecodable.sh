#!/bin/sh
# A recording whose frames are all whole but whose samples do not decode
# (tests/mkrec): dump and export say why in one line rather than print
# nothing, and dump, export and report end with the same status for the
# same file: 0 when samples asked for were read (the rest a warning), 1
# when none could be.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
export PAGETOP_DATADIR

$MKREC $T/bad.ptrec 0 5
$MKREC $T/mix.ptrec 3 3
for f in bad mix; do
	want=1
	[ $f = mix ] && want=0
	for c in "dump" "dump --json" "dump --source events" "export --format csv" \
		"export --format json" "export --format openmetrics" "report"; do
		cmd=${c%% *}
		opts=
		[ "$cmd" != "$c" ] && opts=${c#* }
		# shellcheck disable=SC2086
		$PAGETOP $cmd $T/$f.ptrec $opts > $T/out 2> $T/err
		check_eq "$f: $c: exit $want" "$?" $want
		check_eq "$f: $c: one line on stderr" "$(wc -l < $T/err)" 1
		first=0
		[ $f = mix ] && first=3
		# The text walks back from the end to the last moment it can show.
		case $c in "dump"|"dump --source events") first=4; [ $f = mix ] && first=5 ;; esac
		check_match "$f: $c: ... naming the file and the sample" "$(cat $T/err)" \
			"^pagetop: $T/$f.ptrec: sample $first: .+ \\(and [0-9]+ more samples that cannot be read\\)\$"
	done
done
# The text of a moment that cannot be read: exit 1 and why.
$PAGETOP dump $T/mix.ptrec --at end > $T/out 2> $T/err
check_eq "mix: dump --at end (a sample that does not decode): exit 1" "$?" 1
check_match "... with why" "$(cat $T/err)" "^pagetop: $T/mix.ptrec: sample 5: "
$PAGETOP dump $T/mix.ptrec --at start > $T/out 2> $T/err
check_eq "mix: dump --at start (one that does): exit 0" "$?" 0
check_eq "... and nothing on stderr" "$(cat $T/err)" ""
# Without --at, the text is of the last moment that can be read.
check_match "mix: dump shows the last sample that decodes" "$($PAGETOP dump $T/mix.ptrec --source buddyinfo 2>/dev/null)" \
	'^==> /proc/buddyinfo at '
done_testing

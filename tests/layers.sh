#!/bin/sh
# The layer rule (HACKING.md): a file under src/ or views/ includes only from
# its own folder or from folders to its left in
#   util < parse < model < ptrec < source | output < views < dashboard < cmd < main
# source/ and output/ never include each other, and views/ and dashboard/
# never include source/ (they see a feed, never a reader). Every include of a
# project header names its folder. The checker is tried first on a tree with
# one backward include, so a checker that passes everything fails here.
set -u
. "$TESTLIB"
top=${TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}

rank() {
	case $1 in
	util) echo 0 ;; parse) echo 1 ;; model) echo 2 ;; ptrec) echo 3 ;;
	source | output) echo 4 ;; views) echo 5 ;; dashboard) echo 6 ;;
	cmd) echo 7 ;; main) echo 8 ;; *) echo x ;;
	esac
}

# layers_check DIR: prints one line per include that breaks the rule.
layers_check() {
	(cd "$1" && find src views -name '*.[ch]' | sort) | while read -r f; do
		case $f in
		src/main.c) from=main ;;
		views/*) from=views ;;
		src/*/*) from=${f#src/}; from=${from%%/*} ;;
		*) echo "$f: not in a layer folder"; continue ;;
		esac
		fr=$(rank "$from")
		[ "$fr" = x ] && { echo "$f: $from is not a layer"; continue; }
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$1/$f" |
			sed 's/^\([0-9]*\):.*"\(.*\)".*/\1 \2/' | while read -r line inc; do
			[ "$inc" = config.h ] && continue
			case $inc in
			*/*) to=${inc%%/*} ;;
			*) echo "$f:$line: \"$inc\" does not name its folder"; continue ;;
			esac
			tr=$(rank "$to")
			if [ "$tr" = x ]; then
				echo "$f:$line: \"$inc\" is in no layer"
			elif [ "$tr" -gt "$fr" ]; then
				echo "$f:$line: $from includes $inc, a layer to its right"
			elif [ "$tr" = 4 ] && [ "$fr" = 4 ] && [ "$to" != "$from" ]; then
				echo "$f:$line: $from includes $inc (source and output stay apart)"
			elif [ "$to" = source ] && { [ "$from" = views ] || [ "$from" = dashboard ]; }; then
				echo "$f:$line: $from includes $inc, a reader"
			fi
		done
	done
}

# The checker itself: a tree with a parser that includes the model.
t=$TMPDIR_TEST/tree
mkdir -p "$t/src/parse" "$t/src/model" "$t/views"
printf '#include "model/sample.h"\n' >"$t/src/parse/bad.c"
printf '#include "parse/bad.h"\n' >"$t/src/model/good.c"
printf '#include "source/procfs.h"\n' >"$t/views/reader.c"
out=$(layers_check "$t")
check_match "a parser that includes the model is caught" "$out" '^src/parse/bad.c:1: parse includes model/sample.h'
check_match "a view that includes a reader is caught" "$out" '^views/reader.c:1: views includes source/procfs.h'
check_eq "an include to the left passes" "$(printf '%s\n' "$out" | grep -c good.c)" 0

out=$(layers_check "$top")
check_eq "src/ and views/ keep the layer rule" "$out" ""
done_testing

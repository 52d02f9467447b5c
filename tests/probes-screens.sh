#!/bin/sh
# The kernel probes' panels in tmux: on the bundled recording, which has
# no probes, each panel (Overview, Fragmentation, Reclaim, Tasks) says so
# in one whole line at 80x24 and 200x60, and the rest is drawn as before;
# the help describes the probes. On a recording made by tests/mkprobes,
# each panel shows the figures of the sample on screen, as worked out here
# from dump --json (python3), at 80x24 and 200x60, whole; an unavailable
# recording says why. Live as root, the Reclaim screen has the probes.
set -u
. "$TESTLIB"
export LANG=C.UTF-8
REC=$PAGETOP_DATADIR/sample-build-6.18.ptrec
NOPROBES="no kernel probes in this recording"

for size in 80x24 200x60; do
	c=${size%x*} r=${size#*x}
	tmux_start p$c $c $r "$PAGETOP replay $REC"
	wait_screen p$c "REPLAY" 5
	check_screen "$size Overview: the probes line says why" p$c " $NOPROBES( |\$)"
	check_screen "$size Overview: the rates still follow" p$c "kswapd scan"
	check_screen "$size Overview: OOM kills and allocstall kept" p$c "allocstall.*OOM kills|OOM kills"
	keys p$c 2
	check_screen "$size Fragmentation: fallbacks say why" p$c "^ $NOPROBES\$"
	check_screen "$size Fragmentation: the free lists as before" p$c "Free blocks|order"
	keys p$c 3
	check_screen "$size Reclaim: the probes panel says why" p$c "^  $NOPROBES\$"
	check_screen "$size Reclaim: its title" p$c "^Kernel probes  stalls, throttling"
	check_screen "$size Reclaim: the counters as before" p$c "^direct scan"
	keys p$c 4
	check_screen "$size Tasks: stalled tasks panel says why" p$c "^ $NOPROBES\$"
	check_screen "$size Tasks: the blocked tasks as before" p$c "no task is blocked"
	keys p$c '?'
	[ $r -lt 40 ] && keys p$c NPage NPage NPage
	check_screen "$size Help: the probes section" p$c "Kernel probes|time stalled in direct reclaim"
	w=$(screen_of p$c | wc -L)
	check_ok=$([ "$w" -le $c ] && echo yes || echo "$w columns")
	check_eq "$size: no line wider than the screen" "$check_ok" yes
	keys p$c q
done

# The figures of sample S (10 s in) from dump --json: its tick (S less
# S-1) and the probes' window (sample 0 to S, all with probes on).
T=$TMPDIR_TEST
$MKPROBES $FIXTURES/recordings/format-2.1.ptrec $T/p.ptrec
$MKPROBES $FIXTURES/recordings/format-2.1.ptrec $T/u.ptrec unavailable
$PAGETOP dump --json $T/p.ptrec >$T/all.json
python3 - $T/all.json >$T/want <<'PY'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
S = [i for i in range(len(s)) if round(s[i]["time"] - s[0]["time"]) == 10][0]
a, b, w = s[S - 1]["probes"], s[S]["probes"], s[0]["probes"]
lat = lambda p, k: p["stall"][k]["latency"]
d = lambda p, q, k: lat(q, k)["count"] - lat(p, k)["count"]
thr = lambda p, q: q["throttle"]["writeback"]["count"] - p["throttle"]["writeback"]["count"]
print("dtick=%d mtick=%d ctick=%d" % (d(a, b, "direct"), d(a, b, "memcg"),
      d(a, b, "compact")))
print("dwin=%d mwin=%d cwin=%d hist=%d" % (d(w, b, "direct"), d(w, b, "memcg"),
      d(w, b, "compact"), d(w, b, "direct") + d(w, b, "memcg")))
print("wtick=%d wwin=%d" % (thr(a, b), thr(w, b)))
# Compaction runs by result, tick/window, the results the window had.
runs = lambda p, r: p["compaction"][r]["runs"]
print("cres='%s'" % " ".join("%s %d/%d" % (r, runs(b, r) - runs(a, r), runs(b, r) - runs(w, r))
      for r in b["compaction"] if isinstance(b["compaction"][r], dict) and
      "runs" in b["compaction"][r] and runs(b, r) - runs(w, r)))
print("rwtick=%d rwwin=%d" % (b["reclaim_writes"] - a["reclaim_writes"],
      b["reclaim_writes"] - w["reclaim_writes"]))
# Fallbacks: the busiest (asked, taken) pair over the window.
def pairs(p):
	out = {}
	for f in p["fallbacks"]:
		k = (f["asked"], f["taken"])
		out[k] = out.get(k, 0) + f["count"]
	return out
pw, pa, pb = pairs(w), pairs(a), pairs(b)
win = {k: v - pw.get(k, 0) for k, v in pb.items()}
top = max(win, key=lambda k: win[k])
names = ["Unmovable", "Movable", "Reclaimable", "HighAtomic", "Isolate"]
print("fbpair='%s -> %s' fbtick=%d fbwin=%d" % (names[top[0]], names[top[1]],
      pb[top] - pa.get(top, 0), win[top]))
# The tasks of ticks 1..S, by tid, most total time first.
tasks = {}
for i in range(1, S + 1):
	for t in s[i]["probes"]["tasks"]:
		e = tasks.setdefault(t["tid"], [t["comm"], 0, 0])
		e[1] += t["count"]
		e[2] += t["total_ns"]
tid = max(tasks, key=lambda k: tasks[k][2])
print("ttid=%d tcomm=%s tcount=%d" % (tid, tasks[tid][0], tasks[tid][1]))
vf = sum(x["count"] for i in range(1, S + 1) for x in s[i]["probes"]["dstacks"]
	 if "wait_for_vfork_done" in x["stack"])
print("vfork=%d" % vf)
PY
check_eq "the expected figures worked out" "$?" 0
. $T/want
U='[0-9.]+(us|ms|s)'

for size in 80x24 200x60; do
	c=${size%x*} r=${size#*x}
	tmux_start m$c $c $r "$PAGETOP replay $T/p.ptrec"
	wait_screen m$c "REPLAY" 5
	for i in 1 2 3 4 5 6 7 8 9 10; do keys m$c Right; done
	check_screen "$size on sample 10" m$c " 10s / "
	check_screen "$size Overview: direct reclaim and compaction stall time" m$c \
	    "(^| ) stalled in direct reclaim $U/s \\($dtick\\)  in compaction $U/s \\($ctick\\)\$"
	check_screen "$size Overview: OOM kills still shown" m$c "OOM kills"
	keys m$c 3
	check_screen "$size Reclaim: direct, tick and window, every column" m$c \
	    "^direct reclaim +$dtick( +$U){3} +$U/s +$dwin +$U\$"
	check_screen "$size Reclaim: memcg" m$c "^memcg reclaim +$mtick( +$U){3} +$U/s +$mwin +$U\$"
	check_screen "$size Reclaim: compaction" m$c "^compaction +$ctick .* $cwin +$U\$"
	check_screen "$size Reclaim: compaction runs by result, tick/window" m$c \
	    "^runs, tick/window +$cres\$"
	check_screen "$size Reclaim: throttled for writeback" m$c \
	    "^  writeback +$wtick +$U/s +$wwin +$U\$"
	[ $r -lt 40 ] && keys m$c NPage
	check_screen "$size Reclaim: kswapd awake" m$c "^kswapd wakes, awake +[0-9]+ +$U/s +[0-9]+ +$U\$"
	check_screen "$size Reclaim: writes from reclaim" m$c "^reclaim writes +$rwtick +[0-9]+/s +$rwwin\$"
	check_screen "$size Reclaim: the window's histogram" m$c \
	    "^reclaim latency, direct and memcg, last 10s: $hist stalls"
	check_screen "$size Reclaim: its rows whole" m$c "^ +[0-9.]+-[0-9.]+(us|ms|s) .* [0-9]+\$"
	keys m$c 2
	check_screen "$size Fragmentation: the busiest pair, its free lists beside it" m$c \
	    "^$fbpair +$fbtick now +$fbwin win  free [0-9.]+[KMGT]?, [0-9]+ >=o[0-9]+"
	check_screen "$size Fragmentation: by order over the window" m$c \
	    "^by order, this tick/window +0: [0-9]+/[0-9]+ "
	keys m$c 4
	check_screen "$size Tasks: the window's longest stalled task" m$c \
	    "^ +$ttid $tcomm +direct +$tcount +$U +$U\$"
	check_screen "$size Tasks: the vfork D sleeps grouped, task and reason" m$c \
	    "^ +$vfork +$U +$U vfork +vfork-helper +parent waiting"
	w=$(screen_of m$c | wc -L)
	check_eq "$size: no line wider than the screen" \
	    "$([ "$w" -le $c ] && echo yes || echo "$w")" yes
	keys m$c q
	tmux_start u$c $c $r "$PAGETOP replay $T/u.ptrec"
	wait_screen u$c "REPLAY" 5
	keys u$c Right
	check_screen "$size unavailable: the Overview says why" u$c "probes: not root"
	keys u$c 3
	check_screen "$size unavailable: the Reclaim panel says why" u$c "^  probes: not root"
	keys u$c q
done

# Live, as root on a kernel where they load: the probes' rows, no why.
if [ "$(id -u)" = 0 ] && [ -r /sys/kernel/btf/vmlinux ]; then
	tmux_start live 80 60 "$PAGETOP"
	wait_screen live "LIVE" 5
	sleep 2
	keys live 3
	check_screen "live: the Reclaim screen's direct reclaim row" live "^direct reclaim +[0-9]+ "
	check_screen "live: ... and memcg" live "^memcg reclaim +[0-9]+ "
	check_no_screen "live: no 'unavailable' line" live "unavailable|probes: "
	keys live q
else
	ok "live probes # SKIP not root, or no BTF"
fi
# replay --compare: B's stalls under A's, from B's own history: B the same
# recording gives the same rows; B without probes gives none.
tmux_start cmp 200 60 "$PAGETOP replay $T/p.ptrec --compare $T/p.ptrec"
wait_screen cmp "REPLAY" 5
for i in 1 2 3 4 5 6 7 8 9 10; do keys cmp Right; done
wait_screen cmp " 10s / " 10 >/dev/null
keys cmp 3
# Slow builds (sanitizers) draw later: wait for the last of B's rows.
wait_screen cmp '^  B compaction +[0-9]' 10 >/dev/null
scr=$(screen_of cmp | sed -n '/^stalls this tick /,/^runs, tick/p')
for k in "direct reclaim:direct" "memcg reclaim:memcg" "compaction:compaction"; do
	a=$(printf '%s\n' "$scr" | sed -n "s/^${k%%:*} \{2,\}\([0-9].*\)/\1/p")
	b=$(printf '%s\n' "$scr" | sed -n "s/^  B ${k#*:} \{2,\}\([0-9].*\)/\1/p")
	check_match "compare: B's ${k#*:} row ($b)" "$b" '^[0-9]+ '
	check_eq "... the same as A's from the same file" "$b" "$a"
done
# The latency histogram: B's count beside each bucket, B's own (here equal).
bars=$(screen_of cmp | grep -E '^ +[0-9.]+-[0-9.]+(us|ms|s) ')
check_match "compare: the histogram's bars" "$bars" 'B [0-9]+'
check_eq "... each B count equals A's from the same file" \
	"$(printf '%s\n' "$bars" | awk '{ if ($(NF - 2) != $NF) bad++ } END { print bad + 0 }')" 0
check_screen "... and the title has B's stalls" cmp '^reclaim latency, direct and memcg, last .*: [0-9]+ stalls, B [0-9]+'
keys cmp 2
wait_screen cmp '^B by order, tick/window +[0-9]' 10 >/dev/null
scr=$(screen_of cmp)
a=$(printf '%s\n' "$scr" | sed -n 's/^by order, this tick\/window  *//p')
b=$(printf '%s\n' "$scr" | sed -n 's/^B by order, tick\/window  *//p')
check_match "compare: B's fallbacks by order ($b)" "$b" '^[0-9]+: [0-9]+/[0-9]+'
check_eq "... the same as A's from the same file" "$b" "$a"
# Tasks: B's longest-stalled task over its window, as A's table has it.
keys cmp 4
wait_screen cmp '^B D sleeps: ' 10 >/dev/null
scr=$(screen_of cmp)
top=$(printf '%s\n' "$scr" | sed -n '/^Stalled in reclaim/,/^$/p' | awk '$1 ~ /^[0-9]+$/ { print $1, $2, $(NF - 1), $(NF - 2); exit }')
check_match "compare: A's stalled tasks listed ($top)" "$top" '^[0-9]+ '
set -- $top
check_screen "compare: B's longest-stalled task is the same ($top)" cmp \
	"^B stalled: [0-9]+ tasks, the longest $2 \\($1\\) $3 in $4\$"
ds=$(printf '%s\n' "$scr" | sed -n '/^Short D sleeps by stack/,/^$/p' | awk '$1 ~ /^[0-9]+$/ { print $1, $2; exit }')
set -- $ds
check_screen "compare: B's D sleeps, the stack of most time as A's ($ds)" cmp \
	"^B D sleeps: [0-9]+ stacks, the most time $2 \\($1\\): "
keys cmp q
tmux_start cmpu 200 60 "$PAGETOP replay $T/p.ptrec --compare $T/u.ptrec"
wait_screen cmpu "REPLAY" 5
keys cmpu Right Right
wait_screen cmpu " 2s / " 10 >/dev/null
keys cmpu 3
check_screen "compare, B without probes: A's rows" cmpu "^direct reclaim +[0-9]+ "
check_no_screen "... and no B rows" cmpu "^  B direct"
check_no_screen "... nor B's histogram counts" cmpu "stalls, B [0-9]"
keys cmpu 2
check_no_screen "... nor B's fallbacks" cmpu "^B by order"
keys cmpu 4
check_no_screen "... nor B's stalled tasks" cmpu "^B stalled"
keys cmpu q
done_testing

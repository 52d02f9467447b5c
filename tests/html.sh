#!/bin/sh
# pagetop report FILE --html OUT (output/html.c, svg.c): on a recording
# made here with a mark whose text needs escaping, the file is well-formed
# XML and HTML, fetches nothing, holds one chart per section with the
# mark drawn in each, and renders in headless Chromium to a screenshot
# that is not blank; --phases gives a part per phase; the probes' charts
# where recorded; a long recording stays within the bins; a file that
# cannot be written is said.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
export TZ=UTC
make_root $T/root buddyinfo=$L/buddyinfo vmstat=$L/vmstat meminfo=$L/meminfo uptime=$L/uptime \
	pressure/memory=$L/pressure/memory
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 $XDG_RUNTIME_DIR
MARK='mke2fs <start> & "go"'
step() {	# step K: pgscan_kswapd and the memory PSI totals move on
	sed "s/^pgscan_kswapd .*/pgscan_kswapd $(($1 * 1000))/" $FIXTURES/$L/vmstat > $T/root/v.new
	mv $T/root/v.new $T/root/vmstat
	printf 'some avg10=1.00 avg60=0.00 avg300=0.00 total=%d\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=%d\n' \
		$(($1 * 100000)) $(($1 * 50000)) > $T/root/pressure/m.new
	mv $T/root/pressure/m.new $T/root/pressure/memory
}
step 0
$PAGETOP record --proc-root $T/root -o $T/h.ptrec -d 0.5 --flush 0.5 2>$T/rec.err &
rpid=$!
i=0
while [ $i -lt 50 ] && [ -z "$(ls $XDG_RUNTIME_DIR/pagetop 2>/dev/null)" ]; do sleep 0.1; i=$((i + 1)); done
for k in 1 2 3 4 5 6; do
	step $k
	[ $k = 2 ] && $PAGETOP mark "$MARK" >/dev/null
	[ $k = 4 ] && $PAGETOP mark "second" >/dev/null
	sleep 0.6
done
kill -INT $rpid
wait $rpid
check_eq "the recording is made" "$?" 0

$PAGETOP report $T/h.ptrec --html $T/h.html 2>$T/err
check_eq "report --html exits 0" "$?" 0
check "the file is well-formed XML (xmllint --noout)" xmllint --noout $T/h.html
# libxml2's HTML parser is HTML 4: it knows neither <section> nor SVG's
# elements; anything else it says is a fault.
xmllint --html --noout $T/h.html 2>$T/lint.err
check_eq "xmllint --html exits 0" "$?" 0
check_eq "xmllint --html finds nothing but HTML5 and SVG tags" \
	"$(grep 'parser error' $T/lint.err | grep -v 'Tag [a-z]* invalid')" ""
check_eq "nothing fetched: no src or href to a URL, no script, no url()" \
	"$(grep -Eic '(src|href) *= *["'\'']? *(https?:)?//|<script|url\(' $T/h.html)" 0
check_eq "the mark's text never raw" "$(grep -c '<start>' $T/h.html)" 0
sections=$(grep -c '<section ' $T/h.html)
check "pressure, reclaim, compaction and a section per zone (buddyinfo has 3)" \
	[ "$sections" -eq 6 ]
check_eq "one svg per section, in the file" "$(grep -c '<svg ' $T/h.html)" "$sections"
check_eq "both marks drawn in every chart" "$(grep -c '<g class="mark">' $T/h.html)" \
	$((2 * sections))
check_eq "the pressure chart draws memory some" \
	"$(sed -n '/<section id="p1-pressure"/,/<\/section>/p' $T/h.html |
	   grep -c '<title>memory some</title>')" 1
# The report's own text, beside the charts.
$PAGETOP report $T/h.ptrec > $T/text 2>/dev/null
check_eq "the text report says the same sample count" \
	"$(sed -n 's/^Samples: *\([0-9]*\).*/\1/p' $T/text)" \
	"$(sed -n 's/.*, \([0-9]*\) samples, one every.*/\1/p' $T/h.html)"

# The same to stdout.
$PAGETOP report $T/h.ptrec --html - > $T/stdout.html 2>/dev/null
check "--html - writes the same to stdout" cmp $T/h.html $T/stdout.html

# --phases: a part per phase (before the first mark, then each mark's),
# then the whole; --since narrows it as the text.
$PAGETOP report $T/h.ptrec --phases --html $T/ph.html 2>/dev/null
check_eq "--phases --html exits 0" "$?" 0
check_eq "--phases: three phases and the whole" "$(grep -c '<div class="part"' $T/ph.html)" 4
check "--phases: well-formed" xmllint --noout $T/ph.html
check_eq "--phases: the whole is last" "$(grep '<h2>' $T/ph.html | tail -1)" "<h2>The whole</h2>"
$PAGETOP report $T/h.ptrec --since mark:second --html $T/since.html 2>/dev/null
check_eq "--since mark:second: only that mark drawn" \
	"$(grep -c '<title>mark "second' $T/since.html)/$(grep -c '<title>mark "mke2fs' $T/since.html)" \
	"$(grep -c '<svg ' $T/since.html)/0"

# A write that fails: one line naming the file, exit non-zero.
$PAGETOP report $T/h.ptrec --html $T/no/such/dir/x.html > $T/out 2>$T/err
check "an unwritable OUT exits non-zero" [ $? -ne 0 ]
check_match "... with one line naming it" "$(cat $T/err)" "^pagetop: $T/no/such/dir/x.html: "
check_eq "... one line" "$(wc -l < $T/err)" 1
if [ -w /dev/full ]; then
	$PAGETOP report $T/h.ptrec --html /dev/full 2>$T/err
	check "a full disk exits non-zero" [ $? -ne 0 ]
	check_match "... naming the file" "$(cat $T/err)" "^pagetop: /dev/full: cannot write"
fi

# The kernel probes, where recorded: fallbacks and stall latencies.
$PAGETOP report $FIXTURES/recordings/format-2.2.ptrec --html $T/probes.html 2>/dev/null
check_eq "a recording with probes: report --html exits 0" "$?" 0
check_eq "... a fallbacks and a latency section" \
	"$(grep -o '<section id="p1-[a-z]*"' $T/probes.html | grep -c 'fallbacks\|latency')" 2
check_eq "... the latency chart draws the three stall kinds" \
	"$(sed -n '/<section id="p1-latency"/,/<\/section>/p' $T/probes.html |
	   grep -c '<title>[a-z ]* p99</title>')" 3
check_eq "... one svg per section" "$(grep -c '<svg ' $T/probes.html)" \
	"$(grep -c '<section ' $T/probes.html)"
check_eq "a recording without probes has neither" \
	"$(grep -c 'id="p1-fallbacks"\|id="p1-latency"' $T/h.html)" 0

# A long recording: 20,000 samples, each series at most 300 points.
$MKREC_DENSE $T/dense.ptrec 20000 $T/h.ptrec
$PAGETOP report $T/dense.ptrec --html $T/dense.html 2>/dev/null
check_eq "a dense recording's report --html exits 0" "$?" 0
most=$(grep -o ' d="M[^"]*"' $T/dense.html | awk '{ n = gsub(/ L/, ""); if (n + 1 > m) m = n + 1 } END { print m + 0 }')
check "at most 300 points a line ($most)" [ "$most" -gt 0 ] && [ "$most" -le 300 ]
size=$(wc -c < $T/dense.html)
check "the file stays small ($size bytes)" [ "$size" -lt 1000000 ]

# In a real browser.
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	ok "renders in Chromium # SKIP no chromium installed (apt-get install chromium)"
	done_testing
	exit 0
fi
chrome() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir=$T/chrome --no-first-run "$@" 2>>$T/chrome.err
}
chrome --dump-dom file://$T/h.html > $T/dom.html
check_eq "chromium --dump-dom exits 0" "$?" 0
cat > $T/dom.py <<'EOF'
# Sections, the svg elements directly in each, and mark texts, from the DOM.
import sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections, self.stack, self.in_mark_text = [], [], False
        self.marks = 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.sections.append(0)
        if tag == "svg" and self.sections:
            self.sections[-1] += 1
        if tag == "g" and a.get("class") == "mark":
            self.stack.append("mark")
        elif tag == "g":
            self.stack.append("g")
        if tag == "text" and "mark" in self.stack:
            self.in_mark_text = True
    def handle_endtag(self, tag):
        if tag == "g" and self.stack:
            self.stack.pop()
        if tag == "text":
            self.in_mark_text = False
    def handle_data(self, data):
        if self.in_mark_text and sys.argv[2] in data:
            self.marks += 1

p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
print(len(p.sections), ",".join(map(str, p.sections)), p.marks)
EOF
set -- $(python3 $T/dom.py $T/dom.html 'mke2fs <start> &')
check_eq "the DOM has the file's sections" "$1" "$sections"
check_eq "one svg in each section" "$2" "$(printf '1,%.0s' $(seq $sections) | sed 's/,$//')"
check_eq "the mark's text, unescaped, in every chart" "$3" "$sections"

chrome --window-size=1000,1800 --screenshot=$T/shot.png file://$T/h.html >/dev/null
check "chromium --screenshot writes a PNG" [ -s $T/shot.png ]
cat > $T/png.py <<'EOF'
# Distinct colours and the share of pixels that are not white, from the
# PNG's own bytes (8-bit RGB or RGBA, not interlaced, as Chromium writes).
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(d):
    n, kind = struct.unpack(">I4s", d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype, _, _, lace = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6) and lace == 0, (depth, ctype, lace)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, ink = bytearray(stride), set(), 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3])
        colours.add(px)
        if px != b"\xff\xff\xff":
            ink += 1
    prev = line
print(len(colours), ink * 1000 // (w * h))
EOF
set -- $(python3 $T/png.py $T/shot.png)
check "the screenshot has colours: the series, marks and heatmap (${1:-0})" [ "${1:-0}" -ge 8 ]
check "the screenshot is not blank: ${2:-0} per mille of it is not white" [ "${2:-0}" -ge 20 ]
done_testing

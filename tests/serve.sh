#!/bin/sh
# pagetop serve: /metrics over HTTP as curl sees it, then as a real
# Prometheus server (Debian's package) scrapes and stores it.
set -u
. "$TESTLIB"
T=$TMPDIR_TEST
L=roots/live-6.18-x86_64
make_root $T/root buddyinfo=$L/buddyinfo pagetypeinfo=$L/pagetypeinfo vmstat=$L/vmstat \
	meminfo=$L/meminfo zoneinfo=$L/zoneinfo pressure/memory=$L/pressure/memory \
	pressure/io=$L/pressure/io uptime=$L/uptime
pids=
cleanup() {
	for p in $pids; do kill -TERM $p 2>/dev/null; done
	for p in $pids; do wait $p 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

# A free port on 127.0.0.1 for Prometheus (pagetop takes its own with port 0).
free_port() {
	while :; do
		p=$(awk 'BEGIN { srand(); print 20000 + int(rand() * 40000) }')
		hex=$(printf ':%04X ' $p)
		cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | grep -q "$hex" || { echo $p; return; }
	done
}
# wait_for FILE REGEX: until FILE has a line matching (at most 30 s).
wait_for() {
	i=0
	while [ $i -lt 300 ]; do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

$PAGETOP serve --listen 127.0.0.1:0 --proc-root $T/root -d 0.5 2>$T/serve.err &
spid=$!
pids="$spid"
wait_for $T/serve.err 'serving http://'
check_match "serve says where it listens" "$(cat $T/serve.err)" \
	"^pagetop: serving http://127\.0\.0\.1:[0-9]+/metrics, sampling $T/root every 0.5s\$"
ADDR=$(sed -n 's|.*http://\([^/]*\)/metrics.*|\1|p' $T/serve.err)
URL=http://$ADDR/metrics

# The Prometheus text format by default, OpenMetrics when asked for.
code=$(curl -s -o $T/m.txt -D $T/h.txt -w '%{http_code}' $URL)
check_eq "GET /metrics: 200" "$code" 200
check_match "... text/plain; version=0.0.4" "$(cat $T/h.txt)" \
	'Content-Type: text/plain; version=0.0.4; charset=utf-8'
check_match "... free blocks at node 0, Normal, order 3: the fixture's buddyinfo" "$(cat $T/m.txt)" \
	'^pagetop_buddyinfo_free_blocks\{node="0",zone="Normal",order="3"\} 186$'
want=$($PAGETOP snapshot --json --proc-root $T/root |
	jq -r '.fragmentation[] | select(.zone == "Normal") | .unusable_index[9]')
check_match "... the unusable index, as snapshot computes it" "$(cat $T/m.txt)" \
	"^pagetop_unusable_index\\{node=\"0\",zone=\"Normal\",order=\"9\"\\} $want\$"
check_match "... meminfo in bytes" "$(cat $T/m.txt)" \
	"^pagetop_meminfo_mem_total_bytes $(($(awk '/^MemTotal:/ { print $2 }' $T/root/meminfo) * 1024))\$"
check_match "... vmstat counters as counters" "$(cat $T/m.txt)" \
	"^# TYPE pagetop_vmstat_pgscan_kswapd_total counter"
check_match "... PSI avg10 as a ratio (0.53% is 0.0053)" "$(cat $T/m.txt)" \
	'^pagetop_pressure_avg_ratio\{resource="io",kind="some",window="10s"\} 0.0053$'
check_match "... PSI totals in seconds" "$(cat $T/m.txt)" \
	"^pagetop_pressure_stalled_seconds_total\\{resource=\"io\",kind=\"full\"\\} $(awk '/^full/ { sub("total=", "", $5); printf "%.6f", $5 / 1e6 }' $T/root/pressure/io | sed 's/0*$//; s/\.$//')\$"
check_match "... pagetypeinfo per migratetype" "$(cat $T/m.txt)" \
	'^pagetop_pagetypeinfo_pageblocks\{node="0",zone="Normal",migratetype="Movable"\} 564$'
check_match "... which sources are up" "$(cat $T/m.txt)" '^pagetop_source_up\{source="pressure/cpu"\} 0$'
if command -v promtool >/dev/null; then
	out=$(promtool check metrics < $T/m.txt 2>&1)
	check_eq "promtool check metrics: names and types follow Prometheus' rules" "$?:$out" "0:"
else
	not_ok "promtool (Debian package prometheus) is installed" "run ./bootstrap"
fi
code=$(curl -s -o $T/m.om -D $T/h.om -w '%{http_code}' \
	-H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' $URL)
check_eq "GET /metrics, Accept OpenMetrics: 200" "$code" 200
check_match "... application/openmetrics-text" "$(cat $T/h.om)" \
	'Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8'
check_eq "... ending with # EOF" "$(tail -1 $T/m.om)" "# EOF"
check_match "... with units" "$(cat $T/m.om)" '^# UNIT pagetop_zone_free_bytes bytes$'
check_match "... counter families named without _total" "$(cat $T/m.om)" \
	'^# TYPE pagetop_vmstat_pgscan_kswapd counter$'
code=$(curl -s -o /dev/null -D $T/h.q0 -w '%{http_code}' -H 'Accept: application/openmetrics-text;q=0' $URL)
check_match "Accept OpenMetrics with q=0: the text format" "$(cat $T/h.q0)" 'Content-Type: text/plain'

code=$(curl -s -I -o $T/head.txt -w '%{http_code}:%{size_download}' $URL)
check_eq "HEAD /metrics: 200 without a body" "$code" "200:0"
check_match "... with the body's length" "$(cat $T/head.txt)" 'Content-Length: [0-9]{4,}'
check_eq "GET /: 404" "$(curl -s -o /dev/null -w '%{http_code}' http://$ADDR/)" 404
check_eq "GET /metrics/x: 404" "$(curl -s -o /dev/null -w '%{http_code}' $URL/x)" 404
check_eq "GET /metrics?x=1: 200" "$(curl -s -o /dev/null -w '%{http_code}' "$URL?x=1")" 200
check_eq "POST /metrics: 405" "$(curl -s -o /dev/null -w '%{http_code}' -X POST $URL)" 405
check_eq "OPTIONS *: 405" "$(curl -s -o /dev/null -w '%{http_code}' --request-target '*' -X OPTIONS $URL)" 405
check_eq "a request that never ends: 431" "$(curl -s -o /dev/null -w '%{http_code}' \
	-H "X-Long: $(head -c 9000 /dev/zero | tr '\0' x)" $URL)" 431

# Many scrapers at once all get the whole exposition.
i=0
cpids=
while [ $i -lt 40 ]; do
	curl -s -o $T/c.$i -w '%{http_code}\n' $URL > $T/code.$i &
	cpids="$cpids $!"
	i=$((i + 1))
done
# Until every curl has exited: its -w line may come before its body file
# is closed, so the code alone does not say the body is all there.
wait $cpids
check_eq "40 concurrent scrapes: all 200" "$(cat $T/code.* | sort -u)" 200
check_eq "... all whole" "$(tail -qn1 $T/c.* | sort -u | wc -l):$(grep -l '^pagetop_source_up{source="tasks"}' $T/c.* | wc -l)" "1:40"

# The default address is loopback, port 9782 (or it says that one is taken).
$PAGETOP serve --proc-root $T/root -n 1 -d 0.1 2>$T/default.err
check_match "by default: 127.0.0.1:9782" "$(cat $T/default.err)" \
	'(serving http://127\.0\.0\.1:9782/metrics|127\.0\.0\.1:9782: Address already in use)'
$PAGETOP serve --listen localhost --proc-root $T/root -n 1 2>/dev/null
check_eq "--listen without a port: usage error" "$?" 2
$PAGETOP serve --listen '[::1]:0' --proc-root $T/root -n 1 -d 0.1 2>$T/v6.err
if grep -q 'Cannot assign\|not supported\|family' $T/v6.err; then
	ok "# SKIP no IPv6 loopback here"
else
	check_match "--listen [::1]:0: IPv6" "$(cat $T/v6.err)" 'serving http://\[::1\]:[0-9]+/metrics'
fi

# A real Prometheus scrapes it every second and stores what it got.
if command -v prometheus >/dev/null; then
	PPORT=$(free_port)
	cat > $T/prometheus.yml <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: pagetop
    static_configs:
      - targets: ['$ADDR']
EOF
	prometheus --config.file=$T/prometheus.yml --storage.tsdb.path=$T/tsdb \
		--web.listen-address=127.0.0.1:$PPORT > $T/prometheus.log 2>&1 &
	ppid=$!
	pids="$pids $ppid"
	API=http://127.0.0.1:$PPORT/api/v1/query
	query() { curl -s "$API" --data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // empty'; }
	i=0
	while [ $i -lt 600 ]; do
		[ "$(query 'count_over_time(up{job="pagetop"}[1m])')" -ge 2 ] 2>/dev/null && break
		sleep 0.1
		i=$((i + 1))
	done
	n=$(query 'count_over_time(up{job="pagetop"}[1m])')
	if [ "${n:-0}" -ge 2 ]; then ok "Prometheus scraped pagetop twice ($n scrapes)"; else
		not_ok "Prometheus scraped pagetop twice" "$(tail -5 $T/prometheus.log)"; fi
	check_eq "... the target is up" "$(query 'up{job="pagetop"}')" 1
	check_eq "... free blocks at node 0, Normal, order 3 as buddyinfo has them" \
		"$(query 'pagetop_buddyinfo_free_blocks{node="0",zone="Normal",order="3"}')" 186
	check_eq "... a vmstat counter" "$(query 'pagetop_vmstat_pgscan_kswapd_total')" \
		"$(awk '$1 == "pgscan_kswapd" { print $2 }' $T/root/vmstat)"
	check_eq "... the extfrag index as snapshot computes it" \
		"$(query 'pagetop_extfrag_index{zone="DMA32",order="10"}')" \
		"$($PAGETOP snapshot --json --proc-root $T/root | jq -r '.fragmentation[] | select(.zone == "DMA32") | .extfrag_index[10]')"
	check_eq "... every sample of a scrape" "$(query 'scrape_samples_scraped{job="pagetop"}')" \
		"$(grep -vc '^#' $T/m.txt)"
	check_eq "... as OpenMetrics (it knows the units)" \
		"$(curl -s "http://127.0.0.1:$PPORT/api/v1/metadata?metric=pagetop_zone_free_bytes" | jq -r '.data.pagetop_zone_free_bytes[0].unit')" bytes
else
	not_ok "prometheus (Debian package prometheus) is installed" "run ./bootstrap"
fi

# No allocation per tick: 45 more ticks, with one scrape in each run, add
# next to none. (The task scan's own steady state is tests/noalloc.sh's: on
# the live system other tests' threads come and go.)
if [ "${SANITIZED:-no}" != yes ] && command -v valgrind >/dev/null; then
	allocs() {
		valgrind --log-file=$T/vg$1.log $PAGETOP serve --listen 127.0.0.1:0 --proc-root $T/root \
			-d 0.2 -n $1 \
			2>$T/vg$1.err &
		vpid=$!
		wait_for $T/vg$1.err 'serving http://'
		curl -s -o /dev/null "http://$(sed -n 's|.*http://\([^/]*\)/metrics.*|\1|p' $T/vg$1.err)/metrics"
		wait $vpid
		sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' $T/vg$1.log | tr -d ,
	}
	a=$(allocs 5)
	b=$(allocs 50)
	if [ -n "$a" ] && [ -n "$b" ] && [ $((b - a)) -lt 23 ]; then
		ok "45 more ticks add $((b - a)) allocations ($a in all for 5)"
	else
		not_ok "45 more ticks add no allocations" "5 ticks: $a, 50 ticks: $b"
	fi
else
	ok "allocations per tick # SKIP no valgrind, or a sanitizer build"
fi

# A slowloris: 200 connections that send their request head a byte at a
# time, reopened as they are dropped, for 12 s at most. Scrapes during it
# are still answered, each within 1 s (the oldest slow head makes room for
# a new connection; a head has 2 s to arrive), and so are scrapes whose
# head comes 0.1 s after their connection, as from a loaded scraper: a
# connection that sent nothing yet goes after those that sent part of a
# head (taking the oldest of any, 1 to 3 in 20 of them were dropped).
host=${ADDR%:*}
port=${ADDR##*:}
bash -c '
	trap "" PIPE
	end=$((SECONDS + 12))
	while [ $SECONDS -lt $end ]; do
		fds=()
		for i in $(seq 200); do
			exec {fd}<>/dev/tcp/$1/$2 2>/dev/null || break
			printf "GET /metrics HTTP/1.1\r\nX-Slow: " >&$fd 2>/dev/null
			fds+=($fd)
		done
		for t in 1 2 3; do
			sleep 0.4
			for fd in "${fds[@]}"; do printf x >&$fd 2>/dev/null; done
		done
		for fd in "${fds[@]}"; do exec {fd}>&-; done
	done' slowloris "$host" "$port" &
lpid=$!
pids="$pids $lpid"
sleep 1.5
answered=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 $URL)
	[ "$code" = 200 ] && answered=$((answered + 1))
	sleep 0.3
done
check_eq "during 200 slow connections, 10 of 10 scrapes answered within 1 s" "$answered" 10
# (The head in one write, as a scraper sends it: bash's printf writes a
# line at a time, which looks like a slow head.)
printf 'GET /metrics HTTP/1.1\r\nHost: pagetop\r\n\r\n' > $T/head
late=$(bash -c '
	trap "" PIPE
	n=0
	for i in $(seq 20); do
		exec {fd}<>/dev/tcp/$1/$2 || continue
		sleep 0.1
		cat "$3" >&$fd
		[ "$(timeout 2 head -c 12 <&$fd)" = "HTTP/1.1 200" ] && n=$((n + 1))
		exec {fd}>&-
		sleep 0.1
	done
	echo $n' late "$host" "$port" $T/head 2>/dev/null)
check_eq "... and 20 of 20 whose head came 0.1 s after their connection" "$late" 20
kill $lpid 2>/dev/null
wait $lpid 2>/dev/null
pids=${pids% $lpid}

# A burst that comes while the server is descheduled waits in the listen
# queue rather than crowding a scrape out: the server stopped, 200
# connections, then a scrape, and the server goes on 0.3 s later. (With a
# queue of 128 the scrape's SYN is dropped, and sent again a second later.)
if [ "$(cat /proc/sys/net/core/somaxconn 2>/dev/null || echo 0)" -le 201 ]; then
	ok "a queued burst, then a scrape # SKIP net.core.somaxconn is under 202"
else
	kill -STOP $spid
	bash -c 'for i in $(seq 200); do exec {fd}<>/dev/tcp/$1/$2 || break; done; sleep 5' \
		burst "$host" "$port" 2>/dev/null &
	bpid=$!
	pids="$pids $bpid"
	sleep 0.5
	(sleep 0.3; kill -CONT $spid) &
	code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 $URL)
	kill -CONT $spid
	check_eq "200 connections queued while the server was stopped, then a scrape: answered within 1 s" "$code" 200
	kill $bpid 2>/dev/null
	wait $bpid 2>/dev/null
	pids=${pids% $bpid}
fi

kill -INT $spid
wait $spid
check_eq "SIGINT: a clean exit" "$?" 0
pids=${pids#$spid}

check_no_match() { if printf '%s\n' "$2" | grep -Eq -- "$3"; then not_ok "$1" "/$3/ in the output"; else ok "$1"; fi; }

# Every address of the box: said. A port out of range: refused.
err=$($PAGETOP serve --listen 0.0.0.0:0 --proc-root $T/root -n 1 2>&1)
check_match "--listen 0.0.0.0: a warning that the metrics are open to the network" "$err" \
	'^pagetop: serve: warning: 0\.0\.0\.0:[0-9]+ is every address of this machine'
err=$($PAGETOP serve --listen '[::]:0' --proc-root $T/root -n 1 2>&1)
check_match "--listen [::]: the same warning" "$err" '^pagetop: serve: warning: \[::\]:[0-9]+ is every address'
err=$($PAGETOP serve --listen 127.0.0.1:0 --proc-root $T/root -n 1 2>&1)
check_no_match "--listen 127.0.0.1: no warning" "$err" 'warning'
err=$($PAGETOP serve --listen 127.0.0.1:99999 --proc-root $T/root -n 1 2>&1)
st=$?
check_eq "--listen 127.0.0.1:99999 is refused in one line" "$err" \
	"pagetop: serve: --listen: '127.0.0.1:99999': the port is not 0 to 65535"
check_eq "... with exit status 2" "$st" 2

# Kernel log events per kind, a counter, from --kmsg (a file of the
# kernel's records: an OOM kill of a memory cgroup).
check_no_match "captured files without --kmsg: no kernel event metrics" "$(cat $T/m.txt)" '^pagetop_kernel_events'
$PAGETOP serve --listen 127.0.0.1:0 --proc-root $T/root --kmsg $FIXTURES/kmsg/oom-memcg-6.18.kmsg \
	-d 0.2 2>$T/serve2.err &
spid=$!
pids="$pids $spid"
wait_for $T/serve2.err 'serving http://'
ADDR2=$(sed -n 's|.*http://\([^/]*\)/metrics.*|\1|p' $T/serve2.err)
curl -s -o $T/k.txt http://$ADDR2/metrics
check_match "kernel events: TYPE counter" "$(cat $T/k.txt)" '^# TYPE pagetop_kernel_events_total counter$'
check_match "kernel events: the OOM kill counted" "$(cat $T/k.txt)" \
	'^pagetop_kernel_events_total\{kind="oom-kill"\} 1$'
check_match "kernel events: the oom-killer invoked counted" "$(cat $T/k.txt)" \
	'^pagetop_kernel_events_total\{kind="oom-invoked"\} 1$'
check_match "kernel events: no allocation failure" "$(cat $T/k.txt)" \
	'^pagetop_kernel_events_total\{kind="alloc-failure"\} 0$'
sleep 0.5
curl -s -o $T/k2.txt http://$ADDR2/metrics
check_match "kernel events: counted once, not at every tick" "$(cat $T/k2.txt)" \
	'^pagetop_kernel_events_total\{kind="oom-kill"\} 1$'
if command -v promtool >/dev/null; then
	check "kernel events: promtool check metrics" sh -c "promtool check metrics < $T/k2.txt"
fi
kill -INT $spid
wait $spid
pids=${pids% $spid}
# The kernel probes, live on the real /proc: as root they load, and a
# scrape has their histograms; the text stays valid for promtool.
if [ "$(id -u)" != 0 ]; then
	ok "probes live # SKIP not root: the probes need root"
elif [ ! -r /sys/kernel/btf/vmlinux ]; then
	ok "probes live # SKIP the kernel has no BTF"
else
	$PAGETOP serve --listen 127.0.0.1:0 -d 0.3 2>$T/serve3.err &
	spid=$!
	pids="$pids $spid"
	wait_for $T/serve3.err 'serving http://'
	ADDR3=$(sed -n 's|.*http://\([^/]*\)/metrics.*|\1|p' $T/serve3.err)
	sleep 0.7
	curl -s -o $T/p.txt http://$ADDR3/metrics
	check_match "probes live, as root: pagetop_probes_up 1" "$(cat $T/p.txt)" '^pagetop_probes_up 1$'
	check_match "... the stall histogram's buckets" "$(cat $T/p.txt)" \
		'^pagetop_probe_stall_seconds_bucket\{kind="direct",le="\+Inf"\} [0-9]+$'
	check_match "... its count" "$(cat $T/p.txt)" \
		'^pagetop_probe_stall_seconds_count\{kind="direct"\} [0-9]+$'
	if command -v promtool >/dev/null; then
		out=$(promtool check metrics < $T/p.txt 2>&1)
		check_eq "... promtool check metrics passes with the probes" "$?:$out" "0:"
	fi
	curl -s -H 'Accept: application/openmetrics-text; version=1.0.0' -o $T/p.om \
		http://$ADDR3/metrics
	check_match "... OpenMetrics: a _created for the counters" "$(cat $T/p.om)" \
		'^pagetop_probe_stall_seconds_created\{kind="direct"\} [0-9]+(\.[0-9]+)?$'
	check_no_match "... and none in the 0.0.4 text" "$(cat $T/p.txt)" '_created'
	kill -INT $spid
	wait $spid
	pids=${pids% $spid}
fi
done_testing

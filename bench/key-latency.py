#!/usr/bin/env python3
"""Key-to-screen latency of a program running in a tmux pane.

    key-latency.py SOCKET TARGET N KEY1 REGEX1 KEY2 REGEX2

Sends KEY1, KEY2, KEY1, ... (N keys in all) to the pane and, after each,
polls the pane's text until REGEX1 (after KEY1) or REGEX2 (after KEY2)
matches a line of it; the latency is the time from sending the key to the
first poll that matches. One tmux control-mode client does both the sending
and the polling, so no process is started per poll (a poll takes well under
a millisecond). The pane must show REGEX2's screen to begin with. Keys are
sent 0.2 to 0.5 s apart (a fixed pseudo-random sequence), so they fall at
every phase of the program's refresh.

Prints one line per key, then:
    keys N median MS worst MS poll MS timeouts T
"""
import random
import re
import subprocess
import sys
import time

TIMEOUT = 5.0


def main():
    sock, target, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    steps = [(sys.argv[4], re.compile(sys.argv[5], re.M)),
             (sys.argv[6], re.compile(sys.argv[7], re.M))]
    session = target.split(":")[0]
    p = subprocess.Popen(["tmux", "-L", sock, "-C", "attach", "-t", session],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         bufsize=0)

    def cmd(c):
        """Runs a tmux command; returns its output lines."""
        p.stdin.write((c + "\n").encode())
        lines, inside = [], False
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("key-latency: the tmux client went away")
            line = line.decode(errors="replace").rstrip("\n")
            if line.startswith("%begin"):
                inside, lines = True, []
            elif inside and line.startswith(("%end", "%error")):
                return lines
            elif inside:
                lines.append(line)

    def screen():
        return "\n".join(cmd("capture-pane -p -t " + target))

    # Wait for the starting screen.
    end = time.monotonic() + 10
    while not steps[1][1].search(screen()):
        if time.monotonic() > end:
            sys.exit("key-latency: the starting screen never showed")
        time.sleep(0.05)

    rng = random.Random(1)
    lat, polls, poll_time, timeouts = [], 0, 0.0, 0
    for i in range(n):
        key, want = steps[i % 2]
        time.sleep(0.2 + 0.3 * rng.random())
        t0 = time.monotonic()
        cmd("send-keys -t %s %s" % (target, key))
        while True:
            t = time.monotonic()
            text = screen()
            polls += 1
            poll_time += time.monotonic() - t
            if want.search(text):
                d = time.monotonic() - t0
                break
            if time.monotonic() - t0 > TIMEOUT:
                d = TIMEOUT
                timeouts += 1
                break
        lat.append(d * 1000)
        print("key %2d %-8s %8.2f ms" % (i + 1, key, d * 1000))
    p.stdin.close()
    p.wait()
    s = sorted(lat)
    med = (s[(n - 1) // 2] + s[n // 2]) / 2
    print("keys %d median %.2f worst %.2f poll %.3f timeouts %d" %
          (n, med, s[-1], poll_time / polls * 1000, timeouts))


if __name__ == "__main__":
    main()

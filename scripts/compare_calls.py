#!/usr/bin/env python3
"""Per-call cost of two ucs binaries side by side, and of a do-nothing Go program.

Usage: scripts/compare_calls.py OLD NEW HELLO [RUNS] [NEW_INIT_ARGS]

Each binary gets a fresh workspace (UCS_NOW fixed); status, consult and
report are run RUNS times each (default 200), old, new and HELLO
alternating call by call so all three see the same machine. Prints the
median wall time of each (fork/exec to exit) and the ratios new/old and
new/HELLO. HELLO is any program that prints one line and exits (make
bench-compare builds one). NEW_INIT_ARGS (e.g. "--model v2") are given to
the new binary's init.
"""
import subprocess, time, os, sys, tempfile, statistics, json
old, new, hello = sys.argv[1], sys.argv[2], sys.argv[3]
N = int(sys.argv[4]) if len(sys.argv) > 4 else 200
extra_new = sys.argv[5].split() if len(sys.argv) > 5 and sys.argv[5] else []
env = dict(os.environ, UCS_NOW="2026-11-24T12:00:00Z")
def ws(binary, initargs=()):
    d = tempfile.mkdtemp() + "/ws"
    subprocess.run([binary, "--workspace", d, "init", *initargs], env=env, capture_output=True, check=True)
    return d
wo, wn = ws(old), ws(new, extra_new)
calls = {
  "status": (["status"], None),
  "consult": (["consult", "--context", "research competitor pricing on the web"], None),
  "report": (["report"], b'{"action": "read", "outcome": "ok", "success": "success"}'),
}
def t(binary, w, args, stdin):
    s = time.perf_counter()
    subprocess.run([binary, "--workspace", w, *args], input=stdin, env=env, capture_output=True)
    return (time.perf_counter() - s) * 1000
res = {}
for name, (args, stdin) in calls.items():
    a, b, h = [], [], []
    for i in range(N):
        a.append(t(old, wo, args, stdin)); b.append(t(new, wn, args, stdin))
        s = time.perf_counter(); subprocess.run([hello], capture_output=True); h.append((time.perf_counter()-s)*1000)
    ma, mb, mh = statistics.median(a), statistics.median(b), statistics.median(h)
    print(f"{name:8s} old {ma:.2f} ms  new {mb:.2f} ms  new/old {mb/ma:.3f}  hello {mh:.2f} ms  new/hello {mb/mh:.2f}x")

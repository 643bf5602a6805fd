#!/usr/bin/env python3
"""What ucs exec adds to a wrapped command's wall time, side by side.

Usage: scripts/bench_exec.py UCS [RUNS]

A fresh workspace (UCS_NOW fixed); RUNS times (default 200) the bare
command (`true`, then `sh -c 'echo x'`) and the same command wrapped in
`ucs exec --action read --`, alternating call by call so both see the same
machine. Prints the median wall time of each (fork/exec to exit) and the
median added by exec. The wrapped call classifies, queues the observation
(one fsync) and commits the report (the workspace's commit), so it costs
about one report call more than the command; with --async it only queues
(the next changing call commits it), in a workspace of its own.
"""
import subprocess, time, os, sys, tempfile, statistics
ucs = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 200
env = dict(os.environ, UCS_NOW="2026-11-24T12:00:00Z")
def fresh():
    ws = tempfile.mkdtemp() + "/ws"
    subprocess.run([ucs, "--workspace", ws, "init"], env=env, capture_output=True, check=True)
    return ws
# Two workspaces: a synchronous exec would otherwise also apply the
# observation the asynchronous one before it queued.
ws, wsq = fresh(), fresh()
def t(argv):
    s = time.perf_counter()
    subprocess.run(argv, env=env, capture_output=True)
    return (time.perf_counter() - s) * 1000
for cmd in (["true"], ["sh", "-c", "echo x"]):
    bare, wrapped, queued = [], [], []
    for i in range(N):
        bare.append(t(cmd))
        wrapped.append(t([ucs, "--workspace", ws, "exec", "--action", "read", "--result-file", os.devnull, "--", *cmd]))
        queued.append(t([ucs, "--workspace", wsq, "exec", "--async", "--action", "read", "--result-file", os.devnull, "--", *cmd]))
    mb, mw, mq = statistics.median(bare), statistics.median(wrapped), statistics.median(queued)
    print(f"{' '.join(cmd):12s} bare {mb:.2f} ms  ucs exec {mw:.2f} ms (added {mw - mb:.2f})  ucs exec --async {mq:.2f} ms (added {mq - mb:.2f})")

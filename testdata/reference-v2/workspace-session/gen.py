#!/usr/bin/env python3
"""Record the Python reference's answers to script.jsonl, run on a copy of
../workspace (a workspace the reference wrote), into expected.jsonl.

Usage: REF=/path/to/reference/src python3 gen.py
Needs faketime (Debian package) to pin the reference's wall clock. The
reference's code is not part of this repository."""
import json, os, shutil, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
ref = os.environ.get("REF") or sys.exit("set REF to the reference's src directory (holding bridge.py)")
ws = os.path.join(tempfile.mkdtemp(), "ws")
shutil.copytree(os.path.join(here, "..", "workspace"), ws)
for root, dirs, files in os.walk(ws):
    for name in dirs + files:
        os.chmod(os.path.join(root, name), 0o755 if name in dirs else 0o644)

with open(os.path.join(here, "script.jsonl")) as f, open(os.path.join(here, "expected.jsonl"), "w") as out:
    for line in f:
        if not line.strip():
            continue
        step = json.loads(line)
        stdin = "" if step["stdin"] is None else json.dumps(step["stdin"])
        cmd = ["faketime", "2026-11-21 21:05:00", "python3", os.path.join(ref, "bridge.py"), "--workspace", ws] + step["args"]
        res = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True, env=dict(os.environ, TZ="UTC"))
        # The workspace lives in a random temporary directory: name it $WORKSPACE.
        out.write(json.dumps(json.loads(res.stdout), ensure_ascii=False).replace(ws, "$WORKSPACE") + "\n")
print("wrote expected.jsonl; the reference's workspace is", ws)

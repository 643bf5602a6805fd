import json, subprocess, sys, os
ucs, ws, script = sys.argv[1], sys.argv[2], sys.argv[3]
env = dict(os.environ, UCS_NOW="2026-11-24T12:00:00Z", UCS_SNAPSHOT_EVERY="25")
for line in open(script):
    step = json.loads(line)
    args = step["args"]
    stdin = json.dumps(step["stdin"]) if step["stdin"] is not None else ""
    r = subprocess.run([ucs, "--workspace", ws] + args, input=stdin.encode(), env=env, capture_output=True)
    if r.returncode != 0:
        print(args, r.returncode, r.stdout[:300], file=sys.stderr)

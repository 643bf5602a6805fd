#!/usr/bin/env python3
"""Regenerate the expected values of the torusfield formula tests.

Every expected number comes from the Python reference itself
(torusfield_kernel.py, v0.2.1) run on small inputs; floats are stored as
float.hex() strings, which are exact, so the Go tests can compare bit for bit.
Run with the reference on the path:

    python3 gen.py [/path/to/dir/holding/torusfield_kernel.py]

(default /tmp/ref/src). The Go tests only read the JSON files this writes;
they never need python3. Written for CPython 3.11: from 3.12 on sum() of
floats is compensated (Neumaier), which the reference's sums would pick up.
"""
import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else "/tmp/ref/src")

import torusfield_kernel as tk  # noqa: E402

H = float.hex


def hexes(xs):
    return [H(float(x)) for x in xs]


def write(name, doc):
    doc = {"python": sys.version.split()[0], "generator": "gen.py", **doc}
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=True)
        f.write("\n")


# =============================================================================
# Grid: index, diffuse, decay, inject
# =============================================================================

FIELDS = ["energy", "memory", "salience", "context_energy"]


def varied(rng, n):
    """Values of every scale and sign, with a few exact specials."""
    specials = [0.0, -0.0, 1.0, -2.5, 1e-300, 5e-324, 1e6, 0.1, 1 / 3]
    out = []
    for i in range(n):
        if i % 4 == 3:
            out.append(specials[(i // 4) % len(specials)])
        else:
            out.append(rng.uniform(-1, 1) * 10 ** rng.randint(-3, 3))
    return out


def state(tb, pb, values=None):
    size = tb * pb
    fields = {f: [0.0] * size for f in FIELDS}
    for f, vals in (values or {}).items():
        fields[f] = list(vals)
    return tk.TorusState(theta_bins=tb, phi_bins=pb, fields=fields, ports={}, t=0)


def gen_grid():
    rng = random.Random(20240601)
    index = []
    for tb, pb in [(3, 4), (4, 5), (1, 1), (24, 32)]:
        s = state(tb, pb)
        for th, ph in [(0, 0), (tb - 1, pb - 1), (tb, pb), (-1, -1), (-tb, -pb),
                       (-tb - 1, 2 * pb + 1), (7, -13), (-100, 100),
                       (2**62, -(2**62)), (-(2**63), 2**63 - 1)]:
            index.append({"theta_bins": tb, "phi_bins": pb, "theta": th, "phi": ph,
                          "index": s.idx(th, ph)})

    diffuse = []
    for name, tb, pb, field, tm, pm in [
        ("3x4", 3, 4, "energy", 0.06, 0.04),
        ("4x5", 4, 5, "energy", 0.06, 0.04),
        ("4x5-strong", 4, 5, "memory", 0.3, 0.2),
        ("3x4-context", 3, 4, "context_energy", 0.06, 0.04),
        ("1x5", 1, 5, "energy", 0.06, 0.04),
        ("5x1", 5, 1, "salience", 0.1, 0.05),
        ("2x2", 2, 2, "energy", 0.06, 0.04),
        ("1x1", 1, 1, "energy", 0.06, 0.04),
    ]:
        init = varied(rng, tb * pb)
        s = state(tb, pb, {field: init})
        steps = []
        for _ in range(4):
            s.diffuse(field, tm, pm)
            steps.append(hexes(s.fields[field]))
        diffuse.append({"name": name, "theta_bins": tb, "phi_bins": pb, "field": field,
                        "theta_mix": H(tm), "phi_mix": H(pm), "init": hexes(init),
                        "steps": steps})

    decay = []
    for name, tb, pb, rate, times in [("3x4-0.995", 3, 4, 0.995, 3),
                                      ("4x5-0.5", 4, 5, 0.5, 2),
                                      ("3x4-0", 3, 4, 0.0, 1),
                                      ("2x3-1.1", 2, 3, 1.1, 2)]:
        init = {f: varied(rng, tb * pb) for f in FIELDS}
        s = state(tb, pb, init)
        for _ in range(times):
            s.decay(rate)
        decay.append({"name": name, "theta_bins": tb, "phi_bins": pb, "rate": H(rate),
                      "times": times, "init": {f: hexes(v) for f, v in init.items()},
                      "want": {f: hexes(s.fields[f]) for f in FIELDS}})

    inject = []
    seq = [("cap_a", 1.45, 0, 0, "energy"), ("cap_b", 0.3, 2, 3, "energy"),
           ("cap_a", 1.45, 0, 0, "energy"), ("ev", -0.7, -1, -1, "memory"),
           ("cap_a", 0.1, 3, 4, "energy"), ("ctx_x", 2.0, 1, 5, "context_energy"),
           ("cap_b", 1e-17, 2, 3, "energy"), ("ev", 0.7, 5, -9, "salience"),
           ("artifact_mass", 0.15 * 2.2, 1, 3, "memory")]
    s = state(3, 4)
    for port, mag, th, ph, f in seq:
        s.inject(port, mag, th, ph, f)
    inject.append({"name": "3x4", "theta_bins": 3, "phi_bins": 4,
                   "injections": [{"port": p, "magnitude": H(m), "theta": th, "phi": ph,
                                   "field": f} for p, m, th, ph, f in seq],
                   "ports": [[k, H(v)] for k, v in s.ports.items()],
                   "fields": {f: hexes(s.fields[f]) for f in FIELDS}})
    write("grid.json", {"index": index, "diffuse": diffuse, "decay": decay, "inject": inject})


# =============================================================================
# Executor
# =============================================================================

def gen_executor():
    rng = random.Random(7)
    cases = []
    for tb, pb in [(3, 4), (4, 5)]:
        energy = [rng.uniform(0, 5) for _ in range(tb * pb)]
        energy[0] = 0.0
        s = state(tb, pb, {"energy": energy})
        for (th, ph), (u, c), (rs, cw, uw) in [
            ((0, 0), (0.95, 0.05), (1.0, 0.35, 0.65)),
            ((1, 2), (0.5, 0.2), (1.0, 0.35, 0.65)),
            ((tb - 1, pb - 1), (0.775, 0.325), (1.0, 0.35, 0.65)),
            ((-1, 7), (0.1, 0.9), (1.0, 0.35, 0.65)),
            ((25, -3), (0.0, 0.0), (1.0, 0.35, 0.65)),
            ((2, 1), (0.88, 0.4), (1.5, 0.2, 0.8)),
        ]:
            edge = tk.Edge(src="a", dst="b", u=u, c=c)
            ex = tk.Executor(reward_scale=rs, coherence_weight=cw, utility_weight=uw)
            reward, cost = ex.run(s, edge, th, ph)
            cases.append({"theta_bins": tb, "phi_bins": pb, "energy": hexes(energy),
                          "theta": th, "phi": ph, "u": H(u), "c": H(c),
                          "reward_scale": H(rs), "coherence_weight": H(cw),
                          "utility_weight": H(uw), "reward": H(reward), "cost": H(cost)})
    write("executor.json", {"cases": cases})


# =============================================================================
# Router: base score, advisory score, softmax pick
# =============================================================================

def graph(nodes, edges):
    g = tk.EdgeGraph(nodes=list(nodes),
                     edges=[tk.Edge(src=e["src"], dst=e["dst"], w=e["w"], u=e["u"],
                                    c=e["c"], n=e["n"]) for e in edges])
    g.reindex()
    return g


def E(src, dst, u=0.5, c=0.2, n=0.1, w=0.0):
    return {"src": src, "dst": dst, "u": u, "c": c, "n": n, "w": w}


def enc_edges(edges):
    return [{"src": e["src"], "dst": e["dst"], "u": H(e["u"]), "c": H(e["c"]),
             "n": H(e["n"]), "w": H(e["w"])} for e in edges]


class unrounded:
    """Make the reference's round() the identity while scoring, so that
    score_outgoing returns the values before its presentation rounding."""

    def __enter__(self):
        tk.round = lambda x, n=None: x

    def __exit__(self, *exc):
        del tk.round


PICK_GRAPHS = {
    # a has four edges of distinct scores; b two tied edges; c one edge;
    # d no out-edge at all (pick returns -1 and draws nothing).
    "small": (["a", "b", "c", "d"], [
        E("a", "b", 0.9, 0.1, 0.1, 0.3), E("a", "c", 0.6, 0.4, 0.2, -0.4),
        E("a", "d", 0.75, 0.3, 0.0, 0.0), E("b", "a", 0.5, 0.2, 0.1, 0.0),
        E("b", "c", 0.5, 0.2, 0.1, 0.0), E("c", "a", 0.8, 0.2, 0.1, 1.2),
        E("a", "a", 0.1, 0.9, 0.0, -2.5),
    ]),
    # every edge leaving x ties exactly.
    "ties": (["x", "y", "z", "w"], [
        E("x", "y"), E("x", "z"), E("x", "w"), E("y", "x"), E("z", "x"), E("w", "x"),
    ]),
    # extreme weights: exp underflows to 0 for all but the best edge.
    "steep": (["p", "q", "r"], [
        E("p", "q", w=2.5), E("p", "r", w=-2.5), E("q", "p", w=-2.5), E("q", "r", w=2.5),
        E("r", "p"), E("r", "q", w=0.0001),
    ]),
}


def gen_router():
    base = []
    rng = random.Random(99)
    for params in [{}, {"alpha": 2.0, "beta": 0.5, "gamma": 1.0}]:
        r = tk.Router(**params)
        for _ in range(8):
            e = E("s", "t", rng.random(), rng.random(), rng.random(), rng.uniform(-2.5, 2.5))
            bias = rng.choice([0.0, rng.uniform(0, 5)])
            g = graph(["s", "t"], [e])
            p = tk.PolicyKernel(edge_bias={0: bias} if bias else {})
            with unrounded():
                (sc,) = r.score_outgoing(g, p, "s")
            base.append({"router": {k: H(v) for k, v in params.items()}, "edge": enc_edges([e])[0],
                         "bias": H(bias), "base": H(sc["base_score"])})

    score = []
    nodes, edges = PICK_GRAPHS["small"]
    g = graph(nodes, edges)
    for ctx, pen, bias in [
        (None, None, {}),
        ({"b": 0.7, "c": 1e-3, "zzz": 5.0}, None, {0: 1.25}),
        ({}, {"d": 2.0}, {2: 0.4, 1: 3.0}),
        ({"b": 0.3, "c": 0.9, "d": 0.01, "a": 0.2}, {"b": 0.1, "a": 1.5}, {6: 0.01}),
    ]:
        with unrounded():
            out = tk.Router().score_outgoing(g, tk.PolicyKernel(edge_bias=dict(bias)), "a",
                                             context_energy=ctx, penalty_energy=pen)
        out.sort(key=lambda x: x["edge_index"])
        score.append({"graph": "small", "src": "a", "context": ctx, "penalty": pen,
                      "context_hex": {k: H(v) for k, v in (ctx or {}).items()},
                      "penalty_hex": {k: H(v) for k, v in (pen or {}).items()},
                      "bias": [[k, H(v)] for k, v in bias.items()],
                      "want": [{"edge": o["edge_index"], "to": o["to"], "base": H(o["base_score"]),
                                "context_boost": H(o["context_boost"]), "penalty": H(o["penalty"]),
                                "score": H(o["score"])} for o in out]})

    pick = []
    for gname, mode, start, seeds, temp, bias in [
        ("small", "walk", "a", [1337, 0, 7], 1.0, {}),
        ("small", "fixed", "a,b,d,c", [1337, 42], 1.0, {}),
        ("small", "walk", "a", [1337], 0.5, {0: 1.5, 5: 0.2}),
        ("small", "fixed", "a", [3], 0.001, {}),
        ("small", "fixed", "b,a", [11], 25.0, {}),
        ("ties", "walk", "x", [1337, 2**32 + 5], 1.0, {}),
        ("ties", "fixed", "x", [5], 1.0, {}),
        ("steep", "walk", "p", [1337, 8], 1.0, {}),
        ("steep", "fixed", "r,p", [99], 0.01, {}),
    ]:
        nodes, edges = PICK_GRAPHS[gname]
        for seed in seeds:
            g = graph(nodes, edges)
            pol = tk.PolicyKernel(edge_bias=dict(bias))
            r = tk.Router(temperature=temp)
            prng = random.Random(seed)
            srcs = start.split(",")
            picks, cur = [], srcs[0]
            for i in range(50):
                src = cur if mode == "walk" else srcs[i % len(srcs)]
                ei = r.pick(prng, g, pol, src)
                picks.append(ei)
                if mode == "walk":
                    cur = g.edges[ei].dst if ei >= 0 else srcs[0]
            pick.append({"graph": gname, "mode": mode, "start": srcs, "seed": seed,
                         "temperature": H(temp), "bias": [[k, H(v)] for k, v in bias.items()],
                         "picks": picks, "next_random": H(prng.random())})

    graphs = {k: {"nodes": n, "edges": enc_edges(e)} for k, (n, e) in PICK_GRAPHS.items()}
    # math.exp on the arguments the softmax feeds it (s - max <= 0).
    exp_args = sorted({-x / 64 for x in range(0, 64 * 12)} | {-1e-17, -0.3, -745.0, -746.0, -700.5})
    exps = [[H(x), H(math.exp(x))] for x in exp_args]
    write("router.json", {"graphs": graphs, "base": base, "score": score, "pick": pick, "exp": exps})


# =============================================================================
# Harvester
# =============================================================================

def step(t, src, dst, ei, reward, cost=0.0, novelty=0.1):
    return tk.TraceStep(t=t, src=src, dst=dst, edge_index=ei, reward=reward, cost=cost,
                        novelty=novelty)


def filler(t0, n, nodes=("f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9"), ei0=900):
    """n steps over many nodes and edges, none frequent enough to count."""
    return [step(t0 + i, "src", nodes[i % len(nodes)], ei0 + i, 0.1, 0.5) for i in range(n)]


def periodic(ei, times, dst="per", reward=0.2, cost=0.3):
    return [step(t, "s", dst, ei, reward, cost) for t in times]


def by_t(steps):
    return sorted(steps, key=lambda s: s.t)


def harvester_cases():
    cases = []
    # --- wormholes ---
    log = ([step(i, "a", "b", 0, 0.95, 0.05) for i in range(5)]
           + [step(5 + i, "b", "c", 1, 0.95, 0.05) for i in range(6)] + filler(11, 10))
    cases.append(("wormhole-5-vs-6-hits", log))
    # 0.35 is not the mean of any six floats summed left to right (no sum
    # divides back to it), so the exact case takes eight hits: 1.4 + 1.4 is
    # 8·0.35 exactly. Six nets of exactly 0.35 sum to a bit over 2.1 and
    # their mean is just over 0.35.
    at = [0.7, 0.7, 1.4, 0.0, 0.0, 0.0, 0.0, 0.0]
    under = [0.7, 0.7, 1.4, 0.0, 0.0, 0.0, 0.0, -(2.0 ** -51)]
    six = [0.35] * 6
    assert sum(at) / 8 == 0.35 and sum(under) / 8 == math.nextafter(0.35, 0)
    assert sum(six) / 6 == math.nextafter(0.35, 1)
    log = ([step(i, "a", "b", 3, v) for i, v in enumerate(at)]
           + [step(10 + i, "a", "c", 4, v) for i, v in enumerate(under)]
           + [step(20 + i, "a", "d", 5, v) for i, v in enumerate(six)]
           + [step(30 + i, "a", "e", 6, 0.85, 0.5) for i in range(6)] + filler(40, 10))
    cases.append(("wormhole-mean-at-and-under-0.35", log))
    r = random.Random(5)
    log = []
    for i in range(60):
        ei = [7, 2, 11, 2, 7][i % 5] if i % 3 else 5
        log.append(step(i, "n%d" % (i % 4), "m%d" % (i % 3), ei, r.uniform(0.3, 1.2), r.uniform(0.0, 0.4)))
    cases.append(("wormhole-order-and-rounding", log))
    # --- attractors ---
    log = (filler(0, 27) + [step(100 + i, "s", "X", 50, 0.1, 0.5) for i in range(6)]
           + [step(200 + i, "s", "Y", 51, 0.1, 0.5) for i in range(7)])
    assert len(log) == 40 and 6 / 40 == 0.15
    cases.append(("attractor-freq-exactly-0.15", log))
    log = [step(i, "s", "A", 60, 0.1, 0.5) for i in range(5)] + [step(5 + i, "s", "B", 61, 0.1, 0.5) for i in range(6)]
    cases.append(("attractor-count-5-vs-6", log))
    log = (filler(0, 38, ei0=800) + [step(40 + i, "s", "R", 70 + i, 0.1, 0.5) for i in range(10)]
           + [step(60 + i, "s", "Q", 90 + i, 0.1, 0.5) for i in range(16)])
    assert len(log) == 64
    cases.append(("attractor-frequency-rounding", log))
    names = ["é", "☃", "😀", 'a"b', "back\\slash", "\u2028", "\x01", "\x7f", "</script>", "\uffff", "z"]
    for k, chunk in enumerate([names[:5], names[5:]]):
        log = [step(i, "s", chunk[i % len(chunk)], i % 7, 0.1, 0.5) for i in range(7 * len(chunk))]
        cases.append(("attractor-names-%d" % k, log))
    # --- resonances ---
    times = list(range(0, 19 * 3, 3))[:19]
    cases.append(("resonance-19-steps", [step(t, "s", "d%d" % (t % 2), 8, 0.2, 0.3) for t in times]))
    times = list(range(0, 20 * 3, 3))
    cases.append(("resonance-20-steps", [step(t, "s", "d%d" % (t % 5), 8, 0.2, 0.3) for t in times]))
    log = by_t(periodic(12, [2 + 3 * i for i in range(8)]) + filler(1000, 14))
    cases.append(("resonance-perfect-period", log))
    iv_under, iv_over = [9, 31, 31, 31, 31, 31], [5, 27, 27, 27, 27, 27, 27, 27]
    iv_at = [13, 7, 13, 7, 13, 7]
    logs = []
    for ei, ivs in [(20, iv_under), (21, iv_over), (22, iv_at)]:
        ts = [ei]
        for iv in ivs:
            ts.append(ts[-1] + iv)
        logs += periodic(ei, ts, dst="d%d" % ei)
    cases.append(("resonance-cv-around-0.3", by_t(logs + filler(2000, 20))))
    log = by_t(periodic(30, [4 * i for i in range(5)], "p5") + periodic(31, [1 + 4 * i for i in range(6)], "p6")
               + periodic(32, [2 + 4 * i for i in range(4)], "p4") + periodic(33, [3, 9, 15], "p3") + filler(3000, 10))
    cases.append(("resonance-occurrences-3-4-5-6", log))
    log = (periodic(40, [7] * 6, "same") + periodic(41, [0, 0, 0, 1, 1, 1], "half")
           + periodic(42, [0, 1, 2, 3, 4, 5], "one") + filler(10, 10))
    cases.append(("resonance-mean-interval-under-1", log))
    ivs = [3] * 27 + [2] * 13
    r = random.Random(3)
    r.shuffle(ivs)
    ts = [0]
    for iv in ivs:
        ts.append(ts[-1] + iv)
    assert (ts[-1] - ts[0]) / 40 == 2.675 and round(2.675, 2) == 2.67
    log = by_t(periodic(55, ts, "pr") + filler(500, 30))
    cases.append(("resonance-period-rounding-2.675", log))
    # --- intervals whose variance a fused multiply-add (variance += d*d
    # compiled to one FMA, as on arm64 or GOAMD64=v3) changes: the cv and
    # the score then differ in the last bit ---
    logs = []
    for ei, ivs in [(70, [12, 10, 12, 10, 12, 11, 15]), (71, [25, 26, 23, 27, 28, 24, 28])]:
        ts = [ei]
        for iv in ivs:
            ts.append(ts[-1] + iv)
        logs += periodic(ei, ts, dst="fma%d" % ei)
    cases.append(("resonance-fma-sensitive", by_t(logs + filler(4000, 10))))
    # --- counts n whose log(1 + n) Go's math.Log misses by one ulp ---
    # (glibc's log, which the reference calls, is correctly rounded there.)
    log = (periodic(60, [5 * i for i in range(13)], "thirteen", reward=0.9, cost=0.1)
           + filler(100, 20))
    cases.append(("bug-log-ulp-13", log))
    # --- the empty log and real logs of the reference ---
    cases.append(("empty", []))
    eng = tk.TorusfieldEngine.make_default()
    eng.phi_period = 10**9  # no φ-cycle: keep the raw trace
    eng.run(300)
    cases.append(("reference-ring-300", eng.trace.theta_log))
    eng = tk.TorusfieldEngine.boot_aegis()
    eng.phi_period = 10**9
    eng.run(520)  # the θ log keeps the last 500
    cases.append(("reference-aegis-520", eng.trace.theta_log))
    return cases


def enc_artifact(a):
    return {"id": a.id, "kind": a.kind, "payload": json.dumps(a.payload, ensure_ascii=False),
            "score": H(a.score), "created_t": a.created_t}


def gen_harvester():
    out = []
    for name, log in harvester_cases():
        tl = tk.TraceLog(theta_log=list(log))
        hv = tk.Harvester()
        now = 1000 + len(log)
        g = tk.EdgeGraph(nodes=[], edges=[])
        allc = hv.detect_all(tl, now, g)
        out.append({
            "name": name, "now": now,
            "log": [[s.t, s.src, s.dst, s.edge_index, H(s.reward), H(s.cost), H(s.novelty)] for s in log],
            "wormholes": [enc_artifact(a) for a in hv.detect_wormholes(tl, now)],
            "attractors": [enc_artifact(a) for a in hv.detect_attractors(tl, now, g)],
            "resonances": [enc_artifact(a) for a in hv.detect_resonances(tl, now)],
            "all": [a.id for a in allc],
            "validated": [a.id for a in hv.validate(allc)],
        })
    # validate on its own: only a positive score passes (NaN does not).
    arts = [tk.Artifact(id="s%d" % i, kind="wormhole", payload={}, score=s, created_t=0)
            for i, s in enumerate([1.0, 0.0, -0.0, -1e-300, 5e-324, float("nan"), float("inf")])]
    validate = {"scores": [H(a.score) if a.score == a.score else "nan" for a in arts],
                "kept": [a.id for a in tk.Harvester().validate(arts)]}
    logs = [[n, H(math.log(1 + n))] for n in range(0, 501)]
    write("harvester.json", {"cases": out, "validate": validate, "log1p_int": logs})


# =============================================================================
# Policy
# =============================================================================

def gen_policy():
    edges = [E("a", "b"), E("a", "c"), E("b", "c"), E("c", "a"), E("b", "a"), E("d", "a"),
             E("b", "d"), E("c", "d")]
    nodes = ["a", "b", "c", "d", "e"]
    # the biases at the edge of deletion after one decay
    keep = 1e-6 / 0.995
    while keep * 0.995 >= 1e-6:
        keep = math.nextafter(keep, 0)
    keep = math.nextafter(keep, 1)
    assert keep * 0.995 >= 1e-6 and math.nextafter(keep, 0) * 0.995 < 1e-6
    drop = math.nextafter(keep, 0)

    def W(ei, score):
        return {"kind": "wormhole", "payload": {"edge_index": ei}, "score": score}

    def A(node, score):
        return {"kind": "attractor", "payload": {"node": node}, "score": score}

    cases = [
        ("wormhole-cap-5", {}, {}, [[W(3, 7.3), W(0, 1.2)], [W(3, 5.0), W(0, 4.999)], [W(0, 5.0000001)]]),
        ("attractor-cap-2", {}, {}, [[A("b", 10.0), A("c", 1.5)], [A("b", 6.6666), A("b", 6.7)],
                                     [A("e", 3.0), A("zz", 3.0)]]),
        ("negative-scores-clamp-to-0", {}, {}, [[W(1, -3.0), A("a", -1.0)], [W(1, 0.0)]]),
        ("insertion-order", {}, {5: 1.0, 2: 0.5}, [[W(0, 0.5), W(5, 0.25), A("c", 1.0)],
                                                    [W(2, 0.0)], [], [W(7, 0.1), W(4, 0.1)]]),
        ("deletion-edge-1e-6", {}, {0: keep, 1: drop, 2: -keep, 3: -drop, 4: 2e-6},
         [[], [], [W(1, drop)], [W(1, 1e-9)]]),
        ("ignored-kinds-and-payloads", {}, {6: 0.3},
         [[{"kind": "resonance", "payload": {"edge_index": 6}, "score": 1.0},
           {"kind": "wormhole", "payload": {"node": "a"}, "score": 1.0},
           {"kind": "attractor", "payload": {"edge_index": 1}, "score": 1.0},
           {"kind": "insight", "payload": {"edge_index": 1, "node": "a"}, "score": 1.0}]]),
        ("same-edge-twice", {}, {}, [[W(2, 0.7), W(2, 0.7), A("b", 1.0), W(2, 9.0)]]),
        ("custom-decay-and-cap", {"bias_decay": 0.5, "bias_cap": 1.5}, {3: 4e-6},
         [[W(3, 2.0), W(1, 1.0)], [], [], [A("a", 100.0)]]),
        ("long-decay", {}, {0: 3.0, 1: 1e-3}, [[]] * 30),
    ]
    out = []
    g = graph(nodes, edges)
    for name, params, init, updates in cases:
        pol = tk.PolicyKernel(edge_bias=dict(init), **params)
        after = []
        for up in updates:
            arts = [tk.Artifact(id="x", kind=a["kind"], payload=a["payload"], score=a["score"], created_t=0)
                    for a in up]
            pol.update(arts, g)
            after.append([[k, H(v)] for k, v in pol.edge_bias.items()])
        out.append({"name": name, "params": {k: H(v) for k, v in params.items()},
                    "init": [[k, H(v)] for k, v in init.items()],
                    "updates": [[{"kind": a["kind"], "payload": a["payload"], "score": H(a["score"])}
                                 for a in up] for up in updates],
                    "after": after})
    write("policy.json", {"graph": {"nodes": nodes, "edges": enc_edges(edges)}, "cases": out})


# =============================================================================
# PP
# =============================================================================

def gen_pp():
    seqs = [
        ("from-zero", {}, [(0, []), (1, [("wormhole", 0.5)]), (50, [("wormhole", 1.0), ("attractor", 2.0)]),
                           (73, [("wormhole", 1.0), ("attractor", 2.0), ("resonance", 3.5)]),
                           (500, [("insight", 0.1), ("wormhole", 1.0), ("attractor", 2.0), ("resonance", 3.5)]),
                           (25, [("attractor", -4.0)]), (10, [])]),
        ("from-loaded", {"capacity": 0.42, "optionality": 0.9, "resilience": 0.7312, "throughput": 1.0,
                         "truth": 0.61, "trust": 0.82},
         [(50, [("wormhole", 6.0)]), (49, [("wormhole", 5.0)]), (51, [("resonance", 4.999999)])] * 3),
    ]
    out = []
    for name, init, evals in seqs:
        pp = tk.PPEngine()
        for k, v in init.items():
            pp.vector[k] = v
        after = []
        for steps, arts in evals:
            tl = tk.TraceLog(theta_log=[step(i, "a", "b", 0, 0.5) for i in range(steps)])
            pp.evaluate([tk.Artifact(id="x", kind=k, payload={}, score=s, created_t=0) for k, s in arts], tl)
            after.append({"vector": [[k, H(v)] for k, v in pp.vector.items()], "health": H(pp.health_score())})
        out.append({"name": name, "init": [[k, H(v)] for k, v in init.items()],
                    "evals": [{"steps": s, "artifacts": [[k, H(x)] for k, x in a]} for s, a in evals],
                    "after": after})
    write("pp.json", {"cases": out})


# =============================================================================
# Manifest → edges
# =============================================================================

def gen_manifest():
    small = {
        "capabilities": [
            {"name": "read", "connects_to": ["analysis", "write", "read", "édit"], "u": 0.95, "c": 0.05},
            {"name": "write", "connects_to": ["docs", "analysis", "docs"], "u": 0.9, "c": 0.25,
             "n": 0.3, "meta": {"team": "io", "tags": ["a", 1]}},
            {"name": "édit", "connects_to": ["self", "Zeta"], "u": 1, "c": 0},
            {"name": "Zeta", "connects_to": [], "n": 0.0},
            {"name": "😀", "connects_to": ["analysis", "\uffff"], "u": 0.25, "c": 0.75},
            {"name": "\uffff", "connects_to": ["😀", "read"]},
        ],
        "semantic_map": {
            "analysis": ["write", "Zeta", "read", "😀", "édit"],
            "docs": ["write", "read"],
            "self": ["édit"],
            "write": ["Zeta"],  # a capability name wins over the label
            "unused": [],
        },
    }
    direct = {"capabilities": [{"name": "b", "connects_to": ["a", "c"]},
                               {"name": "a", "connects_to": ["b", "c", "a"], "u": 0.3},
                               {"name": "c", "connects_to": ["a"], "c": 0.9, "n": 1.0}]}
    aegis = {"capabilities": tk.AEGIS_CAPABILITY_MANIFEST, "semantic_map": tk.AEGIS_SEMANTIC_MAP}
    # Without a semantic_map, the reference (from_config, from_capabilities)
    # falls back on AEGIS_SEMANTIC_MAP, so Aegis labels still resolve.
    fallback = {"capabilities": [{"name": "read", "connects_to": ["analysis", "planning"]},
                                 {"name": "web_fetch", "connects_to": ["read"]},
                                 {"name": "sessions_spawn", "connects_to": ["scouting"]}]}
    out = []
    for name, man, smap in [("small", small, small["semantic_map"]), ("direct-no-semantic-map", direct, {}),
                            ("aegis", aegis, tk.AEGIS_SEMANTIC_MAP), ("bug-aegis-fallback", fallback, None)]:
        # For "direct" an absent semantic_map would also fall back on
        # AEGIS_SEMANTIC_MAP, which none of its labels is in: {} is the same.
        g = tk.EdgeGraph.from_capabilities(man["capabilities"], smap)
        out.append({"name": name, "manifest": man, "nodes": g.nodes,
                    "edges": [{"src": e.src, "dst": e.dst, "u": H(e.u), "c": H(e.c), "n": H(float(e.n)),
                               "meta": json.dumps(e.meta, ensure_ascii=False)} for e in g.edges]})

    # An integer novelty travels unchanged into the state file (edges[].n and
    # theta_tail[].novelty): the reference writes 0 where a float would be 0.0.
    ints = {"capabilities": [{"name": "a", "connects_to": ["b"], "u": 1, "c": 0, "n": 0},
                             {"name": "b", "connects_to": ["a"], "u": 0.5, "c": 0.5, "n": 1}]}
    floats = {"capabilities": [{"name": "a", "connects_to": ["b"], "u": 1, "c": 0, "n": 0.0},
                               {"name": "b", "connects_to": ["a"], "u": 0.5, "c": 0.5, "n": 1.0}]}
    states = []
    for name, man in [("float-novelty", floats), ("int-novelty", ints)]:
        eng = tk.TorusfieldEngine.from_capabilities(man["capabilities"], {}, theta_bins=3, phi_bins=4)
        eng.run(24)  # before the first φ-cycle: no artifact score (see "bug-log-ulp-13")
        states.append({"name": name, "manifest": man, "steps": 24, "theta_bins": 3, "phi_bins": 4,
                       "state": json.dumps(eng.export_state(), indent=2, ensure_ascii=False)})
    write("manifest.json", {"cases": out, "states": states})


# =============================================================================
# Restore: a negative cursor position
# =============================================================================

def gen_cursor():
    eng = tk.TorusfieldEngine.boot_aegis()
    eng.run(10)
    st = json.loads(json.dumps(eng.export_state()))
    st["cursor"]["theta"], st["cursor"]["phi"] = -5, -40
    again = tk.TorusfieldEngine.boot_aegis()
    again.import_state(st)
    path = []
    for _ in range(3):
        again.step_theta()
        path.append([again.cursor_theta, again.cursor_phi])
    write("cursor.json", {"boot_steps": 10, "cursor": [-5, -40], "after_steps": path})


# =============================================================================
# A long boot: the integrity digest every 25 steps up to the documented 1000
# =============================================================================

def gen_boot():
    eng = tk.TorusfieldEngine.boot_aegis()
    digests = []
    for _ in range(40):
        eng.run(25)
        digests.append([eng.state.t, tk._sha256(tk._stable_json(eng.export_state()))])
    write("boot.json", {"seed": 1337, "digests": digests})


if __name__ == "__main__":
    gen_grid()
    gen_executor()
    gen_router()
    gen_harvester()
    gen_policy()
    gen_pp()
    gen_manifest()
    gen_cursor()
    gen_boot()

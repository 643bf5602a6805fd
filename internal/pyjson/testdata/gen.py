#!/usr/bin/env python3
"""Generates the expected outputs that internal/pyjson's tests compare against.

Run from this directory with CPython 3.11:  python3 gen.py
It is deterministic (fixed seed), so rerunning it rewrites identical files.

floats.txt    <16 hex digits of the IEEE bits> <json.dumps(x)>   (repr for finite x)
round.txt     first line: ndigits N1 N2 ...; then per input: repr(x) repr(round(x, N1)) repr(round(x, N2)) ...
              (±inf where Python raises OverflowError)
roundtrip.jsonl  {"in": doc, "canonical": ..., "indent": ...} per line, where
              canonical = json.dumps(json.loads(doc), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
              indent    = json.dumps(json.loads(doc), indent=2, ensure_ascii=False)
intkeys.txt   <keys, space separated, in insertion order> TAB <canonical dump of {int(k): i}>
"""
import json
import math
import random
import struct

rng = random.Random(20240611)


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def from_bits(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def canonical(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def indent(v):
    return json.dumps(v, indent=2, ensure_ascii=False)


# ---------------------------------------------------------------- floats
floats = [
    0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.1 + 0.2, 1e-05, 1e16, 1e15, 5e-324, -5e-324,
    1.7976931348623157e308, -1.7976931348623157e308, 2.2250738585072014e-308,
    123.456, 1.5, 100.0, 1e22, 1e23, 1e21, 1e100, 1e-100, 1e-300, 1e300,
    0.0001, 0.00011, 9.999999999999999e-05, 0.001, 0.01, 1e-4, 1.5e-7, 1.5e-5,
    1e-07, 1.234e-06, 0.000123456789, 9.99999e-05,
    999999999999999.9, 9999999999999998.0, 9999999999999999.0, 1e16 - 2, 1e16 + 2,
    1.0000000000000002e16, 123456789012345680.0, 12345678901234567.0, 1234567890123456.7,
    4503599627370496.0, 9007199254740992.0, 9007199254740993.0, 2.0 ** 63, 2.0 ** 64,
    3.141592653589793, 2.718281828459045, 1 / 3, 2 / 3, 22.508069460802194,
    float("nan"), float("inf"), float("-inf"), 0.5, 0.25, 1e-323, 4.9406564584124654e-324,
    2.225073858507201e-308, 1.1, 2.675, 1e+16 * 1.5, 1.7976931348623157e308 / 3,
]
# every power of ten and neighbours across the fixed/scientific thresholds
for e in range(-8, 20):
    p = 10.0 ** e
    floats += [p, math.nextafter(p, 0), math.nextafter(p, math.inf), 1.5 * p, 9.5 * p, -p]
for _ in range(1000):  # random bit patterns
    floats.append(from_bits(rng.getrandbits(64)))
for _ in range(1000):  # random magnitudes and digit counts
    m = rng.random() * 10
    e = rng.randint(-30, 30)
    x = m * 10.0 ** e
    if rng.random() < 0.3:
        x = round(x, rng.randint(0, 6))
    if rng.random() < 0.5:
        x = -x
    floats.append(x)
for _ in range(200):  # short decimal literals
    floats.append(float("%d.%de%d" % (rng.randint(0, 999), rng.randint(0, 99), rng.randint(-25, 25))))

with open("floats.txt", "w") as f:
    for x in floats:
        f.write("%016x %s\n" % (bits(x), json.dumps(x)))

# ---------------------------------------------------------------- round
round_inputs = [
    0.125, 2.675, 0.5, 1.5, 2.5, -0.5, 0.0005, 1.00005, -0.00001, 0.0, -0.0, 0.375,
    -2.5, 3.5, 0.045, 1.005, 1.015, 5e-324, 1.7976931348623157e308, 1e300, 1e-300,
    123456789.123456789, 0.1 + 0.2, 1 / 3, -1 / 3, 1e16, 1.25, -1.25, 0.0625,
    float("nan"), float("inf"), float("-inf"), 22.508069460802194, 0.95, 0.05, 9.995,
]
for _ in range(1000):
    round_inputs.append(rng.uniform(-1000, 1000))
for _ in range(600):
    round_inputs.append((rng.random() - 0.5) * 10.0 ** rng.randint(-12, 12))
for _ in range(200):  # exact binary ties at various places
    round_inputs.append(rng.randint(-100000, 100000) / 2 ** rng.randint(1, 12))
for _ in range(200):
    round_inputs.append(from_bits(rng.getrandbits(64)))

ROUND_NDIGITS = list(range(0, 11)) + [15, 17, 20, 300, 323, 324, 400, -1, -2, -3, -308, -309]
with open("round.txt", "w") as f:
    f.write("ndigits %s\n" % " ".join(str(n) for n in ROUND_NDIGITS))
    for x in round_inputs:
        out = [repr(x)]
        for n in ROUND_NDIGITS:
            try:
                r = round(x, n)
            except OverflowError:  # Python raises; pyjson.Round returns the signed infinity
                r = math.copysign(math.inf, x)
            out.append(repr(r))
        f.write(" ".join(out) + "\n")


# ---------------------------------------------------------------- round trip
docs = [
    '{}', '[]', '0', '-0', '1', '-1', '1.0', '-0.0', '0.0', '1e5', '1E5', '1e-5', '1.5E+3',
    '"x"', '""', 'true', 'false', 'null', '[1, 2.0, 3e0]',
    '9223372036854775807', '-9223372036854775808', '[9223372036854775807, -9223372036854775808]',
    '{"b": 1, "a": 2, "c": {"z": [], "y": {}}}',
    '{"a": 1, "b": 2, "a": 3}',
    '{"k": 1, "k": {"x": 1}, "j": 0, "k": [1]}',
    '{"a": {"x": 1, "x": 2}, "b": [{"q": 1, "q": null}]}',
    ' \t\n\r[ 1 , 2 ]\r\n ',
    '["\\u00e9", "é", "\\ud83d\\ude00", "😀", "\\u2028\\u2029", "\\u0000\\u001f\\u007f"]',
    '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
    '"\\u00E9\\u00e9\\uABCD"',
    '{"ключ": "значение", "中文": ["字", 1.25], "Z": 0, "a": 0, "é": 0, "ä": 0}',
    '{"\\ud83d\\ude00": 1, "\\uffff": 2, "\\ue000": 3, "z": 4}',
    '[[[[[[[[[[]]]]]]]]]]',
    '[{}, [], {"a": []}, [{}]]',
    '[1e308, 1.7976931348623157e308, 5e-324, 1e-400, 0.1, 100000000000000000000.0, 1e16, 1e15]',
    '[123456789012345678901234567890e-10, 0.30000000000000004, 1.00000000000000000001]',
    '{"nested": {"deep": {"deeper": {"deepest": [1, [2, [3, {"x": "y"}]]]}}}}',
    '[-1.5e-7, 2.5e+20, -0.0001, 0.00001]',
    '"tab\\there"',
    '{"": "", " ": " "}',
    '{"1": 1, "10": 2, "9": 3, "a": 4, "A": 5, "_": 6}',
]


def rand_str():
    alphabet = ['a', 'b', 'z', 'A', ' ', '"', '\\', '/', '\n', '\t', '\x00', '\x1f', '\x7f', '\x08', '\x0c',
                'é', 'ß', '中', '😀', '\u2028', '\ufeff', '\uffff', '\U0010ffff', '0', '9', '\r']
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))


def rand_value(depth):
    r = rng.random()
    if depth > 3 or r < 0.5:
        c = rng.randint(0, 6)
        if c == 0:
            return None
        if c == 1:
            return rng.random() < 0.5
        if c == 2:
            return rng.randint(-2 ** 63, 2 ** 63 - 1) if rng.random() < 0.3 else rng.randint(-1000, 1000)
        if c == 3:
            return from_bits(rng.getrandbits(64) & ~(0x7ff << 52) | (rng.randint(1, 2046) << 52))
        if c == 4:
            return float(rng.randint(-100, 100))
        return rand_str()
    if r < 0.75:
        return [rand_value(depth + 1) for _ in range(rng.randint(0, 5))]
    return {rand_str(): rand_value(depth + 1) for _ in range(rng.randint(0, 5))}


for _ in range(300):
    v = rand_value(0)
    style = rng.randint(0, 2)
    if style == 0:
        doc = json.dumps(v)
    elif style == 1:
        doc = json.dumps(v, indent=rng.choice([None, 1, 4, "\t"]), ensure_ascii=False)
    else:
        doc = json.dumps(v, separators=(" ,\n", "\t:  "), ensure_ascii=rng.random() < 0.5)
    docs.append(doc)

with open("roundtrip.jsonl", "w", encoding="utf-8") as f:
    for d in docs:
        v = json.loads(d)
        f.write(json.dumps({"in": d, "canonical": canonical(v), "indent": indent(v)}, ensure_ascii=True) + "\n")

# ---------------------------------------------------------------- int keys
intkey_cases = [
    ["10", "9", "100"],
    ["3", "-1", "0", "-20", "2"],
    ["100000000000000000000", "99", "-100000000000000000000", "5"],
    ["1"],
    [],
]
with open("intkeys.txt", "w") as f:
    for keys in intkey_cases:
        d = {int(k): i for i, k in enumerate(keys)}
        f.write("%s\t%s\n" % (" ".join(keys), canonical(d)))

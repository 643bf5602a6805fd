#!/usr/bin/env python3
"""Regenerate the reference vectors for torusfield.Random.

The Go port of random.Random must reproduce CPython's draws bit for bit, so the
expected values are recorded straight from CPython and stored as float.hex()
strings (exact, no decimal rounding). Run from any directory:

    python3 gen.py

The Go tests read the JSON files only; they never need python3.
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Seeds cover: the zero key ([0]), a one-word key, a two-word key with a small
# high word, and the largest uint64 (two full words).
SEEDS = [0, 1, 1337, 2**32 + 5, 2**64 - 1]
FLOATS = 10_000
BITS_SEED = 1337
BITS = 1_000


def write(name, doc):
    path = os.path.join(HERE, name)
    with open(path, "w") as f:
        json.dump(doc, f, indent=0)
        f.write("\n")


def main():
    for seed in SEEDS:
        r = random.Random(seed)
        write(
            f"random_{seed}.json",
            {
                "python": sys.version.split()[0],
                "seed": str(seed),  # string: 2**64-1 does not fit a JSON double
                "random_hex": [r.random().hex() for _ in range(FLOATS)],
            },
        )
    r = random.Random(BITS_SEED)
    write(
        f"getrandbits32_{BITS_SEED}.json",
        {
            "python": sys.version.split()[0],
            "seed": str(BITS_SEED),
            "getrandbits32": [r.getrandbits(32) for _ in range(BITS)],
        },
    )


if __name__ == "__main__":
    main()

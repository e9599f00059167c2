#!/usr/bin/env python3
"""Reproduces: a 6-of-49 lottery draw in Python,

    random.seed(seed)
    for each draw: random.sample(range(1, 50), 6)

Expected verdict: FAIR (no bias detected). random.sample draws without
replacement with exactly uniform indices (_randbelow), so every 6-subset is
equally likely, in a uniformly random order.

Deterministic for a seed: YES (for a given CPython version).

Contract: python3 py-lotto.py count seed
Prints `count` lines of 6 numbers from 1..49, separated by single spaces.
experiments/data/lotto-6-49.txt is `python3 py-lotto.py 50000 49`.
"""
import random
import sys


def main():
    try:
        count, seed = (int(a) for a in sys.argv[1:3])
        if len(sys.argv) != 3 or count < 0:
            raise ValueError
    except ValueError:
        sys.exit("usage: py-lotto.py count seed  (count >= 0)")
    rng = random.Random(seed)
    out = sys.stdout
    for _ in range(count):
        out.write(" ".join(map(str, rng.sample(range(1, 50), 6))) + "\n")


if __name__ == "__main__":
    main()

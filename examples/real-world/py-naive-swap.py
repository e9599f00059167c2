#!/usr/bin/env python3
"""Reproduces: the naive swap shuffle, a classic mistake,

    for i in range(n):
        j = random.randrange(n)     # should be randrange(i, n) or randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]

Expected verdict: BIASED. There are n^n equally likely swap sequences but n!
permutations, and n! does not divide n^n for n > 2, so some permutations are
necessarily more likely than others (e.g. at n = 10, value 1 lands at
position 0 about 1.29x as often as it should). The random numbers themselves
are perfect (random.randrange is exactly uniform), so all bias is in the
algorithm: a good control.

Deterministic for a seed: YES (for a given CPython version). The full 64-bit
seed is used (random.seed accepts big ints), seeded once at start; every deal
starts from a fresh deck 0..n-1.

Contract: python3 py-naive-swap.py n count seed
Prints `count` lines, items separated by single spaces, written in chunks.
"""
import os
import random
import sys


def main():
    try:
        n, count, seed = (int(a) for a in sys.argv[1:4])
        if len(sys.argv) != 4 or n < 1 or count < 0 or not 0 <= seed < 2**64:
            raise ValueError
    except ValueError:
        sys.exit("usage: py-naive-swap.py n count seed  (n >= 1, 0 <= seed < 2^64)")
    random.seed(seed)
    randrange = random.randrange
    labels = [str(i) for i in range(n)]
    write = sys.stdout.write
    chunk = []
    for _ in range(count):
        deck = labels[:]
        for i in range(n):
            j = randrange(n)  # the bug being reproduced
            deck[i], deck[j] = deck[j], deck[i]
        chunk.append(" ".join(deck))
        if len(chunk) == 1000:
            write("\n".join(chunk) + "\n")
            chunk.clear()
    if chunk:
        write("\n".join(chunk) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)

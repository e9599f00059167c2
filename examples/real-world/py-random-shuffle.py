#!/usr/bin/env python3
"""Reproduces: Python's standard-library shuffle, seeded once,

    random.seed(seed)
    for each deal: random.shuffle(deck)

Expected verdict: FAIR (no bias detected). random.shuffle is a Fisher-Yates
shuffle whose index comes from _randbelow (rejection sampling on Mersenne
Twister bits), so each step is exactly uniform.

Deterministic for a seed: YES (for a given CPython version). The full 64-bit
seed is used: random.seed accepts arbitrarily large ints. The generator is
seeded once at start and `count` decks are shuffled in sequence; every deal
starts from a fresh deck 0..n-1.

Contract: python3 py-random-shuffle.py n count seed
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
        sys.exit("usage: py-random-shuffle.py n count seed  (n >= 1, 0 <= seed < 2^64)")
    random.seed(seed)
    labels = [str(i) for i in range(n)]  # shuffling the strings consumes the same randomness
    write = sys.stdout.write
    chunk = []
    for _ in range(count):
        deck = labels[:]
        random.shuffle(deck)
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
        # The reader has what it needs; exit quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)

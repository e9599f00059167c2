#!/usr/bin/env python3
"""Hand checker for the real-world shuffle programs (not used by the tool).

Usage: PROGRAM n count seed | python3 examples/real-world/check-decks.py n [count]

Checks that every line is a permutation of 0..n-1 written as `a b c` (single
spaces, no leading/trailing space) and, if given, that there are exactly
`count` lines. Prints the number of decks, the number of distinct decks, and
the frequency of each value at position 0 with a chi-square statistic against
the uniform law (df = n-1; a fair shuffle gives about n-1 +- sqrt(2(n-1))).
Exit status 1 on any malformed line.
"""
import sys
from collections import Counter


def main():
    n = int(sys.argv[1])
    want = int(sys.argv[2]) if len(sys.argv) > 2 else None
    expected = set(range(n))
    pos0 = Counter()
    distinct = set()
    lines = 0
    bad = 0
    for raw in sys.stdin.buffer:
        lines += 1
        line = raw.decode("ascii").rstrip("\n")
        parts = line.split(" ")
        ok = len(parts) == n and all(p.isdigit() and (p == "0" or p[0] != "0") for p in parts)
        ok = ok and set(map(int, parts)) == expected
        if not ok:
            bad += 1
            if bad <= 5:
                print(f"line {lines}: not a permutation of 0..{n - 1}: {line[:200]!r}", file=sys.stderr)
            continue
        pos0[int(parts[0])] += 1
        if len(distinct) < 10_000_000:
            distinct.add(line)
    good = lines - bad
    print(f"decks: {lines}, malformed: {bad}, distinct: {len(distinct)}")
    if want is not None and lines != want:
        print(f"expected {want} lines, got {lines}", file=sys.stderr)
        bad += 1
    if good:
        e = good / n
        chi2 = sum((pos0[v] - e) ** 2 / e for v in range(n))
        ratios = " ".join(f"{v}:{pos0[v] / e:.3f}" for v in range(n))
        print(f"position 0 observed/expected: {ratios}")
        print(f"position 0 chi2 = {chi2:.1f} (df = {n - 1})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(0)

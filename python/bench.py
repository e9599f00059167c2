"""Speed of the Python package against its two yardsticks, in one run:

1. ``audit_orders`` on a (T, 52) numpy array against the command line
   reading the same decks from a binary file (``--input FILE --format u32``);
2. ``audit`` of a Python shuffle against a bare Python loop calling the same
   function on fresh decks: the overhead per trial the package adds.

Run from the repository root after ``cargo build --release`` and
``pip install ./python``::

    python python/bench.py [--decks 1000000] [--trials 200000]

The command line is ``target/release/shuffle-audit`` (or ``$SHUFFLE_AUDIT_BIN``).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# The installed package, not its source folder beside this script (which
# lacks the compiled module).
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
import shuffle_audit  # noqa: E402


def cpu_model() -> str:
    """The CPU model from /proc/cpuinfo, with the core count."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()} ({os.cpu_count()} cores)"
    except OSError:
        pass
    return f"{platform.processor() or 'unknown CPU'} ({os.cpu_count()} cores)"


def best_of(runs: int, f) -> float:
    """The fastest of ``runs`` timings of ``f()``, in seconds."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def bench_orders(decks: int, n: int, cli: Path, runs: int) -> None:
    rng = np.random.default_rng(7)
    array = rng.permuted(np.tile(np.arange(n, dtype=np.uint32), (decks, 1)), axis=1)
    as_int64 = array.astype(np.int64)
    print(f"1. audit_orders of {decks:,} decks of {n} against the CLI reading them (u32 records)")
    t_u32 = best_of(runs, lambda: shuffle_audit.audit_orders(array))
    t_i64 = best_of(runs, lambda: shuffle_audit.audit_orders(as_int64))
    print(f"   audit_orders(uint32 array, read in place)  {t_u32:7.3f} s  {decks / t_u32 / 1e6:6.2f}M decks/s")
    print(f"   audit_orders(int64 array, converted)       {t_i64:7.3f} s  {decks / t_i64 / 1e6:6.2f}M decks/s")
    if not cli.exists():
        print(f"   (no command line at {cli}: build it with cargo build --release to compare)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "decks.u32"
        array.tofile(path)
        command = [str(cli), "audit", "--input", str(path), "--format", "u32", "-n", str(n), "--json", "-q"]
        t_cli = best_of(runs, lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL))
    print(f"   CLI --input decks.u32 --format u32          {t_cli:7.3f} s  {decks / t_cli / 1e6:6.2f}M decks/s")
    print(f"   ratio CLI / audit_orders: {t_cli / t_u32:.2f} (uint32), {t_cli / t_i64:.2f} (int64); above 1 = the package is faster")


def bench_function(trials: int, n: int, runs: int) -> None:
    def shuffle(deck, rng):
        rng.shuffle(deck)

    def bare() -> None:
        rng = random.Random(1)
        for _ in range(trials):
            deck = list(range(n))
            shuffle(deck, rng)

    print(f"2. audit of a Python shuffle (random.shuffle), {trials:,} trials of n = {n}")
    t_bare = best_of(runs, bare)
    t_audit = best_of(runs, lambda: shuffle_audit.audit(shuffle, n, trials=trials))
    per_bare = t_bare / trials * 1e6
    per_audit = t_audit / trials * 1e6
    print(f"   bare loop (fresh list, call)  {per_bare:6.2f} µs per trial")
    print(f"   shuffle_audit.audit           {per_audit:6.2f} µs per trial")
    print(f"   overhead {per_audit - per_bare:+.2f} µs per trial, ratio {per_audit / per_bare:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=1_000_000)
    parser.add_argument("--trials", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3, help="best of this many timings")
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    cli = Path(os.environ.get("SHUFFLE_AUDIT_BIN", root / "target" / "release" / "shuffle-audit"))
    print(f"CPU: {cpu_model()}; Python {sys.version.split()[0]}, numpy {np.__version__}")
    bench_orders(args.decks, 52, cli, args.runs)
    for n in (52, 10):
        bench_function(args.trials, n, args.runs)


if __name__ == "__main__":
    main()

"""The package's results equal the command line's for the same decks and
samples: the same counts, tests, p-values and verdicts."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import shuffle_audit as sa
from test_orders import naive_swaps, permutations

ROOT = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("SHUFFLE_AUDIT_BIN", ROOT / "target" / "release" / "shuffle-audit"))

if not CLI.exists():
    if os.environ.get("SHUFFLE_AUDIT_BIN"):
        raise FileNotFoundError(f"SHUFFLE_AUDIT_BIN={CLI} does not exist")
    pytest.skip(f"no command line at {CLI} (cargo build --release)", allow_module_level=True)

# What differs between two runs of the same counts: timing and names.
VOLATILE = {"subject", "seconds", "per_second", "threads", "feed", "drawn"}


def cli_summary(*args: str) -> dict:
    """The summary the command line prints with --json."""
    out = subprocess.run(
        [str(CLI), "audit", *args, "--json", "-q"], check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out)


def same(python: sa.Result, cli: dict) -> None:
    ours = {k: v for k, v in python.summary["audits"][0].items() if k not in VOLATILE}
    theirs = {k: v for k, v in cli["audits"][0].items() if k not in VOLATILE}
    assert ours == theirs


@pytest.mark.parametrize("make", [permutations, naive_swaps], ids=["fair", "naive-swap"])
def test_text_decks(tmp_path, make):
    decks = make(20_000, 10)
    path = tmp_path / "decks.txt"
    path.write_text("".join(" ".join(map(str, row)) + "\n" for row in decks))
    cli = cli_summary("--input", str(path))
    for python in (sa.audit_orders(decks), sa.audit_orders(decks.tolist())):
        same(python, cli)
        assert np.array_equal(python.counts, np.array(cli["audits"][0]["counts"]))
    assert cli["audits"][0]["verdict"] == ("no-bias-detected" if make is permutations else "biased")


def test_binary_records(tmp_path):
    decks = naive_swaps(30_000, 12).astype(np.uint32)
    path = tmp_path / "decks.u32"
    decks.tofile(path)
    same(sa.audit_orders(decks), cli_summary("--input", str(path), "--format", "u32", "-n", "12"))


def test_labels(tmp_path):
    rng = np.random.default_rng(6)
    labels = ["AS", "KH", "QD", "JC", "10S", "9H", "8D"]
    decks = [[labels[i] for i in rng.permutation(7)] for _ in range(15_000)]
    path = tmp_path / "labels.txt"
    path.write_text("".join(",".join(d) + "\n" for d in decks))
    same(sa.audit_orders(decks), cli_summary("--input", str(path)))


def test_a_python_shuffle_equals_its_decks_read_by_the_command_line(tmp_path):
    """A function's decks, printed and read back, give the same counts."""
    import random

    from conftest import naive_swap

    rng = random.Random(11)
    printed = []
    for _ in range(20_000):
        deck = list(range(9))
        naive_swap(deck, rng)
        printed.append(deck)
    path = tmp_path / "printed.txt"
    path.write_text("".join(" ".join(map(str, d)) + "\n" for d in printed))
    cli = cli_summary("--input", str(path))
    python = sa.audit(naive_swap, 9, trials=20_000, seed=11)
    assert np.array_equal(python.counts, np.array(cli["audits"][0]["counts"]))
    ours = {t["test"]: t["p"] for t in python.tests}
    theirs = {t["test"]: t["p"] for t in cli["audits"][0]["tests"]}
    assert ours == theirs
    assert python.verdict == "biased" and cli["audits"][0]["verdict"] == "biased"


def test_samples(tmp_path):
    rng = np.random.default_rng(7)
    draws = [sorted(rng.choice(12, 4, replace=False).tolist()) for _ in range(20_000)]
    path = tmp_path / "draws.txt"
    path.write_text("".join(" ".join(map(str, d)) + "\n" for d in draws))
    same(sa.audit_samples(draws, 12), cli_summary("--input", str(path), "--kind", "sample", "-n", "12"))


def test_picks(tmp_path):
    picks = np.random.default_rng(8).choice(3, size=20_000, p=[0.2, 0.3, 0.5])
    path = tmp_path / "picks.txt"
    path.write_text("".join(f"{p}\n" for p in picks))
    cli = cli_summary("--input", str(path), "--kind", "pick", "--weights", "1,1,2")
    python = sa.audit_picks(picks.tolist(), weights=[1, 1, 2])
    same(python, cli)
    assert python.verdict == "biased"


def test_the_version_is_the_command_lines():
    printed = subprocess.run(
        [str(CLI), "--version"], check=True, capture_output=True, text=True
    ).stdout
    # `shuffle-audit 0.1.0 (commit ...)`: the number is the package's.
    assert printed.split()[1] == sa.__version__

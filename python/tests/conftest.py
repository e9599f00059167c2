"""Shared shuffles and helpers of the package's tests. Every audit is
seeded, so each assertion on a verdict is deterministic and can fail."""

from __future__ import annotations

import random

import pytest


def durstenfeld(deck: list, rng: random.Random) -> None:
    """A correct Fisher–Yates (Durstenfeld) shuffle."""
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]


def naive_swap(deck: list, rng: random.Random) -> None:
    """The naive swap: every position swapped with any position."""
    n = len(deck)
    for i in range(n):
        j = rng.randrange(n)
        deck[i], deck[j] = deck[j], deck[i]


def off_by_one(deck: list, rng: random.Random) -> None:
    """Sattolo's mistake: ``randrange(i)`` never leaves a card in place."""
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randrange(i)
        deck[i], deck[j] = deck[j], deck[i]


def riffle(deck: list, rng: random.Random) -> list:
    """One Gilbert-Shannon-Reeds riffle of the list `deck`."""
    cut = sum(rng.random() < 0.5 for _ in deck)
    left, right, out = deck[:cut], deck[cut:], []
    while left or right:
        if rng.randrange(len(left) + len(right)) < len(left):
            out.append(left.pop(0))
        else:
            out.append(right.pop(0))
    return out


def riffled_and_cut(deck: list, rng: random.Random) -> list:
    """A shuffling machine that riffles four times, then cuts: far too few
    riffles for a shoe (pairs of the starting order survive)."""
    for _ in range(4):
        deck = riffle(deck, rng)
    cut = rng.randrange(len(deck))
    return deck[cut:] + deck[:cut]


@pytest.fixture
def report_dir(tmp_path):
    """A fresh folder for the reports of failing assertions."""
    return tmp_path / "report"

# pytest's own fixture for running pytest on a test file: how a failing
# assertion's report reads to the user (test_front.py).
pytest_plugins = ["pytester"]

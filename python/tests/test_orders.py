"""Permutations already made: numpy arrays and iterables of decks."""

from __future__ import annotations

import random

import numpy as np
import pytest

import shuffle_audit as sa
from conftest import riffled_and_cut


def permutations(trials: int, n: int, seed: int = 1, dtype=np.uint32) -> np.ndarray:
    """`trials` uniform permutations of 0..n-1, one per row."""
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(np.arange(n, dtype=dtype), (trials, 1)), axis=1)


def naive_swaps(trials: int, n: int, seed: int = 2) -> np.ndarray:
    """`trials` naive-swap shuffles of 0..n-1, vectorised over rows."""
    rng = np.random.default_rng(seed)
    decks = np.tile(np.arange(n), (trials, 1))
    rows = np.arange(trials)
    for i in range(n):
        j = rng.integers(0, n, trials)
        decks[rows, i], decks[rows, j] = decks[rows, j], decks[rows, i].copy()
    return decks


def test_a_fair_array_passes_and_every_dtype_and_form_counts_alike():
    decks = permutations(20_000, 10)
    results = [
        sa.audit_orders(decks),
        sa.audit_orders(decks.astype(np.int64)),
        sa.audit_orders(decks.astype(np.uint8)),
        sa.audit_orders(np.asfortranarray(decks)),
        sa.audit_orders(decks.tolist()),
        sa.audit_orders(iter(decks.tolist())),
        sa.audit_orders(tuple(map(tuple, decks + 1))),
    ]
    first = results[0]
    assert first.verdict == "no bias detected"
    assert first.trials == 20_000 and first.n == 10
    for other in results[1:]:
        assert np.array_equal(other.counts, first.counts)
        assert other.tests == first.tests
        assert other.verdict == first.verdict


def test_a_biased_array_is_caught():
    result = sa.audit_orders(naive_swaps(20_000, 10), name="numpy naive swap")
    assert result.verdict == "biased"
    assert result.name == "numpy naive swap"
    assert result.seen_by[0] == "position-value"


def test_a_loader_that_repeats_its_order_every_epoch_is_caught():
    order = list(np.random.default_rng(3).permutation(10))
    epochs = (list(order) for _ in range(20_000))
    result = sa.audit_orders(epochs)
    assert result.verdict == "biased"


def test_trials_reads_only_the_first_decks():
    result = sa.audit_orders(permutations(30_000, 6), trials=12_000)
    assert result.trials == 12_000
    assert result.counts.sum() == 12_000 * 6


def test_labels_are_read_as_the_command_line_reads_them():
    rng = np.random.default_rng(4)
    cards = [f"{r}{s}" for s in "SHDC" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"]][:8]
    decks = [[cards[i] for i in rng.permutation(8)] for _ in range(20_000)]
    result = sa.audit_orders(decks, order=cards)
    assert result.verdict == "no bias detected"
    assert result.n == 8
    # The starting order makes index i the card cards[i].
    assert np.array_equal(result.counts, sa.audit_orders(np.array(
        [[cards.index(c) for c in deck] for deck in decks])).counts)


def test_a_shoe_is_audited_by_kind():
    rng = np.random.default_rng(5)
    shoe = list("AABBCC")
    decks = [[shoe[i] for i in rng.permutation(6)] for _ in range(20_000)]
    result = sa.audit_orders(decks)
    assert result.counts.shape == (6, 3)
    assert result.verdict == "no bias detected"
    # The order tests of a shoe run here as on the command line (no known
    # starting order for letters: no successor test).
    assert sorted(t["test"] for t in result.tests) == ["adjacency", "arrangement", "position-kind", "serial"]


def test_a_riffled_and_cut_shoe_is_caught_by_which_card_follows_which():
    rng = random.Random(8)
    stacked = [c for _ in range(4) for c in "abcdefghijklm"]
    decks = [riffled_and_cut(stacked, rng) for _ in range(2_000)]
    result = sa.audit_orders(decks)
    assert result.verdict == "biased"
    assert "adjacency" in result.seen_by
    assert "position-kind" not in result.seen_by
    assert " followed by " in result.largest_deviation


@pytest.mark.parametrize(
    "decks, message",
    [
        ([[0, 1, 2], [0, 0, 1]], 'decks:2: "0" appears twice'),
        ([[0, 1, 2], [0, 1]], "decks:2: expected 3 items, found 2"),
        ([[0, 1, 2], [0, 1, 5]], "decks:2: "),
        (np.array([[0, 1, 2], [0, 1, 3]], dtype=np.uint32), "decks: record 2: value 3 is not one of the 3 items of record 1"),
        (np.array([[0, 1, 2], [0, 1, -1]]), "decks: record 2: value -1 is not one of the 3 items of record 1"),
        ([[0, 1, 2], 7], "expected a sequence of items, found int"),
        ([["a b", "c"]], "cannot be read as one item"),
        (5, "expected a 2-D integer array (trials, n) or an iterable of decks, got int"),
    ],
)
def test_bad_input_raises_value_error_in_the_command_lines_words(decks, message):
    with pytest.raises(ValueError) as caught:
        sa.audit_orders(decks)
    assert message in str(caught.value)


def test_n_must_match():
    with pytest.raises(ValueError, match="n = 4 was given, but the array's rows hold 3 items"):
        sa.audit_orders(np.array([[0, 1, 2]]), n=4)
    with pytest.raises(ValueError, match="expected 4 items, found 3"):
        sa.audit_orders([[0, 1, 2]], n=4)

"""What the package asks is the library's request: n, trials, weights and
arrays are checked, read and refused exactly as the command line reads
them, in Python's words. Each test reproduces a defect of issue 36."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

import shuffle_audit as sa
from conftest import durstenfeld


def never_called(deck, rng):
    raise AssertionError("the shuffle must not run for a refused request")


@pytest.mark.parametrize(
    "n, message",
    # -3 is read as the command line reads `-n -3`: not a count at all.
    [(1, "n = 1 is too small"), (0, "n = 0 is too small"), (-3, "bad n '-3'")],
)
def test_a_deck_of_fewer_than_two_items_is_refused_at_once(n, message):
    start = time.monotonic()
    with pytest.raises(ValueError, match=message):
        sa.default_trials(n)
    with pytest.raises(ValueError, match=message):
        sa.audit(never_called, n)
    with pytest.raises(ValueError, match=message):
        sa.assert_fair(never_called, n)
    assert time.monotonic() - start < 5


def test_default_trials_are_the_librarys():
    assert sa.default_trials(10) == 18_500
    assert sa.default_trials(52) == 480_598


def test_a_shoe_as_an_array_and_as_a_list_give_one_answer():
    rng = random.Random(5)
    shoe = [v for v in range(4) for _ in range(3)]
    decks = []
    for _ in range(6_000):
        deck = list(shoe)
        rng.shuffle(deck)
        decks.append(deck)
    as_list = sa.audit_orders(decks)
    as_array = sa.audit_orders(np.array(decks, dtype=np.int64))
    as_small = sa.audit_orders(np.array(decks, dtype=np.uint8))
    for other in (as_array, as_small):
        assert other.verdict == as_list.verdict
        assert other.tests == as_list.tests
        assert np.array_equal(other.counts, as_list.counts)
    assert as_list.counts.shape == (12, 4)
    assert as_list.verdict != "biased"


@pytest.mark.parametrize(
    "array, got",
    [
        (np.zeros((10, 4)), "got float64"),
        (np.zeros((10, 4), dtype=bool), "got bool"),
        (np.zeros((10, 4, 2), dtype=np.int32), "got a 3-D array of int32"),
        (np.arange(8), "got a 1-D array of int64"),
    ],
)
def test_arrays_that_are_not_decks_are_refused(array, got):
    with pytest.raises(ValueError, match=r"expected a 2-D integer array \(trials, n\), " + got):
        sa.audit_orders(array)


def test_decimal_weights_are_proportions_as_on_the_command_line():
    picks = np.random.default_rng(4).choice(2, size=20_000, p=[0.1, 0.9])
    as_shares = sa.audit_picks(picks, weights=[0.1, 0.9])
    as_counts = sa.audit_picks(picks, weights=[1, 9])
    assert as_shares.verdict == as_counts.verdict == "no bias detected"
    assert as_shares.tests == as_counts.tests
    assert sa.default_sample_trials(weights=[0.1, 0.9]) == sa.default_sample_trials(
        weights=[1, 9]
    )


def test_suggestions_are_written_as_python_writes_them(report_dir):
    with pytest.raises(AssertionError) as caught:
        sa.assert_fair(durstenfeld, 52, trials=200, report_dir=report_dir)
    assert "(trials=480598)" in str(caught.value)
    assert ".trials(" not in str(caught.value) and "-t " not in str(caught.value)


def test_an_inconclusive_samplers_record_states_its_trials():
    rng = random.Random(6)
    draws = [rng.sample(range(49), 6) for _ in range(2_500)]
    result = sa.audit_samples(draws, 49)
    assert result.verdict == "inconclusive"
    record = result.summary["audits"][0]
    assert record["kind"] == "sampler"
    assert record["inconclusive_reason"]
    assert record["trials_for_verdict"] > 2_500
    # Draws handed over are all there are: the advice is what to give, not
    # a trials option that cannot add to them.
    needed = f"{record['trials_for_verdict']:,}"
    assert f"give at least {needed} samples: only 2,500 were given" in result.failure_message
    assert "trials=" not in result.failure_message


def test_a_sampler_asked_for_more_items_than_n_is_refused_before_it_is_called():
    # The sampler was once called, then blamed: "expected 11 items ...
    # found 3".
    def never_sampled(rng):
        raise AssertionError("the sampler must not run for a refused request")

    for ordered in (False, True):
        with pytest.raises(
            ValueError, match=r"^k=11: cannot take 11 distinct items of a population of n=10$"
        ):
            sa.audit_samples(never_sampled, 10, 11, trials=100, ordered=ordered)


def test_refusals_name_options_as_python_spells_them(tmp_path):
    # Once the command line's words: "--base '2'", "--categories nope.csv".
    with pytest.raises(ValueError, match=r"^base='2': items are numbered from 0 or from 1"):
        sa.audit_samples([[0, 1, 2]] * 10, 10, base=2)
    nope = str(tmp_path / "nope.csv")
    with pytest.raises(OSError, match=r"^categories=.*nope\.csv: cannot read it \(no such file\)$"):
        sa.audit(never_called, 10, categories=nope)
    # One line, without the run of spaces a string continuation left.
    with pytest.raises(ValueError, match="categories=cards: your function's decks") as refused:
        sa.audit(never_called, 10, categories="cards")
    assert "  " not in str(refused.value)

"""Shuffles written in Python: assert_fair and audit."""

from __future__ import annotations

import random

import numpy as np
import pytest

import shuffle_audit as sa
from conftest import durstenfeld, naive_swap, off_by_one


def test_default_trials_are_rusts():
    assert [sa.default_trials(n) for n in (5, 10, 52)] == [10_000, 18_500, 480_598]


@pytest.mark.parametrize(
    "shuffle, rng",
    [
        (durstenfeld, "random"),
        (lambda deck, rng: rng.shuffle(deck), "random"),
        (lambda deck, rng: rng.sample(deck, len(deck)), "random"),
        (lambda deck, rng: rng.permutation(deck), "numpy"),
        (lambda deck, rng: rng.shuffle(deck), "numpy"),
    ],
    ids=["durstenfeld", "random.shuffle", "random.sample", "Generator.permutation", "Generator.shuffle"],
)
def test_fair_shuffles_pass(shuffle, rng):
    result = sa.assert_fair(shuffle, 10, rng=rng)
    assert result.verdict == "no bias detected"
    assert result.trials == 18_500
    assert result.could_detect.endswith("in a cell")


def test_the_naive_swap_is_caught(report_dir):
    with pytest.raises(AssertionError) as caught:
        sa.assert_fair(naive_swap, 10, report_dir=report_dir)
    message = str(caught.value)
    assert message.startswith("naive_swap is biased (n = 10, 18,500 shuffles, seed 20261121)")
    assert "decisive test position-by-value" in message
    assert "p (adjusted) < 1e-12" in message
    assert f"report: {report_dir / 'report.html'}" in message
    assert (report_dir / "report.html").exists()


def test_the_off_by_one_is_caught(report_dir):
    with pytest.raises(AssertionError, match="off_by_one is biased .*never at position"):
        sa.assert_fair(off_by_one, 10, report_dir=report_dir)
    result = sa.audit(off_by_one, 10)
    assert result.verdict == "biased"
    assert "fixed-points" in result.seen_by
    assert np.all(np.diag(result.counts) == 0)


def test_a_small_run_is_inconclusive_and_says_how_many_trials_it_needs(report_dir):
    with pytest.raises(AssertionError) as caught:
        sa.assert_fair(durstenfeld, 52, trials=200, report_dir=report_dir)
    message = str(caught.value)
    assert "durstenfeld is inconclusive" in message
    assert "about 480,598 trials would make it conclusive (trials=480598)" in message


def test_the_message_is_rusts():
    """The same words as Rust's assert_fair (its failure message)."""
    result = sa.audit(naive_swap, 10)
    assert result.failure_message == (
        "naive_swap is biased (n = 10, 18,500 shuffles, seed 20261121): decisive test "
        f"position-by-value χ², p (adjusted) < 1e-12; {result.failure_message.split('; ', 1)[1]}"
    )


def test_the_same_seed_gives_the_same_counts_and_another_seed_others():
    a = sa.audit(durstenfeld, 8, trials=20_000, seed=3)
    b = sa.audit(durstenfeld, 8, trials=20_000, seed=3)
    c = sa.audit(durstenfeld, 8, trials=20_000, seed=4)
    assert np.array_equal(a.counts, b.counts)
    assert a.tests == b.tests
    assert not np.array_equal(a.counts, c.counts)


def test_counts_and_tests():
    result = sa.audit(durstenfeld, 6, trials=12_000)
    assert result.counts.shape == (6, 6)
    assert (result.counts.sum(axis=0) == 12_000).all()
    assert (result.counts.sum(axis=1) == 12_000).all()
    names = [t["test"] for t in result.tests]
    assert names[0] == "position-value" and "cycles" in names
    assert all(0 <= t["p"] <= 1 for t in result.tests)
    assert 0 <= result.p_adjusted <= 1


def test_a_shuffle_may_return_its_deck_as_a_tuple_or_array():
    result = sa.audit(lambda deck, rng: tuple(rng.sample(deck, len(deck))), 5, trials=10_000)
    assert result.verdict == "no bias detected"


def test_a_shuffle_that_loses_a_card_is_an_error_not_a_verdict():
    def broken(deck, rng):
        deck[0] = deck[1]

    with pytest.raises(ValueError, match=r"broken did not return a permutation: 1 appears twice in \[1, 1, 2, 3, 4\]"):
        sa.audit(broken, 5, trials=10)
    def short(deck, rng):
        deck.pop()

    with pytest.raises(ValueError, match="short did not return a permutation: expected 5 items, found 4"):
        sa.audit(short, 5, trials=10)
    with pytest.raises(ValueError, match="returned 4: a shuffle shuffles its deck in place"):
        sa.audit(lambda deck, rng: deck.pop(), 5, trials=10)
    with pytest.raises(ValueError, match="did not return a permutation: -1 is not an item of 0..n-1"):
        sa.audit(lambda deck, rng: deck.__setitem__(0, -1), 5, trials=10)
    with pytest.raises(ValueError, match="did not return a permutation: 5 is not below n = 5"):
        sa.audit(lambda deck, rng: deck.__setitem__(0, 5), 5, trials=10)
    with pytest.raises(ValueError, match="did not return a permutation: 'a'"):
        sa.audit(lambda deck, rng: deck.__setitem__(0, "a"), 5, trials=10)


def test_an_exception_in_the_shuffle_propagates():
    def failing(deck, rng):
        raise KeyError("mine")

    with pytest.raises(KeyError, match="mine"):
        sa.audit(failing, 5, trials=10)


def test_bad_settings_raise_value_error():
    with pytest.raises(ValueError, match="alpha"):
        sa.audit(durstenfeld, 5, trials=10, alpha=2.0)
    with pytest.raises(ValueError, match="trials must be at least 1"):
        sa.audit(durstenfeld, 5, trials=0)
    with pytest.raises(ValueError, match="rng"):
        sa.audit(durstenfeld, 5, trials=10, rng="nope")


def test_a_notebook_shows_the_verdict_and_the_heatmap():
    result = sa.audit(naive_swap, 10)
    page = result._repr_html_()
    assert "<table" in page and "biased" in page
    assert 'alt="heatmap of naive_swap" src="data:image/png;base64,iVBORw0KGgo' in page
    assert result.heatmap_png().startswith(b"\x89PNG")
    assert "naive_swap: biased" in repr(result)


def test_write_report(tmp_path):
    path = sa.audit(durstenfeld, 6, trials=12_000).write_report(tmp_path / "r")
    assert path == tmp_path / "r" / "report.html"
    assert path.exists() and (tmp_path / "r" / "summary.json").exists()


def test_a_custom_generator_factory():
    result = sa.audit(durstenfeld, 5, trials=10_000, rng=lambda seed: random.Random(seed * 2))
    assert result.verdict == "no bias detected"

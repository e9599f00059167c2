"""Samplers: k of N (in no order or ordered) and weighted picks."""

from __future__ import annotations

import random

import numpy as np
import pytest

import shuffle_audit as sa


def partial_fisher_yates(rng: random.Random) -> list:
    """3 of 10 by a partial Fisher–Yates: fair."""
    items = list(range(10))
    for i in range(3):
        j = rng.randrange(i, 10)
        items[i], items[j] = items[j], items[i]
    return items[:3]


def window(rng: random.Random) -> list:
    """"Pick a start, take the next 3": items 0 and 5 are never together."""
    start = rng.randrange(10)
    return [(start + i) % 10 for i in range(3)]


def test_fair_samplers_pass():
    result = sa.assert_fair_sample(partial_fisher_yates, 10, 3)
    assert result.verdict == "no bias detected"
    assert result.trials == sa.default_sample_trials(10, 3)
    sa.assert_fair_sample(lambda rng: rng.sample(range(10), 3), 10, 3, ordered=True)
    sa.assert_fair_sample(lambda rng: rng.choice(10, 3, replace=False), 10, 3, rng="numpy")


def test_a_biased_sampler_is_caught(report_dir):
    with pytest.raises(AssertionError, match="window is biased"):
        sa.assert_fair_sample(window, 10, 3, report_dir=report_dir)
    result = sa.audit_samples(window, 10, 3)
    assert result.verdict == "biased"
    assert result.counts.shape == (10,)
    assert result.counts.sum() == 3 * result.trials


def test_an_ordered_sampler_whose_slots_are_biased_is_caught():
    sorted_sample = lambda rng: sorted(rng.sample(range(10), 3))  # noqa: E731
    assert sa.audit_samples(sorted_sample, 10, 3).verdict == "no bias detected"
    assert sa.audit_samples(sorted_sample, 10, 3, ordered=True).verdict == "biased"


def test_weighted_picks():
    weights = [1, 2, 3, 4]
    fair = sa.assert_fair_picks(lambda rng: rng.choices(range(4), weights=weights)[0], weights)
    assert fair.verdict == "no bias detected"
    assert fair.trials == sa.default_sample_trials(4, weights=weights)
    uniform = sa.audit_picks(lambda rng: rng.randrange(4), weights=weights)
    assert uniform.verdict == "biased"
    assert "picks" in uniform.seen_by


def test_draws_already_made():
    rng = random.Random(8)
    draws = [rng.sample(range(1, 50), 6) for _ in range(30_000)]
    result = sa.audit_samples(draws, 49)
    assert result.verdict == "no bias detected"
    assert result.summary["audits"][0]["base"] == 1
    picks = np.random.default_rng(9).choice(3, size=20_000, p=[0.25, 0.25, 0.5])
    assert sa.audit_picks(picks, weights=[1, 1, 2]).verdict == "no bias detected"
    assert sa.audit_picks(picks, weights=[1, 1, 1]).verdict == "biased"


@pytest.mark.parametrize(
    "draws, message",
    [
        ([[0, 1, 2], [0, 0, 1]], "draws:2:"),
        ([[0, 1, 2], [0, 1, 10]], "draws:2:"),
        ([[0, 1, 2], [0, 1]], "draws:2:"),
    ],
)
def test_bad_draws_raise_value_error(draws, message):
    with pytest.raises(ValueError, match=message):
        sa.audit_samples(draws, 10)


def test_a_picker_without_weights_or_n_is_refused():
    with pytest.raises(ValueError, match="give weights"):
        sa.audit_picks(lambda rng: 0)


def test_a_notebook_shows_a_samplers_verdict_and_chart():
    page = sa.audit_samples(window, 10, 3)._repr_html_()
    assert "biased" in page and "<img" in page

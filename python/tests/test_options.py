"""Options of the wrong type or form are refused naming the option and the
value, as the command line refuses its flags (the library reads them);
each test reproduces a defect a new user found (weights as a string split
into characters, a sampler's k ignored or a Rust panic, TypeErrors naming
an internal field, a passing run's failure message)."""

from __future__ import annotations

import random

import pytest

import shuffle_audit as sa
from conftest import durstenfeld


def never_called(*args):
    raise AssertionError("the function must not run for a refused request")


def quarter(rng):
    """A fair pick of item 0 one time in four, item 1 otherwise."""
    return 0 if rng.random() < 0.25 else 1


def test_weights_as_a_string_are_read_as_the_command_line_reads_them():
    as_text = sa.audit_picks(quarter, weights="10,30", seed=3, progress=False)
    as_list = sa.audit_picks(quarter, weights=[10, 30], seed=3, progress=False)
    assert as_text.n == 2
    assert as_text.verdict == as_list.verdict == "no bias detected"
    assert as_text.counts.tolist() == as_list.counts.tolist()
    # The same string of a biased picker is caught.
    assert sa.audit_picks(quarter, weights="30,10", seed=3, progress=False).verdict == "biased"
    with pytest.raises(ValueError, match="weight"):
        sa.audit_picks(never_called, weights="10,thirty", progress=False)
    with pytest.raises(TypeError, match="weights: 7 is not"):
        sa.audit_picks(never_called, weights=7, progress=False)


def test_an_order_as_a_string_is_read_as_the_command_line_reads_it():
    decks = [[5, 4, 3, 2, 1, 0]] * 50
    as_text = sa.audit_orders(decks, order="5,4,3,2,1,0", progress=False)
    as_list = sa.audit_orders(decks, order=[5, 4, 3, 2, 1, 0], progress=False)
    assert as_text.n == as_list.n == 6
    assert as_text.counts.tolist() == as_list.counts.tolist()
    # Every deck is the starting order: no shuffle at all.
    assert as_text.counts[0].tolist() == [50, 0, 0, 0, 0, 0]


@pytest.mark.parametrize(
    "kw, error, message",
    [
        ({"n": 10.0}, TypeError, "n: 10.0 is not a whole number"),
        ({"n": "10"}, TypeError, "n: '10' is not a whole number"),
        ({"n": True}, TypeError, "n: True is not a whole number"),
        ({"n": 2**70}, ValueError, "bad n '1180591620717411303424': too large"),
        ({"trials": 1.5}, TypeError, "trials: 1.5 is not a whole number"),
        ({"trials": 2**64}, ValueError, "bad trials '18446744073709551616': too large"),
        ({"trials": 0}, ValueError, "trials must be at least 1"),
        ({"seed": -1}, ValueError, "bad seed '-1': must be a non-negative number"),
        ({"seed": 2**64}, ValueError, "bad seed '18446744073709551616': too large"),
        ({"seed": 1.5}, TypeError, "seed: 1.5 is not a whole number"),
        ({"alpha": "0.01"}, TypeError, "alpha: '0.01' is not a number"),
        ({"deck": ["A", "A", "B"]}, TypeError, r"deck: \['A', 'A', 'B'\] is not a string"),
        ({"until_decisive": True, "max_trials": -5}, ValueError, "bad max_trials '-5'"),
    ],
)
def test_bad_values_are_refused_naming_the_option_and_the_value(kw, error, message):
    kw = {"n": 10, **kw} if "deck" not in kw else kw
    with pytest.raises(error, match=message) as raised:
        sa.audit(never_called, progress=False, **kw)
    assert "Asked" not in str(raised.value) and "argument" not in str(raised.value)


def test_numpy_integers_are_whole_numbers():
    np = pytest.importorskip("numpy")
    result = sa.audit(durstenfeld, np.int64(6), trials=np.uint32(2_000), seed=np.int64(4), progress=False)
    assert (result.n, result.trials) == (6, 2_000)


@pytest.mark.parametrize(
    "kw",
    [{}, {"ordered": True}, {"until_decisive": True}],
)
def test_a_sampler_returning_another_k_than_declared_is_refused(kw):
    two = lambda rng: rng.sample(range(10), 2)  # noqa: E731 (k = 3 declared)
    with pytest.raises(ValueError, match=r"<lambda>:1: expected 3 items \(k = 3, as declared\), found 2"):
        sa.audit_samples(two, 10, 3, trials=100, progress=False, **kw)


def test_a_sampler_whose_k_changes_in_a_later_chunk_is_refused_naming_the_draw():
    calls = [0]

    def drifting(rng):
        calls[0] += 1
        return rng.sample(range(10), 3 if calls[0] <= 65_536 else 2)

    with pytest.raises(ValueError, match="is draw 65537 of the run") as raised:
        sa.audit_samples(drifting, 10, 3, trials=70_000, progress=False)
    assert "expected 3 items (k = 3, as declared), found 2" in str(raised.value)


def test_a_shard_of_a_sampler_returning_another_k_is_refused():
    four = lambda rng: rng.sample(range(10), 4)  # noqa: E731
    refused = []
    for i in range(2):  # the one chunk of the run is in one of the shards
        try:
            sa.audit_samples(four, 10, 3, trials=100, shard=(i, 2), progress=False)
        except ValueError as e:
            refused.append(str(e))
    assert len(refused) == 1, refused
    assert "expected 3 items (k = 3, as declared), found 4" in refused[0]


def test_draws_already_made_of_another_k_than_declared_are_refused():
    with pytest.raises(ValueError, match=r"draws:1: expected 3 items \(k = 3, as declared\), found 2"):
        sa.audit_samples([[0, 1]] * 100, 10, 3, progress=False)
    # Without k, the first draw says it.
    assert sa.audit_samples([[0, 1], [2, 3]] * 50, 10, progress=False).trials == 100


def test_a_passing_runs_failure_message_is_empty_and_trials_for_verdict_is_stated():
    passed = sa.audit(durstenfeld, 6, trials=20_000, seed=2, progress=False)
    assert passed.verdict == "no bias detected"
    assert passed.failure_message == ""
    assert passed.trials_for_verdict is None
    small = sa.audit(durstenfeld, 10, trials=200, seed=2, progress=False)
    assert small.verdict == "inconclusive"
    assert small.trials_for_verdict > 200
    assert f"trials={small.trials_for_verdict}" in small.failure_message
    rerun = sa.audit(durstenfeld, 10, trials=small.trials_for_verdict, seed=2, progress=False)
    assert rerun.verdict != "inconclusive"


def test_cards_for_a_function_of_another_n_is_refused_in_pythons_words():
    with pytest.raises(ValueError, match=r"^categories=cards: your function's decks hold the items 0\.\.4") as raised:
        sa.audit(never_called, 5, categories="cards", progress=False)
    assert "--categories" not in str(raised.value)


def test_decks_handed_over_are_advised_as_decks_to_give_not_a_trials_option():
    # audit_orders of 100 decks advised "(trials=18500)", which cannot add
    # decks: the run then audited the same 100 again.
    rng = random.Random(4)
    decks = [rng.sample(range(10), 10) for _ in range(100)]
    small = sa.audit_orders(decks, progress=False)
    assert small.verdict == "inconclusive"
    needed = f"{small.trials_for_verdict:,}"
    assert f"give at least {needed} shuffles: only 100 were given" in small.failure_message
    assert "trials=" not in small.failure_message

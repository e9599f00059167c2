"""A shuffle of a shoe written in Python: ``deck=`` hands the function the
shoe's cards (as the command line's ``--deck``, the page's and the npm
package's ``deck``), and the order tests of repeated cards judge it."""

from __future__ import annotations

import pytest

import shuffle_audit as sa
from conftest import riffled_and_cut


def fair(deck, rng):
    rng.shuffle(deck)


def test_the_function_is_handed_the_shoes_cards_and_its_order_tests_run():
    handed = []
    sa.audit(lambda deck, rng: handed.append(list(deck)), deck="shoe:decks=2", trials=1, progress=False)
    assert handed[0][:3] == ["AS", "2S", "3S"] and len(handed[0]) == 104
    assert handed[0][52:55] == ["AS", "2S", "3S"]
    result = sa.audit(fair, deck="shoe:decks=2", trials=20_000, progress=False)
    assert result.verdict != "biased"
    assert result.counts.shape == (104, 52)
    assert result.counts.sum() == 20_000 * 104
    assert {"position-kind", "adjacency", "successor"} <= {t["test"] for t in result.tests}


def test_a_riffle_and_cut_shuffler_is_caught_by_which_card_follows_which():
    result = sa.audit(riffled_and_cut, deck="shoe:decks=2", trials=2_000, progress=False)
    assert result.verdict == "biased"
    assert {"adjacency", "successor"} & set(result.seen_by)
    with pytest.raises(AssertionError, match="biased"):
        sa.assert_fair(riffled_and_cut, deck="shoe:decks=2", trials=2_000, progress=False)


def test_a_fair_block_list_passes_assert_fair_at_its_own_n():
    # assert_fair's n is 52 unless a deck is given: here the deck's 4.
    result = sa.assert_fair(fair, deck="AABB", trials=20_000, progress=False)
    assert result.verdict == "no bias detected"
    assert result.counts.shape == (4, 2)


@pytest.mark.parametrize(
    "shuffle, message",
    [
        (lambda deck, rng: deck.__setitem__(1, deck[0]),
         r"did not return the deck's cards: it holds more than 2 of 'AS' \(the deck has 2\): \['AS', 'AS', '3S'"),
        (lambda deck, rng: list(range(104)), "0 at position 0 is not one of the deck's cards"),
        (lambda deck, rng: deck[:-1], r"it returned 103 cards instead of 104 \(it lost 1\)"),
        (lambda deck, rng: deck + ["AS"], r"it returned 105 cards instead of 104 \(it added 1\)"),
        (lambda deck, rng: deck.pop(), "returned 'KC': a shuffle shuffles its deck in place"),
    ],
)
def test_a_shuffle_that_is_not_the_shoes_cards_is_an_error_naming_the_card(shuffle, message):
    with pytest.raises(ValueError, match=message):
        sa.audit(shuffle, deck="shoe:decks=2", trials=10, progress=False)


def test_n_is_the_decks_or_given_and_a_function_without_either_is_refused():
    with pytest.raises(ValueError, match="n=52 but the deck shoe:decks=2 has 104 items: leave n out"):
        sa.audit(fair, 52, deck="shoe:decks=2", progress=False)
    with pytest.raises(ValueError, match=r"n is needed: .* \(or deck, a deck whose cards repeat"):
        sa.audit(fair, progress=False)
    with pytest.raises(ValueError, match="deck 'shoe:decks=0': decks must be a whole number >= 1"):
        sa.audit(fair, deck="shoe:decks=0", progress=False)


def test_a_shoe_stays_a_shoe_look_after_look_and_in_shards():
    # --until-decisive once read a shoe as distinct items; here each look
    # hands the function the deck's cards and runs the order tests.
    result = sa.audit(fair, deck="AABB", until_decisive=True, trials=2_000, max_trials=8_000, progress=False)
    assert result.counts.shape == (4, 2)
    assert "position-kind" in {t["test"] for t in result.tests}
    # Shards of a run (3 chunks of 65,536 trials) merge into the whole run.
    whole = sa.audit(fair, deck="AABB", trials=140_000, progress=False)
    shards = [sa.audit(fair, deck="AABB", trials=140_000, shard=(i, 3), progress=False) for i in range(3)]
    merged = sa.merge(shards)
    assert (merged.counts == whole.counts).all()
    assert merged.verdict == whole.verdict

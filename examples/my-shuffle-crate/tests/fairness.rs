//! Fairness tests of this crate's shuffle, with shuffle-audit: deterministic
//! (a fixed seed, so never flaky), with enough trials by default to see a
//! naive-swap-sized bias and to make "no bias detected" mean something.

use my_shuffle_crate::{shuffle, shuffle_off_by_one};
use shuffle_audit::{CustomAudit, Verdict, assert_fair};

#[test]
fn the_shuffle_is_fair_for_a_deck_of_cards() {
    assert_fair("my_shuffle_crate::shuffle", 52, |deck: &mut [u32], rng| {
        shuffle(deck, rng)
    });
}

#[test]
#[should_panic(expected = "is biased")]
fn the_off_by_one_is_caught() {
    assert_fair("shuffle_off_by_one", 10, |deck: &mut [u32], rng| {
        shuffle_off_by_one(deck, rng)
    });
}

#[test]
fn the_builder_gives_the_whole_audit() {
    let audit = CustomAudit::shuffle_fn("shuffle_off_by_one", 8, |deck: &mut [u32], rng| {
        shuffle_off_by_one(deck, rng)
    })
    .trials(20_000)
    .seed(7)
    .run()
    .expect("the audit runs");
    assert_eq!(audit.verdict(), Verdict::Biased);
    // No value ever stays where it was: the fixed-point test says so.
    let decisive = audit.decisive().expect("a test ran");
    println!("decisive test: {}", decisive.test);
}

#[test]
fn the_raffle_draws_fair_winners() {
    use my_shuffle_crate::draw_winners;
    shuffle_audit::assert_fair_sample("draw_winners", 20, 3, |rng| draw_winners(20, 3, rng));
}

#[test]
#[should_panic(expected = "is biased")]
fn the_off_by_one_reservoir_is_caught() {
    use my_shuffle_crate::draw_winners_off_by_one;
    shuffle_audit::assert_fair_sample("draw_winners_off_by_one", 20, 3, |rng| {
        draw_winners_off_by_one(20, 3, rng)
    });
}

#[test]
fn the_prize_tiers_are_picked_in_proportion() {
    use my_shuffle_crate::pick_tier;
    let weights = [70, 25, 5];
    let audit =
        shuffle_audit::assert_fair_picks("pick_tier", &weights, |rng| pick_tier(&weights, rng));
    let deviation = audit.sensitivity().figures["detectable_item_deviation"]
        .as_f64()
        .expect("a sampler's audit states the item deviation it could detect");
    println!("could detect ±{:.1}% on the rarest tier", 100.0 * deviation);
}

//! Fairness tests of this crate's shuffle, with shuffle-audit: deterministic
//! (a fixed seed, so never flaky), with enough trials by default to see a
//! naive-swap-sized bias and to make "no bias detected" mean something.

use my_shuffle_crate::{shuffle, shuffle_off_by_one};
use shuffle_audit::{Audit, assert_fair};

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
    let audit = Audit::of_fn("shuffle_off_by_one", 8, |deck: &mut [u32], rng| {
        shuffle_off_by_one(deck, rng)
    })
    .trials(20_000)
    .seed(7)
    .run()
    .expect("the audit runs");
    assert_eq!(audit.verdict, shuffle_audit::stats::Verdict::Biased);
    // No value ever stays where it was: the fixed-point test says so.
    println!("decisive test: {}", audit.decisive().test);
}

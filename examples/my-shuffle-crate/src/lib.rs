//! A crate with a shuffle, as a user of shuffle-audit would have one: a
//! correct Durstenfeld shuffle and the classic off-by-one that breaks it.
//! `tests/fairness.rs` audits both in `cargo test`.

use rand::RngExt;

/// Shuffles `deck` uniformly: for i = n-1 down to 1, swap a[i] with a
/// uniform a[j], j in 0..=i.
pub fn shuffle<T>(deck: &mut [T], rng: &mut dyn rand::Rng) {
    for i in (1..deck.len()).rev() {
        let j = rng.random_range(0..=i);
        deck.swap(i, j);
    }
}

/// The off-by-one everyone writes once: `0..i` instead of `0..=i`. Every
/// card always moves (Sattolo's algorithm): only n-cycles come out.
pub fn shuffle_off_by_one<T>(deck: &mut [T], rng: &mut dyn rand::Rng) {
    for i in (1..deck.len()).rev() {
        let j = rng.random_range(0..i);
        deck.swap(i, j);
    }
}

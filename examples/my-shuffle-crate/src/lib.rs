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

/// Draws `k` distinct winners of `0..n` for a raffle: a partial
/// Fisher–Yates (fair).
pub fn draw_winners(n: u32, k: usize, rng: &mut dyn rand::Rng) -> Vec<u32> {
    let mut tickets: Vec<u32> = (0..n).collect();
    for i in 0..k {
        let j = rng.random_range(i..tickets.len());
        tickets.swap(i, j);
    }
    tickets.truncate(k);
    tickets
}

/// The same raffle with a reservoir whose replacement index is off by one
/// (`0..i` for `0..=i`): the first k tickets win too rarely.
pub fn draw_winners_off_by_one(n: u32, k: usize, rng: &mut dyn rand::Rng) -> Vec<u32> {
    let mut winners: Vec<u32> = (0..k as u32).collect();
    for i in k..n as usize {
        let j = rng.random_range(0..i);
        if j < k {
            winners[j] = i as u32;
        }
    }
    winners
}

/// Picks a prize tier with probability proportional to `weights`, by a
/// walk along the cumulative weights (fair).
pub fn pick_tier(weights: &[u64], rng: &mut dyn rand::Rng) -> u32 {
    let total: u64 = weights.iter().sum();
    let mut r = rng.random_range(0..total);
    for (tier, &w) in weights.iter().enumerate() {
        if r < w {
            return tier as u32;
        }
        r -= w;
    }
    unreachable!("r < total")
}

//! Seed spaces too small for a deck: a million 52-card deals from
//! `seed32` (a fresh 32-bit seed per deal) repeat about C(T, 2) / 2^32 ≈ 116
//! decks, where a good source repeats none (52! ≈ 2^225.6).

use shuffle_audit::shuffle::Algorithm;
use shuffle_audit::source::{ChaCha8Source, RandomSource, Seed32Source, StreamSource};
use std::collections::HashMap;

/// Pairs of identical decks among `trials` 52-card Fisher–Yates deals from
/// `rng`, each deal started with `start_deal` as the engine does.
fn repeated_pairs(rng: &mut impl RandomSource, trials: u64) -> u64 {
    let mut seen: HashMap<Vec<u8>, u64> = HashMap::new();
    let mut deck: Vec<u32> = Vec::with_capacity(52);
    for _ in 0..trials {
        deck.clear();
        deck.extend(0..52);
        rng.start_deal();
        Algorithm::FisherYates.shuffle(&mut deck, rng);
        *seen
            .entry(deck.iter().map(|&c| c as u8).collect())
            .or_default() += 1;
    }
    seen.values().map(|&c| c * (c - 1) / 2).sum()
}

#[test]
fn seed32_repeats_about_a_hundred_decks_in_a_million_and_a_good_source_none() {
    let trials = 1_000_000u64;
    let expected = (trials * (trials - 1) / 2) as f64 / 2f64.powi(32);
    assert!((expected - 116.4).abs() < 0.1);
    let got = repeated_pairs(&mut Seed32Source::for_stream(2026, 0), trials) as f64;
    eprintln!("seed32: {got} repeated pairs in {trials} deals (expected {expected:.1})");
    // Poisson: the band of ±4 standard deviations (sd 10.8).
    let band = 4.0 * expected.sqrt();
    assert!(
        (got - expected).abs() <= band,
        "{got} repeated pairs, expected {expected:.1} ± {band:.1}"
    );
    assert_eq!(
        repeated_pairs(&mut ChaCha8Source::for_stream(2026, 0), 200_000),
        0
    );
}

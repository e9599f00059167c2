//! `assert_fair`'s verdicts on many seeds: a correct shuffle written against
//! `rand` is called biased at most at the stated rate and never
//! inconclusive at the default trial count, and the off-by-one is caught on
//! every seed. (Each single run is deterministic; this checks the rate over
//! seeds, which is what makes a fixed seed an honest choice.)

use rand::RngExt;
use shuffle_audit::CustomAudit;
use shuffle_audit::stats::Verdict;

fn durstenfeld(deck: &mut [u32], rng: &mut dyn rand::Rng) {
    for i in (1..deck.len()).rev() {
        deck.swap(i, rng.random_range(0..=i));
    }
}

fn off_by_one(deck: &mut [u32], rng: &mut dyn rand::Rng) {
    for i in (1..deck.len()).rev() {
        deck.swap(i, rng.random_range(0..i));
    }
}

#[test]
fn fair_closures_pass_at_the_stated_rate_and_broken_ones_never_do() {
    // One run per seed at the default trial count; its adjusted p decides
    // at every alpha at once.
    let seeds = 5_000u64;
    let (mut at_01, mut at_001) = (0, 0);
    for seed in 0..seeds {
        let audit = CustomAudit::shuffle_fn("durstenfeld", 5, durstenfeld)
            .seed(seed)
            .run()
            .unwrap();
        assert_ne!(audit.verdict(), Verdict::Inconclusive, "seed {seed}");
        at_01 += usize::from(audit.log10_p_adjusted() <= 0.01f64.log10());
        at_001 += usize::from(audit.log10_p_adjusted() <= 0.001f64.log10());
    }
    eprintln!("of {seeds} fair runs, {at_01} rejected at 0.01 and {at_001} at 0.001");
    // Holm keeps the family-wise rate at most alpha: at most 50 and 5
    // expected; 71 and 13 are the 99.9% points of Binomial(5000, 0.01) and
    // Binomial(5000, 0.001).
    assert!(at_01 <= 71, "{at_01} of {seeds} fair runs rejected at 0.01");
    assert!(
        at_001 <= 13,
        "{at_001} of {seeds} fair runs rejected at 0.001"
    );
    for seed in 0..20 {
        let audit = CustomAudit::shuffle_fn("off-by-one", 5, off_by_one)
            .seed(seed)
            .run()
            .unwrap();
        assert_eq!(audit.verdict(), Verdict::Biased, "seed {seed}");
    }
}

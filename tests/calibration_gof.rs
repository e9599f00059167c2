//! The structure tests' goodness-of-fit p-values are calibrated in the tail
//! (issue 22, D1 and D2): histograms drawn from the exact null laws of the
//! statistics (the tests see nothing else) are judged by `gof::chi_square`
//! (or `gof::uniform`), and the rejections at 0.01, 0.001 and 1e-4 fall in
//! their 99.9% binomial bands. The χ² law the tests once used, and the
//! shifted gamma alone, are counted alongside for comparison.
//!
//! The quick forms run with modest replicate counts; the `#[ignore]` long
//! forms (`cargo test --release --test calibration_gof -- --ignored
//! --nocapture`) run 200,000 tables per setting, and the end-to-end repros of
//! issue 22 (40,000 seeded audits).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use shuffle_audit::audit::{self, Kind, Spec, no_progress};
use shuffle_audit::shuffle::{Algorithm, Deck, ShuffleOptions, Shuffles, TestKind, TestSet};
use shuffle_audit::source::SourceKind;
use shuffle_audit::stats::special::{binomial_band, ln_chi2_sf};
use shuffle_audit::stats::{gof, hypergeometric, laws};
use std::f64::consts::LN_10;

const LEVELS: [f64; 3] = [0.01, 0.001, 1e-4];

/// A table to judge: a law over categories and the trials.
struct Setting {
    name: String,
    probs: Vec<f64>,
    trials: u64,
    /// Equally likely cells judged by `gof::uniform` (the permutation test).
    uniform: bool,
}

fn setting(name: &str, probs: Vec<f64>, trials: u64) -> Setting {
    Setting {
        name: format!("{name} T={trials}"),
        probs,
        trials,
        uniform: false,
    }
}

fn settings() -> Vec<Setting> {
    let mut out = vec![
        setting("rising n=5", laws::rising_sequences(5), 600),
        setting("rising n=5", laws::rising_sequences(5), 1000),
        setting("rising n=10", laws::rising_sequences(10), 500),
        setting("rising n=10", laws::rising_sequences(10), 20_000),
    ];
    for n in [5, 10, 52] {
        for t in [60, 300] {
            out.push(setting(&format!("fixed n={n}"), laws::fixed_points(n), t));
            out.push(setting(&format!("cycles n={n}"), laws::cycles(n), t));
        }
    }
    out.push(Setting {
        uniform: true,
        ..setting("permutation n=5", vec![1.0 / 120.0; 120], 600)
    });
    // A rank part of the hand test of a 2-deck shoe: 8 of 104 cards.
    out.push(setting(
        "hand rank part (104, 8, 5)",
        hypergeometric::pmf(104, 8, 5),
        300,
    ));
    out
}

/// Draws a histogram of `trials` categories from `cdf`.
fn draw(rng: &mut Xoshiro256PlusPlus, cdf: &[f64], trials: u64, out: &mut [u64]) {
    out.iter_mut().for_each(|c| *c = 0);
    let last = cdf.len() - 1;
    for _ in 0..trials {
        let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        out[cdf.partition_point(|&c| c <= u).min(last)] += 1;
    }
}

/// Rejections at each of [`LEVELS`] (and at 1e-5, 1e-6 for the gamma law),
/// by the test's p-value, the old χ²(df) p-value, and the gamma law alone.
#[derive(Default, Clone, Copy)]
struct Counts {
    new: [u64; 3],
    chi2: [u64; 3],
    gamma: [u64; 5],
}

fn judge(s: &Setting, reps: u64, seed: u64) -> Counts {
    let total: f64 = s.probs.iter().sum();
    let cdf: Vec<f64> = s
        .probs
        .iter()
        .scan(0.0, |a, p| {
            *a += p / total;
            Some(*a)
        })
        .collect();
    let chunks = 64u64;
    (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ (chunk << 40) ^ 0xCA1);
            let mut h = vec![0u64; cdf.len()];
            let mut c = Counts::default();
            let mine = reps / chunks + u64::from(chunk < reps % chunks);
            for rep in 0..mine {
                draw(&mut rng, &cdf, s.trials, &mut h);
                let (p, chi2, gamma) = if s.uniform {
                    let u = gof::uniform(&h, seed ^ rep ^ (chunk << 32));
                    let law =
                        shuffle_audit::stats::pearson_law::pearson_law_uniform(h.len(), s.trials);
                    (
                        u.log10_p,
                        ln_chi2_sf(u.statistic, u.df) / LN_10,
                        law.log10_sf(u.statistic),
                    )
                } else {
                    let g = gof::chi_square(&h, &s.probs);
                    let chi2 = if g.df > 0.0 {
                        ln_chi2_sf(g.statistic, g.df) / LN_10
                    } else {
                        0.0
                    };
                    let gamma = if g.law.variance > 0.0 {
                        g.law.log10_sf(g.statistic)
                    } else {
                        0.0
                    };
                    (g.log10_p, chi2, gamma)
                };
                for (i, level) in LEVELS.iter().enumerate() {
                    let l = level.log10();
                    c.new[i] += u64::from(p <= l);
                    c.chi2[i] += u64::from(chi2 <= l);
                }
                for (i, l) in [-2.0, -3.0, -4.0, -5.0, -6.0].iter().enumerate() {
                    c.gamma[i] += u64::from(gamma <= *l);
                }
            }
            c
        })
        .reduce(Counts::default, |mut a, b| {
            for i in 0..3 {
                a.new[i] += b.new[i];
                a.chi2[i] += b.chi2[i];
            }
            for i in 0..5 {
                a.gamma[i] += b.gamma[i];
            }
            a
        })
}

/// Runs every setting with `reps` tables and asserts the test's rejections
/// lie in their 99.9% bands (at the levels where the band is informative).
fn check_all(reps: u64) {
    let mut failures = Vec::new();
    println!(
        "{:<28} {:>22} {:>22} {:>22}   gamma alone at 1e-5, 1e-6",
        "setting (reps)", "at 0.01 new/chi2", "at 0.001 new/chi2", "at 1e-4 new/chi2"
    );
    for (k, s) in settings().iter().enumerate() {
        let c = judge(s, reps, 1000 + k as u64);
        let mut line = format!("{:<28}", format!("{} ({reps})", s.name));
        for (i, level) in LEVELS.iter().enumerate() {
            let (lo, hi) = binomial_band(reps, *level, 0.999);
            line += &format!(" {:>6}/{:<6} [{lo}-{hi}]", c.new[i], c.chi2[i]);
            if !(lo..=hi).contains(&c.new[i]) {
                failures.push(format!(
                    "{} at {level}: {} not in {lo}..={hi}",
                    s.name, c.new[i]
                ));
            }
        }
        line += &format!(
            "   gamma {:?} (expected {:.1}, {:.1})",
            c.gamma,
            reps as f64 * 1e-5,
            reps as f64 * 1e-6
        );
        println!("{line}");
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn structure_tests_reject_at_their_level() {
    check_all(4_000);
}

#[test]
#[ignore = "long: 200,000 tables per setting (GOF_REPS to change)"]
fn structure_tests_reject_at_their_level_long() {
    let reps = std::env::var("GOF_REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(200_000);
    check_all(reps);
}

/// The audit of fisher-yates with `tests` at `n` (or on `deck`) and
/// `trials`, seed `seed`, the way the CLI runs it (chacha8).
fn run_spec(n: usize, trials: u64, seed: u64, tests: TestSet) -> Spec<Shuffles> {
    Spec::<Shuffles> {
        options: ShuffleOptions::with_tests(tests),
        ..Spec::new(
            Algorithm::FisherYates,
            n,
            trials,
            SourceKind::Chacha8.into(),
            seed,
        )
    }
}

/// Counts of (new, old χ²) p-values at or below each level.
fn tally_levels(pairs: &[(f64, f64)], levels: &[f64]) {
    let audits = pairs.len() as u64;
    for &level in levels {
        let l = level.log10();
        let new = pairs.iter().filter(|p| p.0 <= l).count();
        let old = pairs.iter().filter(|p| p.1 <= l).count();
        let (lo, hi) = binomial_band(audits, level, 0.999);
        println!(
            "  at {level:.3e}: before (chi-square) {old}, after {new}; expected {:.1}, 99.9% band {lo}..={hi}",
            audits as f64 * level
        );
    }
}

/// Issue 22's end-to-end repro: `audit -a fisher-yates -n 5 -t 600 --tests
/// rising-sequences --seed S`, S = 1..=40,000; the rejections before (the
/// χ²(df) p-value of the same statistic) and after.
#[test]
#[ignore = "long: 40,000 audits"]
fn repro_rising_sequences_audits() {
    let tests = TestSet::parse("rising-sequences", 5).unwrap();
    let pairs: Vec<(f64, f64)> = (1..=40_000u64)
        .into_par_iter()
        .map(|seed| {
            let spec = run_spec(5, 600, seed, tests.clone());
            let tally = Shuffles::count(&spec, spec.chunks(), &no_progress).unwrap();
            let r = audit::tested(&spec, &tally).results;
            let r = r
                .iter()
                .find(|r| r.test == TestKind::RisingSequences)
                .unwrap();
            (r.log10_p, ln_chi2_sf(r.statistic, r.df) / LN_10)
        })
        .collect();
    println!("rising sequences, n = 5, T = 600, 40,000 audits:");
    tally_levels(&pairs, &[0.01, 0.001, 1e-4]);
}

/// Issue 22's D2 repro: the hand test of `audit -a fisher-yates --deck
/// shoe:decks=2 -t 300 --seed S`; before, each part's χ² p-value
/// (Bonferroni over the parts as now).
#[test]
#[ignore = "long: 40,000 audits"]
fn repro_hand_test_audits() {
    let deck = Deck::parse("shoe:decks=2").unwrap();
    let pairs: Vec<(f64, f64)> = (1..=40_000u64)
        .into_par_iter()
        .map(|seed| {
            let (spec, _) = Spec::<Shuffles>::new(
                Algorithm::FisherYates,
                deck.n(),
                300,
                SourceKind::Chacha8.into(),
                seed,
            )
            .with_deck(deck.clone());
            let tally = Shuffles::count(&spec, spec.chunks(), &no_progress).unwrap();
            let results = audit::tested(&spec, &tally).results;
            let hand = results.iter().find(|r| r.test == TestKind::Hand).unwrap();
            // The old p-value: every part by χ²(df), Bonferroni.
            let hands = tally.hands().unwrap();
            let mut parts = Vec::new();
            for (j, column) in deck.columns().iter().enumerate() {
                let m = column.names.len();
                let tested = if m == 2 { 1 } else { m };
                for c in 0..tested {
                    let size = hands.columns[j]
                        .of_item
                        .iter()
                        .filter(|&&x| x as usize == c)
                        .count();
                    let law = hypergeometric::pmf(deck.n(), size, hands.h);
                    let g = gof::chi_square(hands.histogram(j, c), &law);
                    parts.push(if g.df > 0.0 {
                        ln_chi2_sf(g.statistic, g.df) / LN_10
                    } else {
                        0.0
                    });
                }
            }
            let best = parts.iter().cloned().fold(0.0, f64::min);
            let old = (best + (parts.len() as f64).log10()).min(0.0);
            (hand.log10_p, old)
        })
        .collect();
    println!("hand test, 2-deck shoe, T = 300, 40,000 audits (levels alpha/3):");
    tally_levels(&pairs, &[0.01 / 3.0, 0.001 / 3.0, 1e-4 / 3.0]);
}

/// Power before and after: the structure tests' log10 p of audits of biased
/// shuffles by the exact law (after) and by χ²(df) of the same statistic
/// (before; for the Lehmer tests the summed statistic against the summed df,
/// as before).
#[test]
#[ignore = "long: prints a power comparison"]
fn power_before_after() {
    for (algorithm, n, trials) in [
        ("naive-swap", 10, 2000),
        ("riffle:k=7", 52, 20_000),
        ("riffle:k=7", 52, 100_000),
    ] {
        for seed in 1..=3u64 {
            let spec = Spec::<Shuffles>::new(
                Algorithm::parse(algorithm).unwrap(),
                n,
                trials,
                SourceKind::Chacha8.into(),
                seed,
            );
            let tally = Shuffles::count(&spec, spec.chunks(), &no_progress).unwrap();
            let results = audit::tested(&spec, &tally).results;
            let shown: Vec<String> = results
                .iter()
                .filter(|r| {
                    matches!(
                        r.test,
                        TestKind::FixedPoints
                            | TestKind::Cycles
                            | TestKind::RisingSequences
                            | TestKind::Lehmer
                            | TestKind::LehmerPairs
                            | TestKind::Permutation
                    )
                })
                .map(|r| {
                    format!(
                        "{:?} {:.2} (before {:.2})",
                        r.test,
                        r.log10_p,
                        ln_chi2_sf(r.statistic, r.df) / LN_10
                    )
                })
                .collect();
            println!(
                "{algorithm} n={n} T={trials} seed {seed}: {}",
                shown.join("; ")
            );
        }
    }
}

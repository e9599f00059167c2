//! Every verdict test is calibrated in the tail the verdicts use, end to
//! end: seeded audits of a fair shuffle (Fisher–Yates on ChaCha8), each
//! test's raw p-value counted at 0.01, 0.001 and 1e-4, and the default
//! battery's "biased" verdict at α = 0.001, for n = 5, 10, 52 at small
//! trial counts (where pooled categories are sparsest), a 2-deck shoe and a
//! 52-card deck with its suit, rank and colour columns.
//!
//! A count above its binomial band means the test over-rejects; below it,
//! that the test is conservative (honest, but it costs power), which is
//! printed and allowed for tests whose p-values are discrete. The short
//! form runs in CI (2,000 audits a case); the long form (40,000 audits a
//! case, `cargo test --release --test calibration_tail -- --ignored`) is the
//! one the tables in the README come from.

use rayon::prelude::*;
use shuffle_audit::audit::{self, Spec, no_progress};
use shuffle_audit::shuffle::{Algorithm, Deck, Shuffles, TestKind};
use shuffle_audit::source::SourceKind;
use shuffle_audit::stats::Verdict;
use shuffle_audit::stats::special::binomial_band;

/// The levels each test's raw p-value is counted at.
const LEVELS: [f64; 3] = [0.01, 0.001, 1e-4];
/// The verdicts' level.
const ALPHA: f64 = 0.001;
/// Confidence of the binomial bands.
const BAND: f64 = 0.999;

/// One calibration case: a deck size or a deck, and the trials per audit.
struct Case {
    label: &'static str,
    n: usize,
    deck: Option<&'static str>,
    trials: u64,
}

/// The cases: the smallest trial counts at which the sparse structure
/// tests are pooled into few groups, and the decks.
const CASES: [Case; 8] = [
    Case {
        label: "n = 5, T = 60",
        n: 5,
        deck: None,
        trials: 60,
    },
    Case {
        label: "n = 5, T = 600",
        n: 5,
        deck: None,
        trials: 600,
    },
    Case {
        label: "n = 10, T = 60",
        n: 10,
        deck: None,
        trials: 60,
    },
    Case {
        label: "n = 10, T = 500",
        n: 10,
        deck: None,
        trials: 500,
    },
    Case {
        label: "n = 52, T = 60",
        n: 52,
        deck: None,
        trials: 60,
    },
    Case {
        label: "n = 52, T = 300",
        n: 52,
        deck: None,
        trials: 300,
    },
    Case {
        label: "2-deck shoe, T = 300",
        n: 104,
        deck: Some("shoe:decks=2"),
        trials: 300,
    },
    Case {
        label: "52 cards with columns, T = 300",
        n: 52,
        deck: Some("cards"),
        trials: 300,
    },
];

/// What `audits` fair audits of a case gave: per test, its rejections at
/// each of [`LEVELS`]; and the battery's "biased" verdicts at [`ALPHA`].
struct Tally {
    tests: Vec<(TestKind, [u64; 3])>,
    biased: u64,
}

fn run_case(case: &Case, audits: u64) -> Tally {
    let spec = |seed: u64| {
        let spec = Spec::<Shuffles>::new(
            Algorithm::FisherYates,
            case.n,
            case.trials,
            SourceKind::Chacha8.into(),
            seed,
        );
        match case.deck {
            Some(deck) => spec.with_deck(Deck::parse(deck).unwrap()).0,
            None => spec,
        }
    };
    let runs: Vec<(Vec<(TestKind, f64)>, bool)> = (0..audits)
        .into_par_iter()
        .map(|i| {
            let seed = 22_000_000 + 100_000 * case.n as u64 + i;
            let a = audit::run(&spec(seed), ALPHA, &no_progress).unwrap();
            let p = a.tests().iter().map(|t| (t.test, t.log10_p)).collect();
            (p, a.verdict() == Verdict::Biased)
        })
        .collect();
    let tests = runs[0]
        .0
        .iter()
        .enumerate()
        .map(|(i, &(kind, _))| {
            let mut counts = [0u64; 3];
            for (p, _) in &runs {
                assert_eq!(p[i].0, kind, "every audit runs the same tests");
                for (c, level) in counts.iter_mut().zip(LEVELS) {
                    *c += u64::from(p[i].1 <= level.log10());
                }
            }
            (kind, counts)
        })
        .collect();
    let biased = runs.iter().filter(|(_, b)| *b).count() as u64;
    Tally { tests, biased }
}

/// Runs every case with `audits` audits, prints each count beside its
/// expectation and band, and returns the counts above their bands.
fn calibrate(audits: u64) -> Vec<String> {
    let mut over = Vec::new();
    for case in &CASES {
        let tally = run_case(case, audits);
        for (kind, counts) in &tally.tests {
            for (&count, level) in counts.iter().zip(LEVELS) {
                let (lo, hi) = binomial_band(audits, level, BAND);
                let flag = if count > hi {
                    "  OVER"
                } else if count < lo {
                    "  (conservative)"
                } else {
                    ""
                };
                println!(
                    "{}: {kind} at {level:e}: {count} of {audits} (expected {:.1}, band \
                     {lo}..={hi}){flag}",
                    case.label,
                    audits as f64 * level
                );
                if count > hi {
                    over.push(format!(
                        "{}: {kind} at {level:e}: {count} > {hi}",
                        case.label
                    ));
                }
            }
        }
        let (lo, hi) = binomial_band(audits, ALPHA, BAND);
        println!(
            "{}: default battery biased at {ALPHA}: {} of {audits} (expected {:.1}, band \
             {lo}..={hi})",
            case.label,
            tally.biased,
            audits as f64 * ALPHA
        );
        if tally.biased > hi {
            over.push(format!("{}: battery {} > {hi}", case.label, tally.biased));
        }
    }
    over
}

/// The short form: 2,000 fair audits a case, no test and no battery above
/// its band at any level.
#[test]
fn every_test_holds_its_level_in_the_tail() {
    let over = calibrate(2_000);
    assert!(over.is_empty(), "over-rejecting: {over:#?}");
}

/// The long form: 40,000 fair audits a case.
#[test]
#[ignore = "long: about 40,000 audits per case"]
fn every_test_holds_its_level_in_the_tail_over_40000_audits() {
    let over = calibrate(40_000);
    assert!(over.is_empty(), "over-rejecting: {over:#?}");
}

//! The audit reaches the right verdicts: fair algorithms pass, biased ones are
//! caught, and a published exact result is reproduced.

use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::audit::{self, DEFAULT_ALPHA, DEFAULT_SEED};
use shuffle_audit::engine::{RunSpec, no_progress};
use shuffle_audit::source::{ChaCha8Source, SourceKind, StreamSource};
use shuffle_audit::spec::TestSet;
use shuffle_audit::stats::Verdict;
use std::collections::HashMap;

/// Audits every algorithm in `algorithms` at `n` with `tests` (Holm across
/// all of them, default seed and alpha) and checks each verdict against
/// `want`.
fn assert_verdicts(
    algorithms: &[Algorithm],
    n: usize,
    trials: u64,
    tests: TestSet,
    want: impl Fn(Algorithm) -> Verdict,
) {
    let specs: Vec<RunSpec> = algorithms
        .iter()
        .map(|&algorithm| RunSpec {
            tests: tests.clone(),
            ..RunSpec::new(
                algorithm,
                n,
                trials,
                SourceKind::Chacha8.into(),
                DEFAULT_SEED,
            )
        })
        .collect();
    let audits = audit::run_all(&specs, DEFAULT_ALPHA, &no_progress).unwrap();
    for a in &audits {
        let alg = a.spec().subject.builtin().expect("a built-in algorithm");
        let want = want(alg);
        assert_eq!(
            a.verdict(),
            want,
            "{alg} at n = {n}: decisive {} log10 p = {:.2} (Holm {:.2})",
            a.decisive().test,
            a.log10_p(),
            a.log10_p_adjusted()
        );
    }
}

fn expected(alg: Algorithm) -> Verdict {
    if alg.expected_fair() {
        Verdict::NoBiasDetected
    } else {
        Verdict::Biased
    }
}

/// The position-by-value test alone, at n = 10 with the CLI's default trials:
/// fair algorithms pass, biased ones are flagged, except `rotation`, whose
/// marginals are exactly uniform, so this marginal test cannot see its bias.
#[test]
fn position_value_test_alone_separates_all_but_rotation() {
    assert_verdicts(
        &Algorithm::ALL,
        10,
        1_000_000,
        TestSet::position_value(),
        |alg| {
            if alg == Algorithm::Rotation {
                Verdict::NoBiasDetected
            } else {
                expected(alg)
            }
        },
    );
}

/// The default tests at n = 10 and 1M trials: every verdict is right,
/// rotation included (the structure tests see it).
#[test]
fn default_tests_separate_fair_from_biased() {
    assert_verdicts(
        &Algorithm::ALL,
        10,
        1_000_000,
        TestSet::default_for(10),
        expected,
    );
}

/// At n = 8 with 100,000 trials the whole-permutation and structure tests
/// catch the two uniform-marginal biases, while every fair algorithm passes.
#[test]
fn uniform_marginal_biases_are_caught_at_n_8() {
    let merge = Algorithm::parse("sort-random-comparator:sort=merge").unwrap();
    let mut algorithms: Vec<Algorithm> = Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| a.expected_fair())
        .collect();
    algorithms.extend([Algorithm::Rotation, merge]);
    assert_verdicts(&algorithms, 8, 100_000, TestSet::default_for(8), expected);
}

/// A weak source breaks a good algorithm: fisher-yates over `rand() % n`
/// with a 15-bit rand is caught once n is large enough for the modulo bias to
/// matter (n = 1000: values below 768 are 33/32 as likely).
#[test]
fn modulo_bias_of_a_weak_source_is_caught() {
    let spec = |kind: SourceKind| RunSpec {
        tests: TestSet::position_value(),
        ..RunSpec::new(Algorithm::FisherYates, 1000, 200_000, kind.into(), 7)
    };
    let weak = audit::run(&spec(SourceKind::Rand15Mod), DEFAULT_ALPHA, &no_progress).unwrap();
    assert_eq!(
        weak.verdict(),
        Verdict::Biased,
        "{:?}",
        weak.position_value()
    );
    let good = audit::run(&spec(SourceKind::Chacha8), DEFAULT_ALPHA, &no_progress).unwrap();
    // A good source finds no bias; but 200 counts per cell of a 1000 × 1000
    // matrix could not see even a doubling of one cell, so the honest verdict
    // is "inconclusive", not "no bias detected".
    assert_eq!(
        good.verdict(),
        Verdict::Inconclusive,
        "{:?}",
        good.sensitivity()
    );
}

/// Atwood (2007): the naive swap at n = 3 gives [0,2,1], [1,0,2], [1,2,0]
/// with probability 5/27 each and [0,1,2], [2,0,1], [2,1,0] with 4/27 each.
/// Over 2.7 million shuffles each frequency is within 5 standard errors.
#[test]
fn naive_swap_at_n_3_matches_the_published_pattern() {
    const TRIALS: u64 = 2_700_000;
    let mut rng = ChaCha8Source::for_stream(DEFAULT_SEED, 0);
    let mut counts: HashMap<[u32; 3], u64> = HashMap::new();
    for _ in 0..TRIALS {
        let mut a = [0, 1, 2];
        Algorithm::NaiveSwap.shuffle(&mut a, &mut rng);
        *counts.entry(a).or_default() += 1;
    }
    let pattern = [
        ([0, 2, 1], 5.0),
        ([1, 0, 2], 5.0),
        ([1, 2, 0], 5.0),
        ([0, 1, 2], 4.0),
        ([2, 0, 1], 4.0),
        ([2, 1, 0], 4.0),
    ];
    for (perm, weight) in pattern {
        let p: f64 = weight / 27.0;
        let observed = counts.get(&perm).copied().unwrap_or(0) as f64 / TRIALS as f64;
        let standard_error = (p * (1.0 - p) / TRIALS as f64).sqrt();
        let z = (observed - p) / standard_error;
        assert!(
            z.abs() < 5.0,
            "{perm:?}: observed {observed:.5}, expected {p:.5}, z = {z:.2}"
        );
    }
}

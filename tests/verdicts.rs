//! The audit reaches the right verdicts: fair subjects pass and biased ones
//! are caught, for every kind (shuffles and samplers judged together as one
//! run), and a published exact result is reproduced.

mod common;

use common::{as_kind, judged};
use shuffle_audit::audit::{self, Audit, DEFAULT_ALPHA, DEFAULT_SEED, Kind, Planned, no_progress};
use shuffle_audit::sampler::{Sampler, SamplerOptions, Samplers};
use shuffle_audit::shuffle::{Algorithm, ShuffleOptions, Shuffles, TestSet};
use shuffle_audit::source::{ChaCha8Source, SourceKind, SourceSpec, StreamSource};
use shuffle_audit::{Spec, Verdict};
use std::collections::HashMap;

/// A spec of each algorithm of `algorithms` at `n` with `tests`, default
/// seed, on chacha8.
fn shuffle_specs(
    algorithms: &[Algorithm],
    n: usize,
    trials: u64,
    tests: &TestSet,
) -> Vec<Box<dyn Planned>> {
    algorithms
        .iter()
        .map(|&algorithm| {
            Spec::<Shuffles> {
                options: ShuffleOptions::with_tests(tests.clone()),
                ..Spec::new(
                    algorithm,
                    n,
                    trials,
                    SourceKind::Chacha8.into(),
                    DEFAULT_SEED,
                )
            }
            .into()
        })
        .collect()
}

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
    let audits = judged(shuffle_specs(algorithms, n, trials, &tests), DEFAULT_ALPHA);
    for a in &audits {
        let a = as_kind::<Shuffles>(a.as_ref());
        let alg = *a.spec().subject.builtin().expect("a built-in algorithm");
        let want = want(alg);
        assert_eq!(
            a.verdict(),
            want,
            "{alg} at n = {n}: decisive {:?} log10 p = {:.2} (Holm {:.2})",
            a.decisive().map(|t| t.test),
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

/// The registry's samplers at sizes where every flaw shows: k = 3 of 10
/// (k = 2 for systematic, which needs k | N), the default board, and the
/// weights 3, 1, 4, 1, 5 for weighted picks; 400,000 samples each.
fn sampler_specs() -> Vec<Box<dyn Planned>> {
    Sampler::ALL
        .iter()
        .map(|&sampler| {
            let (sampler, n, weights) = match sampler {
                Sampler::Subset { method, .. } => {
                    let k = if method.name() == "systematic" { 2 } else { 3 };
                    (Sampler::Subset { method, k }, 10, None)
                }
                Sampler::Minesweeper(board) => (sampler, board.cells(), None),
                Sampler::Weighted(_) => (sampler, 5, Some(vec![3, 1, 4, 1, 5])),
            };
            Spec::<Samplers>::new(
                sampler,
                n,
                400_000,
                SourceSpec::parse("chacha8").unwrap(),
                2026,
            )
            .with_options(SamplerOptions { weights })
            .into()
        })
        .collect()
}

/// What saw the bias, for an audit of any kind: a biased audit names its
/// tests, strongest evidence first, starting with the decisive one; any
/// other names none.
fn assert_seen_by_is_ordered<K: Kind>(a: &Audit<K>) {
    let seen = a.seen_by();
    assert_eq!(
        seen.is_empty(),
        a.verdict() != Verdict::Biased,
        "{}",
        a.spec().subject
    );
    if let Some(first) = seen.first() {
        assert_eq!(
            first.test,
            a.decisive().unwrap().test,
            "{}",
            a.spec().subject
        );
    }
    assert!(seen.windows(2).all(|w| w[0].log10_p <= w[1].log10_p));
}

/// Every built-in subject of every kind gets the verdict its record
/// expects, judged together as one run (Holm across the shuffles and the
/// samplers): every algorithm at n = 10 with the default tests and 1M
/// shuffles (rotation included: the structure tests see it), and every
/// sampler. A biased audit names the tests that saw it, strongest first.
#[test]
fn every_builtin_subject_gets_its_expected_verdict() {
    let mut specs = shuffle_specs(&Algorithm::ALL, 10, 1_000_000, &TestSet::default_for(10));
    specs.extend(sampler_specs());
    let audits = judged(specs, DEFAULT_ALPHA);
    assert_eq!(audits.len(), Algorithm::ALL.len() + Sampler::ALL.len());
    let wrong: Vec<String> = audits
        .iter()
        .filter(|a| Some(a.verdict()) != a.expected())
        .map(|a| {
            format!(
                "{} {}: {} (expected {:?}; {})",
                a.kind(),
                a.subject(),
                a.verdict(),
                a.expected(),
                a.record().largest_deviation
            )
        })
        .collect();
    assert!(wrong.is_empty(), "unexpected verdicts: {wrong:?}");
    for a in &audits {
        match a.kind() {
            "shuffle" => assert_seen_by_is_ordered(as_kind::<Shuffles>(a.as_ref())),
            _ => assert_seen_by_is_ordered(as_kind::<Samplers>(a.as_ref())),
        }
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
    let spec = |kind: SourceKind| Spec::<Shuffles> {
        options: ShuffleOptions::with_tests(TestSet::position_value()),
        ..Spec::new(Algorithm::FisherYates, 1000, 200_000, kind.into(), 7)
    };
    let weak = audit::run(&spec(SourceKind::Rand15Mod), DEFAULT_ALPHA, &no_progress).unwrap();
    assert_eq!(weak.verdict(), Verdict::Biased, "{:?}", weak.found());
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

/// A fair sampler's audit is called biased at most at the stated rate, in
/// the tail the verdicts use (α = 0.001) as well as at 0.01: 3,000 seeded
/// audits of floyd (k = 3 of 10, whose inclusion, pairs and subset tests all
/// run) and of partial-fisher-yates (ordered: the order test runs too).
#[test]
fn fair_sampler_audits_reject_at_the_stated_rate() {
    use shuffle_audit::stats::special::binomial_band;
    const AUDITS: u64 = 3_000;
    for name in ["floyd:k=3", "partial-fisher-yates:k=3"] {
        let mut p_values = Vec::new();
        for seed in 0..AUDITS {
            let spec = Spec::<Samplers> {
                threads: Some(1),
                ..Spec::new(
                    Sampler::parse(name).unwrap(),
                    10,
                    3_000,
                    SourceSpec::parse("xoshiro256pp").unwrap(),
                    seed,
                )
            };
            let audit = audit::run(&spec, 0.001, &no_progress).unwrap();
            assert!(audit.not_run().is_empty(), "{name}: {:?}", audit.not_run());
            p_values.push(10f64.powf(audit.log10_p()));
        }
        for alpha in [0.01, 0.001] {
            let rejected = p_values.iter().filter(|&&p| p <= alpha).count() as u64;
            let (_, hi) = binomial_band(AUDITS, alpha, 0.999);
            eprintln!("{name}: {rejected} of {AUDITS} rejected at {alpha} (at most {hi})");
            assert!(
                rejected <= hi,
                "{name}: {rejected} of {AUDITS} fair audits rejected at {alpha} (at most {hi})"
            );
        }
    }
}

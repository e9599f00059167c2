//! The verdict names what saw the bias (issue 22): every test that rejects
//! after the verdict's corrections, strongest evidence first, by the tests'
//! own p-values rather than a standardised departure that favours tests of
//! few degrees of freedom; the decisive test is the first of them.

mod common;

use shuffle_audit::audit::{Audit, DEFAULT_ALPHA, DEFAULT_SEED};
use shuffle_audit::shuffle::{Algorithm, Shuffles, TestKind};
use shuffle_audit::source::SourceKind;
use shuffle_audit::{Spec, Verdict};

/// `algorithms` at `n`, judged together as one run (Holm across them).
fn judged(algorithms: &[Algorithm], n: usize, trials: u64) -> Vec<Audit<Shuffles>> {
    let specs = algorithms
        .iter()
        .map(|&a| {
            Spec::<Shuffles>::new(a, n, trials, SourceKind::Chacha8.into(), DEFAULT_SEED).into()
        })
        .collect();
    common::judged(specs, DEFAULT_ALPHA)
        .iter()
        .map(|a| common::as_kind::<Shuffles>(a.as_ref()).clone())
        .collect()
}

/// Every test in `seen` rejects after the run's correction, no other does,
/// and they come strongest (smallest raw p) first.
fn check_seen_by(a: &Audit<Shuffles>) {
    let seen = a.seen_by();
    let further = a.log10_p_adjusted() - a.log10_p();
    let rejecting: Vec<TestKind> = a
        .tests()
        .iter()
        .filter(|t| t.log10_p_holm + further <= a.alpha().log10())
        .map(|t| t.test)
        .collect();
    let mut listed: Vec<TestKind> = seen.iter().map(|t| t.test).collect();
    assert!(seen.windows(2).all(|w| w[0].log10_p <= w[1].log10_p));
    listed.sort();
    let mut rejecting = rejecting;
    rejecting.sort();
    assert_eq!(listed, rejecting, "{}", a.spec().subject);
    assert_eq!(seen.is_empty(), a.verdict() != Verdict::Biased);
    if let Some(first) = seen.first() {
        assert_eq!(first.test, a.decisive().unwrap().test);
    }
}

#[test]
fn the_naive_swap_names_position_by_value_first() {
    // At n = 52 the naive swap's position-by-value log10 p is about −26,000
    // against its cycle count's −4,000; both are far beyond the bound, and
    // the cycle count's standardised departure (12 df) is the larger, which
    // used to make it the decisive test.
    let audits = judged(&[Algorithm::NaiveSwap, Algorithm::FisherYates], 52, 200_000);
    let naive = &audits[0];
    assert_eq!(naive.verdict(), Verdict::Biased);
    let seen: Vec<TestKind> = naive.seen_by().iter().map(|t| t.test).collect();
    assert_eq!(seen.first(), Some(&TestKind::PositionValue), "{seen:?}");
    assert_eq!(naive.decisive().unwrap().test, TestKind::PositionValue);
    let cycles = naive.test(TestKind::Cycles).unwrap();
    let pv = naive.test(TestKind::PositionValue).unwrap();
    assert!(
        cycles.departure > pv.departure,
        "the case departures got wrong"
    );
    assert!(seen.contains(&TestKind::Cycles) && seen.contains(&TestKind::Lehmer));
    // The birthday and serial tests do not see this bias.
    assert!(!seen.contains(&TestKind::Birthday) && !seen.contains(&TestKind::Serial));
    check_seen_by(naive);
    // A fair shuffle: nothing saw a bias (at n = 52, 200,000 trials are too
    // few for "no bias detected": its verdict is inconclusive).
    let fair = &audits[1];
    assert_ne!(fair.verdict(), Verdict::Biased);
    assert!(fair.seen_by().is_empty());
    check_seen_by(fair);
}

#[test]
fn seen_by_agrees_with_the_verdict_at_n_10() {
    let audits = judged(
        &[
            Algorithm::NaiveSwap,
            Algorithm::Rotation,
            Algorithm::FisherYates,
            Algorithm::Sattolo,
        ],
        10,
        100_000,
    );
    for a in &audits {
        check_seen_by(a);
    }
    assert_eq!(audits[0].seen_by()[0].test, TestKind::PositionValue);
    // Rotation's marginals are uniform: position-by-value does not see it.
    let rotation: Vec<TestKind> = audits[1].seen_by().iter().map(|t| t.test).collect();
    assert!(!rotation.is_empty() && !rotation.contains(&TestKind::PositionValue));
}

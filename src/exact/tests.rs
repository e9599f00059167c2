//! Checks of the enumeration machinery itself; the laws it finds are checked
//! in `tests/exact.rs`.

use super::enumerate::leaves_needed;
use super::propagate::marginals_f64;
use super::*;
use crate::algorithm::ComparatorSort;
use crate::source::SourceKind;

fn enumerable() -> Vec<Algorithm> {
    let mut algs: Vec<Algorithm> = Algorithm::ALL
        .into_iter()
        .filter(|&a| method_for(a).is_ok())
        .collect();
    algs.push(Algorithm::SortRandomComparator {
        sort: ComparatorSort::Merge,
    });
    algs.push(Algorithm::RandomSwap { k: Some(3) });
    algs
}

#[test]
fn the_leaf_count_checked_against_the_cap_is_the_count_enumerated() {
    for kind in [SourceKind::Chacha8, SourceKind::Rand15Mod] {
        let law = DrawLaw::of(&kind.into()).unwrap();
        for alg in enumerable() {
            for n in 2..=5usize {
                let got = enumerate(alg, n, kind.into(), DEFAULT_MAX_LEAVES).unwrap();
                let needed = leaves_needed(alg, n, law).exact().unwrap();
                if got.method() == Method::Stepwise {
                    assert!(u128::from(got.leaves()) <= needed, "{alg} n={n}");
                } else {
                    assert_eq!(u128::from(got.leaves()), needed, "{alg} n={n} {kind:?}");
                }
            }
        }
    }
}

#[test]
fn the_f64_propagation_agrees_with_the_exact_one() {
    let source = SourceSpec::from(SourceKind::Rand15Mod);
    for alg in Algorithm::ALL.into_iter().filter(|&a| can_propagate(a)) {
        let n = 20;
        let exact = marginals(alg, n, source).unwrap();
        assert!(exact.is_exact(), "{alg}");
        let approx = marginals_f64(alg, n, source);
        for (a, b) in exact.probabilities().iter().zip(&approx) {
            assert!((a - b).abs() <= 1e-14 * a.max(1e-3), "{alg}: {a} vs {b}");
        }
    }
}

#[test]
fn cap_refusals_come_before_any_work() {
    // 52! leaves: refused at once, with the count.
    let err = check_enumerate(Algorithm::FisherYates, 52, SourceSpec::default(), 1000)
        .unwrap_err()
        .to_string();
    assert!(err.contains("about 8.1e67"), "{err}");
    let err = check_enumerate(
        Algorithm::RandomSwap {
            k: Some(4_000_000_000),
        },
        6,
        SourceSpec::default(),
        DEFAULT_MAX_LEAVES,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("--max-leaves"), "{err}");
    assert_eq!(
        check_enumerate(Algorithm::Rotation, 200, SourceSpec::default(), 1000).unwrap(),
        Method::Enumerated
    );
}

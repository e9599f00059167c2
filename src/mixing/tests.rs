use super::*;
use crate::source::SourceKind;

fn spec(algorithm: Algorithm, n: usize, ks: Vec<u32>, trials: u64) -> MixingSpec {
    MixingSpec {
        algorithm,
        n,
        ks,
        monte_carlo: true,
        trials,
        source: SourceKind::Chacha8.into(),
        seed: 2026,
    }
}

/// The Monte Carlo points, and how far each is from the exact point of the
/// same k in units of (4 standard errors + noise floor); all must be <= 1.
fn agreement(curve: &MixingCurve, shift: usize) -> Vec<f64> {
    let exact: Vec<_> = curve.points_of(Method::Exact).collect();
    curve
        .points_of(Method::MonteCarlo)
        .zip(exact.iter().skip(shift))
        .map(|(mc, ex)| {
            let tolerance = 4.0 * mc.stderr.unwrap() + mc.noise_floor.unwrap();
            (mc.tv - ex.tv).abs() / tolerance
        })
        .collect()
}

#[test]
fn monte_carlo_riffles_of_52_agree_with_bayer_diaconis() {
    let curve = run(
        &spec(Algorithm::Riffle { k: 1 }, 52, (1..=12).collect(), 200_000),
        &|_| {},
    )
    .unwrap();
    assert_eq!(curve.statistic, Some(Statistic::RisingSequences));
    let ratios = agreement(&curve, 0);
    assert_eq!(ratios.len(), 12);
    assert!(ratios.iter().all(|&r| r <= 1.0), "{ratios:?}");
    // The comparison has power: against the exact curve one riffle later it fails.
    let shifted = agreement(&curve, 1);
    assert!(shifted.iter().any(|&r| r > 1.0), "{shifted:?}");
}

#[test]
fn monte_carlo_random_swap_of_6_agrees_with_the_exact_law() {
    let curve = run(
        &spec(
            Algorithm::RandomSwap { k: None },
            6,
            (0..=24).collect(),
            200_000,
        ),
        &|_| {},
    )
    .unwrap();
    assert_eq!(curve.statistic, Some(Statistic::Permutation));
    let ratios = agreement(&curve, 0);
    assert_eq!(ratios.len(), 25);
    assert!(ratios.iter().all(|&r| r <= 1.0), "{ratios:?}");
    let shifted = agreement(&curve, 1);
    assert!(shifted.iter().any(|&r| r > 1.0), "{shifted:?}");
    // k = 0 leaves the identity: both say 1 - 1/720.
    let first = curve.points[0].tv;
    assert!((first - (1.0 - 1.0 / 720.0)).abs() < 1e-12, "{first}");
}

#[test]
fn large_random_swap_falls_back_to_the_cycle_count() {
    let mut s = spec(
        Algorithm::RandomSwap { k: None },
        20,
        vec![0, 10, 200],
        20_000,
    );
    s.monte_carlo = false;
    let curve = run(&s, &|_| {}).unwrap();
    assert_eq!(curve.statistic, Some(Statistic::Cycles));
    assert!(curve.points_of(Method::Exact).next().is_none());
    let tv: Vec<f64> = curve.points.iter().map(|p| p.tv).collect();
    // k = 0: the identity has n cycles, probability 1/20! under uniform.
    assert!((tv[0] - 1.0).abs() < 1e-12, "{tv:?}");
    let floor = curve.points[2].noise_floor.unwrap();
    assert!(
        tv[1] > 0.5 && tv[2] < floor + 4.0 * curve.points[2].stderr.unwrap(),
        "{tv:?}"
    );
}

#[test]
fn exact_only_unless_asked() {
    let mut s = spec(Algorithm::Riffle { k: 3 }, 52, vec![7], 10);
    s.monte_carlo = false;
    let curve = run(&s, &|_| {}).unwrap();
    assert_eq!(curve.points.len(), 1);
    assert_eq!(curve.trials, None);
    assert!((curve.points[0].tv - 0.334).abs() < 0.0005);
}

#[test]
fn k_lists_parse_in_every_spelling() {
    assert_eq!(parse_ks("1..5").unwrap(), vec![1, 2, 3, 4, 5]);
    assert_eq!(parse_ks("0..=2").unwrap(), vec![0, 1, 2]);
    assert_eq!(parse_ks("8, 1,2,4").unwrap(), vec![1, 2, 4, 8]);
    assert_eq!(parse_ks("1..3,10,2").unwrap(), vec![1, 2, 3, 10]);
    for bad in ["", "a..3", "5..1", "1,,2", "-1", "1..2000000", "0..20000"] {
        let err = parse_ks(bad).unwrap_err().to_string();
        assert!(err.contains(&format!("'{bad}'")), "{bad}: {err}");
    }
}

#[test]
fn bad_specs_are_refused_before_running() {
    let err = run(&spec(Algorithm::FisherYates, 10, vec![1], 10), &|_| {})
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("'fisher-yates'") && err.contains("random-swap or riffle"),
        "{err}"
    );
    let err = run(&spec(Algorithm::Riffle { k: 1 }, 1, vec![1], 10), &|_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("n = 1"), "{err}");
    let err = run(&spec(Algorithm::Riffle { k: 1 }, 10, vec![1], 0), &|_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("trials"), "{err}");
}

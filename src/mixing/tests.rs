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

/// For each Monte Carlo point, where the exact value `shift` points later
/// falls relative to its range `tv_low..=tv_high`: 0 at the low end, 1 at the
/// high end; all must lie in [0, 1].
fn agreement(curve: &MixingCurve, shift: usize) -> Vec<f64> {
    let exact: Vec<_> = curve.points_of(Method::Exact).collect();
    curve
        .points_of(Method::MonteCarlo)
        .zip(exact.iter().skip(shift))
        .map(|(mc, ex)| {
            let (lo, hi) = (mc.tv_low.unwrap(), mc.tv_high.unwrap());
            (ex.tv - lo) / (hi - lo)
        })
        .collect()
}

/// Whether every ratio of [`agreement`] is in [0, 1], give or take rounding
/// (at TV = 1 the range and the exact value meet).
fn inside(ratios: &[f64]) -> bool {
    ratios.iter().all(|r| (-1e-9..=1.0 + 1e-9).contains(r))
}

#[test]
fn monte_carlo_riffles_of_52_agree_with_bayer_diaconis() {
    let curve = run(
        &spec(
            Algorithm::Riffle { k: 1, cut: false },
            52,
            (1..=12).collect(),
            200_000,
        ),
        &|_| {},
    )
    .unwrap();
    assert_eq!(curve.statistic, Some(Statistic::RisingSequences));
    let ratios = agreement(&curve, 0);
    assert_eq!(ratios.len(), 12);
    assert!(inside(&ratios), "{ratios:?}");
    // The comparison has power: against the exact curve one riffle later it fails.
    let shifted = agreement(&curve, 1);
    assert!(!inside(&shifted), "{shifted:?}");
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
    assert!(inside(&ratios), "{ratios:?}");
    let shifted = agreement(&curve, 1);
    assert!(!inside(&shifted), "{shifted:?}");
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
    assert!(tv[1] > 0.5, "{tv:?}");
    assert!(curve.points[2].is_at_bias_floor(), "{:?}", curve.points[2]);
    assert!(!curve.points[1].is_at_bias_floor(), "{:?}", curve.points[1]);
}

/// Issue 7 §6: random-swap, n = 6, k = 12, 200k trials. The plug-in estimate
/// (about 0.028) sits more than 10 standard errors above the exact 0.0154:
/// its error is bias, not spread. The range that subtracts the bias floor
/// covers the exact value; the floor itself is what a uniform shuffle shows.
#[test]
fn monte_carlo_range_covers_the_exact_value_despite_the_bias() {
    let curve = run(
        &spec(Algorithm::RandomSwap { k: None }, 6, vec![12, 40], 200_000),
        &|_| {},
    )
    .unwrap();
    let exact: Vec<f64> = curve.points_of(Method::Exact).map(|p| p.tv).collect();
    assert!((exact[0] - 0.0154).abs() < 5e-5, "{exact:?}");
    let mc: Vec<&MixingPoint> = curve.points_of(Method::MonteCarlo).collect();
    let (e, se, floor) = (mc[0].tv, mc[0].stderr.unwrap(), mc[0].bias_floor.unwrap());
    // The floor is √((C - 1) / (2πT)) to the normal approximation (C = 720 cells).
    let normal = (719.0 / (2.0 * std::f64::consts::PI * 200_000.0)).sqrt();
    assert!((floor / normal - 1.0).abs() < 0.01, "{floor} vs {normal}");
    // The spread alone does not cover the exact value: the error is bias.
    assert!(e - 3.0 * se > exact[0], "{e} ± {se} vs {}", exact[0]);
    // The reported range does, and is estimate - floor - 3 SE ..= estimate + 3 SE
    // (for whole permutations the bias bound at the observed law is the floor).
    assert_eq!(mc[0].bias_bound, Some(floor));
    let (lo, hi) = (mc[0].tv_low.unwrap(), mc[0].tv_high.unwrap());
    assert!(
        lo <= exact[0] && exact[0] <= hi,
        "[{lo}, {hi}] vs {}",
        exact[0]
    );
    assert!((lo - (e - floor - 3.0 * se)).abs() < 1e-15 && (hi - (e + 3.0 * se)).abs() < 1e-15);
    // k = 12 is still distinguishable from uniform at 200k trials; k = 40
    // (exact TV about 1e-5) is not, and says so.
    assert_eq!(mc[0].at_bias_floor, Some(false));
    assert_eq!(mc[1].at_bias_floor, Some(true));
    assert_eq!(mc[1].tv_low, Some(0.0));
    assert!(
        exact[1] < 1e-4 && mc[1].tv > floor - 3.0 * se,
        "{:?}",
        mc[1]
    );
    // Exact points carry neither.
    let first = &curve.points[0];
    assert_eq!(
        (first.stderr, first.bias_floor, first.at_bias_floor),
        (None, None, None)
    );
}

/// Issue 7 §6: n = 3, k = 60 transpositions: the true distance is about
/// 3^-60, far below what f64 can carry; the computed value is rounding noise
/// and must say so. k = 20 (about 2.4e-10) is a real value.
#[test]
fn exact_values_at_rounding_level_are_flagged() {
    let mut s = spec(Algorithm::RandomSwap { k: None }, 3, vec![0, 20, 60], 1);
    s.monte_carlo = false;
    let curve = run(&s, &|_| {}).unwrap();
    let p = &curve.points;
    assert_eq!(p[0].rounding_level, Some(false));
    assert_eq!(p[1].rounding_level, Some(false), "{:?}", p[1]);
    assert!((p[1].tv / 2.39e-10 - 1.0).abs() < 0.01, "{:?}", p[1]);
    assert_eq!(p[2].rounding_level, Some(true), "{:?}", p[2]);
    let bound = p[2].rounding_bound.unwrap();
    assert!(p[2].tv <= bound && bound < 1e-13, "{:?}", p[2]);
    assert!(p[2].is_rounding_level() && !p[1].is_rounding_level());
    // Monte Carlo points carry no rounding flag.
    let mut s = spec(Algorithm::RandomSwap { k: None }, 3, vec![60], 1000);
    s.monte_carlo = true;
    let curve = run(&s, &|_| {}).unwrap();
    let mc = curve.points_of(Method::MonteCarlo).next().unwrap();
    assert_eq!((mc.rounding_bound, mc.rounding_level), (None, None));
}

/// Riffles are computed in log space, accurate relative to their size: the
/// Bayer–Diaconis values are never flagged, only an underflow to 0 is.
#[test]
fn riffle_values_are_not_rounding_level() {
    let mut s = spec(
        Algorithm::Riffle { k: 1, cut: false },
        52,
        vec![1, 7, 10, 60, 5000],
        1,
    );
    s.monte_carlo = false;
    let curve = run(&s, &|_| {}).unwrap();
    let flags: Vec<bool> = curve.points.iter().map(|p| p.is_rounding_level()).collect();
    assert_eq!(flags, [false, false, false, false, true]);
    assert!((curve.points[1].tv - 0.334).abs() < 0.0005);
    assert!((curve.points[2].tv - 0.043).abs() < 0.0005);
}

#[test]
fn exact_only_unless_asked() {
    let mut s = spec(Algorithm::Riffle { k: 3, cut: false }, 52, vec![7], 10);
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
        err.contains("'fisher-yates'") && err.contains("random-swap, riffle"),
        "{err}"
    );
    let err = run(
        &spec(Algorithm::Riffle { k: 1, cut: false }, 1, vec![1], 10),
        &|_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("n = 1"), "{err}");
    let err = run(
        &spec(Algorithm::Riffle { k: 1, cut: false }, 10, vec![1], 0),
        &|_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("trials"), "{err}");
}

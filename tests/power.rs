//! Power planning is right: the planned trial count matches an independent
//! derivation, and audits run at that count detect the bias about as often
//! as promised.

use rayon::prelude::*;
use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::audit;
use shuffle_audit::engine::{RunSpec, no_progress};
use shuffle_audit::power::{self, Effect, EffectOrigin};
use shuffle_audit::source::SourceKind;
use shuffle_audit::spec::{TestKind, TestSet};
use shuffle_audit::stats::Verdict;
use shuffle_audit::stats::special::binomial_band;
use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

const N: usize = 10;
const ALPHA: f64 = 0.001;
const POWER: f64 = 0.9;

/// The exact marginals of the naive swap, derived here by following one
/// value's position through the n swaps: at step i the element at i moves to
/// a uniform position, and the element at a uniform j moves to i.
fn naive_swap_marginals(n: usize) -> Vec<f64> {
    let mut p = vec![0.0; n * n]; // p[position * n + value]
    for value in 0..n {
        let mut at = vec![0.0; n];
        at[value] = 1.0;
        for i in 0..n {
            let mut next = vec![0.0; n];
            for (x, &mass) in at.iter().enumerate() {
                if x == i {
                    next.iter_mut().for_each(|m| *m += mass / n as f64);
                } else {
                    next[x] += mass * (n as f64 - 1.0) / n as f64;
                    next[i] += mass / n as f64;
                }
            }
            at = next;
        }
        for (position, &mass) in at.iter().enumerate() {
            p[position * n + value] = mass;
        }
    }
    p
}

/// T from the Patnaik-free normal approximation to the non-central
/// chi-square: power ≈ Φ((λ + df − c) / √(2(df + 2λ))), solved for λ.
fn independent_plan(delta: f64, df: f64) -> f64 {
    let c = ChiSquared::new(df).unwrap().inverse_cdf(1.0 - ALPHA);
    let z = Normal::standard();
    let power = |lambda: f64| z.cdf((lambda + df - c) / (2.0 * (df + 2.0 * lambda)).sqrt());
    let (mut lo, mut hi) = (0.0, 1e6);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if power(mid) >= POWER {
            hi = mid
        } else {
            lo = mid
        }
    }
    hi / delta
}

#[test]
fn naive_swap_plan_matches_an_independent_derivation_and_simulation() {
    let marginals = naive_swap_marginals(N);
    for row in marginals.chunks(N) {
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
    let effect = Effect::position_value(N, &marginals, EffectOrigin::Exact);
    // The planner's own exact effect (from the exact module's propagation)
    // agrees with this derivation.
    let planner = power::exact_effect(
        Algorithm::NaiveSwap,
        N,
        SourceKind::Chacha8.into(),
        TestKind::PositionValue,
    )
    .unwrap()
    .expect("naive-swap marginals are exact");
    assert!(
        (planner.delta - effect.delta).abs() < 1e-9 * effect.delta,
        "{planner:?} vs {effect:?}"
    );
    let plan = power::plan(planner, ALPHA, POWER).unwrap();
    let independent = independent_plan(effect.delta, effect.df);
    println!(
        "delta = {:.5}, planned T = {}, independent T = {independent:.0}",
        effect.delta, plan.trials
    );
    let ratio = plan.trials as f64 / independent;
    assert!(
        (0.9..=1.1).contains(&ratio),
        "planned {} vs independent {independent:.0}",
        plan.trials
    );

    // Simulate: audits at the planned T should detect the bias with about the
    // requested probability.
    const RUNS: u64 = 400;
    let detected = (0..RUNS)
        .into_par_iter()
        .filter(|&seed| {
            let spec = RunSpec {
                tests: TestSet::position_value(),
                ..RunSpec::new(
                    Algorithm::NaiveSwap,
                    N,
                    plan.trials,
                    SourceKind::Chacha8.into(),
                    900 + seed,
                )
            };
            audit::run(&spec, ALPHA, &no_progress).unwrap().verdict == Verdict::Biased
        })
        .count() as u64;
    let (lo, hi) = binomial_band(RUNS, POWER, 0.999);
    println!("detected {detected} of {RUNS} (band {lo}..={hi} around {POWER})");
    // The asymptotic plan may be a little off at ~7 counts per cell; allow 4
    // points either side of the exact binomial band.
    let slack = (0.04 * RUNS as f64) as u64;
    assert!(
        detected + slack >= lo && detected <= hi + slack,
        "detected {detected} of {RUNS}, expected about {}",
        POWER * RUNS as f64
    );
}

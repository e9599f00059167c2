//! How many trials an audit needs to see a given bias, and the effect sizes
//! that answer rests on.
//!
//! Under a fixed alternative, Pearson-type statistics are asymptotically
//! non-central chi-square with the null's degrees of freedom and a
//! non-centrality that grows linearly in the trial count: λ = T·δ. For the
//! calibrated position-by-value statistic Q = ((n−1)/n) Σ (O−E)²/E,
//! δ = (n−1) Σ_pv (P_pv − 1/n)², where P is the matrix of marginal
//! probabilities; for the whole-permutation test over k = n! outcomes,
//! δ = k Σ_π (p_π − 1/k)². The plan is the smallest T whose λ gives the
//! requested power at level α.

use crate::algorithm::Algorithm;
use crate::audit;
use crate::engine::{RunSpec, no_progress};
use crate::error::{Error, Result};
use crate::exact;
use crate::permutation::{factorial, rank};
use crate::source::SourceSpec;
use crate::spec::{MAX_PERMUTATION_N, TestKind, TestSet};
use crate::stats::TestResult;
use crate::stats::special::{chi2_isf, noncentral_chi2_sf, noncentrality_for_power};
use serde::Serialize;

/// Where an effect size came from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum EffectOrigin {
    /// Computed from the exact law or exact marginals.
    Exact,
    /// Estimated from a pilot Monte Carlo run of this many trials, as
    /// (statistic − df) / T, the unbiased estimate of the non-centrality per
    /// trial.
    Pilot {
        /// Trials in the pilot run.
        trials: u64,
    },
}

/// The size of a bias as one test sees it: non-centrality per trial.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Effect {
    /// δ: the statistic's non-centrality grows as T·δ.
    pub delta: f64,
    /// Degrees of freedom of the test.
    pub df: f64,
    /// Number of cells the test counts into (for the sparse-cell warning).
    pub cells: f64,
    /// Where δ came from.
    pub origin: EffectOrigin,
}

impl Effect {
    /// The position-by-value effect of a marginal matrix `p[position][value]`
    /// (row-major, n×n, each row summing to 1).
    pub fn position_value(n: usize, marginals: &[f64], origin: EffectOrigin) -> Self {
        let u = 1.0 / n as f64;
        let sum_sq: f64 = marginals.iter().map(|&p| (p - u) * (p - u)).sum();
        Self {
            delta: (n as f64 - 1.0) * sum_sq,
            df: ((n - 1) * (n - 1)) as f64,
            cells: (n * n) as f64,
            origin,
        }
    }

    /// The whole-permutation effect of a law over all k = n! permutations.
    pub fn permutation(law: &[f64], origin: EffectOrigin) -> Self {
        let k = law.len() as f64;
        let sum_sq: f64 = law.iter().map(|&p| (p - 1.0 / k) * (p - 1.0 / k)).sum();
        Self {
            delta: k * sum_sq,
            df: k - 1.0,
            cells: k,
            origin,
        }
    }

    /// The effect a finished test shows on its own `trials` trials at `n`:
    /// [`from_pilot`](Self::from_pilot) with the test's cell count.
    pub fn from_result(result: &TestResult, n: usize, trials: u64) -> Self {
        let cells = match result.test {
            TestKind::PositionValue => (n * n) as f64,
            _ => result.df + 1.0,
        };
        Self::from_pilot(result.statistic, result.df, cells, trials)
    }

    /// The effect estimated from a pilot run's statistic: δ̂ = (X − df) / T,
    /// floored at 0 (no detectable bias).
    pub fn from_pilot(statistic: f64, df: f64, cells: f64, trials: u64) -> Self {
        Self {
            delta: ((statistic - df) / trials as f64).max(0.0),
            df,
            cells,
            origin: EffectOrigin::Pilot { trials },
        }
    }
}

/// Below this many expected counts per cell the chi-square approximation,
/// and so the plan, is unreliable.
pub const MIN_EXPECTED_PER_CELL: f64 = 5.0;

/// Largest enumeration [`exact_effect`] attempts (draw sequences), so that
/// planning stays a matter of seconds.
pub const EXACT_EFFECT_MAX_LEAVES: u64 = 5_000_000;

/// The exact effect of `algorithm` on `test` at `n` under `source`, where the
/// exact module can compute it quickly (propagated marginals, or an
/// enumeration of at most [`EXACT_EFFECT_MAX_LEAVES`] draw sequences);
/// `None` where it cannot, and a pilot run must estimate it instead.
pub fn exact_effect(
    algorithm: Algorithm,
    n: usize,
    source: SourceSpec,
    test: TestKind,
) -> Result<Option<Effect>> {
    let enumerable =
        || exact::check_enumerate(algorithm, n, source, EXACT_EFFECT_MAX_LEAVES).is_ok();
    match test {
        TestKind::PositionValue => {
            if exact::check_marginals(algorithm, n, source).is_ok() {
                let m = exact::marginals(algorithm, n, source)?;
                return Ok(Some(Effect::position_value(
                    n,
                    m.probabilities(),
                    EffectOrigin::Exact,
                )));
            }
            if enumerable() {
                let law = exact::enumerate(algorithm, n, source, EXACT_EFFECT_MAX_LEAVES)?;
                let p = law.marginals().probabilities();
                return Ok(Some(Effect::position_value(n, p, EffectOrigin::Exact)));
            }
            Ok(None)
        }
        TestKind::Permutation if n <= MAX_PERMUTATION_N && enumerable() => {
            let law = exact::enumerate(algorithm, n, source, EXACT_EFFECT_MAX_LEAVES)?;
            Ok(Some(Effect::permutation(
                &law_by_rank(&law),
                EffectOrigin::Exact,
            )))
        }
        _ => Ok(None),
    }
}

/// The effect of `algorithm` on `test`, estimated from a pilot audit of
/// `trials` shuffles that runs that test alone.
pub fn pilot_effect(
    algorithm: Algorithm,
    n: usize,
    source: SourceSpec,
    test: TestKind,
    trials: u64,
    seed: u64,
) -> Result<Effect> {
    let spec = RunSpec {
        tests: TestSet::parse(test.name(), n)?,
        ..RunSpec::new(algorithm, n, trials, source, seed)
    };
    let audit = audit::run(&spec, audit::DEFAULT_ALPHA, &no_progress)?;
    Ok(Effect::from_result(&audit.tests[0], n, trials))
}

/// An exact law as probabilities indexed by [`rank`] (all n! permutations).
pub fn law_by_rank(law: &exact::ExactLaw) -> Vec<f64> {
    let mut p = vec![0.0; factorial(law.n())];
    for (perm, prob) in law.iter_f64() {
        p[rank(perm)] = prob;
    }
    p
}

/// A trial-count plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    /// The effect it is based on.
    pub effect: Effect,
    /// Significance level.
    pub alpha: f64,
    /// Requested power.
    pub power: f64,
    /// The rejection threshold of the statistic at α.
    pub critical_value: f64,
    /// The non-centrality needed for the requested power.
    pub lambda: f64,
    /// Trials needed: ceil(λ / δ).
    pub trials: u64,
    /// Expected counts per cell at that T (below 5 the asymptotics are shaky).
    pub expected_per_cell: f64,
    /// The trials to run: `trials`, raised where needed so that every cell
    /// expects at least 5 counts and the chi-square form of the test applies.
    pub recommended_trials: u64,
    /// A warning when the approximation is unreliable.
    pub warning: Option<String>,
}

/// The smallest T at which a test with effect `effect` rejects at level
/// `alpha` with probability at least `power`.
pub fn plan(effect: Effect, alpha: f64, power: f64) -> Result<Plan> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::invalid(format!("alpha = {alpha} is not in (0, 1)")));
    }
    if !(power > alpha && power < 1.0) {
        return Err(Error::invalid(format!(
            "power = {power} must lie between alpha ({alpha}) and 1"
        )));
    }
    if effect.delta <= 0.0 {
        return Err(Error::invalid(match effect.origin {
            EffectOrigin::Exact => {
                "this test sees no bias at all in the exact law: no number of trials will detect it"
                    .to_string()
            }
            EffectOrigin::Pilot { trials } => format!(
                "the pilot of {trials} trials shows no bias this test can see; try a larger pilot"
            ),
        }));
    }
    let critical_value = chi2_isf(alpha, effect.df);
    let lambda = noncentrality_for_power(critical_value, effect.df, power);
    let trials = (lambda / effect.delta).ceil().max(1.0) as u64;
    let expected_per_cell = trials as f64 / effect.cells;
    let recommended_trials = trials.max((MIN_EXPECTED_PER_CELL * effect.cells).ceil() as u64);
    let warning = (expected_per_cell < MIN_EXPECTED_PER_CELL).then(|| {
        format!(
            "only {expected_per_cell:.2} expected counts per cell at T = {trials}: the chi-square \
             approximation is unreliable this sparse, so the plan is a rough guide; run at least \
             {recommended_trials} trials (5 per cell), where the test's chi-square form applies"
        )
    });
    Ok(Plan {
        effect,
        alpha,
        power,
        critical_value,
        lambda,
        trials,
        expected_per_cell,
        recommended_trials,
        warning,
    })
}

/// The power a test with effect `effect` has at `trials` trials and level `alpha`.
pub fn power_at(effect: &Effect, trials: u64, alpha: f64) -> f64 {
    let critical = chi2_isf(alpha, effect.df);
    noncentral_chi2_sf(critical, effect.df, effect.delta * trials as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_df_plan_matches_the_normal_closed_form() {
        // df = 1: power = Φ(√λ − z_{α/2}) + Φ(−√λ − z_{α/2}); for α = 0.05 and
        // power 0.8 the classic answer is λ = (1.95996 + 0.84162)² ≈ 7.849.
        let effect = Effect {
            delta: 0.01,
            df: 1.0,
            cells: 2.0,
            origin: EffectOrigin::Exact,
        };
        let plan = plan(effect, 0.05, 0.8).unwrap();
        assert!((plan.lambda - 7.849).abs() < 0.01, "{}", plan.lambda);
        assert_eq!(plan.trials, 785);
        assert!((power_at(&effect, plan.trials, 0.05) - 0.8).abs() < 0.002);
    }

    #[test]
    fn no_effect_and_bad_levels_are_refused() {
        let none = Effect::from_pilot(70.0, 81.0, 100.0, 1000);
        assert_eq!(none.delta, 0.0);
        assert!(
            plan(none, 0.001, 0.9)
                .unwrap_err()
                .to_string()
                .contains("pilot of 1000")
        );
        let some = Effect::from_pilot(181.0, 81.0, 100.0, 1000);
        assert!((some.delta - 0.1).abs() < 1e-12);
        assert!(plan(some, 1.5, 0.9).is_err());
        assert!(plan(some, 0.01, 0.005).is_err());
    }

    #[test]
    fn uniform_marginals_have_no_position_value_effect() {
        let n = 4;
        let uniform = vec![0.25; n * n];
        assert_eq!(
            Effect::position_value(n, &uniform, EffectOrigin::Exact).delta,
            0.0
        );
    }
}

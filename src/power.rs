//! How many trials an audit needs to see a given bias, and the effect sizes
//! that answer rests on.
//!
//! Under a fixed alternative, Pearson-type statistics are asymptotically
//! non-central chi-square with the null's degrees of freedom and a
//! non-centrality that grows linearly in the trial count: λ = T·δ. For the
//! calibrated position-by-value statistic Q = ((n−1)/n) Σ (O−E)²/E,
//! δ = (n−1) Σ_pv (P_pv − 1/n)², where P is the matrix of marginal
//! probabilities; for the whole-permutation test over k = n! outcomes,
//! δ = k Σ_π (p_π − 1/k)²; for a goodness-of-fit test of categories with null
//! law q and true law p, δ = Σ (p − q)²/q over the (pooled) categories. The
//! plan is the smallest T whose λ gives the requested power at the level used.
//!
//! What keeps a plan honest:
//! - an effect estimated from a pilot run carries the pilot's noise: the
//!   excess X − df of a fair shuffle's statistic has standard deviation
//!   √(2·df), so a pilot whose excess is within [`PILOT_Z`] of those is
//!   refused ("not distinguishable from zero"), and otherwise the plan comes
//!   with an interval ([`TrialRange`]) from a confidence interval on δ;
//! - an exact effect below [`NEGLIGIBLE_DELTA`] is rounding in the f64
//!   probabilities, not bias, and a plan beyond 2^64 trials is no plan;
//! - [`plan_audit`] plans for the battery an audit actually runs, at the
//!   level its Holm corrections imply ([`AuditPlan`], for every kind of
//!   subject), and keeps "trials for power" apart from "trials for the
//!   chi-square approximation";
//! - a plan below [`simulate::SIMULATE_BELOW`] trials, where the
//!   non-central χ² is only a first guess, is checked by seeded simulation,
//!   and one that cannot be checked is withdrawn ([`simulate`]).
//!
//! [`sampler`] plans sampler audits (inclusion, pairs, subsets, order and
//! weighted-pick tests) the same way.

mod audit_plan;
pub mod sampler;
mod shuffle;
pub mod simulate;
mod structure;

pub use audit_plan::{AuditPlan, NotRun, PlanKind, PlannedTest, TestPlan};
pub use shuffle::{
    PLAN_AUDIT_MAX_LEAVES, ShuffleDetails, ShuffleTestDetails, plan_audit, plan_audit_with,
};
pub use structure::{StructureLaws, riffle_rising_law};

use crate::algorithm::Algorithm;
use crate::audit;
use crate::audit::Spec;
use crate::engine::{Progress, no_progress};
use crate::error::{Error, Result};
use crate::exact;
use crate::format::thousands;
use crate::permutation::{factorial, rank};
use crate::source::SourceSpec;
use crate::spec::{LARGE_N, MAX_PERMUTATION_N, TestKind, TestSet};
use crate::stats::TestResult;
use crate::stats::order;
use crate::stats::special::{chi2_isf, noncentral_chi2_sf, noncentrality_for_power};
use crate::subject::{ShuffleOptions, Shuffles};
use serde::Serialize;

/// Where an effect size came from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum EffectOrigin {
    /// Computed from the exact law or exact marginals.
    Exact,
    /// Estimated from a pilot Monte Carlo run of this many trials, as
    /// (statistic − df) / T, the unbiased estimate of the non-centrality per
    /// trial. The statistic is kept so that the estimate's uncertainty
    /// ([`Effect::interval`]) can be stated.
    Pilot {
        /// Trials in the pilot run.
        trials: u64,
        /// The pilot's test statistic.
        statistic: f64,
    },
}

/// The size of a bias as one test sees it: non-centrality per trial.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Effect {
    /// δ: the statistic's non-centrality grows as T·δ (the point estimate,
    /// floored at 0, for a pilot).
    pub delta: f64,
    /// Degrees of freedom of the test.
    pub df: f64,
    /// Number of cells the test counts into.
    pub cells: f64,
    /// Trials at which every cell expects at least [`MIN_EXPECTED_PER_CELL`]
    /// counts, so that the test's chi-square form applies: 5n for the
    /// position-by-value test (each trial puts n counts into n² cells),
    /// 5·cells for the others.
    pub approximation_trials: u64,
    /// Where δ came from.
    pub origin: EffectOrigin,
}

/// Standard deviations (of a fair shuffle's statistic, √(2·df)) that a
/// pilot's excess X − df must clear before its effect counts as
/// distinguishable from zero; also the half-width, in standard deviations,
/// of the confidence interval on δ (about 99.7% two-sided).
pub const PILOT_Z: f64 = 3.0;

/// The fewest trials at which the serial test's plan, from the normal limit
/// of its sign statistic, is taken at its word: 20 triples of deals.
pub const SERIAL_APPROXIMATION_TRIALS: u64 = 60;

/// Exact effects at or below this are treated as zero. The exact marginals
/// beyond the rational range are f64 with relative error about 3e-13
/// (absolute about 3e-13/n per entry), so a fair shuffle's δ = (n−1) Σ (P − 1/n)²
/// comes out as large as about n·(3e-13)² ≈ 1e-23 at n = 52 (seen: 3e-29);
/// 1e-20 leaves a wide margin, and a real δ this small would need more than
/// 10^21 trials anyway.
pub const NEGLIGIBLE_DELTA: f64 = 1e-20;

/// A confidence interval on the non-centrality per trial of a pilot
/// estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DeltaInterval {
    /// Lower end (0 when the effect is not distinguishable from zero).
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Half-width in standard deviations ([`PILOT_Z`]).
    pub z: f64,
    /// The pilot's excess X − df.
    pub excess: f64,
    /// A fair shuffle's standard deviation of the excess, √(2·df).
    pub null_sd: f64,
}

impl DeltaInterval {
    /// Whether the pilot's excess is more than z null standard deviations
    /// above zero, i.e. the interval excludes δ = 0.
    pub fn distinguishable(&self) -> bool {
        self.low > 0.0
    }
}

/// The non-centralities λ whose statistic X ~ χ²(df, λ) would put the
/// observed excess `x − df` exactly z standard deviations (Var X ≈
/// 2(df + 2λ)) above or below its mean: roots of
/// (u − λ)² = 2z²(df + 2λ), u = x − df. The lower root is positive exactly
/// when u > z·√(2·df).
fn lambda_bounds(excess: f64, df: f64, z: f64) -> (f64, f64) {
    let z2 = z * z;
    let centre = excess + 2.0 * z2;
    let disc = (4.0 * z2 * excess + 4.0 * z2 * z2 + 2.0 * z2 * df).max(0.0);
    let root = disc.sqrt();
    ((centre - root).max(0.0), (centre + root).max(0.0))
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
            approximation_trials: (MIN_EXPECTED_PER_CELL * n as f64).ceil() as u64,
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
            approximation_trials: (MIN_EXPECTED_PER_CELL * k).ceil() as u64,
            origin,
        }
    }

    /// The effect a finished test shows on its own `trials` trials at `n`:
    /// [`from_pilot`](Self::from_pilot) with the test's cell count (for the
    /// pooled structure tests, the df + 1 groups they were pooled into).
    pub fn from_result(result: &TestResult, n: usize, trials: u64) -> Self {
        // (cells, trials) when the sparsest cell expects `fewest` per trial.
        let sparsest = |fewest: f64| {
            (
                result.df + 1.0,
                MIN_EXPECTED_PER_CELL / fewest.max(f64::MIN_POSITIVE),
            )
        };
        let (cells, approximation) = match result.test {
            // The serial test's sign statistic S has no chi-square form;
            // its squared standard score z² is χ²(1) in the normal limit of
            // many triples, with non-centrality growing as the trials.
            TestKind::Serial => {
                return Self::from_pilot(
                    result.departure * result.departure,
                    1.0,
                    2.0,
                    SERIAL_APPROXIMATION_TRIALS,
                    trials,
                );
            }
            // The successor test's count has no chi-square form either: its
            // z-score squared is χ²(1) in the normal limit (a Poisson count
            // of many adjacencies), with non-centrality growing as the
            // shoes; one shoe already holds hundreds of adjacencies.
            TestKind::Successor => {
                return Self::from_pilot(result.departure * result.departure, 1.0, 2.0, 1, trials);
            }
            TestKind::PositionValue => {
                // n×n cells, or B×B bins of about n/B² cells each.
                let side = crate::stats::sensitivity::matrix_side(result.df);
                (side * side, MIN_EXPECTED_PER_CELL * side * side / n as f64)
            }
            // Tables whose cells expect unequal counts per trial: the
            // trials at which the sparsest cell expects enough.
            TestKind::Inversions => sparsest(smallest(&order::inversion_bin_law(
                n,
                &crate::tally::inversion_edges(n),
            ))),
            TestKind::Displacement => sparsest(smallest(&order::displacement_means(n))),
            TestKind::Lehmer if n > LARGE_N => sparsest(
                order::lehmer_law(n)
                    .iter()
                    .map(|row| smallest(&row.mean))
                    .fold(f64::INFINITY, f64::min),
            ),
            // The last digit's n cells, 1/n each.
            TestKind::Lehmer => sparsest(1.0 / n as f64),
            _ => (result.df + 1.0, MIN_EXPECTED_PER_CELL * (result.df + 1.0)),
        };
        Self::from_pilot(
            result.statistic,
            result.df,
            cells,
            approximation.ceil() as u64,
            trials,
        )
    }

    /// The effect estimated from a pilot run's statistic: δ̂ = (X − df) / T,
    /// floored at 0. See [`interval`](Self::interval) for its uncertainty.
    pub fn from_pilot(
        statistic: f64,
        df: f64,
        cells: f64,
        approximation_trials: u64,
        trials: u64,
    ) -> Self {
        Self {
            delta: ((statistic - df) / trials as f64).max(0.0),
            df,
            cells,
            approximation_trials,
            origin: EffectOrigin::Pilot { trials, statistic },
        }
    }

    /// For a pilot estimate, the [`PILOT_Z`]-standard-deviation confidence
    /// interval on δ, from Var X ≈ 2(df + 2λ); `None` for an exact effect.
    pub fn interval(&self) -> Option<DeltaInterval> {
        let EffectOrigin::Pilot { trials, statistic } = self.origin else {
            return None;
        };
        let excess = statistic - self.df;
        let (lo, hi) = lambda_bounds(excess, self.df, PILOT_Z);
        let t = trials as f64;
        Some(DeltaInterval {
            low: lo / t,
            high: hi / t,
            z: PILOT_Z,
            excess,
            null_sd: (2.0 * self.df).sqrt(),
        })
    }

    /// Whether the effect is distinguishable from zero: above
    /// [`NEGLIGIBLE_DELTA`] when exact, with an interval excluding zero when
    /// estimated.
    pub fn distinguishable(&self) -> bool {
        match self.interval() {
            Some(i) => i.distinguishable() && self.delta > NEGLIGIBLE_DELTA,
            None => self.delta > NEGLIGIBLE_DELTA,
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
    let law = || exact::enumerate(algorithm, n, source, EXACT_EFFECT_MAX_LEAVES);
    Ok(Some(match test {
        TestKind::PositionValue => {
            let m = if exact::check_marginals(algorithm, n, source).is_ok() {
                exact::marginals(algorithm, n, source)?
            } else if enumerable() {
                law()?.marginals().clone()
            } else {
                return Ok(None);
            };
            Effect::position_value(n, m.probabilities(), EffectOrigin::Exact)
        }
        TestKind::Permutation if n <= MAX_PERMUTATION_N && enumerable() => {
            Effect::permutation(&law_by_rank(&law()?), EffectOrigin::Exact)
        }
        _ => return Ok(None),
    }))
}

/// An audit of `algorithm` at `n` under `source` running `test` alone.
fn one_test_spec(
    algorithm: Algorithm,
    n: usize,
    trials: u64,
    source: SourceSpec,
    seed: u64,
    test: TestKind,
) -> Result<Spec<Shuffles>> {
    Ok(Spec::<Shuffles> {
        options: ShuffleOptions::with_tests(TestSet::parse(test.name(), n)?),
        ..Spec::new(algorithm, n, trials, source, seed)
    })
}

/// The smallest of `values`.
fn smallest(values: &[f64]) -> f64 {
    values.iter().copied().fold(f64::INFINITY, f64::min)
}

/// Pilot trials for a shuffle's plan unless told: [`PILOT_TRIALS`], or
/// fewer above n = 100 so that a pilot shuffles about [`PILOT_WORK`] items
/// (at n = 10^5, 2,000 shuffles instead of 10^6: seconds, not minutes),
/// never fewer than [`MIN_PILOT_TRIALS`]. A pilot too small to tell an
/// effect from zero says so and names the pilot size that could.
pub fn default_pilot_trials(n: usize) -> u64 {
    (PILOT_WORK / n.max(1) as u64).clamp(MIN_PILOT_TRIALS, PILOT_TRIALS)
}

/// The pilot's trials at small n (see [`default_pilot_trials`]).
pub const PILOT_TRIALS: u64 = 1_000_000;

/// The items a default pilot shuffles in all (see [`default_pilot_trials`]).
pub const PILOT_WORK: u64 = 100_000_000;

/// The fewest trials of a default pilot (see [`default_pilot_trials`]).
pub const MIN_PILOT_TRIALS: u64 = 2_000;

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
    pilot_effect_with(algorithm, n, source, test, trials, seed, &no_progress)
}

/// [`pilot_effect`], reporting the pilot's finished trials to `progress`.
pub fn pilot_effect_with(
    algorithm: Algorithm,
    n: usize,
    source: SourceSpec,
    test: TestKind,
    trials: u64,
    seed: u64,
    progress: Progress<'_>,
) -> Result<Effect> {
    let spec = one_test_spec(algorithm, n, trials, source, seed, test)?;
    let audit = audit::run(&spec, audit::DEFAULT_ALPHA, progress)?;
    Ok(Effect::from_result(&audit.tests()[0], n, trials))
}

/// An exact law as probabilities indexed by `rank` (all n! permutations).
pub fn law_by_rank(law: &exact::ExactLaw) -> Vec<f64> {
    let mut p = vec![0.0; factorial(law.n())];
    for (perm, prob) in law.iter_f64() {
        p[rank(perm)] = prob;
    }
    p
}

/// Bounds on the trials a plan needs, when its effect is uncertain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TrialRange {
    /// Fewest trials that could suffice (from the upper end of the effect's
    /// interval).
    pub low: u64,
    /// Most trials that could be needed (from the lower end); `None` when
    /// unbounded (the effect may be zero) or beyond 2^64.
    pub high: Option<u64>,
}

impl std::fmt::Display for TrialRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.high {
            Some(high) => write!(f, "{} to {}", thousands(self.low), thousands(high)),
            None => write!(f, "at least {}", thousands(self.low)),
        }
    }
}

/// A trial-count plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    /// The effect it is based on.
    pub effect: Effect,
    /// Significance level the test is planned at.
    pub alpha: f64,
    /// Requested power.
    pub power: f64,
    /// The rejection threshold of the statistic at α.
    pub critical_value: f64,
    /// The non-centrality needed for the requested power.
    pub lambda: f64,
    /// Trials needed for the requested power: ceil(λ / δ) (the point
    /// estimate, for a pilot effect).
    pub trials: u64,
    /// For a pilot effect: the trials needed at the ends of δ's
    /// [`PILOT_Z`]-standard-deviation interval. `None` for an exact effect.
    pub trials_range: Option<TrialRange>,
    /// Expected counts per cell at T = `trials`.
    pub expected_per_cell: f64,
    /// Trials at which the chi-square approximation holds (5 expected per
    /// cell): a separate requirement from power, see
    /// [`Effect::approximation_trials`].
    pub approximation_trials: u64,
    /// max(`trials`, `approximation_trials`): a run that is both powerful and
    /// in the approximation's range. Not a power figure; prefer the two
    /// fields it mixes.
    pub recommended_trials: u64,
    /// A warning when the approximation is unreliable at `trials`.
    pub warning: Option<String>,
    /// ceil(λ / δ): the non-central χ² plan, which `trials` is unless a
    /// simulation replaced it (see [`checked_plan_outcome`]); `None` where
    /// the test sees no bias in the exact law and the battery's simulated
    /// audits found the plan (a rotation's uniform marginals).
    pub chi_square_trials: Option<u64>,
    /// Where the χ² plan was small (below [`simulate::SIMULATE_BELOW`]) and
    /// the algorithm could be simulated: the seeded audits that found
    /// `trials` instead.
    pub simulation: Option<simulate::Simulation>,
}

/// Either a plan, or why there is none.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "outcome")]
pub enum PlanOutcome {
    /// A plan.
    Planned(Plan),
    /// No trial count can be promised.
    NoPlan {
        /// The effect considered.
        effect: Effect,
        /// Why, in a sentence or two.
        reason: String,
        /// A lower bound on the trials any detection would need, where the
        /// effect's upper confidence bound gives one.
        at_least: Option<u64>,
        /// For a pilot too small to tell: a pilot size that could show an
        /// effect as large as the upper bound.
        pilot_needed: Option<u64>,
    },
}

/// ceil(λ / δ) as a trial count, or `None` when it does not fit in a u64.
fn trials_for(lambda: f64, delta: f64) -> Option<u64> {
    let t = (lambda / delta).ceil().max(1.0);
    (t.is_finite() && t < u64::MAX as f64).then_some(t as u64)
}

/// Checks the level and the requested power.
fn check_levels(alpha: f64, power: f64) -> Result<()> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::out_of_range(format!(
            "alpha = {alpha} is not in (0, 1)"
        )));
    }
    if !(power > alpha && power < 1.0) {
        return Err(Error::out_of_range(format!(
            "power = {power} must lie between alpha ({alpha}) and 1"
        )));
    }
    Ok(())
}

/// The smallest T at which a test with effect `effect` rejects at level
/// `alpha` with probability at least `power`, or the reason no such T can be
/// promised: an exact effect below [`NEGLIGIBLE_DELTA`] ("no bias"), a plan
/// beyond 2^64 trials, or a pilot whose excess is within [`PILOT_Z`]
/// standard deviations of zero (with the lower bound on trials and the pilot
/// size that its upper confidence bound implies). Errors only on bad levels.
pub fn plan_outcome(effect: Effect, alpha: f64, power: f64) -> Result<PlanOutcome> {
    check_levels(alpha, power)?;
    let critical_value = chi2_isf(alpha, effect.df);
    let lambda = noncentrality_for_power(critical_value, effect.df, power);
    let no_plan = |reason: String, at_least: Option<u64>, pilot_needed: Option<u64>| {
        Ok(PlanOutcome::NoPlan {
            effect,
            reason,
            at_least,
            pilot_needed,
        })
    };
    let interval = effect.interval();
    if let (Some(i), EffectOrigin::Pilot { trials, .. }) = (interval, effect.origin)
        && !i.distinguishable()
    {
        let at_least = (i.high > 0.0).then(|| trials_for(lambda, i.high)).flatten();
        // A pilot whose expected excess is 2z null sds clears the z bar for
        // an effect as large as the upper bound.
        let pilot_needed = (i.high > 0.0)
            .then(|| trials_for(2.0 * i.z * i.null_sd, i.high))
            .flatten();
        let mut reason = format!(
            "the effect is not distinguishable from zero at this pilot size: the pilot of {} \
             trials exceeds df by {:.1}, within {} standard deviations ({:.1}) of what a fair \
             shuffle gives",
            thousands(trials),
            i.excess,
            i.z,
            i.z * i.null_sd
        );
        if let (Some(a), Some(p)) = (at_least, pilot_needed) {
            reason.push_str(&format!(
                "; the effect is at most {:.3e} per trial, so detecting it would take at least \
                 {} trials, and a pilot of about {} trials could show an effect that large \
                 (smaller ones need proportionally larger pilots)",
                i.high,
                thousands(a),
                thousands(p)
            ));
        }
        return no_plan(reason, at_least, pilot_needed);
    }
    if effect.delta <= NEGLIGIBLE_DELTA {
        return no_plan(
            format!(
                "no bias: this test sees none in the exact law (non-centrality {:.1e} per \
                 trial, at or below the {NEGLIGIBLE_DELTA:.0e} that rounding of the exact \
                 probabilities produces): no number of trials will detect one",
                effect.delta
            ),
            None,
            None,
        );
    }
    let Some(trials) = trials_for(lambda, effect.delta) else {
        return no_plan(
            format!(
                "the effect ({:.3e} per trial) is too small to plan for: more than 2^64 trials \
                 would be needed",
                effect.delta
            ),
            Some(u64::MAX),
            None,
        );
    };
    let trials_range = interval.map(|i| TrialRange {
        low: trials_for(lambda, i.high).unwrap_or(u64::MAX).min(trials),
        high: trials_for(lambda, i.low).map(|h| h.max(trials)),
    });
    let approximation_trials = effect.approximation_trials;
    let expected_per_cell =
        MIN_EXPECTED_PER_CELL * trials as f64 / approximation_trials.max(1) as f64;
    let recommended_trials = trials.max(approximation_trials);
    let warning = (trials < approximation_trials).then(|| {
        format!(
            "only {expected_per_cell:.2} expected counts per cell at T = {trials}: the \
             chi-square approximation is unreliable this sparse, so the plan is a rough guide; \
             the approximation holds from {approximation_trials} trials (5 per cell)"
        )
    });
    Ok(PlanOutcome::Planned(Plan {
        effect,
        alpha,
        power,
        critical_value,
        lambda,
        trials,
        trials_range,
        expected_per_cell,
        approximation_trials,
        recommended_trials,
        warning,
        chi_square_trials: Some(trials),
        simulation: None,
    }))
}

/// Where the search of [`checked_plan_outcome`] starts when the χ² plan is
/// not small.
const FIRST_GUESS: u64 = 4;

/// [`plan_outcome`] for the audit a user runs next: a built-in `algorithm`
/// at `n` under `source`, its battery `tests` (the audit's default, unless
/// `--tests` narrows it) judged with Holm's correction over its m tests at
/// `level` (α over the audits of the run), as `audit` judges it.
///
/// The first guess is `test`'s non-central χ² plan at level/m, Holm's
/// first step: the battery rejects whenever that test's p-value is at most
/// level/m, so the guess is a safe plan for the battery wherever the χ² law
/// holds. Where the guess is below [`simulate::SIMULATE_BELOW`] trials
/// (where a test may not even be able to reject: the position-by-value
/// statistic of one permutation is a constant), or where the battery as a
/// whole may need fewer trials than that one test (any guess: the search
/// then climbs from a few trials to at most [`simulate::SIMULATE_BELOW`],
/// and the χ² plan stands where the battery does not hold there), seeded audits of the algorithm running
/// the whole battery, judged exactly as the audit judges them, find the
/// plan: the smallest trial count whose 95% lower confidence bound on the
/// power is at least `power` ([`simulate`]; [`Plan::simulation`]). Those
/// audits use seeds of their own ([`simulate::SIMULATION_SEED`]), never a
/// user's. Where the simulation cannot finish (too costly) and the χ² plan
/// is below the trials its approximation needs, or the simulation
/// contradicts a χ² plan below [`simulate::SIMULATE_BELOW`], there is no
/// plan rather than a false one.
#[allow(clippy::too_many_arguments)]
pub fn checked_plan_outcome(
    algorithm: Algorithm,
    n: usize,
    source: SourceSpec,
    tests: &TestSet,
    test: TestKind,
    effect: Effect,
    level: f64,
    power: f64,
) -> Result<PlanOutcome> {
    check_levels(level, power)?;
    if !tests.contains(test) {
        return Err(Error::unsupported(format!(
            "the audit planned for runs {tests}, not {test}: plan a test it runs, or add {test} \
             to --tests"
        )));
    }
    let m = tests.iter().count().max(1);
    let outcome = plan_outcome(effect, level / m as f64, power)?;
    // Simulated audits of the whole battery, from `guess` trials up to
    // `most`, judged as the audit judges them.
    let simulated = |guess: u64, most: u64| {
        let spec = Spec::<Shuffles> {
            options: ShuffleOptions::with_tests(tests.clone()),
            ..Spec::new(algorithm, n, guess, source, simulate::SIMULATION_SEED)
        };
        simulate::audits(&spec, level, power, guess, most, simulate::Tails::AsAudited)
    };
    let mut plan = match outcome {
        PlanOutcome::Planned(plan) => plan,
        // This test sees no bias in the exact law, but the battery's
        // others may (a rotation's marginals are uniform; its orders are
        // not): their simulated audits plan the run, from a few trials up.
        PlanOutcome::NoPlan { .. }
            if effect.delta <= NEGLIGIBLE_DELTA && effect.origin == EffectOrigin::Exact =>
        {
            let (search, _) = simulated(FIRST_GUESS, simulate::SIMULATE_BELOW)?;
            let Some((sim, _)) = search.found else {
                return Ok(outcome);
            };
            let critical_value = chi2_isf(level / m as f64, effect.df);
            let approximation_trials = effect.approximation_trials;
            return Ok(PlanOutcome::Planned(Plan {
                effect,
                alpha: level / m as f64,
                power,
                critical_value,
                lambda: noncentrality_for_power(critical_value, effect.df, power),
                trials: sim.trials,
                trials_range: None,
                expected_per_cell: MIN_EXPECTED_PER_CELL * sim.trials as f64
                    / approximation_trials.max(1) as f64,
                approximation_trials,
                recommended_trials: sim.trials.max(approximation_trials),
                warning: None,
                chi_square_trials: None,
                simulation: Some(sim),
            }));
        }
        other => return Ok(other),
    };
    let small = plan.trials < simulate::SIMULATE_BELOW;
    // A small χ² plan is the search's first guess; above, the battery's
    // other tests may need far fewer trials than this one (rising
    // sequences of a riffle: about 50 against thousands), so the search
    // starts low and doubles, counts far below the power failing within
    // a hundred runs or so.
    let guess = if small { plan.trials } else { FIRST_GUESS };
    let most = if small {
        simulate::MAX_SIMULATED_TRIALS
    } else {
        simulate::SIMULATE_BELOW
    };
    let (search, _) = simulated(guess, most)?;
    match search.found {
        Some((sim, _)) if small || sim.trials < plan.trials => {
            plan.trials = sim.trials;
            plan.trials_range = None;
            plan.expected_per_cell =
                MIN_EXPECTED_PER_CELL * sim.trials as f64 / plan.approximation_trials.max(1) as f64;
            plan.recommended_trials = sim.trials.max(plan.approximation_trials);
            plan.warning = None;
            plan.simulation = Some(sim);
            Ok(PlanOutcome::Planned(plan))
        }
        None if small
            && (plan.trials <= search.short_at || plan.trials < plan.approximation_trials) =>
        {
            let reason = if plan.trials <= search.short_at {
                format!(
                    "the χ² plan of {} trials does not hold: simulated audits at {} trials \
                     detect the bias in fewer than {:.0}% of runs (with 95% confidence), and \
                     more could not be simulated here",
                    thousands(plan.trials),
                    thousands(search.short_at),
                    100.0 * power
                )
            } else {
                format!(
                    "the χ² plan of {} trials is below the {} trials its approximation needs, \
                     and simulating audits to check it would cost too much here",
                    thousands(plan.trials),
                    thousands(plan.approximation_trials)
                )
            };
            Ok(PlanOutcome::NoPlan {
                effect: plan.effect,
                reason,
                at_least: Some(search.short_at + 1),
                pilot_needed: None,
            })
        }
        _ => Ok(PlanOutcome::Planned(plan)),
    }
}

/// [`plan_outcome`], with "no plan" as an error carrying its reason.
pub fn plan(effect: Effect, alpha: f64, power: f64) -> Result<Plan> {
    match plan_outcome(effect, alpha, power)? {
        PlanOutcome::Planned(plan) => Ok(plan),
        PlanOutcome::NoPlan { reason, .. } => Err(Error::out_of_range(reason)),
    }
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
            approximation_trials: 10,
            origin: EffectOrigin::Exact,
        };
        let plan = plan(effect, 0.05, 0.8).unwrap();
        assert!((plan.lambda - 7.849).abs() < 0.01, "{}", plan.lambda);
        assert_eq!(plan.trials, 785);
        assert!((power_at(&effect, plan.trials, 0.05) - 0.8).abs() < 0.002);
    }

    #[test]
    fn no_effect_and_bad_levels_are_refused() {
        let none = Effect::from_pilot(70.0, 81.0, 100.0, 50, 1000);
        assert_eq!(none.delta, 0.0);
        let err = plan(none, 0.001, 0.9).unwrap_err().to_string();
        assert!(
            err.contains("pilot of 1,000") && err.contains("not distinguishable"),
            "{err}"
        );
        let some = Effect::from_pilot(181.0, 81.0, 100.0, 50, 1000);
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

    /// Issue 7 §5: an excess within 3 null sds of zero is refused, with a
    /// lower bound and the pilot that would be needed; one beyond gets an
    /// interval around its point plan.
    #[test]
    fn pilot_plans_carry_their_uncertainty() {
        let df: f64 = 2601.0;
        let sd = (2.0 * df).sqrt();
        // Excess 2.9 sd on a million trials: refused.
        let weak = Effect::from_pilot(df + 2.9 * sd, df, 2704.0, 260, 1_000_000);
        assert!(weak.delta > 0.0 && !weak.distinguishable());
        match plan_outcome(weak, 0.001, 0.9).unwrap() {
            PlanOutcome::NoPlan {
                reason,
                at_least,
                pilot_needed,
                ..
            } => {
                assert!(reason.contains("not distinguishable from zero"), "{reason}");
                assert!(at_least.unwrap() > 100_000, "{at_least:?}");
                assert!(pilot_needed.unwrap() > 100_000, "{pilot_needed:?}");
            }
            other => panic!("{other:?}"),
        }
        // Excess 20 sd: planned, with an interval around the point.
        let strong = Effect::from_pilot(df + 20.0 * sd, df, 2704.0, 260, 1_000_000);
        let p = plan(strong, 0.001, 0.9).unwrap();
        let r = p.trials_range.unwrap();
        assert!(
            r.low < p.trials && p.trials < r.high.unwrap(),
            "{r:?} vs {}",
            p.trials
        );
        // The interval bounds invert the normal approximation exactly.
        let i = strong.interval().unwrap();
        for (lambda, sign) in [(i.low * 1e6, 1.0), (i.high * 1e6, -1.0)] {
            let z = (i.excess - lambda) / (2.0 * (df + 2.0 * lambda)).sqrt();
            assert!((z - sign * PILOT_Z).abs() < 1e-9, "{z}");
        }
    }

    /// Issue 7 §6: f64 rounding of exact marginals (fair shuffle, n = 52) is
    /// no bias, not u64::MAX trials; so is an overflowing plan.
    #[test]
    fn rounding_noise_is_no_bias_and_huge_plans_do_not_overflow() {
        use crate::source::SourceKind;
        for (alg, n) in [
            (Algorithm::FisherYates, 52),
            (Algorithm::FisherYates, 30),
            (Algorithm::InsideOut, 25),
        ] {
            let effect = exact_effect(alg, n, SourceKind::Chacha8.into(), TestKind::PositionValue)
                .unwrap()
                .unwrap();
            let out = plan_outcome(effect, 0.001, 0.9).unwrap();
            let PlanOutcome::NoPlan { reason, .. } = out else {
                panic!("{alg} n={n}: {out:?}")
            };
            assert!(reason.starts_with("no bias"), "{reason}");
        }
        let tiny = Effect {
            delta: 1e-18,
            df: 81.0,
            cells: 100.0,
            approximation_trials: 50,
            origin: EffectOrigin::Exact,
        };
        let err = plan(tiny, 0.001, 0.9).unwrap_err().to_string();
        assert!(err.contains("2^64"), "{err}");
    }
}

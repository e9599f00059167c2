//! Planning for the battery a shuffle audit actually runs, at the level its
//! multiple-testing corrections imply: [`plan_audit`] makes an
//! [`AuditPlan<Shuffles>`], whose shuffle-only parts are [`ShuffleDetails`]
//! and [`ShuffleTestDetails`].

use super::audit_plan::{AuditPlan, NotRun, PlanKind, PlannedTest, TestPlan};
use super::simulate::{self, SIMULATE_BELOW, Simulation};
use super::structure::{Components, StructureLaws, riffle_rising_law};
use super::{
    Effect, EffectOrigin, NEGLIGIBLE_DELTA, PlanOutcome, TrialRange, check_levels, exact_effect,
    law_by_rank, plan_outcome,
};
use crate::subject::Shuffles;

/// A judged audit of shuffles, which this plans for.
type Audit = crate::audit::Audit<Shuffles>;
use crate::exact;
use crate::permutation::Statistic;
use crate::spec::{MAX_PERMUTATION_N, TestKind};
use crate::stats::special::{chi2_isf, noncentral_chi2_sf};
use serde::Serialize;

/// Largest enumeration (draw sequences) [`plan_audit`] attempts for exact
/// effects; beyond it, effects are estimated from the audit's own
/// statistics. About a second at the cap.
pub const PLAN_AUDIT_MAX_LEAVES: u64 = super::EXACT_EFFECT_MAX_LEAVES;

/// The plan of one shuffle test, beside its [`TestKind`] in a
/// [`TestPlan<Shuffles>`], at the level [`AuditPlan::level`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShuffleTestDetails {
    /// Whether its effect is exact (from the exact law, exact marginals or
    /// the riffle formula) rather than estimated from the audit's statistic.
    pub exact: bool,
    /// Non-centrality per trial (for the pooled structure tests, at the
    /// planned trial count; for an estimate, the point estimate).
    pub delta: f64,
    /// Degrees of freedom (for the pooled structure tests, at the planned
    /// trial count).
    pub df: f64,
    /// Trials for the requested power; `None` when this test gives no plan.
    pub trials_for_power: Option<u64>,
    /// For an estimated effect, the trials at the ends of δ's confidence
    /// interval (also when the estimate is refused: then only a lower
    /// bound).
    pub range: Option<TrialRange>,
    /// Why there is no plan, when there is none.
    pub reason: Option<String>,
    /// Trials at which the test's chi-square form holds (5 expected per cell,
    /// or, for the pooled structure tests, at least two groups per part).
    pub trials_for_approximation: u64,
    /// The non-central χ² plan this test's figure started from, kept for
    /// comparison: `trials_for_power` differs from it where simulation
    /// replaced it, and is `None` where it could not be trusted (see
    /// `reason`).
    pub chi_square_trials: Option<u64>,
    /// For a structure test whose χ² plan was small (below
    /// [`SIMULATE_BELOW`]): the plan found by simulating its histogram from
    /// its law, which `trials_for_power` is.
    pub simulation: Option<Simulation>,
}

impl PlannedTest for ShuffleTestDetails {
    /// A shuffle test decides by its trials for power (never raised to
    /// meet its approximation's needs: that is a separate figure).
    fn deciding_trials(&self) -> Option<u64> {
        self.trials_for_power
    }
}

/// What only a shuffle audit's plan holds: how sure its trials are (exact
/// or a range over estimated effects), what its approximation needs, and
/// the simulation that found a small plan ([`plan_audit_with`] says how).
/// `trials_for_power` is never raised to meet the approximation's needs:
/// that is `trials_for_approximation`, a separate figure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShuffleDetails {
    /// When any estimated effect enters: bounds on `trials_for_power` over
    /// the effects' confidence intervals (the low end is the fewest any test
    /// could need, the high end the most the best guaranteed test needs).
    /// `None` when every effect is exact.
    pub trials_for_power_range: Option<TrialRange>,
    /// Why there is no power plan, when there is none.
    pub no_power_reason: Option<String>,
    /// Whether the deciding test's effect is exact (else estimated from the
    /// audit's statistic); also true for a plan found by simulating the
    /// algorithm's audits (`simulation`), which rests on no estimate.
    pub exact: bool,
    /// Trials at which the deciding test's chi-square form holds (5 expected
    /// per cell); of the position-by-value test when nothing decides.
    pub trials_for_approximation: u64,
    /// When the plan was found by simulating audits of the algorithm (a
    /// built-in one, whose χ² plan was below [`SIMULATE_BELOW`]): the
    /// simulation, whose `trials` is `trials_for_power`; `deciding_test` is
    /// then the test that most often decided the simulated detections.
    pub simulation: Option<Simulation>,
}

impl PlanKind for Shuffles {
    type TestDetails = ShuffleTestDetails;
    type Details = ShuffleDetails;

    /// A shuffle plan does not keep the algorithm's name: "this audit".
    fn audit_words(_: &ShuffleDetails) -> String {
        "this audit".to_string()
    }
}

/// [`plan_audit_with`] with enumerations capped at [`PLAN_AUDIT_MAX_LEAVES`].
pub fn plan_audit(
    audit: &Audit,
    alpha: f64,
    audits_in_run: usize,
    power: f64,
) -> AuditPlan<Shuffles> {
    plan_audit_with(audit, alpha, audits_in_run, power, PLAN_AUDIT_MAX_LEAVES)
}

/// Plans the trials `audit`'s battery needs for `power` when judged at `alpha`
/// among `audits_in_run` audits (see [`AuditPlan`] and [`ShuffleDetails`]).
///
/// Effects are exact where that is cheap: the position-by-value test from
/// propagated marginals; every test from the exact law where it can be
/// enumerated in at most `max_leaves` draw sequences; rising sequences of an
/// ideal riffle from the Bayer–Diaconis formula. The other tests' effects are
/// estimated from the audit's own statistics, with their uncertainty
/// (estimates not distinguishable from zero give no plan, only a lower
/// bound). Bad levels give a plan with no trials and the reason.
///
/// A plan is only given where it holds: a χ² plan below [`SIMULATE_BELOW`]
/// trials is searched for again by simulation ([`super::simulate`]): of the
/// algorithm's whole audits for a built-in algorithm, which give the
/// battery's plan directly, or of a one-histogram structure test's counts
/// from its law (`settle`). A test that cannot be simulated and whose χ²
/// plan is below the trials its approximation needs gives no plan rather
/// than a false one, and no test's plan is kept below a trial count at
/// which simulated audits of the whole battery fell short.
pub fn plan_audit_with(
    audit: &Audit,
    alpha: f64,
    audits_in_run: usize,
    power: f64,
    max_leaves: u64,
) -> AuditPlan<Shuffles> {
    let spec = &audit.spec;
    let n = spec.n;
    let not_run = audit
        .not_run
        .iter()
        .map(|(test, why)| NotRun {
            test: *test,
            why: why.clone(),
        })
        .collect();
    let details = ShuffleDetails {
        trials_for_power_range: None,
        no_power_reason: None,
        exact: false,
        trials_for_approximation: (super::MIN_EXPECTED_PER_CELL * n as f64).ceil() as u64,
        simulation: None,
    };
    let mut out = AuditPlan::<Shuffles>::new(
        alpha,
        audit.tests.len(),
        audits_in_run,
        power,
        not_run,
        details,
    );
    let (level, big_m) = (out.level, out.audits_in_run);
    if let Err(e) = check_levels(level, power) {
        out.details.no_power_reason = Some(e.to_string());
        return out;
    }

    let needs_law = audit
        .tests
        .iter()
        .any(|t| t.test != TestKind::PositionValue);
    // Exact laws exist only for the built-in algorithms; a shuffle from
    // outside is planned from its own counts (the pilot) alone.
    let builtin = spec.subject.builtin().copied();
    let law = builtin
        .filter(|&a| needs_law && exact::check_enumerate(a, n, spec.source, max_leaves).is_ok())
        .and_then(|a| exact::enumerate(a, n, spec.source, max_leaves).ok());
    let structure = law.as_ref().map(StructureLaws::of_law);
    // Observed structure laws, for pooled tests without an exact law: their
    // effect depends on the pooling, so it is re-estimated at each trial
    // count the search tries rather than taken from the audit's pooling.
    let observed = audit
        .tally
        .structure()
        .map(|c| StructureLaws::of_counts(c, n, spec.trials));

    for result in &audit.tests {
        let test = result.test;
        let exact_fixed: Option<Effect> = match test {
            TestKind::PositionValue => match &law {
                Some(l) => Some(Effect::position_value(
                    n,
                    l.marginals().probabilities(),
                    EffectOrigin::Exact,
                )),
                None => builtin
                    .filter(|&a| exact::check_marginals(a, n, spec.source).is_ok())
                    .and_then(|a| exact_effect(a, n, spec.source, test).ok().flatten()),
            },
            TestKind::Permutation if n <= MAX_PERMUTATION_N => law
                .as_ref()
                .map(|l| Effect::permutation(&law_by_rank(l), EffectOrigin::Exact)),
            _ => None,
        };
        let pooled: Option<Components> = structure
            .as_ref()
            .and_then(|s| s.components(test))
            .or_else(|| {
                (test == TestKind::RisingSequences)
                    .then_some(builtin)
                    .flatten()
                    .and_then(|a| riffle_rising_law(a, n, spec.source))
                    .map(|alt| Components(vec![(Statistic::RisingSequences.uniform_law(n), alt)]))
            });
        let estimated = observed.as_ref().and_then(|s| s.components(test));
        // The effect the audit's own statistic shows: computed only on the
        // branches that use it (it evaluates the test's null law again).
        let pilot = || Effect::from_result(result, n, spec.trials);
        // The law a pooled plan used, which a simulation can draw from.
        let mut law_used: Option<&Components> = None;
        let mut details = if test == TestKind::Birthday {
            // Not a fixed effect per trial: the pairs grow with the square
            // of the deals (its method states the seed space it catches).
            unplanned(
                result.df,
                "repeated deals grow with the square of the trials, not as a per-trial effect: \
                 see the seed space its method says it catches"
                    .to_string(),
                2,
            )
        } else if let Some(effect) = exact_fixed {
            fixed_plan(effect, level, power)
        } else if let Some(c) = &pooled {
            law_used = Some(c);
            pooled_plan(c, None, level, power)
        } else if let Some(c) = estimated.as_ref().filter(|_| result.df >= 1.0) {
            // Refuse an estimate the audit cannot tell from zero (at its own
            // pooling); otherwise plan with the pooling of each trial count.
            match fixed_plan(pilot(), level, power) {
                refused if refused.trials_for_power.is_none() => refused,
                _ => {
                    law_used = Some(c);
                    pooled_plan(c, Some(spec.trials), level, power)
                }
            }
        } else if result.df < 1.0 && !matches!(test, TestKind::Serial | TestKind::Successor) {
            unplanned(
                result.df,
                format!(
                    "the test had no degrees of freedom at {} trials",
                    spec.trials
                ),
                pilot().approximation_trials,
            )
        } else {
            fixed_plan(pilot(), level, power)
        };
        settle(&mut details, test, law_used, level, power);
        out.tests.push(TestPlan { test, details });
    }

    // A small plan for a built-in algorithm: simulate its audits, the whole
    // battery judged as the run judges it (α/M on the audit's own p-value).
    let guess = smallest(out.tests.iter().map(|t| t.details.trials_for_power))
        .or_else(|| smallest(out.tests.iter().map(|t| t.details.chi_square_trials)));
    if let Some(guess) = guess.filter(|&g| builtin.is_some() && g < SIMULATE_BELOW)
        && let Ok((search, kinds)) = simulate::audits(
            spec,
            alpha / big_m as f64,
            power,
            guess,
            simulate::MAX_SIMULATED_TRIALS,
            simulate::Tails::Shared,
        )
    {
        // No test's plan holds where the whole battery fell short.
        for t in &mut out.tests {
            if let Some(own) = t
                .details
                .trials_for_power
                .filter(|&own| own <= search.short_at)
            {
                refuse(
                    &mut t.details,
                    format!(
                        "its plan of {own} trials is too optimistic: simulated audits of the \
                         whole battery at {} trials detect the bias in fewer than {:.0}% of runs",
                        search.short_at,
                        100.0 * power
                    ),
                );
            }
        }
        if let Some((sim, by)) = search.found {
            let decided = by
                .iter()
                .enumerate()
                .max_by_key(|&(k, &count)| (count, std::cmp::Reverse(k)))
                .map(|(k, _)| k);
            let decider = decided
                .and_then(|k| kinds.get(k))
                .and_then(|&kind| out.tests.iter().find(|t| t.test == kind));
            let approximation = decider.map(|d| d.details.trials_for_approximation);
            out.trials_for_power = Some(sim.trials);
            out.deciding_test = decider.map(|t| t.test);
            out.details.exact = true;
            if let Some(a) = approximation {
                out.details.trials_for_approximation = a;
            }
            out.details.simulation = Some(sim);
            return out;
        }
    }

    // The battery: the best test with a point plan decides.
    out.decide();
    if let Some((exact, approximation)) = out
        .best()
        .map(|d| (d.details.exact, d.details.trials_for_approximation))
    {
        out.details.exact = exact;
        out.details.trials_for_approximation = approximation;
    }
    if out.tests.iter().any(|t| !t.details.exact) {
        // Low: the fewest any test could need; high: the most the best
        // test could need (a test's own high end bounds the battery's).
        let details = || out.tests.iter().map(|t| &t.details);
        let exact = |t: &ShuffleTestDetails| t.trials_for_power.filter(|_| t.exact);
        let low = details()
            .filter_map(|t| t.range.map(|r| r.low).or(exact(t)))
            .min();
        let high = details()
            .filter_map(|t| exact(t).or(t.range.and_then(|r| r.high).filter(|_| !t.exact)))
            .min();
        out.details.trials_for_power_range = low.map(|low| TrialRange { low, high });
    }
    if out.trials_for_power.is_none() {
        let reasons: Vec<String> = out
            .tests
            .iter()
            .filter_map(|t| {
                let r = t.details.reason.as_ref()?;
                Some(format!("{}: {r}", t.test))
            })
            .collect();
        out.details.no_power_reason = Some(format!(
            "no test of the audit distinguishes a bias it could plan for ({})",
            reasons.join("; ")
        ));
    }
    out
}

/// The smallest of some trial counts, if any.
fn smallest(counts: impl Iterator<Item = Option<u64>>) -> Option<u64> {
    counts.flatten().min()
}

/// Withdraws `plan`'s trials (and any range around them) for `reason`.
fn refuse(plan: &mut ShuffleTestDetails, reason: String) {
    plan.trials_for_power = None;
    plan.range = None;
    plan.simulation = None;
    plan.reason = Some(reason);
}

/// Keeps a test's plan only where it holds. Its χ² plan is kept as
/// `chi_square_trials`; below [`SIMULATE_BELOW`] trials a structure test
/// whose statistic is one histogram is simulated from `law` (the exact or
/// observed law its pooled plan used) at `level`, and that simulation's
/// plan replaces it. A plan that cannot be checked so and is below the
/// trials the test's approximation needs (e.g. the serial test at T = 1,
/// the position-by-value test with a fraction of a count per cell) is
/// withdrawn: no plan rather than a false one.
fn settle(
    plan: &mut ShuffleTestDetails,
    test: TestKind,
    law: Option<&Components>,
    level: f64,
    power: f64,
) {
    let Some(t) = plan.trials_for_power else {
        return;
    };
    plan.chi_square_trials = Some(t);
    let histogram = law
        .filter(|c| c.0.len() == 1 && simulate::one_histogram(test))
        .map(|c| &c.0[0]);
    if let Some((null, alt)) = histogram.filter(|_| t < SIMULATE_BELOW) {
        let floor = plan.trials_for_approximation;
        match simulate::counts(null, alt, level, power, t, floor) {
            Ok(search) => match search.found {
                Some((sim, _)) => {
                    plan.trials_for_power = Some(sim.trials);
                    plan.range = plan.range.map(|r| TrialRange {
                        low: r.low.min(sim.trials),
                        high: r.high.map(|h| h.max(sim.trials)),
                    });
                    plan.simulation = Some(sim);
                }
                None => refuse(
                    plan,
                    format!(
                        "its χ² plan of {t} trials does not hold: simulations of its counts \
                         at up to {} trials detect the bias in fewer than {:.0}% of runs",
                        search.short_at,
                        100.0 * power
                    ),
                ),
            },
            Err(e) => refuse(plan, e.to_string()),
        }
        return;
    }
    if t < plan.trials_for_approximation {
        refuse(
            plan,
            format!(
                "its χ² plan of {t} trials is below the {} trials its approximation needs, \
                 and the test cannot be simulated from these counts: no plan rather than a \
                 false one",
                plan.trials_for_approximation
            ),
        );
    }
}

impl ShuffleTestDetails {
    /// A test's plan with no trials yet: its effect and the trials its
    /// approximation needs.
    fn new(exact: bool, delta: f64, df: f64, trials_for_approximation: u64) -> Self {
        Self {
            exact,
            delta,
            df,
            trials_for_power: None,
            range: None,
            reason: None,
            trials_for_approximation,
            chi_square_trials: None,
            simulation: None,
        }
    }
}

/// The plan of a test that gives none, for `reason`: `df` degrees of
/// freedom, and the trials its approximation needs.
fn unplanned(df: f64, reason: String, trials_for_approximation: u64) -> ShuffleTestDetails {
    ShuffleTestDetails {
        reason: Some(reason),
        ..ShuffleTestDetails::new(false, 0.0, df, trials_for_approximation)
    }
}

/// The plan of a test with a trial-independent effect.
fn fixed_plan(effect: Effect, level: f64, power: f64) -> ShuffleTestDetails {
    let exact = effect.origin == EffectOrigin::Exact;
    let mut plan =
        ShuffleTestDetails::new(exact, effect.delta, effect.df, effect.approximation_trials);
    match plan_outcome(effect, level, power) {
        Ok(PlanOutcome::Planned(p)) => {
            plan.trials_for_power = Some(p.trials);
            plan.range = p.trials_range;
        }
        Ok(PlanOutcome::NoPlan {
            reason, at_least, ..
        }) => {
            plan.reason = Some(reason);
            plan.range = (!exact)
                .then(|| at_least.map(|low| TrialRange { low, high: None }))
                .flatten();
        }
        Err(e) => plan.reason = Some(e.to_string()),
    }
    plan
}

/// The plan of a pooled structure test: the smallest T at which the pooled
/// test reaches `power` at `level` (at the level its law must reach there,
/// [`Components::level_reached`]) (searched by doubling and bisection, as δ
/// and df change with the pooling).
///
/// With `pilot = None` the components' alternative is the exact law. With
/// `pilot = Some(T₀)` it is the proportions observed on T₀ trials: pooled as
/// at T, they give the Pearson statistic X = T₀·d the pilot would have shown
/// with that pooling, so δ̂(T) = (X − df)/T₀, with the
/// [`PILOT_Z`](super::PILOT_Z) interval of [`super::Effect::interval`]; the
/// plan's range comes from the interval's ends.
fn pooled_plan(c: &Components, pilot: Option<u64>, level: f64, power: f64) -> ShuffleTestDetails {
    // end: 0 = point estimate, -1 = lower end of δ's interval, +1 = upper end.
    let delta_at = |t: u64, end: i32| {
        let (d, df) = c.effect_at(t as f64);
        let delta = match pilot {
            None => d,
            Some(t0) => {
                let t0 = t0 as f64;
                let excess = t0 * d - df;
                let (lo, hi) = super::lambda_bounds(excess, df, super::PILOT_Z);
                match end {
                    0 => excess.max(0.0) / t0,
                    e if e < 0 => lo / t0,
                    _ => hi / t0,
                }
            }
        };
        (delta, df)
    };
    let search = |end: i32| -> Option<u64> {
        let power_at = |t: u64| {
            let (delta, df) = delta_at(t, end);
            if df < 1.0 || delta <= NEGLIGIBLE_DELTA {
                return 0.0;
            }
            let reached = c.level_reached(level, t);
            noncentral_chi2_sf(chi2_isf(reached, df), df, delta * t as f64)
        };
        let mut hi = 1u64;
        while power_at(hi) < power {
            if hi >= 1 << 62 {
                return None;
            }
            hi *= 2;
        }
        let mut lo = hi / 2; // fails (or is 0)
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if power_at(mid) >= power {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some(hi)
    };
    let mut plan = ShuffleTestDetails::new(pilot.is_none(), 0.0, 0.0, c.approximation_trials());
    let (full_delta, _) = c.effect_at(f64::INFINITY);
    if full_delta <= NEGLIGIBLE_DELTA {
        plan.reason = Some(format!(
            "no bias: this test sees none in the exact law (non-centrality {full_delta:.1e} per \
             trial)"
        ));
        return plan;
    }
    let Some(hi) = search(0) else {
        plan.reason = Some("more than 2^62 trials would be needed".into());
        return plan;
    };
    if pilot.is_some() {
        plan.range = Some(TrialRange {
            low: search(1).unwrap_or(hi).min(hi),
            high: search(-1).map(|h| h.max(hi)),
        });
    }
    let (delta, df) = delta_at(hi, 0);
    plan.delta = delta;
    plan.df = df;
    plan.trials_for_power = Some(hi);
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::audit;
    use crate::audit::Spec;
    use crate::engine::no_progress;
    use crate::source::SourceKind;
    use crate::spec::TestSet;
    use crate::subject::ShuffleOptions;

    fn audit_of(alg: &str, n: usize, trials: u64, tests: &str, seed: u64) -> Audit {
        let spec = Spec {
            options: ShuffleOptions::with_tests(TestSet::parse(tests, n).unwrap()),
            ..Spec::new(
                Algorithm::parse(alg).unwrap(),
                n,
                trials,
                SourceKind::Chacha8.into(),
                seed,
            )
        };
        audit::run(&spec, 0.001, &no_progress).unwrap()
    }

    #[test]
    fn power_and_approximation_are_separate_and_the_level_is_corrected() {
        // Issue 7: the gallery showed 13,520 = 5·52² for naive swap at n = 52.
        let a = audit_of("naive-swap", 52, 2_000, "position-value", 1);
        let p = plan_audit(&a, 0.001, 1, 0.9);
        assert_eq!(p.level, 0.001);
        assert!(p.details.exact);
        assert_eq!(p.deciding_test, Some(TestKind::PositionValue));
        let t = p.trials_for_power.unwrap();
        assert!((480..=530).contains(&t), "{t}");
        assert_eq!(p.details.trials_for_approximation, 260);
        assert!(p.details.trials_for_power_range.is_none());
        // The plan of a test it runs, or why not.
        assert!(p.test(TestKind::PositionValue).is_ok());
        let e = p.test(TestKind::Serial).unwrap_err().to_string();
        assert!(e.contains("it runs position-value"), "{e}");
        // Shrinking range at n = 52: 3 trials for power, not 13,520.
        let a = audit_of("shrinking-range", 52, 1_000, "position-value", 1);
        let p = plan_audit(&a, 0.001, 1, 0.9);
        assert!(p.trials_for_power.unwrap() <= 4, "{p:?}");
        // Holm over 8 tests (serial and birthday among them) and 20 audits:
        // planned at α/160, more trials.
        let a = audit_of("naive-swap", 52, 2_000, "default", 1);
        let p20 = plan_audit(&a, 0.001, 20, 0.9);
        assert_eq!(p20.tests_in_audit, 8);
        assert!((p20.level - 0.001 / 160.0).abs() < 1e-15);
        assert!(
            p20.trials_for_power.unwrap() > t || !p20.details.exact,
            "{p20:?}"
        );
    }

    #[test]
    fn riffle_rising_sequences_are_planned_exactly_and_a_fair_shuffle_has_no_plan() {
        let a = audit_of("riffle:k=7", 10, 5_510, "default", 3);
        let p = plan_audit(&a, 0.001, 1, 0.9);
        assert_eq!(p.deciding_test, Some(TestKind::RisingSequences), "{p:#?}");
        assert!(p.details.exact);
        let fair = audit_of("fisher-yates", 8, 20_000, "default", 3);
        let p = plan_audit(&fair, 0.001, 1, 0.9);
        assert_eq!(
            (p.trials_for_power, p.deciding_test),
            (None, None),
            "{p:#?}"
        );
        assert!(p.details.no_power_reason.unwrap().contains("no bias"));
    }
}

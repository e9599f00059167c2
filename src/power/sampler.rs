//! How many trials a sampler audit needs to see a sampler's bias.
//!
//! Each test of the sampler audit (inclusion, pairs, subsets, order, picks)
//! is planned as the shuffle tests are ([`plan_outcome`]): its statistic is
//! approximately non-central χ² with the test's df and non-centrality T·δ,
//! and δ (derived per test in `effect.rs`) comes from the exact law where
//! [`exact_subset_law_capped`] or [`exact_pick_law_capped`] computes it
//! quickly under ideal draws, otherwise from a pilot run, whose estimate
//! carries its uncertainty and is refused when it cannot be told from
//! zero.
//!
//! The plan is for the audit as it runs, each test at the level its Holm
//! corrections imply ([`AuditPlan`]). The trials before a test runs at all
//! (its own rule on sparse tables, `requirement.rs`) are a separate figure.
//!
//! A weighted pick that draws a zero-weight item is caught by the first
//! such pick (p = 0 at any level): [`ImpossiblePicks`] plans for that
//! separately, exactly.
//! The sampler-only parts of its [`AuditPlan<Samplers>`] are
//! [`SamplerDetails`] and [`SamplerTestDetails`].

pub(crate) mod effect;
mod plan;
mod requirement;

pub use plan::{ImpossiblePicks, LawOrigin, SamplerDetails, SamplerTestDetails};

use self::effect::{ExpectedCounts, df_and_cells};
use self::requirement::{Requirement, audit_tests};
use super::{
    AuditPlan, EXACT_EFFECT_MAX_LEAVES, Effect, EffectOrigin, NotRun, PlanOutcome, TestPlan,
    plan_outcome,
};
use crate::audit::{DEFAULT_ALPHA, DEFAULT_SEED};
use crate::audit::{Kind, Spec};
use crate::engine::no_progress;
use crate::error::{Error, ErrorKind, Result};
use crate::exact::DrawLaw;
use crate::format::thousands;
use crate::sampler::SampleTest;
use crate::sampler::{Sampler, Shape, exact_pick_law_capped, exact_subset_law_capped};
use crate::sampler::{SamplerOptions, Samplers};
use crate::source::SourceSpec;
use crate::spec::TestKind;

/// Every test of a sampler audit, in the order audits list them.
pub const SAMPLE_TESTS: [SampleTest; 5] = [
    SampleTest::Inclusion,
    SampleTest::Pairs,
    SampleTest::Subsets,
    SampleTest::Order,
    SampleTest::Picks,
];

/// The sampler test named `name`; a shuffle test's name or an unknown one
/// is refused, naming it and the sampler tests.
pub fn parse_sample_test(name: &str) -> Result<SampleTest> {
    let names: Vec<&str> = SAMPLE_TESTS.iter().map(|t| t.name()).collect();
    if let Some(test) = SAMPLE_TESTS.iter().find(|t| t.name() == name) {
        return Ok(*test);
    }
    let shuffle = TestKind::ALL.iter().any(|t| t.name() == name);
    let (kind, what) = if shuffle {
        (ErrorKind::Unsupported, "is a shuffle test")
    } else {
        (ErrorKind::UnknownName, "is not a test")
    };
    Err(Error::of_kind(
        kind,
        format!(
            "--test '{name}' {what}: the tests of a sampler audit are {}",
            names.join(", ")
        ),
    ))
}

/// What to plan: a sampler on N items, the run it will be audited in, and
/// the pilot to use when its exact law is out of reach.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplerPowerSpec {
    /// The sampler.
    pub sampler: Sampler,
    /// N (a board's w·h, a weighted pick's number of weights).
    pub n: usize,
    /// The weights of a weighted pick.
    pub weights: Option<Vec<u64>>,
    /// The random source the audit will use.
    pub source: SourceSpec,
    /// The run's significance level α.
    pub alpha: f64,
    /// M: the audits of the run that Holm corrects across.
    pub audits_in_run: usize,
    /// The requested power.
    pub power: f64,
    /// Trials of the pilot run, when the exact law is out of reach.
    pub pilot_trials: u64,
    /// Seed of the pilot run.
    pub seed: u64,
    /// Largest enumeration (replays) tried for the exact law.
    pub max_leaves: u64,
}

impl SamplerPowerSpec {
    /// A plan for `sampler` on `n` items under `source`, at the default α
    /// among 1 audit, for 90% power, with a 1M-trial pilot when needed.
    pub fn new(sampler: Sampler, n: usize, source: SourceSpec) -> Self {
        Self {
            sampler,
            n,
            weights: None,
            source,
            alpha: DEFAULT_ALPHA,
            audits_in_run: 1,
            power: 0.9,
            pilot_trials: 1_000_000,
            seed: DEFAULT_SEED,
            max_leaves: EXACT_EFFECT_MAX_LEAVES,
        }
    }

    /// The same spec with integer weights (for a weighted pick).
    pub fn with_weights(self, weights: Vec<u64>) -> Self {
        Self {
            weights: Some(weights),
            ..self
        }
    }
}

/// Plans every test of the audit of `spec.sampler` (see the module docs).
/// The deciding test is the one with the fewest trials for a run both
/// powerful and in its range, or the picks test when a first zero-weight
/// pick comes sooner. Refuses bad requests (k > N, weights for a sampler
/// that takes none, bad levels) and an audit that runs no test at all.
pub fn plan_sampler(spec: &SamplerPowerSpec) -> Result<AuditPlan<Samplers>> {
    let sampler = spec.sampler;
    let (n, weights) = (spec.n, spec.weights.as_deref());
    sampler.prepare(n, weights)?;
    let (tests, one) = audit_tests(sampler, n, weights);
    let mut running: Vec<(SampleTest, Requirement)> = Vec::new();
    let mut not_run = Vec::new();
    for (test, requirement) in tests {
        match requirement {
            Ok(r) => running.push((test, r)),
            Err(why) => not_run.push(NotRun { test, why }),
        }
    }
    if running.is_empty() {
        let why: Vec<String> = not_run
            .iter()
            .map(|t| format!("{}: {}", t.test, t.why))
            .collect();
        return Err(Error::unsupported(format!(
            "the audit of {sampler} at N = {n} runs no test ({})",
            why.join("; ")
        )));
    }
    let (law, counts, pilot_trials) = expected_counts(spec, &one)?;
    let k = sampler.k() as usize;
    let details = SamplerDetails {
        sampler: sampler.to_string(),
        n,
        k,
        weights: spec.weights.clone(),
        law,
        impossible_picks: impossible(&counts, weights, pilot_trials, spec.power),
    };
    let mut plan = AuditPlan::<Samplers>::new(
        spec.alpha,
        running.len(),
        spec.audits_in_run,
        spec.power,
        not_run,
        details,
    );
    let level = plan.level;
    super::check_levels(level, spec.power)?;
    for (test, requirement) in running {
        let delta = counts
            .delta(test, weights)
            .expect("the counts of every test the audit runs are kept");
        let (df, cells) = df_and_cells(test, n, k, weights);
        let approximation = requirement.runs_from;
        let effect = match pilot_trials {
            None => Effect {
                delta,
                df,
                cells,
                approximation_trials: approximation,
                origin: EffectOrigin::Exact,
            },
            Some(t) => Effect::from_pilot(t as f64 * delta, df, cells, approximation, t),
        };
        let outcome = match &plan.details.law {
            LawOrigin::Exact { fair: true } => PlanOutcome::NoPlan {
                effect,
                reason: format!(
                    "no bias: the exact law is fair ({}), so no trial count detects one",
                    fairness(sampler)
                ),
                at_least: None,
                pilot_needed: None,
            },
            _ => sampler_wording(plan_outcome(effect, level, spec.power)?, test, requirement),
        };
        plan.tests.push(TestPlan {
            test,
            details: SamplerTestDetails {
                outcome,
                runs_sparse: requirement.runs_sparse,
            },
        });
    }
    plan.decide();
    // A first zero-weight pick makes the picks test certain: it decides
    // when it comes sooner than any test's plan.
    let by_pick = plan.details.impossible_picks.as_ref();
    if let Some(t) = by_pick
        .and_then(|i| i.trials_for_power)
        .filter(|&t| plan.trials_for_power.is_none_or(|by_test| t < by_test))
    {
        plan.trials_for_power = Some(t);
        plan.deciding_test = Some(SampleTest::Picks);
    }
    Ok(plan)
}

/// What a fair law of `sampler` means, in words.
fn fairness(sampler: Sampler) -> &'static str {
    match sampler.record().shape {
        Shape::Weighted => "every item picked in proportion to its weight",
        Shape::Subset | Shape::Board { .. } if sampler.is_ordered() => {
            "every ordered k-tuple equally likely"
        }
        Shape::Subset | Shape::Board { .. } => "every k-subset equally likely",
    }
}

/// The expected counts per trial: from the exact law under ideal draws when
/// it can be computed within `spec.max_leaves`, else from a pilot run
/// (whose trials are returned too).
fn expected_counts(
    spec: &SamplerPowerSpec,
    one: &crate::sampler::tally::SampleTally,
) -> Result<(LawOrigin, ExpectedCounts, Option<u64>)> {
    let exact = match DrawLaw::of(&spec.source) {
        Ok(DrawLaw::Ideal) => match &spec.weights {
            Some(w) => exact_pick_law_capped(spec.sampler, w, spec.max_leaves)
                .map(|law| (law.is_proportional(), ExpectedCounts::of_pick_law(&law))),
            None => exact_subset_law_capped(spec.sampler, spec.n, spec.max_leaves).map(|law| {
                let fair = law.is_uniform() && law.is_uniform_ordered() != Some(false);
                (fair, ExpectedCounts::of_subset_law(&law, one))
            }),
        },
        Ok(_) => Err(Error::unsupported(format!(
            "a sampler's exact law assumes ideal draws, and {} does not draw ideally",
            spec.source
        ))),
        Err(e) => Err(e),
    };
    match exact {
        Ok((fair, counts)) => Ok((LawOrigin::Exact { fair }, counts, None)),
        Err(why) => {
            let run = Spec::<Samplers> {
                options: SamplerOptions {
                    weights: spec.weights.clone(),
                },
                ..Spec::new(
                    spec.sampler,
                    spec.n,
                    spec.pilot_trials,
                    spec.source,
                    spec.seed,
                )
            };
            Samplers::check(&run)?;
            let tally = Samplers::count(&run, run.chunks(), &no_progress)?;
            let law = LawOrigin::Pilot {
                trials: spec.pilot_trials,
                seed: spec.seed,
                why_not_exact: why.to_string(),
            };
            Ok((
                law,
                ExpectedCounts::of_tally(&tally),
                Some(spec.pilot_trials),
            ))
        }
    }
}

/// A shuffle plan's words made a sampler test's: a pilot refusal speaks of
/// a fair sampler, and a plan below the test's range says what the test
/// does there, with the expected count of its smallest cell.
fn sampler_wording(outcome: PlanOutcome, test: SampleTest, r: Requirement) -> PlanOutcome {
    match outcome {
        PlanOutcome::Planned(mut plan) => {
            plan.expected_per_cell = r.per_trial * plan.trials as f64;
            plan.warning = (plan.trials < r.runs_from).then(|| {
                let at = format!(
                    "the smallest cell expects {:.2} counts at T = {}",
                    plan.expected_per_cell,
                    thousands(plan.trials)
                );
                if r.runs_sparse {
                    format!(
                        "{at}: the {test} test judges so sparse a table by its collisions, not \
                         by the chi-square law this plan assumes, so the plan is a rough guide; \
                         every cell expects 5 from {} trials",
                        thousands(r.runs_from)
                    )
                } else {
                    format!(
                        "{at}: the {test} test does not run below {} trials (5 expected per cell \
                         and a statistic close to its law), so an audit of {} trials would leave \
                         it out; run at least {}",
                        thousands(r.runs_from),
                        thousands(plan.trials),
                        thousands(r.runs_from)
                    )
                }
            });
            PlanOutcome::Planned(plan)
        }
        PlanOutcome::NoPlan {
            effect,
            reason,
            at_least,
            pilot_needed,
        } => PlanOutcome::NoPlan {
            effect,
            reason: reason.replace("a fair shuffle", "a fair sampler"),
            at_least,
            pilot_needed,
        },
    }
}

/// The plan for catching a zero-weight pick, when the law draws one.
fn impossible(
    counts: &ExpectedCounts,
    weights: Option<&[u64]>,
    pilot_trials: Option<u64>,
    power: f64,
) -> Option<ImpossiblePicks> {
    let rate = counts.impossible_rate(weights);
    (rate > 0.0).then(|| {
        let t = ((1.0 - power).ln() / (1.0 - rate).ln()).ceil().max(1.0);
        ImpossiblePicks {
            rate,
            pilot_picks: pilot_trials.map(|trials| (rate * trials as f64).round() as u64),
            trials_for_power: (t.is_finite() && t < u64::MAX as f64).then_some(t as u64),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceKind;

    fn spec_of(name: &str, n: usize) -> SamplerPowerSpec {
        SamplerPowerSpec::new(Sampler::parse(name).unwrap(), n, SourceKind::Chacha8.into())
    }

    fn plan_of(name: &str, n: usize, weights: Option<Vec<u64>>) -> AuditPlan<Samplers> {
        let spec = spec_of(name, n);
        let spec = match weights {
            Some(w) => spec.with_weights(w),
            None => spec,
        };
        plan_sampler(&spec).unwrap()
    }

    #[test]
    fn a_biased_sampler_is_planned_exactly_at_the_audits_level() {
        let p = plan_of("reservoir-off-by-one:k=3", 10, None);
        assert_eq!(p.details.law, LawOrigin::Exact { fair: false });
        assert_eq!(p.tests_in_audit, 3);
        assert!((p.level - 0.001 / 3.0).abs() < 1e-15);
        let inclusion = p.test(SampleTest::Inclusion).unwrap();
        let t = inclusion.details.trials().unwrap();
        assert!(t > 10 && t < 100_000, "{t}");
        assert_eq!(inclusion.details.effect().df, 9.0);
        assert!(
            p.test(SampleTest::Order)
                .unwrap_err()
                .to_string()
                .contains("not an ordered")
        );
        let best = p.best().unwrap();
        assert_eq!(p.deciding_test, Some(best.test));
        assert_eq!(p.trials_for_power, best.details.recommended_trials());
        assert!(p.details.impossible_picks.is_none());
    }

    #[test]
    fn a_fair_law_has_no_plan_and_a_fair_pilot_is_refused() {
        let p = plan_of("floyd:k=3", 10, None);
        assert_eq!(p.details.law, LawOrigin::Exact { fair: true });
        for t in &p.tests {
            let PlanOutcome::NoPlan { reason, .. } = &t.details.outcome else {
                panic!("{t:?}")
            };
            assert!(reason.starts_with("no bias"), "{reason}");
        }
        assert!(p.best().is_none());
        assert_eq!((p.trials_for_power, p.deciding_test), (None, None));
        // reservoir-skip has no exact law: a pilot, which cannot tell.
        let spec = SamplerPowerSpec {
            pilot_trials: 100_000,
            ..spec_of("reservoir-skip:k=3", 10)
        };
        let p = plan_sampler(&spec).unwrap();
        assert!(matches!(
            p.details.law,
            LawOrigin::Pilot {
                trials: 100_000,
                ..
            }
        ));
        let t = p.test(SampleTest::Inclusion).unwrap();
        let PlanOutcome::NoPlan { reason, .. } = &t.details.outcome else {
            panic!("{t:?}")
        };
        assert!(reason.contains("not distinguishable from zero"), "{reason}");
        assert!(reason.contains("a fair sampler"), "{reason}");
    }

    #[test]
    fn a_biased_pilot_brackets_the_exact_plan() {
        let exact = plan_of("bernoulli-trim:k=3", 10, None);
        let exact_t = exact
            .test(SampleTest::Inclusion)
            .unwrap()
            .details
            .trials()
            .unwrap();
        let spec = SamplerPowerSpec {
            max_leaves: 1,
            pilot_trials: 20_000,
            seed: 4,
            ..spec_of("bernoulli-trim:k=3", 10)
        };
        let p = plan_sampler(&spec).unwrap();
        let LawOrigin::Pilot { why_not_exact, .. } = &p.details.law else {
            panic!("{:?}", p.details.law)
        };
        assert!(why_not_exact.contains("cap"), "{why_not_exact}");
        let PlanOutcome::Planned(plan) = &p.test(SampleTest::Inclusion).unwrap().details.outcome
        else {
            panic!("{p:?}")
        };
        let r = plan.trials_range.unwrap();
        assert!(
            r.low <= exact_t && exact_t <= r.high.unwrap(),
            "{r:?} misses {exact_t}"
        );
    }

    #[test]
    fn zero_weight_picks_are_planned_exactly_and_bad_requests_refused() {
        // weighted-off-by-one on 3, 5, 0 picks the last item 1 time in 8.
        let p = plan_of("weighted-off-by-one", 3, Some(vec![3, 5, 0]));
        let i = p.details.impossible_picks.clone().unwrap();
        assert!((i.rate - 0.125).abs() < 1e-15);
        // 1 − (7/8)^T ≥ 0.9 from T = 18.
        assert_eq!(i.trials_for_power, Some(18));
        // Sooner than the picks test's own plan: the first such pick decides.
        assert_eq!(p.trials_for_power, Some(18));
        assert_eq!(p.deciding_test, Some(SampleTest::Picks));
        assert!(p.test(SampleTest::Picks).unwrap().details.trials() > Some(18));
        assert_eq!(p.default_test(), SampleTest::Picks);
        assert!(parse_sample_test("position-value").is_err());
        assert!(parse_sample_test("pairs").is_ok());
        let floyd = spec_of("floyd:k=3", 10);
        assert!(plan_sampler(&floyd.clone().with_weights(vec![1; 10])).is_err());
        assert!(plan_sampler(&SamplerPowerSpec { n: 2, ..floyd }).is_err());
    }
}

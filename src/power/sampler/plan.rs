//! What a sampler's plan ([`AuditPlan<Samplers>`]) says beyond what every
//! plan says: where the effects come from, each test's plan outcome, and the
//! exact plan for zero-weight picks.

use crate::power::{AuditPlan, Effect, Plan, PlanKind, PlanOutcome, PlannedTest};
use crate::sampler::{SampleTest, Samplers};
use serde::Serialize;

/// Where a sampler plan's effects come from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum LawOrigin {
    /// The sampler's exact law under ideal draws.
    Exact {
        /// Whether the law is exactly fair (every k-subset, and k-tuple for
        /// an ordered sampler, equally likely; every pick proportional to
        /// its weight): then no test sees a bias.
        fair: bool,
    },
    /// A pilot run, because the exact law could not be used.
    Pilot {
        /// Its trials.
        trials: u64,
        /// Its seed.
        seed: u64,
        /// Why the exact law was not used.
        why_not_exact: String,
    },
}

/// The plan of one sampler test, beside its [`SampleTest`] in a
/// [`TestPlan<Samplers>`](crate::power::TestPlan), at the audit's level.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SamplerTestDetails {
    /// Its plan, or why there is none. The effect's `approximation_trials`
    /// (and the plan's) are the trials from which the test runs with the
    /// law the plan assumes.
    #[serde(flatten)]
    pub outcome: PlanOutcome,
    /// Whether the test also runs on sparser tables (judged by collisions),
    /// below its `approximation_trials`.
    pub runs_sparse: bool,
}

impl SamplerTestDetails {
    /// The plan, when there is one.
    fn planned(&self) -> Option<&Plan> {
        match &self.outcome {
            PlanOutcome::Planned(p) => Some(p),
            PlanOutcome::NoPlan { .. } => None,
        }
    }

    /// Trials for the requested power, when planned.
    pub fn trials(&self) -> Option<u64> {
        self.planned().map(|p| p.trials)
    }

    /// Trials for a run that is both powerful and in the test's range, when
    /// planned.
    pub fn recommended_trials(&self) -> Option<u64> {
        self.planned().map(|p| p.recommended_trials)
    }

    /// The effect the plan rests on.
    pub fn effect(&self) -> &Effect {
        match &self.outcome {
            PlanOutcome::Planned(p) => &p.effect,
            PlanOutcome::NoPlan { effect, .. } => effect,
        }
    }
}

impl PlannedTest for SamplerTestDetails {
    /// A sampler test decides by the trials of a run both powerful and in
    /// its range ([`Self::recommended_trials`]): below its range the audit
    /// leaves it out.
    fn deciding_trials(&self) -> Option<u64> {
        self.recommended_trials()
    }
}

/// A weighted pick that draws items of zero weight: the first such pick
/// makes the picks test certain (p = 0), at any level.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ImpossiblePicks {
    /// P(a zero-weight item per pick): exact, or the pilot's proportion.
    pub rate: f64,
    /// For a pilot: how many such picks it saw.
    pub pilot_picks: Option<u64>,
    /// Trials for the requested power, ceil(ln(1 − power) / ln(1 − rate)):
    /// the chance that at least one of T picks is impossible.
    pub trials_for_power: Option<u64>,
}

/// What only a sampler audit's plan holds: the sampler, N and k, the
/// weights, where the effects come from, and the exact plan for zero-weight
/// picks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SamplerDetails {
    /// The sampler, as named.
    pub sampler: String,
    /// N.
    pub n: usize,
    /// Items per sample.
    pub k: usize,
    /// The weights of a weighted pick.
    pub weights: Option<Vec<u64>>,
    /// Where the effects come from.
    pub law: LawOrigin,
    /// For a weighted pick that draws zero-weight items: the exact plan for
    /// catching one (the plan's `trials_for_power` when it is the fewest).
    pub impossible_picks: Option<ImpossiblePicks>,
}

impl PlanKind for Samplers {
    type TestDetails = SamplerTestDetails;
    type Details = SamplerDetails;

    fn audit_words(details: &SamplerDetails) -> String {
        format!("the audit of {} at N = {}", details.sampler, details.n)
    }
}

impl AuditPlan<Samplers> {
    /// The test the audit's verdict leans on: picks for a weighted pick,
    /// otherwise inclusion (when the audit runs it).
    pub fn default_test(&self) -> SampleTest {
        if self.details.weights.is_some() {
            SampleTest::Picks
        } else {
            SampleTest::Inclusion
        }
    }
}

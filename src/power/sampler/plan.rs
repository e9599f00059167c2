//! What a sampler plan says: every test of the audit planned at the
//! audit's level, the tests it does not run and why, where the effects come
//! from, and the exact plan for zero-weight picks.

use crate::error::{Error, ErrorKind, Result};
use crate::power::{Effect, PlanOutcome};
use crate::sampler::SampleTest;
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

/// One test of the audit, planned at the audit's level.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SamplerTestPlan {
    /// The test.
    pub test: SampleTest,
    /// Its plan, or why there is none. The effect's `approximation_trials`
    /// (and the plan's) are the trials from which the test runs with the
    /// law the plan assumes.
    #[serde(flatten)]
    pub outcome: PlanOutcome,
    /// Whether the test also runs on sparser tables (judged by collisions),
    /// below its `approximation_trials`.
    pub runs_sparse: bool,
}

impl SamplerTestPlan {
    /// Trials for the requested power, when planned.
    pub fn trials(&self) -> Option<u64> {
        match &self.outcome {
            PlanOutcome::Planned(p) => Some(p.trials),
            PlanOutcome::NoPlan { .. } => None,
        }
    }

    /// Trials for a run that is both powerful and in the test's range, when
    /// planned.
    pub fn recommended_trials(&self) -> Option<u64> {
        match &self.outcome {
            PlanOutcome::Planned(p) => Some(p.recommended_trials),
            PlanOutcome::NoPlan { .. } => None,
        }
    }

    /// The effect the plan rests on.
    pub fn effect(&self) -> &Effect {
        match &self.outcome {
            PlanOutcome::Planned(p) => &p.effect,
            PlanOutcome::NoPlan { effect, .. } => effect,
        }
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

/// A test the audit does not run here, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotRun {
    /// The test.
    pub test: SampleTest,
    /// Why.
    pub why: String,
}

/// The plan of every test of a sampler audit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SamplerPlan {
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
    /// The run's α.
    pub alpha: f64,
    /// m: the tests the audit runs (Holm within the audit).
    pub tests_in_audit: usize,
    /// M: the audits of the run (Holm across them).
    pub audits_in_run: usize,
    /// α/(m·M): the level every test is planned at.
    pub level: f64,
    /// The requested power.
    pub power: f64,
    /// The tests the audit runs, each planned.
    pub tests: Vec<SamplerTestPlan>,
    /// The tests it does not run here, each with why.
    pub not_run: Vec<NotRun>,
    /// For a weighted pick that draws zero-weight items: the exact plan for
    /// catching one.
    pub impossible_picks: Option<ImpossiblePicks>,
}

impl SamplerPlan {
    /// The plan of `test`, or an error naming it, why the audit does not run
    /// it here and which tests it runs.
    pub fn test(&self, test: SampleTest) -> Result<&SamplerTestPlan> {
        if let Some(t) = self.tests.iter().find(|t| t.test == test) {
            return Ok(t);
        }
        let why = self
            .not_run
            .iter()
            .find(|t| t.test == test)
            .map_or("it is not part of this audit", |t| t.why.as_str());
        let runs: Vec<&str> = self.tests.iter().map(|t| t.test.name()).collect();
        Err(Error::of_kind(
            ErrorKind::Unsupported,
            format!(
                "--test {test}: the audit of {} at N = {} does not run it ({why}); it runs {}",
                self.sampler,
                self.n,
                runs.join(", ")
            ),
        ))
    }

    /// The test the audit's verdict leans on: picks for a weighted pick,
    /// otherwise inclusion (when the audit runs it).
    pub fn default_test(&self) -> SampleTest {
        if self.weights.is_some() {
            SampleTest::Picks
        } else {
            SampleTest::Inclusion
        }
    }

    /// The test with a plan that needs the fewest trials for a run both
    /// powerful and in its range: the audit reaches the requested power by
    /// then (a lower bound).
    pub fn best(&self) -> Option<&SamplerTestPlan> {
        self.tests
            .iter()
            .filter(|t| t.recommended_trials().is_some())
            .min_by_key(|t| t.recommended_trials())
    }
}

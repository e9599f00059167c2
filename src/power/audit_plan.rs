//! The plan of an audit's tests, for every kind of subject: the level the
//! run's corrections hold each test to, each test's own plan, the tests the
//! audit does not run and why, and the test that decides.
//!
//! What every kind's plan holds is written once here ([`AuditPlan`],
//! [`TestPlan`], [`NotRun`]); what only one kind has is its [`PlanKind`]'s
//! details: for shuffles [`super::ShuffleDetails`] (from
//! [`super::plan_audit`]), for samplers [`super::sampler::SamplerDetails`]
//! (from [`super::sampler::plan_sampler`]).

use crate::audit::{Kind, Named};
use crate::error::{Error, Result};
use serde::Serialize;
use std::fmt::Debug;

/// A kind of subject whose audits are planned: what its plans hold beyond
/// what every plan holds, so that one [`AuditPlan`] type serves every kind.
pub trait PlanKind: Kind {
    /// A test's own plan, beside the test it is of (its effect, trials and
    /// reasons, as this kind plans them). Flattened into the test's JSON.
    type TestDetails: PlannedTest + Clone + Debug + PartialEq + Serialize;

    /// What only this kind's audit plans hold. Flattened into the plan's
    /// JSON.
    type Details: Clone + Debug + PartialEq + Serialize;

    /// The planned audit in words, for errors ("the audit of floyd:k=3 at
    /// N = 10").
    fn audit_words(details: &Self::Details) -> String;
}

/// What the plan of every kind asks of a test's plan.
pub trait PlannedTest {
    /// The trials by which this test alone gives the audit the requested
    /// power, when it has a plan: the deciding test is the one that needs
    /// the fewest (a guaranteed lower bound on the audit's power there, as
    /// other tests only add rejections).
    fn deciding_trials(&self) -> Option<u64>;
}

/// The plan for one test of an audit, at the level [`AuditPlan::level`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(bound = "")]
pub struct TestPlan<K: PlanKind> {
    /// Which test.
    pub test: K::Test,
    /// Its plan, as the kind plans it (or why there is none).
    #[serde(flatten)]
    pub details: K::TestDetails,
}

/// A test the audit does not run, and why: it is no part of the plan, nor
/// of the correction's m.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotRun<T> {
    /// The test.
    pub test: T,
    /// Why.
    pub why: String,
}

/// How many trials an audit needs to detect its subject's bias, planned for
/// the tests it runs and the corrections it is judged under.
///
/// The audit rejects whenever some test's p-value is at most α/(m·M):
/// Holm's first step within the m tests of the audit, then Holm's first step
/// across the M audits of the run (a p-value at most α/M is rejected by Holm
/// whatever the other audits show). So each test is planned at `level` =
/// α/(m·M), and the test that reaches the requested power with the fewest
/// trials decides: the audit has at least that power from
/// `trials_for_power` on. What only one kind plans (a shuffle's ranges and
/// simulations, a sampler's law and zero-weight picks) is in `details`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(bound = "")]
pub struct AuditPlan<K: PlanKind> {
    /// The run's significance level α.
    pub alpha: f64,
    /// m: the tests the audit runs (Holm within the audit).
    pub tests_in_audit: usize,
    /// M: the audits in the run (Holm across them).
    pub audits_in_run: usize,
    /// The level each test is planned at: α/(m·M).
    pub level: f64,
    /// The requested power.
    pub power: f64,
    /// Trials for the requested power, by the deciding test (a point
    /// estimate when its effect is estimated); `None` when no test gives a
    /// plan.
    pub trials_for_power: Option<u64>,
    /// The test that gives `trials_for_power`.
    pub deciding_test: Option<K::Test>,
    /// Every test the audit runs, each with its own plan.
    pub tests: Vec<TestPlan<K>>,
    /// The tests the audit does not run, each with why.
    pub not_run: Vec<NotRun<K::Test>>,
    /// What only this kind's plans hold.
    #[serde(flatten)]
    pub details: K::Details,
}

impl<K: PlanKind> AuditPlan<K> {
    /// A plan of an audit running `tests_in_audit` tests among
    /// `audits_in_run` audits (each counted as at least 1), at the level
    /// α/(m·M) they imply, with no test planned and nothing decided yet.
    pub fn new(
        alpha: f64,
        tests_in_audit: usize,
        audits_in_run: usize,
        power: f64,
        not_run: Vec<NotRun<K::Test>>,
        details: K::Details,
    ) -> Self {
        let m = tests_in_audit.max(1);
        let big_m = audits_in_run.max(1);
        Self {
            alpha,
            tests_in_audit: m,
            audits_in_run: big_m,
            level: alpha / (m * big_m) as f64,
            power,
            trials_for_power: None,
            deciding_test: None,
            tests: Vec::new(),
            not_run,
            details,
        }
    }

    /// The test with a plan that needs the fewest trials
    /// ([`PlannedTest::deciding_trials`]; the first of equals): the audit
    /// reaches the requested power by then (a lower bound).
    pub fn best(&self) -> Option<&TestPlan<K>> {
        self.tests
            .iter()
            .filter(|t| t.details.deciding_trials().is_some())
            .min_by_key(|t| t.details.deciding_trials())
    }

    /// Makes [`Self::best`] the deciding test, with its trials; leaves the
    /// plan undecided when no test has a plan.
    pub fn decide(&mut self) {
        if let Some((test, trials)) = self.best().map(|b| (b.test, b.details.deciding_trials())) {
            self.deciding_test = Some(test);
            self.trials_for_power = trials;
        }
    }

    /// The plan of `test`, or an error naming it, why the audit does not run
    /// it and which tests it runs.
    pub fn test(&self, test: K::Test) -> Result<&TestPlan<K>> {
        if let Some(t) = self.tests.iter().find(|t| t.test == test) {
            return Ok(t);
        }
        let why = self
            .not_run
            .iter()
            .find(|t| t.test == test)
            .map_or("it is not part of this audit", |t| t.why.as_str());
        let runs: Vec<&str> = self.tests.iter().map(|t| t.test.name()).collect();
        Err(Error::unsupported(format!(
            "--test {test}: {} does not run it ({why}); it runs {}",
            K::audit_words(&self.details),
            runs.join(", ")
        )))
    }
}

//! Where other analyses plug into the report.
//!
//! Each function here is the single place the report asks for something that
//! another part of the tool computes. Today most answer "nothing"; when a
//! whole-permutation test, power planning or exact enumeration lands, it
//! fills in its function and the report shows the result, with no change to
//! the renderers.

use super::model::Block;
use crate::audit::Audit;
use crate::test_catalog;

/// One test's outcome on one audit, as the report lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct TestResult {
    /// The test's catalogue name (see [`test_catalog::TESTS`]).
    pub name: &'static str,
    /// The test statistic.
    pub statistic: f64,
    /// Its degrees of freedom, if it has them.
    pub df: Option<f64>,
    /// log10 of the p-value.
    pub log10_p: f64,
    /// log10 of the Holm-adjusted p-value, if the run corrected this test.
    pub log10_p_holm: Option<f64>,
}

impl TestResult {
    /// The human title of the test.
    pub fn title(&self) -> &'static str {
        test_catalog::find(self.name).map_or(self.name, |t| t.title)
    }
}

/// Every test result of `audit`, in catalogue order.
pub fn test_results(audit: &Audit) -> Vec<TestResult> {
    let t = &audit.position_value;
    vec![TestResult {
        name: "position-value",
        statistic: t.statistic,
        df: Some(t.df),
        log10_p: t.log10_p,
        log10_p_holm: Some(audit.log10_p_holm),
    }]
}

/// The result that decides the verdict: the smallest (adjusted) p-value.
pub fn decisive(results: &[TestResult]) -> Option<&TestResult> {
    results.iter().min_by(|a, b| {
        let key = |r: &TestResult| r.log10_p_holm.unwrap_or(r.log10_p);
        key(a).total_cmp(&key(b))
    })
}

/// Shuffles needed to detect `audit`'s bias with good power at `alpha`, when
/// power planning can say; `None` shows as "—".
pub fn trials_needed(audit: &Audit, alpha: f64) -> Option<u64> {
    let _ = (audit, alpha);
    None
}

/// Findings of whole-permutation and structure tests on `audit`, if any were
/// run; `None` leaves the section out.
pub fn permutation_findings(audit: &Audit) -> Option<Vec<Block>> {
    let _ = audit;
    None
}

/// Exact (enumerated) results for `audit`'s algorithm at its `n`, if
/// available; `None` leaves the section out.
pub fn exact_results(audit: &Audit) -> Option<Vec<Block>> {
    let _ = audit;
    None
}

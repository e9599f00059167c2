//! What one test of an audit found, for every kind of subject alike.

use super::pvalue::departure;
use crate::spec::TestKind;
use serde::Serialize;

/// The result of one test of an audit: of a shuffle ([`TestKind`]), of a
/// sampler ([`crate::sampler::SampleTest`]) or of any other kind, the same
/// fields either way, so that correction, verdicts and outputs treat them
/// alike.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct TestResult<K = TestKind> {
    /// Which test.
    pub test: K,
    /// Its statistic (chi-square-type unless `method` says otherwise).
    pub statistic: f64,
    /// Degrees of freedom of the reference chi-square; 0 for a statistic
    /// without one (the birthday test's count of pairs).
    pub df: f64,
    /// log10 of the p-value (finite even far below 1e-300).
    pub log10_p: f64,
    /// log10 of the p-value after Holm correction across this audit's tests.
    pub log10_p_holm: f64,
    /// The statistic's standardised excess over its null mean,
    /// (X − df)/√(2·df) for a chi-square-type statistic, the test's own for
    /// another (df 0): the size of the departure where the p-value is only
    /// a bound (see [`super::pvalue`]).
    pub departure: f64,
    /// How the p-value was obtained, including any pooling.
    pub method: String,
}

impl<K> TestResult<K> {
    /// The result of `test`: a statistic with `df` degrees of freedom (0
    /// for one without a χ² reference law) and the log10 of its p-value,
    /// obtained as `method` says; the departure is the χ² one, (X − df) /
    /// √(2·df), and the Holm-adjusted p is the raw p until the audit
    /// corrects it.
    pub fn new(test: K, statistic: f64, df: f64, log10_p: f64, method: impl Into<String>) -> Self {
        TestResult {
            test,
            statistic,
            df,
            log10_p,
            log10_p_holm: log10_p,
            departure: departure(statistic, df),
            method: method.into(),
        }
    }
}

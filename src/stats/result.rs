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
    /// For a test made of parts judged alone and combined by Bonferroni
    /// (a deck's position-by-category and hand tests), what the parts
    /// are; `None` for a test of one piece. Its `statistic` and `df` are
    /// those of the part that decided, which varies with the counts; what
    /// the test could have detected rests on these instead, fixed by the
    /// design (see [`Parts`]).
    #[serde(skip)]
    pub parts: Option<Parts>,
    /// For a test whose sparse categories were pooled: its df with none
    /// pooled, the most more trials can give it. More trials unpool
    /// categories and raise the df, and with it what a detection needs, so
    /// advice on the trials a verdict needs is computed at this df and
    /// holds when followed. `None`: the df does not grow with the trials.
    #[serde(skip)]
    pub df_at_most: Option<f64>,
}

/// The parts of a test combined by Bonferroni: how many, and the largest
/// degrees of freedom among them. Each part is held to the test's level
/// divided by `count`, and the part with the most df is the least
/// sensitive, so what the test could have detected is that part's at that
/// share (the worst case over its parts): the same at every run of the
/// same design, so "could detect" and "run N trials" do not move with
/// which part happened to give the smallest p.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parts {
    /// How many parts.
    pub count: usize,
    /// The largest df of a part.
    pub largest_df: f64,
    /// The largest df a part reaches with none of its categories pooled
    /// (as [`TestResult::df_at_most`]).
    pub largest_df_at_most: f64,
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
            parts: None,
            df_at_most: None,
        }
    }
}

//! Multiple-testing correction and verdicts, and which of an audit's tests
//! saw the bias it was judged to have ([`seen_by`]).

use super::result::TestResult;
use serde::Serialize;
use std::cmp::Ordering;
use std::fmt;

/// The outcome of an audit at a chosen significance level: one of three, so
/// that a run too small to see anything is never called fair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The evidence of bias survives every multiple-testing correction.
    Biased,
    /// No test found bias, and the run was large enough to have seen a bias
    /// of the size its sensitivity states (not proof of fairness).
    NoBiasDetected,
    /// No test found bias, but the run was too small to mean anything: too
    /// few counts per cell, or a sensitivity coarser than the documented
    /// threshold (see [`crate::stats::sensitivity`]).
    Inconclusive,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

impl Verdict {
    /// Every verdict, from the strongest claim to the weakest.
    pub const ALL: [Verdict; 3] = [
        Verdict::Biased,
        Verdict::NoBiasDetected,
        Verdict::Inconclusive,
    ];

    /// The verdict in words, the same in every output: `biased`,
    /// `no bias detected`, `inconclusive`.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Biased => "biased",
            Verdict::NoBiasDetected => "no bias detected",
            Verdict::Inconclusive => "inconclusive",
        }
    }

    /// A short machine name (as in JSON and CSV): `biased`,
    /// `no-bias-detected`, `inconclusive`.
    pub fn slug(self) -> &'static str {
        match self {
            Verdict::Biased => "biased",
            Verdict::NoBiasDetected => "no-bias-detected",
            Verdict::Inconclusive => "inconclusive",
        }
    }

    /// The symbol shown before the words, so a verdict never rests on colour.
    pub fn symbol(self) -> &'static str {
        match self {
            Verdict::Biased => "✗",
            Verdict::NoBiasDetected => "✓",
            Verdict::Inconclusive => "?",
        }
    }

    /// The verdict for a fully corrected log10 p-value at level `alpha`,
    /// given whether the run could have seen a bias (`adequate`).
    pub fn decide(log10_p_adjusted: f64, alpha: f64, adequate: bool) -> Self {
        if rejects(log10_p_adjusted, alpha) {
            Verdict::Biased
        } else if adequate {
            Verdict::NoBiasDetected
        } else {
            Verdict::Inconclusive
        }
    }
}

/// Whether a (corrected) log10 p-value rejects at level `alpha`.
fn rejects(log10_p_adjusted: f64, alpha: f64) -> bool {
    log10_p_adjusted <= alpha.log10()
}

/// Orders two test results by the strength of their evidence, strongest
/// first: the smaller raw p-value (`log10_p`), then the larger departure.
///
/// The raw log10 p is the test's own tail probability, so it is in the same
/// currency for every test whatever its degrees of freedom. Below
/// [`super::pvalue::LOG10_P_FLOOR`] it is no longer a probability (the
/// approximations' digits mean nothing there, and outputs show the bound
/// "p < 1e-12"), but each test's approximation still measures how far out
/// its own statistic lies, so the order stays meaningful as far as each
/// approximation goes: the naive swap's position-by-value log10 p of
/// −26,000 against its cycle count's −4,000 says the marginals carry far
/// more evidence. The standardised departure (X − df)/√(2·df), which used
/// to break ties among bounds, divides the excess by √df and so favours
/// tests of few degrees of freedom (a 12-df cycle count over a 2,601-df
/// matrix); it is kept only to break exact ties. (A Monte Carlo p-value
/// cannot go below 1/(draws + 1), so such a test ranks by what it can
/// claim, not by how far out its statistic is.)
pub fn by_strength<K>(a: &TestResult<K>, b: &TestResult<K>) -> Ordering {
    a.log10_p
        .total_cmp(&b.log10_p)
        .then(b.departure.total_cmp(&a.departure))
}

/// The tests of one audit that reject at level `alpha` after every
/// correction the verdict applied, strongest first ([`by_strength`]): what
/// "seen by" lists in every output.
///
/// `log10_p` is the audit's own p (its smallest Holm-adjusted p) and
/// `log10_p_adjusted` that p after the run's further corrections (Holm
/// across audits; Bonferroni over looks and audits for a sequential audit).
/// Each test's Holm-adjusted p (within the audit) is corrected by the same
/// factor, `log10_p_adjusted − log10_p`, and compared with α exactly as the
/// verdict compares the audit's p; so the list is empty unless the verdict
/// is [`Verdict::Biased`], and then starts with the test that decided it.
/// Holm's adjusted p-values keep the order of the raw ones (tied raw
/// p-values get equal adjusted ones), so the rejecting tests are always the
/// strongest ones.
pub fn seen_by<K>(
    tests: &[TestResult<K>],
    log10_p: f64,
    log10_p_adjusted: f64,
    alpha: f64,
) -> Vec<&TestResult<K>> {
    // A test's p after the run's corrections. Subtracting first keeps the
    // decisive test's value exactly the audit's adjusted p (x − x = 0), so
    // it agrees with the verdict. A p of exactly 0 stays 0 whatever the
    // correction; when the audit's own p is 0 the correction's factor is
    // lost (0 × it), so only the tests at p = 0 are sure to reject.
    let corrected = |p: f64| {
        if p == f64::NEG_INFINITY {
            p
        } else if log10_p == f64::NEG_INFINITY {
            0.0
        } else {
            p - log10_p + log10_p_adjusted
        }
    };
    let mut seen: Vec<&TestResult<K>> = tests
        .iter()
        .filter(|t| rejects(corrected(t.log10_p_holm), alpha))
        .collect();
    seen.sort_by(|a, b| by_strength(a, b));
    seen
}

/// The test with the strongest evidence ([`by_strength`]): the first of
/// [`seen_by`] when any test rejects (it is the one whose p decided the
/// verdict), the smallest p otherwise; `None` when no test ran.
pub fn strongest<K>(tests: &[TestResult<K>]) -> Option<&TestResult<K>> {
    tests.iter().min_by(|a, b| by_strength(a, b))
}

/// Holm–Bonferroni adjusted p-values, in log10 and in the input order.
///
/// Working in logs keeps p-values far below 1e-300 distinct. Rejecting where
/// the adjusted value is at most α controls the family-wise error rate at α
/// for any dependence between the tests.
pub fn holm_log10(log10_p: &[f64]) -> Vec<f64> {
    let m = log10_p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| log10_p[a].total_cmp(&log10_p[b]));
    let mut adjusted = vec![0.0; m];
    let mut running = f64::NEG_INFINITY;
    for (rank, &i) in order.iter().enumerate() {
        let scaled = (((m - rank) as f64).log10() + log10_p[i]).min(0.0);
        running = running.max(scaled);
        adjusted[i] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result of test `name` with raw log10 p `raw` and `departure`,
    /// Holm-corrected with the others by [`holm_log10`].
    fn results(tests: &[(&'static str, f64, f64)]) -> Vec<TestResult<&'static str>> {
        let raw: Vec<f64> = tests.iter().map(|t| t.1).collect();
        tests
            .iter()
            .zip(holm_log10(&raw))
            .map(|(&(test, log10_p, departure), log10_p_holm)| TestResult {
                parts: None,
                df_at_most: None,
                test,
                statistic: 0.0,
                df: 1.0,
                log10_p,
                log10_p_holm,
                departure,
                method: String::new(),
            })
            .collect()
    }

    fn names<'a>(seen: &[&'a TestResult<&'static str>]) -> Vec<&'a str> {
        seen.iter().map(|t| t.test).collect()
    }

    #[test]
    fn seen_by_orders_by_p_not_departure_and_applies_the_run_correction() {
        // Far beyond the bound the many-df test has the smaller p but the
        // smaller departure: it comes first all the same.
        let tests = results(&[
            ("cycles", -4_220.0, 3_993.0),
            ("position-value", -26_310.0, 1_817.0),
            ("faint", -4.0, 3.0),
            ("none", -0.5, 0.1),
        ]);
        let own = tests
            .iter()
            .map(|t| t.log10_p_holm)
            .fold(f64::INFINITY, f64::min);
        // Alone in its run (no further correction): faint's Holm p is
        // 2 × 1e-4, which rejects at 0.001.
        assert_eq!(
            names(&seen_by(&tests, own, own, 0.001)),
            ["position-value", "cycles", "faint"]
        );
        assert_eq!(strongest(&tests).unwrap().test, "position-value");
        // Held to α / 10 by the run's correction, faint no longer rejects.
        assert_eq!(
            names(&seen_by(&tests, own, own + 1.0, 0.001)),
            ["position-value", "cycles"]
        );
        // The decisive test rejects exactly when the verdict does.
        let weak = results(&[("a", -3.5, 1.0), ("b", -2.0, 2.0)]);
        let own = weak
            .iter()
            .map(|t| t.log10_p_holm)
            .fold(f64::INFINITY, f64::min);
        assert!(own <= 0.001f64.log10());
        assert_eq!(names(&seen_by(&weak, own, own, 0.001)), ["a"]);
        let judged = own + 2f64.log10();
        assert_eq!(
            Verdict::decide(judged, 0.001, true),
            Verdict::NoBiasDetected
        );
        assert!(seen_by(&weak, own, judged, 0.001).is_empty());
        // Equal p-values: the larger departure first.
        let tied = results(&[("small", -50.0, 1.0), ("large", -50.0, 9.0)]);
        assert_eq!(
            names(&seen_by(&tied, -49.7, -49.7, 0.001)),
            ["large", "small"]
        );
        assert!(strongest::<&str>(&[]).is_none());
    }

    #[test]
    fn a_p_of_zero_is_seen_by_its_test() {
        // A pick of an item of weight 0: p is exactly 0 (log10 −∞), and
        // −∞ − (−∞) must not make the list empty (NaN rejects nothing).
        let tests = results(&[("picks", f64::NEG_INFINITY, 9.0), ("faint", -3.5, 1.0)]);
        let own = f64::NEG_INFINITY;
        assert_eq!(names(&seen_by(&tests, own, own, 0.001)), ["picks"]);
        assert!(Verdict::decide(own, 0.001, true) == Verdict::Biased);
    }

    #[test]
    fn holm_matches_the_textbook_example() {
        // p = 0.01, 0.04, 0.03, 0.005 -> sorted 0.005, 0.01, 0.03, 0.04
        // adjusted: 4*0.005=0.02, 3*0.01=0.03, 2*0.03=0.06, max(0.06, 0.04)=0.06.
        let p = [0.01f64, 0.04, 0.03, 0.005];
        let adj: Vec<f64> = holm_log10(&p.map(f64::log10))
            .into_iter()
            .map(|l| 10f64.powf(l))
            .collect();
        let want = [0.03, 0.06, 0.06, 0.02];
        for (a, w) in adj.iter().zip(want) {
            assert!((a - w).abs() < 1e-12, "{adj:?}");
        }
    }

    #[test]
    fn holm_caps_at_one_and_keeps_tiny_values() {
        let adj = holm_log10(&[-0.01, -0.2, -500.0]);
        assert_eq!(
            adj[0], 0.0,
            "monotone: never below a smaller p's adjusted value"
        );
        assert_eq!(adj[1], 0.0, "2 x 0.63 is capped at 1");
        assert!((adj[2] - (-500.0 + 3f64.log10())).abs() < 1e-9);
        assert_eq!(Verdict::decide(adj[2], 0.001, false), Verdict::Biased);
        assert_eq!(
            Verdict::decide(adj[0], 0.001, true),
            Verdict::NoBiasDetected
        );
        assert_eq!(Verdict::decide(adj[0], 0.001, false), Verdict::Inconclusive);
    }
}

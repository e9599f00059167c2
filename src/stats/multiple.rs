//! Multiple-testing correction and verdicts.

use serde::Serialize;
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

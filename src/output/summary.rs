//! The machine-readable summary of a run: one record per audit, as CSV and as
//! JSON (the JSON also carries every audit's counts).

use crate::audit::Audit;
use crate::permutation::unrank;
use crate::spec::TestKind;
use crate::stats::{TestResult, Verdict};
use serde::Serialize;

/// One audit as a flat record: the columns of `summary.csv`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SummaryRow {
    /// Algorithm with its parameters (`random-swap:k=100`).
    pub algorithm: String,
    /// Number of elements shuffled.
    pub n: usize,
    /// Number of shuffles.
    pub trials: u64,
    /// Random source with its parameters.
    pub rng: String,
    /// The run's seed.
    pub seed: u64,
    /// Worker threads used (does not affect the counts).
    pub threads: usize,
    /// Wall-clock seconds of shuffling and counting.
    pub seconds: f64,
    /// Shuffles per second.
    pub shuffles_per_sec: f64,
    /// The tests run, comma-separated.
    pub tests: String,
    /// The test with the strongest evidence.
    pub decisive_test: TestKind,
    /// log10 of the audit's p-value: its decisive test's, Holm-corrected
    /// across the audit's tests.
    pub log10_p_audit: f64,
    /// Calibrated position-by-value statistic Q.
    pub statistic: f64,
    /// Degrees of freedom of Q, (n-1)².
    pub df: f64,
    /// p-value of Q (0 where it underflows; see `log10_p`).
    pub p_value: f64,
    /// log10 of Q's p-value.
    pub log10_p: f64,
    /// log10 of the audit's p-value after Holm correction across the run.
    pub log10_p_holm: f64,
    /// Largest |standardised residual|.
    pub max_abs_z: f64,
    /// Its position.
    pub max_abs_z_position: usize,
    /// Its value.
    pub max_abs_z_value: usize,
    /// Largest |O/E - 1|.
    pub max_rel_dev: f64,
    /// Its position.
    pub max_rel_dev_position: usize,
    /// Its value.
    pub max_rel_dev_value: usize,
    /// Largest per-position total variation distance to uniform.
    pub tv_marginal: f64,
    /// Expected `tv_marginal` of a fair shuffle at this trial count.
    pub tv_noise: f64,
    /// `fair` or `biased`.
    pub verdict: Verdict,
}

impl SummaryRow {
    /// The record of one audit.
    pub fn of(audit: &Audit) -> Self {
        let t = &audit.position_value;
        Self {
            algorithm: audit.spec.algorithm.to_string(),
            n: audit.spec.n,
            trials: audit.spec.trials,
            rng: audit.spec.source.to_string(),
            seed: audit.spec.seed,
            threads: audit.threads,
            seconds: audit.seconds,
            shuffles_per_sec: audit.shuffles_per_sec(),
            tests: audit.spec.tests.to_string(),
            decisive_test: audit.decisive().test,
            log10_p_audit: audit.log10_p,
            statistic: t.statistic,
            df: t.df,
            p_value: t.p_value,
            log10_p: t.log10_p,
            log10_p_holm: audit.log10_p_holm,
            max_abs_z: t.max_abs_z,
            max_abs_z_position: t.max_abs_z_cell.position,
            max_abs_z_value: t.max_abs_z_cell.value,
            max_rel_dev: t.max_rel_dev,
            max_rel_dev_position: t.max_rel_dev_cell.position,
            max_rel_dev_value: t.max_rel_dev_cell.value,
            tv_marginal: t.tv_marginal,
            tv_noise: t.tv_noise,
            verdict: audit.verdict,
        }
    }
}

/// One audit in `summary.json`: its record plus its counts.
#[derive(Debug, Clone, Serialize)]
pub struct SummaryEntry {
    /// The flat record.
    #[serde(flatten)]
    pub row: SummaryRow,
    /// Every test's result.
    pub test_results: Vec<TestResult>,
    /// `counts[position][value]`.
    pub counts: Vec<Vec<u64>>,
}

/// The whole `summary.json` document.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Tool name and version, for reproducibility.
    pub tool: String,
    /// Significance level of the verdicts.
    pub alpha: f64,
    /// Multiple-testing correction applied across the audits.
    pub correction: &'static str,
    /// The test behind the verdicts.
    pub test: &'static str,
    /// One entry per audit.
    pub audits: Vec<SummaryEntry>,
}

impl Summary {
    /// The summary of a judged run.
    pub fn of(audits: &[Audit], alpha: f64) -> Self {
        Self {
            tool: format!("shuffle-audit {}", env!("CARGO_PKG_VERSION")),
            alpha,
            correction: "holm",
            test: "per audit: the selected tests, Holm-corrected within the audit; verdicts after Holm across audits",
            audits: audits
                .iter()
                .map(|a| SummaryEntry {
                    row: SummaryRow::of(a),
                    test_results: a.tests.clone(),
                    counts: a.tally.rows(),
                })
                .collect(),
        }
    }

    /// Pretty JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("summary serialises")
    }

    /// CSV text: a header and one row per audit.
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        for entry in &self.audits {
            w.serialize(&entry.row).expect("summary row serialises");
        }
        String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
    }
}

/// `counts.csv` text: a header `position,v0,v1,...` and one row per position.
pub fn counts_csv(counts: &[Vec<u64>]) -> String {
    let n = counts.len();
    let mut w = csv::Writer::from_writer(Vec::new());
    let header = std::iter::once("position".to_string()).chain((0..n).map(|v| format!("v{v}")));
    w.write_record(header).expect("in-memory CSV");
    for (p, row) in counts.iter().enumerate() {
        let fields = std::iter::once(p.to_string()).chain(row.iter().map(u64::to_string));
        w.write_record(fields).expect("in-memory CSV");
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
}

/// `permutations.csv` text: every permutation (values by position, space
/// separated) with its count and the count a uniform shuffle would expect.
pub fn permutations_csv(n: usize, counts: &[u64]) -> String {
    let trials: u64 = counts.iter().sum();
    let expected = trials as f64 / counts.len() as f64;
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["permutation", "count", "expected"])
        .expect("in-memory CSV");
    for (rank, &count) in counts.iter().enumerate() {
        let perm: Vec<String> = unrank(rank, n).iter().map(u32::to_string).collect();
        w.write_record([perm.join(" "), count.to_string(), format!("{expected:.3}")])
            .expect("in-memory CSV");
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_csv_lists_every_permutation_in_rank_order() {
        let text = permutations_csv(2, &[3, 1]);
        assert_eq!(
            text,
            "permutation,count,expected\n0 1,3,2.000\n1 0,1,2.000\n"
        );
    }

    #[test]
    fn counts_csv_has_a_header_and_a_row_per_position() {
        let text = counts_csv(&[vec![3, 1], vec![1, 3]]);
        assert_eq!(text, "position,v0,v1\n0,3,1\n1,1,3\n");
    }
}

//! The machine-readable summary of a run: one record per audit, as CSV and as
//! JSON (the JSON also carries every audit's counts).

use crate::audit::Audit;
use crate::findings::{AuditFindings, DeviationCell, Findings, PositionLines};
use crate::permutation::unrank;
use crate::power::AuditPlan;
use crate::produce::FeedReport;
use crate::spec::TestKind;
use crate::stats::{TestResult, Verdict, pvalue};
use crate::tally::{Binning, Cells, Columns};
use serde::Serialize;

/// One audit as a flat record: the columns of `summary.csv`.
///
/// p-values appear twice: as stated (`p_*`, never below 1e-12, with
/// `*_is_bound` true where the value is only the bound "p < 1e-12") and as
/// `log10_p_*`, the exact log10 of the approximation's tail. The log10 form
/// keeps full precision for p-values that are real probabilities; below −12
/// it only ranks, it is not a probability claim (see
/// [`crate::stats::pvalue`]).
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
    pub tests_run: String,
    /// `biased`, `no-bias-detected` or `inconclusive`.
    pub verdict: Verdict,
    /// The p-value the verdict compared with α, after every correction
    /// (within the audit, across audits, over looks), as stated.
    pub p_adjusted: f64,
    /// Whether `p_adjusted` is only the bound "p < 1e-12".
    pub p_adjusted_is_bound: bool,
    /// log10 of the verdict's p-value (see the type's note).
    pub log10_p_adjusted: f64,
    /// The test with the strongest evidence: the first of `seen_by` when
    /// the audit is biased (see [`Audit::decisive`]).
    pub decisive_test: TestKind,
    /// Its standardised departure (X − df)/√(2·df).
    pub decisive_departure: f64,
    /// The power at which the sensitivity is stated (0.9).
    pub sensitivity_power: f64,
    /// The level each test was held to for the sensitivity guarantee.
    pub sensitivity_level: f64,
    /// The smallest relative deviation of one position-by-value cell the run
    /// would have detected with that power (empty without that test).
    pub detectable_cell_deviation: Option<f64>,
    /// The same sensitivity as Cohen's w, on the test named next.
    pub detectable_cohen_w: f64,
    /// The test the sensitivity is stated for.
    pub sensitivity_test: TestKind,
    /// Why the run is inconclusive, if its verdict is.
    pub inconclusive_reason: Option<String>,
    /// For an inconclusive run: the trials at which its tests, held to the
    /// same level, could detect the bias a verdict must be able to see.
    pub trials_for_verdict: Option<u64>,
    /// The largest deviation in words, as every output states it.
    pub largest_deviation: String,
    /// For a biased audit, or an inconclusive one whose counts show an
    /// effect: the trials its battery, judged as this run judged it, needs
    /// to detect that effect with 90% power (empty otherwise, or if no plan).
    pub trials_for_power: Option<u64>,
    /// The position-by-value test's calibrated statistic Q (one of the
    /// tests; the verdict's p is `p_adjusted`).
    pub position_value_statistic: f64,
    /// Degrees of freedom of Q, (n-1)² (or (B-1)² when binned).
    pub position_value_df: f64,
    /// The position-by-value test's own p-value (before any correction), as
    /// stated.
    pub position_value_p: f64,
    /// Whether `position_value_p` is only the bound "p < 1e-12".
    pub position_value_p_is_bound: bool,
    /// log10 of `position_value_p` (see the type's note).
    pub position_value_log10_p: f64,
    /// Largest |standardised residual| of a cell.
    pub max_abs_z: f64,
    /// The |z| a cell must reach to stand out among the n² cells (B² when
    /// binned, whose cells are bins; see `binning` in summary.json) at the
    /// level the verdict gives each test (`sensitivity_level`).
    pub standout_z: f64,
    /// The position of the cell that stands out, if one does.
    pub standout_position: Option<usize>,
    /// The value of the cell that stands out, if one does.
    pub standout_value: Option<usize>,
    /// Largest |O/E - 1| (descriptive: noise unless a cell stands out).
    pub max_rel_dev: f64,
    /// Its position.
    pub max_rel_dev_position: usize,
    /// Its value.
    pub max_rel_dev_value: usize,
    /// Largest per-position total variation distance to uniform.
    pub tv_marginal: f64,
    /// The mean of `tv_marginal` for a fair shuffle at this trial count.
    pub tv_noise: f64,
}

impl SummaryRow {
    /// The record of one judged audit and its findings.
    pub fn of(audit: &Audit, found: &AuditFindings) -> Self {
        let t = &audit.position_value;
        let n = audit.spec.n;
        let level = audit.sensitivity.level;
        let standout = t.standout(n, level);
        let s = &audit.sensitivity;
        let inconclusive = audit.verdict == Verdict::Inconclusive;
        let decisive = audit.decisive();
        Self {
            algorithm: audit.spec.subject.to_string(),
            n,
            trials: audit.spec.trials,
            rng: audit.spec.source_label(),
            seed: audit.spec.seed,
            threads: audit.threads,
            seconds: audit.seconds,
            shuffles_per_sec: audit.shuffles_per_sec(),
            tests_run: audit.spec.tests.to_string(),
            verdict: audit.verdict,
            p_adjusted: pvalue::stated(audit.log10_p_adjusted),
            p_adjusted_is_bound: pvalue::is_bound(audit.log10_p_adjusted),
            log10_p_adjusted: audit.log10_p_adjusted,
            decisive_test: decisive.test,
            decisive_departure: decisive.departure,
            sensitivity_power: s.power,
            sensitivity_level: s.level,
            detectable_cell_deviation: s.cell_deviation,
            detectable_cohen_w: s.cohen_w,
            sensitivity_test: s.test,
            inconclusive_reason: inconclusive.then(|| s.inconclusive.clone()).flatten(),
            trials_for_verdict: inconclusive.then_some(s.trials_needed).flatten(),
            largest_deviation: found.deviation.clone(),
            trials_for_power: found.plan.as_ref().and_then(|p| p.trials_for_power),
            position_value_statistic: t.statistic,
            position_value_df: t.df,
            position_value_p: pvalue::stated(t.log10_p()),
            position_value_p_is_bound: pvalue::is_bound(t.log10_p()),
            position_value_log10_p: t.log10_p(),
            max_abs_z: t.max_abs_z,
            standout_z: t.standout_z(n, level),
            standout_position: standout.map(|c| c.position),
            standout_value: standout.map(|c| c.value),
            max_rel_dev: t.max_rel_dev,
            max_rel_dev_position: t.max_rel_dev_cell.position,
            max_rel_dev_value: t.max_rel_dev_cell.value,
            tv_marginal: t.tv_marginal,
            tv_noise: t.tv_noise,
        }
    }
}

/// One test's result in `summary.json`: the result, with its p-values as
/// stated next to their exact log10 forms.
#[derive(Debug, Clone, Serialize)]
pub struct TestRecord {
    /// The result (statistic, df, log10 p-values, departure, method).
    #[serde(flatten)]
    pub result: TestResult,
    /// The p-value as stated (never below 1e-12).
    pub p: f64,
    /// The Holm-adjusted (within the audit) p-value as stated.
    pub p_holm: f64,
    /// Whether `p` is only the bound "p < 1e-12".
    pub p_is_bound: bool,
}

impl TestRecord {
    /// The record of one test result.
    pub fn of(result: &TestResult) -> Self {
        Self {
            p: pvalue::stated(result.log10_p),
            p_holm: pvalue::stated(result.log10_p_holm),
            p_is_bound: pvalue::is_bound(result.log10_p),
            result: result.clone(),
        }
    }
}

/// One audit in `summary.json`: its record, its findings, every test and
/// its counts.
#[derive(Debug, Clone, Serialize)]
pub struct SummaryEntry {
    /// The flat record.
    #[serde(flatten)]
    pub row: SummaryRow,
    /// The tests that saw the bias, strongest first ([`Audit::seen_by`]):
    /// a list in JSON, one `;`-separated column in CSV (see
    /// [`SeenByColumn`]); empty unless the verdict is biased.
    pub seen_by: Vec<TestKind>,
    /// The sensitivity in words, as the report states it.
    pub sensitivity: String,
    /// The cell behind `largest_deviation`, when one is named.
    pub deviation_cell: Option<DeviationCell>,
    /// The whole trial plan of a biased audit.
    pub plan: Option<AuditPlan>,
    /// Each position and each card tested on its own (uncorrected, at the
    /// run's α), when there are enough trials.
    pub lines: Option<PositionLines>,
    /// Where an outside shuffle's decks came from, if it is one.
    pub feed: Option<FeedSummary>,
    /// Every test's result, with its own p and its p Holm-adjusted within
    /// the audit.
    pub tests: Vec<TestRecord>,
    /// `counts[position][value]` (`[position][kind]` for a deck whose items
    /// repeat, see `kinds`), for up to [`MAX_EMBEDDED_N`]² cells (larger
    /// matrices are only in the audit's `counts.csv`, so that summary.json
    /// stays small).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<Vec<u64>>>,
    /// The kinds of a deck whose items repeat: the columns of `counts`,
    /// `deviation_cell` and the standout cell are these kinds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kinds: Option<Vec<String>>,
    /// How the matrix is binned, when it is (large n): then `counts`,
    /// cells, standout and deviation positions and values are bins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binning: Option<BinningSummary>,
}

/// A binned matrix's bins, in `summary.json`.
#[derive(Debug, Clone, Serialize)]
pub struct BinningSummary {
    /// Bins per side (B).
    pub bins: usize,
    /// Each bin's indices, `first–last` (the same bins for positions and
    /// values).
    pub labels: Vec<String>,
    /// The tests left out because the matrix is binned or n is large, in
    /// words.
    pub note: String,
}

impl BinningSummary {
    /// The summary of `binning` (not the identity).
    pub fn of(binning: crate::tally::Binning) -> Self {
        Self {
            bins: binning.bins(),
            labels: (0..binning.bins()).map(|b| binning.label(b)).collect(),
            note: BINNED_NOTE.to_string(),
        }
    }
}

/// What a binned audit leaves out, as outputs say it.
pub const BINNED_NOTE: &str = "position-by-value counted in bins of positions and values; per-position \
     and per-card line tests skipped (they need the full matrix)";

/// The largest n whose count matrix summary.json embeds (n² numbers, or
/// as many cells of a multiset's position-by-kind matrix); every audit's
/// `counts.csv` holds its matrix whatever n.
pub const MAX_EMBEDDED_N: usize = 64;

/// The counts summary.json embeds: the matrix's rows when it has at most
/// [`MAX_EMBEDDED_N`]² cells.
fn embedded_counts(cells: &Cells) -> Option<Vec<Vec<u64>>> {
    (cells.rows() * cells.cols() <= MAX_EMBEDDED_N * MAX_EMBEDDED_N).then(|| cells.count_rows())
}

/// What an outside feed gave, in `summary.json`.
#[derive(Debug, Clone, Serialize)]
pub struct FeedSummary {
    /// Decks counted.
    pub decks: u64,
    /// Decks asked for (`--trials`), if a limit was set.
    pub asked: Option<u64>,
    /// Whether the limit stopped the read before the input ended.
    pub stopped_early: bool,
    /// What the items were (`0..51`, `the labels AS, 2S, ...`).
    pub items: String,
    /// A command's workers: command, seed and count of each.
    pub workers: Vec<WorkerSummary>,
    /// SHA-256 of the input file (`None` for stdin and commands).
    pub sha256: Option<String>,
}

/// One worker of a command.
#[derive(Debug, Clone, Serialize)]
pub struct WorkerSummary {
    /// Its number, from 0.
    pub worker: usize,
    /// Its `{seed}`.
    pub seed: u64,
    /// Its `{count}`.
    pub count: u64,
    /// The command as run.
    pub command: String,
}

impl FeedSummary {
    fn of(feed: &FeedReport, n: usize) -> Self {
        Self {
            decks: feed.decks,
            asked: feed.asked,
            stopped_early: feed.stopped_early,
            items: feed.items.describe(n),
            sha256: feed.sha256.clone(),
            workers: feed
                .workers
                .iter()
                .map(|w| WorkerSummary {
                    worker: w.worker,
                    seed: w.seed,
                    count: w.count,
                    command: w.command.clone(),
                })
                .collect(),
        }
    }
}

/// The version of the `summary.json` layout: raised whenever a field is
/// renamed or its meaning changes (see the README's field list).
pub const SUMMARY_SCHEMA: u32 = 2;

/// The whole `summary.json` document.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The layout's version ([`SUMMARY_SCHEMA`]).
    pub schema: u32,
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
    /// One record per sampler audit of a study that audits shuffles and
    /// samplers (judged with the shuffles; absent otherwise, and the
    /// samplers' own `summary.json` is written in `samplers/`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub samplers: Vec<crate::output::samples::SampleRecord>,
}

impl Summary {
    /// The summary of a judged run and its findings.
    pub fn of(audits: &[Audit], findings: &Findings) -> Self {
        Self {
            schema: SUMMARY_SCHEMA,
            tool: format!("shuffle-audit {}", env!("CARGO_PKG_VERSION")),
            alpha: findings.alpha,
            correction: "holm",
            test: "per audit: the selected tests, Holm-corrected within the audit; verdicts after Holm across audits",
            audits: audits
                .iter()
                .zip(&findings.audits)
                .map(|(a, found)| SummaryEntry {
                    row: SummaryRow::of(a, found),
                    seen_by: a.seen_by().iter().map(|t| t.test).collect(),
                    sensitivity: a.sensitivity.words(),
                    deviation_cell: found.deviation_cell.clone(),
                    plan: found.plan.clone(),
                    lines: found.lines.clone(),
                    feed: a.feed.as_ref().map(|f| FeedSummary::of(f, a.spec.n)),
                    tests: a.tests.iter().map(TestRecord::of).collect(),
                    counts: embedded_counts(&a.cells()),
                    kinds: a
                        .spec
                        .deck
                        .as_ref()
                        .filter(|d| d.repeats())
                        .map(|d| d.kind_names().to_vec()),
                    binning: a
                        .tally
                        .is_binned()
                        .then(|| BinningSummary::of(a.tally.binning())),
                })
                .collect(),
            samplers: Vec::new(),
        }
    }

    /// Pretty JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("summary serialises")
    }

    /// CSV text: a header and one row per audit (the flat record, then
    /// `seen_by`).
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        for entry in &self.audits {
            let seen_by = SeenByColumn::of(&entry.seen_by);
            w.serialize((&entry.row, seen_by))
                .expect("summary row serialises");
        }
        String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
    }
}

/// The last column of `summary.csv` (and of a sampler run's): the tests
/// that saw the bias, strongest first, as one field of names separated by
/// `;` (a CSV field holds no list; the JSON's `seen_by` is one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeenByColumn {
    /// The names, `;`-separated (`position-value;lehmer;cycles`); empty
    /// unless the verdict is biased.
    pub seen_by: String,
}

impl SeenByColumn {
    /// The column for these tests (in the order given).
    pub fn of<T: std::fmt::Display>(tests: &[T]) -> Self {
        let names: Vec<String> = tests.iter().map(T::to_string).collect();
        Self {
            seen_by: names.join(";"),
        }
    }
}

/// `counts.csv` text: a header `position,v0,v1,...` and one row per position;
/// for a binned matrix, a header `positions,values 0–15624,...` and one row
/// per bin of positions, labelled with its positions; for a multiset deck,
/// a header `position,AS,2S,...` naming the kinds (`kinds`, one per column).
pub fn counts_csv(cells: &Cells, kinds: Option<&[String]>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let binning = (cells.columns() == Columns::ValueBins)
        .then(|| Binning::new(cells.n(), cells.rows()))
        .flatten();
    let columns: Vec<String> = match (cells.columns(), binning, kinds) {
        (Columns::Kinds, _, Some(names)) => names.to_vec(),
        (_, Some(b), _) => (0..cells.cols())
            .map(|v| format!("values {}", b.label(v)))
            .collect(),
        _ => (0..cells.cols()).map(|v| format!("v{v}")).collect(),
    };
    let first = if binning.is_some() {
        "positions"
    } else {
        "position"
    };
    w.write_record(std::iter::once(first.to_string()).chain(columns))
        .expect("in-memory CSV");
    for (p, row) in cells.count_rows().iter().enumerate() {
        let name = binning.map_or_else(|| p.to_string(), |b| b.label(p));
        let fields = std::iter::once(name).chain(row.iter().map(u64::to_string));
        w.write_record(fields).expect("in-memory CSV");
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
}

/// `lines.csv` text: each line's own test (see [`PositionLines`]), one row
/// per line: the view (`card`, `suit`, ...), whether the line is a position
/// or a group, its index and name, the statistic, df, p as the report shows
/// it, and pass or fail at the level.
pub fn lines_csv(lines: &PositionLines) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "view",
        "line",
        "index",
        "name",
        "statistic",
        "df",
        "p",
        "alpha",
        "result",
    ])
    .expect("in-memory CSV");
    for view in &lines.views {
        for (line, tests) in [("position", &view.positions), ("group", &view.by_group)] {
            for l in &tests.lines {
                let name = match line {
                    "group" => view.groups[l.index].clone(),
                    _ => l.index.to_string(),
                };
                w.write_record([
                    view.name.clone(),
                    line.to_string(),
                    l.index.to_string(),
                    name,
                    format!("{:.3}", l.statistic),
                    l.df.to_string(),
                    super::format_p(l.log10_p),
                    tests.alpha.to_string(),
                    if l.fails_at(tests.alpha) {
                        "fail"
                    } else {
                        "pass"
                    }
                    .to_string(),
                ])
                .expect("in-memory CSV");
            }
        }
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
        let mut tally = crate::tally::Tally::new(2);
        for deal in [[0, 1], [0, 1], [0, 1], [1, 0]] {
            tally.record(&deal);
        }
        let text = counts_csv(&Cells::of(&tally), None);
        assert_eq!(text, "position,v0,v1\n0,3,1\n1,1,3\n");
        let names = ["x".to_string(), "y".to_string()];
        let mut three = crate::tally::Tally::new(3);
        three.record(&[2, 0, 1]);
        let kinds = counts_csv(&Cells::by_kind(&three, &[0, 0, 1], 2), Some(&names));
        assert_eq!(kinds, "position,x,y\n0,0,1\n1,1,0\n2,1,0\n");
    }
}

//! What the page shows of an audit of any kind, live and at the end: the
//! verdict and its figures in the command line's own words (its
//! `summary.json` record), the test table, and the picture's colours on
//! the report's scale. Every word and number comes from the library; the
//! page only lays them out.

use serde::Serialize;
use shuffle_audit::audit::Judged;
use shuffle_audit::report::format_p;

/// The verdict and everything the page writes around it.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// Trials counted so far.
    pub trials: u64,
    /// What a trial is, in the plural: `shuffles`, `samples`, `picks`.
    pub unit: String,
    /// `biased`, `no bias detected` or `inconclusive`.
    pub verdict: String,
    /// `✗`, `✓` or `?`, as the verdict table marks it.
    pub symbol: String,
    /// The verdict's p, as every output states it (`< 1e-12`, `0.420`).
    pub p: String,
    /// The tests that saw the bias, strongest first (empty unless biased).
    pub seen_by: Vec<String>,
    /// What the run could have detected, in the table's words.
    pub could_detect: String,
    /// The same in a sentence, as the report says it.
    pub sensitivity: String,
    /// The largest deviation in words.
    pub deviation: String,
    /// For an inconclusive run: why.
    pub inconclusive: Option<String>,
    /// For an inconclusive run: the trials a verdict needs.
    pub trials_for_verdict: Option<u64>,
    /// Every test, in the order run.
    pub tests: Vec<TestRow>,
    /// The picture's rows.
    pub rows: usize,
    /// The picture's columns.
    pub cols: usize,
    /// The picture's axes: column label, row label.
    pub axes: [String; 2],
    /// The colour scale's range in words (`0.8× to 1.25×`).
    pub scale: String,
    /// The title lines of the report's picture.
    pub title: Vec<String>,
}

/// One line of the test table.
#[derive(Debug, Clone, Serialize)]
pub struct TestRow {
    /// The test's name on the command line (`position-value`).
    pub name: String,
    /// Its statistic.
    pub statistic: f64,
    /// Its degrees of freedom (0 for a statistic without them).
    pub df: f64,
    /// Its own p, as stated.
    pub p: String,
    /// Its p Holm-adjusted within the audit, as stated.
    pub p_holm: String,
    /// How the p-value was obtained.
    pub method: String,
}

/// A judged audit as the page draws it: its view, and its picture and
/// colour bar as RGBA bytes.
pub struct Drawn {
    /// The verdict and its words.
    pub view: View,
    /// The picture's cells, row by row.
    pub rgba: Vec<u8>,
    /// The colour bar, from 1/X (first) to X (last).
    pub legend: Vec<u8>,
}

/// Steps of the colour bar, from 1/X up to X.
pub const LEGEND_STEPS: usize = 65;

impl Drawn {
    /// What the page shows of `audit`.
    pub fn of(audit: &dyn Judged) -> Self {
        let record = audit.record();
        let (panel, scale) = audit
            .panel()
            .expect("every kind the page audits has a picture");
        let colour = |ratio: f64| {
            let (red, green, blue) = scale.colour(ratio);
            [red, green, blue, 255]
        };
        let half = (LEGEND_STEPS / 2) as f64;
        let legend = (0..LEGEND_STEPS)
            .flat_map(|i| colour(scale.limit().powf((i as f64 - half) / half)))
            .collect();
        let view = View {
            trials: record.trials,
            unit: record.unit.to_string(),
            verdict: audit.verdict().to_string(),
            symbol: audit.verdict().symbol().to_string(),
            p: format_p(record.log10_p_adjusted),
            seen_by: record.seen_by,
            could_detect: record.could_detect,
            sensitivity: record.sensitivity,
            deviation: record.largest_deviation,
            inconclusive: record.inconclusive_reason,
            trials_for_verdict: record.trials_for_verdict,
            tests: record
                .tests
                .into_iter()
                .map(|t| t.result)
                .map(|t| TestRow {
                    name: t.test.to_string(),
                    statistic: t.statistic,
                    df: t.df,
                    p: format_p(t.log10_p),
                    p_holm: format_p(t.log10_p_holm),
                    method: t.method,
                })
                .collect(),
            rows: panel.n,
            cols: panel.columns,
            axes: panel.axes.map(str::to_string),
            scale: scale.range_words(),
            title: panel.title,
        };
        Drawn {
            view,
            rgba: panel.ratios.iter().flat_map(|&r| colour(r)).collect(),
            legend,
        }
    }
}

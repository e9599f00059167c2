//! What the page shows of an audit, live and at the end: the verdict and
//! its figures in the command line's own words, the test table, and the
//! heatmap's colours on the report's scale. Every word and number comes
//! from the library; the page only lays them out.

use serde::Serialize;
use shuffle_audit::Audit;
use shuffle_audit::findings::deviation_words;
use shuffle_audit::output::{format_p, heatmap_scale, panel};
use shuffle_audit::sampler::audit::SampleAudit;
use shuffle_audit::stats::{TestResult, Verdict};

/// The verdict and everything the page writes around it.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// Trials counted so far.
    pub trials: u64,
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
    /// For an inconclusive run: why, and the trials a verdict needs.
    pub inconclusive: Option<String>,
    /// For an inconclusive run: the trials a verdict needs.
    pub trials_for_verdict: Option<u64>,
    /// Every test, in the order run.
    pub tests: Vec<TestRow>,
    /// The heatmap's rows and columns.
    pub rows: usize,
    /// Columns of the heatmap.
    pub cols: usize,
    /// The heatmap's axes: column label, row label.
    pub axes: [String; 2],
    /// The colour scale's range in words (`0.8× to 1.25×`).
    pub scale: String,
    /// The title lines of the report's heatmap.
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

impl TestRow {
    fn of<K: std::fmt::Display>(t: &TestResult<K>) -> Self {
        TestRow {
            name: t.test.to_string(),
            statistic: t.statistic,
            df: t.df,
            p: format_p(t.log10_p),
            p_holm: format_p(t.log10_p_holm),
            method: t.method.clone(),
        }
    }
}

/// The verdict's mark in the verdict table.
fn symbol(v: Verdict) -> String {
    v.symbol().to_string()
}

impl View {
    /// The view of a judged shuffle audit.
    pub fn of_shuffle(a: &Audit) -> Self {
        let heat = panel(a);
        let s = a.sensitivity();
        let inconclusive = a.verdict() == Verdict::Inconclusive;
        View {
            trials: a.spec().trials,
            verdict: a.verdict().to_string(),
            symbol: symbol(a.verdict()),
            p: format_p(a.log10_p_adjusted()),
            seen_by: a.seen_by().iter().map(|t| t.test.to_string()).collect(),
            could_detect: s.short(),
            sensitivity: s.words(),
            deviation: deviation_words(a),
            inconclusive: inconclusive.then(|| s.inconclusive.clone()).flatten(),
            trials_for_verdict: inconclusive.then_some(s.trials_needed).flatten(),
            tests: a.tests().iter().map(TestRow::of).collect(),
            rows: heat.n,
            cols: heat.columns,
            axes: heat.axes.map(str::to_string),
            scale: heatmap_scale(a).range_words(),
            title: heat.title,
        }
    }

    /// The view of a judged sampler audit, its heatmap the report's
    /// comparison square (inclusion on the diagonal, pairs off it).
    pub fn of_sampler(a: &SampleAudit) -> Self {
        let (heat, scale) = shuffle_audit::output::samples::comparison_panel(a);
        View {
            trials: a.tally().trials(),
            verdict: a.verdict().to_string(),
            symbol: symbol(a.verdict()),
            p: format_p(a.log10_p_adjusted()),
            seen_by: a.seen_by().iter().map(|t| t.test.to_string()).collect(),
            could_detect: shuffle_audit::report::samples::detectable_words(a),
            sensitivity: shuffle_audit::report::samples::detectable_words(a),
            deviation: a.deviation_words(),
            inconclusive: a.inconclusive_note(),
            trials_for_verdict: a.trials_for_verdict(),
            tests: a.tests().iter().map(TestRow::of).collect(),
            rows: heat.n,
            cols: heat.columns,
            axes: heat.axes.map(str::to_string),
            scale: scale.range_words(),
            title: heat.title,
        }
    }

    /// The view as JSON text, for the page.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a view serialises")
    }
}

/// The heatmap's cells (`ratios`, observed/expected, row by row) as RGBA
/// bytes, each coloured by `colour`: the report's log-symmetric scale
/// (white at 1×, blue below, red above, grey where there is no ratio).
fn rgba(ratios: &[f64], colour: impl Fn(f64) -> (u8, u8, u8)) -> Vec<u8> {
    ratios
        .iter()
        .flat_map(|&r| {
            let (red, green, blue) = colour(r);
            [red, green, blue, 255]
        })
        .collect()
}

/// Steps of the colour bar, from 1/X up to X.
pub const LEGEND_STEPS: usize = 65;

/// The colour bar of a scale saturating at `limit` as RGBA bytes:
/// [`LEGEND_STEPS`] colours from 1/X (bottom) to X (top), evenly spaced in
/// log(ratio), the middle one 1× (white).
fn legend(limit: f64, colour: impl Fn(f64) -> (u8, u8, u8)) -> Vec<u8> {
    let half = (LEGEND_STEPS / 2) as f64;
    let ratios: Vec<f64> = (0..LEGEND_STEPS)
        .map(|i| limit.powf((i as f64 - half) / half))
        .collect();
    rgba(&ratios, colour)
}

/// A shuffle audit's heatmap and colour bar as RGBA bytes, on the
/// report's scale (see [`rgba`]).
pub fn shuffle_rgba(a: &Audit) -> (Vec<u8>, Vec<u8>) {
    let scale = heatmap_scale(a);
    let colour = |r| scale.colour(r);
    (
        rgba(&panel(a).ratios, colour),
        legend(scale.limit(), colour),
    )
}

/// A sampler audit's comparison square and colour bar as RGBA bytes, on
/// the report's scale.
pub fn sampler_rgba(a: &SampleAudit) -> (Vec<u8>, Vec<u8>) {
    let (heat, scale) = shuffle_audit::output::samples::comparison_panel(a);
    let colour = |r| scale.colour(r);
    (rgba(&heat.ratios, colour), legend(scale.limit(), colour))
}

//! The files of a sampler run: `summary.json` and `summary.csv` (one
//! record per audit, the same findings the terminal shows) and, per audit,
//! its counts (`inclusion.csv`, and where kept `pairs.csv` and `slots.csv`)
//! and their pictures (`inclusion.png`, `pairs.png`, `slots.png`, and
//! `board.png` for a minesweeper board).

use super::summary::SeenByColumn;
use super::{
    MIN_SCALE_LIMIT, MIN_SCALE_STANDARD_ERRORS, files, input_words, limit_words, printed_words,
    write_png,
};
use crate::error::Result;
use crate::format::thousands;
use crate::ingest::samples::SampleKind;
use crate::plot::sampling::{
    BoardPanel, InclusionPanel, PairsPanel, SlotsPanel, draw_board, draw_inclusion, draw_pairs,
    draw_slots,
};
use crate::plot::{HeatmapPanel, LogScale, PlotError, draw_comparison};
use crate::sampler::audit::SampleAudit;
use crate::sampler::subject::{SampleFeed, SamplerSubject};
use crate::sequential::Look;
use crate::stats::Verdict;
use crate::stats::pvalue;
use crate::stats::special::chi2_isf;
use crate::subsets::pair_index;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The version of a sampler run's `summary.json` layout.
pub const SAMPLE_SUMMARY_SCHEMA: u32 = 2;

/// A sampler run's `summary.json`.
#[derive(Debug, Clone, Serialize)]
pub struct SampleSummary {
    /// Layout version ([`SAMPLE_SUMMARY_SCHEMA`]).
    pub schema: u32,
    /// What wrote it.
    pub tool: String,
    /// `"samplers"`: tells this layout from a shuffle run's.
    pub kind: &'static str,
    /// The significance level of the verdicts.
    pub alpha: f64,
    /// One record per audit, in run order.
    pub audits: Vec<SampleRecord>,
}

/// One sampler audit as every output states it.
#[derive(Debug, Clone, Serialize)]
pub struct SampleRecord {
    /// The sampler with its parameters.
    pub sampler: String,
    /// Population size N.
    pub n: usize,
    /// Items per sample.
    pub k: usize,
    /// Samples drawn (or read).
    pub trials: u64,
    /// What was drawn or read, in words (the same phrase as the report).
    pub drawn: String,
    /// The random source; `null` for a sampler from outside.
    pub rng: Option<String>,
    /// The seed (an outside program's seeds are derived from it).
    pub seed: u64,
    /// Where an outside sampler's samples came from (`input FILE`, `cmd
    /// PROGRAM`); absent for built-in samplers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// The number an outside sampler's items start from (0 or 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<u64>,
    /// SHA-256 of an outside sampler's input file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_sha256: Option<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The verdict.
    pub verdict: Verdict,
    /// The p-value the verdict used, after every correction (a bound when
    /// `p_adjusted_is_bound`).
    pub p_adjusted: f64,
    /// Whether `p_adjusted` is only the bound 1e-12.
    pub p_adjusted_is_bound: bool,
    /// log10 of the adjusted p.
    pub log10_p_adjusted: f64,
    /// The test with the strongest evidence, if any ran: the first of
    /// `seen_by` when the audit is biased.
    pub decisive_test: Option<String>,
    /// The tests that saw the bias, strongest first
    /// ([`SampleAudit::seen_by`]); empty unless the verdict is biased.
    pub seen_by: Vec<String>,
    /// The smallest relative deviation of one item's inclusion the run
    /// would have seen with 90% power (infinite when it could not tell).
    pub detectable_item_deviation: f64,
    /// The level each test was held to.
    pub sensitivity_level: f64,
    /// The largest deviation, in words.
    pub largest_deviation: String,
    /// Every test that ran.
    pub tests: Vec<SampleTestRecord>,
    /// Tests that did not run, with why.
    pub not_run: Vec<NotRunRecord>,
    /// How often each item was drawn (what `run --check` compares).
    pub inclusion: Vec<u64>,
    /// The looks of a sequential (`--until-decisive`) audit, in order: the
    /// samples counted by then, log10 of the audit's p on them and log10 of
    /// the level the look could spend (α / (looks × audits)); the last is
    /// where it stopped, and `trials` is its count. Empty for a plain audit.
    pub looks: Vec<Look>,
}

/// One test's result.
#[derive(Debug, Clone, Serialize)]
pub struct SampleTestRecord {
    /// Which test.
    pub test: String,
    /// Its statistic.
    pub statistic: f64,
    /// Its degrees of freedom.
    pub df: f64,
    /// Its p-value (a bound below 1e-12).
    pub p: f64,
    /// Its p-value after Holm across the audit's tests.
    pub p_holm: f64,
    /// How the p-value was obtained.
    pub method: String,
}

/// A test that did not run.
#[derive(Debug, Clone, Serialize)]
pub struct NotRunRecord {
    /// Which test.
    pub test: String,
    /// Why not.
    pub why: String,
}

impl SampleRecord {
    /// The record of one judged audit.
    pub fn of(a: &SampleAudit) -> Self {
        Self {
            sampler: a.spec.sampler.to_string(),
            n: a.tally.n(),
            k: a.tally.k(),
            trials: a.tally.trials(),
            drawn: drawn_words(a),
            rng: a
                .spec
                .sampler
                .uses_our_source()
                .then(|| a.spec.source.to_string()),
            seed: a.spec.seed,
            input: match &a.spec.sampler {
                SamplerSubject::Builtin(_) => None,
                SamplerSubject::Outside(o) => match &o.feed {
                    SampleFeed::File(path) => Some(format!("input {}", input_words(path))),
                    SampleFeed::Command(cmd) => {
                        Some(format!("cmd {} ({} jobs)", cmd.template, cmd.jobs))
                    }
                    SampleFeed::Function => None,
                    SampleFeed::Given { from } => Some(from.clone()),
                },
            },
            base: a.feed.as_ref().map(|f| f.base.offset()),
            input_sha256: a.feed.as_ref().and_then(|f| f.sha256.clone()),
            seconds: a.seconds,
            verdict: a.verdict,
            p_adjusted: pvalue::stated(a.log10_p_adjusted),
            p_adjusted_is_bound: pvalue::is_bound(a.log10_p_adjusted),
            log10_p_adjusted: a.log10_p_adjusted,
            decisive_test: a.decisive().map(|t| t.test.to_string()),
            seen_by: a.seen_by().iter().map(|t| t.test.to_string()).collect(),
            detectable_item_deviation: a.sensitivity.item_deviation,
            sensitivity_level: a.sensitivity.level,
            largest_deviation: a.deviation_words(),
            tests: a
                .tests
                .iter()
                .map(|t| SampleTestRecord {
                    test: t.test.to_string(),
                    statistic: t.statistic,
                    df: t.df,
                    p: pvalue::stated(t.log10_p),
                    p_holm: pvalue::stated(t.log10_p_holm),
                    method: t.method.clone(),
                })
                .collect(),
            not_run: a
                .not_run
                .iter()
                .map(|(test, why)| NotRunRecord {
                    test: test.to_string(),
                    why: why.clone(),
                })
                .collect(),
            inclusion: a.tally.inclusion().to_vec(),
            looks: a.looks.clone(),
        }
    }
}

/// What a sampler audit drew or read, in one phrase, the same in every
/// output: `1,000,000 samples of k = 3 from N = 10 items, chacha8 with seed
/// 7`, or for a sampler from outside where its samples came from and how
/// its items were numbered.
pub fn drawn_words(a: &SampleAudit) -> String {
    let (trials, k, n) = (thousands(a.tally.trials()), a.tally.k(), a.tally.n());
    let outside = match &a.spec.sampler {
        SamplerSubject::Builtin(_) => {
            return format!(
                "{trials} samples of k = {k} from N = {n} items, {} with seed {}",
                a.spec.source, a.spec.seed
            );
        }
        SamplerSubject::Outside(outside) => outside,
    };
    let what = match outside.kind {
        SampleKind::Sample => format!("{trials} samples of k = {k} from N = {n} items"),
        SampleKind::Ordered => {
            format!("{trials} ordered samples of k = {k} from N = {n} items")
        }
        SampleKind::Pick => format!("{trials} picks from N = {n} items"),
    };
    let items = a
        .feed
        .as_ref()
        .map(|f| format!(" ({})", f.base.describe(n)))
        .unwrap_or_default();
    match &outside.feed {
        SampleFeed::File(path) => {
            let early = a
                .feed
                .as_ref()
                .map(|f| limit_words(f.stopped_early, f.asked, a.tally.trials()))
                .unwrap_or_default();
            format!("{what}{items} read from {}{early}", input_words(path))
        }
        SampleFeed::Command(cmd) => {
            let workers = a.feed.as_ref().map_or(0, |f| f.workers.len());
            format!(
                "{what}{items} {}",
                printed_words(workers, &cmd.template, a.spec.seed)
            )
        }
        SampleFeed::Function => format!("{what} drawn by a Rust function"),
        SampleFeed::Given { from } => format!("{what}{items} {from}"),
    }
}

impl SampleSummary {
    /// The summary of judged sampler audits at `alpha`.
    pub fn of(audits: &[SampleAudit], alpha: f64) -> Self {
        Self {
            schema: SAMPLE_SUMMARY_SCHEMA,
            tool: format!("shuffle-audit {}", env!("CARGO_PKG_VERSION")),
            kind: "samplers",
            alpha,
            audits: audits.iter().map(SampleRecord::of).collect(),
        }
    }

    /// As pretty JSON (infinite sensitivities become `null`).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("the summary serialises")
    }

    /// As CSV: one row per audit, the flat fields.
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let header = [
            "sampler",
            "n",
            "k",
            "trials",
            "rng",
            "seed",
            "verdict",
            "p_adjusted",
            "p_adjusted_is_bound",
            "decisive_test",
            "seen_by",
            "detectable_item_deviation",
            "largest_deviation",
        ];
        w.write_record(header).expect("in memory");
        for r in &self.audits {
            w.write_record([
                r.sampler.clone(),
                r.n.to_string(),
                r.k.to_string(),
                r.trials.to_string(),
                r.rng.clone().unwrap_or_default(),
                r.seed.to_string(),
                r.verdict.slug().to_string(),
                r.p_adjusted.to_string(),
                r.p_adjusted_is_bound.to_string(),
                r.decisive_test.clone().unwrap_or_default(),
                SeenByColumn::of(&r.seen_by).seen_by,
                r.detectable_item_deviation.to_string(),
                r.largest_deviation.clone(),
            ])
            .expect("in memory");
        }
        String::from_utf8(w.into_inner().expect("in memory")).expect("UTF-8")
    }
}

/// The folder of each audit: the sampler's slug with n, made unique.
pub fn sample_folders(audits: &[SampleAudit]) -> Vec<String> {
    let mut seen = std::collections::HashMap::new();
    audits
        .iter()
        .map(|a| {
            let base = format!("{}_n{}", a.spec.sampler.slug(), a.tally.n());
            let count = seen.entry(base.clone()).or_insert(0);
            *count += 1;
            if *count == 1 {
                base
            } else {
                format!("{base}-{count}")
            }
        })
        .collect()
}

/// Writes a sampler run's files into `dir` (staged) and returns their paths.
pub fn write_samples(dir: &Path, audits: &[SampleAudit], alpha: f64) -> Result<Vec<PathBuf>> {
    let summary = SampleSummary::of(audits, alpha);
    let mut written = Vec::new();
    let mut pictured = Vec::new();
    let mut put = |path: PathBuf, text: String| -> Result<()> {
        files::write_atomic(&path, text.as_bytes())?;
        written.push(path);
        Ok(())
    };
    put(dir.join("summary.json"), summary.to_json())?;
    put(dir.join("summary.csv"), summary.to_csv())?;
    for (a, folder) in audits.iter().zip(sample_folders(audits)) {
        let sub = dir.join(folder);
        put(sub.join("inclusion.csv"), inclusion_csv(a))?;
        if let Some(pairs) = a.tally.pairs() {
            put(
                sub.join("pairs.csv"),
                pairs_csv(a.tally.n(), pairs, a.first_item()),
            )?;
        }
        if let Some(slots) = a.tally.slots() {
            put(sub.join("slots.csv"), slots_csv(a.tally.n(), slots))?;
        }
        for (name, draw) in pictures(a) {
            let path = sub.join(name);
            write_png(&path, draw)?;
            pictured.push(path);
        }
    }
    // One grid of every audit on one scale, as for shuffles.
    let (panels, scales): (Vec<HeatmapPanel>, Vec<LogScale>) =
        audits.iter().map(comparison_panel).unzip();
    if let Some(shared) = LogScale::widest(scales) {
        let path = dir.join(COMPARISON_FILE);
        write_png(&path, || draw_comparison(&panels, &shared))?;
        pictured.push(path);
    }
    written.extend(pictured);
    Ok(written)
}

/// The run's comparison grid of every sampler audit.
pub const COMPARISON_FILE: &str = "comparison.png";

/// An audit's panel in the comparison grid, with its own scale: the N × N
/// item matrix, each item's inclusion (observed/expected) on the diagonal
/// and each pair drawn together off it (grey where pairs are not kept, or
/// for a pick of one item), so a biased item shows as a dot on the diagonal
/// and a biased pairing (`systematic`) as stripes.
pub fn comparison_panel(a: &SampleAudit) -> (HeatmapPanel, LogScale) {
    let (n, k, trials) = (a.tally.n(), a.tally.k(), a.tally.trials() as f64);
    let p = probabilities(a);
    let mut ratios = vec![f64::NAN; n * n];
    for (i, (&c, &p)) in a.tally.inclusion().iter().zip(&p).enumerate() {
        ratios[i * n + i] = ratio(c as f64, trials * p);
    }
    let mut expected_min = p.iter().copied().filter(|&p| p > 0.0).fold(1.0, f64::min) * trials;
    if let Some(pairs) = a.tally.pairs() {
        let q = (k * (k - 1)) as f64 / (n * (n - 1)) as f64;
        expected_min = expected_min.min(trials * q);
        for i in 0..n {
            for j in i + 1..n {
                let r = ratio(pairs[pair_index(n, i, j)] as f64, trials * q);
                ratios[i * n + j] = r;
                ratios[j * n + i] = r;
            }
        }
    }
    let scale = scale_for(&ratios, expected_min);
    let panel = HeatmapPanel {
        n,
        columns: n,
        ratios,
        title: vec![
            format!(
                "{}  N={n}  T={}",
                a.spec.sampler,
                thousands(a.tally.trials())
            ),
            if a.tally.pairs().is_some() {
                "diagonal: items; off it: pairs together"
            } else {
                "diagonal: items (pairs not kept)"
            }
            .to_string(),
        ],
        verdict: Some(a.verdict),
        axes: ["item", "item"],
    };
    (panel, scale)
}

/// A picture's file name and how to draw it.
type Picture<'a> = (
    &'static str,
    Box<dyn FnOnce() -> Result<Vec<u8>, PlotError> + 'a>,
);

/// The pictures of an audit: the inclusion chart always; the board, pairs
/// and slots heatmaps where the audit has them. Each heatmap's scale shows
/// its largest deviation without magnifying noise (at least 8 standard
/// errors of its sparsest cell, at least ±25%, at most 2×).
pub fn pictures(a: &SampleAudit) -> Vec<Picture<'_>> {
    let (n, k, trials) = (a.tally.n(), a.tally.k(), a.tally.trials() as f64);
    let title = |what: &str| {
        let mut lines = vec![format!(
            "{}  N={n}  T={}",
            a.spec.sampler,
            thousands(a.tally.trials())
        )];
        lines.push(what.to_string());
        lines
    };
    let p = probabilities(a);
    let level = a.sensitivity.level;
    let z = chi2_isf(level / n as f64, 1.0).sqrt();
    let inclusion: Vec<f64> = a
        .tally
        .inclusion()
        .iter()
        .zip(&p)
        .map(|(&c, &p)| ratio(c as f64, trials * p))
        .collect();
    let band: Vec<(f64, f64)> = p
        .iter()
        .map(|&p| {
            if p <= 0.0 || p >= 1.0 {
                (1.0, 1.0)
            } else {
                let sd = ((1.0 - p) / (trials * p)).sqrt();
                ((1.0 - z * sd).max(0.0), 1.0 + z * sd)
            }
        })
        .collect();
    let mut out: Vec<Picture<'_>> = Vec::new();
    let chart = InclusionPanel {
        title: title(&format!(
            "observed / expected inclusion; band: where a fair sampler stays (|z| ≤ {z:.1})"
        )),
        ratios: inclusion.clone(),
        band,
        verdict: Some(a.verdict),
        x_label: if a.spec.weights.is_some() {
            "index"
        } else {
            "item"
        }
        .to_string(),
        first: a.first_item(),
    };
    out.push(("inclusion.png", Box::new(move || draw_inclusion(&chart))));
    let expected_min = p.iter().copied().filter(|&p| p > 0.0).fold(1.0, f64::min) * trials;
    if let Some(board) = a.spec.sampler.board() {
        let panel = BoardPanel {
            w: board.w as usize,
            h: board.h as usize,
            ratios: inclusion.clone(),
            title: title("observed / expected mines per cell"),
            verdict: Some(a.verdict),
        };
        let scale = scale_for(&panel.ratios, expected_min);
        out.push(("board.png", Box::new(move || draw_board(&panel, &scale))));
    }
    if let Some(pairs) = a.tally.pairs().filter(|_| n <= MAX_PICTURED_PAIRS_N) {
        let q = (k * (k - 1)) as f64 / (n * (n - 1)) as f64;
        let ratios: Vec<f64> = pairs.iter().map(|&c| ratio(c as f64, trials * q)).collect();
        let scale = scale_for(&ratios, trials * q);
        let panel = PairsPanel {
            n,
            ratios,
            first: a.first_item(),
            title: title("observed / expected pairs drawn together"),
            verdict: Some(a.verdict),
        };
        out.push(("pairs.png", Box::new(move || draw_pairs(&panel, &scale))));
    }
    if let Some(slots) = a.tally.slots() {
        let expected = trials / n as f64;
        let ratios: Vec<f64> = slots.iter().map(|&c| ratio(c as f64, expected)).collect();
        let scale = scale_for(&ratios, expected);
        let panel = SlotsPanel {
            k,
            n,
            ratios,
            title: title("observed / expected item at each slot of the sample"),
            verdict: Some(a.verdict),
        };
        out.push(("slots.png", Box::new(move || draw_slots(&panel, &scale))));
    }
    out
}

/// Most items for which the pair heatmap is drawn (n² pixels' worth).
const MAX_PICTURED_PAIRS_N: usize = 400;

/// Each item's probability of being in the sample: k/N, or w_i/Σw.
fn probabilities(a: &SampleAudit) -> Vec<f64> {
    let n = a.tally.n();
    match &a.spec.weights {
        Some(w) => {
            let total = w.iter().sum::<u64>().max(1) as f64;
            w.iter().map(|&x| x as f64 / total).collect()
        }
        None => vec![a.tally.k() as f64 / n as f64; n],
    }
}

/// O/E, NaN when nothing was expected or seen; a count where none is
/// possible is far beyond any scale.
fn ratio(observed: f64, expected: f64) -> f64 {
    match (observed > 0.0, expected > 0.0) {
        (_, true) => observed / expected,
        (false, false) => f64::NAN,
        (true, false) => f64::MAX,
    }
}

/// The colour scale of a heatmap whose sparsest cell expects `expected`.
fn scale_for(ratios: &[f64], expected: f64) -> LogScale {
    let standard_error = 1.0 / expected.max(1.0).sqrt();
    let floor = (MIN_SCALE_STANDARD_ERRORS * standard_error)
        .exp()
        .max(MIN_SCALE_LIMIT);
    LogScale::fit(ratios, floor)
}

/// `item,count`: how often each item was in the sample (picked, for a
/// weighted pick).
pub fn inclusion_csv(a: &SampleAudit) -> String {
    let first = a.first_item();
    let mut out = String::from("item,count\n");
    for (i, c) in a.tally.inclusion().iter().enumerate() {
        out.push_str(&format!("{},{c}\n", i + first));
    }
    out
}

/// `i,j,count` for every pair i < j, items numbered from `first`.
fn pairs_csv(n: usize, pairs: &[u64], first: usize) -> String {
    let mut out = String::from("i,j,count\n");
    for i in 0..n {
        for j in i + 1..n {
            let count = pairs[pair_index(n, i, j)];
            out.push_str(&format!("{},{},{count}\n", i + first, j + first));
        }
    }
    out
}

/// One row per slot of the sample, one column per item.
fn slots_csv(n: usize, slots: &[u64]) -> String {
    let header: Vec<String> = (0..n).map(|v| format!("item{v}")).collect();
    let mut out = format!("slot,{}\n", header.join(","));
    for (s, row) in slots.chunks(n).enumerate() {
        let cells: Vec<String> = row.iter().map(u64::to_string).collect();
        out.push_str(&format!("{s},{}\n", cells.join(",")));
    }
    out
}

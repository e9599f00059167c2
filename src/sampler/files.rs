//! The files of a sampler audit's folder: its counts (`inclusion.csv`, and
//! where kept `pairs.csv` and `slots.csv`) and their pictures
//! (`inclusion.png`, `pairs.png`, `slots.png`, and `board.png` for a
//! minesweeper board), and its square in the report's grid.

use super::kind::first_item;
use super::subject::Samplers;
use crate::audit::Audit;
use crate::audit::{Feed, Subject};
use crate::error::{Error, Result};
use crate::format::thousands;
use crate::ingest::samples::SampleKind;
use crate::output::{
    MIN_SCALE_LIMIT, MIN_SCALE_STANDARD_ERRORS, input_words, limit_words, printed_words,
};
use crate::plot::sampling::{
    BoardPanel, InclusionPanel, PairsPanel, SlotsPanel, draw_board, draw_inclusion, draw_pairs,
    draw_slots,
};
use crate::plot::{HeatmapPanel, LogScale, PlotError};
use crate::stats::special::chi2_isf;
use crate::subsets::pair_index;

/// What a sampler audit drew or read, in one phrase, the same in every
/// output: `1,000,000 samples of k = 3 from N = 10 items, chacha8 with seed
/// 7`, or for a sampler from outside where its samples came from and how
/// its items were numbered.
pub fn drawn_words(a: &Audit<Samplers>) -> String {
    let (trials, k, n) = (thousands(a.tally.trials()), a.tally.k(), a.tally.n());
    let outside = match &a.spec.subject {
        Subject::Builtin(_) => {
            return format!(
                "{trials} samples of k = {k} from N = {n} items, {} with seed {}",
                a.spec.source, a.spec.seed
            );
        }
        Subject::Outside(outside) => outside,
    };
    let what = match outside.reading.kind {
        SampleKind::Sample => format!("{trials} samples of k = {k} from N = {n} items"),
        SampleKind::Ordered => {
            format!("{trials} ordered samples of k = {k} from N = {n} items")
        }
        SampleKind::Pick => format!("{trials} picks from N = {n} items"),
    };
    let items = a
        .feed
        .as_ref()
        .map(|f| format!(" ({})", f.read.describe(n)))
        .unwrap_or_default();
    match &outside.feed {
        Feed::File { path, .. } => {
            let early = a
                .feed
                .as_ref()
                .map(|f| limit_words(f.stopped_early, f.asked, a.tally.trials()))
                .unwrap_or_default();
            format!("{what}{items} read from {}{early}", input_words(path))
        }
        Feed::Command(cmd) => {
            let workers = a.feed.as_ref().map_or(0, |f| f.workers.len());
            format!(
                "{what}{items} {}",
                printed_words(workers, &cmd.template, a.spec.seed)
            )
        }
        Feed::Function => format!("{what} drawn by a Rust function"),
        Feed::Given { from } => format!("{what}{items} {from}"),
        Feed::Drawn { from } => format!("{what} {from}"),
    }
}

/// The files of `audit`'s folder, by name: `inclusion.csv`, `pairs.csv`
/// and `slots.csv` where kept, and its pictures.
pub(crate) fn files(a: &Audit<Samplers>) -> Result<Vec<(String, Vec<u8>)>> {
    let first = first_item(a);
    let mut files = vec![("inclusion.csv".to_string(), inclusion_csv(a).into_bytes())];
    if let Some(pairs) = a.tally.pairs() {
        files.push((
            "pairs.csv".to_string(),
            pairs_csv(a.tally.n(), pairs, first).into_bytes(),
        ));
    }
    if let Some(slots) = a.tally.slots() {
        files.push((
            "slots.csv".to_string(),
            slots_csv(a.tally.n(), slots).into_bytes(),
        ));
    }
    for (name, draw) in pictures(a) {
        let bytes = draw().map_err(|e| Error::Output {
            path: name.into(),
            message: e.0,
        })?;
        files.push((name.to_string(), bytes));
    }
    Ok(files)
}

/// An audit's panel in the comparison grid, with its own scale: the N × N
/// item matrix, each item's inclusion (observed/expected) on the diagonal
/// and each pair drawn together off it (grey where pairs are not kept, or
/// for a pick of one item), so a biased item shows as a dot on the diagonal
/// and a biased pairing (`systematic`) as stripes.
pub fn comparison_panel(a: &Audit<Samplers>) -> (HeatmapPanel, LogScale) {
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
                a.spec.subject,
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
        column_names: Vec::new(),
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
pub fn pictures(a: &Audit<Samplers>) -> Vec<Picture<'_>> {
    let (n, k, trials) = (a.tally.n(), a.tally.k(), a.tally.trials() as f64);
    let title = |what: &str| {
        let mut lines = vec![format!(
            "{}  N={n}  T={}",
            a.spec.subject,
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
        x_label: if a.spec.options.weights.is_some() {
            "index"
        } else {
            "item"
        }
        .to_string(),
        first: first_item(a),
    };
    out.push(("inclusion.png", Box::new(move || draw_inclusion(&chart))));
    let expected_min = p.iter().copied().filter(|&p| p > 0.0).fold(1.0, f64::min) * trials;
    if let Some(board) = a.spec.subject.board() {
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
            first: first_item(a),
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
fn probabilities(a: &Audit<Samplers>) -> Vec<f64> {
    let n = a.tally.n();
    match &a.spec.options.weights {
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
pub fn inclusion_csv(a: &Audit<Samplers>) -> String {
    let first = first_item(a);
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

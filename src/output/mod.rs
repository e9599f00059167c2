//! Writers: everything an audit run leaves on disk (CSV, JSON, PNG).

pub mod exact;
pub mod files;
pub mod mixing;
pub mod samples;
pub mod summary;

use crate::audit::Audit;
use crate::error::{Error, Result};
use crate::findings::Findings;
pub use crate::format::thousands;
use crate::plot::{self, DECK_AXES, HeatmapPanel, LogScale, PlotError};
use crate::stats::pvalue::{LOG10_P_FLOOR, is_bound};
use crate::subject::{Feed, Subject};
use crate::tally::Columns;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use summary::{Summary, counts_csv, lines_csv, permutations_csv};

/// An audit's heatmap never saturates before this many standard errors of
/// O/E (in log terms): a fair shuffle's most extreme cell among n² sits near
/// 3.5 to 4 standard errors, so its noise stays at half strength or paler.
pub(crate) const MIN_SCALE_STANDARD_ERRORS: f64 = 8.0;

/// An audit's heatmap never saturates before 1.25× (and 0.8×): at a million
/// trials a fair shuffle's noise (O/E 0.97 to 1.03) then shows as a pale
/// tint, not a pattern as strong as a real bias's.
pub const MIN_SCALE_LIMIT: f64 = 1.25;

/// What an audit ran or read, in one phrase, the same in every output:
/// `1,000,000 shuffles of n = 10 items, chacha8 with seed 7`, or for a
/// shuffle from outside where its decks came from.
pub fn run_words(audit: &Audit) -> String {
    let spec = &audit.spec;
    let (n, trials) = (spec.n, thousands(spec.trials));
    let outside = match &spec.subject {
        Subject::Outside(outside) => outside,
        Subject::Builtin(_) => {
            return format!(
                "{trials} shuffles of n = {n} items, {} with seed {}",
                spec.source, spec.seed
            );
        }
    };
    let items = audit
        .feed
        .as_ref()
        .map(|f| format!(" ({})", f.items.describe(n)))
        .unwrap_or_default();
    let early = audit
        .feed
        .as_ref()
        .map(|f| limit_words(f.stopped_early, f.asked, f.decks))
        .unwrap_or_default();
    match &outside.feed {
        Feed::File { path, .. } => format!(
            "{trials} decks of n = {n} items{items} read from {}{early}",
            input_words(path)
        ),
        Feed::Command { template, .. } => {
            let workers = audit.feed.as_ref().map_or(0, |f| f.workers.len());
            format!(
                "{trials} decks of n = {n} items{items} {}",
                printed_words(workers, template, spec.seed)
            )
        }
        Feed::Function => format!(
            "{trials} shuffles of n = {n} items by a Rust function, {} with seed {}",
            spec.source, spec.seed
        ),
        Feed::Given { from } => format!("{trials} decks of n = {n} items{items} {from}{early}"),
    }
}

/// What a read limit did, as a phrase to append: `, the first of a longer
/// input` when it stopped the read, `, all the input held (1,000 were asked
/// for)` when the input held fewer than asked, otherwise nothing.
pub fn limit_words(stopped_early: bool, asked: Option<u64>, got: u64) -> String {
    match asked {
        _ if stopped_early => ", the first of a longer input".to_string(),
        Some(asked) if asked > got => {
            format!(", all the input held ({} were asked for)", thousands(asked))
        }
        _ => String::new(),
    }
}

/// An input file's name in outputs (`stdin` for `-`).
pub fn input_words(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "stdin".to_string()
    } else {
        path.display().to_string()
    }
}

/// `printed by 2 copies of `node deal.js`, seeds derived from 7`.
pub fn printed_words(workers: usize, template: &str, seed: u64) -> String {
    format!(
        "printed by {workers} cop{} of `{template}`, seeds derived from {seed}",
        if workers == 1 { "y" } else { "ies" }
    )
}

/// The folder name of each audit's files: the algorithm's slug, made unique
/// with n and the source where a run audits the same algorithm twice.
pub fn audit_folders(audits: &[Audit]) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for a in audits {
        *seen.entry(a.spec.subject.slug()).or_default() += 1;
    }
    audits
        .iter()
        .map(|a| {
            let slug = a.spec.subject.slug();
            if seen[&slug] > 1 {
                format!("{slug}_n{}_{}", a.spec.n, a.spec.source_name())
            } else {
                slug
            }
        })
        .collect()
}

/// The colour scale of an audit's heatmap, symmetric in log(O/E): it
/// saturates at `1/X` and `X` with
/// `ln X = min(ln 2, max(ln 1.25, 8·se, max |ln O/E|))`, where se is the
/// relative standard error of a cell, √((n−1)/T) for distinct items
/// ([`crate::tally::Cells::relative_se`]), so that it shows the audit's
/// largest deviation without magnifying its noise (the 8 standard errors
/// keep a fair shuffle's most extreme cell, near 3.5 to 4 of them, at half
/// strength or paler; see also [`MIN_SCALE_LIMIT`] and
/// [`plot::scale::MAX_LIMIT`]).
pub fn heatmap_scale(audit: &Audit) -> LogScale {
    let cells = audit.cells();
    let floor = (MIN_SCALE_STANDARD_ERRORS * cells.relative_se())
        .exp()
        .max(MIN_SCALE_LIMIT);
    LogScale::fit(&cells.ratios(), floor)
}

/// An audit's heatmap scale in words, for captions: `0.8× to 1.25×`.
pub fn scale_words(audit: &Audit) -> String {
    heatmap_scale(audit).range_words()
}

/// The axes of a binned heatmap (bin indices on both).
pub const BINNED_AXES: [&str; 2] = ["value bin", "position bin"];

/// The axes of a multiset deck's heatmap: kinds across, positions down.
pub const KIND_AXES: [&str; 2] = ["kind", "position"];

/// The heatmap panel of an audit: O/E per cell of the matrix its tests
/// read ([`Audit::cells`]), titled with what was run and what the tests
/// found, with the audit's verdict for its badge.
pub fn panel(audit: &Audit) -> HeatmapPanel {
    let n = audit.spec.n;
    let t = &audit.position_value;
    let cells = audit.cells();
    let mut panel = HeatmapPanel {
        n: cells.rows(),
        columns: cells.cols(),
        ratios: cells.ratios(),
        title: vec![
            format!(
                "{}  n={}  T={}  {}",
                audit.spec.subject,
                n,
                thousands(audit.spec.trials),
                audit.spec.source_label()
            ),
            format!(
                "{} by {}",
                p_phrase(audit.log10_p_adjusted),
                audit.decisive().test
            ),
            format!(
                "this map: Q = {:.1}, df {}, {}",
                t.statistic,
                t.df,
                p_phrase(t.log10_p()),
            ),
        ],
        verdict: Some(audit.verdict),
        axes: DECK_AXES,
    };
    match cells.columns() {
        Columns::ValueBins => {
            panel.title.push(binning_words(audit.tally.binning()));
            panel.axes = BINNED_AXES;
        }
        Columns::Kinds => {
            panel.title.push(format!(
                "position by kind: {} kinds of {} items each counted together",
                cells.cols(),
                kind_sizes_words(&cells)
            ));
            panel.axes = KIND_AXES;
        }
        Columns::Values => {}
    }
    panel
}

/// The kinds' sizes in words: `6` when equal, `1–4` otherwise.
fn kind_sizes_words(cells: &crate::tally::Cells) -> String {
    let sizes = (0..cells.cols()).map(|c| cells.column_size(c));
    let (lo, hi) = (sizes.clone().min().unwrap_or(0), sizes.max().unwrap_or(0));
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}–{hi}")
    }
}

/// A binned matrix in words, for titles and notes: "binned: 64×64 bins of
/// 15,625 (bin 0 = 0–15624)".
pub fn binning_words(binning: crate::tally::Binning) -> String {
    let (lo, hi) = (binning.n() / binning.bins(), binning.largest());
    let size = if lo == hi {
        thousands(lo as u64)
    } else {
        format!("{}–{}", thousands(lo as u64), thousands(hi as u64))
    };
    format!(
        "binned: {b}×{b} bins of {size} positions and values (bin 0 = {})",
        binning.label(0),
        b = binning.bins()
    )
}

/// The kinds' names of an audit of a deck whose items repeat (the columns
/// of its cell matrix), `None` otherwise.
fn kind_names(audit: &Audit) -> Option<&[String]> {
    let deck = audit.spec.deck.as_ref().filter(|d| d.repeats())?;
    Some(deck.kind_names())
}

/// Each audit folder's per-position and per-card tests ([`lines_csv`]).
pub const LINES_FILE: &str = "lines.csv";

/// Writes the run's files into `dir` and returns the paths written:
/// `summary` (the run's [`Summary`]) as summary.json and .csv, and every
/// audit's counts and pictures.
///
/// Every file is written atomically; the folder should have been checked with
/// [`files::prepare_dir`] before the run started.
pub fn write_run(
    dir: &Path,
    audits: &[Audit],
    findings: &Findings,
    summary: &Summary,
) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    let put = |path: PathBuf, bytes: &[u8]| -> Result<PathBuf> {
        files::write_atomic(&path, bytes)?;
        Ok(path)
    };
    written.push(put(dir.join("summary.json"), summary.to_json().as_bytes())?);
    written.push(put(dir.join("summary.csv"), summary.to_csv().as_bytes())?);
    let mut panels = Vec::new();
    let mut scales = Vec::new();
    for ((audit, folder), found) in audits
        .iter()
        .zip(audit_folders(audits))
        .zip(&findings.audits)
    {
        let sub = dir.join(&folder);
        written.push(put(
            sub.join("counts.csv"),
            counts_csv(&audit.cells(), kind_names(audit)).as_bytes(),
        )?);
        if let Some(lines) = &found.lines {
            written.push(put(sub.join(LINES_FILE), lines_csv(lines).as_bytes())?);
        }
        if let Some(perms) = audit.tally.permutations() {
            let text = permutations_csv(audit.spec.n, perms);
            written.push(put(sub.join("permutations.csv"), text.as_bytes())?);
        }
        let panel = panel(audit);
        let scale = heatmap_scale(audit);
        let png = sub.join("heatmap.png");
        write_png(&png, || plot::draw_heatmap(&panel, &scale))?;
        written.push(png);
        scales.push(scale);
        panels.push(panel);
    }
    // One scale for all panels: the widest of theirs.
    if let Some(shared) = LogScale::widest(scales) {
        let png = dir.join("comparison.png");
        write_png(&png, || plot::draw_comparison(&panels, &shared))?;
        written.push(png);
    }
    Ok(written)
}

/// The heatmap an audit's report shows, as PNG bytes: for a notebook or a
/// page that shows the picture without writing files.
pub fn heatmap_png(audit: &Audit) -> Result<Vec<u8>> {
    plot::draw_heatmap(&panel(audit), &heatmap_scale(audit))
        .map_err(|e| Error::bad_input(format!("the heatmap could not be drawn: {}", e.0)))
}

/// Draws a PNG with `draw` and writes it atomically to `path`; a drawing
/// error becomes an [`Error::Output`] naming the file.
pub(crate) fn write_png(
    path: &Path,
    draw: impl FnOnce() -> Result<Vec<u8>, PlotError>,
) -> Result<()> {
    let bytes = draw().map_err(|e| Error::Output {
        path: path.to_path_buf(),
        message: e.0,
    })?;
    files::write_atomic(path, &bytes)
}

/// A p-value from its log10 as every output shows it: `0.420`, `3.1e-7`, or
/// the bound `< 1e-12` below [`LOG10_P_FLOOR`], where the approximations
/// behind p-values say nothing (see [`crate::stats::pvalue`]).
pub fn format_p(log10_p: f64) -> String {
    if is_bound(log10_p) {
        format!("< 1e{LOG10_P_FLOOR}")
    } else if log10_p >= -3.0 {
        format!("{:.3}", 10f64.powf(log10_p))
    } else {
        format!("{:.1e}", 10f64.powf(log10_p))
    }
}

/// A p-value in a sentence: `p = 0.042`, or `p < 1e-12` beyond the floor.
pub fn p_phrase(log10_p: f64) -> String {
    if is_bound(log10_p) {
        format!("p {}", format_p(log10_p))
    } else {
        format!("p = {}", format_p(log10_p))
    }
}

/// `yes` or `no`, for answers in tables and reports.
pub fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_values_read_well_at_every_size() {
        assert_eq!(format_p(0.42f64.log10()), "0.420");
        assert_eq!(format_p(3.1e-7f64.log10()), "3.1e-7");
        assert_eq!(format_p(-4522.7), "< 1e-12", "beyond the floor: a bound");
        assert_eq!(format_p(-11.5), "3.2e-12");
        assert_eq!(p_phrase(-20.0), "p < 1e-12");
        assert_eq!(p_phrase(-2.0), "p = 0.010");
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }
}

//! Writers: everything an audit run leaves on disk (CSV, JSON, PNG).

pub mod compress;
pub mod exact;
pub mod files;
pub mod heatmap;
pub mod mixing;
pub mod summary;
pub mod text;

use crate::audit::Audit;
use crate::error::{Error, Result};
use crate::findings::Findings;
pub use crate::format::thousands;
use crate::stats::pvalue::{LOG10_P_FLOOR, is_bound};
use crate::subject::{Feed, Subject};
use heatmap::HeatmapPanel;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use summary::{Summary, counts_csv, permutations_csv};

/// The colour scale never spans less than this many standard errors of O/E,
/// so that the noise of a fair shuffle shows as pale, not as a pattern.
const MIN_SCALE_STANDARD_ERRORS: f64 = 4.0;

/// The colour scale never spans more than O/E in [0, 2]: beyond that colours
/// saturate, so one extreme algorithm cannot wash out the subtle ones.
const MAX_SCALE_HALF_WIDTH: f64 = 1.0;

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
    let early = match &audit.feed {
        Some(f) if f.stopped_early => ", the first of a longer input".to_string(),
        Some(f) if f.asked.is_some_and(|a| a > f.decks) => format!(
            ", all the input held ({} were asked for)",
            thousands(f.asked.unwrap_or_default())
        ),
        _ => String::new(),
    };
    match &outside.feed {
        Feed::File { path, .. } => format!(
            "{trials} decks of n = {n} items{items} read from {}{early}",
            if path.as_os_str() == "-" {
                "stdin".to_string()
            } else {
                path.display().to_string()
            }
        ),
        Feed::Command { template, .. } => {
            let workers = audit.feed.as_ref().map_or(0, |f| f.workers.len());
            format!(
                "{trials} decks of n = {n} items{items} printed by {workers} cop{} of `{template}`, \
                 seeds derived from {}",
                if workers == 1 { "y" } else { "ies" },
                spec.seed
            )
        }
        Feed::Function => format!(
            "{trials} shuffles of n = {n} items by a Rust function, {} with seed {}",
            spec.source, spec.seed
        ),
    }
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

/// The O/E half-width that shows this audit's deviations without magnifying
/// its noise.
pub fn scale_half_width(audit: &Audit) -> f64 {
    let n = audit.spec.n as f64;
    let standard_error = ((n - 1.0) / audit.spec.trials as f64).sqrt();
    audit
        .position_value
        .max_rel_dev
        .max(MIN_SCALE_STANDARD_ERRORS * standard_error)
        .min(MAX_SCALE_HALF_WIDTH)
}

/// The heatmap panel of an audit: O/E per cell, titled with what was run and
/// what the test found.
pub fn panel(audit: &Audit) -> HeatmapPanel {
    let n = audit.spec.n;
    let expected = audit.spec.trials as f64 / n as f64;
    let t = &audit.position_value;
    HeatmapPanel {
        n,
        ratios: audit
            .tally
            .counts()
            .iter()
            .map(|&c| c as f64 / expected)
            .collect(),
        title: vec![
            format!(
                "{}  n={}  T={}  {}",
                audit.spec.subject,
                n,
                thousands(audit.spec.trials),
                audit.spec.source_label()
            ),
            format!(
                "{} {} ({} by {}); this map: Q = {:.1}, df {}, {}",
                audit.verdict.symbol(),
                audit.verdict,
                p_phrase(audit.log10_p_adjusted),
                audit.decisive().test,
                t.statistic,
                t.df,
                p_phrase(t.log10_p),
            ),
        ],
    }
}

/// Writes the run's files into `dir` and returns the paths written.
///
/// Every file is written atomically; the folder should have been checked with
/// [`files::prepare_dir`] before the run started.
pub fn write_run(dir: &Path, audits: &[Audit], findings: &Findings) -> Result<Vec<PathBuf>> {
    let summary = Summary::of(audits, findings);
    let mut written = Vec::new();
    let put = |path: PathBuf, bytes: &[u8]| -> Result<PathBuf> {
        files::write_atomic(&path, bytes)?;
        Ok(path)
    };
    written.push(put(dir.join("summary.json"), summary.to_json().as_bytes())?);
    written.push(put(dir.join("summary.csv"), summary.to_csv().as_bytes())?);
    let mut panels = Vec::new();
    let mut shared_half_width: f64 = 0.0;
    for (audit, folder) in audits.iter().zip(audit_folders(audits)) {
        let sub = dir.join(&folder);
        written.push(put(
            sub.join("counts.csv"),
            counts_csv(&audit.tally.rows()).as_bytes(),
        )?);
        if let Some(perms) = audit.tally.permutations() {
            let text = permutations_csv(audit.spec.n, perms);
            written.push(put(sub.join("permutations.csv"), text.as_bytes())?);
        }
        let panel = panel(audit);
        let half_width = scale_half_width(audit);
        let png = sub.join("heatmap.png");
        draw(&png, |tmp| heatmap::draw_heatmap(tmp, &panel, half_width))?;
        written.push(png);
        shared_half_width = shared_half_width.max(half_width);
        panels.push(panel);
    }
    if !panels.is_empty() {
        let png = dir.join("comparison.png");
        draw(&png, |tmp| {
            heatmap::draw_comparison(tmp, &panels, shared_half_width)
        })?;
        written.push(png);
    }
    Ok(written)
}

fn draw(path: &Path, render: impl FnOnce(&Path) -> Result<(), heatmap::PlotError>) -> Result<()> {
    files::with_temp(path, |tmp| {
        render(tmp).map_err(|e| Error::Output {
            path: path.to_path_buf(),
            message: e.0,
        })?;
        compress::recompress(tmp)
    })
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

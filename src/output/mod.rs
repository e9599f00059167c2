//! Writers: how files are written (staged folders, atomic files, PNG) and
//! how numbers read in every output. What each kind writes is the kind's
//! ([`crate::audit::Kind::files`]); the study writes the rest.

#[cfg(feature = "cli")]
pub mod exact;
pub mod files;
pub mod mixing;

use crate::error::{Error, Result};
pub use crate::format::thousands;
use crate::plot::PlotError;
use crate::stats::pvalue::{LOG10_P_FLOOR, is_bound};
use std::path::Path;

/// An audit's heatmap never saturates before this many standard errors of
/// O/E (in log terms): a fair shuffle's most extreme cell among n² sits near
/// 3.5 to 4 standard errors, so its noise stays at half strength or paler.
pub(crate) const MIN_SCALE_STANDARD_ERRORS: f64 = 8.0;

/// An audit's heatmap never saturates before 1.25× (and 0.8×): at a million
/// trials a fair shuffle's noise (O/E 0.97 to 1.03) then shows as a pale
/// tint, not a pattern as strong as a real bias's.
pub const MIN_SCALE_LIMIT: f64 = 1.25;

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

//! The files of a mixing curve: `mixing.csv` (one row per point) and
//! `mixing.png` (drawn by [`crate::plot::mixing`]), and how a point's
//! distance reads in every output.

use super::{files, write_png};
use crate::error::Result;
use crate::format::thousands;
use crate::mixing::buffer::{Loader, LoaderCurve, LoaderPoint};
use crate::mixing::{MixingCurve, MixingPoint};
use crate::plot;
pub use crate::plot::mixing::bound_up;
use std::path::{Path, PathBuf};

/// Writes `mixing.csv` and `mixing.png` into `dir` and returns their paths.
///
/// Both are written atomically; `dir` should have been checked with
/// [`files::prepare_dir`] before the run started.
pub fn write_mixing(dir: &Path, curve: &MixingCurve) -> Result<Vec<PathBuf>> {
    let csv = dir.join("mixing.csv");
    files::write_atomic(&csv, mixing_csv(curve).as_bytes())?;
    let png = dir.join("mixing.png");
    write_png(&png, || plot::mixing::draw_mixing(curve))?;
    Ok(vec![csv, png])
}

/// `mixing.csv` text: a header `k,tv,method,statistic,stderr,bias_floor,
/// bias_bound,tv_low,tv_high,at_bias_floor,rounding_bound,rounding_level` and
/// one row
/// per point (see [`MixingPoint`]); the Monte Carlo columns are empty for
/// exact points and the rounding columns for Monte Carlo points.
pub fn mixing_csv(curve: &MixingCurve) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for point in &curve.points {
        w.serialize(point).expect("mixing point serialises");
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
}

/// A point's distance as every output shows it: exact values at rounding level as "< bound
/// (rounding)", tiny exact values in scientific notation, Monte Carlo
/// estimates at their bias floor marked "(≤ floor)" or "(≈ floor)".
pub fn tv_text(p: &MixingPoint) -> String {
    if p.is_rounding_level() {
        return format!("< {} (rounding)", bound_up(p.rounding_bound.unwrap_or(0.0)));
    }
    let value = if p.tv > 0.0 && p.tv < 5e-5 {
        format!("{:.2e}", p.tv)
    } else {
        format!("{:.4}", p.tv)
    };
    match p.bias_floor {
        Some(floor) if p.is_at_bias_floor() && p.tv <= floor => format!("{value} (≤ floor)"),
        Some(_) if p.is_at_bias_floor() => format!("{value} (≈ floor)"),
        _ => value,
    }
}

/// Writes a data-loader curve's `loaders.csv` and `loaders.png` into `dir`
/// and returns their paths (atomically, like [`write_mixing`]).
pub fn write_loaders(dir: &Path, curve: &LoaderCurve) -> Result<Vec<PathBuf>> {
    let csv = dir.join("loaders.csv");
    files::write_atomic(&csv, loaders_csv(curve).as_bytes())?;
    let png = dir.join("loaders.png");
    write_png(&png, || plot::mixing::draw_loaders(curve))?;
    Ok(vec![csv, png])
}

/// `loaders.csv` text: a header `loader,size,fraction,mean_tv,max_tv,
/// rounding_bound,rounding_level` and one row per point (see
/// [`LoaderPoint`]), loader by loader, ascending in size.
pub fn loaders_csv(curve: &LoaderCurve) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for point in &curve.points {
        w.serialize(point).expect("loader point serialises");
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
}

/// A loader point's mean TV as every output shows it: "0" for exactly
/// uniform marginals, "< bound (rounding)" at rounding level, tiny values
/// in scientific notation, others to 4 decimals.
pub fn loader_tv_text(p: &LoaderPoint) -> String {
    distance_text(p.mean_tv, p.rounding_bound, p.rounding_level)
}

/// What a loader curve's distance means and what it cannot see, in one
/// paragraph for the terminal and the report.
pub const LOADER_NOTE: &str = "Distance: for each item, the total variation distance between the \
position it comes out at and a uniformly random position, averaged over the items (equal to \
the same average over positions); exact, from the loaders' closed-form marginals. It sees \
where items go, not which items stay together: shard-shuffle's marginals are exactly uniform \
whenever the shard size divides n (distance 0) although every shard stays in one piece. \
The audit's structure tests see that.";

/// One line per loader with thresholds: the smallest size, in items and
/// as a share of n, whose mean TV reaches each target.
pub fn loader_threshold_lines(curve: &LoaderCurve) -> Vec<String> {
    let mut lines = Vec::new();
    for loader in Loader::ALL {
        let parts: Vec<String> = curve
            .thresholds_of(loader)
            .map(|t| {
                format!(
                    "mean TV <= {} from {} = {} ({:.2}% of n)",
                    t.target,
                    loader.key(),
                    thousands(t.size),
                    100.0 * t.fraction
                )
            })
            .collect();
        if !parts.is_empty() {
            lines.push(format!("{}: {}", loader.name(), parts.join("; ")));
        }
    }
    lines
}

/// A size as a fraction of n: 4 decimals, or one significant digit in
/// scientific notation below 0.001 (`2e-5`).
pub fn fraction_text(fraction: f64) -> String {
    if fraction > 0.0 && fraction < 1e-3 {
        format!("{fraction:.0e}")
    } else {
        format!("{fraction:.4}")
    }
}

/// A distance as the outputs show it (see [`loader_tv_text`]).
pub fn distance_text(tv: f64, rounding_bound: f64, rounding_level: bool) -> String {
    if tv == 0.0 {
        "0".to_string()
    } else if rounding_level {
        format!("< {} (rounding)", bound_up(rounding_bound))
    } else if tv < 5e-5 {
        format!("{tv:.2e}")
    } else {
        format!("{tv:.4}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::mixing::tests::curve;

    #[test]
    fn csv_has_the_requested_columns() {
        let text = mixing_csv(&curve());
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some(
                "k,tv,method,statistic,stderr,bias_floor,bias_bound,tv_low,tv_high,at_bias_floor,rounding_bound,rounding_level"
            )
        );
        let row = lines.next().unwrap();
        assert!(row.starts_with("1,0.5,exact,permutation,,,,,,,"), "{row}");
        assert!(row.ends_with(",false"), "{row}");
        let row = lines.next().unwrap();
        assert!(
            row.starts_with("60,1e-16,exact,") && row.ends_with(",true"),
            "{row}"
        );
        assert_eq!(
            lines.next(),
            Some("1,0.75,monte-carlo,permutation,0.0625,0.125,0.125,0.4375,0.9375,false,,")
        );
        let row = lines.next().unwrap();
        assert!(
            row == "60,0.25,monte-carlo,permutation,0.0625,0.125,0.125,0.0,0.4375,true,,",
            "{row}"
        );
    }

    #[test]
    fn draws_a_png() {
        let dir = std::env::temp_dir().join(format!("sa-mixing-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let written = write_mixing(&dir, &curve()).unwrap();
        let png = std::fs::read(&written[1]).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 4096);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn loader_files_are_written() {
        use crate::mixing::buffer::{Loader, curve as loader_curve};
        let curve = loader_curve(Loader::Buffer, 100, &[1, 10, 50, 100]).unwrap();
        let text = loaders_csv(&curve);
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("loader,size,fraction,mean_tv,max_tv,rounding_bound,rounding_level")
        );
        let first = lines.next().unwrap();
        assert!(
            first.starts_with("buffer-shuffle,1,0.01,0.99,0.99,"),
            "{first}"
        );
        assert_eq!(lines.count(), 11);
        assert!(
            text.contains("shard-shuffle,50,0.5,0.0,0.0,0.0,false"),
            "{text}"
        );
        let dir = std::env::temp_dir().join(format!("sa-loaders-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let written = write_loaders(&dir, &curve).unwrap();
        let png = std::fs::read(&written[1]).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 4096);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(distance_text(0.0, 0.0, false), "0");
        assert_eq!(distance_text(1e-16, 2e-14, true), "< 2e-14 (rounding)");
        assert_eq!(distance_text(0.25, 1e-14, false), "0.2500");
    }
}

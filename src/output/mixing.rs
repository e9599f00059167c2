//! The files of a mixing curve: `mixing.csv` (one row per point) and
//! `mixing.png` (distance to uniform against k: the exact curve as a line,
//! Monte Carlo points with error bars).

use super::heatmap::PlotError;
use super::text::{plot_err, register_fonts};
use super::{draw, files, thousands};
use crate::error::Result;
use crate::mixing::{Method, MixingCurve, MixingPoint};
use plotters::backend::BitMapBackend;
use plotters::chart::{ChartBuilder, SeriesLabelPosition};
use plotters::drawing::IntoDrawingArea;
use plotters::element::{Circle, DashedPathElement, EmptyElement, PathElement};
use plotters::style::{Color, FontDesc, FontFamily, FontStyle, RGBColor, ShapeStyle};
use std::path::{Path, PathBuf};

/// Size of `mixing.png`, in pixels.
const SIZE: (u32, u32) = (960, 640);
/// Monte Carlo error bars span this many standard errors either side.
pub const ERROR_BAR_STANDARD_ERRORS: f64 = 2.0;
const EXACT: RGBColor = RGBColor(0x21, 0x66, 0xac);
const MONTE_CARLO: RGBColor = RGBColor(0xb2, 0x18, 0x2b);
const FLOOR: RGBColor = RGBColor(120, 120, 120);
const GRID: RGBColor = RGBColor(225, 225, 225);
const LIGHT_GRID: RGBColor = RGBColor(246, 246, 246);
const TEXT: RGBColor = RGBColor(30, 30, 30);

/// Writes `mixing.csv` and `mixing.png` into `dir` and returns their paths.
///
/// Both are written atomically; `dir` should have been checked with
/// [`files::prepare_dir`] before the run started.
pub fn write_mixing(dir: &Path, curve: &MixingCurve) -> Result<Vec<PathBuf>> {
    let csv = dir.join("mixing.csv");
    files::write_atomic(&csv, mixing_csv(curve).as_bytes())?;
    let png = dir.join("mixing.png");
    draw(&png, |tmp| draw_mixing(tmp, curve))?;
    Ok(vec![csv, png])
}

/// `mixing.csv` text: a header `k,tv,stderr,method,noise_floor,statistic` and
/// one row per point (stderr and noise_floor empty for exact points).
pub fn mixing_csv(curve: &MixingCurve) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for point in &curve.points {
        w.serialize(point).expect("mixing point serialises");
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
}

fn font(px: f64, style: FontStyle) -> FontDesc<'static> {
    FontDesc::new(FontFamily::SansSerif, px, style)
}

/// Draws the curve as a PNG at `path`: TV against k, the exact points joined
/// by a line, Monte Carlo points with ± [`ERROR_BAR_STANDARD_ERRORS`] standard
/// error bars and their noise floor as a grey line, a legend, axis titles and
/// a title naming the algorithm and n.
pub fn draw_mixing(path: &Path, curve: &MixingCurve) -> Result<(), PlotError> {
    register_fonts()?;
    let ks: Vec<u32> = curve.points.iter().map(|p| p.k).collect();
    let (Some(&first), Some(&last)) = (ks.iter().min(), ks.iter().max()) else {
        return Err(PlotError("no points to plot".to_string()));
    };
    let pad = ((last - first) / 40).max(1);
    let x_range = first.saturating_sub(pad)..last + pad;

    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&RGBColor(255, 255, 255)).map_err(plot_err)?;
    let title = format!(
        "{}, n = {}: distance to uniform after k {}",
        curve.algorithm.name(),
        curve.n,
        curve.step_name()
    );
    let area = root
        .margin(10, 0, 0, 0)
        .titled(&title, font(22.0, FontStyle::Bold).color(&TEXT))
        .map_err(plot_err)?;
    let mut chart = ChartBuilder::on(&area)
        .caption(subtitle(curve), font(14.0, FontStyle::Normal).color(&TEXT))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d(x_range.clone(), 0f64..1.05)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_desc(format!("k ({})", curve.step_name()))
        .y_desc("total variation distance to uniform")
        .axis_desc_style(font(16.0, FontStyle::Normal).color(&TEXT))
        .label_style(font(13.0, FontStyle::Normal).color(&TEXT))
        .light_line_style(LIGHT_GRID)
        .bold_line_style(GRID)
        .draw()
        .map_err(plot_err)?;

    let exact: Vec<(u32, f64)> = curve
        .points_of(Method::Exact)
        .map(|p| (p.k, p.tv))
        .collect();
    if !exact.is_empty() {
        let line = ShapeStyle::from(&EXACT).stroke_width(2);
        chart
            .draw_series(std::iter::once(PathElement::new(exact.clone(), line)))
            .map_err(plot_err)?
            .label("exact")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], line));
        chart
            .draw_series(exact.iter().map(|&xy| Circle::new(xy, 3, EXACT.filled())))
            .map_err(plot_err)?;
    }

    let simulated: Vec<_> = curve.points_of(Method::MonteCarlo).collect();
    if let Some(floor) = simulated.first().and_then(|p| p.noise_floor) {
        let style = ShapeStyle::from(&FLOOR).stroke_width(2);
        chart
            .draw_series(std::iter::once(DashedPathElement::new(
                vec![(x_range.start, floor), (x_range.end, floor)],
                6,
                4,
                style,
            )))
            .map_err(plot_err)?
            .label(format!("Monte Carlo noise floor ({floor:.4})"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
    }
    if !simulated.is_empty() {
        let bar = ShapeStyle::from(&MONTE_CARLO).stroke_width(1);
        let ends = |p: &MixingPoint| {
            let half = ERROR_BAR_STANDARD_ERRORS * p.stderr.unwrap_or(0.0);
            ((p.tv - half).max(0.0), p.tv + half)
        };
        chart
            .draw_series(simulated.iter().map(|p| {
                let (lo, hi) = ends(p);
                PathElement::new(vec![(p.k, lo), (p.k, hi)], bar)
            }))
            .map_err(plot_err)?;
        // Caps a few pixels wide, whatever the scale.
        chart
            .draw_series(simulated.iter().flat_map(|p| {
                let (lo, hi) = ends(p);
                [lo, hi].map(|y| {
                    EmptyElement::at((p.k, y)) + PathElement::new(vec![(-4, 0), (4, 0)], bar)
                })
            }))
            .map_err(plot_err)?;
        let statistic = simulated[0].statistic;
        chart
            .draw_series(
                simulated
                    .iter()
                    .map(|p| Circle::new((p.k, p.tv), 4, MONTE_CARLO.filled())),
            )
            .map_err(plot_err)?
            .label(format!(
                "Monte Carlo ({statistic}), ± {ERROR_BAR_STANDARD_ERRORS} SE"
            ))
            .legend(|(x, y)| Circle::new((x + 10, y), 4, MONTE_CARLO.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font(font(14.0, FontStyle::Normal).color(&TEXT))
        .background_style(RGBColor(255, 255, 255).mix(0.9))
        .border_style(FLOOR)
        .draw()
        .map_err(plot_err)?;
    root.present().map_err(plot_err)
}

/// The line under the title: how the points were obtained.
fn subtitle(curve: &MixingCurve) -> String {
    match (curve.trials, curve.statistic_note()) {
        (Some(trials), Some(note)) => format!(
            "Monte Carlo: {} trials, rng {}, seed {}; counting {note}",
            thousands(trials),
            curve.source,
            curve.seed
        ),
        _ => "exact".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::mixing::Statistic;

    fn curve() -> MixingCurve {
        let exact = |k, tv| MixingPoint {
            k,
            tv,
            stderr: None,
            method: Method::Exact,
            noise_floor: None,
            statistic: Statistic::Permutation,
        };
        let simulated = |k, tv| MixingPoint {
            k,
            tv,
            stderr: Some(0.01),
            method: Method::MonteCarlo,
            noise_floor: Some(0.02),
            statistic: Statistic::RisingSequences,
        };
        MixingCurve {
            algorithm: Algorithm::Riffle { k: 1 },
            n: 52,
            source: Default::default(),
            seed: 1,
            trials: Some(1000),
            statistic: Some(Statistic::RisingSequences),
            points: vec![
                exact(1, 1.0),
                exact(2, 0.5),
                simulated(1, 0.99),
                simulated(2, 0.51),
            ],
            seconds: 0.0,
        }
    }

    #[test]
    fn csv_has_the_requested_columns() {
        let text = mixing_csv(&curve());
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("k,tv,stderr,method,noise_floor,statistic")
        );
        assert_eq!(lines.next(), Some("1,1.0,,exact,,permutation"));
        assert_eq!(
            lines.nth(1),
            Some("1,0.99,0.01,monte-carlo,0.02,rising-sequences")
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
}

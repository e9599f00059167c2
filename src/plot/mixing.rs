//! The mixing-curve chart (`mixing.png`): distance to uniform against k, on
//! a linear and on a log scale: the exact curve as a line, Monte Carlo
//! estimates with the range that covers the true value, and the Monte Carlo
//! bias floor as a band. Built with plotters' `ChartBuilder`, whose text uses
//! the fonts registered by [`register_fonts`].

use super::png::{Area, render};
use super::text::register_fonts;
use super::{PlotError, plot_err};
use crate::format::thousands;
use crate::mixing::buffer::{Loader, LoaderCurve, LoaderPoint, TARGETS};
use crate::mixing::monte_carlo::RANGE_STANDARD_ERRORS;
use crate::mixing::{Method, MixingCurve, MixingPoint};
use plotters::chart::ChartBuilder;
use plotters::coord::combinators::IntoLogRange;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::element::{Circle, DashedPathElement, EmptyElement, PathElement, Rectangle, Text};
use plotters::style::{Color, FontDesc, FontFamily, FontStyle, RGBColor, ShapeStyle};
use std::ops::Range;

/// Size of `mixing.png`, in pixels: two panels side by side.
pub const SIZE: (u32, u32) = (1400, 680);
/// Height of the legend strip under the panels, in pixels (two rows).
const LEGEND_HEIGHT: u32 = 56;
const EXACT: RGBColor = RGBColor(0x21, 0x66, 0xac);
const MONTE_CARLO: RGBColor = RGBColor(0xb2, 0x18, 0x2b);
const FLOOR: RGBColor = RGBColor(120, 120, 120);
const GRID: RGBColor = RGBColor(225, 225, 225);
const LIGHT_GRID: RGBColor = RGBColor(246, 246, 246);
const TEXT: RGBColor = RGBColor(30, 30, 30);

/// A bound rounded up to one significant digit, as `2e-14`: shown shorter, it
/// must not become smaller.
pub fn bound_up(x: f64) -> String {
    if !(x > 0.0 && x.is_finite()) {
        return format!("{x:.0e}");
    }
    let mut exponent = x.log10().floor() as i32;
    // Shaved by 1e-12 so that 2e-14 / 1e-14 = 2.0000000000000004 stays 2.
    let mut digit = (x / 10f64.powi(exponent) * (1.0 - 1e-12)).ceil();
    if digit >= 10.0 {
        digit = 1.0;
        exponent += 1;
    }
    format!("{digit}e{exponent}")
}

fn font(px: f64, style: FontStyle) -> FontDesc<'static> {
    FontDesc::new(FontFamily::SansSerif, px, style)
}

/// The bottom of the log panel: a power of ten below half the smallest
/// value drawn as a value (exact values above rounding level, estimates,
/// the bias floor), spanning at least two decades.
fn log_bottom(curve: &MixingCurve) -> f64 {
    let smallest = curve
        .points
        .iter()
        .filter(|p| !p.is_rounding_level())
        .flat_map(|p| [Some(p.tv), p.bias_floor])
        .flatten()
        .filter(|&v| v > 0.0)
        .fold(1.0f64, f64::min);
    power_of_ten_below(smallest, 1e-2)
}

/// A log panel's bottom: the power of ten below half of `smallest` (so the
/// smallest value stands clear of the edge), at most `top`.
fn power_of_ten_below(smallest: f64, top: f64) -> f64 {
    10f64
        .powf((0.5 * smallest).log10().floor())
        .clamp(1e-300, top)
}

/// Draws the curve as a PNG and returns its bytes: TV against k in two panels, linear
/// (the cutoff) and log (the tail, the floor), with the title naming the
/// algorithm and n.
///
/// Exact points are joined by a line; exact values at rounding level
/// (see [`MixingPoint::rounding_level`]) are hollow circles on the bottom
/// edge, not points with a value. Monte Carlo estimates are red circles
/// (hollow when at the bias floor) with a bar over the range that covers the
/// true value (estimate - bias bound - [`RANGE_STANDARD_ERRORS`] SE to
/// estimate + [`RANGE_STANDARD_ERRORS`] SE), and the bias floor is a grey
/// band with a dashed top, labelled on the plot: an estimate in or near it
/// means "indistinguishable from uniform at this T", not a distance.
pub fn draw_mixing(curve: &MixingCurve) -> Result<Vec<u8>, PlotError> {
    register_fonts()?;
    let ks: Vec<u32> = curve.points.iter().map(|p| p.k).collect();
    let (Some(&first), Some(&last)) = (ks.iter().min(), ks.iter().max()) else {
        return Err(PlotError("no points to plot".to_string()));
    };
    let pad = ((last - first) / 40).max(1);
    let x_range = first.saturating_sub(pad)..last + pad;

    render(SIZE, |root| draw_chart(root, curve, x_range))
}

/// Draws [`draw_mixing`]'s chart into `root`, with k in `x_range`.
fn draw_chart(root: &Area<'_>, curve: &MixingCurve, x_range: Range<u32>) -> Result<(), PlotError> {
    let title = format!(
        "{}, n = {}: distance to uniform after k {}",
        curve.algorithm.name(),
        curve.n,
        curve.step_name()
    );
    let (left, right, strip) = layout(root, &title, &subtitle(curve))?;
    let linear = |v: &f64| format!("{v:.1}");
    let y = 0f64..1.05;
    panel(
        &left,
        curve,
        x_range.clone(),
        y,
        0.0,
        "linear scale",
        &linear,
    )?;
    let bottom = log_bottom(curve);
    let log = |v: &f64| format!("{v:.0e}");
    let y = (bottom..1.5).log_scale();
    panel(&right, curve, x_range, y, bottom, "log scale", &log)?;
    legend(&strip, curve)
}

/// Splits a chart's image under its title and subtitle into the left and
/// right panels and the legend strip below them.
fn layout<'a>(
    root: &Area<'a>,
    title: &str,
    subtitle: &str,
) -> Result<(Area<'a>, Area<'a>, Area<'a>), PlotError> {
    let area = root
        .margin(10, 0, 0, 0)
        .titled(title, font(22.0, FontStyle::Bold).color(&TEXT))
        .map_err(plot_err)?
        .titled(subtitle, font(14.0, FontStyle::Normal).color(&TEXT))
        .map_err(plot_err)?;
    let height = area.dim_in_pixel().1;
    let (body, strip) = area.split_vertically(height - LEGEND_HEIGHT);
    let (left, right) = body.split_horizontally(SIZE.0 / 2);
    Ok((left, right, strip))
}

/// One panel of [`draw_mixing`] on the y coordinate `y` (linear or log),
/// whose lowest value is `y_min`: what lies below it is drawn on it.
fn panel<Y>(
    area: &Area<'_>,
    curve: &MixingCurve,
    x_range: Range<u32>,
    y: Y,
    y_min: f64,
    caption: &str,
    y_format: Format<'_>,
) -> Result<(), PlotError>
where
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let clamp = |v: f64| v.max(y_min);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, font(15.0, FontStyle::Italic).color(&TEXT))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d(x_range.clone(), y)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_desc(format!("k ({})", curve.step_name()))
        .y_desc("total variation distance to uniform")
        .y_label_formatter(y_format)
        .axis_desc_style(font(16.0, FontStyle::Normal).color(&TEXT))
        .label_style(font(13.0, FontStyle::Normal).color(&TEXT))
        .light_line_style(LIGHT_GRID)
        .bold_line_style(GRID)
        .draw()
        .map_err(plot_err)?;

    let simulated: Vec<&MixingPoint> = curve.points_of(Method::MonteCarlo).collect();
    if let Some(floor) = simulated.first().and_then(|p| p.bias_floor) {
        let (x0, x1) = (x_range.start, x_range.end);
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(x0, y_min), (x1, clamp(floor))],
                FLOOR.mix(0.18).filled(),
            )))
            .map_err(plot_err)?;
        let style = ShapeStyle::from(&FLOOR).stroke_width(2);
        chart
            .draw_series(std::iter::once(DashedPathElement::new(
                vec![(x0, floor), (x1, floor)],
                6,
                4,
                style,
            )))
            .map_err(plot_err)?;
    }

    let exact: Vec<&MixingPoint> = curve.points_of(Method::Exact).collect();
    // Rounding-level values have no value to show on a log axis; on a
    // linear one they are 0 for all the eye can tell.
    let valued: Vec<(u32, f64)> = exact
        .iter()
        .filter(|p| y_min == 0.0 || !p.is_rounding_level())
        .map(|p| (p.k, if p.is_rounding_level() { 0.0 } else { p.tv }))
        .collect();
    if !exact.is_empty() {
        let line = ShapeStyle::from(&EXACT).stroke_width(2);
        chart
            .draw_series(std::iter::once(PathElement::new(valued.clone(), line)))
            .map_err(plot_err)?;
        chart
            .draw_series(
                exact
                    .iter()
                    .filter(|p| !p.is_rounding_level())
                    .map(|p| Circle::new((p.k, p.tv), 3, EXACT.filled())),
            )
            .map_err(plot_err)?;
    }
    let rounding: Vec<&&MixingPoint> = exact.iter().filter(|p| p.is_rounding_level()).collect();
    if !rounding.is_empty() {
        let hollow = ShapeStyle::from(&EXACT).stroke_width(2);
        chart
            .draw_series(
                rounding
                    .iter()
                    .map(|p| Circle::new((p.k, y_min), 5, hollow)),
            )
            .map_err(plot_err)?;
    }

    if !simulated.is_empty() {
        let bar = ShapeStyle::from(&MONTE_CARLO).stroke_width(1);
        let ends = |p: &MixingPoint| {
            (
                clamp(p.tv_low.unwrap_or(p.tv)),
                clamp(p.tv_high.unwrap_or(p.tv)),
            )
        };
        // A range reaching 0 (an estimate at the floor) is drawn faintly:
        // it says "somewhere below", not where.
        let faint = ShapeStyle::from(&MONTE_CARLO.mix(0.3)).stroke_width(1);
        let style = |p: &MixingPoint| if p.is_at_bias_floor() { faint } else { bar };
        chart
            .draw_series(simulated.iter().map(|p| {
                let (lo, hi) = ends(p);
                PathElement::new(vec![(p.k, lo), (p.k, hi)], style(p))
            }))
            .map_err(plot_err)?;
        // Caps a few pixels wide, whatever the scale.
        chart
            .draw_series(simulated.iter().flat_map(|p| {
                let (lo, hi) = ends(p);
                [lo, hi].map(|y| {
                    EmptyElement::at((p.k, y)) + PathElement::new(vec![(-4, 0), (4, 0)], style(p))
                })
            }))
            .map_err(plot_err)?;
        let hollow = ShapeStyle::from(&MONTE_CARLO).stroke_width(2);
        chart
            .draw_series(simulated.iter().map(|p| {
                let style = if p.is_at_bias_floor() {
                    hollow
                } else {
                    MONTE_CARLO.filled()
                };
                Circle::new((p.k, clamp(p.tv)), 4, style)
            }))
            .map_err(plot_err)?;
    }
    // The floor is labelled on the plot as well as in the legend, last, so
    // that the curves do not cover the text.
    if let Some(floor) = simulated.first().and_then(|p| p.bias_floor) {
        let x0 = x_range.start;
        // Above the line on the linear panel (the band is thin there),
        // inside the band on the log panel (estimates crowd the line from
        // above).
        let trials = curve.trials.map(thousands).unwrap_or_default();
        let offset = if y_min == 0.0 { (8, -32) } else { (8, 8) };
        let label = format!(
            "Monte Carlo bias floor {floor:.4}: a uniform shuffle shows this with {trials} trials"
        );
        // A pale box behind the text keeps it readable over the curves.
        let text_style = font(13.0, FontStyle::Normal).color(&TEXT);
        let width = area
            .estimate_text_size(&label, &text_style)
            .map_err(plot_err)?
            .0 as i32;
        let (dx, dy) = offset;
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((x0, floor))
                    + Rectangle::new(
                        [(dx - 3, dy - 2), (dx + width + 3, dy + 16)],
                        RGBColor(255, 255, 255).mix(0.85).filled(),
                    )
                    + Text::new(label, offset, text_style),
            ))
            .map_err(plot_err)?;
    }
    Ok(())
}

/// The legend, in a strip of its own under both panels so that it never
/// hides a curve: one entry per kind of mark present, flowing left to right
/// and onto a second row if needed.
fn legend(strip: &Area<'_>, curve: &MixingCurve) -> Result<(), PlotError> {
    let simulated: Vec<&MixingPoint> = curve.points_of(Method::MonteCarlo).collect();
    let exact: Vec<&MixingPoint> = curve.points_of(Method::Exact).collect();
    let mut entries: Vec<(Mark, String)> = Vec::new();
    if !exact.is_empty() {
        entries.push((Mark::Line(EXACT), "exact".to_string()));
    }
    if let Some(bound) = exact
        .iter()
        .filter(|p| p.is_rounding_level())
        .filter_map(|p| p.rounding_bound)
        .reduce(f64::max)
    {
        entries.push((
            Mark::Hollow(EXACT),
            format!(
                "exact at rounding level (< {}): no value, drawn on the bottom edge",
                bound_up(bound)
            ),
        ));
    }
    if let Some(first) = simulated.first() {
        let floor = first.bias_floor.unwrap_or(0.0);
        entries.push((
            Mark::Band,
            format!(
                "Monte Carlo bias floor ({floor:.4}): what a uniform shuffle shows at these trials"
            ),
        ));
        entries.push((
            Mark::Dot(MONTE_CARLO),
            format!(
                "Monte Carlo estimate ({}); hollow: at the bias floor, not a distance",
                first.statistic
            ),
        ));
        entries.push((
            Mark::Bar(MONTE_CARLO),
            format!(
                "range of the true TV: estimate - bias bound - {RANGE_STANDARD_ERRORS} SE to estimate + {RANGE_STANDARD_ERRORS} SE"
            ),
        ));
    }
    draw_entries(strip, entries)
}

/// Draws legend `entries` into `strip`, flowing left to right and onto a
/// second row if needed.
fn draw_entries(strip: &Area<'_>, entries: Vec<(Mark, String)>) -> Result<(), PlotError> {
    let style = font(13.0, FontStyle::Normal).color(&TEXT);
    let width = strip.dim_in_pixel().0 as i32;
    let (mut x, mut y) = (80, 14);
    for (mark, text) in entries {
        let (w, _) = strip.estimate_text_size(&text, &style).map_err(plot_err)?;
        let needed = 28 + w as i32 + 28;
        if x + needed > width - 20 && x > 80 {
            (x, y) = (80, y + 24);
        }
        draw_mark(strip, mark, x, y)?;
        strip
            .draw(&Text::new(text, (x + 28, y - 7), style.clone()))
            .map_err(plot_err)?;
        x += needed;
    }
    Ok(())
}

/// A legend glyph.
enum Mark {
    Line(RGBColor),
    Hollow(RGBColor),
    Dot(RGBColor),
    Bar(RGBColor),
    Band,
    Dashed(RGBColor),
}

/// Draws a legend glyph in the 20-pixel box at (x, y) of `strip`.
fn draw_mark(strip: &Area<'_>, mark: Mark, x: i32, y: i32) -> Result<(), PlotError> {
    match mark {
        Mark::Line(c) => strip.draw(&PathElement::new(
            vec![(x, y), (x + 20, y)],
            c.stroke_width(2),
        )),
        Mark::Hollow(c) => strip.draw(&Circle::new((x + 10, y), 5, c.stroke_width(2))),
        Mark::Dot(c) => strip.draw(&Circle::new((x + 10, y), 4, c.filled())),
        Mark::Bar(c) => strip.draw(&PathElement::new(
            vec![(x + 10, y - 7), (x + 10, y + 7)],
            c.stroke_width(1),
        )),
        Mark::Band => strip.draw(&Rectangle::new(
            [(x, y - 5), (x + 20, y + 5)],
            FLOOR.mix(0.35).filled(),
        )),
        Mark::Dashed(c) => strip.draw(&DashedPathElement::new(
            vec![(x, y), (x + 20, y)],
            4,
            3,
            ShapeStyle::from(&c).stroke_width(1),
        )),
    }
    .map_err(plot_err)
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

/// The colour of each loader's line on the loader chart.
fn loader_color(loader: Loader) -> RGBColor {
    match loader {
        Loader::Buffer => EXACT,
        Loader::Window => RGBColor(0xe0, 0x82, 0x14),
        Loader::Shard => RGBColor(0x1b, 0x9e, 0x77),
    }
}

/// The bottom of the loader chart's log panel: a power of ten below half
/// the smallest non-zero value, at most 1e-3 (the smallest target drawn).
fn loader_log_bottom(curve: &LoaderCurve) -> f64 {
    let smallest = curve
        .points
        .iter()
        .filter(|p| !p.rounding_level && p.mean_tv > 0.0)
        .map(|p| p.mean_tv)
        .fold(1.0f64, f64::min);
    power_of_ten_below(smallest, 1e-4)
}

/// Draws the loader curve (`loaders.png`) and returns its bytes: the mean
/// TV from uniform of where an item lands against the loader's size as a
/// fraction of n, one line per loader. Left panel: the size on a log scale
/// (small buffers), TV linear; right panel: the size on a linear scale and
/// TV on a log scale (the approach to uniform near size = n), with dashed
/// lines at the targets of [`TARGETS`]. A distance of exactly 0 (uniform
/// marginals) or at rounding level has no place on a log axis: it is a
/// hollow circle on the bottom edge.
pub fn draw_loaders(curve: &LoaderCurve) -> Result<Vec<u8>, PlotError> {
    register_fonts()?;
    let Some(first) = curve.points.iter().map(|p| p.fraction).reduce(f64::min) else {
        return Err(PlotError("no points to plot".to_string()));
    };
    let left = 10f64.powf(first.log10().floor());
    render(SIZE, |root| {
        let title = format!(
            "Data loaders, n = {}: distance from uniform against the size as a fraction of n",
            thousands(curve.n as u64)
        );
        let subtitle = "exact; distance = mean over items of the TV between an item's output position and a uniform position";
        let (left_area, right_area, strip) = layout(root, &title, subtitle)?;
        let log = |v: &f64| format!("{v:.0e}");
        let plain = |v: &f64| format!("{v:.1}");
        let axes = ((left..1.5).log_scale(), 0f64..1.05);
        let caption = "size on a log scale";
        loader_panel(&left_area, curve, axes, 0.0, caption, (&log, &plain))?;
        let bottom = loader_log_bottom(curve);
        let axes = (0f64..1.02, (bottom..1.5).log_scale());
        let caption = "distance on a log scale";
        loader_panel(&right_area, curve, axes, bottom, caption, (&plain, &log))?;
        loader_legend(&strip, curve)
    })
}

/// How an axis labels its values.
type Format<'a> = &'a dyn Fn(&f64) -> String;

/// One panel of [`draw_loaders`] on the coordinates `axes` (x, y), whose
/// lowest y value is `y_min`: what lies below it is drawn on it.
fn loader_panel<X, Y>(
    area: &Area<'_>,
    curve: &LoaderCurve,
    axes: (X, Y),
    y_min: f64,
    caption: &str,
    (x_format, y_format): (Format<'_>, Format<'_>),
) -> Result<(), PlotError>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(area)
        .caption(caption, font(15.0, FontStyle::Italic).color(&TEXT))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d(axes.0, axes.1)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_desc("size / n (buffer, window or shard size as a fraction of the items)")
        .y_desc("mean TV from uniform of an item's position")
        .x_label_formatter(x_format)
        .y_label_formatter(y_format)
        .axis_desc_style(font(16.0, FontStyle::Normal).color(&TEXT))
        .label_style(font(13.0, FontStyle::Normal).color(&TEXT))
        .light_line_style(LIGHT_GRID)
        .bold_line_style(GRID)
        .draw()
        .map_err(plot_err)?;
    if y_min > 0.0 {
        let (x0, x1) = (0.0, 1.0);
        let style = ShapeStyle::from(&FLOOR).stroke_width(1);
        for target in TARGETS {
            chart
                .draw_series(std::iter::once(DashedPathElement::new(
                    vec![(x0, target), (x1, target)],
                    6,
                    4,
                    style,
                )))
                .map_err(plot_err)?;
        }
    }
    for loader in Loader::ALL {
        let color = loader_color(loader);
        let points: Vec<&LoaderPoint> = curve.points_of(loader).collect();
        let shown = |p: &&&LoaderPoint| p.mean_tv > 0.0 && !p.rounding_level;
        let valued: Vec<(f64, f64)> = points
            .iter()
            .filter(|p| y_min == 0.0 || shown(p))
            .map(|p| (p.fraction, if shown(&p) { p.mean_tv } else { 0.0 }))
            .collect();
        chart
            .draw_series(std::iter::once(PathElement::new(
                valued.clone(),
                ShapeStyle::from(&color).stroke_width(2),
            )))
            .map_err(plot_err)?;
        chart
            .draw_series(valued.iter().map(|&xy| Circle::new(xy, 3, color.filled())))
            .map_err(plot_err)?;
        if y_min > 0.0 {
            let hollow = ShapeStyle::from(&color).stroke_width(2);
            chart
                .draw_series(
                    points
                        .iter()
                        .filter(|p| !shown(p))
                        .map(|p| Circle::new((p.fraction, y_min), 5, hollow)),
                )
                .map_err(plot_err)?;
        }
    }
    Ok(())
}

/// The loader chart's legend: one entry per loader, the hollow mark and
/// the target lines.
fn loader_legend(strip: &Area<'_>, curve: &LoaderCurve) -> Result<(), PlotError> {
    let mut entries: Vec<(Mark, String)> = Loader::ALL
        .iter()
        .map(|&l| (Mark::Line(loader_color(l)), l.name().to_string()))
        .collect();
    if curve
        .points
        .iter()
        .any(|p| p.mean_tv == 0.0 || p.rounding_level)
    {
        entries.push((
            Mark::Hollow(FLOOR),
            "0 or rounding level (uniform marginals): drawn on the bottom edge".to_string(),
        ));
    }
    entries.push((
        Mark::Dashed(FLOOR),
        "mean TV 0.1, 0.01, 0.001 (right panel)".to_string(),
    ));
    draw_entries(strip, entries)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::mixing::Statistic;
    use crate::mixing::monte_carlo::Estimate;
    use crate::plot::heatmap::tests::count;
    use crate::plot::png::tests::decode;

    /// A small curve with exact points (one at rounding level) and Monte
    /// Carlo points (one at the bias floor).
    pub(crate) fn curve() -> MixingCurve {
        let algorithm = Algorithm::RandomSwap { k: None };
        let exact = |k, tv| MixingPoint::exact(&algorithm, 3, k, tv);
        let simulated = |k, tv| {
            MixingPoint::monte_carlo(
                k,
                Statistic::Permutation,
                &Estimate::new(tv, 0.0625, 0.125, 0.0),
            )
        };
        MixingCurve {
            algorithm,
            n: 3,
            source: Default::default(),
            seed: 1,
            trials: Some(1000),
            statistic: Some(Statistic::Permutation),
            points: vec![
                exact(1, 0.5),
                exact(60, 1e-16),
                simulated(1, 0.75),
                simulated(60, 0.25),
            ],
            seconds: 0.0,
        }
    }

    #[test]
    fn the_log_panel_starts_below_every_value_but_rounding() {
        // The smallest value is 0.125 (the floor): bottom 1e-2; the 1e-16
        // rounding-level value does not stretch the axis.
        assert_eq!(log_bottom(&curve()), 1e-2);
    }

    #[test]
    fn bounds_round_up() {
        assert_eq!(bound_up(1.1e-14), "2e-14");
        assert_eq!(bound_up(1.67e-14), "2e-14");
        assert_eq!(bound_up(2e-14), "2e-14");
        assert_eq!(bound_up(9.5e-13), "1e-12");
    }

    #[test]
    fn draws_a_png() {
        let bytes = draw_mixing(&curve()).unwrap();
        let (w, h, pixels) = decode(&bytes);
        assert_eq!((w, h), SIZE);
        assert!(count(&pixels, EXACT) > 100, "the exact curve is drawn");
        let mut empty = curve();
        empty.points.clear();
        assert!(draw_mixing(&empty).is_err());
    }

    #[test]
    fn draws_a_loader_chart() {
        use crate::mixing::buffer::{Loader, curve as loader_curve, default_sizes};
        let curve = loader_curve(Loader::Buffer, 1000, &default_sizes(1000)).unwrap();
        let bytes = draw_loaders(&curve).unwrap();
        let (w, h, pixels) = decode(&bytes);
        assert_eq!((w, h), SIZE);
        for loader in Loader::ALL {
            let drawn = count(&pixels, loader_color(loader));
            assert!(drawn > 100, "{loader} is drawn ({drawn} pixels)");
        }
    }
}

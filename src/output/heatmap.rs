//! PNG heatmaps of observed/expected ratio matrices.
//!
//! A shuffle audit counts how often each value lands in each position. Dividing
//! by the expected count gives an `n × n` matrix of ratios that is 1.0 everywhere
//! for a fair shuffle; a biased shuffle shows up as a visible pattern. This module
//! renders such matrices with a diverging colour scale (blue = too rare, white =
//! as expected, red = too frequent), either one per image or several side by
//! side on a shared scale for comparing algorithms.
//!
//! Text is rendered by [`super::text`] with the DejaVu Sans font embedded by
//! the `dejavu` crate, so no system fonts are needed.

use std::fmt;
use std::path::Path;

use plotters::backend::{BitMapBackend, DrawingBackend};
use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, IntoDrawingArea};
use plotters::element::{PathElement, Rectangle};
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{Color, RGBColor};

use super::text::{TextFont, draw_text, line_height, plot_err, register_fonts};

/// One heatmap panel: an n×n matrix of observed/expected ratios, row = position, column = value.
#[derive(Debug, Clone)]
pub struct HeatmapPanel {
    /// Side of the matrix.
    pub n: usize,
    /// Row-major ratios O/E, `ratios[position * n + value]`; 1.0 means exactly as expected.
    pub ratios: Vec<f64>,
    /// Title line(s), e.g. "fisher-yates  n=10  T=1,000,000" and "p = 0.42".
    pub title: Vec<String>,
}

/// Error from drawing (wraps plotters' error text).
///
/// Plotters' error types are generic over the backend, so the message is kept
/// as text to give callers a single concrete error type.
#[derive(Debug)]
pub struct PlotError(pub String);

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "plot error: {}", self.0)
    }
}

impl std::error::Error for PlotError {}

/// Size of the image written by [`draw_heatmap`], in pixels.
const SINGLE_SIZE: (u32, u32) = (800, 720);
/// Preferred width of one panel in [`draw_comparison`], in pixels.
const PANEL_WIDTH: u32 = 360;
/// Smallest panel width [`draw_comparison`] will shrink to when there are many columns.
const MIN_PANEL_WIDTH: u32 = 160;
/// Approximate cap on the total width of a comparison image, in pixels.
const MAX_COMPARISON_WIDTH: u32 = 2000;
/// Legend line printed above a comparison grid.
const LEGEND: &str = "O/E: blue = less often than expected, white = as expected, red = more often";
/// Label of the colour bar.
const COLOUR_BAR_LABEL: &str = "observed / expected";
/// Number of labelled ticks on the colour bar.
const COLOUR_BAR_TICKS: usize = 5;

/// ColorBrewer RdBu (11 classes), ordered from low (blue) to high (red), with the
/// near-white centre `#f7f7f7` replaced by pure white so "as expected" is exactly white.
const RDBU: [(u8, u8, u8); 11] = [
    (0x05, 0x30, 0x61),
    (0x21, 0x66, 0xac),
    (0x43, 0x93, 0xc3),
    (0x92, 0xc5, 0xde),
    (0xd1, 0xe5, 0xf0),
    (0xff, 0xff, 0xff),
    (0xfd, 0xdb, 0xc7),
    (0xf4, 0xa5, 0x82),
    (0xd6, 0x60, 0x4d),
    (0xb2, 0x18, 0x2b),
    (0x67, 0x00, 0x1f),
];
/// Colour for values that cannot be placed on the scale (NaN).
const NAN_GREY: (u8, u8, u8) = (160, 160, 160);
const BACKGROUND: RGBColor = RGBColor(255, 255, 255);
const TEXT: RGBColor = RGBColor(30, 30, 30);
const MUTED_TEXT: RGBColor = RGBColor(90, 90, 90);
const FRAME: RGBColor = RGBColor(110, 110, 110);

/// The diverging colour for a ratio: white at 1.0, blue below, red above, saturating at 1 ± half_width (RdBu-like, perceptually smooth, e.g. interpolating the ColorBrewer RdBu 11-class palette).
///
/// The ratio is mapped linearly onto `[1 - half_width, 1 + half_width]`, clamped,
/// and looked up in the ColorBrewer RdBu palette (interpolated between its 11
/// classes) so that small deviations give pale tints and large ones saturate.
/// A NaN ratio, or a `half_width` that is not a positive finite number, gives grey.
pub fn diverging_color(ratio: f64, half_width: f64) -> (u8, u8, u8) {
    if !(half_width > 0.0 && half_width.is_finite()) || ratio.is_nan() {
        return NAN_GREY;
    }
    let t = ((ratio - 1.0) / half_width).clamp(-1.0, 1.0);
    let s = (t + 1.0) * 0.5 * (RDBU.len() - 1) as f64;
    let i = (s.floor() as usize).min(RDBU.len() - 2);
    let f = s - i as f64;
    let (a, b) = (RDBU[i], RDBU[i + 1]);
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * f).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Draws one panel as a PNG at `path`, with a diverging colour scale centred on 1.0 spanning [1 - half_width, 1 + half_width] (values outside are clamped), a colour bar with tick labels, axis titles "value" (x) and "position" (y), tick labels (every index for n <= 20, otherwise a sensible stride), and the title.
///
/// The image is 800×720 px. Fails if `half_width` is not a positive finite
/// number, if the panel's `ratios` do not hold `n * n` values, or if the file
/// cannot be written.
pub fn draw_heatmap(path: &Path, panel: &HeatmapPanel, half_width: f64) -> Result<(), PlotError> {
    check_half_width(half_width)?;
    check_panel(panel)?;
    register_fonts()?;

    let theme = Theme::scaled(1.0);
    let bar_width = colour_bar_width(&theme, half_width)?;
    let (width, height) = SINGLE_SIZE;
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&BACKGROUND).map_err(plot_err)?;
    let (matrix_area, bar_area) = root.split_horizontally(width as i32 - bar_width);
    let matrix = draw_matrix(&matrix_area, panel, half_width, &theme, panel.title.len())?;
    draw_colour_bar(&bar_area, matrix.y, matrix.side, half_width, &theme)?;
    root.present().map_err(plot_err)
}

/// Draws several panels side by side in a grid (about square: cols = ceil(sqrt(k))) on ONE shared colour scale with one shared colour bar and a one-line legend "O/E: blue = less often than expected, white = as expected, red = more often", for comparing algorithms at a glance.
///
/// Panels are ~360 px wide (narrower when there are many columns, keeping the
/// image near 2000 px wide) and are filled row by row in slice order. Fails on
/// an empty slice, an invalid `half_width`, a malformed panel, or a write error.
pub fn draw_comparison(
    path: &Path,
    panels: &[HeatmapPanel],
    half_width: f64,
) -> Result<(), PlotError> {
    if panels.is_empty() {
        return Err(PlotError("no panels".to_string()));
    }
    check_half_width(half_width)?;
    for panel in panels {
        check_panel(panel)?;
    }
    register_fonts()?;

    let k = panels.len();
    let cols = (k as f64).sqrt().ceil() as usize;
    let rows = k.div_ceil(cols);
    // Fonts scale with the panel, and the colour bar width depends on the fonts,
    // so size the panels with the full-size bar first and then refine once.
    let panel_width_for = |bar: i32| {
        let available = MAX_COMPARISON_WIDTH.saturating_sub(bar as u32) / cols as u32;
        available.clamp(MIN_PANEL_WIDTH, PANEL_WIDTH)
    };
    let mut panel_width = panel_width_for(colour_bar_width(&Theme::scaled(1.0), half_width)?);
    let theme = Theme::for_panel(panel_width);
    let bar_width = colour_bar_width(&theme, half_width)?;
    panel_width = panel_width_for(bar_width);

    let title_lines = panels.iter().map(|p| p.title.len()).max().unwrap_or(0);
    let mut panel_height = 0;
    for panel in panels {
        let m = Margins::new(&theme, panel.n, title_lines)?;
        let side = panel_width as i32 - m.left - m.right;
        panel_height = panel_height.max(m.top + side + m.bottom);
    }
    let header = theme.pad + line_height(theme.subtitle);
    let grid_width = cols as i32 * panel_width as i32;
    let grid_height = rows as i32 * panel_height;
    let width = (grid_width + bar_width) as u32;
    let height = (header + grid_height) as u32;

    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&BACKGROUND).map_err(plot_err)?;
    draw_text(
        &root,
        LEGEND,
        (width as i32 / 2, theme.pad),
        TextFont::plain(theme.subtitle).fit(LEGEND, width as i32 - 2 * theme.pad)?,
        (HPos::Center, VPos::Top),
        &TEXT,
    )?;

    let grid = root.clone().shrink((0, header), (grid_width, grid_height));
    let mut span: Option<(i32, i32)> = None;
    for (cell, panel) in grid.split_evenly((rows, cols)).iter().zip(panels) {
        let rect = draw_matrix(cell, panel, half_width, &theme, title_lines)?;
        let (_, cell_y) = cell.get_base_pixel();
        let (top, bottom) = (
            cell_y - header + rect.y,
            cell_y - header + rect.y + rect.side,
        );
        span = Some(span.map_or((top, bottom), |(t, b)| (t.min(top), b.max(bottom))));
    }

    // One bar for the whole grid: as tall as the matrices allow, but not
    // absurdly tall for many rows; centred on the matrices' vertical span.
    let (top, bottom) = span.unwrap_or((0, grid_height));
    let bar_height = (bottom - top).min(560.max(panel_height));
    let bar_area = root
        .clone()
        .shrink((grid_width, header), (bar_width, grid_height));
    draw_colour_bar(
        &bar_area,
        top + (bottom - top - bar_height) / 2,
        bar_height,
        half_width,
        &theme,
    )?;
    root.present().map_err(plot_err)
}

/// Rejects colour-scale half widths that cannot define a scale.
fn check_half_width(half_width: f64) -> Result<(), PlotError> {
    if half_width > 0.0 && half_width.is_finite() {
        Ok(())
    } else {
        Err(PlotError(format!(
            "half_width must be positive and finite, got {half_width}"
        )))
    }
}

/// Rejects panels whose ratio vector does not match their declared size.
fn check_panel(panel: &HeatmapPanel) -> Result<(), PlotError> {
    if panel.n == 0 {
        return Err(PlotError("panel has n = 0".to_string()));
    }
    let expected = panel.n.checked_mul(panel.n);
    if expected != Some(panel.ratios.len()) {
        return Err(PlotError(format!(
            "panel with n = {} has {} ratios, expected n * n",
            panel.n,
            panel.ratios.len()
        )));
    }
    Ok(())
}

/// Font sizes and spacings (in pixels) for one rendering scale.
struct Theme {
    /// First title line (bold).
    title: f64,
    /// Further title lines.
    subtitle: f64,
    /// Tick labels.
    tick: f64,
    /// Axis titles and the legend.
    axis: f64,
    /// Outer padding of a panel.
    pad: i32,
    /// Space between neighbouring elements.
    gap: i32,
    /// Length of tick marks.
    tick_len: i32,
    /// Width of the colour bar strip.
    bar: i32,
}

impl Theme {
    /// The full-size theme (factor 1.0) scaled by `f`.
    fn scaled(f: f64) -> Self {
        let px = |v: f64| (v * f).round().max(1.0) as i32;
        Theme {
            title: 19.0 * f,
            subtitle: 15.0 * f,
            tick: 13.0 * f,
            axis: 15.0 * f,
            pad: px(16.0),
            gap: px(6.0),
            tick_len: px(5.0),
            bar: px(22.0),
        }
    }

    /// A theme for comparison panels of the given width, so that text stays
    /// proportionate (and legible) as panels shrink.
    fn for_panel(panel_width: u32) -> Self {
        Theme::scaled((f64::from(panel_width) / 420.0).clamp(0.7, 1.0))
    }
}

/// Draws a straight line from `a` to `b`.
fn draw_line<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    a: (i32, i32),
    b: (i32, i32),
    colour: &RGBColor,
) -> Result<(), PlotError> {
    area.draw(&PathElement::new(vec![a, b], colour.stroke_width(1)))
        .map_err(plot_err)
}

/// Fills the pixels `x0..x1 × y0..y1` (end exclusive, as the bitmap backend does).
fn fill_rect<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x0, y0): (i32, i32),
    (x1, y1): (i32, i32),
    (r, g, b): (u8, u8, u8),
) -> Result<(), PlotError> {
    area.draw(&Rectangle::new(
        [(x0, y0), (x1, y1)],
        RGBColor(r, g, b).filled(),
    ))
    .map_err(plot_err)
}

/// Draws a one-pixel frame just outside the pixels `x..x+w × y..y+h`.
fn draw_frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    (w, h): (i32, i32),
) -> Result<(), PlotError> {
    area.draw(&Rectangle::new(
        [(x - 1, y - 1), (x + w, y + h)],
        FRAME.stroke_width(1),
    ))
    .map_err(plot_err)
}

/// Space around the matrix inside one panel, in pixels.
struct Margins {
    left: i32,
    right: i32,
    top: i32,
    bottom: i32,
}

impl Margins {
    /// Margins for an `n × n` matrix with `title_lines` title lines: room for
    /// the title above, tick labels and axis titles left and below.
    fn new(theme: &Theme, n: usize, title_lines: usize) -> Result<Self, PlotError> {
        let label_width = TextFont::plain(theme.tick).width(&(n - 1).to_string())?;
        let title_height = title_block_height(theme, title_lines);
        Ok(Margins {
            left: theme.pad
                + line_height(theme.axis)
                + theme.gap
                + label_width
                + theme.gap
                + theme.tick_len,
            right: theme.pad,
            top: theme.pad + title_height + if title_lines > 0 { theme.gap * 2 } else { 0 },
            bottom: theme.tick_len
                + theme.gap
                + line_height(theme.tick)
                + theme.gap
                + line_height(theme.axis)
                + theme.pad,
        })
    }
}

/// Height of a title block: a bold first line and smaller further lines.
fn title_block_height(theme: &Theme, lines: usize) -> i32 {
    match lines {
        0 => 0,
        _ => line_height(theme.title) + (lines as i32 - 1) * line_height(theme.subtitle),
    }
}

/// Where a matrix was drawn inside its area: top edge and side, in pixels.
struct MatrixRect {
    y: i32,
    side: i32,
}

/// Draws one panel (title, matrix cells, frame, ticks and axis titles) into
/// `area`, reserving room for `title_lines` title lines so that panels in a
/// grid line up. Returns where the matrix went so a colour bar can match it.
fn draw_matrix<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    panel: &HeatmapPanel,
    half_width: f64,
    theme: &Theme,
    title_lines: usize,
) -> Result<MatrixRect, PlotError> {
    let n = panel.n;
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let m = Margins::new(theme, n, title_lines)?;
    let free_width = w - m.left - m.right;
    let side = free_width.min(h - m.top - m.bottom);
    if side < 1 {
        return Err(PlotError(
            "drawing area too small for the heatmap".to_string(),
        ));
    }
    let (x0, y0) = (m.left + (free_width - side) / 2, m.top);
    // Cell boundaries on integer pixels so cells tile the square exactly.
    let edge = |i: usize| (i * side as usize / n) as i32;
    let centre = |i: usize| (edge(i) + edge(i + 1)) / 2;

    // Title, centred over the matrix but kept inside the panel.
    let mut y = theme.pad;
    for (i, line) in panel.title.iter().enumerate() {
        let base = if i == 0 { theme.title } else { theme.subtitle };
        let font = TextFont {
            px: base,
            bold: i == 0,
            vertical: false,
        }
        .fit(line, w - 2 * theme.pad)?;
        let half = font.width(line)? / 2;
        let x = (x0 + side / 2)
            .min(w - theme.pad - half)
            .max(theme.pad + half);
        let colour = if i == 0 { &TEXT } else { &MUTED_TEXT };
        draw_text(area, line, (x, y), font, (HPos::Center, VPos::Top), colour)?;
        y += line_height(base);
    }

    // Cells: row = position (top to bottom), column = value (left to right).
    for (position, row) in panel.ratios.chunks_exact(n).enumerate() {
        for (value, &ratio) in row.iter().enumerate() {
            fill_rect(
                area,
                (x0 + edge(value), y0 + edge(position)),
                (x0 + edge(value + 1), y0 + edge(position + 1)),
                diverging_color(ratio, half_width),
            )?;
        }
    }
    draw_frame(area, (x0, y0), (side, side))?;

    // Ticks and labels, the same indices on both axes.
    let tick_font = TextFont::plain(theme.tick);
    let label_width = tick_font.width(&(n - 1).to_string())?;
    let stride = tick_stride(n, side, label_width + theme.gap);
    for i in (0..n).step_by(stride) {
        let label = i.to_string();
        let (cx, cy) = (x0 + centre(i), y0 + centre(i));
        let below = y0 + side + theme.tick_len;
        draw_line(area, (cx, y0 + side), (cx, below), &FRAME)?;
        draw_text(
            area,
            &label,
            (cx, below + theme.gap),
            tick_font,
            (HPos::Center, VPos::Top),
            &TEXT,
        )?;
        let left = x0 - 1 - theme.tick_len;
        draw_line(area, (left, cy), (x0 - 1, cy), &FRAME)?;
        draw_text(
            area,
            &label,
            (left - theme.gap, cy),
            tick_font,
            (HPos::Right, VPos::Center),
            &TEXT,
        )?;
    }

    // Axis titles.
    let axis_font = TextFont::plain(theme.axis);
    let x_title_y = y0 + side + theme.tick_len + theme.gap + line_height(theme.tick) + theme.gap;
    draw_text(
        area,
        "value",
        (x0 + side / 2, x_title_y),
        axis_font,
        (HPos::Center, VPos::Top),
        &TEXT,
    )?;
    let y_title_x = x0 - theme.tick_len - theme.gap - label_width - theme.gap;
    draw_text(
        area,
        "position",
        (y_title_x - line_height(theme.axis) / 2, y0 + side / 2),
        TextFont {
            vertical: true,
            ..axis_font
        },
        (HPos::Center, VPos::Center),
        &TEXT,
    )?;

    Ok(MatrixRect { y: y0, side })
}

/// Spacing between labelled indices: every index for `n <= 20`, otherwise the
/// smallest 1-2-5 stride giving at most 11 labels. The stride is widened
/// further if neighbouring labels (`min_px` pixels each) would touch.
fn tick_stride(n: usize, side: i32, min_px: i32) -> usize {
    let cell = f64::from(side) / n as f64;
    let mut magnitude = 1;
    loop {
        for stride in [magnitude, 2 * magnitude, 5 * magnitude] {
            let few_enough = n <= 20 || n.div_ceil(stride) <= 11;
            let wide_enough = stride as f64 * cell >= f64::from(min_px);
            if (few_enough && wide_enough) || stride >= n {
                return stride;
            }
        }
        magnitude *= 10;
    }
}

/// The colour bar's tick values (bottom to top) and their labels, with just
/// enough decimals to show each value exactly (at least 2), or failing that to
/// keep neighbouring labels distinct.
fn colour_bar_ticks(half_width: f64) -> Vec<(f64, String)> {
    let step = 2.0 * half_width / (COLOUR_BAR_TICKS - 1) as f64;
    let exact = (2..=4).find(|&d| {
        let scaled = step * 10f64.powi(d);
        (scaled - scaled.round()).abs() < 1e-6 * scaled.max(1.0)
    });
    let distinct = (1 - step.log10().floor() as i32).clamp(2, 9);
    let decimals = exact.unwrap_or(distinct) as usize;
    (0..COLOUR_BAR_TICKS)
        .map(|i| {
            let value = 1.0 - half_width + step * i as f64;
            (value, format!("{value:.decimals$}"))
        })
        .collect()
}

/// Width needed by the colour bar column: strip, ticks, labels and the rotated
/// bar title, plus padding.
fn colour_bar_width(theme: &Theme, half_width: f64) -> Result<i32, PlotError> {
    let tick_font = TextFont::plain(theme.tick);
    let mut label_width = 0;
    for (_, label) in colour_bar_ticks(half_width) {
        label_width = label_width.max(tick_font.width(&label)?);
    }
    Ok(theme.gap
        + theme.bar
        + theme.tick_len
        + theme.gap
        + label_width
        + 2 * theme.gap
        + line_height(theme.axis)
        + theme.pad)
}

/// Draws the vertical colour bar (gradient from `1 - half_width` at the bottom
/// to `1 + half_width` at the top) with tick labels and its title, in an area
/// `colour_bar_width` wide, spanning rows `top..top + height`.
fn draw_colour_bar<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    top: i32,
    height: i32,
    half_width: f64,
    theme: &Theme,
) -> Result<(), PlotError> {
    let x = theme.gap;
    let last = (height - 1).max(1);
    for row in 0..height {
        let value = 1.0 + half_width * (1.0 - 2.0 * f64::from(row) / f64::from(last));
        fill_rect(
            area,
            (x, top + row),
            (x + theme.bar, top + row + 1),
            diverging_color(value, half_width),
        )?;
    }
    draw_frame(area, (x, top), (theme.bar, height))?;

    let tick_font = TextFont::plain(theme.tick);
    let right = x + theme.bar;
    let mut label_width = 0;
    let ticks = colour_bar_ticks(half_width);
    for (i, (_, label)) in ticks.iter().enumerate() {
        let y = top + last - (i as i32 * last) / (ticks.len() as i32 - 1);
        draw_line(area, (right, y), (right + theme.tick_len, y), &FRAME)?;
        draw_text(
            area,
            label,
            (right + theme.tick_len + theme.gap, y),
            tick_font,
            (HPos::Left, VPos::Center),
            &TEXT,
        )?;
        label_width = label_width.max(tick_font.width(label)?);
    }

    let title_x = right + theme.tick_len + theme.gap + label_width + 2 * theme.gap;
    draw_text(
        area,
        COLOUR_BAR_LABEL,
        (title_x + line_height(theme.axis) / 2, top + height / 2),
        TextFont {
            vertical: true,
            ..TextFont::plain(theme.axis)
        },
        (HPos::Center, VPos::Center),
        &TEXT,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A fresh directory under the system temp dir, removed on drop.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir().join(format!(
                "shuffle-audit-heatmap-{}-{name}",
                std::process::id()
            ));
            std::fs::create_dir_all(&dir).expect("create temp dir");
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A panel with a mild deterministic pattern around 1.0.
    fn panel(n: usize, name: &str) -> HeatmapPanel {
        let ratios = (0..n * n)
            .map(|i| 1.0 + 0.05 * ((i as f64) * 0.7).sin())
            .collect();
        HeatmapPanel {
            n,
            ratios,
            title: vec![
                format!("{name}  n={n}  T=1,000,000"),
                "p = 0.42".to_string(),
            ],
        }
    }

    fn assert_png(path: &Path) {
        let bytes = std::fs::read(path).expect("png written");
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "PNG signature");
        assert!(bytes.len() > 1024, "PNG is only {} bytes", bytes.len());
    }

    #[test]
    fn draws_single_heatmaps() {
        let dir = TempDir::new("single");
        for n in [3, 10, 52] {
            let path = dir.0.join(format!("heatmap-{n}.png"));
            draw_heatmap(&path, &panel(n, "fisher-yates"), 0.1).expect("draw");
            assert_png(&path);
        }
    }

    #[test]
    fn draws_comparison_grid() {
        let dir = TempDir::new("comparison");
        let panels: Vec<_> = (0..15).map(|i| panel(10, &format!("algo-{i}"))).collect();
        let path = dir.0.join("comparison.png");
        draw_comparison(&path, &panels, 0.1).expect("draw");
        assert_png(&path);
    }

    #[test]
    fn colour_scale() {
        let (r, g, b) = diverging_color(1.0, 0.1);
        assert!(
            r >= 253 && g >= 253 && b >= 253,
            "white, got {:?}",
            (r, g, b)
        );
        let (r, _, b) = diverging_color(0.95, 0.1);
        assert!(b > r, "below 1 is bluish");
        let (r, _, b) = diverging_color(1.05, 0.1);
        assert!(r > b, "above 1 is reddish");
        assert_eq!(diverging_color(0.5, 0.1), diverging_color(0.9, 0.1));
        assert_eq!(diverging_color(3.0, 0.1), diverging_color(1.1, 0.1));
        assert_eq!(diverging_color(1.1, 0.1), RDBU[10]);
        assert_eq!(diverging_color(0.9, 0.1), RDBU[0]);
        assert_eq!(diverging_color(f64::NAN, 0.1), NAN_GREY);
    }

    #[test]
    fn rejects_bad_input() {
        let dir = TempDir::new("errors");
        let path = dir.0.join("never.png");
        let err = draw_comparison(&path, &[], 0.1).unwrap_err();
        assert_eq!(err.0, "no panels");
        assert!(draw_heatmap(&path, &panel(4, "x"), 0.0).is_err());
        assert!(draw_heatmap(&path, &panel(4, "x"), f64::NAN).is_err());
        assert!(draw_comparison(&path, &[panel(4, "x")], 0.0).is_err());
        let bad = HeatmapPanel {
            n: 3,
            ratios: vec![1.0; 8],
            title: Vec::new(),
        };
        assert!(draw_heatmap(&path, &bad, 0.1).is_err());
        assert!(!path.exists());
    }

    #[test]
    fn tick_labels_are_distinct() {
        for half_width in [0.002, 0.03, 0.1, 0.35, 0.123456, 1.0, 5.0] {
            let ticks = colour_bar_ticks(half_width);
            assert_eq!(ticks.len(), COLOUR_BAR_TICKS);
            for pair in ticks.windows(2) {
                assert_ne!(pair[0].1, pair[1].1, "half_width {half_width}");
            }
            assert_eq!(ticks[2].1.trim_end_matches('0'), "1.");
        }
        let labels: Vec<_> = colour_bar_ticks(0.03).into_iter().map(|t| t.1).collect();
        assert_eq!(labels, ["0.970", "0.985", "1.000", "1.015", "1.030"]);
    }

    #[test]
    fn tick_strides() {
        assert_eq!(tick_stride(10, 600, 20), 1);
        assert_eq!(tick_stride(20, 600, 20), 1);
        assert_eq!(tick_stride(52, 600, 20), 5);
        assert_eq!(tick_stride(100, 600, 20), 10);
        // Labels that would collide get a wider stride even for small n.
        assert_eq!(tick_stride(20, 100, 20), 5);
    }
}

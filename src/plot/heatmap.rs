//! One heatmap of observed/expected ratios: an `n × n` matrix (row =
//! position, column = value) that is 1.0 everywhere for a fair shuffle, drawn
//! on a [`LogScale`] (blue = too rare, white = as expected, red = too often),
//! titled, with the audit's verdict in a coloured badge and a colour bar
//! labelled in × units.
//!
//! The building blocks here (panel, badge, colour bar, theme) are shared with
//! [`super::comparison`], which draws many panels on one scale.

use plotters::backend::DrawingBackend;
use plotters::coord::Shift;
use plotters::drawing::DrawingArea;
use plotters::element::{PathElement, Polygon, Rectangle};
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{Color, RGBColor};

use super::png::render;
use super::scale::{Clipping, LogScale, Tick};
use super::text::{TextFont, draw_text, line_height};
use super::{PlotError, plot_err};
use crate::stats::Verdict;

/// One heatmap panel: an n×columns matrix of observed/expected ratios, row =
/// position, column = value (or a multiset deck's kind), with its title and
/// the verdict to show.
#[derive(Debug, Clone)]
pub struct HeatmapPanel {
    /// Rows of the matrix (positions, or position bins).
    pub n: usize,
    /// Columns of the matrix: n for a square matrix of values, fewer for
    /// the kinds of a deck whose items repeat.
    pub columns: usize,
    /// Row-major ratios O/E, `ratios[position * columns + value]`; 1.0
    /// means exactly as expected.
    pub ratios: Vec<f64>,
    /// Title lines: the first (bold) names what was run; the verdict badge
    /// (if any) comes next, on a row of its own; further lines follow below
    /// it.
    pub title: Vec<String>,
    /// The verdict shown as a badge, exactly as the audit reached it; `None`
    /// where there is no verdict (exact marginals).
    pub verdict: Option<Verdict>,
    /// Axis titles, columns then rows (`DECK_AXES` for a shuffle's
    /// position-by-value matrix).
    pub axes: [&'static str; 2],
    /// The columns' names for the ticks (a deck's kinds: `AS`, `2S`, …);
    /// empty for index ticks (0, 1, …).
    pub column_names: Vec<String>,
}

/// The axis titles of a position-by-value matrix: values across, positions
/// down.
pub const DECK_AXES: [&str; 2] = ["value", "position"];

/// A verdict badge: the verdict's symbol and words, white or black on a
/// coloured box, so that the verdict reads at a glance and never rests on
/// colour alone (nor on how strong the heatmap's colours look: a bias of a
/// fraction of a percent is pale on any fair scale).
#[derive(Debug, Clone, PartialEq)]
pub struct Badge {
    /// `✗ biased`, `✓ no bias detected`, `? inconclusive`.
    pub words: String,
    /// Box colour: red, green or amber.
    pub fill: RGBColor,
    /// Text colour, chosen for contrast with the box (at least 4.5:1).
    pub ink: RGBColor,
}

impl Badge {
    /// The badge of a verdict, its words from [`Verdict::symbol`] and
    /// [`Verdict::words`].
    pub fn of(verdict: Verdict) -> Self {
        let (fill, ink) = match verdict {
            Verdict::Biased => (RGBColor(192, 28, 40), RGBColor(255, 255, 255)),
            Verdict::NoBiasDetected => (RGBColor(27, 120, 55), RGBColor(255, 255, 255)),
            Verdict::Inconclusive => (RGBColor(240, 176, 0), RGBColor(25, 25, 25)),
        };
        Badge {
            words: format!("{} {}", verdict.symbol(), verdict.words()),
            fill,
            ink,
        }
    }
}

/// Size of the image drawn by [`draw_heatmap`], in pixels.
pub const SINGLE_SIZE: (u32, u32) = (800, 750);

pub(super) const TEXT: RGBColor = RGBColor(30, 30, 30);
const MUTED_TEXT: RGBColor = RGBColor(70, 70, 70);
pub(super) const FRAME: RGBColor = RGBColor(110, 110, 110);
/// Label of the colour bar.
const COLOUR_BAR_LABEL: &str = "observed / expected (log scale)";
/// Smallest badge text, in pixels, however small the panel.
const MIN_BADGE_PX: f64 = 14.0;

/// Draws one panel as a PNG (800×750 px) and returns its bytes: the title,
/// the verdict badge, the matrix coloured by `scale`, axis ticks and titles,
/// and a colour bar with ticks in × units and this scale's range in words.
///
/// Fails if the panel's `ratios` do not hold `n * n` values.
pub fn draw_heatmap(panel: &HeatmapPanel, scale: &LogScale) -> Result<Vec<u8>, PlotError> {
    check_panel(panel)?;
    let theme = Theme::scaled(1.0);
    let bar = ColourBar::single(scale, &panel.ratios, &theme)?;
    let title = title_height(&theme, panel);
    render(SINGLE_SIZE, |root| {
        let (matrix_area, bar_area) = root.split_horizontally(SINGLE_SIZE.0 as i32 - bar.width);
        let (y, side) = draw_panel(&matrix_area, panel, scale, &theme, title)?;
        bar.draw(&bar_area, y, side, &theme)
    })
}

/// Rejects panels whose ratio vector does not match their declared size.
pub(super) fn check_panel(panel: &HeatmapPanel) -> Result<(), PlotError> {
    if panel.n == 0 || panel.columns == 0 {
        return Err(PlotError(format!(
            "panel has {} rows and {} columns",
            panel.n, panel.columns
        )));
    }
    let expected = panel.n.checked_mul(panel.columns);
    if expected != Some(panel.ratios.len()) {
        return Err(PlotError(format!(
            "panel with {} rows and {} columns has {} ratios, expected rows * columns",
            panel.n,
            panel.columns,
            panel.ratios.len()
        )));
    }
    Ok(())
}

/// Font sizes and spacings (in pixels) for one rendering scale.
pub(super) struct Theme {
    /// First title line (bold).
    pub(super) title: f64,
    /// Further title lines.
    pub(super) subtitle: f64,
    /// Badge text (bold), never below [`MIN_BADGE_PX`].
    pub(super) badge: f64,
    /// Tick labels.
    pub(super) tick: f64,
    /// Axis titles and the legend.
    pub(super) axis: f64,
    /// Outer padding of a panel.
    pub(super) pad: i32,
    /// Space between neighbouring elements.
    pub(super) gap: i32,
    /// Length of tick marks.
    pub(super) tick_len: i32,
    /// Width of the colour bar strip.
    pub(super) bar: i32,
}

impl Theme {
    /// The full-size theme (factor 1.0) scaled by `f`.
    pub(super) fn scaled(f: f64) -> Self {
        let px = |v: f64| (v * f).round().max(1.0) as i32;
        Theme {
            title: 19.0 * f,
            subtitle: 15.0 * f,
            badge: (16.0 * f).max(MIN_BADGE_PX),
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
    pub(super) fn for_panel(panel_width: u32) -> Self {
        Theme::scaled((f64::from(panel_width) / 420.0).clamp(0.7, 1.0))
    }

    /// Height of the badge row: the box and a gap above and below it.
    pub(super) fn badge_row(&self) -> i32 {
        self.badge_height() + 2 * self.gap
    }

    /// Height of the badge box.
    pub(super) fn badge_height(&self) -> i32 {
        line_height(self.badge) + 2 * self.badge_pad().1
    }

    /// Padding inside the badge box, horizontal and vertical.
    pub(super) fn badge_pad(&self) -> (i32, i32) {
        (
            (self.badge * 0.5).round() as i32,
            (self.badge * 0.2).round() as i32,
        )
    }
}

/// Draws a straight line from `a` to `b`.
pub(super) fn draw_line<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    a: (i32, i32),
    b: (i32, i32),
    colour: &RGBColor,
) -> Result<(), PlotError> {
    area.draw(&PathElement::new(vec![a, b], colour.stroke_width(1)))
        .map_err(plot_err)
}

/// Fills the pixels `x0..x1 × y0..y1` (end exclusive, as the bitmap backend does).
pub(super) fn fill_rect<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    a: (i32, i32),
    b: (i32, i32),
    colour: RGBColor,
) -> Result<(), PlotError> {
    area.draw(&Rectangle::new([a, b], colour.filled()))
        .map_err(plot_err)
}

/// An `RGBColor` from a scale colour.
pub(super) fn rgb((r, g, b): (u8, u8, u8)) -> RGBColor {
    RGBColor(r, g, b)
}

/// Draws a one-pixel frame just outside the pixels `x..x+w × y..y+h`.
pub(super) fn draw_frame<DB: DrawingBackend>(
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
pub(super) struct Margins {
    pub(super) left: i32,
    pub(super) right: i32,
    pub(super) top: i32,
    pub(super) bottom: i32,
}

impl Margins {
    /// Margins for an `n × n` matrix under a title block `title` pixels
    /// high: room for the title above, tick labels and axis titles left and
    /// below.
    pub(super) fn new(theme: &Theme, n: usize, title: i32) -> Result<Self, PlotError> {
        let label_width = TextFont::plain(theme.tick).width(&(n - 1).to_string())?;
        Ok(Margins::around(theme, label_width, title))
    }

    /// Margins for a chart whose y tick labels are `label_width` pixels
    /// wide, as [`Margins::new`].
    pub(super) fn around(theme: &Theme, label_width: i32, title: i32) -> Self {
        Margins {
            left: theme.pad
                + line_height(theme.axis)
                + theme.gap
                + label_width
                + theme.gap
                + theme.tick_len,
            right: theme.pad,
            top: theme.pad + title + if title > 0 { theme.gap * 2 } else { 0 },
            bottom: theme.tick_len
                + theme.gap
                + line_height(theme.tick)
                + theme.gap
                + line_height(theme.axis)
                + theme.pad,
        }
    }
}

/// Height of a panel's title block: the bold first line, the badge row when
/// there is a verdict, and the further lines.
pub(super) fn title_height(theme: &Theme, panel: &HeatmapPanel) -> i32 {
    Header::new(&panel.title, panel.verdict).height(theme)
}

/// A picture's title block: the bold first line, the verdict badge on a
/// row of its own, the further lines in muted text, each centred over the
/// chart but kept inside the picture. Every picture (heatmaps, comparison
/// panels, sampler charts) draws its title through this one block.
pub(super) struct Header<'a> {
    /// The title lines.
    pub(super) title: &'a [String],
    /// The verdict shown as a badge, if any.
    pub(super) verdict: Option<Verdict>,
}

impl<'a> Header<'a> {
    /// The block of `title`'s lines and the badge of `verdict`, if any.
    pub(super) fn new(title: &'a [String], verdict: Option<Verdict>) -> Self {
        Header { title, verdict }
    }

    /// Height of the block.
    pub(super) fn height(&self, theme: &Theme) -> i32 {
        let lines = self.title.len() as i32;
        let mut height = 0;
        if lines > 0 {
            height += line_height(theme.title) + (lines - 1) * line_height(theme.subtitle);
        }
        if self.verdict.is_some() {
            height += theme.badge_row();
        }
        height
    }

    /// Draws the block from `theme.pad` down, centred on `cx`, inside an
    /// area `w` pixels wide.
    pub(super) fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (cx, w): (i32, i32),
        theme: &Theme,
    ) -> Result<(), PlotError> {
        let mut y = theme.pad;
        let mut lines = self.title.iter();
        if let Some(first) = lines.next() {
            title_line(
                area,
                first,
                TextFont::bold(theme.title),
                (cx, y, w),
                theme,
                &TEXT,
            )?;
            y += line_height(theme.title);
        }
        if let Some(verdict) = self.verdict {
            draw_badge(area, verdict, (cx, y, w), theme)?;
            y += theme.badge_row();
        }
        for line in lines {
            let font = TextFont::plain(theme.subtitle);
            title_line(area, line, font, (cx, y, w), theme, &MUTED_TEXT)?;
            y += line_height(theme.subtitle);
        }
        Ok(())
    }
}

/// Draws one line of title text centred over the matrix (centre `cx`) but
/// kept inside the panel (width `w`), shrunk if it would not fit.
fn title_line<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    line: &str,
    font: TextFont,
    (cx, y, w): (i32, i32, i32),
    theme: &Theme,
    colour: &RGBColor,
) -> Result<(), PlotError> {
    let font = font.fit(line, w - 2 * theme.pad)?;
    let half = font.width(line)? / 2;
    let x = cx.min(w - theme.pad - half).max(theme.pad + half);
    draw_text(area, line, (x, y), font, (HPos::Center, VPos::Top), colour)
}

/// Draws the badge of `verdict` centred on `cx` inside a panel `w` wide,
/// with the top of its row at `y`.
fn draw_badge<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    verdict: Verdict,
    (cx, y, w): (i32, i32, i32),
    theme: &Theme,
) -> Result<(), PlotError> {
    let badge = Badge::of(verdict);
    let (pad_x, _) = theme.badge_pad();
    let font = TextFont::bold(theme.badge).fit(&badge.words, w - 2 * theme.pad - 2 * pad_x)?;
    let width = font.width(&badge.words)? + 2 * pad_x;
    let height = theme.badge_height();
    let x = (cx - width / 2).min(w - theme.pad - width).max(theme.pad);
    let top = y + theme.gap;
    fill_rect(area, (x, top), (x + width, top + height), badge.fill)?;
    draw_text(
        area,
        &badge.words,
        (x + width / 2, top + height / 2),
        font,
        (HPos::Center, VPos::Center),
        &badge.ink,
    )
}

/// Draws one panel (title, badge, matrix cells, frame, ticks and axis
/// titles) into `area`, reserving `title` pixels for the title block so that
/// panels in a grid line up. Returns where the matrix went (top edge and
/// side, in pixels) so a colour bar can match it.
pub(super) fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    panel: &HeatmapPanel,
    scale: &LogScale,
    theme: &Theme,
    title: i32,
) -> Result<(i32, i32), PlotError> {
    let n = panel.n;
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let m = Margins::new(theme, n, title)?;
    let free_width = w - m.left - m.right;
    let side = free_width.min(h - m.top - m.bottom);
    if side < 1 {
        return Err(PlotError(
            "drawing area too small for the heatmap".to_string(),
        ));
    }
    let (x0, y0) = (m.left + (free_width - side) / 2, m.top);
    let columns = panel.columns;

    // Title and badge, centred over the matrix but kept inside the panel.
    let cx = x0 + side / 2;
    Header::new(&panel.title, panel.verdict).draw(area, (cx, w), theme)?;

    // Cells: row = position (top to bottom), column = value (left to right),
    // on integer pixels so that they tile the square exactly (rectangular
    // cells when there are fewer columns than rows).
    for (position, row) in panel.ratios.chunks_exact(columns).enumerate() {
        for (value, &ratio) in row.iter().enumerate() {
            fill_rect(
                area,
                (
                    x0 + edge(value, columns, side),
                    y0 + edge(position, n, side),
                ),
                (
                    x0 + edge(value + 1, columns, side),
                    y0 + edge(position + 1, n, side),
                ),
                rgb(scale.colour(ratio)),
            )?;
        }
    }
    draw_frame(area, (x0, y0), (side, side))?;

    // Ticks and labels: indices on both axes, and the axis titles.
    let tick_font = TextFont::plain(theme.tick);
    let label_width = tick_font.width(&(n - 1).to_string())?;
    let names = &panel.column_names;
    let x_ticks = if names.len() == columns {
        let mut width = 0;
        for name in names {
            width = width.max(tick_font.width(name)?);
        }
        let stride = tick_stride(columns, side, width + theme.gap);
        (0..columns)
            .step_by(stride)
            .map(|i| (x0 + centre(i, columns, side), names[i].clone()))
            .collect()
    } else {
        let column_width = tick_font.width(&(columns - 1).to_string())?;
        index_ticks(columns, 0, (x0, side), column_width, theme)
    };
    let ticks = [x_ticks, index_ticks(n, 0, (y0, side), label_width, theme)];
    draw_axes(
        area,
        (x0, y0, side, side),
        ticks,
        label_width,
        panel.axes,
        theme,
    )?;
    Ok((y0, side))
}

/// Spacing between labelled indices: every index for `n <= 20`, otherwise the
/// smallest 1-2-5 stride giving at most 11 labels. The stride is widened
/// further if neighbouring labels (`min_px` pixels each) would touch.
pub(super) fn tick_stride(n: usize, side: i32, min_px: i32) -> usize {
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

/// Start of cell `i` of `count` cells tiling `len` pixels, on integer
/// pixels so that the cells tile them exactly.
pub(super) fn edge(i: usize, count: usize, len: i32) -> i32 {
    (i * len as usize / count) as i32
}

/// Centre of cell `i` of `count` cells tiling `len` pixels.
pub(super) fn centre(i: usize, count: usize, len: i32) -> i32 {
    (edge(i, count, len) + edge(i + 1, count, len)) / 2
}

/// One axis's ticks: (pixel along the axis, label).
pub(super) type Ticks = Vec<(i32, String)>;

/// The ticks of `count` index cells tiling `len` pixels from `start`,
/// labelled from `first`, thinned by [`tick_stride`] so that labels
/// `label_width` pixels wide stay apart.
pub(super) fn index_ticks(
    count: usize,
    first: usize,
    (start, len): (i32, i32),
    label_width: i32,
    theme: &Theme,
) -> Ticks {
    let stride = tick_stride(count, len, label_width + theme.gap);
    (0..count)
        .step_by(stride)
        .map(|i| (start + centre(i, count, len), (i + first).to_string()))
        .collect()
}

/// Draws the axes of a chart at `(x0, y0)`, `width × height` pixels: the
/// `x` ticks below it, the `y` ticks left of it, and the axis titles
/// `titles` (x, y) beyond them, shrunk to fit, the y title clear of tick
/// labels `y_label_width` pixels wide. The heatmap, the sampler grids and
/// the inclusion chart draw their axes here.
pub(super) fn draw_axes<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x0, y0, width, height): (i32, i32, i32, i32),
    [x, y]: [Ticks; 2],
    y_label_width: i32,
    titles: [&str; 2],
    theme: &Theme,
) -> Result<(), PlotError> {
    let tick_font = TextFont::plain(theme.tick);
    let below = y0 + height + theme.tick_len;
    for (cx, label) in x {
        draw_line(area, (cx, y0 + height), (cx, below), &FRAME)?;
        let anchor = (HPos::Center, VPos::Top);
        draw_text(
            area,
            &label,
            (cx, below + theme.gap),
            tick_font,
            anchor,
            &TEXT,
        )?;
    }
    let left = x0 - 1 - theme.tick_len;
    for (cy, label) in y {
        draw_line(area, (left, cy), (x0 - 1, cy), &FRAME)?;
        let anchor = (HPos::Right, VPos::Center);
        draw_text(
            area,
            &label,
            (left - theme.gap, cy),
            tick_font,
            anchor,
            &TEXT,
        )?;
    }
    let axis_font = TextFont::plain(theme.axis);
    let x_title_y = below + theme.gap + line_height(theme.tick) + theme.gap;
    draw_text(
        area,
        titles[0],
        (x0 + width / 2, x_title_y),
        axis_font.fit(titles[0], width)?,
        (HPos::Center, VPos::Top),
        &TEXT,
    )?;
    let y_title_x = x0 - theme.tick_len - theme.gap - y_label_width - theme.gap;
    draw_text(
        area,
        titles[1],
        (y_title_x - line_height(theme.axis) / 2, y0 + height / 2),
        TextFont {
            vertical: true,
            ..axis_font
        }
        .fit(titles[1], height)?,
        (HPos::Center, VPos::Center),
        &TEXT,
    )
}

/// A vertical colour bar: the scale's gradient, ticks labelled in × units (a
/// clipped end marked `≥`/`≤` and capped with a triangle), and a rotated
/// title.
pub(super) struct ColourBar<'a> {
    scale: &'a LogScale,
    clipping: Clipping,
    ticks: Vec<Tick>,
    title: String,
    label_width: i32,
    /// Width of the bar's column, padding included.
    pub(super) width: i32,
}

impl<'a> ColourBar<'a> {
    /// The bar of one picture (not a comparison's): `scale`'s, marking
    /// how `ratios` are clipped, titled [`COLOUR_BAR_LABEL`] with the
    /// scale's range in words.
    pub(super) fn single(
        scale: &'a LogScale,
        ratios: &[f64],
        theme: &Theme,
    ) -> Result<Self, PlotError> {
        let title = format!("{COLOUR_BAR_LABEL}: {}", scale.range_words());
        Self::new(scale, scale.clipping(ratios), title, theme)
    }

    /// Lays out the bar for `scale` (with `clipping` marked) and its title.
    pub(super) fn new(
        scale: &'a LogScale,
        clipping: Clipping,
        title: String,
        theme: &Theme,
    ) -> Result<Self, PlotError> {
        let ticks = scale.ticks(clipping);
        let tick_font = TextFont::plain(theme.tick);
        let mut label_width = 0;
        for tick in &ticks {
            label_width = label_width.max(tick_font.width(&tick.label)?);
        }
        let width = theme.gap
            + theme.bar
            + theme.tick_len
            + theme.gap
            + label_width
            + 2 * theme.gap
            + line_height(theme.axis)
            + theme.pad;
        Ok(ColourBar {
            scale,
            clipping,
            ticks,
            title,
            label_width,
            width,
        })
    }

    /// Draws the bar into `area` (at least [`ColourBar::width`] wide),
    /// spanning rows `top..top + height`, `1/X` at the bottom and `X` at the
    /// top.
    pub(super) fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        top: i32,
        height: i32,
        theme: &Theme,
    ) -> Result<(), PlotError> {
        let x = theme.gap;
        let last = (height - 1).max(1);
        let at = |t: f64| top + ((1.0 - t) / 2.0 * f64::from(last)).round() as i32;
        for row in 0..height {
            let t = 1.0 - 2.0 * f64::from(row) / f64::from(last);
            fill_rect(
                area,
                (x, top + row),
                (x + theme.bar, top + row + 1),
                rgb(super::scale::colour_at(t)),
            )?;
        }
        draw_frame(area, (x, top), (theme.bar, height))?;

        // Triangular caps on clipped ends: values lie beyond.
        let cap = (theme.bar * 4 / 5).max(4);
        let mid = x + theme.bar / 2;
        let ends = [
            (self.clipping.above, top - 1, -cap, 1.0),
            (self.clipping.below, top + height, cap, -1.0),
        ];
        for (clipped, base, reach, t) in ends {
            if !clipped {
                continue;
            }
            let points = vec![(x - 1, base), (mid, base + reach), (x + theme.bar, base)];
            let colour = rgb(self.scale.colour(self.scale.limit().powf(t)));
            area.draw(&Polygon::new(points.clone(), colour.filled()))
                .map_err(plot_err)?;
            area.draw(&PathElement::new(points, FRAME.stroke_width(1)))
                .map_err(plot_err)?;
        }

        let tick_font = TextFont::plain(theme.tick);
        let right = x + theme.bar;
        for tick in &self.ticks {
            let y = at(tick.position);
            draw_line(area, (right, y), (right + theme.tick_len, y), &FRAME)?;
            draw_text(
                area,
                &tick.label,
                (right + theme.tick_len + theme.gap, y),
                tick_font,
                (HPos::Left, VPos::Center),
                &TEXT,
            )?;
        }

        let title_x = right + theme.tick_len + theme.gap + self.label_width + 2 * theme.gap;
        let font = TextFont {
            vertical: true,
            ..TextFont::plain(theme.axis)
        }
        .fit(&self.title, height + 2 * cap)?;
        draw_text(
            area,
            &self.title,
            (title_x + line_height(theme.axis) / 2, top + height / 2),
            font,
            (HPos::Center, VPos::Center),
            &TEXT,
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::plot::png::tests::decode;

    /// A panel with a mild deterministic pattern around 1.0.
    pub(crate) fn panel(n: usize, name: &str, verdict: Option<Verdict>) -> HeatmapPanel {
        let ratios = (0..n * n)
            .map(|i| 1.0 + 0.05 * ((i as f64) * 0.7).sin())
            .collect();
        HeatmapPanel {
            n,
            columns: n,
            ratios,
            title: vec![
                format!("{name}  n={n}  T=1,000,000"),
                "p = 0.42 by cycles".to_string(),
                "this map: Q = 80.1, df 81, p = 0.51".to_string(),
            ],
            verdict,
            axes: DECK_AXES,
            column_names: Vec::new(),
        }
    }

    /// The pixel at `(x, y)` of a decoded image `width` wide.
    fn pixel(pixels: &[u8], width: u32, (x, y): (u32, u32)) -> (u8, u8, u8) {
        let i = ((y * width + x) * 3) as usize;
        (pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// Counts pixels of exactly `colour`.
    pub(crate) fn count(pixels: &[u8], RGBColor(r, g, b): RGBColor) -> usize {
        pixels.chunks_exact(3).filter(|p| p == &[r, g, b]).count()
    }

    #[test]
    fn writes_a_png_of_the_stated_size() {
        let scale = LogScale::new(1.25).unwrap();
        for n in [3, 10, 52] {
            let bytes = draw_heatmap(&panel(n, "fisher-yates", Some(Verdict::Biased)), &scale)
                .expect("draw");
            let (w, h, pixels) = decode(&bytes);
            assert_eq!((w, h), SINGLE_SIZE);
            assert_eq!(pixel(&pixels, w, (0, 0)), (255, 255, 255));
            assert!(
                count(&pixels, Badge::of(Verdict::Biased).fill) > 500,
                "the red badge is drawn"
            );
        }
    }

    #[test]
    fn badges_name_and_colour_every_verdict() {
        let biased = Badge::of(Verdict::Biased);
        assert_eq!(biased.words, "✗ biased");
        assert!(
            biased.fill.0 > 150 && biased.fill.1 < 60 && biased.fill.2 < 60,
            "red"
        );
        let fair = Badge::of(Verdict::NoBiasDetected);
        assert_eq!(fair.words, "✓ no bias detected");
        assert!(
            fair.fill.1 > fair.fill.0 + 60 && fair.fill.1 > fair.fill.2 + 40,
            "green"
        );
        let unsure = Badge::of(Verdict::Inconclusive);
        assert_eq!(unsure.words, "? inconclusive");
        assert!(
            unsure.fill.0 > 200 && unsure.fill.1 > 150 && unsure.fill.2 < 60,
            "amber"
        );
        // Text contrast with the box (WCAG relative luminance) at least 4.5:1.
        let luminance = |RGBColor(r, g, b): RGBColor| {
            let l = |c: u8| {
                let c = f64::from(c) / 255.0;
                if c <= 0.04045 {
                    c / 12.92
                } else {
                    ((c + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * l(r) + 0.7152 * l(g) + 0.0722 * l(b)
        };
        for verdict in Verdict::ALL {
            let badge = Badge::of(verdict);
            let (a, b) = (luminance(badge.fill), luminance(badge.ink));
            let contrast = (a.max(b) + 0.05) / (a.min(b) + 0.05);
            assert!(contrast >= 4.5, "{verdict:?}: {contrast}");
        }
    }

    #[test]
    fn a_pale_biased_panel_still_shows_its_verdict() {
        // A faint bias is nearly white on the scale, but its badge is drawn in full.
        let mut faint = panel(10, "msvc-rand", Some(Verdict::Biased));
        faint.ratios = vec![1.002; 100];
        let bytes = draw_heatmap(&faint, &LogScale::new(2.0).unwrap()).unwrap();
        let (_, _, pixels) = decode(&bytes);
        assert!(count(&pixels, Badge::of(Verdict::Biased).fill) > 500);
        assert_eq!(count(&pixels, Badge::of(Verdict::NoBiasDetected).fill), 0);
        let mut none = faint.clone();
        none.verdict = None;
        let (_, _, pixels) = decode(&draw_heatmap(&none, &LogScale::new(2.0).unwrap()).unwrap());
        assert_eq!(
            count(&pixels, Badge::of(Verdict::Biased).fill),
            0,
            "no verdict, no badge"
        );
    }

    #[test]
    fn rejects_bad_panels() {
        let bad = HeatmapPanel {
            n: 3,
            columns: 3,
            ratios: vec![1.0; 8],
            title: Vec::new(),
            verdict: None,
            axes: DECK_AXES,
            column_names: Vec::new(),
        };
        assert!(draw_heatmap(&bad, &LogScale::new(1.25).unwrap()).is_err());
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

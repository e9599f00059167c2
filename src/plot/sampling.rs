//! Pictures of sampler audits (issue 10 §4): how often each item, pair of
//! items or board cell was taken, against how often a fair sampler takes it.
//!
//! - [`draw_inclusion`]: observed/expected inclusion per item, as stems on a
//!   log axis centred on 1×, over the band a fair sampler stays within;
//! - [`draw_pairs`]: the N×N symmetric heatmap of pair inclusion;
//! - [`draw_board`]: a minesweeper board, each cell coloured by how often it
//!   held a mine;
//! - [`draw_slots`]: the slot-by-item matrix of an ordered sampler, `k` rows
//!   by `N` columns ([`HeatmapPanel`](super::HeatmapPanel) holds a square
//!   matrix only).
//!
//! They look like the position-by-value heatmap ([`super::heatmap`]): the
//! same width, fonts, title block and verdict badge; the three heatmaps use
//! the same [`LogScale`] colours and colour bar. Like the rest of
//! [`super`], they take numbers, not tallies, and return PNG bytes.
//!
//! When a grid has more cells than pixels, each pixel shows the most extreme
//! cell it covers (the largest `|ln(O/E)|`), and each pixel column of the
//! inclusion chart spans every item it covers, so that a lone outlier is
//! never averaged or drawn away.

use std::ops::Range;

use plotters::backend::DrawingBackend;
use plotters::coord::Shift;
use plotters::drawing::DrawingArea;
use plotters::element::{Circle, Polygon};
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{Color, RGBColor};

use super::heatmap::{
    ColourBar, FRAME, Header, Margins, SINGLE_SIZE, TEXT, Theme, draw_axes, draw_frame, draw_line,
    edge, fill_rect, index_ticks, rgb,
};
use super::png::render;
use super::scale::{Clipping, LogScale, MAX_LIMIT};
use super::text::{TextFont, draw_text, line_height};
use super::{PlotError, plot_err};
use crate::stats::Verdict;
use crate::subsets::pair_index;

/// Size of the image drawn by [`draw_inclusion`], in pixels: as wide as a
/// heatmap.
pub const INCLUSION_SIZE: (u32, u32) = (SINGLE_SIZE.0, 600);

/// Colour of a cell that holds no ratio (the diagonal of [`draw_pairs`]: an
/// item is not paired with itself): a light neutral grey, lighter than the
/// grey of a NaN ratio ([`super::scale::NAN_GREY`]).
pub const BLANK_GREY: (u8, u8, u8) = (215, 215, 215);

/// Stem and dot of an item inside its band.
const INSIDE: RGBColor = RGBColor(80, 80, 80);
/// Stem and dot of an item above its band (the palette's red at 0.8).
const ABOVE: RGBColor = RGBColor(184, 32, 47);
/// Stem and dot of an item below its band (the palette's blue at 0.8).
const BELOW: RGBColor = RGBColor(23, 97, 166);
/// The band: this grey at [`BAND_ALPHA`] over white (as the mixing chart's
/// bias floor), drawn opaque over the grid lines.
const BAND: RGBColor = RGBColor(120, 120, 120);
const BAND_ALPHA: f64 = 0.2;
/// Horizontal grid lines of the inclusion chart.
const GRID: RGBColor = RGBColor(232, 232, 232);
/// Title of the inclusion chart's y axis.
const INCLUSION_Y_TITLE: &str = "observed / expected inclusion (log scale)";
/// The shortest colour bar next to a wide, flat grid, in pixels, so that its
/// five labels stay apart.
const MIN_BAR_HEIGHT: i32 = 240;
/// Pixels kept free above and below the inclusion chart's range, so that the
/// marks of clipped values fit inside the frame.
const CHART_INSET: i32 = 7;

/// The inclusion chart's data: one observed/expected inclusion ratio per
/// item, with the band a fair sampler's ratio stays within.
#[derive(Debug, Clone)]
pub struct InclusionPanel {
    /// Title lines: the first (bold) names what was run; the verdict badge
    /// (if any) comes next; further lines follow below it (as
    /// [`HeatmapPanel::title`](super::HeatmapPanel::title)).
    pub title: Vec<String>,
    /// `ratios[item]`: how often the item was taken over how often a fair
    /// sampler takes it; 1.0 is as expected, NaN is drawn as nothing.
    pub ratios: Vec<f64>,
    /// `band[item] = (low, high)`, in O/E units: the range a fair sampler's
    /// ratio stays within (for instance `1 ± z·sd`, computed by the caller).
    /// A low end at or below 0 is drawn at the bottom of the chart.
    pub band: Vec<(f64, f64)>,
    /// The verdict shown as a badge; `None` where there is none (exact laws).
    pub verdict: Option<Verdict>,
    /// Title of the x axis (`item`, `cell`, `index`).
    pub x_label: String,
    /// The number written for item 0 in tick labels: 1 for items an
    /// outside sampler numbered from 1, else 0.
    pub first: usize,
}

/// The pair heatmap's data: one observed/expected ratio per unordered pair
/// of items.
#[derive(Debug, Clone)]
pub struct PairsPanel {
    /// Number of items, at least 2.
    pub n: usize,
    /// The upper triangle, flat, in the order of [`pair_index`]: (0,1),
    /// (0,2), …, (0,n−1), (1,2), …, (n−2,n−1); `n(n−1)/2` ratios.
    pub ratios: Vec<f64>,
    /// The number written for item 0 in tick labels (as
    /// [`InclusionPanel::first`]).
    pub first: usize,
    /// Title lines, as [`InclusionPanel::title`].
    pub title: Vec<String>,
    /// The verdict shown as a badge; `None` where there is none.
    pub verdict: Option<Verdict>,
}

/// The board picture's data: one observed/expected ratio per cell of a
/// `w × h` board.
#[derive(Debug, Clone)]
pub struct BoardPanel {
    /// Width (columns), at least 1.
    pub w: usize,
    /// Height (rows), at least 1.
    pub h: usize,
    /// `ratios[row * w + col]`: how often the cell was taken (held a mine)
    /// over how often a fair sampler takes it; `w·h` ratios.
    pub ratios: Vec<f64>,
    /// Title lines, as [`InclusionPanel::title`].
    pub title: Vec<String>,
    /// The verdict shown as a badge; `None` where there is none.
    pub verdict: Option<Verdict>,
}

/// The slot-by-item matrix of an ordered sampler: for each slot of the
/// sample (first pick, second pick, …) and each item, how often that item
/// was in that slot over how often a fair sampler puts it there.
#[derive(Debug, Clone)]
pub struct SlotsPanel {
    /// Slots (rows), at least 1.
    pub k: usize,
    /// Items (columns), at least 1.
    pub n: usize,
    /// `ratios[slot * n + item]`; `k·n` ratios.
    pub ratios: Vec<f64>,
    /// Title lines, as [`InclusionPanel::title`].
    pub title: Vec<String>,
    /// The verdict shown as a badge; `None` where there is none.
    pub verdict: Option<Verdict>,
}

/// Draws the inclusion chart as a PNG (800×600 px) and returns its bytes.
///
/// What it shows: one stem per item (x = item, left to right), rising from
/// the 1× line to the item's observed/expected inclusion on a log axis
/// centred on 1× (so 0.8× lies as far below as 1.25× above), over a grey
/// band: where a fair sampler's ratio stays (the `band` given per item).
/// Stems inside their band are dark grey, above it red, below it blue; a
/// value beyond the axis (it reaches 0.5× and 2× at most) is drawn as a
/// triangle at the edge, and the axis end is labelled `≤`/`≥`.
///
/// How to read it: a fair sampler's stems scatter inside the band, none red
/// or blue but by the chance the band allows; a biased item stands out in
/// colour, and a pattern along x (a slope, every other item) points at the
/// algorithm. Small items each get a stem and a dot; with more items than
/// pixels each pixel column spans every item it covers, coloured by the one
/// furthest outside its band. The title block and verdict badge are as on a
/// heatmap; the legend under the axis names the marks.
///
/// Fails if there are no items, if `band` does not hold one range per item,
/// if a range is NaN or has its low end above its high end, or if a ratio is
/// negative.
pub fn draw_inclusion(panel: &InclusionPanel) -> Result<Vec<u8>, PlotError> {
    check_inclusion(panel)?;
    let axis = inclusion_axis(panel);
    let clipping = axis.clipping(&panel.ratios);
    render(INCLUSION_SIZE, |root| {
        draw_inclusion_chart(root, panel, &axis, clipping)
    })
}

/// Draws the pair heatmap as a PNG (800×750 px, as [`draw_heatmap`]) and
/// returns its bytes.
///
/// What it shows: an `n × n` matrix, row and column both items, each cell
/// (i, j) coloured by `scale` for how often items i and j were taken
/// together over how often a fair sampler takes them together (blue = too
/// rarely, white = as expected, red = too often), mirrored about the
/// diagonal, which is light grey ([`BLANK_GREY`]: no item pairs with
/// itself). The title, verdict badge and colour bar are as on
/// [`draw_heatmap`].
///
/// How to read it: a fair sampler's matrix is a pale speckle; stripes
/// parallel to the diagonal mean pairs at a fixed distance are favoured or
/// shunned (systematic sampling takes only items a stride apart), a block
/// means neighbours go together, a row means one item pairs unevenly.
///
/// Fails unless `n >= 2` and `ratios` holds `n(n−1)/2` values.
///
/// [`draw_heatmap`]: super::draw_heatmap
pub fn draw_pairs(panel: &PairsPanel, scale: &LogScale) -> Result<Vec<u8>, PlotError> {
    check_pairs(panel)?;
    let n = panel.n;
    let cell = |i: usize, j: usize| pair_cell(n, &panel.ratios, i, j);
    let grid = Grid {
        rows: n,
        cols: n,
        cell: &cell,
        row_title: "item",
        col_title: "item",
        square_cells: true,
        first: panel.first,
        header: Header::new(&panel.title, panel.verdict),
    };
    draw_grid(&grid, &panel.ratios, scale)
}

/// Draws the board picture as a PNG (800 px wide, at most 750 px high) and
/// returns its bytes.
///
/// What it shows: the `w × h` board as the player sees it (row 0 at the
/// top, column 0 at the left), square cells, each coloured by `scale` for
/// how often the cell held a mine over how often a fair placement puts one
/// there (blue = too rarely, white = as expected, red = too often), with the
/// title, verdict badge and colour bar of [`draw_heatmap`]. A board wider
/// than tall leaves no white space below: the image is cut to fit.
///
/// How to read it: a fair board is a pale speckle; a biased one shows where
/// its mines go: the first or last cells (a gradient down the board),
/// corners, the first row.
///
/// Fails unless `w, h >= 1` and `ratios` holds `w·h` values.
///
/// [`draw_heatmap`]: super::draw_heatmap
pub fn draw_board(panel: &BoardPanel, scale: &LogScale) -> Result<Vec<u8>, PlotError> {
    check_matrix("board", (panel.h, panel.w), panel.ratios.len(), "w·h")?;
    let w = panel.w;
    let cell = |row: usize, col: usize| Cell::Ratio(panel.ratios[row * w + col]);
    let grid = Grid {
        rows: panel.h,
        cols: panel.w,
        cell: &cell,
        row_title: "row",
        col_title: "column",
        square_cells: true,
        first: 0,
        header: Header::new(&panel.title, panel.verdict),
    };
    draw_grid(&grid, &panel.ratios, scale)
}

/// Draws the slot-by-item matrix of an ordered sampler as a PNG (800×750 px,
/// as [`draw_heatmap`]) and returns its bytes.
///
/// What it shows: `k` rows (slot 0, the first pick, at the top) by `n`
/// columns (items), filling the square a heatmap's matrix fills, so cells
/// are as wide as `n` allows and as tall as `k` allows; each coloured by
/// `scale` for how often the item was in that slot over how often a fair
/// sampler puts it there, with the title, verdict badge and colour bar of
/// [`draw_heatmap`].
///
/// How to read it: as the position-by-value heatmap, one row per slot: a
/// fair ordered sampler is pale; a red diagonal band means items tend to
/// keep their order (the first slot holds small items), a coloured row means
/// one slot is drawn unevenly.
///
/// Fails unless `k, n >= 1` and `ratios` holds `k·n` values.
///
/// [`draw_heatmap`]: super::draw_heatmap
pub fn draw_slots(panel: &SlotsPanel, scale: &LogScale) -> Result<Vec<u8>, PlotError> {
    check_matrix("slot matrix", (panel.k, panel.n), panel.ratios.len(), "k·n")?;
    let n = panel.n;
    let cell = |slot: usize, item: usize| Cell::Ratio(panel.ratios[slot * n + item]);
    let grid = Grid {
        rows: panel.k,
        cols: panel.n,
        cell: &cell,
        row_title: "slot",
        col_title: "item",
        square_cells: false,
        first: 0,
        header: Header::new(&panel.title, panel.verdict),
    };
    draw_grid(&grid, &panel.ratios, scale)
}

// ---------------------------------------------------------------------------
// Checks.

/// Rejects inclusion panels whose numbers do not fit together.
fn check_inclusion(panel: &InclusionPanel) -> Result<(), PlotError> {
    let n = panel.ratios.len();
    if n == 0 {
        return Err(PlotError("inclusion chart with no items".to_string()));
    }
    if panel.band.len() != n {
        return Err(PlotError(format!(
            "inclusion chart with {n} ratios but {} bands, expected one band per item",
            panel.band.len()
        )));
    }
    if let Some((item, (low, high))) = panel
        .band
        .iter()
        .enumerate()
        .find(|(_, (low, high))| low.is_nan() || high.is_nan() || low > high)
    {
        return Err(PlotError(format!(
            "item {item} has the band ({low}, {high}), expected low <= high"
        )));
    }
    if let Some((item, r)) = panel.ratios.iter().enumerate().find(|(_, r)| **r < 0.0) {
        return Err(PlotError(format!("item {item} has the negative ratio {r}")));
    }
    Ok(())
}

/// Rejects pair panels whose ratios are not one per pair.
fn check_pairs(panel: &PairsPanel) -> Result<(), PlotError> {
    if panel.n < 2 {
        return Err(PlotError(format!(
            "pair heatmap with n = {}, expected at least 2 items",
            panel.n
        )));
    }
    let pairs = panel
        .n
        .checked_mul(panel.n - 1)
        .map(|twice| twice / 2)
        .ok_or_else(|| PlotError(format!("pair heatmap with n = {} is too large", panel.n)))?;
    if panel.ratios.len() != pairs {
        return Err(PlotError(format!(
            "pair heatmap with n = {} has {} ratios, expected n(n-1)/2 = {pairs}",
            panel.n,
            panel.ratios.len()
        )));
    }
    Ok(())
}

/// Rejects a `rows × cols` matrix (`product` names it) without exactly
/// `rows · cols` ratios.
fn check_matrix(
    what: &str,
    (rows, cols): (usize, usize),
    len: usize,
    product: &str,
) -> Result<(), PlotError> {
    if rows == 0 || cols == 0 {
        return Err(PlotError(format!("{what} of {cols}×{rows} cells is empty")));
    }
    if rows.checked_mul(cols) != Some(len) {
        return Err(PlotError(format!(
            "{what} of {cols}×{rows} cells has {len} ratios, expected {product}"
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Small drawing helpers.

/// How `count` cells share `len` pixels, as `(first pixel, end pixel,
/// cells)`: one run of whole pixels per cell when every cell gets a pixel,
/// otherwise one pixel per run, listing every cell that overlaps it.
fn runs(count: usize, len: i32) -> Vec<(i32, i32, Range<usize>)> {
    let pixels = len.max(0) as usize;
    if count <= pixels {
        (0..count)
            .map(|i| (edge(i, count, len), edge(i + 1, count, len), i..i + 1))
            .collect()
    } else {
        (0..pixels)
            .map(|p| {
                let first = p * count / pixels;
                let end = ((p + 1) * count).div_ceil(pixels);
                (p as i32, p as i32 + 1, first..end)
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------
// Grids: pairs, boards, slot matrices.

/// What one cell of a grid holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Cell {
    /// An observed/expected ratio, coloured by the scale.
    Ratio(f64),
    /// Nothing to show (drawn [`BLANK_GREY`]).
    Blank,
}

impl Cell {
    /// How strongly the cell should show when it shares a pixel with
    /// others: any ratio before a NaN before a blank, the largest `|ln r|`
    /// first.
    fn salience(self) -> (u8, f64) {
        match self {
            Cell::Ratio(r) if r.is_nan() => (1, 0.0),
            Cell::Ratio(r) => (2, r.ln().abs()),
            Cell::Blank => (0, 0.0),
        }
    }

    /// The most salient of `cells` ([`Cell::Blank`] if there are none).
    fn most_salient(cells: impl Iterator<Item = Cell>) -> Cell {
        cells.fold(Cell::Blank, |best, c| {
            if c.salience() > best.salience() {
                c
            } else {
                best
            }
        })
    }

    /// The cell's colour on `scale`.
    fn colour(self, scale: &LogScale) -> RGBColor {
        match self {
            Cell::Ratio(r) => rgb(scale.colour(r)),
            Cell::Blank => rgb(BLANK_GREY),
        }
    }
}

/// Cell (i, j) of the mirrored pair matrix: the ratio of pair (min, max),
/// blank on the diagonal.
fn pair_cell(n: usize, ratios: &[f64], i: usize, j: usize) -> Cell {
    if i == j {
        Cell::Blank
    } else {
        Cell::Ratio(ratios[pair_index(n, i.min(j), i.max(j))])
    }
}

/// A matrix of cells to draw as a heatmap (the shared part of
/// [`draw_pairs`], [`draw_board`] and [`draw_slots`]).
struct Grid<'a> {
    rows: usize,
    cols: usize,
    /// The cell at (row, column).
    cell: &'a dyn Fn(usize, usize) -> Cell,
    /// Title of the y axis (rows, top to bottom).
    row_title: &'a str,
    /// Title of the x axis (columns, left to right).
    col_title: &'a str,
    /// Square cells (a board, the pair matrix); otherwise the cells stretch
    /// to fill the heatmap's square.
    square_cells: bool,
    /// The number written for item 0 in tick labels (1 for items an
    /// outside sampler numbered from 1); 0 for rows and columns that are not
    /// items.
    first: usize,
    header: Header<'a>,
}

/// Where a grid goes in its picture.
#[derive(Debug, Clone, Copy, PartialEq)]
struct GridLayout {
    /// Top left corner of the matrix.
    x0: i32,
    y0: i32,
    /// Matrix width and height.
    width: i32,
    height: i32,
    /// Height of the colour bar, from `y0` down.
    bar_height: i32,
    /// Height of the image.
    image_height: i32,
}

impl GridLayout {
    /// Lays out `grid` in an area `area_width` wide (the image less its
    /// colour bar) under a title block `title` high: as the heatmap places
    /// its square matrix (same margins, same square), the grid is fitted
    /// into the free area with square cells or stretched over the square.
    /// An image whose grid and bar leave the bottom of the square unused is
    /// cut by that much.
    fn new(grid: &Grid, theme: &Theme, title: i32, area_width: i32) -> Result<Self, PlotError> {
        let m = Margins::new(theme, grid.rows.max(grid.cols), title)?;
        let full_height = SINGLE_SIZE.1 as i32;
        let free_width = area_width - m.left - m.right;
        let free_height = full_height - m.top - m.bottom;
        let side = free_width.min(free_height);
        if side < 1 {
            return Err(PlotError("drawing area too small for the grid".to_string()));
        }
        let (width, height) = if !grid.square_cells {
            (side, side)
        } else {
            // Integer arithmetic so that an n × n grid gets exactly the side.
            let (rows, cols) = (grid.rows as i64, grid.cols as i64);
            let (fw, fh) = (i64::from(free_width), i64::from(free_height));
            if fw * rows <= fh * cols {
                (free_width, (fw * rows / cols).max(1) as i32)
            } else {
                ((fh * cols / rows).max(1) as i32, free_height)
            }
        };
        let bar_height = height.max(MIN_BAR_HEIGHT.min(free_height));
        let unused = (side - height.max(bar_height)).max(0);
        Ok(GridLayout {
            x0: m.left + (free_width - width) / 2,
            y0: m.top,
            width,
            height,
            bar_height,
            image_height: full_height - unused,
        })
    }
}

/// Draws `grid` (its ratios, for the colour bar's clipping marks, in
/// `ratios`) on `scale` with a colour bar, as [`super::draw_heatmap`] draws
/// its matrix.
fn draw_grid(grid: &Grid, ratios: &[f64], scale: &LogScale) -> Result<Vec<u8>, PlotError> {
    let theme = Theme::scaled(1.0);
    let bar = ColourBar::single(scale, ratios, &theme)?;
    let area_width = SINGLE_SIZE.0 as i32 - bar.width;
    let layout = GridLayout::new(grid, &theme, grid.header.height(&theme), area_width)?;
    render((SINGLE_SIZE.0, layout.image_height as u32), |root| {
        let (matrix_area, bar_area) = root.split_horizontally(area_width);
        draw_grid_panel(&matrix_area, grid, &layout, scale, &theme)?;
        bar.draw(&bar_area, layout.y0, layout.bar_height, &theme)
    })
}

/// Draws the title block, the cells, the frame, ticks and axis titles of
/// `grid` into `area` where `layout` puts them.
fn draw_grid_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    grid: &Grid,
    layout: &GridLayout,
    scale: &LogScale,
    theme: &Theme,
) -> Result<(), PlotError> {
    let &GridLayout {
        x0,
        y0,
        width,
        height,
        ..
    } = layout;
    let area_width = area.dim_in_pixel().0 as i32;
    grid.header
        .draw(area, (x0 + width / 2, area_width), theme)?;

    // Cells: one rectangle per cell, or per pixel showing its most salient cell.
    let columns = runs(grid.cols, width);
    for (top, bottom, rows) in runs(grid.rows, height) {
        for (left, right, cols) in &columns {
            let cells = rows
                .clone()
                .flat_map(|r| cols.clone().map(move |c| (r, c)))
                .map(|(r, c)| (grid.cell)(r, c));
            fill_rect(
                area,
                (x0 + left, y0 + top),
                (x0 + right, y0 + bottom),
                Cell::most_salient(cells).colour(scale),
            )?;
        }
    }
    draw_frame(area, (x0, y0), (width, height))?;

    // Ticks and labels, thinned as the heatmap's, and the axis titles.
    let widest = (grid.rows.max(grid.cols) - 1 + grid.first).to_string();
    let label_width = TextFont::plain(theme.tick).width(&widest)?;
    let ticks = [
        index_ticks(grid.cols, grid.first, (x0, width), label_width, theme),
        index_ticks(grid.rows, grid.first, (y0, height), label_width, theme),
    ];
    let titles = [grid.col_title, grid.row_title];
    draw_axes(
        area,
        (x0, y0, width, height),
        ticks,
        label_width,
        titles,
        theme,
    )
}

// ---------------------------------------------------------------------------
// The inclusion chart.

/// The inclusion chart's y axis: the narrowest round log-symmetric range
/// (1.001×, 1.002×, 1.005×, 1.01×, … 1.5×, 2×) holding every ratio and band
/// end with a little room, at most 2× (beyond it values are clipped and
/// marked).
fn inclusion_axis(panel: &InclusionPanel) -> LogScale {
    let widest = panel
        .ratios
        .iter()
        .chain(panel.band.iter().flat_map(|(low, high)| [low, high]))
        .filter(|v| v.is_finite() && **v > 0.0)
        .map(|v| v.ln().abs())
        .fold(0.0, f64::max);
    let wanted = widest * 1.08;
    let limit = (-3..=0)
        .flat_map(|e| [1.0, 2.0, 5.0].map(|d| 1.0 + d * 10f64.powi(e)))
        .filter(|x| *x <= MAX_LIMIT)
        .find(|x| x.ln() >= wanted)
        .unwrap_or(MAX_LIMIT);
    // Exactly `limit` (in (1, MAX_LIMIT]), without a Result to handle.
    LogScale::fit(&[limit], limit)
}

/// Whether `r` lies beyond the axis (as [`LogScale::clipping`] decides).
fn beyond(axis: &LogScale, r: f64) -> bool {
    r.ln().abs() > axis.limit().ln() * (1.0 + 1e-9)
}

/// Where an item stands against its band.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Standing {
    Inside,
    Below,
    Above,
}

impl Standing {
    fn of(ratio: f64, (low, high): (f64, f64)) -> Self {
        if ratio > high {
            Standing::Above
        } else if ratio < low {
            Standing::Below
        } else {
            Standing::Inside
        }
    }

    fn colour(self) -> RGBColor {
        match self {
            Standing::Inside => INSIDE,
            Standing::Below => BELOW,
            Standing::Above => ABOVE,
        }
    }
}

/// The inclusion chart's geometry: the plot rectangle and the y mapping.
struct Chart<'a> {
    axis: &'a LogScale,
    x0: i32,
    y0: i32,
    width: i32,
    height: i32,
}

impl Chart<'_> {
    /// The pixel row of ratio `r` (clamped to the axis; a ratio at or below
    /// 0 at the bottom).
    fn y(&self, r: f64) -> i32 {
        let t = if r <= 0.0 {
            -1.0
        } else {
            self.axis.position(r)
        };
        self.y_at(t)
    }

    /// The pixel row of axis position `t` in `[-1, 1]`.
    fn y_at(&self, t: f64) -> i32 {
        let span = f64::from(self.height - 1 - 2 * CHART_INSET);
        self.y0 + CHART_INSET + ((1.0 - t) / 2.0 * span).round() as i32
    }
}

/// Draws [`draw_inclusion`]'s chart into `root`.
fn draw_inclusion_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    panel: &InclusionPanel,
    axis: &LogScale,
    clipping: Clipping,
) -> Result<(), PlotError> {
    let theme = Theme::scaled(1.0);
    let header = Header::new(&panel.title, panel.verdict);
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let n = panel.ratios.len();
    let tick_font = TextFont::plain(theme.tick);
    let ticks = axis.ticks(clipping);
    let mut y_label_width = 0;
    for tick in &ticks {
        y_label_width = y_label_width.max(tick_font.width(&tick.label)?);
    }
    let m = Margins::around(&theme, y_label_width, header.height(&theme));
    let legend_y = h - theme.pad - line_height(theme.tick);
    // The legend's row goes under the axis title.
    let bottom = m.bottom + 2 * theme.gap + line_height(theme.tick);
    let chart = Chart {
        axis,
        x0: m.left,
        y0: m.top,
        width: w - m.left - m.right,
        height: h - m.top - bottom,
    };
    if chart.width < 1 || chart.height < 2 * CHART_INSET + 2 {
        return Err(PlotError(
            "drawing area too small for the inclusion chart".to_string(),
        ));
    }
    let (x0, y0, pw, ph) = (chart.x0, chart.y0, chart.width, chart.height);
    header.draw(root, (x0 + pw / 2, w), &theme)?;

    // Grid lines at the ticks, then the band over them, then the 1× line.
    for tick in &ticks {
        let y = chart.y_at(tick.position);
        draw_line(root, (x0, y), (x0 + pw - 1, y), &GRID)?;
    }
    let columns = runs(n, pw);
    for (start, end, items) in &columns {
        let low = items
            .clone()
            .map(|i| panel.band[i].0)
            .fold(f64::INFINITY, f64::min);
        let high = items.clone().map(|i| panel.band[i].1).fold(0.0, f64::max);
        let (top, bottom) = (chart.y(high), chart.y(low));
        fill_rect(
            root,
            (x0 + start, top),
            (x0 + end, bottom + 1),
            rgb(band_on_white()),
        )?;
    }
    let one = chart.y(1.0);
    draw_line(root, (x0, one), (x0 + pw - 1, one), &FRAME)?;

    // Stems from 1× to the ratio, one per item or per pixel column (then
    // spanning every item the column covers, coloured by the one furthest
    // outside its band).
    let slot = f64::from(pw) / n as f64;
    let (stem, dot) = if slot >= 5.0 {
        (2, Some((slot / 3.0).clamp(2.0, 4.0).round() as i32))
    } else {
        (1, None)
    };
    let per_item = n as i64 <= i64::from(pw);
    let mut tips: Vec<(i32, f64, Standing)> = Vec::new();
    for (start, end, items) in &columns {
        let x = x0 + if per_item { (start + end) / 2 } else { *start };
        let first = tips.len();
        for i in items.clone().filter(|&i| !panel.ratios[i].is_nan()) {
            let r = panel.ratios[i];
            tips.push((x, r, Standing::of(r, panel.band[i])));
        }
        let valued = &tips[first..];
        let Some(standing) = valued.iter().map(|t| t.2).max() else {
            continue;
        };
        let lo = valued.iter().map(|t| t.1).fold(1.0, f64::min);
        let hi = valued.iter().map(|t| t.1).fold(1.0, f64::max);
        let (x_left, x_right) = if stem == 2 {
            (x - 1, x + 1)
        } else {
            (x, x + 1)
        };
        let (top, bottom) = (chart.y(hi), chart.y(lo) + 1);
        fill_rect(root, (x_left, top), (x_right, bottom), standing.colour())?;
    }
    // Tips over all the stems, items outside their band last (on top): a
    // dot where items are wide enough, and for those outside always; a
    // triangle at the edge, pointing the way the value lies, for a value
    // beyond the axis.
    tips.sort_by_key(|t| t.2 != Standing::Inside);
    for (x, r, standing) in tips {
        let colour = standing.colour().filled();
        if beyond(axis, r) {
            let reach = if r > 1.0 { -CHART_INSET } else { CHART_INSET };
            let (base, half) = (chart.y(r), CHART_INSET - 1);
            let points = vec![(x - half, base), (x, base + reach), (x + half, base)];
            root.draw(&Polygon::new(points, colour)).map_err(plot_err)?;
        } else if let Some(radius) = dot.or((standing != Standing::Inside).then_some(2)) {
            root.draw(&Circle::new((x, chart.y(r)), radius, colour))
                .map_err(plot_err)?;
        }
    }
    draw_frame(root, (x0, y0), (pw, ph))?;

    // Ticks: items along x, thinned as the heatmap's, ratios in × units
    // along y; the y title sits a pixel further out than a grid's.
    let label_width = tick_font.width(&(n - 1 + panel.first).to_string())?;
    let x_ticks = index_ticks(n, panel.first, (x0, pw), label_width, &theme);
    let y_ticks = ticks
        .into_iter()
        .map(|t| (chart.y_at(t.position), t.label))
        .collect();
    let titles = [panel.x_label.as_str(), INCLUSION_Y_TITLE];
    let rect = (x0, y0, pw, ph);
    draw_axes(
        root,
        rect,
        [x_ticks, y_ticks],
        y_label_width + 1,
        titles,
        &theme,
    )?;
    draw_legend(root, (x0 + pw / 2, legend_y), &theme)
}

/// The inclusion chart's legend: one row of marks and words centred on
/// `cx`, its text top at `y`.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (cx, y): (i32, i32),
    theme: &Theme,
) -> Result<(), PlotError> {
    let entries = [
        (None, "band a fair sampler stays within"),
        (Some(INSIDE), "inside"),
        (Some(ABOVE), "above the band"),
        (Some(BELOW), "below the band"),
    ];
    let font = TextFont::plain(theme.tick);
    let mark = line_height(theme.tick);
    let spacing = 3 * theme.gap;
    let mut widths = Vec::with_capacity(entries.len());
    for (_, words) in entries {
        widths.push(mark + theme.gap + font.width(words)?);
    }
    let total: i32 = widths.iter().sum::<i32>() + spacing * (entries.len() as i32 - 1);
    let mut x = cx - total / 2;
    let mid = y + (theme.tick * 0.35).round() as i32;
    for ((colour, words), width) in entries.into_iter().zip(widths) {
        match colour {
            None => {
                fill_rect(
                    area,
                    (x, mid - mark / 3),
                    (x + mark, mid + mark / 3 + 1),
                    rgb(band_on_white()),
                )?;
            }
            Some(c) => {
                fill_rect(
                    area,
                    (x + mark / 2 - 1, mid - mark / 3),
                    (x + mark / 2 + 1, mid + mark / 3 + 1),
                    c,
                )?;
                area.draw(&Circle::new((x + mark / 2, mid - mark / 3), 3, c.filled()))
                    .map_err(plot_err)?;
            }
        }
        draw_text(
            area,
            words,
            (x + mark + theme.gap, mid),
            font,
            (HPos::Left, VPos::Center),
            &TEXT,
        )?;
        x += width + spacing;
    }
    Ok(())
}

/// The band's colour over white.
fn band_on_white() -> (u8, u8, u8) {
    let mix = |c: u8| (255.0 - BAND_ALPHA * (255.0 - f64::from(c))).round() as u8;
    (mix(BAND.0), mix(BAND.1), mix(BAND.2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::HeatmapPanel;
    use crate::plot::heatmap::tests::count;
    use crate::plot::heatmap::{Badge, title_height};
    use crate::plot::png::tests::decode;
    use crate::plot::scale::colour_at;

    /// A deterministic wobble in [-1, 1].
    fn wobble(i: usize) -> f64 {
        let x = ((i as f64) * 12.9898).sin() * 43758.5453;
        2.0 * (x - x.floor()) - 1.0
    }

    fn title(name: &str) -> Vec<String> {
        vec![
            format!("{name}  T=10,000"),
            "inclusion: chi2 = 61.0, df 48, p = 0.098".to_string(),
        ]
    }

    /// An inclusion panel of `n` items with noise inside a ±8% band and
    /// item `hot` (if any) at 1.3×.
    fn inclusion(n: usize, hot: Option<usize>) -> InclusionPanel {
        let mut ratios: Vec<f64> = (0..n).map(|i| 1.0 + 0.03 * wobble(i)).collect();
        if let Some(h) = hot {
            ratios[h] = 1.3;
        }
        InclusionPanel {
            title: title(&format!("reservoir-off-by-one:k=10  N={n}")),
            ratios,
            band: vec![(0.92, 1.08); n],
            verdict: Some(if hot.is_some() {
                Verdict::Biased
            } else {
                Verdict::NoBiasDetected
            }),
            x_label: "item".to_string(),
            first: 0,
        }
    }

    /// Pair ratios of `n` items where pairs `stride` apart are favoured
    /// (1.6×) and the others slightly shunned, as systematic sampling does
    /// in the extreme.
    fn pairs(n: usize, stride: usize) -> PairsPanel {
        let mut ratios = vec![f64::NAN; n * (n - 1) / 2];
        for i in 0..n {
            for j in i + 1..n {
                let base = if (j - i) % stride == 0 { 1.6 } else { 0.93 };
                ratios[pair_index(n, i, j)] = base + 0.02 * wobble(i * n + j);
            }
        }
        PairsPanel {
            n,
            ratios,
            title: vec![
                format!("systematic-like  N={n}  T=100,000"),
                "pairs: chi2 = 5210.3, df 44, p < 1e-300".to_string(),
            ],
            verdict: Some(Verdict::Biased),
            first: 0,
        }
    }

    /// A `w × h` board whose mines favour the top rows and the left
    /// columns.
    fn board(w: usize, h: usize) -> BoardPanel {
        let ratios = (0..w * h)
            .map(|c| {
                let (row, col) = ((c / w) as f64, (c % w) as f64);
                let slope = 0.12 * (1.0 - 2.0 * row / (h as f64 - 1.0).max(1.0))
                    + 0.05 * (1.0 - 2.0 * col / (w as f64 - 1.0).max(1.0));
                (slope + 0.02 * wobble(c)).exp()
            })
            .collect();
        BoardPanel {
            w,
            h,
            ratios,
            title: vec![
                format!("minesweeper:w={w},h={h},m=10,method=naive-swap"),
                "cells: chi2 = 190.2, df 80, p = 2e-11".to_string(),
            ],
            verdict: Some(Verdict::Biased),
        }
    }

    fn slots(k: usize, n: usize) -> SlotsPanel {
        let ratios = (0..k * n)
            .map(|c| {
                let (slot, item) = (c / n, c % n);
                let near = slot as f64 / k as f64 - item as f64 / n as f64;
                1.0 + 0.2 * (-near * near * 20.0).exp() - 0.05 + 0.01 * wobble(c)
            })
            .collect();
        SlotsPanel {
            k,
            n,
            ratios,
            title: title(&format!("ordered k={k}  N={n}")),
            verdict: Some(Verdict::Inconclusive),
        }
    }

    /// The pixels above the inclusion chart's legend (which shows every mark).
    fn above_legend(pixels: &[u8]) -> &[u8] {
        let theme = Theme::scaled(1.0);
        let legend = INCLUSION_SIZE.1 as i32 - theme.pad - line_height(theme.tick) - theme.gap;
        &pixels[..(legend as usize * INCLUSION_SIZE.0 as usize * 3)]
    }

    /// Decodes `bytes`, checks the image is not blank, and returns its size
    /// and pixels.
    fn image(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let (w, h, pixels) = decode(bytes);
        assert!(w > 0 && h > 0);
        let white = count(&pixels, RGBColor(255, 255, 255));
        assert!(white < pixels.len() / 3, "not blank");
        (w, h, pixels)
    }

    #[test]
    fn inclusion_charts_of_any_size() {
        for n in [1, 5, 49, 1000, 5000] {
            let panel = inclusion(n, Some(n / 2));
            let bytes = draw_inclusion(&panel).expect("draw");
            let (w, h, pixels) = image(&bytes);
            assert_eq!((w, h), INCLUSION_SIZE, "n = {n}");
            assert!(
                count(&pixels, Badge::of(Verdict::Biased).fill) > 500,
                "n = {n}: the badge"
            );
            // The one item above its band shows in red, even among 5000
            // items on fewer pixels.
            let chart = above_legend(&pixels);
            assert!(count(chart, ABOVE) > 20, "n = {n}: the hot item");
            assert_eq!(count(chart, BELOW), 0, "n = {n}: none below");
            if n > 1 {
                assert!(count(chart, INSIDE) > 10, "n = {n}: the others");
            }
        }
        let fair = draw_inclusion(&inclusion(49, None)).unwrap();
        let (_, _, pixels) = image(&fair);
        assert_eq!(count(above_legend(&pixels), ABOVE), 0);
        assert!(count(&pixels, ABOVE) > 10, "the legend's mark");
        assert!(count(&pixels, Badge::of(Verdict::NoBiasDetected).fill) > 500);
    }

    #[test]
    fn inclusion_marks_clipped_values() {
        let mut panel = inclusion(20, None);
        panel.ratios[3] = 0.0;
        panel.ratios[7] = 9.0;
        panel.ratios[9] = f64::NAN;
        panel.band[11] = (-0.5, 3.0);
        panel.verdict = None;
        let bytes = draw_inclusion(&panel).unwrap();
        let (_, _, pixels) = image(&bytes);
        let chart = above_legend(&pixels);
        assert!(count(chart, ABOVE) > 20 && count(chart, BELOW) > 20);
        assert_eq!(
            count(&pixels, Badge::of(Verdict::Biased).fill),
            0,
            "no verdict, no badge"
        );
        let axis = inclusion_axis(&panel);
        assert_eq!(axis.limit(), 2.0);
        let labels: Vec<String> = axis
            .ticks(axis.clipping(&panel.ratios))
            .into_iter()
            .map(|t| t.label)
            .collect();
        assert_eq!(labels.first().unwrap(), "≤ 0.5×");
        assert_eq!(labels.last().unwrap(), "≥ 2×");
    }

    #[test]
    fn the_inclusion_axis_is_round_and_holds_the_data() {
        let axis = inclusion_axis(&inclusion(49, Some(3)));
        assert!((axis.limit() - 1.5).abs() < 1e-12, "{}", axis.limit());
        let mut tight = inclusion(10, None);
        tight.ratios = vec![1.0; 10];
        tight.band = vec![(0.999, 1.0012); 10];
        assert!((inclusion_axis(&tight).limit() - 1.002).abs() < 1e-12);
        tight.band = vec![(1.0, 1.0); 10];
        assert!((inclusion_axis(&tight).limit() - 1.001).abs() < 1e-12);
        let chart = Chart {
            axis: &axis,
            x0: 0,
            y0: 0,
            width: 100,
            height: 2 * CHART_INSET + 101,
        };
        assert_eq!(chart.y(1.0), CHART_INSET + 50, "1× in the middle");
        assert_eq!(
            chart.y(1.2) - chart.y(1.0),
            chart.y(1.0) - chart.y(1.0 / 1.2),
            "log-symmetric"
        );
        assert_eq!(chart.y(0.0), chart.y(0.1));
        assert_eq!(chart.y(0.0), CHART_INSET + 100);
    }

    #[test]
    fn pair_heatmaps() {
        let scale = LogScale::new(1.25).unwrap();
        for n in [2, 10, 49, 700] {
            let bytes = draw_pairs(&pairs(n, 5), &scale).expect("draw");
            let (w, h, pixels) = image(&bytes);
            assert_eq!((w, h), SINGLE_SIZE, "n = {n}");
            if n < 500 {
                // Beyond one pixel per item the diagonal gives way to ratios.
                assert!(
                    count(&pixels, rgb(BLANK_GREY)) > 200,
                    "n = {n}: the diagonal"
                );
            }
            assert!(count(&pixels, Badge::of(Verdict::Biased).fill) > 500);
        }
        // A lone hot pair among 700 items (more than pixels) still shows.
        let mut lone = pairs(700, 1);
        lone.ratios.fill(1.0);
        lone.ratios[pair_index(700, 123, 456)] = 1.5;
        let (w, _, pixels) = image(&draw_pairs(&lone, &scale).unwrap());
        let hot = rgb(scale.colour(1.5));
        let bar = ColourBar::single(&scale, &lone.ratios, &Theme::scaled(1.0)).unwrap();
        let matrix_width = (w as i32 - bar.width) as usize;
        let found: Vec<(i64, i64)> = pixels
            .chunks_exact(3)
            .enumerate()
            .map(|(i, p)| (i % w as usize, i / w as usize, p))
            .filter(|&(x, _, p)| x < matrix_width && p == [hot.0, hot.1, hot.2])
            .map(|(x, y, _)| (x as i64, y as i64))
            .collect();
        // Two mirror cells, each on one to two pixels a side (a cell
        // straddling two pixels shows on both).
        assert!((2..=8).contains(&found.len()), "{found:?}");
        let first = found[0];
        let other_top = found.iter().map(|p| p.1).find(|&y| y > first.1 + 1);
        let last = found[found.len() - 1];
        // x0 - y0: the first pixel's mirror is the top row of the other block.
        let d = first.0 - other_top.expect("two blocks");
        for &(x, y) in &found {
            assert!(found.contains(&(y + d, x - d)), "mirrored: {found:?}");
        }
        assert!(first.1 < last.1, "one above the diagonal, one below");
    }

    #[test]
    fn the_pair_matrix_is_mirrored_with_a_blank_diagonal() {
        let n = 6;
        let ratios: Vec<f64> = (0..n * (n - 1) / 2).map(|i| i as f64).collect();
        for i in 0..n {
            assert_eq!(pair_cell(n, &ratios, i, i), Cell::Blank);
            for j in i + 1..n {
                let expected = (i * (2 * n - i - 1) / 2 + (j - i - 1)) as f64;
                assert_eq!(pair_cell(n, &ratios, i, j), Cell::Ratio(expected));
                assert_eq!(pair_cell(n, &ratios, j, i), Cell::Ratio(expected));
            }
        }
        assert_eq!(pair_cell(n, &ratios, 0, 1), Cell::Ratio(0.0));
        assert_eq!(pair_cell(n, &ratios, 0, 5), Cell::Ratio(4.0));
        assert_eq!(pair_cell(n, &ratios, 1, 2), Cell::Ratio(5.0));
    }

    #[test]
    fn boards_have_square_cells() {
        let scale = LogScale::new(1.25).unwrap();
        let (w, h, pixels) = image(&draw_board(&board(9, 9), &scale).expect("draw"));
        assert_eq!((w, h), SINGLE_SIZE);
        assert!(count(&pixels, Badge::of(Verdict::Biased).fill) > 500);
        // Expert board, wider than tall: cut to fit.
        let (w, h, _) = image(&draw_board(&board(30, 16), &scale).expect("draw"));
        assert_eq!(w, SINGLE_SIZE.0);
        assert!(h < SINGLE_SIZE.1, "{h}");
        let theme = Theme::scaled(1.0);
        for (bw, bh) in [(9, 9), (30, 16), (8, 20), (1, 1), (200, 3)] {
            let panel = board(bw, bh);
            let cell = |r: usize, c: usize| Cell::Ratio(panel.ratios[r * bw + c]);
            let grid = Grid {
                rows: bh,
                cols: bw,
                cell: &cell,
                row_title: "row",
                col_title: "column",
                square_cells: true,
                first: 0,
                header: Header::new(&panel.title, panel.verdict),
            };
            let layout = GridLayout::new(&grid, &theme, grid.header.height(&theme), 660).unwrap();
            let (cw, ch) = (
                f64::from(layout.width) / bw as f64,
                f64::from(layout.height) / bh as f64,
            );
            assert!((cw - ch).abs() <= 1.0, "{bw}×{bh}: {cw} × {ch}");
            assert!(layout.bar_height >= layout.height.min(MIN_BAR_HEIGHT));
            assert!(layout.y0 + layout.bar_height < layout.image_height);
        }
    }

    #[test]
    fn slot_matrices() {
        let scale = LogScale::new(1.25).unwrap();
        for (k, n) in [(1, 5), (3, 10), (5, 1000)] {
            let (w, h, pixels) = image(&draw_slots(&slots(k, n), &scale).expect("draw"));
            assert_eq!((w, h), SINGLE_SIZE);
            assert!(count(&pixels, Badge::of(Verdict::Inconclusive).fill) > 500);
        }
    }

    #[test]
    fn same_input_same_bytes() {
        let scale = LogScale::new(1.5).unwrap();
        let (chart, pairs, board, slots) = (
            inclusion(49, Some(7)),
            pairs(49, 7),
            board(9, 9),
            slots(4, 12),
        );
        let draws: [&dyn Fn() -> Vec<u8>; 4] = [
            &|| draw_inclusion(&chart).unwrap(),
            &|| draw_pairs(&pairs, &scale).unwrap(),
            &|| draw_board(&board, &scale).unwrap(),
            &|| draw_slots(&slots, &scale).unwrap(),
        ];
        for draw in draws {
            assert_eq!(draw(), draw());
        }
    }

    #[test]
    fn rejects_inconsistent_input() {
        let scale = LogScale::new(1.25).unwrap();
        let mut bad = inclusion(10, None);
        bad.band.pop();
        assert!(draw_inclusion(&bad).unwrap_err().0.contains("9 bands"));
        let mut bad = inclusion(10, None);
        bad.band[2] = (1.1, 0.9);
        assert!(draw_inclusion(&bad).is_err());
        bad.band[2] = (f64::NAN, 0.9);
        assert!(draw_inclusion(&bad).is_err());
        let mut bad = inclusion(10, None);
        bad.ratios[0] = -0.5;
        assert!(draw_inclusion(&bad).is_err());
        let mut empty = inclusion(1, None);
        empty.ratios.clear();
        empty.band.clear();
        assert!(draw_inclusion(&empty).is_err());

        let mut bad = pairs(10, 5);
        bad.ratios.pop();
        assert!(draw_pairs(&bad, &scale).is_err());
        bad.n = 1;
        bad.ratios.clear();
        assert!(draw_pairs(&bad, &scale).is_err());
        bad.n = usize::MAX;
        assert!(draw_pairs(&bad, &scale).is_err());

        let mut bad = board(9, 9);
        bad.ratios.pop();
        assert!(
            draw_board(&bad, &scale)
                .unwrap_err()
                .0
                .contains("80 ratios")
        );
        bad.w = 0;
        assert!(draw_board(&bad, &scale).is_err());
        let mut bad = board(9, 9);
        bad.h = usize::MAX;
        assert!(draw_board(&bad, &scale).is_err());

        let mut bad = slots(3, 10);
        bad.k = 4;
        assert!(draw_slots(&bad, &scale).is_err());
    }

    #[test]
    fn titles_match_the_heatmap() {
        let theme = Theme::scaled(1.0);
        let lines = title("x");
        for title in [Vec::new(), lines[..1].to_vec(), lines.clone()] {
            for verdict in [None, Some(Verdict::Biased)] {
                let header = Header::new(&title, verdict);
                let panel = HeatmapPanel {
                    n: 1,
                    columns: 1,
                    ratios: vec![1.0],
                    title: title.clone(),
                    verdict,
                    axes: crate::plot::DECK_AXES,
                    column_names: Vec::new(),
                };
                assert_eq!(header.height(&theme), title_height(&theme, &panel));
            }
        }
        // The stems' colours are the palette's.
        assert_eq!(ABOVE, rgb(colour_at(0.8)));
        assert_eq!(BELOW, rgb(colour_at(-0.8)));
    }

    #[test]
    fn pair_pictures_frame_like_the_heatmap() {
        // Title block, badge and colour bar are pixel for pixel the
        // position-by-value heatmap's for the same title, verdict and scale.
        let scale = LogScale::new(2.0).unwrap();
        let panel = pairs(10, 5);
        let n = panel.n;
        let mut ratios = vec![1.0; n * n];
        for i in 0..n {
            for j in 0..n {
                if let Cell::Ratio(r) = pair_cell(n, &panel.ratios, i, j) {
                    ratios[i * n + j] = r;
                }
            }
        }
        let heatmap = HeatmapPanel {
            n,
            columns: n,
            ratios,
            title: panel.title.clone(),
            verdict: panel.verdict,
            axes: crate::plot::DECK_AXES,
            column_names: Vec::new(),
        };
        let (w, h, ours) = image(&draw_pairs(&panel, &scale).unwrap());
        let (_, _, theirs) = image(&crate::plot::draw_heatmap(&heatmap, &scale).unwrap());
        let theme = Theme::scaled(1.0);
        let title = title_height(&theme, &heatmap);
        let top = Margins::new(&theme, n, title).unwrap().top as usize;
        let row = w as usize * 3;
        assert_eq!(ours[..top * row], theirs[..top * row], "title and badge");
        let bar = ColourBar::single(&scale, &heatmap.ratios, &theme).unwrap();
        let bar_x = (w as i32 - bar.width) as usize * 3;
        for y in 0..h as usize {
            let span = y * row + bar_x..(y + 1) * row;
            assert_eq!(ours[span.clone()], theirs[span], "colour bar, row {y}");
        }
        // The matrix (its diagonal) and the axis titles differ.
        assert_ne!(ours, theirs);
    }

    #[test]
    fn runs_cover_every_cell() {
        assert_eq!(runs(3, 9), vec![(0, 3, 0..1), (3, 6, 1..2), (6, 9, 2..3)]);
        for (count, len) in [(5, 600), (600, 600), (1000, 600), (49_999, 584)] {
            let runs = runs(count, len);
            assert_eq!(runs.first().unwrap().2.start, 0);
            assert_eq!(runs.last().unwrap().2.end, count);
            for pair in runs.windows(2) {
                assert_eq!(pair[0].1, pair[1].0, "pixels tile");
                assert!(pair[1].2.start <= pair[0].2.end, "no cell skipped");
            }
            assert_eq!(runs.last().unwrap().1, len);
        }
        let cells = [
            Cell::Blank,
            Cell::Ratio(f64::NAN),
            Cell::Ratio(1.1),
            Cell::Ratio(0.85),
        ];
        assert_eq!(Cell::most_salient(cells.into_iter()), Cell::Ratio(0.85));
        assert_eq!(
            Cell::most_salient(cells[..2].iter().copied()).salience().0,
            1
        );
        assert_eq!(Cell::most_salient(std::iter::empty()), Cell::Blank);
    }

    /// Writes sample pictures to /tmp/plot-sampling/ for review:
    /// `cargo test --release --lib plot::sampling -- --ignored`.
    #[test]
    #[ignore]
    fn write_samples() {
        let dir = std::path::Path::new("/tmp/plot-sampling");
        std::fs::create_dir_all(dir).unwrap();
        let scale = LogScale::new(2.0).unwrap();
        let mut hot = inclusion(49, Some(17));
        // One item at 1.3×, the others pulled down so that the k per trial add up.
        let rest = (49.0 - 1.3) / 48.0;
        for (i, r) in hot.ratios.iter_mut().enumerate() {
            if i != 17 {
                *r *= rest;
            }
        }
        let mut clipped = inclusion(20, None);
        clipped.ratios[3] = 0.0;
        clipped.ratios[7] = 9.0;
        clipped.ratios[12] = 0.9;
        clipped.ratios[9] = f64::NAN;
        clipped.verdict = None;
        let fine = LogScale::new(1.25).unwrap();
        let write = |name: &str, bytes: Result<Vec<u8>, PlotError>| {
            std::fs::write(dir.join(name), bytes.unwrap()).unwrap()
        };
        write("inclusion-clipped-20.png", draw_inclusion(&clipped));
        write("inclusion-49.png", draw_inclusion(&hot));
        let big = inclusion(1000, Some(640));
        write("inclusion-1000.png", draw_inclusion(&big));
        write("pairs-10.png", draw_pairs(&pairs(10, 5), &scale));
        write("pairs-200.png", draw_pairs(&pairs(200, 25), &scale));
        write("board-9x9.png", draw_board(&board(9, 9), &fine));
        write("board-30x16.png", draw_board(&board(30, 16), &fine));
        write("slots-5x49.png", draw_slots(&slots(5, 49), &fine));
    }
}

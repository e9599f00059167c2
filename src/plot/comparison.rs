//! The comparison grid: every audit's heatmap side by side on ONE shared
//! [`LogScale`], each with its verdict badge, under one colour bar whose ends
//! are marked `≥`/`≤` when some panel's values lie beyond the scale.

use plotters::style::text_anchor::{HPos, VPos};

use super::PlotError;
use super::heatmap::{
    ColourBar, HeatmapPanel, Margins, TEXT, Theme, check_panel, draw_panel, title_height,
};
use super::png::render;
use super::scale::{Clipping, LogScale};
use super::text::{TextFont, draw_text, line_height};

/// Preferred width of one panel, in pixels.
const PANEL_WIDTH: u32 = 360;
/// Smallest panel width the grid will shrink to when there are many columns.
const MIN_PANEL_WIDTH: u32 = 160;
/// Approximate cap on the total width of a comparison image, in pixels.
const MAX_COMPARISON_WIDTH: u32 = 2000;
/// Legend line printed above the grid.
const LEGEND: &str = "Observed / expected on one log scale for every panel: blue = less often than \
                      expected, white = as expected, red = more often. Badge: the audit's verdict.";
/// Title of the shared colour bar.
const COLOUR_BAR_LABEL: &str = "observed / expected (log scale, shared)";

/// Draws several panels side by side in a grid (about square: `cols =
/// ceil(sqrt(k))`) on ONE shared colour scale with one shared colour bar and
/// a one-line legend, for comparing algorithms at a glance; returns the PNG
/// bytes.
///
/// Panels are ~360 px wide (narrower when there are many columns, keeping the
/// image near 2000 px wide) and are filled row by row in slice order; each
/// shows its verdict badge with text of at least 14 px. Fails on an empty
/// slice or a malformed panel.
pub fn draw_comparison(panels: &[HeatmapPanel], scale: &LogScale) -> Result<Vec<u8>, PlotError> {
    if panels.is_empty() {
        return Err(PlotError("no panels".to_string()));
    }
    for panel in panels {
        check_panel(panel)?;
    }
    let clipping =
        panels
            .iter()
            .map(|p| scale.clipping(&p.ratios))
            .fold(Clipping::default(), |a, b| Clipping {
                below: a.below || b.below,
                above: a.above || b.above,
            });
    let bar_title = format!("{COLOUR_BAR_LABEL}: {}", scale.range_words());

    let k = panels.len();
    let cols = (k as f64).sqrt().ceil() as usize;
    let rows = k.div_ceil(cols);
    // Fonts scale with the panel, and the colour bar width depends on the fonts,
    // so size the panels with the full-size bar first and then refine once.
    let panel_width_for = |bar: i32| {
        let available = MAX_COMPARISON_WIDTH.saturating_sub(bar as u32) / cols as u32;
        available.clamp(MIN_PANEL_WIDTH, PANEL_WIDTH)
    };
    let full = ColourBar::new(scale, clipping, bar_title.clone(), &Theme::scaled(1.0))?;
    let mut panel_width = panel_width_for(full.width);
    let theme = Theme::for_panel(panel_width);
    let bar = ColourBar::new(scale, clipping, bar_title, &theme)?;
    panel_width = panel_width_for(bar.width);

    let mut title = 0;
    for panel in panels {
        title = title.max(title_height(&theme, panel));
    }
    let mut panel_height = 0;
    for panel in panels {
        let m = Margins::new(&theme, panel.n, title)?;
        let side = panel_width as i32 - m.left - m.right;
        panel_height = panel_height.max(m.top + side + m.bottom);
    }
    let header = theme.pad + line_height(theme.subtitle);
    let grid_width = cols as i32 * panel_width as i32;
    let grid_height = rows as i32 * panel_height;
    let width = (grid_width + bar.width) as u32;
    let height = (header + grid_height) as u32;

    render((width, height), |root| {
        draw_text(
            root,
            LEGEND,
            (width as i32 / 2, theme.pad),
            TextFont::plain(theme.subtitle).fit(LEGEND, width as i32 - 2 * theme.pad)?,
            (HPos::Center, VPos::Top),
            &TEXT,
        )?;

        let grid = root.clone().shrink((0, header), (grid_width, grid_height));
        let mut span: Option<(i32, i32)> = None;
        for (cell, panel) in grid.split_evenly((rows, cols)).iter().zip(panels) {
            let (y, side) = draw_panel(cell, panel, scale, &theme, title)?;
            let top = cell.get_base_pixel().1 - header + y;
            let bottom = top + side;
            span = Some(span.map_or((top, bottom), |(t, b)| (t.min(top), b.max(bottom))));
        }

        // One bar for the whole grid: as tall as the matrices allow, but not
        // absurdly tall for many rows; centred on the matrices' vertical span.
        let (top, bottom) = span.unwrap_or((0, grid_height));
        let bar_height = (bottom - top).min(560.max(panel_height));
        let bar_area = root
            .clone()
            .shrink((grid_width, header), (bar.width, grid_height));
        bar.draw(
            &bar_area,
            top + (bottom - top - bar_height) / 2,
            bar_height,
            &theme,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::heatmap::Badge;
    use crate::plot::heatmap::tests::{count, panel};
    use crate::plot::png::tests::decode;
    use crate::stats::Verdict;

    #[test]
    fn draws_a_grid_with_a_badge_per_panel() {
        let verdicts = [
            Some(Verdict::Biased),
            Some(Verdict::NoBiasDetected),
            Some(Verdict::Inconclusive),
            None,
        ];
        let panels: Vec<_> = (0..15)
            .map(|i| {
                panel(
                    if i % 2 == 0 { 10 } else { 52 },
                    &format!("algo-{i}"),
                    verdicts[i % 4],
                )
            })
            .collect();
        let bytes = draw_comparison(&panels, &LogScale::new(2.0).unwrap()).expect("draw");
        let (w, h, pixels) = decode(&bytes);
        assert!(w > 1000 && h > 1000, "{w}×{h}");
        let biased = count(&pixels, Badge::of(Verdict::Biased).fill);
        let fair = count(&pixels, Badge::of(Verdict::NoBiasDetected).fill);
        let unsure = count(&pixels, Badge::of(Verdict::Inconclusive).fill);
        // 4 biased, 4 fair, 4 inconclusive panels; a 14 px badge is at
        // least 60 × 23 px, less its text.
        assert!(
            biased > 4 * 600 && fair > 4 * 600 && unsure > 4 * 600,
            "{biased} {fair} {unsure}"
        );
    }

    #[test]
    fn rejects_bad_input() {
        let scale = LogScale::new(1.25).unwrap();
        assert_eq!(draw_comparison(&[], &scale).unwrap_err().0, "no panels");
        let mut bad = panel(3, "x", None);
        bad.ratios.pop();
        assert!(draw_comparison(&[bad], &scale).is_err());
    }
}

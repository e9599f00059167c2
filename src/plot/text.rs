//! Text in images, with the DejaVu Sans fonts embedded by the `dejavu` crate
//! (so no system fonts are needed), laid out and rasterised with `ab_glyph`.
//!
//! Plotters' own `ab_glyph` text renderer (0.3.7) places glyphs at whole
//! pixels, ignores each glyph's left side bearing and rounds the vertical
//! offset towards zero, which makes letter spacing visibly uneven ("nai ve")
//! and drops tall glyphs a pixel. [`draw_text`] therefore lays text out with
//! `ab_glyph` itself (advances, kerning, sub-pixel pen positions, true glyph
//! bounds) and blends the coverage into the drawing area pixel by pixel.
//! Plotters' text is only used by charts built with plotters' own
//! `ChartBuilder` (the mixing chart), after [`register_fonts`].

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, PxScaleFont, ScaleFont, point};
use plotters::backend::DrawingBackend;
use plotters::coord::Shift;
use plotters::drawing::DrawingArea;
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{Color, FontFamily, FontStyle, RGBColor};

use super::{PlotError, plot_err};

/// The embedded fonts, regular and bold, indexed by `bold as usize`.
fn fonts() -> Result<&'static [FontRef<'static>; 2], PlotError> {
    static FONTS: OnceLock<Result<[FontRef<'static>; 2], String>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let load = |bytes: &'static [u8]| {
                FontRef::try_from_slice(bytes)
                    .map_err(|_| "cannot load the embedded DejaVu Sans font".to_string())
            };
            Ok([load(dejavu::sans::regular())?, load(dejavu::sans::bold())?])
        })
        .as_ref()
        .map_err(|e| PlotError(e.clone()))
}

/// Registers the embedded DejaVu fonts with plotters as its sans-serif family
/// (once per process), for charts that draw plotters' own text: plotters'
/// `ab_glyph` backend has no fonts of its own, and without this every text
/// draw fails with `FontUnavailable`. [`draw_text`] does not need it.
pub fn register_fonts() -> Result<(), PlotError> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            let family = FontFamily::SansSerif.as_str();
            for (style, bytes) in [
                (FontStyle::Normal, dejavu::sans::regular()),
                (FontStyle::Bold, dejavu::sans::bold()),
            ] {
                register(family, style, bytes)?;
            }
            Ok(())
        })
        .clone()
        .map_err(PlotError)
}

/// Registers one embedded font with plotters.
#[cfg(not(all(target_arch = "wasm32", not(target_os = "wasi"))))]
fn register(family: &str, style: FontStyle, bytes: &'static [u8]) -> Result<(), String> {
    plotters::style::register_font(family, style, bytes)
        .map_err(|_| "cannot register the embedded DejaVu Sans font".to_string())
}

/// In the browser's WebAssembly plotters draws its own text with the
/// browser's fonts and has no fonts to register: the charts that need it
/// (the mixing chart) are not drawn there.
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
fn register(_family: &str, _style: FontStyle, _bytes: &'static [u8]) -> Result<(), String> {
    Err("plotters' own text is not available in WebAssembly".to_string())
}

/// Font choice for one piece of text.
#[derive(Clone, Copy, Debug)]
pub struct TextFont {
    /// Size in pixels: the font's ascent minus descent, as plotters and
    /// `ab_glyph` measure it.
    pub px: f64,
    /// Bold weight.
    pub bold: bool,
    /// Rotated to read bottom to top (for vertical axis titles).
    pub vertical: bool,
}

impl TextFont {
    /// Regular weight, horizontal, at `px` pixels.
    pub fn plain(px: f64) -> Self {
        TextFont {
            px,
            bold: false,
            vertical: false,
        }
    }

    /// Bold weight, horizontal, at `px` pixels.
    pub fn bold(px: f64) -> Self {
        TextFont {
            bold: true,
            ..TextFont::plain(px)
        }
    }

    /// The `ab_glyph` font scaled to this size.
    fn scaled(self) -> Result<PxScaleFont<&'static FontRef<'static>>, PlotError> {
        let font = &fonts()?[usize::from(self.bold)];
        Ok(font.as_scaled(PxScale::from(self.px as f32)))
    }

    /// Advance width of `text` in (fractional) pixels, kerning included.
    pub fn advance(self, text: &str) -> Result<f64, PlotError> {
        let font = self.scaled()?;
        let mut width = 0.0f32;
        let mut previous = None;
        for c in text.chars() {
            let id = font.glyph_id(c);
            if let Some(p) = previous {
                width += font.kern(p, id);
            }
            width += font.h_advance(id);
            previous = Some(id);
        }
        Ok(f64::from(width))
    }

    /// This font, shrunk if needed so that `text` is at most `max_width` pixels wide.
    pub fn fit(self, text: &str, max_width: i32) -> Result<Self, PlotError> {
        let width = self.advance(text)?;
        let max_width = f64::from(max_width.max(1));
        Ok(if width > max_width {
            TextFont {
                px: self.px * max_width / width,
                ..self
            }
        } else {
            self
        })
    }

    /// Rendered width of `text` in whole pixels (before any rotation).
    pub fn width(self, text: &str) -> Result<i32, PlotError> {
        Ok(self.advance(text)?.ceil() as i32)
    }

    /// Whether the font has a glyph for `c` (not the "missing" box): the
    /// tests check every character the reports draw.
    #[cfg(test)]
    pub fn has_glyph(self, c: char) -> Result<bool, PlotError> {
        Ok(self.scaled()?.glyph_id(c).0 != 0)
    }
}

/// Height of one line of text at `px`, including leading.
pub fn line_height(px: f64) -> i32 {
    (px * 1.25).round() as i32
}

/// Draws `text` anchored at `pos` inside `area`, in `colour`, anti-aliased
/// over what is already there.
///
/// The horizontal anchor is the start, middle or end of the text's advance;
/// the vertical one is the top of the capitals (`Top`), the middle of the
/// capitals (`Center`, which centres digits on a tick) or the bottom of the
/// descenders (`Bottom`). Vertical text reads bottom to top, and its anchor is
/// taken along the rotated text in the same way.
pub fn draw_text<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    (x, y): (i32, i32),
    font: TextFont,
    (h, v): (HPos, VPos),
    colour: &RGBColor,
) -> Result<(), PlotError> {
    let scaled = font.scaled()?;
    let scale = scaled.scale();
    let cap_height = scaled
        .font()
        .outline(scaled.glyph_id('H'))
        // ab_glyph's outline bounds keep the glyph's top (y_max) in `min.y`.
        .map_or(scaled.ascent(), |o| {
            o.bounds.min.y * scaled.v_scale_factor()
        });
    let baseline = match v {
        VPos::Top => cap_height,
        VPos::Center => cap_height / 2.0,
        VPos::Bottom => scaled.descent(),
    };
    let total = font.advance(text)? as f32;
    let mut pen = match h {
        HPos::Left => 0.0,
        HPos::Center => -total / 2.0,
        HPos::Right => -total,
    };
    let mut previous = None;
    let mut failure = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = previous {
            pen += scaled.kern(p, id);
        }
        previous = Some(id);
        let glyph = id.with_scale_and_position(scale, point(pen, baseline));
        pen += scaled.h_advance(id);
        let Some(outline) = scaled.font().outline_glyph(glyph) else {
            continue; // a space
        };
        let origin = outline.px_bounds().min;
        outline.draw(|gx, gy, coverage| {
            // (along, down) relative to the anchor.
            let along = origin.x as i32 + gx as i32;
            let down = origin.y as i32 + gy as i32;
            let pixel = if font.vertical {
                (x + down, y - 1 - along)
            } else {
                (x + along, y + down)
            };
            let ink = colour.mix(f64::from(coverage.min(1.0)));
            if let Err(e) = area.draw_pixel(pixel, &ink)
                && failure.is_none()
            {
                failure = Some(plot_err(e));
            }
        });
    }
    failure.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::png::{render, tests::decode};

    #[test]
    fn measures_with_the_embedded_fonts() {
        let font = TextFont::plain(20.0);
        let one = font.advance("0").unwrap();
        assert!(
            one > 5.0 && one < 20.0,
            "a digit is about half an em: {one}"
        );
        let ten = font.advance("0000000000").unwrap();
        assert!((ten - 10.0 * one).abs() < 1e-3, "digits are tabular");
        assert!(TextFont::bold(20.0).advance("mmm").unwrap() > font.advance("mmm").unwrap());
        let fitted = font.fit("a long line of text", 50).unwrap();
        assert!(fitted.width("a long line of text").unwrap() <= 50);
        for c in ['✓', '✗', '≥', '≤', '×', '?'] {
            assert!(TextFont::bold(14.0).has_glyph(c).unwrap(), "{c}");
        }
    }

    /// Columns (x) where a dark pixel occurs.
    fn inked(pixels: &[u8], width: usize) -> Vec<(usize, usize)> {
        pixels
            .chunks_exact(3)
            .enumerate()
            .filter(|(_, p)| p[0] < 128)
            .map(|(i, _)| (i % width, i / width))
            .collect()
    }

    #[test]
    fn anchors_where_it_says() {
        let black = RGBColor(0, 0, 0);
        let bytes = render((200, 60), |area| {
            draw_text(
                area,
                "HH",
                (100, 20),
                TextFont::plain(30.0),
                (HPos::Center, VPos::Top),
                &black,
            )
        })
        .unwrap();
        let (w, _, pixels) = decode(&bytes);
        let ink = inked(&pixels, w as usize);
        let top = ink.iter().map(|p| p.1).min().unwrap();
        let left = ink.iter().map(|p| p.0).min().unwrap();
        let right = ink.iter().map(|p| p.0).max().unwrap();
        assert!(
            (19..=21).contains(&top),
            "capitals start at the anchor: {top}"
        );
        let middle = (left + right) as f64 / 2.0;
        assert!((middle - 100.0).abs() <= 1.5, "centred: {left}..{right}");
    }

    #[test]
    fn vertical_text_reads_upwards() {
        let black = RGBColor(0, 0, 0);
        let bytes = render((60, 200), |area| {
            draw_text(
                area,
                "HHHH",
                (30, 100),
                TextFont {
                    vertical: true,
                    ..TextFont::plain(20.0)
                },
                (HPos::Center, VPos::Center),
                &black,
            )
        })
        .unwrap();
        let (w, _, pixels) = decode(&bytes);
        let ink = inked(&pixels, w as usize);
        let (top, bottom) = (
            ink.iter().map(|p| p.1).min().unwrap(),
            ink.iter().map(|p| p.1).max().unwrap(),
        );
        let (left, right) = (
            ink.iter().map(|p| p.0).min().unwrap(),
            ink.iter().map(|p| p.0).max().unwrap(),
        );
        assert!(bottom - top > 3 * (right - left), "taller than wide");
        assert!(((top + bottom) as f64 / 2.0 - 100.0).abs() <= 1.5);
        assert!(((left + right) as f64 / 2.0 - 30.0).abs() <= 1.5);
    }
}

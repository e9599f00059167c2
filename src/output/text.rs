//! Text in plotters charts with the embedded DejaVu fonts: registration,
//! measurement, and glyph-by-glyph drawing that corrects plotters' glyph
//! placement (see [`GlyphMetrics`]).

use std::fmt;
use std::sync::OnceLock;

use plotters::backend::DrawingBackend;
use plotters::coord::Shift;
use plotters::drawing::DrawingArea;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{
    FontDesc, FontFamily, FontStyle, FontTransform, RGBColor, TextStyle, register_font,
};

use super::heatmap::PlotError;

/// Registers the embedded DejaVu fonts with plotters (once per process), for
/// other charts drawn with plotters' own text: without it every text draw
/// fails with `FontUnavailable`.
pub(crate) fn register_fonts() -> Result<(), PlotError> {
    ensure_fonts().map(|_| ())
}

/// Registers the embedded DejaVu fonts with plotters exactly once per process
/// and returns their glyph metrics, indexed by `bold as usize`.
///
/// Plotters' `ab_glyph` text backend has no fonts of its own; without this,
/// every text draw fails with `FontUnavailable`.
fn ensure_fonts() -> Result<&'static [GlyphMetrics; 2], PlotError> {
    static FONTS: OnceLock<Result<[GlyphMetrics; 2], String>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let family = FontFamily::SansSerif.as_str();
            let load = |style: FontStyle, bytes: &'static [u8]| {
                register_font(family, style, bytes)
                    .ok()
                    .and_then(|()| GlyphMetrics::parse(bytes))
                    .ok_or_else(|| "cannot load the embedded DejaVu Sans font".to_string())
            };
            Ok([
                load(FontStyle::Normal, dejavu::sans::regular())?,
                load(FontStyle::Bold, dejavu::sans::bold())?,
            ])
        })
        .as_ref()
        .map_err(|e| PlotError(e.clone()))
}

/// Glyph bounding boxes read from a TrueType font, to correct plotters' glyph placement.
///
/// Plotters 0.3.7's `ab_glyph` renderer (a) puts every glyph's bitmap at the
/// pen position, ignoring the glyph's left side bearing, which makes letter
/// spacing visibly uneven ("nai ve"), and (b) truncates the glyph's vertical
/// offset towards zero, which drops tall glyphs such as `i` or `1` one pixel
/// below their neighbours. [`draw_text`] therefore draws text one glyph at a
/// time and undoes both errors using the glyph boxes looked up here.
struct GlyphMetrics {
    data: &'static [u8],
    /// Offset of the `cmap` format 4 (Unicode BMP) subtable.
    cmap: usize,
    /// Offset of the `loca` table and whether it uses 32-bit entries.
    loca: (usize, bool),
    /// Offset of the `glyf` table.
    glyf: usize,
    /// Ascent minus descent in font units; ab_glyph scales this to the pixel size.
    height: f64,
}

/// How far to move one glyph, in pixels along and across the text direction,
/// to cancel plotters' placement errors (see [`GlyphMetrics`]).
#[derive(Default)]
struct GlyphFix {
    along: i32,
    down: i32,
}

impl GlyphMetrics {
    /// Locates the tables needed; `None` if the font lacks them or is malformed.
    fn parse(data: &'static [u8]) -> Option<Self> {
        let u16_at = |o: usize| Some(u16::from_be_bytes(data.get(o..o + 2)?.try_into().ok()?));
        let u32_at = |o: usize| Some(u32::from_be_bytes(data.get(o..o + 4)?.try_into().ok()?));
        let table = |tag: &[u8]| {
            (0..usize::from(u16_at(4)?)).find_map(|i| {
                let record = 12 + 16 * i;
                (data.get(record..record + 4)? == tag).then_some(u32_at(record + 8)? as usize)
            })
        };
        let hhea = table(b"hhea")?;
        let cmap = table(b"cmap")?;
        let cmap = (0..usize::from(u16_at(cmap + 2)?)).find_map(|i| {
            let record = cmap + 4 + 8 * i;
            let (platform, encoding) = (u16_at(record)?, u16_at(record + 2)?);
            let subtable = cmap + u32_at(record + 4)? as usize;
            let unicode = platform == 0 || (platform == 3 && encoding == 1);
            (unicode && u16_at(subtable)? == 4).then_some(subtable)
        })?;
        let ascent = f64::from(u16_at(hhea + 4)? as i16);
        let descent = f64::from(u16_at(hhea + 6)? as i16);
        Some(GlyphMetrics {
            data,
            cmap,
            loca: (table(b"loca")?, u16_at(table(b"head")? + 50)? == 1),
            glyf: table(b"glyf")?,
            height: ascent - descent,
        })
    }

    fn u16_at(&self, offset: usize) -> Option<u16> {
        let bytes = self.data.get(offset..offset + 2)?;
        Some(u16::from_be_bytes([bytes[0], bytes[1]]))
    }

    /// Glyph index of `c` via the format 4 `cmap` subtable.
    fn glyph(&self, c: char) -> Option<usize> {
        let c = u16::try_from(u32::from(c)).ok()?;
        let segments2 = usize::from(self.u16_at(self.cmap + 6)?);
        let ends = self.cmap + 14;
        let starts = ends + segments2 + 2;
        let deltas = starts + segments2;
        let range_offsets = deltas + segments2;
        let segment =
            (0..segments2 / 2).find(|&s| self.u16_at(ends + 2 * s).is_some_and(|e| c <= e))?;
        let start = self.u16_at(starts + 2 * segment)?;
        let delta = self.u16_at(deltas + 2 * segment)?;
        let range_offset = usize::from(self.u16_at(range_offsets + 2 * segment)?);
        if c < start {
            return None;
        }
        let glyph = if range_offset == 0 {
            c
        } else {
            let at = range_offsets + 2 * segment + range_offset + 2 * usize::from(c - start);
            self.u16_at(at).filter(|&g| g != 0)?
        };
        Some(usize::from(glyph.wrapping_add(delta)))
    }

    /// `(x_min, y_max)` of the glyph for `c` in font units; `None` for
    /// unmapped or empty glyphs (such as space).
    fn bounds(&self, c: char) -> Option<(f64, f64)> {
        let glyph = self.glyph(c)?;
        let (loca, long) = self.loca;
        let entry = |i: usize| -> Option<usize> {
            if long {
                let hi = self.u16_at(loca + 4 * i)?;
                let lo = self.u16_at(loca + 4 * i + 2)?;
                Some((usize::from(hi) << 16) | usize::from(lo))
            } else {
                Some(2 * usize::from(self.u16_at(loca + 2 * i)?))
            }
        };
        let (start, end) = (entry(glyph)?, entry(glyph + 1)?);
        if start >= end {
            return None;
        }
        let header = self.glyf + start;
        let x_min = self.u16_at(header + 2)? as i16;
        let y_max = self.u16_at(header + 8)? as i16;
        Some((f64::from(x_min), f64::from(y_max)))
    }

    /// The correction for drawing `c` at font size `px` with plotters.
    fn fix(&self, c: char, px: f64) -> GlyphFix {
        let Some((x_min, y_max)) = self.bounds(c) else {
            return GlyphFix::default();
        };
        let scale = px / self.height;
        // ab_glyph keeps the fractional part of the bearing inside the glyph
        // bitmap and reports its floor as the bitmap's left edge.
        let along = (x_min * scale).floor() as i32;
        // Plotters offsets the bitmap by `(px / 2 + top) as i32`, where `top`
        // is a whole number; for negative values that rounds up, not down.
        let offset = (px / 2.0) as f32 + (-y_max * scale).floor() as f32;
        let down = if offset < 0.0 && offset.fract() != 0.0 {
            -1
        } else {
            0
        };
        GlyphFix { along, down }
    }
}

/// Converts any plotters error into a [`PlotError`].
pub(crate) fn plot_err<E: fmt::Display>(e: E) -> PlotError {
    PlotError(e.to_string())
}

/// Font choice for one piece of text.
#[derive(Clone, Copy)]
pub(crate) struct TextFont {
    /// Size in pixels.
    pub(crate) px: f64,
    /// Bold weight.
    pub(crate) bold: bool,
    /// Rotated to read bottom to top (for vertical axis titles).
    pub(crate) vertical: bool,
}

impl TextFont {
    pub(crate) fn plain(px: f64) -> Self {
        TextFont {
            px,
            bold: false,
            vertical: false,
        }
    }

    pub(crate) fn desc(self) -> FontDesc<'static> {
        let style = if self.bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        FontDesc::new(FontFamily::SansSerif, self.px, style)
    }

    /// Advance width of `text` in (fractional) pixels, kerning included.
    ///
    /// Plotters truncates measurements to whole pixels, so measure at 64×
    /// the size (advances scale linearly) to keep sub-pixel precision.
    pub(crate) fn advance(self, text: &str) -> Result<f64, PlotError> {
        const OVERSAMPLE: f64 = 64.0;
        let large = self.desc().resize(self.px * OVERSAMPLE);
        let (w, _) = large.box_size(text).map_err(plot_err)?;
        Ok(f64::from(w) / OVERSAMPLE)
    }

    /// This font, shrunk if needed so that `text` is at most `max_width` pixels wide.
    pub(crate) fn fit(self, text: &str, max_width: i32) -> Result<Self, PlotError> {
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
    pub(crate) fn width(self, text: &str) -> Result<i32, PlotError> {
        Ok(self.advance(text)?.ceil() as i32)
    }
}

/// Height of one line of text at `px`, including leading.
pub(crate) fn line_height(px: f64) -> i32 {
    (px * 1.25).round() as i32
}

/// Draws `text` anchored at `pos` inside `area`.
///
/// Glyphs are drawn one at a time at the pen positions plotters measures
/// (including kerning), each shifted by its left side bearing; see
/// [`GlyphMetrics`]. Plotters' ab_glyph backend also draws glyphs higher than
/// its layout box claims, so the vertical anchor is nudged to make
/// `Top`/`Center`/`Bottom` line up with the visible glyphs.
pub(crate) fn draw_text<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    (x, y): (i32, i32),
    font: TextFont,
    (h, v): (HPos, VPos),
    colour: &RGBColor,
) -> Result<(), PlotError> {
    let metrics = &ensure_fonts()?[usize::from(font.bold)];
    let nudge = match v {
        VPos::Top => 0.13,
        VPos::Center => 0.22,
        VPos::Bottom => 0.10,
    };
    let nudge = (nudge * font.px).round() as i32;
    let transform = if font.vertical {
        FontTransform::Rotate270
    } else {
        FontTransform::None
    };
    let style = TextStyle::from(font.desc())
        .color(colour)
        .pos(Pos::new(HPos::Left, v))
        .transform(transform);
    let total = font.advance(text)?;
    let start = match h {
        HPos::Left => 0.0,
        HPos::Center => -total / 2.0,
        HPos::Right => -total,
    };
    for (i, c) in text.char_indices() {
        let glyph = &text[i..i + c.len_utf8()];
        // Pen position of this glyph: width up to and including it (so the
        // kerning with its predecessor counts) minus its own advance.
        let pen = start + font.advance(&text[..i + glyph.len()])? - font.advance(glyph)?;
        let fix = metrics.fix(c, font.px);
        let along = pen.round() as i32 + fix.along;
        let down = nudge + fix.down;
        let pos = if font.vertical {
            (x + down, y - along)
        } else {
            (x + along, y + down)
        };
        area.draw_text(glyph, &style, pos).map_err(plot_err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_glyph_boxes_from_embedded_fonts() {
        for metrics in ensure_fonts().expect("fonts") {
            assert!(metrics.glyph('A').is_some());
            assert!(metrics.bounds(' ').is_none(), "space has no outline");
            let (_, y_max_x) = metrics.bounds('x').expect("x");
            let (_, y_max_i) = metrics.bounds('i').expect("i");
            assert!(y_max_i > y_max_x, "the dot of i is above x-height");
            let (x_min_l, _) = metrics.bounds('l').expect("l");
            assert!(x_min_l > 0.0, "l has a left side bearing");
        }
    }
}

//! Drawing: every image the tool makes, as PNG bytes in memory.
//!
//! The writers in [`crate::output`] decide what to draw and where the file
//! goes; this module only draws. Each image is drawn into an RGB buffer with
//! plotters' bitmap backend and encoded once by [`png::encode`], so no
//! temporary file is written and re-read.
//!
//! - [`scale`]: the log-symmetric observed/expected colour scale and its
//!   legend labels;
//! - [`heatmap`]: one audit's heatmap (a panel with its verdict badge and a
//!   colour bar);
//! - [`comparison`]: many panels on one shared scale;
//! - [`mixing`]: the mixing-curve chart;
//! - [`text`]: the embedded DejaVu fonts, measured and drawn with `ab_glyph`;
//! - [`png`]: the RGB buffer and the PNG encoder.
//!
//! Nothing here computes a statistic: verdicts, ratios and titles arrive
//! ready-made in the data passed in.

pub mod comparison;
pub mod heatmap;
pub mod mixing;
pub mod png;
pub mod sampling;
pub mod scale;
pub mod text;

use std::fmt;

pub use comparison::draw_comparison;
pub use heatmap::{DECK_AXES, HeatmapPanel, draw_heatmap};
pub use scale::LogScale;

/// Error from drawing: plotters' or the encoder's error, as text.
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

/// Converts any plotters (or encoder) error into a [`PlotError`].
pub(crate) fn plot_err<E: fmt::Display>(e: E) -> PlotError {
    PlotError(e.to_string())
}

//! Fairness reports people can read: `report.html` (one self-contained page)
//! and `report.md` (the same content, pictures as links), written beside the
//! CSV, JSON and PNG files of a run.
//!
//! What is said is decided once, into a [`model::Document`] (a study's
//! report by [`crate::study`], each audit's section by its kind); the
//! [`html`] and [`markdown`] renderers only decide how it looks.

pub mod html;
pub mod markdown;
pub mod model;
pub mod provenance;

pub use provenance::Provenance;

pub use crate::format::format_ratio;
pub use crate::output::{format_p, p_phrase};
pub use crate::plot::{HeatmapPanel, LogScale};

use crate::error::Result;
use crate::mixing::plan::{LoaderReport, MixingCurve, MixingPlan};
use crate::output::files;
use std::path::{Path, PathBuf};

/// The HTML report's file name.
pub const HTML_FILE: &str = "report.html";
/// The Markdown report's file name.
pub const MARKDOWN_FILE: &str = "report.md";

/// What became of one requested mixing curve.
#[derive(Debug, Clone, PartialEq)]
pub enum MixingOutcome {
    /// It was measured.
    Measured(MixingCurve),
    /// A data loader's exact curve against its size was computed.
    Loaders(LoaderReport),
    /// This build cannot measure mixing curves.
    NotAvailable(MixingPlan),
    /// Measuring it failed, for the reason given.
    Failed(MixingPlan, String),
}

/// Writes `doc` as `report.html` (PNGs of `dir` embedded) and `report.md`
/// into `dir`; returns the paths.
pub fn write_document(dir: &Path, doc: &model::Document) -> Result<Vec<PathBuf>> {
    let read_png = |relative: &str| std::fs::read(dir.join(relative)).ok();
    let html_path = dir.join(HTML_FILE);
    files::write_atomic(&html_path, html::render(doc, &read_png).as_bytes())?;
    let md_path = dir.join(MARKDOWN_FILE);
    files::write_atomic(&md_path, markdown::render(doc).as_bytes())?;
    Ok(vec![html_path, md_path])
}

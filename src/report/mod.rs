//! Fairness reports people can read: `report.html` (one self-contained page)
//! and `report.md` (the same content, pictures as links), written beside the
//! CSV, JSON and PNG files of a run.
//!
//! [`content`] decides what is said, once, into a [`model::Document`]; the
//! [`html`] and [`markdown`] renderers only decide how it looks.
//! [`extensions`] is where other analyses (whole-permutation tests, power
//! planning, exact results) plug in.

pub mod content;
pub mod extensions;
pub mod html;
pub mod lines;
pub mod markdown;
pub mod model;
pub mod samples;

use crate::audit::Audit;
use crate::error::Result;
use crate::experiment::mixing::{LoaderReport, MixingCurve, MixingPlan};
use crate::experiment::record::{self, RunStart};
use crate::findings::Findings;
use crate::output::files;
use std::path::{Path, PathBuf};

/// The HTML report's file name.
pub const HTML_FILE: &str = "report.html";
/// The Markdown report's file name.
pub const MARKDOWN_FILE: &str = "report.md";

/// Where a run came from and how to redo it.
#[derive(Debug, Clone, PartialEq)]
pub struct Provenance {
    /// `shuffle-audit <version>`.
    pub tool: String,
    /// The git commit the tool ran in, if known.
    pub git_commit: Option<String>,
    /// Whether that checkout had uncommitted changes, if known.
    pub git_dirty: Option<bool>,
    /// When the run started (RFC 3339, UTC).
    pub date: String,
    /// The command that produced the report, shell-quoted.
    pub command_line: String,
    /// Commands that reproduce or verify it.
    pub reproduce: Vec<String>,
}

impl Provenance {
    /// The provenance of a run that started at `start`, made by
    /// `command_line` and reproduced by `reproduce`.
    pub fn of(start: &RunStart, command_line: String, reproduce: Vec<String>) -> Self {
        Self {
            tool: record::tool_version(),
            git_commit: start.commit.clone(),
            git_dirty: start.dirty,
            date: record::rfc3339(start.time),
            command_line,
            reproduce,
        }
    }
}

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

/// Everything a report shows.
#[derive(Debug, Clone)]
pub struct ReportInput<'a> {
    /// The title (an experiment's name).
    pub title: String,
    /// Why the study was run (may be empty); paragraphs split at blank lines.
    pub purpose: String,
    /// The significance level of the verdicts.
    pub alpha: f64,
    /// The judged audits, in run order.
    pub audits: &'a [Audit],
    /// What the run found (computed once; every output renders it).
    pub findings: &'a Findings,
    /// A note per audit (same order; missing entries mean none).
    pub notes: Vec<Option<String>>,
    /// Mixing curves requested, if any.
    pub mixing: Vec<MixingOutcome>,
    /// Audits that did not run, each with why (a program that is not
    /// installed): said in the report, never a failure.
    pub skipped: Vec<String>,
    /// Where it came from.
    pub provenance: Provenance,
}

/// The verdicts alone, as Markdown: the title, the facts of the run and
/// the verdict section of `report.md`, with its links to other sections
/// made plain text (what `--export-markdown` writes, to paste anywhere).
pub fn verdicts_markdown(input: &ReportInput<'_>) -> String {
    let mut doc = content::build(input);
    doc.sections.retain(|s| s.id == content::VERDICT_SECTION_ID);
    for block in doc.sections.iter_mut().flat_map(|s| s.blocks.iter_mut()) {
        if let model::Block::Table(table) = block {
            for cell in table.rows.iter_mut().flatten() {
                if let model::Cell::Link { text, .. } = cell {
                    *cell = model::Cell::Text(std::mem::take(text));
                }
            }
        }
    }
    markdown::render(&doc)
}

/// Writes `report.html` and `report.md` into `dir`, which must already hold
/// the run's PNGs (see [`crate::output::write_run`]); returns the paths.
pub fn write(dir: &Path, input: &ReportInput<'_>) -> Result<Vec<PathBuf>> {
    write_document(dir, &content::build(input))
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

//! How a judged run is shown on the terminal: the verdict table or the
//! JSON summary, where the report went, and the exit code. Shared by
//! `audit`, `run`, `merge` and the shards.

use super::EXIT_BIASED;
use super::audit_args::OutputArgs;
use super::color;
use super::table::{table_width, wrap};
use super::verdicts;
use crate::error::Front;
use crate::report;
use crate::study::StudyResult;
use std::path::Path;

/// How a judged run is shown: what `audit` and `merge` share.
pub(super) struct Shown<'a> {
    /// Print the summary as JSON instead of the table.
    pub json: bool,
    /// No closing note.
    pub quiet: bool,
    /// Exit 1 when something is biased.
    pub fail_on_bias: bool,
    /// Exit 1 unless every audit is "no bias detected".
    pub require_pass: bool,
    /// The report folder written, if any.
    pub out: Option<&'a Path>,
}

impl<'a> Shown<'a> {
    /// As the output flags of `audit` or `merge` ask, with the report in
    /// `out`.
    pub(super) fn of(output: &OutputArgs, out: Option<&'a Path>) -> Self {
        Self {
            json: output.json,
            quiet: output.quiet,
            fail_on_bias: output.fail_on_bias,
            require_pass: output.require_pass,
            out,
        }
    }
}

/// Prints a judged run (the verdict table, or the JSON summary), says
/// where its report went, and returns the exit code.
pub(super) fn show(result: &StudyResult, shown: &Shown<'_>) -> i32 {
    if shown.json {
        println!("{}", result.summary().to_json());
        // The table states the notes; with JSON they go to stderr.
        for note in result.notes().iter().filter(|_| !shown.quiet) {
            eprintln!("{}", wrap(&format!("note: {note}"), table_width()));
        }
    } else {
        print!(
            "{}",
            color::verdicts(&verdicts::render(result, Front::Cli), color::stdout())
        );
    }
    if let Some(dir) = shown.out.filter(|_| !shown.quiet) {
        eprintln!(
            "Reports written to {} (open {})",
            dir.display(),
            dir.join(report::HTML_FILE).display()
        );
    }
    let failed =
        (shown.fail_on_bias && result.any_biased()) || (shown.require_pass && !result.all_pass());
    if failed { EXIT_BIASED } else { 0 }
}

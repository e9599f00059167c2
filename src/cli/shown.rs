//! How a judged run of shuffles is shown on the terminal: the verdict table
//! or the JSON summary, where the report went, the note of a sequential
//! run, and the exit code. Shared by `audit`, `merge` and the shards, and
//! (the sequential note) by the sampler audits.

use super::EXIT_BIASED;
use super::audit_args::OutputArgs;
use super::color;
use super::table::{table_width, wrap};
use super::verdicts;
use shuffle_audit::deck;
use shuffle_audit::format::counted;
use shuffle_audit::output::{self, thousands};
use shuffle_audit::report::{self, content};
use shuffle_audit::study::StudyResult;
use std::path::Path;

/// How a judged run of shuffles is shown: what `audit` and `merge` share.
pub(super) struct Shown<'a> {
    /// Print the summary as JSON instead of the table.
    pub json: bool,
    /// No closing note.
    pub quiet: bool,
    /// Exit 1 when something is biased.
    pub fail_on_bias: bool,
    /// The audits were sequential (`--until-decisive`).
    pub until_decisive: bool,
    /// The report folder written, if any.
    pub out: Option<&'a Path>,
}

impl<'a> Shown<'a> {
    /// As the output flags of `audit` or `merge` ask, for a run that was
    /// sequential or not, with the report in `out`.
    pub(super) fn of(output: &OutputArgs, until_decisive: bool, out: Option<&'a Path>) -> Self {
        Self {
            json: output.json,
            quiet: output.quiet,
            fail_on_bias: output.fail_on_bias,
            until_decisive,
            out,
        }
    }
}

/// Prints a judged run (the verdict table, or the JSON summary), says
/// where its report went, and returns the exit code.
pub(super) fn show(result: &StudyResult, shown: &Shown<'_>) -> i32 {
    if shown.json {
        println!("{}", result.summary().to_json());
    } else {
        print!(
            "{}",
            color::verdicts(&render(result, shown.until_decisive), color::stdout())
        );
    }
    if let Some(dir) = shown.out.filter(|_| !shown.quiet) {
        eprintln!(
            "Reports written to {} (open {})",
            dir.display(),
            dir.join(report::HTML_FILE).display()
        );
    }
    if shown.fail_on_bias && result.any_biased() {
        EXIT_BIASED
    } else {
        0
    }
}

/// The human-readable result: a header line, the verdict table and notes.
fn render(result: &StudyResult, until_decisive: bool) -> String {
    let audits = &result.audits;
    let alpha = result.study.alpha;
    let Some(first) = audits.first() else {
        return String::new();
    };
    // Sequential audits stop at different trial counts: say what each may
    // use, not the count of the first one.
    let trials = if until_decisive {
        let most = audits.iter().map(|a| a.spec().trials).max().unwrap_or(0);
        format!("up to {} trials each (until decisive)", thousands(most))
    } else if audits
        .iter()
        .all(|a| a.spec().trials == first.spec().trials)
    {
        format!("{} trials each", thousands(first.spec().trials))
    } else {
        "trials as listed".to_string()
    };
    let mut out = if first.spec().subject.builtin().is_some() {
        format!(
            "n = {}, {trials}, rng {}, seed {}: {}\nalpha {}, Holm within each audit and over \
             {}\ntests: {}\n\n",
            first.spec().n,
            first.spec().source,
            first.spec().seed,
            content::verdict_counts(audits),
            alpha,
            counted(result.study.len() as u64, "audit", "audits"),
            first.spec().tests,
        )
    } else {
        format!(
            "{}\nalpha {}, Holm across the tests; tests: {}\n\n",
            wrap(
                &format!("{}: {}", first.spec().subject, output::run_words(first)),
                table_width()
            ),
            alpha,
            first.spec().tests,
        )
    };
    out.push_str(&verdicts::render(audits, &result.findings));
    if let Some(deck) = &first.spec().deck {
        let note = deck::battery::note(deck);
        out.push_str(&wrap(&format!("\nnote: {note}\n"), table_width()));
    }
    if until_decisive {
        out.push_str(&verdicts::sequential_note(
            audits
                .iter()
                .map(|a| (a.spec().subject.to_string(), a.looks())),
        ));
    }
    if !result.samples.is_empty() {
        out.push_str("\nsamplers: ");
        out.push_str(&super::samples::render(
            &result.samples,
            result.study.len(),
            alpha,
        ));
    }
    out
}

//! The verdict table every command prints (`audit`, `run`, `merge`, a
//! resumed run): one rendering of the judged audits of any kinds, with the
//! same words and numbers as the report and JSON (each audit's record),
//! fitted to the terminal (see [`table_width`]).

use super::table::{Table, table_width, wrap};
use crate::audit::{ALL_TRIALS, Record};
use crate::error::{Front, Opt};
use crate::format::{counted, short_count};
use crate::output::{format_p, thousands};
use crate::stats::Verdict;
use crate::study::{StudyResult, is_surprise, verdict_counts};

/// The human-readable result: a header line (what every audit shares),
/// the verdict table and its notes; `front` is where the run's trials were
/// set (the command line, or an experiment file for `run`), for the advice
/// to a run too small to tell.
pub fn render(result: &StudyResult, front: Front) -> String {
    let records = result.records();
    let Some(first) = records.first() else {
        return format!("{}: no audits\n", result.study.title);
    };
    let same = |f: &dyn Fn(&Record) -> String| records.iter().all(|r| f(r) == f(first));
    let sequential = result.study.until_decisive.is_some();
    let mut shared = Vec::new();
    if same(&|r| r.n.to_string()) {
        shared.push(format!("n = {}", first.n));
    }
    let unit = match same(&|r| r.unit.to_string()) {
        true => first.unit,
        false => "trials",
    };
    match result.study.until_decisive {
        Some(ALL_TRIALS) => {
            shared.push(format!("{unit} as read, look after look (until decisive)"))
        }
        Some(budget) => shared.push(format!(
            "up to {} {unit} each (until decisive)",
            thousands(budget)
        )),
        None if same(&|r| r.trials.to_string()) => {
            let one = unit.strip_suffix('s').unwrap_or(unit);
            shared.push(format!("{} each", counted(first.trials, one, unit)));
        }
        None => {}
    }
    if same(&|r| r.rng.clone()) {
        shared.push(format!("rng {}", first.rng));
    }
    if same(&|r| r.seed.to_string()) {
        shared.push(format!("seed {}", first.seed));
    }
    let verdicts: Vec<Verdict> = records.iter().map(|r| r.verdict).collect();
    let correction = match sequential {
        true => "each sequential: alpha spent over its looks and the audits (Bonferroni)",
        false => "Holm within each audit and over",
    };
    let mut out = wrap(
        &format!("{}: {}", shared.join(", "), verdict_counts(&verdicts)),
        table_width(),
    );
    out.push('\n');
    out.push_str(&match sequential {
        true => format!("alpha {}, {correction}\n", result.study.alpha),
        false => format!(
            "alpha {}, {correction} {}\n",
            result.study.alpha,
            counted(records.len() as u64, "audit", "audits")
        ),
    });
    if same(&|r| r.tests_run.clone()) {
        out.push_str(&wrap(&format!("tests: {}", first.tests_run), table_width()));
        out.push('\n');
    }
    for record in records.iter().filter(|r| r.feed.is_some()) {
        out.push_str(&wrap(
            &format!("{}: {}", record.subject, record.drawn),
            table_width(),
        ));
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&table(result, &records, front));
    for note in result.notes() {
        out.push_str(&wrap(&format!("\nnote: {note}\n"), table_width()));
    }
    if sequential {
        out.push_str(&sequential_note(&records));
    }
    out
}

/// The table of verdicts, followed by what its columns mean and a note on
/// any verdict opposite to the expected one and on inconclusive runs.
/// Columns every audit shares are left out (the header says them).
fn table(result: &StudyResult, records: &[Record], front: Front) -> String {
    let first = &records[0];
    let same = |f: &dyn Fn(&Record) -> String| records.iter().all(|r| f(r) == f(first));
    let with_n = !same(&|r| r.n.to_string());
    let with_trials = !same(&|r| r.trials.to_string()) || result.study.until_decisive.is_some();
    let with_rng = !same(&|r| r.rng.clone());
    let mut header = vec![("subject", false)];
    if with_n {
        header.push(("n", true));
    }
    if with_trials {
        header.push(("trials", true));
    }
    if with_rng {
        header.push(("rng", false));
    }
    header.extend([
        ("verdict", false),
        ("p (adj.)", true),
        ("seen by", false),
        ("could detect", false),
        ("largest deviation", false),
    ]);
    let mut rows = Vec::new();
    let mut surprises = Vec::new();
    let mut inconclusive = Vec::new();
    for (audit, r) in result.audits.iter().zip(records) {
        let rng = if with_rng {
            format!(", {}", r.rng)
        } else {
            String::new()
        };
        let label = format!("{} (n = {}{rng})", r.subject, r.n);
        if is_surprise(audit.as_ref()) {
            surprises.push(label.clone());
        }
        if let Some(why) = &r.inconclusive_reason {
            inconclusive.push(format!("  {label}: {why}"));
        }
        let mut row = vec![r.subject.clone()];
        if with_n {
            row.push(r.n.to_string());
        }
        if with_trials {
            row.push(short_count(r.trials));
        }
        if with_rng {
            row.push(r.rng.clone());
        }
        row.extend([
            format!("{} {}", r.verdict.symbol(), r.verdict),
            format_p(r.log10_p_adjusted),
            seen_by_cell(&r.seen_by),
            r.could_detect.clone(),
            audit.deviation_short(),
        ]);
        rows.push(row);
    }
    // The table with or without the "could detect" column.
    let detect_at = header.iter().position(|&(h, _)| h == "could detect");
    let build = |with_detect: bool| {
        let mut header = header.clone();
        let mut rows = rows.clone();
        if let Some(at) = detect_at.filter(|_| !with_detect) {
            header.remove(at);
            rows.iter_mut().for_each(|row| {
                row.remove(at);
            });
        }
        let mut table = Table::new(&header)
            .droppable(&["seen by", "could detect"])
            .shrinkable(&["seen by", "subject", "largest deviation", "rng"])
            .lists(&["seen by"], "tests");
        rows.into_iter().for_each(|row| table.push(row));
        table
    };
    let mut fitted = build(true).fit(table_width());
    let mut detect = "could detect".to_string();
    // A "could detect" every audit shares is said once in the note when
    // leaving its column out keeps every other column.
    if records.len() > 1 && same(&|r| r.could_detect.clone()) && !fitted.dropped.is_empty() {
        let without = build(false).fit(table_width());
        if without.dropped.is_empty() {
            fitted = without;
            detect = format!(
                "could detect ({} for every audit, so not a column here)",
                first.could_detect
            );
        }
    }
    let mut out = fitted.text.clone();
    let mut notes = format!(
        "\np (adj.): the p-value each verdict compared with alpha, after every correction. seen \
         by: the tests that rejected after those corrections, strongest evidence (smallest p) \
         first. {detect}: the smallest deviation the run would have seen with 90% power (of one \
         cell, an effect of Cohen's w, or one item's probability). largest deviation: \
         observed/expected of the decisive test's most deviant cell (value v or a deck's kind \
         at position p; an item, pair or slot; exact: from the exact law).",
    );
    notes.push_str(&fitted.note());
    out.push_str(&wrap(&notes, table_width()));
    out.push('\n');
    if !inconclusive.is_empty() {
        out.push_str(&format!(
            "\nInconclusive (too few trials to tell; {}):\n{}\n",
            larger_run(result, front),
            wrap(&inconclusive.join("\n"), table_width())
        ));
    }
    if !surprises.is_empty() {
        let note = format!(
            "\nOpposite to the expected verdict: {}. A test sees only what it looks at: uniform \
             marginals with non-uniform orderings (rotation) pass the position-by-value test; a \
             mild bias may need more trials (see `power`).\n",
            surprises.join(", ")
        );
        out.push_str(&wrap(&note, table_width()));
    }
    out
}

/// The "seen by" cell of a verdict table: the tests that saw the bias,
/// strongest first (`position-value, lehmer, cycles`; the table shortens
/// it to `position-value +2 more`), or `-` when none did.
pub fn seen_by_cell(tests: &[String]) -> String {
    if tests.is_empty() {
        "-".to_string()
    } else {
        tests.join(", ")
    }
}

/// The note under a sequential run's verdict table: how α was spent, and
/// each audit's looks (wrapped to the table's width).
fn sequential_note(records: &[Record]) -> String {
    let mut out = format!(
        "\nSequential: each audit doubled its trials until biased at alpha / (looks x {}) \
         (Bonferroni alpha-spending) or its budget ran out (a file until it ended); p (adjusted) \
         is its best look's p times that factor.\n",
        counted(records.len() as u64, "audit", "audits")
    );
    for r in records {
        let looks: Vec<String> = r.looks.iter().map(|l| thousands(l.trials)).collect();
        out.push_str(&format!("  {}: looks at {}\n", r.subject, looks.join(", ")));
    }
    wrap(&out, table_width())
}

/// How a run too small to tell is made larger, where `front` set its
/// trials: a sequential run's budget, an experiment's trials, else `-t`
/// (a file gives what it holds).
fn larger_run(result: &StudyResult, front: Front) -> String {
    if result.study.until_decisive.is_some() {
        format!("{} sets the budget", Opt::MaxTrials.named(front))
    } else if front == Front::Toml {
        "the experiment's `trials` (or --trials-scale) sets them".to_string()
    } else {
        format!(
            "{} sets the trials; a file gives what it holds",
            Opt::Trials.named(front)
        )
    }
}

//! A sampler audit's section of the report: what was drawn, what it found,
//! every test (and those that could not run, with why), its pictures and
//! counts; and what the report's method says of samplers.

use super::files::{drawn_words, pictures};
use super::subject::Samplers;
use crate::audit::Audit;
use crate::audit::{Kind, decisive_fact, looks_words, test_table};
use crate::report::model::{Block, Cell, Image, ImageSize, Section};
use crate::stats::Verdict;
use crate::stats::sensitivity::MAX_CELL_DEVIATION;

/// The section of one audit, whose files are in `folder` and whose anchor
/// is `anchor`, with the study's `note` on it.
pub(crate) fn section(
    a: &Audit<Samplers>,
    folder: &str,
    anchor: &str,
    note: Option<&str>,
) -> Section {
    let mut facts = vec![
        ("Verdict".into(), Cell::Verdict(a.verdict)),
        decisive_fact(&a.seen_by(), a.decisive(), a.log10_p_adjusted),
        ("What was drawn".into(), Cell::text(drawn_words(a))),
        (
            "Description".into(),
            Cell::text(a.spec.subject.description()),
        ),
        ("Largest deviation".into(), Cell::text(a.deviation_words())),
        (
            "Sensitivity".into(),
            Cell::text(a.sensitivity.stated(a.verdict == Verdict::Inconclusive)),
        ),
    ];
    if let Some(sha256) = a.feed.as_ref().and_then(|f| f.sha256.clone()) {
        facts.push(("Input SHA-256".into(), Cell::text(sha256)));
    }
    if let Some(looks) = looks_words(&a.looks, Samplers::unit(&a.spec)) {
        facts.push(("Looks".into(), Cell::text(looks)));
    }
    let mut blocks = vec![Block::Definitions(facts)];
    if let Some(note) = note {
        blocks.push(Block::Note(format!("Note: {note}")));
    }
    blocks.push(Block::Table(test_table(&a.tests)));
    for (name, _) in pictures(a) {
        let what = match name {
            "inclusion.png" => {
                "observed/expected inclusion per item, with the band a fair sampler stays within"
            }
            "board.png" => "observed/expected mines per cell of the board",
            "pairs.png" => "observed/expected count of each pair drawn together",
            _ => "observed/expected count of each item at each slot of the sample",
        };
        blocks.push(Block::Image(Image {
            path: format!("{folder}/{name}"),
            alt: format!("{}: {what}", a.spec.subject),
            caption: Some(format!("{what} (red: too often, blue: too rarely).")),
            size: ImageSize::Panel,
        }));
    }
    if !a.not_run.is_empty() {
        blocks.push(Block::Note(format!(
            "Not run: {}.",
            a.not_run
                .iter()
                .map(|(t, why)| format!("{} ({why})", t.name()))
                .collect::<Vec<_>>()
                .join("; ")
        )));
    }
    let pairs = a.tally.pairs().map(|_| format!(", {folder}/pairs.csv"));
    let slots = a.tally.slots().map(|_| format!(", {folder}/slots.csv"));
    blocks.push(Block::Paragraph(format!(
        "Counts: {folder}/inclusion.csv{}{}.",
        pairs.unwrap_or_default(),
        slots.unwrap_or_default()
    )));
    Section::new(
        anchor,
        format!("{} · N = {}", a.spec.subject, a.spec.n),
        blocks,
    )
}

/// What the report's method says of samplers: how their tests are
/// calibrated and when an audit of a sampler is conclusive.
pub(crate) fn method() -> Vec<Section> {
    vec![Section::new(
        "method-sampler-verdicts",
        "When an audit of a sampler is conclusive",
        vec![Block::List(vec![
            "Each sampler test's p-value comes from a law fitted to the statistic's exact mean, \
             variance and skewness; a test runs only with enough trials for that law to hold \
             at α = 0.001, and otherwise says how many it needs."
                .to_string(),
            format!(
                "no bias detected: no test rejected, and the run was large enough to have \
                 detected, with 90% power, a deviation of at most {:.0}% of one item's \
                 inclusion (or pick) probability, at the level the correction gives each test.",
                100.0 * MAX_CELL_DEVIATION
            ),
            format!(
                "inconclusive: no test rejected, but the inclusion (or picks) test could not \
                 run, gave only a bound, or could not see a {:.0}% deviation of one item; the \
                 audit says how many samples a verdict needs.",
                100.0 * MAX_CELL_DEVIATION
            ),
        ])],
    )]
}

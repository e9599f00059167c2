//! A shuffle audit's section of the report: its heatmap, what it found,
//! every test's result, and the findings other analyses add (whole
//! permutations, exact laws, per-line tests); and what the report's method
//! says of shuffles.

use super::ShuffleAudit as Audit;
use super::{extensions, files, lines};
use crate::audit::{decisive_fact, looks_words, test_table};
use crate::format::{counted, human_rate_of};
use crate::report::model::{Block, Cell, Image, ImageSize, Section};
use crate::stats::sensitivity::{MAX_CELL_DEVIATION, MAX_COHEN_W, MIN_EXPECTED_PER_CELL};

/// The label of an audit's section: `fisher-yates · n = 10 · chacha8`.
pub fn label(audit: &Audit) -> String {
    format!(
        "{} · n = {} · {}",
        audit.spec.subject,
        audit.spec.n,
        audit.spec.source_label()
    )
}

/// The section of one audit, whose files are in `folder` and whose anchor
/// is `anchor`: its heatmap on its own colour scale, its facts, the study's
/// `note` on it, every test's result, and the findings other analyses add.
pub(crate) fn section(audit: &Audit, folder: &str, anchor: &str, note: Option<&str>) -> Section {
    let t = &audit.found;
    let findings = audit.findings.as_ref();
    let mut blocks = vec![Block::Image(Image {
        path: format!("{folder}/heatmap.png"),
        alt: format!("Heatmap of observed/expected counts for {}", label(audit)),
        caption: Some(format!(
            "Observed / expected per cell ({}), on this audit's own logarithmic scale: {}.",
            files::layout_words(audit),
            files::scale_words(audit)
        )),
        size: ImageSize::Panel,
    })];
    let mut facts = vec![("Verdict".to_string(), Cell::Verdict(audit.verdict))];
    if let Some(expected) = <super::Shuffles as crate::audit::Kind>::expected(&audit.spec) {
        facts.push(("Expected".to_string(), Cell::text(expected.to_string())));
    }
    facts.extend([
        decisive_fact(&audit.seen_by(), audit.decisive(), audit.log10_p_adjusted),
        (
            "Sensitivity".to_string(),
            Cell::text(
                audit
                    .sensitivity
                    .stated(audit.verdict == crate::stats::Verdict::Inconclusive),
            ),
        ),
    ]);
    if let Some(plan) = findings.and_then(|f| f.plan.as_ref()) {
        facts.push((
            "Trials for 90% power".to_string(),
            Cell::text(extensions::plan_words(plan)),
        ));
    }
    facts.extend([
        (
            "Largest deviation".to_string(),
            Cell::text(audit.deviation_words()),
        ),
        ("Shuffles".to_string(), Cell::text(audit.drawn_words())),
    ]);
    if let Some(sha256) = audit.feed.as_ref().and_then(|f| f.sha256.clone()) {
        facts.push(("Input SHA-256".to_string(), Cell::text(sha256)));
    }
    if audit.tally.is_binned() {
        facts.push((
            "Matrix".to_string(),
            Cell::text(format!(
                "{}; {}",
                files::binning_words(audit.tally.binning()),
                super::record::BINNED_NOTE
            )),
        ));
    }
    if let Some(lines) = findings.and_then(|f| f.lines.as_ref()) {
        facts.push((
            "Per-position tests".to_string(),
            Cell::Stack(vec![
                Cell::text(lines::summary_words(lines)),
                Cell::Link {
                    text: "every line".to_string(),
                    target: format!("{anchor}-lines"),
                },
            ]),
        ));
    }
    facts.extend([
        (
            "Total variation".to_string(),
            Cell::text(format!(
                "{:.4} at the worst position (a fair shuffle's worst position gives about {:.4} \
                 at this many trials)",
                t.tv_marginal, t.tv_noise
            )),
        ),
        (
            "Time".to_string(),
            Cell::text(format!(
                "{:.2} s on {}, {}",
                audit.seconds,
                counted(audit.threads as u64, "thread", "threads"),
                human_rate_of(audit.per_second(), "shuffles")
            )),
        ),
    ]);
    if let Some(looks) = looks_words(&audit.looks, "shuffles") {
        facts.push(("Looks".to_string(), Cell::text(looks)));
    }
    blocks.push(Block::Definitions(facts));
    if let Some(note) = note {
        blocks.push(Block::Note(format!("Note: {note}")));
    }
    blocks.push(Block::Table(test_table(&audit.tests)));
    let layout = files::layout_words(audit);
    blocks.push(Block::Paragraph(format!(
        "Counts: {folder}/counts.csv ({layout})."
    )));
    blocks.extend(category_blocks(audit, folder));
    let mut sub = Section::new(anchor, label(audit), blocks);
    if let Some(findings) = extensions::permutation_findings(audit) {
        sub.subsections.push(Section::new(
            format!("{anchor}-permutations"),
            "Whole-permutation findings",
            findings,
        ));
    }
    if let Some(exact) = extensions::exact_results(audit) {
        sub.subsections.push(Section::new(
            format!("{anchor}-exact"),
            "Exact results",
            exact,
        ));
    }
    if let Some(lines) = findings.and_then(|f| f.lines.as_ref()) {
        sub.subsections.push(lines::section(lines, anchor));
    }
    sub
}

/// What the report's method says of shuffles: how the position-by-value
/// test is calibrated, when a shuffle audit is conclusive, and (when an
/// audit has them) what the per-line tests are.
pub(crate) fn method(audit: &Audit) -> Vec<Section> {
    let mut sections = vec![
        Section::new(
            "method-calibration",
            "Calibration of the position-by-value test",
            vec![
                Block::Paragraph(
                    "Each audit of a shuffle shuffles [0, 1, …, n−1] T times and counts O, how \
                     often value v lands at position p. A fair shuffle expects E = T/n in every \
                     cell."
                        .to_string(),
                ),
                Block::Code(
                    "Q = ((n−1)/n) · Σ (O − E)² / E   ~   χ²((n−1)²)   for a fair shuffle"
                        .to_string(),
                ),
                Block::Paragraph(
                    "The factor (n−1)/n is not decoration. Each trial adds a whole permutation \
                     matrix to the counts (exactly one count in every row and every column), so \
                     the n² cells are not independent: their deviations have covariance \
                     (T/(n−1))·P⊗P, where P = I − J/n is the centring projection. Pearson's \
                     sum Σ (O−E)²/E is therefore n/(n−1) times a χ² variable with (n−1)² \
                     degrees of freedom; used as is it would call fair shuffles biased too \
                     often (at n = 3 its mean is 6 where 4 is expected). Q removes that factor, \
                     so its p-values are accurate for large T. Tests that coincide at small n \
                     (at n = 3 the fixed-point and cycle counts split the permutations alike) \
                     are run once."
                        .to_string(),
                ),
            ],
        ),
        Section::new(
            "method-shuffle-verdicts",
            "When an audit of a shuffle is conclusive",
            vec![Block::List(vec![
                format!(
                    "no bias detected: no test rejected, and the run was large enough to have \
                     detected, with 90% power, a deviation of at most {:.0}% in a single \
                     position-by-value cell (its row and column compensating), at the level the \
                     correction gives each test. Each audit states the deviation it could see; \
                     that is the honest reading of a pass, not proof of fairness.",
                    100.0 * MAX_CELL_DEVIATION
                ),
                format!(
                    "inconclusive: no test rejected, but the run was too small to mean \
                     anything: fewer than {MIN_EXPECTED_PER_CELL} expected counts per cell, or \
                     unable to see a {:.0}% deviation of one cell (without the \
                     position-by-value test: an effect of Cohen's w = {MAX_COHEN_W}).",
                    100.0 * MAX_CELL_DEVIATION
                ),
            ])],
        ),
    ];
    if let Some(lines) = audit.findings.as_ref().and_then(|f| f.lines.as_ref()) {
        sections.push(lines::method(lines));
    }
    sections
}

/// The category charts of a deck audit in its section: the chart of the
/// column that decided a biased verdict (position by suit, say), and where
/// every column's counts and chart are.
fn category_blocks(audit: &Audit, folder: &str) -> Vec<Block> {
    use crate::deck::battery::Departure;
    let charts = files::category_charts(audit);
    if charts.is_empty() {
        return Vec::new();
    }
    let decided = match super::findings::deck_departure(audit) {
        Some(Departure::Category { column, .. }) => Some(column),
        _ => None,
    };
    let mut blocks: Vec<Block> = charts
        .iter()
        .filter(|c| decided.as_ref() == Some(&c.column))
        .map(|c| {
            Block::Image(Image {
                path: format!("{folder}/{}.png", c.stem),
                alt: format!("Position by {} for {}", c.column, label(audit)),
                caption: Some(format!(
                    "Observed / expected by position (rows) and {} (columns), the test that \
                     decided, on its own logarithmic scale: {}.",
                    c.column,
                    c.scale.range_words()
                )),
                size: ImageSize::Panel,
            })
        })
        .collect();
    let listed: Vec<String> = charts
        .iter()
        .map(|c| {
            format!(
                "by {}: {folder}/{s}.csv, {folder}/{s}.png",
                c.column,
                s = c.stem
            )
        })
        .collect();
    blocks.push(Block::Paragraph(format!(
        "Counts and charts by category (rows = positions): {}.",
        listed.join("; ")
    )));
    blocks
}

//! What a study's report says, for audits of every kind: the verdicts, the
//! grid of every audit, one section per audit (its kind's), the mixing
//! curves and the method. Built once into a [`Document`] that the HTML and
//! Markdown renderers draw.

use super::{MeasuredMixing, StudyResult};
use crate::audit::{Judged, Record};
use crate::format::thousands;
use crate::mixing::buffer::Loader;
use crate::mixing::plan::LoaderReport;
use crate::output::format_p;
use crate::output::mixing::{
    LOADER_NOTE, distance_text, fraction_text, loader_threshold_lines, loader_tv_text, tv_text,
};
use crate::report::model::{
    Block, Cell, Column, Document, Image, ImageSize, Section, Table, TableLayout,
};
use crate::report::{MixingOutcome, Provenance, markdown};
use crate::stats::Verdict;
use crate::stats::pvalue::LOG10_P_FLOOR;

/// The id of the headline verdict table (the browser check looks for it).
pub const VERDICT_TABLE_ID: &str = "verdicts";
/// Anchor id of the verdict section.
pub const VERDICT_SECTION_ID: &str = "summary";
/// The grid of every audit's picture, in a report's folder.
pub const COMPARISON_FILE: &str = "comparison.png";

/// The anchor of the section of the audit whose files are in `folder`.
pub fn anchor(folder: &str) -> String {
    format!("audit-{folder}")
}

/// Builds the report of `result`, whose audits' files are in `folders`.
pub fn build(result: &StudyResult, folders: &[String], records: &[Record]) -> Document {
    let study = &result.study;
    let audits = &result.audits;
    let mut sections = vec![verdict_section(result, folders, records)];
    if !audits.is_empty() {
        if audits.iter().any(|a| a.panel().is_some()) {
            sections.push(comparison_section(audits));
        }
        let mut section = Section::new(
            "audits",
            "Audits",
            vec![Block::Paragraph(
                "One section per audit: its picture on its own colour scale (so that even a \
                 faint pattern shows), what it found, and every test's result."
                    .to_string(),
            )],
        );
        for (i, (audit, folder)) in audits.iter().zip(folders).enumerate() {
            let note = result.note(i);
            section
                .subsections
                .push(audit.section(folder, &anchor(folder), note.as_deref()));
        }
        sections.push(section);
    }
    if !result.mixing.is_empty() {
        sections.push(mixing_section(&result.mixing));
    }
    sections.push(method_section(result));
    Document {
        title: study.title.clone(),
        lead: paragraphs(&study.purpose)
            .into_iter()
            .chain(skipped_paragraph(&study.skipped))
            .collect(),
        facts: facts(result, records),
        sections,
    }
}

/// The verdicts alone, as Markdown: the title, the facts of the run and
/// the verdict section of `report.md`, with its links to other sections
/// made plain text (what `--export-markdown` writes, to paste anywhere).
pub fn verdicts_markdown(doc: &Document) -> String {
    let mut doc = doc.clone();
    doc.sections.retain(|s| s.id == VERDICT_SECTION_ID);
    for block in doc.sections.iter_mut().flat_map(|s| s.blocks.iter_mut()) {
        if let Block::Table(table) = block {
            for cell in table.rows.iter_mut().flatten() {
                if let Cell::Link { text, .. } = cell {
                    *cell = Cell::Text(std::mem::take(text));
                }
            }
        }
    }
    markdown::render(&doc)
}

/// The audits that did not run, in one paragraph, if any.
fn skipped_paragraph(skipped: &[String]) -> Option<String> {
    (!skipped.is_empty()).then(|| format!("Not run on this machine: {}.", skipped.join("; ")))
}

/// Splits text at blank lines into paragraphs, joining the lines of each.
pub fn paragraphs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim).chain(std::iter::once("")) {
        if line.is_empty() {
            if !current.is_empty() {
                out.push(current.join(" "));
                current.clear();
            }
        } else {
            current.push(line);
        }
    }
    out
}

/// The trials of `records` in all, by unit: `3,400,000 shuffles`, or
/// `200,000 shuffles and 1,000,000 samples`.
fn trials_words(records: &[Record]) -> String {
    let mut units: Vec<(&str, u64)> = Vec::new();
    for r in records {
        match units.iter_mut().find(|(u, _)| *u == r.unit) {
            Some((_, total)) => *total = total.saturating_add(r.trials),
            None => units.push((r.unit, r.trials)),
        }
    }
    let parts: Vec<String> = units
        .iter()
        .map(|(unit, t)| format!("{} {unit}", thousands(*t)))
        .collect();
    crate::format::and_list(&parts)
}

fn facts(result: &StudyResult, records: &[Record]) -> Vec<(String, String)> {
    let study = &result.study;
    let p = &study.provenance;
    let count = records.len();
    let correction = match (study.until_decisive, count) {
        (Some(_), _) => format!(
            "each audit sequential: α spent over its looks and the {count} audits \
             (Bonferroni), Holm within each audit"
        ),
        (None, 1) => "Holm-corrected across its tests".to_string(),
        (None, k) => format!("Holm-corrected across the {k} audits"),
    };
    let meta = p
        .meta
        .pairs()
        .iter()
        .map(|(k, v)| (capitalised(k), v.clone()));
    meta.chain([
        ("Generated".into(), p.date.clone()),
        ("Tool".into(), tool_words(p)),
        (
            "Audits".into(),
            format!("{count} ({} in all)", trials_words(records)),
        ),
        (
            "Verdicts".into(),
            format!(
                "at α = {} ({}% confidence), {correction}",
                study.alpha,
                (100.0 * (1.0 - study.alpha) * 1e6).round() / 1e6,
            ),
        ),
    ])
    .collect()
}

/// `key` with its first letter in capitals, as a fact's label ("lab" →
/// "Lab").
fn capitalised(key: &str) -> String {
    let mut chars = key.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The tool, the commit it was built from, and the checkout it ran in
/// when that says more: "shuffle-audit 0.1.0 (commit 0123456789); run in a
/// checkout at commit 89abcdef0123 with uncommitted changes". The checkout
/// is left out when it is the build's own commit, unmodified.
pub fn tool_words(p: &Provenance) -> String {
    let Some(commit) = &p.git_commit else {
        return p.tool.clone();
    };
    let short = &commit[..commit.len().min(12)];
    let built_here = p.tool.contains(&commit[..commit.len().min(10)]);
    match (built_here, p.git_dirty == Some(true)) {
        (true, false) => p.tool.clone(),
        (true, true) => format!("{}; run in its checkout with uncommitted changes", p.tool),
        (false, dirty) => format!(
            "{}; run in a checkout at commit {short}{}",
            p.tool,
            if dirty {
                " with uncommitted changes"
            } else {
                ""
            }
        ),
    }
}

/// Whether the audit reached the opposite of the verdict its record
/// expects (an inconclusive run contradicts nothing: it says it could not
/// tell; a subject with no expected verdict cannot surprise).
pub fn is_surprise(audit: &dyn Judged) -> bool {
    audit.verdict() != Verdict::Inconclusive
        && audit.expected().is_some_and(|e| audit.verdict() != e)
}

/// The verdict, with a warning when it contradicts the expected one.
fn verdict_cell(audit: &dyn Judged) -> Cell {
    match audit.expected() {
        Some(expected) if is_surprise(audit) => Cell::Stack(vec![
            Cell::Verdict(audit.verdict()),
            Cell::Flag(format!("expected {expected}")),
        ]),
        _ => Cell::Verdict(audit.verdict()),
    }
}

/// The "seen by" cell of a verdict table: the tests that saw the bias,
/// strongest first, comma-separated; missing (—) when none did.
pub fn seen_by_cell<T: std::fmt::Display>(tests: impl IntoIterator<Item = T>) -> Cell {
    let names: Vec<String> = tests.into_iter().map(|t| t.to_string()).collect();
    if names.is_empty() {
        Cell::Missing
    } else {
        Cell::text(names.join(", "))
    }
}

/// The verdict table's trials cell: the kind's plan where the counts show
/// an effect to plan for, else for an inconclusive audit the trials a
/// verdict needs (`480,600 for a verdict`), else nothing.
fn trials_cell(record: &Record) -> Cell {
    match (&record.plan, record.trials_for_verdict) {
        (Some(plan), _) if record.verdict != Verdict::Inconclusive => Cell::text(plan.clone()),
        (_, Some(t)) => Cell::text(format!("{} for a verdict", thousands(t))),
        (Some(plan), None) => Cell::text(plan.clone()),
        (None, None) => Cell::Missing,
    }
}

fn verdict_section(result: &StudyResult, folders: &[String], records: &[Record]) -> Section {
    let audits = &result.audits;
    let study = &result.study;
    if audits.is_empty() {
        let text = "This study has no audits, so there are no verdicts.".to_string();
        return Section::new(VERDICT_SECTION_ID, "Verdicts", vec![Block::Paragraph(text)]);
    }
    // Columns every audit shares are stated once above the table instead:
    // the table stays narrow enough to read on a small screen.
    let varies = |f: &dyn Fn(&Record) -> String| records.iter().any(|r| f(r) != f(&records[0]));
    let first = &records[0];
    // Samples and picks in one study are trials of each.
    let unit = match varies(&|r| r.unit.to_string()) {
        true => "trials",
        false => first.unit,
    };
    type Shown = dyn Fn(&Record) -> String;
    let optional: [(Column, &Shown, String); 3] = [
        (
            Column::number("n"),
            &|r| r.n.to_string(),
            format!("n = {}", first.n),
        ),
        (
            Column::number("trials"),
            &|r| thousands(r.trials),
            format!("{} {unit}", thousands(first.trials)),
        ),
        (
            Column::text("rng"),
            &|r| r.rng.clone(),
            format!("rng {}", first.rng),
        ),
    ];
    let (varying, shared): (Vec<_>, Vec<_>) =
        optional.into_iter().partition(|(_, f, _)| varies(*f));
    let shared: Vec<String> = shared.into_iter().map(|(_, _, words)| words).collect();
    let mut columns = vec![Column::text("subject")];
    columns.extend(varying.iter().map(|(column, _, _)| column.clone()));
    columns.extend([
        Column::text("verdict"),
        Column::text("seen by").secondary(),
        Column::number("p (adjusted)"),
        Column::text("could detect"),
        Column::prose("largest deviation"),
        Column::number("trials advised").secondary(),
    ]);
    let mut table = Table {
        id: Some(VERDICT_TABLE_ID.to_string()),
        layout: TableLayout::Full,
        columns,
        rows: Vec::new(),
    };
    for ((audit, record), folder) in audits.iter().zip(records).zip(folders) {
        let mut row = vec![Cell::Link {
            text: record.subject.clone(),
            target: anchor(folder),
        }];
        row.extend(varying.iter().map(|(_, f, _)| Cell::text(f(record))));
        row.extend([
            verdict_cell(audit.as_ref()),
            seen_by_cell(audit.seen_by_titles()),
            Cell::text(format_p(record.log10_p_adjusted)),
            Cell::text(record.could_detect.clone()),
            Cell::text(record.largest_deviation.clone()),
            trials_cell(record),
        ]);
        table.rows.push(row);
    }
    let shared = match shared.is_empty() {
        true => String::new(),
        false => format!("All audits: {}. ", shared.join(", ")),
    };
    let correction = match study.until_decisive {
        Some(_) => format!(
            "each sequential, α spent over its looks and the {} audits",
            records.len()
        ),
        None => format!(
            "after a Holm correction within each audit and across all {} of them",
            records.len()
        ),
    };
    let verdicts: Vec<Verdict> = records.iter().map(|r| r.verdict).collect();
    let mut blocks = vec![Block::Paragraph(format!(
        "{shared}{} at α = {}, {correction}. \"No bias detected\" means no test found bias in a \
         run large enough to have seen the deviation under \"could detect\" (90% power), not \
         proof of fairness; \"inconclusive\" means the run was too small to tell. \"Trials \
         advised\" says how many trials would give an inconclusive audit a verdict, and how many \
         would catch a biased one again with 90% power. \"p (adjusted)\" is the p-value the \
         verdict compared with α.",
        verdict_counts(&verdicts),
        study.alpha,
    ))];
    blocks.push(Block::Table(table));
    if study.until_decisive.is_some() {
        blocks.push(Block::Note(format!(
            "Sequential (--until-decisive): each audit doubled its trials until it was biased at \
             α / (looks × {} audits) (Bonferroni alpha-spending) or its budget ran out (a file, \
             read further at each look, until it ended); \"trials\" is where it stopped, \"p \
             (adjusted)\" its best look's p times that factor, and \"could detect\" is stated at \
             the level each test was held to. Batch j after the first draws from seed \
             splitmix64(seed ⊕ j), so the run is reproducible. Each audit's looks are listed in \
             its section.",
            records.len()
        )));
    }
    if audits.iter().any(|a| is_surprise(a.as_ref())) {
        blocks.push(Block::Note(
            "⚠ marks a verdict opposite to the one expected. A test sees only what it looks at: \
             a shuffle whose marginals are uniform but whose orderings are not (rotation) passes \
             the position-by-value test by design, and a mild bias may need more trials to show."
                .to_string(),
        ));
    }
    Section::new(VERDICT_SECTION_ID, "Verdicts", blocks)
}

/// How many audits reached each verdict: "2 biased, 14 no bias detected, 1
/// inconclusive" (verdicts nobody reached are left out).
pub fn verdict_counts(verdicts: &[Verdict]) -> String {
    let parts: Vec<String> = Verdict::ALL
        .iter()
        .map(|&v| (v, verdicts.iter().filter(|&&w| w == v).count()))
        .filter(|&(_, count)| count > 0)
        .map(|(v, count)| format!("{count} {v}"))
        .collect();
    if parts.is_empty() {
        "no audits".to_string()
    } else {
        parts.join(", ")
    }
}

fn comparison_section(audits: &[Box<dyn Judged>]) -> Section {
    let count = audits.len();
    let shuffles = audits.iter().any(|a| a.kind() == "shuffle");
    let samplers = audits.iter().any(|a| a.kind() == "sampler");
    let mut how = vec![
        "Each square is one audit. A cell's colour is how often it was observed relative to a \
         fair subject (observed / expected): white = as expected, red = more often, blue = less \
         often."
            .to_string(),
    ];
    if shuffles {
        how.push(
            "A shuffle's square: rows are positions (top = position 0), columns are values (left \
             = value 0), or a deck's card kinds (left = the first kind); a fair shuffle looks evenly pale, a biased one shows \
             a pattern such as a red diagonal (values tend to stay put) or a blue one (they \
             never stay put)."
                .to_string(),
        );
    }
    if samplers {
        how.push(
            "A sampler's square: its N × N items, the diagonal how often each item was drawn, \
             the rest how often each pair was drawn together (grey where pairs are not kept); a \
             biased item is a coloured dot or band, a biased pairing a stripe."
                .to_string(),
        );
    }
    how.push(
        "All squares share one colour scale (the bar on the right), so their colours compare \
         directly. The scale is logarithmic (0.5× and 2× are equally strong), spans at least 8 \
         standard errors of a fair subject so that noise stays pale, and saturates at 0.5× and \
         2× (marked ≤ and ≥ on the bar), so one extreme audit cannot wash out the subtle ones. \
         Each square carries its verdict as a coloured badge, so a biased subject with pale \
         colours is not mistaken for a fair one."
            .to_string(),
    );
    Section::new(
        "comparison",
        "All audits at a glance",
        vec![
            wide_image(
                COMPARISON_FILE,
                format!("Grid of {count} squares, one per audit, on one shared colour scale"),
            ),
            Block::Paragraph("How to read it:".to_string()),
            Block::List(how),
        ],
    )
}

fn mixing_section(measured: &[MeasuredMixing]) -> Section {
    let mut section = Section::new(
        "mixing",
        "Mixing curves",
        vec![Block::Paragraph(
            "How far a step-by-step shuffle is from uniform after k steps, or a data loader \
             (shuffle buffer, windows, shards) against its size."
                .to_string(),
        )],
    );
    for (i, outcome) in measured.iter().map(|m| &m.outcome).enumerate() {
        let (plan, blocks) = match outcome {
            MixingOutcome::Measured(curve) => {
                let alt = format!("Mixing curve of {}", curve.plan.describe());
                let mut blocks: Vec<Block> = curve
                    .image
                    .iter()
                    .map(|path| wide_image(path, alt.clone()))
                    .collect();
                blocks.push(Block::Paragraph(format!(
                    "Distance: {}; {} shuffles per point.",
                    curve.metric,
                    thousands(curve.plan.trials)
                )));
                blocks.push(Block::Table(Table {
                    id: None,
                    layout: TableLayout::Full,
                    columns: vec![
                        Column::number("k"),
                        Column::number("distance"),
                        Column::number("bias floor"),
                    ],
                    rows: curve
                        .points
                        .iter()
                        .map(|p| {
                            vec![
                                Cell::text(p.k.to_string()),
                                Cell::text(tv_text(p)),
                                p.bias_floor
                                    .map_or(Cell::Missing, |x| Cell::text(format!("{x:.4}"))),
                            ]
                        })
                        .collect(),
                }));
                (&curve.plan, blocks)
            }
            MixingOutcome::Loaders(report) => (&report.plan, loader_blocks(report)),
            MixingOutcome::NotAvailable(plan) => (
                plan,
                vec![Block::Note(
                    "mixing curves: not available in this build".to_string(),
                )],
            ),
            MixingOutcome::Failed(plan, why) => (
                plan,
                vec![Block::Note(format!(
                    "mixing curve could not be measured: {why}"
                ))],
            ),
        };
        section.subsections.push(Section::new(
            format!("mixing-{}", i + 1),
            plan.describe(),
            blocks,
        ));
    }
    section
}

/// The blocks of a data-loader curve: its chart, the smallest sizes that
/// reach each target, what the distance means, and the table of the three
/// loaders' distances at every size.
fn loader_blocks(report: &LoaderReport) -> Vec<Block> {
    let curve = &report.curve;
    let alt = format!("Data-loader curve of {}", report.plan.describe());
    let mut blocks: Vec<Block> = report
        .image
        .iter()
        .map(|path| wide_image(path, alt.clone()))
        .collect();
    blocks.push(Block::Paragraph(format!(
        "How big must the buffer be? At n = {}: {}",
        thousands(curve.n as u64),
        loader_threshold_lines(curve).join(". ")
    )));
    blocks.push(Block::Paragraph(LOADER_NOTE.to_string()));
    let order = curve.loader.first();
    let mut columns = vec![Column::number("size"), Column::number("size / n")];
    columns.extend(order.iter().map(|l| Column::number(l.name())));
    columns.push(Column::number(&format!(
        "worst item ({})",
        curve.loader.name()
    )));
    let rows = (0..curve.sizes.len())
        .map(|i| {
            let at = |l: Loader| curve.points_of(l).nth(i).expect("a point per size");
            let mut row = vec![
                Cell::text(thousands(curve.sizes[i])),
                Cell::text(fraction_text(at(curve.loader).fraction)),
            ];
            row.extend(order.iter().map(|&l| Cell::text(loader_tv_text(at(l)))));
            row.push(Cell::text(distance_text(
                at(curve.loader).max_tv,
                0.0,
                false,
            )));
            row
        })
        .collect();
    blocks.push(Block::Table(Table {
        id: None,
        layout: TableLayout::Full,
        columns,
        rows,
    }));
    blocks
}

/// A picture across the page, without a caption.
fn wide_image(path: &str, alt: String) -> Block {
    Block::Image(Image {
        path: path.to_string(),
        alt,
        caption: None,
        size: ImageSize::Wide,
    })
}

fn method_section(result: &StudyResult) -> Section {
    let study = &result.study;
    let mut described: Vec<(&str, &str)> = Vec::new();
    for audit in &result.audits {
        for (title, description) in audit.described() {
            if !described.iter().any(|(t, _)| *t == title) {
                described.push((title, description));
            }
        }
    }
    let mut subsections = vec![Section::new(
        "method-tests",
        "What each test detects",
        vec![Block::Definitions(
            described
                .iter()
                .map(|(t, d)| (t.to_string(), Cell::text(*d)))
                .collect(),
        )],
    )];
    let mut ids: Vec<String> = Vec::new();
    for audit in &result.audits {
        for section in audit.method() {
            if !ids.contains(&section.id) {
                ids.push(section.id.clone());
                subsections.push(section);
            }
        }
    }
    subsections.push(Section::new(
        "method-holm",
        "Verdicts and the Holm correction",
        vec![
            Block::Paragraph(format!(
                "A run tests many audits at once, so the p-values are corrected with Holm's \
                 step-down method, first across each audit's tests, then across the audits: \
                 sort the m p-values, multiply the i-th smallest by (m − i + 1), keep the \
                 sequence non-decreasing and cap it at 1. This keeps the chance of calling any \
                 fair subject of the run biased at most α = {}, whatever the dependence between \
                 the tests. \"p (adjusted)\" is the result: the p-value each verdict compared \
                 with α. A verdict is biased when that p is at most α; otherwise it is no bias \
                 detected when the run could have seen the documented deviation (each kind's \
                 rule above), and inconclusive when it could not.",
                study.alpha
            )),
            Block::Paragraph(format!(
                "p-values are tail probabilities of approximations (χ² laws, and for sparse \
                 tables a law fitted to the statistic's exact moments) that are accurate where \
                 decisions are taken and meaningless far beyond. Below 1e{LOG10_P_FLOOR} they \
                 are shown as the bound \"p < 1e{LOG10_P_FLOOR}\"; the size of such a departure \
                 is its statistic's standardised excess (X − df)/√(2·df). \"Seen by\" lists the \
                 tests that rejected after every correction, strongest evidence first: by each \
                 test's own p-value, which beyond the bound only ranks (it is how far out the \
                 statistic lies in the test's approximate law) but, unlike the excess, does not \
                 favour tests of few degrees of freedom; the first decided the verdict."
            )),
        ],
    ));
    let p = &study.provenance;
    let mut reproduce = vec![Block::Paragraph(
        "Counts depend only on the subject, n, the number of trials, the random source and the \
         seed: never on the number of threads. This report was produced by:"
            .to_string(),
    )];
    reproduce.push(Block::Code(p.command_line.clone()));
    let others: Vec<&String> = p
        .reproduce
        .iter()
        .filter(|c| **c != p.command_line)
        .collect();
    if !others.is_empty() {
        reproduce.push(Block::Paragraph(
            "To reproduce it, or to verify that a rerun gives identical counts, run from the \
             same version of the tool:"
                .to_string(),
        ));
        let lines: Vec<&str> = others.iter().map(|c| c.as_str()).collect();
        reproduce.push(Block::Code(lines.join("\n")));
    }
    subsections.push(Section::new(
        "method-reproduce",
        "Reproducing this report",
        reproduce,
    ));
    Section {
        id: "method".to_string(),
        title: "Method".to_string(),
        blocks: Vec::new(),
        subsections,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::audit::{Planned, Spec};
    use crate::mixing::plan::MixingPlan;
    use crate::shuffle::{ShuffleOptions, Shuffles};
    use crate::source::SourceSpec;
    use crate::spec::{TestKind, TestSet};
    use crate::study::{Study, Unobserved};

    /// fisher-yates, sattolo and rotation at n = 5 (rotation with the
    /// marginal test alone, which cannot see it), judged together, with a
    /// note, a mixing curve this build cannot draw, an audit skipped and
    /// the provenance of a run from a dirty checkout.
    fn result() -> StudyResult {
        let specs: Vec<Box<dyn Planned>> = [
            Algorithm::FisherYates,
            Algorithm::Sattolo,
            Algorithm::Rotation,
        ]
        .into_iter()
        .map(|algorithm| {
            let tests = if algorithm == Algorithm::Rotation {
                TestSet::position_value()
            } else {
                TestSet::default_for(5)
            };
            Spec::<Shuffles> {
                threads: Some(1),
                options: ShuffleOptions::with_tests(tests),
                ..Spec::new(algorithm, 5, 20_000, SourceSpec::default(), 3)
            }
            .into()
        })
        .collect();
        let study = Study {
            title: "t".into(),
            purpose: "one\n\ntwo".into(),
            alpha: 0.001,
            notes: vec![None, Some("cycles only".into())],
            skipped: vec!["js (needs `node`, not installed)".into()],
            provenance: Provenance {
                meta: Default::default(),
                tool: "shuffle-audit 0".into(),
                git_commit: Some("0123456789abcdef".into()),
                git_dirty: Some(true),
                date: "2026-01-01T00:00:00Z".into(),
                command_line: "shuffle-audit run x.toml".into(),
                reproduce: vec!["shuffle-audit run --check out".into()],
            },
            ..Study::new(specs)
        };
        let mut result = study.run(&Unobserved).unwrap();
        result.mixing = vec![MeasuredMixing {
            outcome: MixingOutcome::NotAvailable(MixingPlan {
                process: "riffle".into(),
                n: 52,
                steps: vec![1, 7],
                trials: 10,
                source: SourceSpec::default(),
                seed: 1,
            }),
            curve: None,
        }];
        result
    }

    /// "What each test detects" names the tests the audits ran, no other:
    /// the default tests at n = 5 (no birthday, inversions, displacement,
    /// clumping, nor a deck's tests).
    #[test]
    fn the_method_describes_only_the_tests_run() {
        let doc = result().document();
        let method = doc.sections.iter().find(|s| s.id == "method").unwrap();
        let tests = method
            .subsections
            .iter()
            .find(|s| s.id == "method-tests")
            .unwrap();
        let Block::Definitions(pairs) = &tests.blocks[0] else {
            panic!("the tests are a list of definitions");
        };
        let named: Vec<&str> = pairs.iter().map(|(title, _)| title.as_str()).collect();
        let run: Vec<&str> = TestSet::default_for(5)
            .iter()
            .map(TestKind::title)
            .collect();
        assert_eq!(named, run);
        assert!(!named.contains(&TestKind::Birthday.title()));
    }

    #[test]
    fn sections_come_in_the_documented_order() {
        let result = result();
        let doc = result.document();
        let ids: Vec<&str> = doc.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["summary", "comparison", "audits", "mixing", "method"]);
        assert_eq!(
            doc.lead,
            [
                "one",
                "two",
                "Not run on this machine: js (needs `node`, not installed)."
            ]
        );
        assert!(
            doc.facts[1]
                .1
                .ends_with("commit 0123456789ab with uncommitted changes")
        );
        let Block::Table(table) = &doc.sections[0].blocks[1] else {
            panic!("the verdict table comes second");
        };
        assert_eq!(table.id.as_deref(), Some(VERDICT_TABLE_ID));
        assert_eq!(table.rows.len(), 3);
        // n, trials and rng are shared, so they are said once above the table.
        let titles: Vec<&str> = table.columns.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "subject",
                "verdict",
                "seen by",
                "p (adjusted)",
                "could detect",
                "largest deviation",
                "trials advised"
            ]
        );
        let Block::Paragraph(above) = &doc.sections[0].blocks[0] else {
            panic!("a paragraph comes first");
        };
        assert!(
            above.starts_with("All audits: n = 5, 20,000 shuffles, rng chacha8."),
            "{above}"
        );
        // A narrow screen may leave out only what each audit's section repeats;
        // never the verdict, its p, its sensitivity or the deviation.
        let secondary: Vec<&str> = table
            .columns
            .iter()
            .filter(|c| c.secondary)
            .map(|c| c.title.as_str())
            .collect();
        assert_eq!(secondary, ["seen by", "trials advised"]);
        assert_eq!(table.rows[1][1], Cell::Verdict(Verdict::Biased));
        assert_eq!(
            table.rows[1][5],
            Cell::text("value 0 never at position 0 (exact law)")
        );
        assert_eq!(
            table.rows[0][3],
            Cell::text(format_p(result.audits[0].log10_p_adjusted()))
        );
        // Sattolo's exact marginals give the trials its bias needs; none for fair ones.
        let Cell::Text(needed) = &table.rows[1][6] else {
            panic!("sattolo has a trial plan: {:?}", table.rows[1][6]);
        };
        let first = needed.split(' ').next().unwrap().replace(',', "");
        assert!(first.parse::<u64>().is_ok_and(|t| t > 0), "{needed}");
        assert_eq!(
            table.rows[0][6],
            Cell::Missing,
            "a fair verdict needs no plan"
        );
        // Rotation passes the marginal test: flagged, not hidden.
        assert_eq!(
            table.rows[2][1],
            Cell::Stack(vec![
                Cell::Verdict(Verdict::NoBiasDetected),
                Cell::Flag("expected biased".into())
            ])
        );
        let sattolo = &doc.sections[2].subsections[1];
        assert_eq!(sattolo.id, "audit-sattolo");
        assert!(
            sattolo
                .blocks
                .contains(&Block::Note("Note: cycles only".into()))
        );
        assert!(
            matches!(sattolo.blocks[0], Block::Image(_)),
            "heatmap first"
        );
        // The per-line tests are a subsection of each audit's own section.
        let optional: Vec<&str> = sattolo.subsections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            optional,
            [
                "audit-sattolo-permutations",
                "audit-sattolo-exact",
                "audit-sattolo-lines"
            ]
        );
        let titles: Vec<&str> = sattolo.subsections[..2]
            .iter()
            .map(|s| s.title.as_str())
            .collect();
        assert_eq!(titles, ["Whole-permutation findings", "Exact results"]);
        let rotation = &doc.sections[2].subsections[2];
        let optional: Vec<&str> = rotation.subsections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            optional,
            ["audit-rotation-exact", "audit-rotation-lines"],
            "no whole-permutation findings without permutation counts"
        );
        let mixing = &doc.sections[3].subsections[0];
        assert_eq!(
            mixing.blocks,
            [Block::Note(
                "mixing curves: not available in this build".into()
            )]
        );
    }

    #[test]
    fn paragraphs_split_at_blank_lines() {
        assert_eq!(
            paragraphs("  one\n two\n\n\nthree \n"),
            vec!["one two".to_string(), "three".to_string()]
        );
        assert!(paragraphs("").is_empty());
    }
}

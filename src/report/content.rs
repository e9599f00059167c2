//! What a report says: builds the [`Document`] from a judged run.

use super::extensions;
use super::lines;
use super::model::{Block, Cell, Column, Document, Image, ImageSize, Section, Table, TableLayout};
use super::{MixingOutcome, ReportInput};
use crate::algorithm::Expected;
use crate::audit::Audit;
use crate::experiment::mixing::LoaderReport;
use crate::findings::AuditFindings;
use crate::format::one_decimal;
use crate::mixing::buffer::Loader;
use crate::output::mixing::{
    LOADER_NOTE, distance_text, fraction_text, loader_threshold_lines, loader_tv_text, tv_text,
};
use crate::output::{self, format_p, thousands};
use crate::spec::TestKind;
use crate::stats::pvalue::LOG10_P_FLOOR;
use crate::stats::sensitivity::{
    MAX_CELL_DEVIATION, MAX_COHEN_W, MIN_EXPECTED_PER_CELL, SENSITIVITY_POWER,
};
use crate::stats::{TestResult, Verdict};

/// The id of the headline verdict table (the browser check looks for it).
pub const VERDICT_TABLE_ID: &str = "verdicts";
/// Anchor id of the verdict section.
pub const VERDICT_SECTION_ID: &str = "summary";

/// Builds the report of `input`.
pub fn build(input: &ReportInput<'_>) -> Document {
    let folders = output::audit_folders(input.audits);
    let findings = &input.findings.audits;
    let mut sections = vec![verdict_section(input, &folders, findings)];
    if !input.audits.is_empty() {
        sections.push(comparison_section(input.audits.len()));
        sections.push(audit_sections(input, &folders, findings));
    }
    if !input.mixing.is_empty() {
        sections.push(mixing_section(&input.mixing));
    }
    let labels: Vec<String> = input.audits.iter().map(audit_label).collect();
    let anchors: Vec<String> = folders.iter().map(|f| anchor(f)).collect();
    sections.extend(lines::section(findings, &labels, &anchors));
    sections.push(method_section(input));
    Document {
        title: input.title.clone(),
        lead: paragraphs(&input.purpose)
            .into_iter()
            .chain(skipped_paragraph(&input.skipped))
            .collect(),
        facts: facts(input),
        sections,
    }
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

fn facts(input: &ReportInput<'_>) -> Vec<(String, String)> {
    let p = &input.provenance;
    let total: u64 = input.audits.iter().map(|a| a.spec.trials).sum();
    vec![
        ("Generated".into(), p.date.clone()),
        ("Tool".into(), tool_words(p)),
        (
            "Audits".into(),
            format!(
                "{} ({} shuffles in all)",
                input.audits.len(),
                thousands(total)
            ),
        ),
        (
            "Verdicts".into(),
            format!(
                "at α = {} ({}% confidence), {}",
                input.alpha,
                (100.0 * (1.0 - input.alpha) * 1e6).round() / 1e6,
                match input.audits.len() {
                    1 => "Holm-corrected across its tests".to_string(),
                    k => format!("Holm-corrected across the {k} audits"),
                }
            ),
        ),
    ]
}

/// The tool and the commit it ran in: "shuffle-audit 0.1.0, commit
/// 0123456789ab with uncommitted changes".
pub fn tool_words(p: &super::Provenance) -> String {
    match (&p.git_commit, p.git_dirty) {
        (Some(commit), dirty) => format!(
            "{}, commit {}{}",
            p.tool,
            &commit[..commit.len().min(12)],
            if dirty == Some(true) {
                " with uncommitted changes"
            } else {
                ""
            }
        ),
        (None, _) => p.tool.clone(),
    }
}

/// What the audit should find with enough trials, as the shuffle's record
/// says: no bias for a fair algorithm on a good source, bias for a biased
/// one or a weak source; `None` when nobody knows (a shuffle from outside
/// the tool), so that only the audit judges it.
pub fn expected_verdict(audit: &Audit) -> Option<Verdict> {
    let weak = audit.spec.subject.uses_our_source() && audit.spec.source.kind.is_weak();
    match audit.spec.subject.expected_at(audit.spec.n) {
        Expected::Fair if !weak => Some(Verdict::NoBiasDetected),
        Expected::Fair | Expected::Biased => Some(Verdict::Biased),
        Expected::Unknown => None,
    }
}

/// Whether the audit reached the opposite of the expected verdict (an
/// inconclusive run contradicts nothing: it says it could not tell; a
/// shuffle with no expected verdict cannot surprise).
pub fn is_surprise(audit: &Audit) -> bool {
    audit.verdict != Verdict::Inconclusive
        && expected_verdict(audit).is_some_and(|expected| audit.verdict != expected)
}

/// The expected verdict in words: `unknown` when there is none.
fn expected_words(audit: &Audit) -> String {
    expected_verdict(audit).map_or_else(|| Expected::Unknown.slug().to_string(), |v| v.to_string())
}

/// The verdict, with a warning when it contradicts the expected one.
fn verdict_cell(audit: &Audit) -> Cell {
    if is_surprise(audit) {
        Cell::Stack(vec![
            Cell::Verdict(audit.verdict),
            Cell::Flag(format!("expected {}", expected_words(audit))),
        ])
    } else {
        Cell::Verdict(audit.verdict)
    }
}

/// The expected verdict, flagged when the audit found the opposite.
fn expected_cell(audit: &Audit) -> Cell {
    let expected = expected_words(audit);
    if is_surprise(audit) {
        Cell::Flag(expected)
    } else {
        Cell::text(expected)
    }
}

fn audit_label(audit: &Audit) -> String {
    format!(
        "{} · n = {} · {}",
        audit.spec.subject,
        audit.spec.n,
        audit.spec.source_label()
    )
}

fn anchor(folder: &str) -> String {
    format!("audit-{folder}")
}

/// The verdict table's trials cell: the power plan where the counts show
/// an effect to plan for, else for an inconclusive audit the trials a
/// verdict needs (`480,600 for a verdict`), else nothing.
fn plan_cell(audit: &Audit, found: &AuditFindings) -> Cell {
    let plan = found.plan.as_ref().filter(|p| p.trials_for_power.is_some());
    match (plan, audit.sensitivity.trials_needed) {
        (Some(plan), _) => Cell::text(extensions::plan_short(plan)),
        (None, Some(t)) if audit.verdict == Verdict::Inconclusive => {
            Cell::text(format!("{} for a verdict", thousands(t)))
        }
        (None, _) => found.plan.as_ref().map_or(Cell::Missing, |plan| {
            Cell::text(extensions::plan_short(plan))
        }),
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

/// The fact naming what decided an audit's verdict: for a biased one,
/// "Seen by" and every test that rejected, strongest first (the first
/// decided the verdict; see [`Audit::seen_by`]); otherwise the "Decisive
/// test", the one with the smallest p. Either way with the p the verdict
/// compared with α.
fn decisive_fact(audit: &Audit) -> (String, Cell) {
    let p = format!(
        "{} after every correction (the p the verdict compared with α)",
        output::p_phrase(audit.log10_p_adjusted)
    );
    let seen = audit.seen_by();
    match seen.split_first() {
        Some((first, rest)) => {
            let mut names = vec![format!(
                "{} (departure {:.1} SD)",
                first.test.title(),
                first.departure
            )];
            names.extend(rest.iter().map(|t| t.test.title().to_string()));
            (
                "Seen by".to_string(),
                Cell::text(format!(
                    "{} (strongest evidence, the smallest p, first); {p}",
                    names.join(", ")
                )),
            )
        }
        None => {
            let decisive = audit.decisive();
            (
                "Decisive test".to_string(),
                Cell::text(format!(
                    "{}, departure {:.1} SD; {p}",
                    decisive.test.title(),
                    decisive.departure
                )),
            )
        }
    }
}

/// What the run could see, and for an inconclusive one why it cannot tell.
pub fn sensitivity_words(audit: &Audit) -> String {
    let s = &audit.sensitivity;
    match &s.inconclusive {
        Some(why) if audit.verdict == Verdict::Inconclusive => format!("{why}; {}", s.words()),
        _ => s.words(),
    }
}

fn verdict_section(
    input: &ReportInput<'_>,
    folders: &[String],
    findings: &[AuditFindings],
) -> Section {
    // Columns every audit shares are stated once above the table instead:
    // the table stays narrow enough to read on a small screen.
    let audits = input.audits;
    let varies = |f: &dyn Fn(&Audit) -> String| {
        audits
            .first()
            .is_some_and(|first| audits.iter().any(|a| f(a) != f(first)))
    };
    let with_n = varies(&|a| a.spec.n.to_string());
    let with_trials = varies(&|a| a.spec.trials.to_string());
    let with_rng = varies(&|a| a.spec.source_label());
    let mut columns = vec![Column::text("algorithm")];
    if with_n {
        columns.push(Column::number("n"));
    }
    if with_trials {
        columns.push(Column::number("trials"));
    }
    if with_rng {
        columns.push(Column::text("rng"));
    }
    columns.extend([
        Column::text("verdict"),
        Column::text("seen by").secondary(),
        Column::number("p (adjusted)"),
        Column::text("could detect"),
        Column::prose("largest deviation"),
        Column::number("trials for 90% power").secondary(),
    ]);
    let mut table = Table {
        id: Some(VERDICT_TABLE_ID.to_string()),
        layout: TableLayout::Full,
        columns,
        rows: Vec::new(),
    };
    let mut surprises = 0;
    for ((audit, folder), found) in audits.iter().zip(folders).zip(findings) {
        if is_surprise(audit) {
            surprises += 1;
        }
        let mut row = vec![Cell::Link {
            text: audit.spec.subject.to_string(),
            target: anchor(folder),
        }];
        if with_n {
            row.push(Cell::text(audit.spec.n.to_string()));
        }
        if with_trials {
            row.push(Cell::text(thousands(audit.spec.trials)));
        }
        if with_rng {
            row.push(Cell::text(audit.spec.source_label()));
        }
        row.extend([
            verdict_cell(audit),
            seen_by_cell(audit.seen_by().iter().map(|t| t.test.title())),
            Cell::text(format_p(audit.log10_p_adjusted)),
            Cell::text(audit.sensitivity.short()),
            Cell::text(found.deviation.clone()),
            plan_cell(audit, found),
        ]);
        table.rows.push(row);
    }
    if input.audits.is_empty() {
        let text = "This experiment has no audits, so there are no verdicts.".to_string();
        return Section::new(VERDICT_SECTION_ID, "Verdicts", vec![Block::Paragraph(text)]);
    }
    let shared = shared_words(audits, with_n, with_trials, with_rng);
    let mut blocks = vec![Block::Paragraph(format!(
        "{}{} at α = {}, after a Holm correction within each audit and across all {} of them. \
         \"No bias detected\" means no test found bias in a run large enough to have seen the \
         deviation under \"could detect\" (90% power), not proof of fairness; \"inconclusive\" \
         means the run was too small to tell. \"p (adjusted)\" is the p-value the verdict \
         compared with α.",
        shared,
        verdict_counts(input.audits),
        input.alpha,
        input.audits.len()
    ))];
    blocks.push(Block::Table(table));
    if surprises > 0 {
        blocks.push(Block::Note(
            "⚠ marks a verdict opposite to the one expected. The position-by-value test sees only \
             where single values land: an algorithm whose marginals are uniform but whose \
             orderings are not (rotation) passes it by design, and a mild bias may need more \
             trials to show."
                .to_string(),
        ));
    }
    Section::new(VERDICT_SECTION_ID, "Verdicts", blocks)
}

/// "All audits: n = 10, 200,000 trials, rng chacha8. " for what every audit
/// shares (the columns left out of the verdict table), or nothing.
fn shared_words(audits: &[Audit], with_n: bool, with_trials: bool, with_rng: bool) -> String {
    let Some(first) = audits.first() else {
        return String::new();
    };
    let mut parts = Vec::new();
    if !with_n {
        parts.push(format!("n = {}", first.spec.n));
    }
    if !with_trials {
        parts.push(format!("{} trials", thousands(first.spec.trials)));
    }
    if !with_rng {
        parts.push(format!("rng {}", first.spec.source_label()));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("All audits: {}. ", parts.join(", "))
    }
}

/// How many audits reached each verdict: "2 biased, 14 no bias detected, 1
/// inconclusive" (verdicts nobody reached are left out).
pub fn verdict_counts(audits: &[Audit]) -> String {
    let verdicts: Vec<Verdict> = audits.iter().map(|a| a.verdict).collect();
    verdict_counts_of(&verdicts)
}

/// [`verdict_counts`] of a list of verdicts (of any kind of audit).
pub fn verdict_counts_of(verdicts: &[Verdict]) -> String {
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

fn comparison_section(count: usize) -> Section {
    Section::new(
        "comparison",
        "All audits at a glance",
        vec![
            Block::Image(Image {
                path: "comparison.png".to_string(),
                alt: format!("Grid of {count} heatmaps, one per audit, on one shared colour scale"),
                caption: None,
                size: ImageSize::Wide,
            }),
            Block::Paragraph("How to read it:".to_string()),
            Block::List(vec![
                "Each square is one audit; its rows are positions (top = position 0) and its \
                 columns are values (left = value 0)."
                    .to_string(),
                "A cell's colour is how often that value landed at that position, relative to a \
                 fair shuffle (observed / expected): white = as expected, red = more often, \
                 blue = less often."
                    .to_string(),
                "All squares share one colour scale (the bar on the right), so their colours \
                 compare directly. A fair shuffle looks evenly pale; a biased one shows a \
                 pattern such as a red diagonal (values tend to stay put) or a blue one (they \
                 never stay put)."
                    .to_string(),
                "The scale is logarithmic (0.5× and 2× are equally strong), spans at least \
                 8 standard errors of a fair shuffle so that noise stays pale, and saturates \
                 at 0.5× and 2× (marked ≤ and ≥ on the bar), so one extreme algorithm cannot \
                 wash out the subtle ones. Each square carries its verdict as a coloured \
                 badge, so a biased shuffle with pale colours is not mistaken for a fair one."
                    .to_string(),
            ]),
        ],
    )
}

fn test_table(results: &[TestResult]) -> Table {
    Table {
        id: None,
        layout: TableLayout::Full,
        columns: vec![
            Column::text("test"),
            Column::number("statistic"),
            Column::number("df"),
            Column::number("departure (SD)"),
            Column::number("p"),
            Column::number("p (Holm in audit)"),
            Column::prose("law"),
        ],
        rows: results
            .iter()
            .map(|r| {
                vec![
                    Cell::text(r.test.title()),
                    Cell::text(one_decimal(r.statistic)),
                    // A statistic without a chi-square form has no df.
                    Cell::text(if r.df > 0.0 {
                        format!("{}", r.df)
                    } else {
                        "—".to_string()
                    }),
                    Cell::text(one_decimal(r.departure)),
                    Cell::text(format_p(r.log10_p)),
                    Cell::text(format_p(r.log10_p_holm)),
                    Cell::text(r.method.clone()),
                ]
            })
            .collect(),
    }
}

fn audit_sections(
    input: &ReportInput<'_>,
    folders: &[String],
    findings: &[AuditFindings],
) -> Section {
    let mut section = Section::new(
        "audits",
        "Audits",
        vec![Block::Paragraph(
            "One section per audit: its heatmap on its own colour scale (so that even a faint \
             pattern shows), and every test's result."
                .to_string(),
        )],
    );
    for (i, (audit, folder)) in input.audits.iter().zip(folders).enumerate() {
        let t = &audit.position_value;
        let mut blocks = vec![Block::Image(Image {
            path: format!("{folder}/heatmap.png"),
            alt: format!(
                "Heatmap of observed/expected counts for {}",
                audit_label(audit)
            ),
            caption: Some(format!(
                "Observed / expected per cell (rows = positions, columns = values), on this \
                 audit's own logarithmic scale: {}.",
                output::scale_words(audit)
            )),
            size: ImageSize::Panel,
        })];
        let mut facts = vec![
            ("Verdict".to_string(), Cell::Verdict(audit.verdict)),
            ("Expected".to_string(), expected_cell(audit)),
            decisive_fact(audit),
            (
                "Sensitivity".to_string(),
                Cell::text(sensitivity_words(audit)),
            ),
        ];
        if let Some(plan) = &findings[i].plan {
            facts.push((
                "Trials for 90% power".to_string(),
                Cell::text(extensions::plan_words(plan)),
            ));
        }
        facts.extend([
            (
                "Largest deviation".to_string(),
                Cell::text(findings[i].deviation.clone()),
            ),
            ("Shuffles".to_string(), Cell::text(output::run_words(audit))),
        ]);
        if let Some(sha256) = audit.feed.as_ref().and_then(|f| f.sha256.clone()) {
            facts.push(("Input SHA-256".to_string(), Cell::text(sha256)));
        }
        if audit.tally.is_binned() {
            facts.push((
                "Matrix".to_string(),
                Cell::text(format!(
                    "{}; {}",
                    output::binning_words(audit.tally.binning()),
                    crate::output::summary::BINNED_NOTE
                )),
            ));
        }
        if let Some(lines) = &findings[i].lines {
            facts.push((
                "Per-position tests".to_string(),
                Cell::Stack(vec![
                    Cell::text(lines::summary_words(lines)),
                    Cell::Link {
                        text: "every line".to_string(),
                        target: format!("{}-lines", anchor(folder)),
                    },
                ]),
            ));
        }
        facts.extend([
            (
                "Total variation".to_string(),
                Cell::text(format!(
                    "{:.4} at the worst position (a fair shuffle's worst position gives about \
                     {:.4} at this many trials)",
                    t.tv_marginal, t.tv_noise
                )),
            ),
            (
                "Time".to_string(),
                Cell::text(format!(
                    "{:.2} s on {}, {}",
                    audit.seconds,
                    crate::format::counted(audit.threads as u64, "thread", "threads"),
                    crate::format::human_rate_of(audit.shuffles_per_sec(), "shuffles")
                )),
            ),
        ]);
        blocks.push(Block::Definitions(facts));
        if let Some(Some(note)) = input.notes.get(i) {
            blocks.push(Block::Note(format!("Note: {note}")));
        }
        blocks.push(Block::Table(test_table(&audit.tests)));
        let layout = if audit.tally.is_binned() {
            "rows = bins of positions, columns = bins of values"
        } else {
            "rows = positions, columns = values"
        };
        blocks.push(Block::Paragraph(format!(
            "Counts: {folder}/counts.csv ({layout})."
        )));
        let mut sub = Section::new(anchor(folder), audit_label(audit), blocks);
        if let Some(findings) = extensions::permutation_findings(audit) {
            sub.subsections.push(Section::new(
                format!("{}-permutations", anchor(folder)),
                "Whole-permutation findings",
                findings,
            ));
        }
        if let Some(exact) = extensions::exact_results(audit) {
            sub.subsections.push(Section::new(
                format!("{}-exact", anchor(folder)),
                "Exact results",
                exact,
            ));
        }
        section.subsections.push(sub);
    }
    section
}

fn mixing_section(outcomes: &[MixingOutcome]) -> Section {
    let mut section = Section::new(
        "mixing",
        "Mixing curves",
        vec![Block::Paragraph(
            "How far a step-by-step shuffle is from uniform after k steps, or a data loader \
             (shuffle buffer, windows, shards) against its size."
                .to_string(),
        )],
    );
    for (i, outcome) in outcomes.iter().enumerate() {
        let (plan, blocks) = match outcome {
            MixingOutcome::Measured(curve) => {
                let mut blocks = Vec::new();
                if let Some(path) = &curve.image {
                    blocks.push(Block::Image(Image {
                        path: path.clone(),
                        alt: format!("Mixing curve of {}", curve.plan.describe()),
                        caption: None,
                        size: ImageSize::Wide,
                    }));
                }
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
    let mut blocks = Vec::new();
    if let Some(path) = &report.image {
        blocks.push(Block::Image(Image {
            path: path.clone(),
            alt: format!("Data-loader curve of {}", report.plan.describe()),
            caption: None,
            size: ImageSize::Wide,
        }));
    }
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

fn method_section(input: &ReportInput<'_>) -> Section {
    let tests = Section::new(
        "method-tests",
        "What each test detects",
        vec![Block::Definitions(
            TestKind::ALL
                .iter()
                .chain(TestKind::DECK.iter())
                // Only the tests some audit of the report ran.
                .filter(|&&t| input.audits.iter().any(|a| a.test(t).is_some()))
                .map(|t| (t.title().to_string(), Cell::text(t.description())))
                .collect(),
        )],
    );
    let calibration = Section::new(
        "method-calibration",
        "Calibration of the position-by-value test",
        vec![
            Block::Paragraph(
                "Each audit shuffles [0, 1, …, n−1] T times and counts O, how often value v \
                 lands at position p. A fair shuffle expects E = T/n in every cell."
                    .to_string(),
            ),
            Block::Code(
                "Q = ((n−1)/n) · Σ (O − E)² / E   ~   χ²((n−1)²)   for a fair shuffle".to_string(),
            ),
            Block::Paragraph(
                "The factor (n−1)/n is not decoration. Each trial adds a whole permutation \
                 matrix to the counts (exactly one count in every row and every column), so \
                 the n² cells are not independent: their deviations have covariance \
                 (T/(n−1))·P⊗P, where P = I − J/n is the centring projection. Pearson's sum \
                 Σ (O−E)²/E is therefore n/(n−1) times a χ² variable with (n−1)² degrees of \
                 freedom; used as is it would call fair shuffles biased too often (at n = 3 \
                 its mean is 6 where 4 is expected). Q removes that factor, so its p-values \
                 are accurate for large T."
                    .to_string(),
            ),
        ],
    );
    let holm = Section::new(
        "method-holm",
        "Verdicts, sensitivity and the Holm correction",
        vec![
            Block::Paragraph(format!(
                "A run tests many audits at once, so the p-values are corrected with Holm's \
                 step-down method, first across each audit's tests, then across the audits: \
                 sort the m p-values, multiply the i-th smallest by (m − i + 1), keep the \
                 sequence non-decreasing and cap it at 1. This keeps the chance of calling any \
                 fair shuffle of the run biased at most α = {}, whatever the dependence between \
                 the tests. \"p (adjusted)\" is the result: the p-value each verdict compared \
                 with α. Tests that coincide at small n (at n = 3 the fixed-point and cycle \
                 counts split the permutations alike) are run once.",
                input.alpha
            )),
            Block::List(vec![
                "biased: the adjusted p-value is at most α.".to_string(),
                format!(
                    "no bias detected: no test rejected, and the run was large enough to have \
                     detected, with {:.0}% power, a deviation of at most {:.0}% in a single \
                     position-by-value cell (its row and column compensating), at the level the \
                     correction gives each test. Each audit states the deviation it could see; \
                     that is the honest reading of a pass, not proof of fairness.",
                    100.0 * SENSITIVITY_POWER,
                    100.0 * MAX_CELL_DEVIATION
                ),
                format!(
                    "inconclusive: no test rejected, but the run was too small to mean anything: \
                     fewer than {MIN_EXPECTED_PER_CELL} expected counts per cell, or unable to see \
                     a {:.0}% deviation of one cell (without the position-by-value test: an \
                     effect of Cohen's w = {MAX_COHEN_W}).",
                    100.0 * MAX_CELL_DEVIATION
                ),
            ]),
            Block::Paragraph(format!(
                "p-values are tail probabilities of approximations (χ² laws, and for sparse \
                 whole-permutation tables a law fitted to the collision count) that are \
                 accurate where decisions are taken and meaningless far beyond. Below 1e{} \
                 they are shown as the bound \"p < 1e{}\"; the size of such a departure is \
                 its statistic's standardised excess (X − df)/√(2·df). \"Seen by\" lists the \
                 tests that rejected after every correction, strongest evidence first: by each \
                 test's own p-value, which beyond the bound only ranks (it is how far out the \
                 statistic lies in the test's approximate law) but, unlike the excess, does not \
                 favour tests of few degrees of freedom; the first decided the verdict.",
                LOG10_P_FLOOR, LOG10_P_FLOOR
            )),
        ],
    );
    let p = &input.provenance;
    let mut reproduce = vec![Block::Paragraph(
        "Counts depend only on the algorithm, n, the number of trials, the random source and \
         the seed: never on the number of threads. This report was produced by:"
            .to_string(),
    )];
    reproduce.push(Block::Code(p.command_line.clone()));
    if !p.reproduce.is_empty() {
        reproduce.push(Block::Paragraph(
            "To reproduce it, or to verify that a rerun gives identical counts, run from the \
             same version of the tool:"
                .to_string(),
        ));
        reproduce.push(Block::Code(p.reproduce.join("\n")));
    }
    let reproduce = Section::new("method-reproduce", "Reproducing this report", reproduce);
    Section {
        id: "method".to_string(),
        title: "Method".to_string(),
        blocks: Vec::new(),
        subsections: vec![tests, calibration, holm, reproduce],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::engine::{RunSpec, no_progress};
    use crate::experiment::mixing::MixingPlan;
    use crate::findings::Findings;
    use crate::report::Provenance;
    use crate::source::SourceSpec;
    use crate::spec::TestSet;

    fn audits() -> Vec<Audit> {
        let specs: Vec<RunSpec> = [
            Algorithm::FisherYates,
            Algorithm::Sattolo,
            Algorithm::Rotation,
        ]
        .into_iter()
        .map(|algorithm| RunSpec {
            threads: Some(1),
            // Rotation with the marginal test alone, which cannot see it.
            tests: if algorithm == Algorithm::Rotation {
                TestSet::position_value()
            } else {
                TestSet::default_for(5)
            },
            ..RunSpec::new(algorithm, 5, 20_000, SourceSpec::default(), 3)
        })
        .collect();
        crate::audit::run_all(&specs, 0.001, &no_progress).unwrap()
    }

    fn input<'a>(audits: &'a [Audit], findings: &'a Findings) -> ReportInput<'a> {
        ReportInput {
            findings,
            title: "t".into(),
            purpose: "one\n\ntwo".into(),
            alpha: 0.001,
            audits,
            notes: vec![None, Some("cycles only".into())],
            mixing: vec![MixingOutcome::NotAvailable(MixingPlan {
                process: "riffle".into(),
                n: 52,
                steps: vec![1, 7],
                trials: 10,
                source: SourceSpec::default(),
                seed: 1,
            })],
            skipped: vec!["js (needs `node`, not installed)".into()],
            provenance: Provenance {
                tool: "shuffle-audit 0".into(),
                git_commit: Some("0123456789abcdef".into()),
                git_dirty: Some(true),
                date: "2026-01-01T00:00:00Z".into(),
                command_line: "shuffle-audit run x.toml".into(),
                reproduce: vec!["shuffle-audit run --check out".into()],
            },
        }
    }

    /// "What each test detects" names the tests the audits ran, no other:
    /// the default tests at n = 5 (no birthday, inversions, displacement,
    /// clumping, nor a deck's tests).
    #[test]
    fn the_method_describes_only_the_tests_run() {
        let audits = audits();
        let findings = Findings::of(&audits, 0.001);
        let doc = build(&input(&audits, &findings));
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
        let audits = audits();
        let findings = Findings::of(&audits, 0.001);
        let doc = build(&input(&audits, &findings));
        let ids: Vec<&str> = doc.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "summary",
                "comparison",
                "audits",
                "mixing",
                "lines",
                "method"
            ]
        );
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
                "algorithm",
                "verdict",
                "seen by",
                "p (adjusted)",
                "could detect",
                "largest deviation",
                "trials for 90% power"
            ]
        );
        let Block::Paragraph(above) = &doc.sections[0].blocks[0] else {
            panic!("a paragraph comes first");
        };
        assert!(
            above.starts_with("All audits: n = 5, 20,000 trials, rng chacha8."),
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
        assert_eq!(secondary, ["seen by", "trials for 90% power"]);
        assert_eq!(table.rows[1][1], Cell::Verdict(Verdict::Biased));
        assert_eq!(
            table.rows[1][5],
            Cell::text("value 0 never at position 0 (exact law)")
        );
        assert_eq!(
            table.rows[0][3],
            Cell::text(format_p(audits[0].log10_p_adjusted))
        );
        // Sattolo's exact marginals give the trials its bias needs; none for fair ones.
        let Cell::Text(needed) = &table.rows[1][6] else {
            panic!("sattolo has a trial plan: {:?}", table.rows[1][6]);
        };
        assert!(needed.parse::<u64>().is_ok_and(|t| t > 0), "{needed}");
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
        let optional: Vec<&str> = sattolo
            .subsections
            .iter()
            .map(|s| s.title.as_str())
            .collect();
        assert_eq!(optional, ["Whole-permutation findings", "Exact results"]);
        let rotation = &doc.sections[2].subsections[2];
        assert_eq!(
            rotation.subsections.len(),
            1,
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

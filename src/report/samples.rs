//! The report of a sampler run, in the same document model (and so the
//! same HTML and Markdown renderers) as a shuffle run: the verdicts, then
//! one section per audit with every test, what did not run and why, and
//! the counts' files.

use super::Provenance;
use super::content::{self, VERDICT_SECTION_ID, VERDICT_TABLE_ID, tool_words, verdict_counts_of};
use super::model::{Block, Cell, Column, Document, Image, ImageSize, Section, Table, TableLayout};
use crate::error::Result;
use crate::experiment::record::RunStart;
use crate::format::{one_decimal, thousands};
use crate::output::samples::{
    COMPARISON_FILE, drawn_words, pictures, sample_folders, write_samples,
};
use crate::output::{format_p, p_phrase};
use crate::sampler::audit::SampleAudit;
use std::path::{Path, PathBuf};

/// Writes the files of judged sampler `audits` at `alpha` into `dir`
/// (summaries, counts, pictures) and the report titled `title` beside them;
/// returns the report's HTML path. `judged_with` is how many audits the
/// verdicts were judged with (the samplers' own count, or every audit of a
/// study that also audits shuffles). Stage `dir` (see
/// [`crate::output::files::staged`]) so that a failure leaves nothing
/// half-written.
pub fn write(
    dir: &Path,
    title: &str,
    audits: &[SampleAudit],
    judged_with: usize,
    alpha: f64,
    provenance: &Provenance,
) -> Result<PathBuf> {
    write_samples(dir, audits, alpha)?;
    let doc = build(title, audits, judged_with, alpha, provenance);
    super::write_document(dir, &doc)?;
    Ok(dir.join(super::HTML_FILE))
}

/// The section a study that audits shuffles and samplers shows of its
/// samplers in its own report: their verdicts (judged with the shuffles'),
/// and where their files and full report are (`folder`).
pub fn study_section(
    audits: &[SampleAudit],
    judged_with: usize,
    alpha: f64,
    folder: &str,
) -> Section {
    let folders = sample_folders(audits);
    let mut section = verdict_section(audits, &folders, judged_with, alpha);
    for block in &mut section.blocks {
        if let Block::Table(table) = block {
            table.id = None;
            for row in &mut table.rows {
                if let Some(Cell::Link { text, .. }) = row.first() {
                    row[0] = Cell::text(text.clone());
                }
            }
        }
    }
    section.blocks.push(Block::Paragraph(format!(
        "Every sampler's tests, counts and pictures are in its own report: {folder}/{}.",
        super::HTML_FILE
    )));
    Section {
        id: "samplers".into(),
        title: "Samplers".into(),
        ..section
    }
}

impl SampleAudit {
    /// Writes this audit's files and report into `dir`, replacing what an
    /// earlier report left there (a folder not written by shuffle-audit is
    /// refused); returns the HTML's path. What
    /// [`crate::custom::CustomAudit::assert_fair`] does when a sampler
    /// fails.
    pub fn write_report(&self, dir: &Path) -> Result<PathBuf> {
        let call = format!(
            "shuffle_audit::SampleAudit::of_fn({:?}, {}, {}, ..).trials({}).seed({})",
            self.spec.sampler.to_string(),
            self.tally.n(),
            self.tally.k(),
            self.tally.trials(),
            self.spec.seed
        );
        let provenance = Provenance::of(&RunStart::now(), call.clone(), vec![call]);
        let title = format!("Audit of {}", self.spec.sampler);
        let audits = std::slice::from_ref(self);
        crate::output::files::staged(dir, |staged| {
            write(staged, &title, audits, 1, self.alpha, &provenance).map(drop)
        })?;
        Ok(dir.join(super::HTML_FILE))
    }
}

/// The report of judged sampler `audits` at `alpha`.
pub fn build(
    title: &str,
    audits: &[SampleAudit],
    judged_with: usize,
    alpha: f64,
    provenance: &Provenance,
) -> Document {
    let folders = sample_folders(audits);
    let total: u64 = audits.iter().map(|a| a.tally.trials()).sum();
    let facts = vec![
        ("Generated".into(), provenance.date.clone()),
        ("Tool".into(), tool_words(provenance)),
        (
            "Audits".into(),
            format!("{} ({} samples in all)", audits.len(), thousands(total)),
        ),
        (
            "Verdicts".into(),
            correction_words(audits, judged_with, alpha),
        ),
        ("Command".into(), provenance.command_line.clone()),
    ];
    let mut sections = vec![verdict_section(audits, &folders, judged_with, alpha)];
    sections.push(Section::new(
        "comparison",
        "All audits at a glance",
        vec![
            Block::Image(Image {
                path: COMPARISON_FILE.to_string(),
                alt: format!(
                    "Grid of {} item matrices, one per audit, on one shared colour scale",
                    audits.len()
                ),
                caption: None,
                size: ImageSize::Wide,
            }),
            Block::Paragraph(
                "Each square is one audit's N × N items: the diagonal is how often each item was \
                 drawn, the rest how often each pair was drawn together, as observed / expected \
                 on one log scale (grey where pairs are not kept). A fair sampler is a pale \
                 speckle; a biased item is a coloured dot or band, a biased pairing a stripe."
                    .to_string(),
            ),
        ],
    ));
    sections.push(Section {
        id: "audits".into(),
        title: "Audits".into(),
        blocks: Vec::new(),
        subsections: audits
            .iter()
            .zip(&folders)
            .map(|(a, folder)| audit_section(a, folder))
            .collect(),
    });
    sections.push(Section::new(
        "method",
        "Method",
        vec![Block::List(vec![
            "inclusion: how often each item is in the sample against k/N; Q = ((N−1)/N) Σ (C_i − Tp)² / (T p (1 − p)) follows χ²(N − 1) for uniform k-subsets (the inclusion indicators are negatively correlated, Cov = −p(1−p)/(N−1)).".into(),
            "pairs: how often each pair is drawn together, projected off what inclusion explains (the Johnson-scheme part beyond the items' own counts): catches samplers whose items are each fair but whose pairs are not (systematic sampling).".into(),
            "subsets: every whole k-subset against 1/C(N, k), while there are few enough to count.".into(),
            "order: which item comes at which slot of an ordered sample, beyond its inclusion; χ²((k − 1)(N − 1)).".into(),
            "picks: a weighted pick's counts against w_i / Σw (Pearson); a pick of a zero-weight item is impossible for a correct sampler (p = 0).".into(),
            "Each p-value comes from a law fitted to the statistic's exact mean, variance and skewness; a test runs only with enough trials for that law to hold at α = 0.001, and otherwise says how many it needs.".into(),
        ])],
    ));
    Document {
        title: title.to_string(),
        lead: Vec::new(),
        facts,
        sections,
    }
}

fn verdict_section(
    audits: &[SampleAudit],
    folders: &[String],
    judged_with: usize,
    alpha: f64,
) -> Section {
    let mut table = Table {
        id: Some(VERDICT_TABLE_ID.to_string()),
        layout: TableLayout::Full,
        columns: vec![
            Column::text("sampler"),
            Column::number("N"),
            Column::number("k"),
            Column::number("trials"),
            Column::text("verdict"),
            Column::text("seen by").secondary(),
            Column::number("p (adjusted)"),
            Column::text("could detect"),
            Column::prose("largest deviation"),
        ],
        rows: Vec::new(),
    };
    for (a, folder) in audits.iter().zip(folders) {
        table.rows.push(vec![
            Cell::Link {
                text: a.spec.sampler.to_string(),
                target: format!("audit-{folder}"),
            },
            Cell::text(a.tally.n().to_string()),
            Cell::text(a.tally.k().to_string()),
            Cell::text(thousands(a.tally.trials())),
            Cell::Verdict(a.verdict),
            content::seen_by_cell(a.seen_by().iter().map(|t| t.test)),
            Cell::text(format_p(a.log10_p_adjusted)),
            Cell::text(detectable_words(a)),
            Cell::text(a.deviation_words()),
        ]);
    }
    let verdicts: Vec<_> = audits.iter().map(|a| a.verdict).collect();
    let mut blocks = vec![
        Block::Paragraph(format!(
            "{} at α = {alpha}. \"No bias detected\" means no test found bias in a run large \
             enough to have seen one item's inclusion off by the deviation under \"could \
             detect\" (90% power), not proof of fairness; \"inconclusive\" means the run was \
             too small to tell.",
            verdict_counts_of(&verdicts)
        )),
        Block::Table(table),
    ];
    if is_sequential(audits) {
        blocks.push(Block::Note(format!(
            "Sequential (--until-decisive): each audit doubled its samples until it was \
             biased at α / (looks × {} audits) (Bonferroni alpha-spending) or its budget ran \
             out; \"trials\" is where it stopped, \"p (adjusted)\" its best look's p times \
             that factor, and \"could detect\" is stated at the level each test was held to. \
             Batch j after the first draws from seed splitmix64(seed ⊕ j), so the run is \
             reproducible. Each audit's looks are listed in its section.",
            judged_with
        )));
    }
    Section::new(VERDICT_SECTION_ID, "Verdicts", blocks)
}

/// Whether the audits are sequential (`--until-decisive`).
fn is_sequential(audits: &[SampleAudit]) -> bool {
    audits.iter().any(|a| !a.looks.is_empty())
}

/// How the verdicts were corrected: Holm across a plain run's audits, or
/// Bonferroni over a sequential run's looks and audits.
fn correction_words(audits: &[SampleAudit], judged_with: usize, alpha: f64) -> String {
    if is_sequential(audits) {
        format!(
            "at α = {alpha}, Holm-corrected within each audit; each audit sequential, α spent \
             over its looks and the {judged_with} audits (Bonferroni)"
        )
    } else {
        format!(
            "at α = {alpha}, Holm-corrected within each audit and across the {judged_with} audits"
        )
    }
}

/// A sequential audit's looks: `2,000 samples: p = 0.31; 4,000: p < 1e-12
/// (stopped; each look's level 1.2e-4)`.
fn looks_words(a: &SampleAudit) -> String {
    let steps: Vec<String> = a
        .looks
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let unit = if i == 0 { " samples" } else { "" };
            format!("{}{unit}: {}", thousands(l.trials), p_phrase(l.log10_p))
        })
        .collect();
    let stopped = if a.looks.last().is_some_and(|l| l.log10_p <= l.log10_alpha) {
        "stopped, decisive"
    } else {
        "budget spent"
    };
    let level = a.looks.first().map_or(0.0, |l| l.log10_alpha);
    format!(
        "{} ({stopped}; each look's level {})",
        steps.join("; "),
        format_p(level)
    )
}

/// "±4.1% per item", or "—" when the inclusion test could not run.
pub fn detectable_words(a: &SampleAudit) -> String {
    let d = a.sensitivity.item_deviation;
    if d.is_finite() {
        format!("±{:.2}% per item", 100.0 * d)
    } else {
        "—".to_string()
    }
}

fn audit_section(a: &SampleAudit, folder: &str) -> Section {
    let mut tests = Table {
        id: None,
        layout: TableLayout::Full,
        columns: vec![
            Column::text("test"),
            Column::number("statistic"),
            Column::number("df"),
            Column::number("p"),
            Column::number("p (Holm, this audit)"),
            Column::prose("method"),
        ],
        rows: Vec::new(),
    };
    for t in &a.tests {
        tests.rows.push(vec![
            Cell::text(t.test.to_string()),
            Cell::text(one_decimal(t.statistic)),
            Cell::text(format!("{:.0}", t.df)),
            Cell::text(format_p(t.log10_p)),
            Cell::text(format_p(t.log10_p_holm)),
            Cell::text(t.method.clone()),
        ]);
    }
    let mut facts = vec![
        ("Verdict".into(), Cell::Verdict(a.verdict)),
        ("What was drawn".into(), Cell::text(drawn_words(a))),
        (
            "Description".into(),
            Cell::text(a.spec.sampler.description()),
        ),
        ("Largest deviation".into(), Cell::text(a.deviation_words())),
        ("Could detect".into(), Cell::text(detectable_words(a))),
    ];
    let seen: Vec<String> = a.seen_by().iter().map(|t| t.test.to_string()).collect();
    if !seen.is_empty() {
        facts.insert(
            1,
            (
                "Seen by".into(),
                Cell::text(format!(
                    "{} (strongest evidence, the smallest p, first)",
                    seen.join(", ")
                )),
            ),
        );
    }
    if let Some(sha256) = a.feed.as_ref().and_then(|f| f.sha256.clone()) {
        facts.push(("Input SHA-256".into(), Cell::text(sha256)));
    }
    if !a.looks.is_empty() {
        facts.push(("Looks".into(), Cell::text(looks_words(a))));
    }
    let mut blocks = vec![Block::Definitions(facts), Block::Table(tests)];
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
            alt: format!("{}: {what}", a.spec.sampler),
            caption: Some(format!("{what} (red: too often, blue: too rarely).")),
            size: ImageSize::Panel,
        }));
    }
    if !a.not_run.is_empty() {
        blocks.push(Block::Note(format!(
            "Not run: {}.",
            a.not_run
                .iter()
                .map(|(t, why)| format!("{t} ({why})"))
                .collect::<Vec<_>>()
                .join("; ")
        )));
    }
    blocks.push(Block::Paragraph(format!(
        "Counts: {folder}/inclusion.csv{}{}.",
        if a.tally.pairs().is_some() {
            format!(", {folder}/pairs.csv")
        } else {
            String::new()
        },
        if a.tally.slots().is_some() {
            format!(", {folder}/slots.csv")
        } else {
            String::new()
        }
    )));
    Section::new(
        format!("audit-{folder}"),
        a.spec.sampler.to_string(),
        blocks,
    )
}

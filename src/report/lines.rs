//! What a report says about the per-position and per-card tests
//! ([`PositionLines`]): one line in each audit's facts, and an appendix
//! with every line's statistic, p and result, the tables a gaming lab
//! files.

use super::model::{Block, Cell, Column, Section, Table};
use crate::findings::{AuditFindings, PositionLines};
use crate::output::format_p;
use crate::stats::lines::{LineTest, LineTests};

/// The appendix's anchor id.
pub const SECTION_ID: &str = "lines";

/// The audit's per-line result in one sentence, for its facts: "each at
/// α = 0.01 (uncorrected): 1 of 52 positions and 0 of 52 cards fail (a
/// fair shuffle fails 0.52 of each on average)", and when more lines fail
/// than a fair shuffle fails on average, how likely that many is by chance.
pub fn summary_words(lines: &PositionLines) -> String {
    let part = |tests: &LineTests, noun: &str| {
        format!("{} of {} {noun}", tests.failed(), tests.lines.len())
    };
    let p = &lines.positions;
    let mut words = format!(
        "each at α = {} (uncorrected): {} and {} fail (a fair shuffle fails {:.2} of each on \
         average)",
        p.alpha,
        part(p, "positions"),
        part(&lines.cards, "cards"),
        p.expected_failures(),
    );
    let surprising: Vec<String> = [(p, "positions"), (&lines.cards, "cards")]
        .into_iter()
        .filter(|(t, _)| t.failed() as f64 > t.expected_failures())
        .map(|(t, noun)| format!("{noun} {}", chance_words(t)))
        .collect();
    if !surprising.is_empty() {
        words += &format!(
            "; chance of failing this many or more: {}",
            surprising.join(", ")
        );
    }
    words
}

/// The chance of failing at least as many lines, as a percentage.
fn chance_words(tests: &LineTests) -> String {
    let chance = tests.chance_of_as_many();
    if chance >= 0.01 {
        format!("{:.0}%", 100.0 * chance)
    } else {
        format!("{chance:.1e}")
    }
}

/// The appendix: what the line tests are, then one table per audit that
/// has them (`labels[i]` and `anchors[i]` name audit i). `None` when no
/// audit has them.
pub fn section(
    findings: &[AuditFindings],
    labels: &[String],
    anchors: &[String],
) -> Option<Section> {
    let first = findings.iter().find_map(|f| f.lines.as_ref())?;
    let mut section = Section::new(
        SECTION_ID,
        "Per-position and per-card tests",
        vec![
            Block::Paragraph(format!(
                "Each position and each card is tested on its own, as gaming-lab standards ask: \
                 row p of the counts (which values landed at position p) and column v (where \
                 card v landed) are each a multinomial sample of the trials, uniform over the n \
                 cells for a fair shuffle, so Pearson's statistic of each follows χ²(n − 1). \
                 Every line is held to α = {} with no correction, so a fair shuffle fails about \
                 α·n of them by chance; the verdicts above rest on the corrected tests of the \
                 whole matrix, not on these lines.",
                first.positions.alpha
            )),
            Block::Note(
                "Lines of one matrix share its totals, so they are weakly dependent: the \
                 chance of failing as many lines, computed as if they were independent, is \
                 an approximation."
                    .to_string(),
            ),
        ],
    );
    for ((found, label), anchor) in findings.iter().zip(labels).zip(anchors) {
        let Some(lines) = &found.lines else {
            continue;
        };
        section.subsections.push(Section::new(
            format!("{anchor}-lines"),
            label.clone(),
            vec![
                Block::Paragraph(format!("{}.", capitalised(&summary_words(lines)))),
                Block::Table(table(lines)),
            ],
        ));
    }
    Some(section)
}

/// One row per index: the position's test, then the card's.
fn table(lines: &PositionLines) -> Table {
    let df = lines.positions.lines.first().map_or(0.0, |l| l.df);
    let columns = vec![
        Column::number("#"),
        Column::number(&format!("position χ²({df})")),
        Column::number("p"),
        Column::text("result"),
        Column::number(&format!("card χ²({df})")),
        Column::number("p"),
        Column::text("result"),
    ];
    let cells = |l: &LineTest, alpha: f64| {
        [
            Cell::text(format!("{:.2}", l.statistic)),
            Cell::text(format_p(l.log10_p)),
            if l.fails_at(alpha) {
                Cell::Flag("fail".to_string())
            } else {
                Cell::text("pass")
            },
        ]
    };
    let rows = lines
        .positions
        .lines
        .iter()
        .zip(&lines.cards.lines)
        .map(|(p, c)| {
            std::iter::once(Cell::text(p.index.to_string()))
                .chain(cells(p, lines.positions.alpha))
                .chain(cells(c, lines.cards.alpha))
                .collect()
        })
        .collect();
    Table {
        id: None,
        columns,
        rows,
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

//! What a report says about the per-position and per-card tests
//! ([`PositionLines`]): one line in each audit's facts, and in its section
//! every line's statistic, p and result, the tables a gaming lab files.

use super::findings::PositionLines;
use crate::output::format_p;
use crate::report::model::{Block, Cell, Column, Section, Table, TableLayout};
use crate::stats::lines::{LineTest, LineTests};

/// The audit's per-line result in one sentence, for its facts: "each at
/// α = 0.01 (uncorrected): 1 of 52 positions and 0 of 52 cards fail (a
/// fair shuffle fails about 0.52 of each); by suit: 0 of 52 positions and
/// 0 of 4 suits", and when more lines fail than a fair shuffle fails on
/// average, how likely that many is by chance.
pub fn summary_words(lines: &PositionLines) -> String {
    let part = |tests: &LineTests, noun: &str| {
        format!("{} of {} {noun}", tests.failed(), tests.lines.len())
    };
    let mut surprising = Vec::new();
    let mut views = Vec::new();
    for view in &lines.views {
        let groups = plural(&view.name);
        views.push(format!(
            "{}{} and {} fail",
            if view.name == "card" {
                String::new()
            } else {
                format!("by {}: ", view.name)
            },
            part(&view.positions, "positions"),
            part(&view.by_group, &groups)
        ));
        let positions = format!("positions by {}", view.name);
        for (tests, noun) in [(&view.positions, positions), (&view.by_group, groups)] {
            if tests.failed() as f64 > tests.expected_failures() {
                surprising.push(format!("{noun} {}", chance_words(tests)));
            }
        }
    }
    let Some(first) = lines.views.first() else {
        return String::new();
    };
    let mut words = format!(
        "each at α = {} (uncorrected): {} (a fair shuffle fails α of the lines: {:.2} of {} \
         positions)",
        first.positions.alpha,
        views.join("; "),
        first.positions.expected_failures(),
        first.positions.lines.len()
    );
    if !surprising.is_empty() {
        words += &format!(
            "; chance of failing this many or more: {}",
            surprising.join(", ")
        );
    }
    words
}

/// `card` → `cards`, `suit` → `suits`, `rank` → `ranks`, `colour` →
/// `colours`: a view's groups in a phrase.
fn plural(name: &str) -> String {
    format!("{name}s")
}

/// The chance of failing at least as many lines, as a percentage.
fn chance_words(tests: &LineTests) -> String {
    let chance = tests.chance_of_as_many();
    if chance >= 0.01 {
        format!("{:.0}%", 100.0 * chance)
    } else if chance >= 1e-12 {
        format!("{chance:.1e}")
    } else {
        "< 1e-12".to_string()
    }
}

/// What the line tests are, for the report's method.
pub(crate) fn method(lines: &PositionLines) -> Section {
    let alpha = lines.views.first().map_or(0.0, |v| v.positions.alpha);
    Section::new(
        "method-lines",
        "Per-position and per-card tests",
        vec![
            Block::Paragraph(format!(
                "Each position and each card is tested on its own, as gaming-lab standards ask, \
                 and again by suit, rank or any category column of the deck: row p of the \
                 position-by-card (or by-category) counts is what landed at position p, a \
                 multinomial sample of the trials with the deck's shares for a fair shuffle, \
                 so Pearson's statistic follows χ²(m − 1) for m cards or categories; column g \
                 is where the items of g went, uniform over the n positions, χ²(n − 1). Every \
                 line is held to α = {alpha} with no correction, so a fair shuffle fails about \
                 α of the lines by chance; the verdicts rest on the corrected tests of the \
                 whole matrix, not on these lines."
            )),
            Block::Note(
                "Lines of one matrix share its totals, so they are weakly dependent: the \
                 chance of failing as many lines, computed as if they were independent, is \
                 an approximation."
                    .to_string(),
            ),
        ],
    )
}

/// An audit's line tables (one per view and kind of line), as a
/// subsection of its section anchored `anchor`.
pub(crate) fn section(lines: &PositionLines, anchor: &str) -> Section {
    let alpha = lines.views.first().map_or(0.0, |v| v.positions.alpha);
    let mut blocks = vec![Block::Paragraph(format!(
        "{}.",
        capitalised(&summary_words(lines))
    ))];
    for view in &lines.views {
        let positions: Vec<(String, &LineTest)> = view
            .positions
            .lines
            .iter()
            .map(|l| (l.index.to_string(), l))
            .collect();
        blocks.push(Block::Table(table(
            "position", &view.name, &positions, alpha,
        )));
        let groups: Vec<(String, &LineTest)> = view
            .by_group
            .lines
            .iter()
            .map(|l| (view.groups[l.index].clone(), l))
            .collect();
        blocks.push(Block::Table(table(&view.name, "position", &groups, alpha)));
    }
    Section::new(
        format!("{anchor}-lines"),
        "Per-position and per-card tests",
        blocks,
    )
}

/// One table of lines: each `line` (a position, a card, a suit) with its
/// χ² over the `across` cells, p and result.
fn table(line: &str, across: &str, lines: &[(String, &LineTest)], alpha: f64) -> Table {
    let df = lines.first().map_or(0.0, |(_, l)| l.df);
    Table {
        id: None,
        layout: TableLayout::Dense,
        columns: vec![
            Column::text(line),
            Column::number(&format!("χ²({df}) across {across}s")),
            Column::number("p"),
            Column::text("result"),
        ],
        rows: lines
            .iter()
            .map(|(name, l)| {
                vec![
                    Cell::text(name.clone()),
                    Cell::text(format!("{:.2}", l.statistic)),
                    Cell::text(format_p(l.log10_p)),
                    if l.fails_at(alpha) {
                        Cell::Flag("fail".to_string())
                    } else {
                        Cell::text("pass")
                    },
                ]
            })
            .collect(),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

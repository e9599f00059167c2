//! What the report's sections of every kind say alike: the test that
//! decided the verdict, every test's result, a sequential audit's looks.

use super::{Look, Named};
use crate::format::{one_decimal, thousands};
use crate::output::{format_p, p_phrase};
use crate::report::model::{Cell, Column, Table, TableLayout};
use crate::stats::TestResult;

/// The fact naming what decided an audit's verdict: for a biased one,
/// "Seen by" and every test that rejected, strongest first (the first
/// decided the verdict); otherwise the "Decisive test", the one with the
/// smallest p. Either way with the p the verdict compared with α.
pub fn decisive_fact<T: Named + Copy>(
    seen: &[&TestResult<T>],
    decisive: Option<&TestResult<T>>,
    log10_p_adjusted: f64,
) -> (String, Cell) {
    let p = format!(
        "{} after every correction (the p the verdict compared with α)",
        p_phrase(log10_p_adjusted)
    );
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
        None => (
            "Decisive test".to_string(),
            Cell::text(match decisive {
                Some(d) => format!("{}, departure {:.1} SD; {p}", d.test.title(), d.departure),
                None => format!("no test could run; {p}"),
            }),
        ),
    }
}

/// Every test's result as a table: statistic, df, departure, p and p after
/// Holm within the audit, and how the p-value was obtained.
pub fn test_table<T: Named + Copy>(results: &[TestResult<T>]) -> Table {
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

/// A sequential audit's looks in words: `2,000 samples: p = 0.31; 4,000:
/// p < 1e-12 (stopped, decisive; each look's level 1.2e-4)`; `None` for a
/// plain audit.
pub fn looks_words(looks: &[Look], unit: &str) -> Option<String> {
    let first = looks.first()?;
    let steps: Vec<String> = looks
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let unit = if i == 0 {
                format!(" {unit}")
            } else {
                String::new()
            };
            format!("{}{unit}: {}", thousands(l.trials), p_phrase(l.log10_p))
        })
        .collect();
    let stopped = if looks.last().is_some_and(|l| l.log10_p <= l.log10_alpha) {
        "stopped, decisive"
    } else {
        "budget spent"
    };
    Some(format!(
        "{} ({stopped}; each look's level {})",
        steps.join("; "),
        format_p(first.log10_alpha)
    ))
}

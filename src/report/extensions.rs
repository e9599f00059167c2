//! Where other analyses plug into the report.
//!
//! Each function here is the single place the report asks for something that
//! another part of the tool computes (test results, power planning, the
//! whole-permutation counts, exact laws); the renderers need not know.

use super::model::{Block, Cell, Column, Table};
use crate::audit::Audit;
use crate::exact;
use crate::output::yes_no;
use crate::permutation::unrank;
use crate::power::{self, Effect};
use crate::spec::TestKind;
use crate::stats::{Cell as PvCell, Verdict};

/// The power the "trials needed" column plans for.
pub const PLANNED_POWER: f64 = 0.9;

/// Largest enumeration the report attempts for its exact results (draw
/// sequences), so that writing a report stays quick.
pub const REPORT_MAX_LEAVES: u64 = 2_000_000;

/// Shuffles needed to detect `audit`'s bias with 90% power at `alpha`, for
/// its decisive test; `None` (shown as "—") when the audit found no bias.
///
/// The effect comes from the exact marginals where they can be propagated
/// (position-by-value test), otherwise from the audit's own statistic:
/// (statistic − df) / T estimates the non-centrality per trial.
pub fn trials_needed(audit: &Audit, alpha: f64) -> Option<u64> {
    if audit.verdict != Verdict::Biased {
        return None;
    }
    let decisive = audit.decisive();
    let spec = &audit.spec;
    // Only propagated marginals: cheap. An enumeration could take seconds.
    let exact = if decisive.test == TestKind::PositionValue
        && exact::check_marginals(spec.algorithm, spec.n, spec.source).is_ok()
    {
        power::exact_effect(spec.algorithm, spec.n, spec.source, TestKind::PositionValue)
            .ok()
            .flatten()
    } else {
        None
    };
    let effect = exact.unwrap_or_else(|| Effect::from_result(decisive, spec.n, spec.trials));
    power::plan(effect, alpha, PLANNED_POWER)
        .ok()
        .map(|plan| plan.recommended_trials)
}

/// How many permutations the findings list at each end.
const FINDINGS: usize = 5;

/// The most over- and under-represented permutations, when whole
/// permutations were counted; `None` leaves the section out.
pub fn permutation_findings(audit: &Audit) -> Option<Vec<Block>> {
    let counts = audit.tally.permutations()?;
    let expected = audit.spec.trials as f64 / counts.len() as f64;
    let mut order: Vec<usize> = (0..counts.len()).collect();
    order.sort_by_key(|&r| std::cmp::Reverse(counts[r]));
    let never = counts.iter().filter(|&&c| c == 0).count();
    let row = |r: usize| {
        let perm: Vec<String> = unrank(r, audit.spec.n).iter().map(u32::to_string).collect();
        vec![
            Cell::text(perm.join(" ")),
            Cell::text(counts[r].to_string()),
            Cell::text(format!("{expected:.1}")),
            Cell::text(format!("{:.3}", counts[r] as f64 / expected)),
        ]
    };
    let columns = || {
        vec![
            Column::text("permutation"),
            Column::number("count"),
            Column::number("expected"),
            Column::number("count / expected"),
        ]
    };
    let mut rows: Vec<Vec<Cell>> = order.iter().take(FINDINGS).map(|&r| row(r)).collect();
    rows.extend(order.iter().rev().take(FINDINGS).rev().map(|&r| row(r)));
    Some(vec![
        Block::Paragraph(format!(
            "All {} permutations were counted ({} never occurred). The {FINDINGS} most and \
             {FINDINGS} least frequent, against the {expected:.1} a fair shuffle expects each; \
             every count is in permutations.csv.",
            counts.len(),
            never
        )),
        Block::Table(Table {
            id: None,
            columns: columns(),
            rows,
        }),
    ])
}

/// The largest deviation of the exact marginals, as (cell, n·P), where they
/// can be propagated and are certainly not uniform; `None` otherwise. A
/// finding from the exact law beats any estimate from counts.
pub fn exact_marginal_deviation(audit: &Audit) -> Option<(PvCell, f64)> {
    let spec = &audit.spec;
    exact::check_marginals(spec.algorithm, spec.n, spec.source).ok()?;
    let m = exact::marginals(spec.algorithm, spec.n, spec.source).ok()?;
    if m.exactly_uniform() != Some(false) {
        return None;
    }
    let cell = m.max_deviation_cell();
    let ratio = spec.n as f64 * m.probability(cell.position, cell.value);
    Some((cell, ratio))
}

/// The exact law of `audit`'s algorithm at its n where it can be enumerated
/// quickly (or its exact marginals, where they can be propagated); `None`
/// leaves the section out.
pub fn exact_results(audit: &Audit) -> Option<Vec<Block>> {
    let spec = &audit.spec;
    if exact::check_enumerate(spec.algorithm, spec.n, spec.source, REPORT_MAX_LEAVES).is_ok() {
        let law = exact::enumerate(spec.algorithm, spec.n, spec.source, REPORT_MAX_LEAVES).ok()?;
        let m = law.marginals();
        return Some(vec![Block::Definitions(vec![
            ("Method".into(), Cell::text(law.method().describe())),
            (
                "Reachable permutations".into(),
                Cell::text(format!("{} of {}", law.support_size(), law.permutations())),
            ),
            (
                "Law exactly uniform".into(),
                Cell::text(yes_no(law.is_uniform())),
            ),
            (
                "Total variation distance to uniform".into(),
                Cell::text(format!("{:.6}", law.tv_to_uniform())),
            ),
            largest_deviation(m),
        ])]);
    }
    if exact::check_marginals(spec.algorithm, spec.n, spec.source).is_ok() {
        let m = exact::marginals(spec.algorithm, spec.n, spec.source).ok()?;
        return Some(vec![Block::Definitions(vec![
            ("Method".into(), Cell::text(m.method().describe())),
            largest_deviation(&m),
        ])]);
    }
    None
}

/// The exact marginals' largest deviation and where it is, as a definition.
fn largest_deviation(m: &exact::ExactMarginals) -> (String, Cell) {
    let cell = m.max_deviation_cell();
    (
        "Largest marginal deviation |n·P − 1|".into(),
        Cell::text(format!(
            "{:.6} (value {} at position {})",
            m.max_deviation(),
            cell.value,
            cell.position
        )),
    )
}

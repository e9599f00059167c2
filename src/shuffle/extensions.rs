//! Where other analyses plug into a shuffle audit's report section.
//!
//! Each function here is the single place the report asks for something that
//! another part of the tool computes (test results, power planning, the
//! whole-permutation counts, exact laws); the renderers need not know.

use super::ShuffleAudit as Audit;
use super::Shuffles;
use super::findings::REPORT_MAX_LEAVES;
use crate::exact;
use crate::output::thousands;
use crate::output::yes_no;
use crate::permutation::unrank;
use crate::power::AuditPlan;
use crate::report::model::{Block, Cell, Column, Table, TableLayout};

/// The plan in a few words for the verdict table: "505", "36 to 52" for an
/// estimated effect, or why there is none.
pub fn plan_short(plan: &AuditPlan<Shuffles>) -> String {
    match (plan.trials_for_power, plan.details.trials_for_power_range) {
        (Some(t), Some(range)) if range.low != t || range.high != Some(t) => {
            format!("{} ({range})", thousands(t))
        }
        (Some(t), _) => thousands(t),
        (None, _) => "no plan".to_string(),
    }
}

/// The plan in a sentence for an audit's section.
pub fn plan_words(plan: &AuditPlan<Shuffles>) -> String {
    let basis = format!(
        "at level α/(m·M) = {:.3e} ({} tests × {} audits), which Holm's first step \
         guarantees",
        plan.level, plan.tests_in_audit, plan.audits_in_run
    );
    let approximation = format!(
        "the χ² approximation of that test needs at least {} trials",
        thousands(plan.details.trials_for_approximation)
    );
    if let (Some(t), Some(sim)) = (plan.trials_for_power, &plan.details.simulation) {
        return format!(
            "{} trials give {:.0}% power, found by simulation (a χ² plan below {} trials is \
             only a first guess): {}, judged as this run judges it (its own p-value against \
             α/M = {:.3e}, {} audits){}",
            thousands(t),
            100.0 * plan.power,
            thousands(crate::power::simulate::SIMULATE_BELOW),
            sim.words(),
            sim.level,
            plan.audits_in_run,
            plan.deciding_test.map_or(String::new(), |test| format!(
                "; the {} test decides most of them",
                test.title()
            )),
        );
    }
    match (plan.trials_for_power, plan.deciding_test) {
        (Some(t), Some(test)) => format!(
            "{} trials give {:.0}% power with the {} test ({} effect) {basis}{}; {approximation}",
            thousands(t),
            100.0 * plan.power,
            test.title(),
            if plan.details.exact {
                "exact"
            } else {
                "estimated"
            },
            plan.details
                .trials_for_power_range
                .map_or(String::new(), |r| format!(
                    " (effect uncertainty: {r} trials)"
                )),
        ),
        _ => format!(
            "no plan: {}",
            plan.details
                .no_power_reason
                .as_deref()
                .unwrap_or("no test sees this bias")
        ),
    }
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
            layout: TableLayout::Full,
            columns: columns(),
            rows,
        }),
    ])
}

/// The exact law of `audit`'s algorithm at its n where it can be enumerated
/// quickly (or its exact marginals, where they can be propagated); `None`
/// leaves the section out.
pub fn exact_results(audit: &Audit) -> Option<Vec<Block>> {
    let spec = &audit.spec;
    let algorithm = *spec.subject.builtin()?;
    if exact::check_enumerate(algorithm, spec.n, spec.source, REPORT_MAX_LEAVES).is_ok() {
        let law = exact::enumerate(algorithm, spec.n, spec.source, REPORT_MAX_LEAVES).ok()?;
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
    if exact::check_marginals(algorithm, spec.n, spec.source).is_ok() {
        let m = exact::marginals(algorithm, spec.n, spec.source).ok()?;
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

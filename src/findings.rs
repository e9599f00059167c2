//! What a run found, computed once from the judged audits and rendered by
//! every output (terminal table, summary.json and .csv, report, heatmap
//! titles): the largest deviation in words and numbers, and the trials a
//! biased audit needs for 90% power. Computing them once is what keeps the
//! outputs from disagreeing (and keeps exact marginals and power plans from
//! being computed twice).

use crate::audit::Audit;
use crate::exact;
use crate::format::format_ratio;
use crate::power::{self, AuditPlan};
use crate::stats::lines::LineTests;
use crate::stats::position_value::standout_z;
use crate::stats::{Cell as PvCell, Verdict};
use serde::Serialize;

/// The findings of every audit of a run, in run order.
#[derive(Debug, Clone, Serialize)]
pub struct Findings {
    /// The significance level of the verdicts.
    pub alpha: f64,
    /// One entry per audit, in the same order as the audits.
    pub audits: Vec<AuditFindings>,
}

/// What one audit found beyond its own fields.
#[derive(Debug, Clone, Serialize)]
pub struct AuditFindings {
    /// The largest deviation in words ([`deviation_words`]).
    pub deviation: String,
    /// The cell behind `deviation` and its observed/expected ratio (from
    /// the exact law where known), when a cell is named.
    pub deviation_cell: Option<DeviationCell>,
    /// The trial plan of a biased audit (`None` otherwise: no effect to plan
    /// for).
    pub plan: Option<AuditPlan>,
    /// Each position and each card tested on its own at the run's α, as
    /// gaming-lab standards ask; `None` when too few trials (fewer than
    /// [`crate::stats::lines::LINE_MIN_EXPECTED`] expected per cell).
    pub lines: Option<PositionLines>,
}

/// The per-position and per-card tests of one audit (see
/// [`crate::stats::lines`]): row p of the position-by-value matrix is where
/// position p's values came from, column v is where card v went.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PositionLines {
    /// One test per position.
    pub positions: LineTests,
    /// One test per card (value).
    pub cards: LineTests,
}

impl PositionLines {
    /// The line tests of `audit`'s matrix at level `alpha`.
    pub fn of(audit: &Audit, alpha: f64) -> Option<Self> {
        let n = audit.tally.n();
        let uniform = vec![1.0 / n as f64; n];
        let counts = audit.tally.counts();
        Some(Self {
            positions: LineTests::rows(counts, n, &uniform, alpha)?,
            cards: LineTests::columns(counts, n, &uniform, alpha)?,
        })
    }
}

/// A named cell of the position-by-value matrix and how far it is off.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DeviationCell {
    /// The position.
    pub position: usize,
    /// The value.
    pub value: usize,
    /// Observed (or exact) over expected.
    pub ratio: f64,
    /// Whether the ratio comes from the exact law rather than the counts.
    pub exact: bool,
}

impl Findings {
    /// The findings of judged `audits` at `alpha`.
    pub fn of(audits: &[Audit], alpha: f64) -> Self {
        Self {
            alpha,
            audits: audits
                .iter()
                .map(|a| AuditFindings::of(a, alpha, audits.len()))
                .collect(),
        }
    }
}

impl AuditFindings {
    /// The findings of one audit, judged among `audits_in_run` at `alpha`.
    pub fn of(audit: &Audit, alpha: f64, audits_in_run: usize) -> Self {
        let deviation_cell = deviation_cell(audit);
        Self {
            deviation: deviation_words_of(audit, deviation_cell),
            deviation_cell,
            plan: trial_plan(audit, alpha, audits_in_run),
            lines: PositionLines::of(audit, alpha),
        }
    }
}

/// The power the "trials needed" column plans for.
pub const PLANNED_POWER: f64 = 0.9;

/// Largest enumeration attempted for exact results (draw sequences), so
/// that judging and reporting a run stays quick.
pub const REPORT_MAX_LEAVES: u64 = 2_000_000;

/// The trial plan for a biased audit: the trials its battery, judged as the
/// run judges it (Holm within the audit and across `audits_in_run`), needs to
/// detect this bias with 90% power; `None` (shown as "—") for an audit that
/// found no bias, where there is no effect to plan for.
pub fn trial_plan(audit: &Audit, alpha: f64, audits_in_run: usize) -> Option<AuditPlan> {
    (audit.verdict == Verdict::Biased).then(|| {
        power::plan_audit_with(
            audit,
            alpha,
            audits_in_run,
            PLANNED_POWER,
            REPORT_MAX_LEAVES,
        )
    })
}

/// The largest deviation of the exact marginals, as (cell, n·P), where they
/// can be propagated and are certainly not uniform; `None` otherwise. A
/// finding from the exact law beats any estimate from counts.
pub fn exact_marginal_deviation(audit: &Audit) -> Option<(PvCell, f64)> {
    let spec = &audit.spec;
    let algorithm = spec.subject.builtin()?;
    exact::check_marginals(algorithm, spec.n, spec.source).ok()?;
    let m = exact::marginals(algorithm, spec.n, spec.source).ok()?;
    if m.exactly_uniform() != Some(false) {
        return None;
    }
    let cell = m.max_deviation_cell();
    let ratio = spec.n as f64 * m.probability(cell.position, cell.value);
    Some((cell, ratio))
}

/// The cell the findings name: the exact law's largest deviation where the
/// marginals are known and not uniform, else a cell that stands out from
/// the noise of the n² cells at the level the verdict gives each test.
fn deviation_cell(audit: &Audit) -> Option<DeviationCell> {
    if let Some((cell, ratio)) = exact_marginal_deviation(audit) {
        return Some(DeviationCell {
            position: cell.position,
            value: cell.value,
            ratio,
            exact: true,
        });
    }
    let n = audit.spec.n;
    let cell = audit.position_value.standout(n, audit.sensitivity.level)?;
    let expected = audit.spec.trials as f64 / n as f64;
    Some(DeviationCell {
        position: cell.position,
        value: cell.value,
        ratio: audit.tally.count(cell.position, cell.value) as f64 / expected,
        exact: false,
    })
}

/// The largest deviation in plain words, naming a cell only when it is
/// real: from the exact marginals where they are known and not uniform,
/// otherwise only a cell that stands out from the noise of the n² cells at
/// the level the verdict gives each test (so a run-wide false alarm is as
/// rare for cells as for verdicts): "value 0 at position 0: 1.29× expected";
/// else "no cell stands out", with the largest |z| and the |z| needed.
pub fn deviation_words(audit: &Audit) -> String {
    deviation_words_of(audit, deviation_cell(audit))
}

fn deviation_words_of(audit: &Audit, cell: Option<DeviationCell>) -> String {
    match cell {
        Some(c) if c.exact => format!("{} (exact law)", cell_words(c)),
        Some(c) => cell_words(c),
        None => {
            let (n, level) = (audit.spec.n, audit.sensitivity.level);
            let quiet = format!(
                "no cell stands out (max |z| {:.1} < {:.1})",
                audit.position_value.max_abs_z,
                standout_z(n, level)
            );
            match audit.verdict {
                Verdict::Biased => {
                    format!("{quiet}; {} sees the bias", audit.decisive().test.title())
                }
                Verdict::NoBiasDetected | Verdict::Inconclusive => quiet,
            }
        }
    }
}

/// One cell's deviation: "value 3 at position 0: 1.29× expected".
fn cell_words(c: DeviationCell) -> String {
    let (p, v) = (c.position, c.value);
    if c.ratio == 0.0 {
        format!("value {v} never at position {p}")
    } else {
        format!(
            "value {v} at position {p}: {}× expected",
            format_ratio(c.ratio)
        )
    }
}

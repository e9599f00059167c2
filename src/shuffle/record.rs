//! A shuffle audit's own fields in `summary.json`, beside the fields
//! every kind has ([`crate::audit::Record`]): the position-by-value
//! figures, the cell the findings name, the trial plan, the per-line
//! tests, and the counts themselves for small n.

use super::ShuffleAudit as Audit;
use super::Shuffles;
use super::battery::cells;
use super::findings::{DeviationCell, PositionLines};
use crate::power::AuditPlan;
use crate::stats::pvalue;
use crate::tally::Cells;
use serde::Serialize;
use serde_json::{Map, Value};

/// The shuffle's own fields of its record.
#[derive(Debug, Clone, Serialize)]
struct Fields {
    /// For a biased audit, or an inconclusive one whose counts show an
    /// effect: the trials its battery, judged as this run judged it, needs
    /// to detect that effect with 90% power (empty otherwise, or if no
    /// plan).
    trials_for_power: Option<u64>,
    /// The position-by-value test's calibrated statistic Q (one of the
    /// tests; the verdict's p is `p_adjusted`).
    position_value_statistic: f64,
    /// Degrees of freedom of Q, (n-1)² (or (B-1)² when binned).
    position_value_df: f64,
    /// The position-by-value test's own p-value (before any correction),
    /// as stated.
    position_value_p: f64,
    /// Whether `position_value_p` is only the bound "p < 1e-12".
    position_value_p_is_bound: bool,
    /// log10 of `position_value_p`.
    position_value_log10_p: f64,
    /// Largest |standardised residual| of a cell.
    max_abs_z: f64,
    /// The |z| a cell must reach to stand out among the n² cells (B² when
    /// binned) at the level the verdict gives each test.
    standout_z: f64,
    /// The position of the cell that stands out, if one does.
    standout_position: Option<usize>,
    /// The value of the cell that stands out, if one does.
    standout_value: Option<usize>,
    /// Largest |O/E - 1| (descriptive: noise unless a cell stands out).
    max_rel_dev: f64,
    /// Its position.
    max_rel_dev_position: usize,
    /// Its value.
    max_rel_dev_value: usize,
    /// Largest per-position total variation distance to uniform.
    tv_marginal: f64,
    /// The mean of `tv_marginal` for a fair shuffle at this trial count.
    tv_noise: f64,
    /// The cell behind `largest_deviation`, when one is named.
    #[serde(skip_serializing_if = "Option::is_none")]
    deviation_cell: Option<DeviationCell>,
    /// The whole trial plan of a biased audit.
    #[serde(skip_serializing_if = "Option::is_none")]
    plan_details: Option<AuditPlan<Shuffles>>,
    /// Each position and each card tested on its own (uncorrected, at the
    /// run's α), when there are enough trials.
    #[serde(skip_serializing_if = "Option::is_none")]
    lines: Option<PositionLines>,
    /// `counts[position][value]` (`[position][kind]` for a deck whose items
    /// repeat, see `kinds`), for up to [`MAX_EMBEDDED_N`]² cells (larger
    /// matrices are only in the audit's `counts.csv`).
    #[serde(skip_serializing_if = "Option::is_none")]
    counts: Option<Vec<Vec<u64>>>,
    /// The kinds of a deck whose items repeat: the columns of `counts`,
    /// `deviation_cell` and the standout cell are these kinds.
    #[serde(skip_serializing_if = "Option::is_none")]
    kinds: Option<Vec<String>>,
    /// How the matrix is binned, when it is (large n): then `counts`,
    /// cells, standout and deviation positions and values are bins.
    #[serde(skip_serializing_if = "Option::is_none")]
    binning: Option<BinningSummary>,
}

/// A binned matrix's bins, in `summary.json`.
#[derive(Debug, Clone, Serialize)]
pub struct BinningSummary {
    /// Bins per side (B).
    pub bins: usize,
    /// Each bin's indices, `first–last` (the same bins for positions and
    /// values).
    pub labels: Vec<String>,
    /// The tests left out because the matrix is binned or n is large, in
    /// words.
    pub note: String,
}

impl BinningSummary {
    /// The summary of `binning` (not the identity).
    pub fn of(binning: crate::tally::Binning) -> Self {
        Self {
            bins: binning.bins(),
            labels: (0..binning.bins()).map(|b| binning.label(b)).collect(),
            note: BINNED_NOTE.to_string(),
        }
    }
}

/// What a binned audit leaves out, as outputs say it.
pub const BINNED_NOTE: &str = "position-by-value counted in bins of positions and values; per-position \
     and per-card line tests skipped (they need the full matrix)";

/// The largest n whose count matrix summary.json embeds (n² numbers, or
/// as many cells of a multiset's position-by-kind matrix); every audit's
/// `counts.csv` holds its matrix whatever n.
pub const MAX_EMBEDDED_N: usize = 64;

/// The counts summary.json embeds: the matrix's rows when it has at most
/// [`MAX_EMBEDDED_N`]² cells.
fn embedded_counts(cells: &Cells) -> Option<Vec<Vec<u64>>> {
    (cells.rows() * cells.cols() <= MAX_EMBEDDED_N * MAX_EMBEDDED_N).then(|| cells.count_rows())
}

/// The shuffle's own fields of `audit`'s record.
pub(crate) fn record(audit: &Audit) -> Map<String, Value> {
    let t = &audit.found;
    let n = audit.spec.n;
    let level = audit.sensitivity.level;
    let standout = t.standout(n, level);
    let findings = audit.findings.as_ref();
    let plan = findings.and_then(|f| f.plan.clone());
    let fields = Fields {
        trials_for_power: plan.as_ref().and_then(|p| p.trials_for_power),
        position_value_statistic: t.statistic,
        position_value_df: t.df,
        position_value_p: pvalue::stated(t.log10_p()),
        position_value_p_is_bound: pvalue::is_bound(t.log10_p()),
        position_value_log10_p: t.log10_p(),
        max_abs_z: t.max_abs_z,
        standout_z: t.standout_z(n, level),
        standout_position: standout.map(|c| c.position),
        standout_value: standout.map(|c| c.value),
        max_rel_dev: t.max_rel_dev,
        max_rel_dev_position: t.max_rel_dev_cell.position,
        max_rel_dev_value: t.max_rel_dev_cell.value,
        tv_marginal: t.tv_marginal,
        tv_noise: t.tv_noise,
        deviation_cell: findings.and_then(|f| f.deviation_cell.clone()),
        plan_details: plan,
        lines: findings.and_then(|f| f.lines.clone()),
        counts: embedded_counts(&cells(&audit.spec, &audit.tally)),
        kinds: audit
            .spec
            .options
            .deck
            .as_ref()
            .filter(|d| d.repeats())
            .map(|d| d.kind_names().to_vec()),
        binning: audit
            .tally
            .is_binned()
            .then(|| BinningSummary::of(audit.tally.binning())),
    };
    match serde_json::to_value(fields) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

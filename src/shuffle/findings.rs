//! What a shuffle audit found, computed once it is judged and rendered by
//! every output (terminal table, summary.json and .csv, report, heatmap
//! titles): the largest deviation in words and numbers, and the trials a
//! biased audit needs for 90% power. Computing them once is what keeps the
//! outputs from disagreeing (and keeps exact marginals and power plans from
//! being computed twice).

use super::ShuffleAudit as Audit;
use super::Shuffles;
use super::battery::cells;
use crate::deck;
use crate::exact;
use crate::format::{and_list, format_ratio};
use crate::power::{self, AuditPlan};
use crate::stats::lines::LineTests;
use crate::stats::{Cell as PvCell, Verdict};
use crate::tally::Binning;
use serde::Serialize;

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
    pub plan: Option<AuditPlan<Shuffles>>,
    /// Each position and each card tested on its own at the run's α, as
    /// gaming-lab standards ask; `None` when too few trials (fewer than
    /// [`crate::stats::lines::LINE_MIN_EXPECTED`] expected per cell).
    pub lines: Option<PositionLines>,
}

/// The per-position and per-card tests of one audit (see
/// [`crate::stats::lines`]), one [`LineView`] per way of naming what lands
/// at a position: the cards (the values, or a deck's kinds), then each
/// category column of a deck (suit, rank, colour, ...).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PositionLines {
    /// The views, cards first.
    pub views: Vec<LineView>,
}

/// The line tests of one view: row p of the position-by-group counts is
/// what landed at position p (against the groups' shares of the deck),
/// column g is where group g's items went (uniform over the positions).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LineView {
    /// What the groups are: `card`, `suit`, `rank`, a CSV column's name.
    pub name: String,
    /// Each group's name, as outputs write it.
    pub groups: Vec<String>,
    /// One test per position.
    pub positions: LineTests,
    /// One test per group.
    pub by_group: LineTests,
}

impl LineView {
    /// The view of `audit`'s counts grouped by `group_of` (the group of
    /// each value), or `None` with too few trials for every line.
    fn of(
        audit: &Audit,
        name: &str,
        group_of: &[u32],
        groups: Vec<String>,
        alpha: f64,
    ) -> Option<Self> {
        let n = audit.tally.n();
        let m = groups.len();
        let sizes = deck::laws::group_sizes(group_of, m);
        let shares: Vec<f64> = sizes.iter().map(|&k| k as f64 / n as f64).collect();
        let counts = deck::laws::group_matrix(&audit.tally, group_of, m);
        Some(Self {
            name: name.to_string(),
            groups,
            positions: LineTests::rows(&counts, m, &shares, alpha)?,
            by_group: LineTests::columns(&counts, m, &vec![1.0 / n as f64; n], alpha)?,
        })
    }
}

impl PositionLines {
    /// The line tests of `audit`'s matrix at level `alpha`: by card, and by
    /// each category column of its deck. `None` when too few trials for
    /// the card lines (fewer than [`crate::stats::lines::LINE_MIN_EXPECTED`]
    /// per cell) and when the matrix is binned (large n: the lines need
    /// every position's and every card's counts, n² of them); a category
    /// view with too few is left out.
    pub fn of(audit: &Audit, alpha: f64) -> Option<Self> {
        if audit.tally.is_binned() {
            return None;
        }
        let n = audit.tally.n();
        let (kind_of, names): (Vec<u32>, Vec<String>) = match &audit.spec.options.deck {
            Some(deck) => (deck.kind_of().to_vec(), deck.kind_names().to_vec()),
            None => {
                let label = |v: usize| match &audit.feed {
                    Some(feed) => feed.read.label(v),
                    None => v.to_string(),
                };
                ((0..n as u32).collect(), (0..n).map(label).collect())
            }
        };
        let mut views = vec![LineView::of(audit, "card", &kind_of, names, alpha)?];
        if let Some(deck) = &audit.spec.options.deck {
            for (column, of_item) in deck.columns().iter().zip(deck.item_columns()) {
                views.extend(LineView::of(
                    audit,
                    &column.name,
                    &of_item,
                    column.names.clone(),
                    alpha,
                ));
            }
        }
        Some(Self { views })
    }
}

/// A named cell of the position-by-value matrix (position-by-kind for a
/// deck whose items repeat) and how far it is off.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeviationCell {
    /// The position.
    pub position: usize,
    /// The value.
    pub value: usize,
    /// Observed (or exact) over expected.
    pub ratio: f64,
    /// Whether the ratio comes from the exact law rather than the counts.
    pub exact: bool,
    /// The bins per side when the matrix is binned: then `position` and
    /// `value` are bins (see `binning` in summary.json).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bins: Option<usize>,
    /// The kind's name when the deck's items repeat: then `value` is the
    /// kind's index (a column of the position-by-kind counts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

impl AuditFindings {
    /// The findings of one audit, judged among `audits_in_run` at `alpha`.
    pub fn of(audit: &Audit, alpha: f64, audits_in_run: usize) -> Self {
        let deviation_cell = deviation_cell(audit);
        Self {
            deviation: deviation_words_of(audit, deviation_cell.as_ref()),
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

/// The trial plan for a biased or inconclusive audit: the trials its
/// battery, judged as the run judges it (Holm within the audit and across
/// `audits_in_run`), needs to detect the effect its counts show with 90%
/// power (an inconclusive audit's counts may show none: the plan then says
/// so); `None` (shown as "—") for an audit that found no bias with a run
/// large enough to see one, where there is no effect to plan for.
pub fn trial_plan(audit: &Audit, alpha: f64, audits_in_run: usize) -> Option<AuditPlan<Shuffles>> {
    (audit.verdict != Verdict::NoBiasDetected).then(|| {
        power::plan_audit_with(
            audit,
            alpha,
            audits_in_run,
            PLANNED_POWER,
            REPORT_MAX_LEAVES,
        )
    })
}

/// The largest deviation of the exact marginals, as (cell, observed over
/// expected), where they can be propagated and are certainly not uniform;
/// `None` otherwise. For a deck whose items repeat the cell is a kind at a
/// position (the copies' probabilities summed, against the kind's share),
/// as every per-cell output of such a deck reads ([`crate::tally::Cells`]).
/// A finding from the exact law beats any estimate from counts.
pub fn exact_marginal_deviation(audit: &Audit) -> Option<(PvCell, f64)> {
    let spec = &audit.spec;
    if audit.tally.is_binned() {
        return None;
    }
    let algorithm = *spec.subject.builtin()?;
    exact::check_marginals(algorithm, spec.n, spec.source).ok()?;
    let m = exact::marginals(algorithm, spec.n, spec.source).ok()?;
    if m.exactly_uniform() != Some(false) {
        return None;
    }
    let Some(deck) = spec.options.deck.as_ref().filter(|d| d.repeats()) else {
        let cell = m.max_deviation_cell();
        let ratio = spec.n as f64 * m.probability(cell.position, cell.value);
        return Some((cell, ratio));
    };
    let n = spec.n;
    let sizes = deck::laws::group_sizes(deck.kind_of(), deck.kinds());
    let mut best: Option<(PvCell, f64)> = None;
    for position in 0..n {
        let mut by_kind = vec![0.0f64; deck.kinds()];
        for (v, &k) in deck.kind_of().iter().enumerate() {
            by_kind[k as usize] += m.probability(position, v);
        }
        for (value, (&p, &size)) in by_kind.iter().zip(&sizes).enumerate() {
            let ratio = p * n as f64 / size as f64;
            if best.is_none_or(|(_, r)| (ratio - 1.0).abs() > (r - 1.0).abs()) {
                best = Some((PvCell { position, value }, ratio));
            }
        }
    }
    // Copies of one kind can trade places without moving the kinds: only a
    // deviation beyond the marginals' rounding is a finding.
    let tolerance = 1e-9 + 100.0 * n as f64 * m.rounding_bound();
    best.filter(|(_, r)| (r - 1.0).abs() > tolerance)
}

/// The cell the findings name: the exact law's largest deviation where the
/// marginals are known and not uniform, else a cell that stands out from
/// the noise of the matrix's cells at the level the verdict gives each test.
fn deviation_cell(audit: &Audit) -> Option<DeviationCell> {
    let kind = |value: usize| {
        audit
            .spec
            .options
            .deck
            .as_ref()
            .filter(|d| d.repeats())
            .map(|d| d.kind_names()[value].clone())
    };
    if let Some((cell, ratio)) = exact_marginal_deviation(audit) {
        return Some(DeviationCell {
            position: cell.position,
            value: cell.value,
            ratio,
            exact: true,
            bins: None,
            kind: kind(cell.value),
        });
    }
    let t = &audit.found;
    let cell = t.standout(audit.spec.n, audit.sensitivity.level)?;
    let cells = cells(&audit.spec, &audit.tally);
    Some(DeviationCell {
        position: cell.position,
        value: cell.value,
        ratio: cells.count(cell.position, cell.value) as f64
            / cells.expected(cell.position, cell.value),
        exact: false,
        bins: t.bins,
        kind: kind(cell.value),
    })
}

/// What the decisive test of a biased deck audit saw, named as a lab
/// names it when that test is an order or category test ("7H followed by
/// 8H: 1.32× expected", "suit H at position 17: 1.04× expected"); `None`
/// otherwise, where the cell of the matrix speaks for it.
pub(crate) fn deck_departure(audit: &Audit) -> Option<crate::deck::battery::Departure> {
    if audit.verdict != Verdict::Biased {
        return None;
    }
    let deck = audit.spec.options.deck.as_ref()?;
    let test = audit.seen_by().first()?.test;
    crate::deck::battery::departure(test, &audit.tally, deck)
}

/// The largest deviation in plain words, naming a cell only when it is
/// real: from the exact marginals where they are known and not uniform,
/// otherwise only a cell that stands out from the noise of the n² cells at
/// the level the verdict gives each test (so a run-wide false alarm is as
/// rare for cells as for verdicts): "value 0 at position 0: 1.29× expected";
/// else "no cell stands out", with the largest |z| and the |z| needed.
pub fn deviation_words(audit: &Audit) -> String {
    deviation_words_of(audit, deviation_cell(audit).as_ref())
}

fn deviation_words_of(audit: &Audit, cell: Option<&DeviationCell>) -> String {
    if let Some(departure) = deck_departure(audit) {
        return departure.words();
    }
    match cell {
        Some(c) if c.exact => format!("{} (exact law)", cell_words(c, None)),
        Some(c) => cell_words(c, binned(audit)),
        None => {
            let t = &audit.found;
            let quiet = format!(
                "no cell stands out (max |z| {:.1} < {:.1})",
                t.max_abs_z,
                t.standout_z(audit.spec.n, audit.sensitivity.level)
            );
            match audit.verdict {
                Verdict::Biased => {
                    let seen: Vec<&str> = audit.seen_by().iter().map(|t| t.test.title()).collect();
                    let verb = if seen.len() > 1 { "see" } else { "sees" };
                    format!("{quiet}; {} {verb} the bias", and_list(&seen))
                }
                Verdict::NoBiasDetected | Verdict::Inconclusive => quiet,
            }
        }
    }
}

/// The binning of `audit`'s matrix, when it is binned.
fn binned(audit: &Audit) -> Option<Binning> {
    audit.tally.is_binned().then(|| audit.tally.binning())
}

/// One cell's deviation: "value 3 at position 0: 1.29× expected"; of a
/// binned matrix ([`Binning`]), "values 0–15624 at positions 0–15624: …";
/// of a multiset deck, "kind AS at position 0: …" (its copies together).
fn cell_words(c: &DeviationCell, binning: Option<Binning>) -> String {
    let (what, p, s) = match (binning, &c.kind) {
        (Some(b), _) => (
            format!("values {}", b.label(c.value)),
            b.label(c.position),
            "s",
        ),
        (None, Some(kind)) => (format!("kind {kind}"), c.position.to_string(), ""),
        (None, None) => (format!("value {}", c.value), c.position.to_string(), ""),
    };
    if c.ratio == 0.0 {
        format!("{what} never at position{s} {p}")
    } else {
        format!(
            "{what} at position{s} {p}: {}× expected",
            format_ratio(c.ratio)
        )
    }
}

//! The verdict table both `audit` and `run` print: one rendering of the
//! judged audits, with the same words and numbers as the report and JSON,
//! fitted to the terminal (see [`table_width`]).

use super::table::{Table, table_width, wrap};
use shuffle_audit::audit::Audit;
use shuffle_audit::findings::{AuditFindings, Findings};
use shuffle_audit::format::{counted, format_ratio, short_count};
use shuffle_audit::output::{format_p, thousands};
use shuffle_audit::report::content;
use shuffle_audit::sequential::Look;
use shuffle_audit::stats::Verdict;

/// What every audit of a run shares, for a header line (`n = 10`,
/// `1,000,000 trials each`, `rng chacha8`); these columns are left out of
/// the table.
pub fn shared(audits: &[Audit]) -> Vec<String> {
    let Some(first) = audits.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if audits.iter().all(|a| a.spec().n == first.spec().n) {
        out.push(format!("n = {}", first.spec().n));
    }
    if audits
        .iter()
        .all(|a| a.spec().trials == first.spec().trials)
    {
        out.push(format!("{} trials each", thousands(first.spec().trials)));
    }
    if audits
        .iter()
        .all(|a| a.spec().source_label() == first.spec().source_label())
    {
        out.push(format!("rng {}", first.spec().source_label()));
    }
    out
}

/// The table of verdicts, followed by what its columns mean and a note on
/// any verdict opposite to the expected one and on inconclusive runs.
/// Columns every audit shares (see [`shared`]) are left out.
pub fn render(audits: &[Audit], findings: &Findings) -> String {
    let first = match audits.first() {
        Some(first) => first,
        None => return String::new(),
    };
    let same = |f: &dyn Fn(&Audit) -> String| audits.iter().all(|a| f(a) == f(first));
    let with_n = !same(&|a| a.spec().n.to_string());
    let with_trials = !same(&|a| a.spec().trials.to_string());
    let with_rng = !same(&|a| a.spec().source_label());
    let mut header = vec![("algorithm", false)];
    if with_n {
        header.push(("n", true));
    }
    if with_trials {
        header.push(("trials", true));
    }
    if with_rng {
        header.push(("rng", false));
    }
    header.extend([
        ("verdict", false),
        ("p (adj.)", true),
        ("seen by", false),
        ("could detect", false),
        ("largest deviation", false),
    ]);
    let mut rows = Vec::new();
    let mut surprises = Vec::new();
    let mut inconclusive = Vec::new();
    for (a, found) in audits.iter().zip(&findings.audits) {
        let rng = if with_rng {
            format!(", {}", a.spec().source_label())
        } else {
            String::new()
        };
        let label = format!("{} (n = {}{rng})", a.spec().subject, a.spec().n);
        if content::is_surprise(a) {
            surprises.push(label.clone());
        }
        if let Some(why) = a
            .sensitivity()
            .inconclusive
            .as_ref()
            .filter(|_| a.verdict() == Verdict::Inconclusive)
        {
            inconclusive.push(format!("  {label}: {why}"));
        }
        let mut row = vec![a.spec().subject.to_string()];
        if with_n {
            row.push(a.spec().n.to_string());
        }
        if with_trials {
            row.push(short_count(a.spec().trials));
        }
        if with_rng {
            row.push(a.spec().source_label());
        }
        row.extend([
            format!("{} {}", a.verdict().symbol(), a.verdict()),
            format_p(a.log10_p_adjusted()),
            seen_by_cell(a.seen_by().iter().map(|t| t.test)),
            a.sensitivity().short(),
            deviation_short(found),
        ]);
        rows.push(row);
    }
    // The table with or without the "could detect" column.
    let detect_at = header.iter().position(|&(h, _)| h == "could detect");
    let build = |with_detect: bool| {
        let mut header = header.clone();
        let mut rows = rows.clone();
        if let Some(at) = detect_at.filter(|_| !with_detect) {
            header.remove(at);
            rows.iter_mut().for_each(|row| {
                row.remove(at);
            });
        }
        let mut table = Table::new(&header)
            .droppable(&["seen by", "could detect"])
            .shrinkable(&["seen by", "algorithm", "largest deviation", "rng"])
            .lists(&["seen by"], "tests");
        rows.into_iter().for_each(|row| table.push(row));
        table
    };
    let mut fitted = build(true).fit(table_width());
    let mut detect = "could detect".to_string();
    // A "could detect" every audit shares is said once in the note when
    // leaving its column out keeps every other column.
    if audits.len() > 1 && same(&|a| a.sensitivity().short()) && !fitted.dropped.is_empty() {
        let without = build(false).fit(table_width());
        if without.dropped.is_empty() {
            fitted = without;
            detect = format!(
                "could detect ({} for every audit, so not a column here)",
                first.sensitivity().short()
            );
        }
    }
    let mut out = fitted.text.clone();
    let mut notes = format!(
        "\np (adj.): the p-value each verdict compared with alpha, after every correction. \
         seen by: the tests that rejected after those corrections, strongest evidence (smallest \
         p) first. {detect}: the smallest deviation of one cell (or effect of Cohen's w) the run \
         would have seen with 90% power. largest deviation: observed/expected count of value v \
         (or a deck's kind, by name) at position p (exact: from the exact law).",
    );
    notes.push_str(&fitted.note());
    out.push_str(&wrap(&notes, table_width()));
    out.push('\n');
    if !inconclusive.is_empty() {
        out.push_str(&format!(
            "\nInconclusive (too few trials to tell):\n{}\n",
            wrap(&inconclusive.join("\n"), table_width())
        ));
    }
    if !surprises.is_empty() {
        let note = format!(
            "\nOpposite to the expected verdict: {}. The position-by-value test sees only where \
             single values land: uniform marginals with non-uniform orderings (rotation) pass \
             it; a mild bias may need more trials (see `power`).\n",
            surprises.join(", ")
        );
        out.push_str(&wrap(&note, table_width()));
    }
    out
}

/// The "seen by" cell of a verdict table: the tests that saw the bias,
/// strongest first (`position-value, lehmer, cycles`; the table shortens
/// it to `position-value +2 more`), or `-` when none did.
pub fn seen_by_cell<T: std::fmt::Display>(tests: impl IntoIterator<Item = T>) -> String {
    let names: Vec<String> = tests.into_iter().map(|t| t.to_string()).collect();
    if names.is_empty() {
        "-".to_string()
    } else {
        names.join(", ")
    }
}

/// The largest deviation in a few characters: `1.27× v1 p0 exact`, or
/// `none stands out`. The same finding as the report's sentence.
fn deviation_short(found: &AuditFindings) -> String {
    match &found.deviation_cell {
        Some(c) => {
            let exact = if c.exact { " exact" } else { "" };
            let ratio = if c.ratio == 0.0 {
                "0".to_string()
            } else {
                format_ratio(c.ratio)
            };
            // A binned matrix's cell is a bin of values at a bin of positions;
            // a multiset deck's is a kind at a position.
            let bin = if c.bins.is_some() { "bin" } else { "" };
            let what = match &c.kind {
                Some(kind) => format!("{kind} "),
                None => format!("v{bin}{} ", c.value),
            };
            format!("{ratio}× {what}p{bin}{}{exact}", c.position)
        }
        None => "none stands out".to_string(),
    }
}

/// The note under a sequential run's verdict table, for shuffles and
/// samplers alike: how α was spent, and each audit's looks (wrapped to the
/// table's width).
pub(super) fn sequential_note<'a>(
    audits: impl ExactSizeIterator<Item = (String, &'a [Look])>,
) -> String {
    let mut out = format!(
        "\nSequential: each audit doubled its trials until biased at alpha / (looks x {}) \
         (Bonferroni alpha-spending) or its budget ran out; p (adjusted) is its best look's p \
         times that factor.\n",
        counted(audits.len() as u64, "audit", "audits")
    );
    for (name, looks) in audits {
        let looks: Vec<String> = looks.iter().map(|l| thousands(l.trials)).collect();
        out.push_str(&format!("  {name}: looks at {}\n", looks.join(", ")));
    }
    wrap(&out, table_width())
}

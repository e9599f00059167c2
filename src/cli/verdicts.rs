//! The verdict table both `audit` and `run` print: one rendering of the
//! judged audits, with the same words and numbers as the report and JSON.

use super::table::Table;
use shuffle_audit::audit::Audit;
use shuffle_audit::findings::Findings;
use shuffle_audit::output::{format_p, thousands};
use shuffle_audit::report::content;

/// The table of verdicts, followed by a note on any verdict opposite to the
/// expected one and on inconclusive runs.
pub fn render(audits: &[Audit], findings: &Findings) -> String {
    let mut table = Table::new(&[
        ("algorithm", false),
        ("n", true),
        ("trials", true),
        ("rng", false),
        ("verdict", false),
        ("p (adjusted)", true),
        ("decisive test", false),
        ("could detect", false),
        ("largest deviation", false),
    ]);
    let mut surprises = Vec::new();
    let mut inconclusive = Vec::new();
    for (a, found) in audits.iter().zip(&findings.audits) {
        let label = format!("{} (n = {})", a.spec.subject, a.spec.n);
        if content::is_surprise(a) {
            surprises.push(label.clone());
        }
        if let Some(why) = a
            .sensitivity
            .inconclusive
            .as_ref()
            .filter(|_| a.verdict == shuffle_audit::stats::Verdict::Inconclusive)
        {
            inconclusive.push(format!("  {label}: {why}"));
        }
        table.push(vec![
            a.spec.subject.to_string(),
            a.spec.n.to_string(),
            thousands(a.spec.trials),
            a.spec.source_label(),
            format!("{} {}", a.verdict.symbol(), a.verdict),
            format_p(a.log10_p_adjusted),
            a.decisive().test.to_string(),
            a.sensitivity.short(),
            found.deviation.clone(),
        ]);
    }
    let mut out = table.render();
    out.push_str(
        "\np (adjusted): the p-value each verdict compared with alpha, after every correction. \
         could detect: the smallest deviation of one cell the run would have seen with 90% power.\n",
    );
    if !inconclusive.is_empty() {
        out.push_str(&format!(
            "\nInconclusive (too few trials to tell):\n{}\n",
            inconclusive.join("\n")
        ));
    }
    if !surprises.is_empty() {
        out.push_str(&format!(
            "\nOpposite to the expected verdict: {}. The position-by-value test sees only where \
             single values land: uniform marginals with non-uniform orderings (rotation) pass \
             it; a mild bias may need more trials (see `power`).\n",
            surprises.join(", ")
        ));
    }
    out
}

//! What exact mode leaves on disk and prints as JSON: the permutation law and
//! marginal matrix as CSV, the marginal heatmap as PNG, the whole result as
//! JSON.

use super::{files, write_png};
use crate::error::Result;
use crate::exact::{ExactLaw, ExactMarginals, Method};
use crate::plot::{self, DECK_AXES, HeatmapPanel, LogScale};
use num_rational::BigRational;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The heatmap's colour scale never saturates closer to 1 than this: an
/// exactly (or, in `f64`, numerically) uniform matrix then shows white, not
/// rounding noise.
const MIN_SCALE_LIMIT: f64 = 1.0 + 1e-6;

/// A permutation as text: its values separated by spaces, `0 2 1`.
pub fn permutation_text(perm: &[u32]) -> String {
    let parts: Vec<String> = perm.iter().map(u32::to_string).collect();
    parts.join(" ")
}

/// `permutations.csv` text: `permutation,fraction,decimal`, one row per
/// reachable permutation in lexicographic order.
pub fn permutations_csv(law: &ExactLaw) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["permutation", "fraction", "decimal"])
        .expect("in-memory CSV");
    for ((perm, p), (_, x)) in law.iter().zip(law.iter_f64()) {
        w.write_record([permutation_text(perm), p.to_string(), x.to_string()])
            .expect("in-memory CSV");
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
}

/// `marginals.csv` text: `position,value,probability,fraction,n_times_p`, one
/// row per cell (`fraction` is empty where only `f64` values exist).
pub fn marginals_csv(m: &ExactMarginals) -> String {
    let n = m.n();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["position", "value", "probability", "fraction", "n_times_p"])
        .expect("in-memory CSV");
    for p in 0..n {
        for v in 0..n {
            let x = m.probability(p, v);
            let fraction = m.exact(p, v).map(ToString::to_string).unwrap_or_default();
            w.write_record([
                p.to_string(),
                v.to_string(),
                x.to_string(),
                fraction,
                (x * n as f64).to_string(),
            ])
            .expect("in-memory CSV");
        }
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
}

/// The colour scale (symmetric in log(n·P)) that shows the matrix's largest
/// deviation at full colour: exact values have no noise to hide, so
/// `ln X = min(ln 2, max(ln(1 + 1e-6), max |ln(n·P)|))`.
pub fn scale(m: &ExactMarginals) -> LogScale {
    LogScale::fit(&m.ratios(), MIN_SCALE_LIMIT)
}

/// The heatmap panel of an exact marginal matrix: n·P per cell, titled with
/// what was computed; `tv` is the law's total variation distance, if known.
pub fn panel(m: &ExactMarginals, tv: Option<f64>) -> HeatmapPanel {
    let cell = m.max_deviation_cell();
    let uniform = match m.exactly_uniform() {
        Some(true) => "marginals exactly uniform".to_string(),
        _ => format!(
            "max |nP-1| = {:.3e} at ({},{})",
            m.max_deviation(),
            cell.position,
            cell.value
        ),
    };
    let tv = tv.map_or(String::new(), |tv| format!("  TV = {tv:.4e}"));
    HeatmapPanel {
        n: m.n(),
        columns: m.n(),
        ratios: m.ratios(),
        title: vec![
            format!("{}  n={}  {}  exact", m.algorithm(), m.n(), m.source()),
            format!("{uniform}{tv}"),
        ],
        verdict: None,
        axes: DECK_AXES,
        column_names: Vec::new(),
    }
}

/// Writes `heatmap.png` and `marginals.csv`, and `permutations.csv` when the
/// law was enumerated, into `dir` (checked beforehand with
/// [`files::prepare_dir`]); returns the paths written.
pub fn write_exact(
    dir: &Path,
    marginals: &ExactMarginals,
    law: Option<&ExactLaw>,
) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    let csv = dir.join("marginals.csv");
    files::write_atomic(&csv, marginals_csv(marginals).as_bytes())?;
    written.push(csv);
    if let Some(law) = law {
        let csv = dir.join("permutations.csv");
        files::write_atomic(&csv, permutations_csv(law).as_bytes())?;
        written.push(csv);
    }
    let png = dir.join("heatmap.png");
    let panel = panel(marginals, law.map(ExactLaw::tv_to_uniform));
    write_png(&png, || plot::draw_heatmap(&panel, &scale(marginals)))?;
    written.push(png);
    Ok(written)
}

/// An exact value with its decimal approximation.
#[derive(Debug, Clone, Serialize)]
pub struct ExactValue {
    /// The exact fraction, `5/27`.
    pub fraction: String,
    /// Its nearest `f64`.
    pub decimal: f64,
}

impl ExactValue {
    fn of(q: &BigRational, decimal: f64) -> Self {
        Self {
            fraction: q.to_string(),
            decimal,
        }
    }
}

/// The largest marginal deviation and where it is.
#[derive(Debug, Clone, Serialize)]
pub struct Deviation {
    /// `|n·P - 1|`.
    pub decimal: f64,
    /// The same, exactly, where known.
    pub fraction: Option<String>,
    /// `|P - 1/n|`, the same deviation in probability.
    pub probability: f64,
    /// The position of the cell.
    pub position: usize,
    /// The value of the cell.
    pub value: usize,
}

/// One reachable permutation of the law.
#[derive(Debug, Clone, Serialize)]
pub struct LawEntry {
    /// `permutation[p]` is the value at position p.
    pub permutation: Vec<u32>,
    /// Its exact probability.
    pub fraction: String,
    /// Its probability as `f64`.
    pub decimal: f64,
}

/// The JSON document of `shuffle-audit exact --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ExactReport {
    /// Tool name and version.
    pub tool: String,
    /// Algorithm with its parameters.
    pub algorithm: String,
    /// Number of elements.
    pub n: usize,
    /// Random source with its parameters.
    pub rng: String,
    /// What the source's draws were taken to be.
    pub draw_law: &'static str,
    /// How the result was computed.
    pub method: Method,
    /// The method in words.
    pub method_description: &'static str,
    /// Replays of the algorithm (or of one step), when enumerated.
    pub leaves: Option<u64>,
    /// n!, as a decimal string (it can exceed every integer type).
    pub permutations: String,
    /// Permutations with positive probability, when enumerated (the others
    /// have probability 0 and are not listed in `law`).
    pub reachable: Option<usize>,
    /// Whether the law is exactly uniform, when enumerated.
    pub uniform: Option<bool>,
    /// Total variation distance to the uniform law, when enumerated.
    pub tv_to_uniform: Option<ExactValue>,
    /// Largest per-position total variation distance: a lower bound on
    /// `tv_to_uniform`.
    pub tv_lower_bound: f64,
    /// The largest marginal deviation.
    pub max_deviation: Deviation,
    /// Whether every marginal is exactly 1/n; null where only `f64` values
    /// were computed.
    pub marginals_exactly_uniform: Option<bool>,
    /// `marginals[position][value]` = P(value at position).
    pub marginals: Vec<Vec<f64>>,
    /// The same as fractions, where exact.
    pub marginals_exact: Option<Vec<Vec<String>>>,
    /// Every reachable permutation with its probability (lexicographic
    /// order), when enumerated.
    pub law: Option<Vec<LawEntry>>,
}

impl ExactReport {
    /// The report of an enumerated law.
    pub fn of_law(law: &ExactLaw) -> Self {
        let mut report = Self::of_marginals(law.marginals());
        report.method = law.method();
        report.method_description = law.method().describe();
        report.leaves = Some(law.leaves());
        report.reachable = Some(law.support_size());
        report.uniform = Some(law.is_uniform());
        report.tv_to_uniform = Some(ExactValue::of(
            law.tv_to_uniform_exact(),
            law.tv_to_uniform(),
        ));
        report.law = Some(
            law.iter()
                .zip(law.probabilities_f64())
                .map(|((perm, p), &x)| LawEntry {
                    permutation: perm.to_vec(),
                    fraction: p.to_string(),
                    decimal: x,
                })
                .collect(),
        );
        report
    }

    /// The report of a marginal matrix alone.
    pub fn of_marginals(m: &ExactMarginals) -> Self {
        let n = m.n();
        let cell = m.max_deviation_cell();
        let marginals_exact = m.is_exact().then(|| {
            (0..n)
                .map(|p| {
                    (0..n)
                        .map(|v| m.exact(p, v).map(ToString::to_string).unwrap_or_default())
                        .collect()
                })
                .collect()
        });
        Self {
            // As `report::provenance::tool_version` names the tool (output sits
            // below report, so it is spelled here).
            tool: concat!(
                "shuffle-audit ",
                env!("CARGO_PKG_VERSION"),
                env!("SHUFFLE_AUDIT_BUILD")
            )
            .to_string(),
            algorithm: m.algorithm().to_string(),
            n,
            rng: m.source().to_string(),
            draw_law: crate::exact::DrawLaw::of(&m.source())
                .map(|l| l.describe())
                .unwrap_or_default(),
            method: m.method(),
            method_description: m.method().describe(),
            leaves: None,
            permutations: (2..=n as u64)
                .map(num_bigint::BigUint::from)
                .product::<num_bigint::BigUint>()
                .to_string(),
            reachable: None,
            uniform: None,
            tv_to_uniform: None,
            tv_lower_bound: m.tv_lower_bound(),
            max_deviation: Deviation {
                decimal: m.max_deviation(),
                fraction: m.max_deviation_exact().map(ToString::to_string),
                probability: m.max_deviation() / n as f64,
                position: cell.position,
                value: cell.value,
            },
            marginals_exactly_uniform: m.exactly_uniform(),
            marginals: m.rows(),
            marginals_exact,
            law: None,
        }
    }

    /// Pretty JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("report serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::exact;
    use crate::source::SourceSpec;

    #[test]
    fn csv_files_carry_fractions_and_decimals() {
        let law = exact::enumerate(Algorithm::NaiveSwap, 3, SourceSpec::default(), 100).unwrap();
        let text = permutations_csv(&law);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "permutation,fraction,decimal");
        assert_eq!(lines[1], "0 1 2,4/27,0.14814814814814814");
        assert_eq!(lines.len(), 7);
        let text = marginals_csv(law.marginals());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "position,value,probability,fraction,n_times_p");
        assert_eq!(lines[1], "0,0,0.3333333333333333,1/3,1");
        assert_eq!(lines.len(), 10);
    }

    #[test]
    fn the_report_lists_the_law_and_the_marginals() {
        let law = exact::enumerate(Algorithm::Rotation, 3, SourceSpec::default(), 100).unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&ExactReport::of_law(&law).to_json()).expect("valid JSON");
        assert_eq!(json["reachable"], 3);
        assert_eq!(json["permutations"], "6");
        assert_eq!(json["tv_to_uniform"]["fraction"], "1/2");
        assert_eq!(json["marginals_exactly_uniform"], true);
        assert_eq!(json["law"][1]["permutation"], serde_json::json!([1, 2, 0]));
        assert_eq!(json["marginals_exact"][0][0], "1/3");
        assert_eq!(json["method"], "enumerated");
    }
}

//! The machine-readable summary of a study: one [`Record`] per audit, of
//! every kind, as JSON (`summary.json`, what `--json` prints) and as CSV
//! (`summary.csv`, one row per audit).

use crate::audit::{Judged, Record};
use crate::report::provenance::Meta;
use serde::Serialize;
use serde_json::Value;

/// The version of the `summary.json` layout: raised whenever a field is
/// renamed or its meaning changes (see the README's field list). Version
/// 3: one list of audits of every kind, each record with its `kind`, its
/// `subject` and the fields every kind has (a sampler's record states its
/// trials for a verdict and why it is inconclusive, as a shuffle's does),
/// and the kind's own beside them.
pub const SUMMARY_SCHEMA: u32 = 3;

/// The whole `summary.json` document.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The layout's version ([`SUMMARY_SCHEMA`]).
    pub schema: u32,
    /// Tool name and version, for reproducibility.
    pub tool: String,
    /// The certificate's metadata (lab, client, device, notes), when given.
    #[serde(skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
    /// Significance level of the verdicts.
    pub alpha: f64,
    /// Multiple-testing correction applied across the audits.
    pub correction: &'static str,
    /// How the verdicts were reached.
    pub test: &'static str,
    /// One record per audit, in study order.
    pub audits: Vec<Record>,
}

impl Summary {
    /// The summary of judged `audits` at `alpha`, with the run's `meta`.
    pub fn of(audits: &[Box<dyn Judged>], alpha: f64, meta: &Meta) -> Self {
        Self {
            schema: SUMMARY_SCHEMA,
            tool: crate::report::provenance::tool_version(),
            meta: meta.clone(),
            alpha,
            correction: "holm",
            test: "per audit: the selected tests, Holm-corrected within the audit; verdicts \
                   after Holm across audits (or Bonferroni over the looks and audits of a \
                   sequential study)",
            audits: audits.iter().map(|a| a.record()).collect(),
        }
    }

    /// Pretty JSON text (infinite sensitivities become `null`).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("summary serialises")
    }

    /// CSV text: a header and one row per audit, with every field of a
    /// record that is one value (lists and tables are in the JSON), in the
    /// order the records give them, a field some kind lacks left empty;
    /// `seen_by` is one field of test names separated by `;`.
    pub fn to_csv(&self) -> String {
        let rows: Vec<serde_json::Map<String, Value>> = self
            .audits
            .iter()
            .map(|r| match serde_json::to_value(r) {
                Ok(Value::Object(map)) => map,
                _ => serde_json::Map::new(),
            })
            .collect();
        let nested = |key: &String| {
            key != "seen_by"
                && rows
                    .iter()
                    .any(|r| matches!(r.get(key), Some(Value::Array(_) | Value::Object(_))))
        };
        let mut columns: Vec<String> = Vec::new();
        for row in &rows {
            for key in row.keys() {
                if !columns.contains(key) && !nested(key) {
                    columns.push(key.clone());
                }
            }
        }
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&columns).expect("in-memory CSV");
        for row in &rows {
            let fields = columns.iter().map(|key| match row.get(key) {
                None | Some(Value::Null) => String::new(),
                Some(Value::String(s)) => s.clone(),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                    .collect::<Vec<_>>()
                    .join(";"),
                Some(other) => other.to_string(),
            });
            w.write_record(fields).expect("in-memory CSV");
        }
        String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
    }
}

//! `run --check`: compare the counts recorded in a report folder with counts
//! recomputed from its experiment, audit by audit (each kind compares the
//! counts it records, [`crate::audit::Kind::recheck`]), and name the first
//! difference.

use crate::audit::{Feed, Recheck};
use crate::error::{Error, Result};
use crate::study::StudyResult;
use serde_json::Value;
use std::path::Path;

/// What a check found: the counts compared, or the first difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked {
    /// Every audit's counts match: how many of each sort were compared.
    Identical(Vec<(u64, &'static str)>),
    /// The first difference, in words.
    Different(String),
}

/// Compares the audits of `rerun` with those `dir`'s `summary.json`
/// records: their specs (kind, subject, n, trials, rng, seed) and counts.
pub fn compare(dir: &Path, rerun: &StudyResult) -> Result<Checked> {
    let path = dir.join("summary.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::io(format!("cannot read {}: {e}", path.display())))?;
    let summary: Value = serde_json::from_str(&text)
        .map_err(|e| Error::bad_input(format!("{}: not a run summary: {e}", path.display())))?;
    let empty = Vec::new();
    let recorded = summary["audits"].as_array().unwrap_or(&empty);
    if recorded.len() != rerun.audits.len() {
        return Ok(Checked::Different(format!(
            "summary.json records {} audits, the experiment now gives {}",
            recorded.len(),
            rerun.audits.len()
        )));
    }
    let describe = |v: &Value| {
        format!(
            "{} {} n = {}, {} trials, rng {}, seed {}",
            v["kind"].as_str().unwrap_or("?"),
            v["subject"].as_str().unwrap_or("?"),
            v["n"],
            v["trials"],
            v["rng"].as_str().unwrap_or("?"),
            v["seed"]
        )
    };
    let mut totals: Vec<(u64, &'static str)> = Vec::new();
    for (index, ((old, audit), folder)) in recorded
        .iter()
        .zip(&rerun.audits)
        .zip(rerun.folders())
        .enumerate()
    {
        let now = serde_json::to_value(audit.record()).unwrap_or(Value::Null);
        let (was, is) = (describe(old), describe(&now));
        if was != is {
            return Ok(Checked::Different(format!(
                "audit {}: recorded {was}, the experiment now gives {is}",
                index + 1
            )));
        }
        match audit.recheck(old, &dir.join(folder))? {
            Recheck::Same { counts, what } => match totals.iter_mut().find(|(_, w)| *w == what) {
                Some((total, _)) => *total += counts,
                None => totals.push((counts, what)),
            },
            Recheck::Different(difference) => {
                // n and the source tell apart audits of one subject.
                let which = format!(
                    "audit {} (n = {}, rng {})",
                    audit.subject(),
                    audit.n(),
                    audit.source_label()
                );
                let hint = rerun_hint(audit.feed().as_ref());
                return Ok(Checked::Different(match hint {
                    Some(hint) => format!("{which}: {difference} ({hint})"),
                    None => format!("{which}: {difference}"),
                }));
            }
        }
    }
    Ok(Checked::Identical(totals))
}

/// Why a rerun may count differently without anything being wrong: a
/// program run by the tool reproduces its output only if it is
/// deterministic for its seed, and a file only if it has not changed.
fn rerun_hint(feed: Option<&Feed>) -> Option<String> {
    match feed? {
        Feed::Command(_) => Some(
            "this audit runs a program: its output is reproducible only if the program is \
             deterministic for its {seed}, which this one is not (or it changed)"
                .to_string(),
        ),
        Feed::File { path, .. } => Some(format!(
            "this audit reads {}: it has changed since the run",
            path.display()
        )),
        Feed::Function | Feed::Given { .. } | Feed::Drawn { .. } => None,
    }
}

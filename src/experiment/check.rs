//! `run --check`: compare the counts recorded in a report folder with counts
//! recomputed from its experiment, and name the first difference.

use crate::audit::Audit;
use crate::error::{Error, Result};
use crate::subject::{Feed, Subject};
use serde::Deserialize;
use std::fmt;
use std::path::Path;

/// The parts of `summary.json` that a check compares.
#[derive(Debug, Clone, Deserialize)]
pub struct RecordedSummary {
    /// One entry per audit, in run order.
    pub audits: Vec<RecordedAudit>,
}

/// One audit as recorded in `summary.json`.
#[derive(Debug, Clone, Deserialize)]
pub struct RecordedAudit {
    /// Algorithm with parameters.
    pub algorithm: String,
    /// Elements shuffled.
    pub n: usize,
    /// Shuffles.
    pub trials: u64,
    /// Random source.
    pub rng: String,
    /// Seed.
    pub seed: u64,
    /// `counts[position][value]`, when summary.json embeds them (small n);
    /// otherwise they are read from the audit's `counts.csv`.
    #[serde(default)]
    pub counts: Option<Vec<Vec<u64>>>,
}

impl RecordedAudit {
    fn label(&self) -> String {
        label(&self.algorithm, self.n, &self.rng)
    }
}

fn label(algorithm: &str, n: usize, rng: &str) -> String {
    format!("{algorithm} (n = {n}, rng {rng})")
}

impl RecordedSummary {
    /// Reads `summary.json` from the report folder `dir`.
    pub fn load(dir: &Path) -> Result<Self> {
        let path = dir.join("summary.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Error::io(format!("cannot read {}: {e}", path.display())))?;
        serde_json::from_str(&text)
            .map_err(|e| Error::bad_input(format!("{}: not a run summary: {e}", path.display())))
    }
}

/// The first way recomputed audits differ from recorded ones.
#[derive(Debug, Clone, PartialEq)]
pub enum Difference {
    /// The experiment now expands to a different number of audits.
    AuditCount {
        /// Audits in `summary.json`.
        recorded: usize,
        /// Audits recomputed.
        recomputed: usize,
    },
    /// An audit's specification (algorithm, n, trials, rng or seed) differs.
    Spec {
        /// Its index in the run.
        index: usize,
        /// As recorded.
        recorded: String,
        /// As recomputed.
        recomputed: String,
    },
    /// A count differs.
    Count {
        /// The audit, as `algorithm (n = .., rng ..)`.
        audit: String,
        /// Position.
        position: usize,
        /// Value.
        value: usize,
        /// Count in `summary.json`.
        recorded: u64,
        /// Count recomputed.
        recomputed: u64,
        /// Why the counts may legitimately differ (a program that is not
        /// deterministic for its seed), if that applies.
        hint: Option<String>,
    },
    /// The recorded matrix is not n × n.
    Shape {
        /// The audit.
        audit: String,
    },
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::AuditCount {
                recorded,
                recomputed,
            } => write!(
                f,
                "summary.json records {recorded} audits, the experiment now gives {recomputed}"
            ),
            Difference::Spec {
                index,
                recorded,
                recomputed,
            } => write!(
                f,
                "audit {}: recorded {recorded}, the experiment now gives {recomputed}",
                index + 1
            ),
            Difference::Count {
                audit,
                position,
                value,
                recorded,
                recomputed,
                hint,
            } => {
                write!(
                    f,
                    "audit {audit}: position {position}, value {value}: recorded {recorded}, recomputed {recomputed}"
                )?;
                match hint {
                    Some(hint) => write!(f, " ({hint})"),
                    None => Ok(()),
                }
            }
            Difference::Shape { audit } => {
                write!(
                    f,
                    "audit {audit}: the recorded counts are not an n × n matrix"
                )
            }
        }
    }
}

/// Why a rerun of `subject` may count differently without anything being
/// wrong: a program run by the tool reproduces its decks only if it is
/// deterministic for its seed, and a file only if it has not changed.
fn rerun_hint(subject: &Subject) -> Option<String> {
    let Subject::Outside(outside) = subject else {
        return None;
    };
    match &outside.feed {
        Feed::Command { .. } => Some(
            "this audit runs a program: its decks are reproducible only if the program is \
             deterministic for its {seed}, which this one is not (or it changed)"
                .to_string(),
        ),
        Feed::File { path, .. } => Some(format!(
            "this audit reads {}: it has changed since the run",
            path.display()
        )),
        Feed::Function | Feed::Given { .. } => None,
    }
}

/// Fills in the counts summary.json does not embed (large n) from each
/// audit's `counts.csv` in the report folder `dir`; `audits` (the recomputed
/// ones) name the folders.
pub fn load_counts(recorded: &mut RecordedSummary, audits: &[Audit], dir: &Path) -> Result<()> {
    let folders = crate::output::audit_folders(audits);
    for (old, folder) in recorded.audits.iter_mut().zip(folders) {
        if old.counts.is_none() {
            let path = dir.join(folder).join("counts.csv");
            let text = std::fs::read_to_string(&path)
                .map_err(|e| Error::io(format!("cannot read {}: {e}", path.display())))?;
            old.counts = Some(parse_counts_csv(&text).ok_or_else(|| {
                Error::bad_input(format!("{}: not a counts table", path.display()))
            })?);
        }
    }
    Ok(())
}

/// The rows of a `counts.csv` (header `position,v0,...`, then one row per
/// position), or `None` if it is not one.
fn parse_counts_csv(text: &str) -> Option<Vec<Vec<u64>>> {
    text.lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|line| line.split(',').skip(1).map(|c| c.parse().ok()).collect())
        .collect()
}

/// The first difference between `recorded` and `audits`, or `None` if every
/// specification and every count is identical.
pub fn compare(recorded: &RecordedSummary, audits: &[Audit]) -> Option<Difference> {
    if recorded.audits.len() != audits.len() {
        return Some(Difference::AuditCount {
            recorded: recorded.audits.len(),
            recomputed: audits.len(),
        });
    }
    for (index, (old, new)) in recorded.audits.iter().zip(audits).enumerate() {
        let spec = &new.spec;
        let describe = |algorithm: &str, n, trials, rng: &str, seed| {
            format!("{algorithm} n = {n}, {trials} trials, rng {rng}, seed {seed}")
        };
        let was = describe(&old.algorithm, old.n, old.trials, &old.rng, old.seed);
        let now = describe(
            &spec.subject.to_string(),
            spec.n,
            spec.trials,
            &spec.source_label(),
            spec.seed,
        );
        if was != now {
            return Some(Difference::Spec {
                index,
                recorded: was,
                recomputed: now,
            });
        }
        // The matrix the outputs wrote: values, bins, or a multiset's kinds.
        let cells = new.cells();
        let Some(counts) = old.counts.as_ref() else {
            return Some(Difference::Shape { audit: old.label() });
        };
        if counts.len() != cells.rows() || counts.iter().any(|row| row.len() != cells.cols()) {
            return Some(Difference::Shape { audit: old.label() });
        }
        for (position, row) in counts.iter().enumerate() {
            for (value, &count) in row.iter().enumerate() {
                let now = cells.count(position, value);
                if count != now {
                    return Some(Difference::Count {
                        audit: old.label(),
                        position,
                        value,
                        recorded: count,
                        recomputed: now,
                        hint: rerun_hint(&spec.subject),
                    });
                }
            }
        }
    }
    None
}

//! `run.json`: everything needed to rerun an experiment bit for bit, written
//! beside a copy of the experiment file.

use crate::audit::{FeedRecord, Judged};
use crate::error::{Error, Result};
pub use crate::report::provenance::{
    RunStart, command_line, git_commit, git_dirty, rfc3339, tool_version,
};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The name of the copy of the experiment file in a report folder.
pub const EXPERIMENT_FILE: &str = "experiment.toml";
/// The name of the run record in a report folder.
pub const RUN_FILE: &str = "run.json";

/// The record of one run of an experiment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// `shuffle-audit <version>`.
    pub tool: String,
    /// `git rev-parse HEAD` where the tool ran, if that worked.
    pub git_commit: Option<String>,
    /// Whether tracked files differed from that commit (`git status`), if known.
    #[serde(default)]
    pub git_dirty: Option<bool>,
    /// The command line, one argument per entry.
    pub command_line: Vec<String>,
    /// When the run started, RFC 3339 UTC.
    pub date: String,
    /// The experiment's name.
    pub experiment: String,
    /// The experiment file as given on the command line (a copy is in
    /// `experiment.toml` beside this record).
    pub experiment_file: String,
    /// Significance level of the verdicts.
    pub alpha: f64,
    /// Worker threads used (the counts do not depend on it).
    pub threads: usize,
    /// The factor applied to every audit's trials.
    pub trials_scale: f64,
    /// Every audit run, in order.
    pub audits: Vec<RecordedAudit>,
    /// Commands that reproduce or verify this run from its folder.
    pub reproduce: Vec<String>,
}

/// One audit of a run, as `run.json` records it: its kind, what decides its
/// counts (as its kind records a spec: subject, n, trials, rng, seed and
/// what the kind adds), and where a subject from outside got its output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedAudit {
    /// The kind of subject.
    pub kind: String,
    /// What decides the counts.
    pub spec: serde_json::Value,
    /// Where a subject from outside got its output (`input FILE`, `cmd
    /// PROGRAM (N jobs)`), with a command's workers as run; absent for a
    /// built-in subject.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feed: Option<FeedRecord>,
}

impl RecordedAudit {
    /// The record of a judged audit.
    pub fn of(audit: &dyn Judged) -> Self {
        Self {
            kind: audit.kind().to_string(),
            spec: audit.planned().recorded(),
            feed: audit.record().feed,
        }
    }
}

impl RunRecord {
    /// Reads `run.json` from the report folder `dir`.
    pub fn load(dir: &Path) -> Result<Self> {
        let path = dir.join(RUN_FILE);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Error::io(format!("cannot read {}: {e}", path.display())))?;
        serde_json::from_str(&text)
            .map_err(|e| Error::bad_input(format!("{}: not a run record: {e}", path.display())))
    }

    /// Pretty JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("run record serialises")
    }
}

/// An argument as a POSIX shell would need it: bare when safe, otherwise in
/// single quotes.
pub fn shell_quote(arg: &str) -> String {
    let safe = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c));
    if safe {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// A command line as one copy-pasteable string.
pub fn shell_line<S: AsRef<str>>(args: &[S]) -> String {
    args.iter()
        .map(|a| shell_quote(a.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_quoted_only_when_needed() {
        assert_eq!(
            shell_line(&["shuffle-audit", "run", "a b.toml", "it's", ""]),
            r"shuffle-audit run 'a b.toml' 'it'\''s' ''"
        );
        assert_eq!(shell_quote("random-swap:k=100"), "random-swap:k=100");
    }
}

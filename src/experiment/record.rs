//! `run.json`: everything needed to rerun an experiment bit for bit, written
//! beside a copy of the experiment file.

use crate::audit::{FeedRecord, Judged};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

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

/// `shuffle-audit <version>`, as run records and summaries name the tool.
pub fn tool_version() -> String {
    format!("shuffle-audit {}", env!("CARGO_PKG_VERSION"))
}

/// This process's command line, with the program shown as `shuffle-audit`
/// (not the path it happened to be run from).
pub fn command_line() -> Vec<String> {
    std::iter::once("shuffle-audit".to_string())
        .chain(std::env::args().skip(1))
        .collect()
}

/// The commit of the git checkout in the current folder, if `git` is there and
/// the folder is a checkout.
pub fn git_commit() -> Option<String> {
    let output = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let commit = String::from_utf8(output.stdout).ok()?.trim().to_string();
    (output.status.success() && !commit.is_empty()).then_some(commit)
}

/// When a run started, with the git commit and whether the checkout was
/// dirty, read before the run writes anything (its own output would
/// otherwise count as a change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunStart {
    /// The start time.
    pub time: SystemTime,
    /// `git rev-parse HEAD`, if available.
    pub commit: Option<String>,
    /// Uncommitted changes to tracked files, if git can tell.
    pub dirty: Option<bool>,
}

impl RunStart {
    /// Now, in the current folder's checkout.
    pub fn now() -> Self {
        Self {
            time: SystemTime::now(),
            commit: git_commit(),
            dirty: git_dirty(),
        }
    }
}

/// Whether the git checkout in the current folder has uncommitted changes
/// to tracked files, if `git` can tell.
pub fn git_dirty() -> Option<bool> {
    let output = std::process::Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=no"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    output.status.success().then_some(!output.stdout.is_empty())
}

/// `time` as RFC 3339 in UTC, to the second: `2026-11-21T09:30:00Z`.
pub fn rfc3339(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
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
    use std::time::Duration;

    #[test]
    fn dates_are_rfc3339_utc() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let at = |s: u64| rfc3339(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(at(4_107_542_399), "2100-02-28T23:59:59Z");
    }

    #[test]
    fn a_recorded_spec_reads_back_as_the_spec() {
        for (name, rng, tests, n) in [
            ("random-swap:k=100", "reseed-per-draw:d=7", "default", 9),
            (
                "sort-random-comparator:sort=merge",
                "chacha8",
                "cycles,lehmer",
                12,
            ),
            ("riffle:k=3", "pcg64", "all", 3),
        ] {
            let spec = RunSpec {
                threads: Some(3),
                tests: TestSet::parse(tests, n).unwrap(),
                ..RunSpec::new(
                    Algorithm::parse(name).unwrap(),
                    n,
                    1234,
                    SourceSpec::parse(rng).unwrap(),
                    99,
                )
            };
            let back = RecordedSpec::of_spec(&spec).to_spec(Some(3)).unwrap();
            assert_eq!(back.subject, spec.subject);
            assert_eq!(back.source, spec.source);
            assert_eq!(back.tests.to_string(), spec.tests.to_string());
            assert_eq!(
                (back.n, back.trials, back.seed, back.threads),
                (n, 1234, 99, Some(3))
            );
            assert_eq!(back.collect(), spec.collect());
        }
    }

    #[test]
    fn arguments_are_quoted_only_when_needed() {
        assert_eq!(
            shell_line(&["shuffle-audit", "run", "a b.toml", "it's", ""]),
            r"shuffle-audit run 'a b.toml' 'it'\''s' ''"
        );
        assert_eq!(shell_quote("random-swap:k=100"), "random-swap:k=100");
    }
}

//! Where a run came from and how to redo it: the tool's version, the git
//! checkout it ran in, when it started and the commands that reproduce
//! it, as every report and record states them.

use std::time::{SystemTime, UNIX_EPOCH};

/// Where a run came from and how to redo it.
#[derive(Debug, Clone, PartialEq)]
pub struct Provenance {
    /// `shuffle-audit <version>`.
    pub tool: String,
    /// The git commit the tool ran in, if known.
    pub git_commit: Option<String>,
    /// Whether that checkout had uncommitted changes, if known.
    pub git_dirty: Option<bool>,
    /// When the run started (RFC 3339, UTC).
    pub date: String,
    /// The command that produced the report, shell-quoted.
    pub command_line: String,
    /// Commands that reproduce or verify it.
    pub reproduce: Vec<String>,
    /// What the user said about the run for its certificate (`--meta
    /// key=value`, an experiment's `[meta]` table): lab, client, device,
    /// notes, in the order given; shown first on the report's first page
    /// and as `meta` in `summary.json`.
    pub meta: Meta,
}

/// Certificate metadata: `key = value` pairs in the order given, each key
/// once (a later value replaces an earlier one, so a command line's
/// `--meta` overrides an experiment file's).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meta(Vec<(String, String)>);

impl Meta {
    /// The pairs, in order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }

    /// Whether no pair was given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sets `key` to `value`, keeping the key's first place. The key must
    /// be 1 to 40 letters, digits, `-` or `_`, and the value one line:
    /// errors name the bad key or value.
    pub fn set(&mut self, key: &str, value: &str) -> crate::error::Result<()> {
        let key = key.trim();
        let ok = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if key.is_empty() || key.len() > 40 || !key.chars().all(ok) {
            return Err(crate::error::Error::bad_input(format!(
                "meta key '{key}': use 1 to 40 letters, digits, '-' or '_' (e.g. lab, client, device)"
            )));
        }
        if value.contains(['\n', '\r']) {
            return Err(crate::error::Error::bad_input(format!(
                "meta {key}: the value must be one line (got {value:?})"
            )));
        }
        let value = value.trim().to_string();
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value,
            None => self.0.push((key.to_string(), value)),
        }
        Ok(())
    }

    /// Parses and sets one `KEY=VALUE` argument (`--meta lab=Acme Labs`).
    pub fn set_arg(&mut self, text: &str) -> crate::error::Result<()> {
        let (key, value) = text.split_once('=').ok_or_else(|| {
            crate::error::Error::bad_input(format!(
                "--meta '{text}': expected KEY=VALUE, e.g. --meta lab=\"Acme Test Labs\""
            ))
        })?;
        self.set(key, value)
    }
}

impl serde::Serialize for Meta {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl Provenance {
    /// The provenance of a run that started at `start`, made by
    /// `command_line` and reproduced by `reproduce`.
    pub fn of(start: &RunStart, command_line: String, reproduce: Vec<String>) -> Self {
        Self {
            tool: tool_version(),
            git_commit: start.commit.clone(),
            git_dirty: start.dirty,
            date: rfc3339(start.time),
            command_line,
            reproduce,
            meta: Meta::default(),
        }
    }
}

/// `shuffle-audit <version> (commit <build commit>)`, as run records and
/// summaries name the tool: the commit the binary was built from (taken at
/// build time by `build.rs`, with "+ changes" for a modified checkout), so
/// that a report names it wherever the binary runs; the bare version for a
/// build outside a git checkout.
pub fn tool_version() -> String {
    format!(
        "shuffle-audit {}{}",
        env!("CARGO_PKG_VERSION"),
        env!("SHUFFLE_AUDIT_BUILD")
    )
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
    let output = git(&["rev-parse", "HEAD"])?;
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
    let output = git(&["status", "--porcelain", "--untracked-files=no"])?;
    output.status.success().then_some(!output.stdout.is_empty())
}

/// What `git args` printed in the current folder, if `git` ran.
fn git(args: &[&str]) -> Option<std::process::Output> {
    std::process::Command::new("git")
        .args(args)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
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
}

//! Helpers shared by the integration tests: for those that drive the
//! `shuffle-audit` binary, starting it, reading its output as text, fresh
//! temporary paths and reading a summary.json back; for those that call the
//! library, judging audits of any kinds as one run and reading one back as
//! its kind.
//!
//! Each test file under tests/ is its own crate; a file that needs these
//! says `mod common;` (tests/common/ is not a test crate itself), so there
//! is one copy of each helper instead of one per file. The temporary paths
//! hold the test crate's name and the process id, so two test binaries run
//! at once never share a path; within a crate the caller's `name` keeps
//! each test's paths apart.

// Each test crate uses only some of these helpers; the rest would warn.
#![allow(dead_code)]

use shuffle_audit::audit::{self, Audit, Judged, Kind, Planned, no_progress};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The path of the `shuffle-audit` binary that Cargo built for the tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_shuffle-audit");

/// A command for the binary, with no arguments yet.
pub fn bin() -> Command {
    Command::new(BIN)
}

/// Runs the binary with `args` to the end and returns what it did.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// What a run wrote to stdout, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a run wrote to stderr, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh temporary path named for this test crate, the process and `name`;
/// whatever was there (folder or file) is removed, and nothing is created.
pub fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "sa-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&path);
    let _ = std::fs::remove_file(&path);
    path
}

/// A fresh, empty folder: [`temp`]'s path, created.
pub fn scratch(name: &str) -> PathBuf {
    let dir = temp(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The summary.json in the output folder `dir`, parsed.
pub fn summary(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("summary.json")).expect("summary.json");
    serde_json::from_str(&text).expect("JSON")
}

/// A temporary folder's path (see [`temp`]), removed with all it holds when
/// the value is dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A fresh path, not created: for runs that must create it themselves,
    /// or must not.
    pub fn temp(name: &str) -> Self {
        TempDir(temp(name))
    }

    /// A fresh, empty folder (see [`scratch`]).
    pub fn scratch(name: &str) -> Self {
        TempDir(scratch(name))
    }

    /// The path of `name` inside the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes `text` to the file `name` inside the folder; returns its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for TempDir {
    /// Removes the folder and everything in it, if it is there.
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes experiment `text` to `dir/NAME.toml` and runs it into `dir/out`
/// with `extra` arguments; returns the output and the report folder.
pub fn run_experiment(dir: &Path, name: &str, text: &str, extra: &[&str]) -> (Output, PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(&file, text).unwrap();
    let out = dir.join("out");
    let mut args = vec![
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    (run(&args), out)
}

/// `x` with a comma between each group of three digits (`1,000,000`), as
/// every output writes counts.
pub fn thousands(x: u64) -> String {
    let digits = x.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Runs every spec of `specs` (of any kinds) alone, then judges them as one
/// run at `alpha` (Holm across all of them), as a study does.
pub fn judged(specs: Vec<Box<dyn Planned>>, alpha: f64) -> Vec<Box<dyn Judged>> {
    let mut audits: Vec<Box<dyn Judged>> = specs
        .iter()
        .map(|spec| spec.run(alpha, &no_progress).unwrap())
        .collect();
    audit::judge(&mut audits, alpha);
    audits
}

/// The audit of kind `K` that `judged` is; panics if it is of another kind.
pub fn as_kind<K: Kind>(judged: &dyn Judged) -> &Audit<K> {
    judged
        .as_any()
        .downcast_ref()
        .unwrap_or_else(|| panic!("a {} audit where a {} was expected", judged.kind(), K::NAME))
}

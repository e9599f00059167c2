//! Records the git commit the binary is built from, for `--version`
//! ("0.1.0 (commit 1a2b3c4)", "+ changes" when the checkout was modified).
//! Outside a git checkout (a packaged source) the version is the bare
//! package version.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

fn main() {
    let suffix = match git(&["rev-parse", "--short=10", "HEAD"]) {
        Some(commit) if !commit.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            let changes = if dirty { " + changes" } else { "" };
            format!(" (commit {commit}{changes})")
        }
        _ => String::new(),
    };
    println!("cargo:rustc-env=SHUFFLE_AUDIT_BUILD={suffix}");
    // Rebuild when the commit moves or the working tree's index changes.
    for path in [".git/HEAD", ".git/index"] {
        if std::path::Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    if let Some(head) = std::fs::read_to_string(".git/HEAD")
        .ok()
        .and_then(|h| h.strip_prefix("ref: ").map(|r| r.trim().to_string()))
    {
        println!("cargo:rerun-if-changed=.git/{head}");
    }
    println!("cargo:rerun-if-changed=build.rs");
    // A changed source makes "+ changes" true without touching the index.
    println!("cargo:rerun-if-changed=src");
}

//! `shuffle-audit run`: experiment files, reports, and `--check`.

mod common;

use common::{TempDir, bin, run, stderr, stdout};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the small study into `dir`/report with `extra` arguments and returns
/// the report folder.
fn run_small(dir: &TempDir, extra: &[&str]) -> (PathBuf, Output) {
    let file = dir.write("small.toml", SMALL);
    let out_dir = dir.path("report");
    let mut args = vec![
        "run",
        file.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    (out_dir, out)
}

/// A small study: 70,000 trials is more than one engine chunk, so the thread
/// count could matter if the engine were not deterministic.
const SMALL: &str = r#"# A small study for the tests.
name = "small <script>alert('x')</script>"
purpose = "Fish & \"chips\": <b>not bold</b>."
trials = "70k"
seed = 11
threads = 1
alpha = 0.001

[[audit]]
algorithm = "fisher-yates"
n = [5, 8]

[[audit]]
algorithm = "naive-swap"
n = 6
note = "the classic off-by-one"

[[audit]]
algorithm = "rotation"
n = 6
trials = 30_000

[[mixing]]
algorithm = "riffle"
n = 52
k = [1, 2, 4, 7]
trials = "10k"
"#;

/// The error for an experiment whose text is `text`, which must be refused
/// with exit code 2 before anything is written.
fn refused(dir: &TempDir, text: &str) -> String {
    let file = dir.write("bad.toml", text);
    let out_dir = dir.path("never");
    let out = run(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!out_dir.exists(), "nothing may be written for a bad file");
    let err = stderr(&out);
    let prefix = format!("error: {}:", file.display());
    assert!(err.starts_with(&prefix), "{err}");
    err[prefix.len()..].trim_end().to_string()
}

#[test]
fn bad_experiment_files_are_refused_at_file_line_and_column() {
    let dir = TempDir::scratch("errors");
    let cases = [
        (
            SMALL.replace("seed = 11", "seed = 11\nsed = 12"),
            "6:1: unknown field `sed`",
        ),
        (
            SMALL.replace("n = 6\nnote", "n = \"six\"\nnote"),
            "15:5: invalid type: string \"six\", expected an integer or a list of integers",
        ),
        (
            SMALL.replace("n = [5, 8]", "n = [5, 1]"),
            "11:9: n = 1 is too small: n must be at least 2",
        ),
        (
            SMALL.replace("\"naive-swap\"", "\"bogosort\""),
            "14:13: unknown algorithm or sampler 'bogosort'",
        ),
        (SMALL.replace("\"70k\"", "\"70q\""), "4:10: bad count '70q'"),
        (
            SMALL.replace("alpha = 0.001", "alpha = 5"),
            "7:9: alpha = 5 is not a significance level",
        ),
        (
            SMALL.replace("[1, 2, 4, 7]", "[1, 4, 2]"),
            "26:12: k = 2 is out of order",
        ),
    ];
    for (text, want) in cases {
        let err = refused(&dir, &text);
        assert!(err.starts_with(want), "want {want}, got {err}");
    }
}

#[test]
fn a_run_writes_a_reproducible_report_and_check_confirms_it() {
    let dir = TempDir::scratch("run");
    let (out_dir, out) = run_small(&dir, &["--trials-scale", "1.5"]);
    let table = stdout(&out);
    assert!(table.contains("naive-swap"), "{table}");
    assert!(table.contains("✗ biased"), "{table}");
    // Progress: one line per finished audit on stderr.
    assert!(
        stderr(&out).contains("[4/4] rotation n=6 chacha8"),
        "{}",
        stderr(&out)
    );

    for name in [
        "report.html",
        "report.md",
        "summary.json",
        "summary.csv",
        "comparison.png",
        "experiment.toml",
        "run.json",
        "fisher-yates_n5_chacha8/heatmap.png",
        "fisher-yates_n8_chacha8/counts.csv",
        "naive-swap/heatmap.png",
        "mixing-riffle-n52/mixing.png",
        "mixing-riffle-n52/mixing.csv",
    ] {
        assert!(out_dir.join(name).is_file(), "{name} missing");
    }
    assert_eq!(
        fs::read_to_string(out_dir.join("experiment.toml")).unwrap(),
        SMALL
    );
    let record: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out_dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(record["trials_scale"], 1.5);
    // Each audit is recorded as its kind and its spec.
    assert_eq!(record["audits"][0]["kind"], "shuffle");
    assert_eq!(record["audits"][0]["spec"]["trials"], 105_000);
    assert_eq!(record["audits"][3]["spec"]["trials"], 45_000);
    assert_eq!(record["audits"][2]["spec"]["seed"], 11);
    assert_eq!(record["command_line"][1], "run");
    assert!(record["date"].as_str().unwrap().ends_with('Z'));

    let html = fs::read_to_string(out_dir.join("report.html")).unwrap();
    assert!(html.contains("id=\"verdicts\""));
    assert!(html.contains("small &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    assert!(html.contains("Fish &amp; &quot;chips&quot;: &lt;b&gt;not bold&lt;/b&gt;."));
    assert!(!html.contains("<script"), "no script may reach the page");
    assert!(!html.contains("<b>"));
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
    // The grid, four heatmaps and the mixing curve, all embedded.
    assert_eq!(html.matches("src=\"data:image/png;base64,").count(), 6);
    assert!(html.contains("Mixing curve of riffle, n = 52"));
    assert!(html.contains("Note: the classic off-by-one"));
    assert!(
        html.contains("lands at position"),
        "the deviation is said in words"
    );
    let md = fs::read_to_string(out_dir.join("report.md")).unwrap();
    assert!(md.contains("![Grid of 4 squares, one per audit"), "{md}");
    assert!(md.contains("(naive-swap/heatmap.png)"), "{md}");
    assert!(md.contains(r"small \<script\>"), "{md}");

    // The same counts on 2 threads as on the 1 the file asked for.
    let check = run(&[
        "run",
        "--check",
        out_dir.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert!(
        stdout(&check).starts_with("identical"),
        "{}",
        stdout(&check)
    );

    // Tamper with one count: the check names it.
    let summary_path = out_dir.join("summary.json");
    let mut summary: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&summary_path).unwrap()).unwrap();
    let cell = &mut summary["audits"][2]["counts"][3][4];
    let recorded = cell.as_u64().unwrap() + 1;
    *cell = recorded.into();
    fs::write(&summary_path, summary.to_string()).unwrap();
    let check = run(&["run", "--check", out_dir.to_str().unwrap(), "-q"]);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    let said = stdout(&check);
    assert_eq!(
        said.trim_end(),
        format!(
            "different: audit naive-swap (n = 6, rng chacha8): position 3, value 4: recorded \
             {recorded}, recomputed {}",
            recorded - 1
        )
    );
}

#[test]
fn check_notices_a_changed_experiment() {
    let dir = TempDir::scratch("changed");
    let (out_dir, _) = run_small(&dir, &["-q", "--trials-scale", "0.1"]);
    fs::write(
        out_dir.join("experiment.toml"),
        SMALL.replace("seed = 11", "seed = 12"),
    )
    .unwrap();
    let check = run(&["run", "--check", out_dir.to_str().unwrap(), "-q"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        stdout(&check).starts_with(
            "different: audit 1: recorded shuffle fisher-yates n = 5, 7000 trials, rng chacha8, \
             seed 11, the experiment now gives shuffle fisher-yates n = 5, 7000 trials, rng \
             chacha8, seed 12"
        ),
        "{}",
        stdout(&check)
    );
    let missing = run(&["run", "--check", dir.path("nowhere").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("run.json"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn audit_writes_the_same_report() {
    let dir = TempDir::scratch("audit");
    let out_dir = dir.path("out");
    let out = run(&[
        "audit",
        "-a",
        "fisher-yates",
        "-a",
        "sattolo",
        "-n",
        "6",
        "-t",
        "20k",
        "-q",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let html = fs::read_to_string(out_dir.join("report.html")).unwrap();
    assert!(html.contains("<title>Audit of 2 shuffles at n = 6</title>"));
    assert!(html.contains("id=\"verdicts\""));
    assert!(html.contains("value 0 never at position 0 (exact law)"));
    let md = fs::read_to_string(out_dir.join("report.md")).unwrap();
    assert!(
        md.contains("shuffle-audit audit -a fisher-yates -a sattolo"),
        "{md}"
    );
}

/// Renders a report in headless Chromium when it is installed; the script
/// reports "skipped" and succeeds when it is not, so this never needs a browser.
#[test]
fn the_report_renders_in_a_browser_if_one_is_installed() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/check-html.sh");
    let dir = TempDir::scratch("browser");
    let file = dir.write("small.toml", SMALL);
    let out_dir = dir.path("report");
    let out = run(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let check = Command::new("bash")
        .arg(&script)
        .arg(out_dir.join("report.html"))
        .output()
        .unwrap();
    let said = stdout(&check);
    assert_eq!(check.status.code(), Some(0), "{said}{}", stderr(&check));
    assert!(
        said.starts_with("ok:") || said.starts_with("skipped: chromium not installed"),
        "{said}"
    );
}

#[test]
fn the_report_folder_defaults_to_reports_latest_name_and_json_goes_to_stdout() {
    let dir = TempDir::scratch("default-out");
    let text = SMALL.replace(
        "name = \"small <script>alert('x')</script>\"",
        "name = \"tiny study\"",
    );
    dir.write("tiny.toml", &text);
    let out = bin()
        .args(["run", "tiny.toml", "--json", "-q", "--trials-scale", "0.05"])
        .current_dir(&dir.0)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["audits"].as_array().unwrap().len(), 4);
    assert_eq!(summary["audits"][0]["trials"], 3500);
    assert!(dir.path("reports/latest/tiny-study/report.html").is_file());
    assert!(stderr(&out).is_empty(), "quiet: {}", stderr(&out));

    let bad_scale = bin()
        .args(["run", "tiny.toml", "--trials-scale", "0"])
        .current_dir(&dir.0)
        .output()
        .unwrap();
    assert_eq!(bad_scale.status.code(), Some(2));
    assert!(
        stderr(&bad_scale).contains("trials scale 0"),
        "{}",
        stderr(&bad_scale)
    );
}

#[test]
fn large_matrices_live_in_counts_csv_and_still_check() {
    let dir = TempDir::scratch("large-n");
    let file = dir.write(
        "large.toml",
        "name = \"large\"\npurpose = \"n above the embedding limit\"\n\
         [[audit]]\nalgorithm = \"naive-swap\"\nn = 70\ntrials = 2000\ntests = [\"position-value\"]\n",
    );
    let out_dir = dir.path("report");
    let o = run(&[
        "run",
        file.to_str().unwrap(),
        "-q",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out_dir.join("summary.json")).unwrap()).unwrap();
    assert!(
        summary["audits"][0].get("counts").is_none(),
        "n = 70 is not embedded"
    );
    let check = run(&["run", "--check", out_dir.to_str().unwrap(), "-q"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert!(
        stdout(&check).starts_with("identical: 1 audit, 4,900 position-by-value counts"),
        "{}",
        stdout(&check)
    );

    // Tamper with counts.csv: the check reads it and names the cell.
    let csv_path = out_dir.join("naive-swap/counts.csv");
    let text = fs::read_to_string(&csv_path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut cells: Vec<u64> = lines[1].split(',').map(|c| c.parse().unwrap()).collect();
    cells[1] += 1;
    lines[1] = cells
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    fs::write(&csv_path, lines.join("\n") + "\n").unwrap();
    let check = run(&["run", "--check", out_dir.to_str().unwrap(), "-q"]);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    assert!(
        stdout(&check).contains("position 0, value 0"),
        "{}",
        stdout(&check)
    );
}

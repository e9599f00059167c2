//! The data-loader curve through `shuffle-audit run`: a `[[mixing]]` table
//! naming a loader writes loaders.csv and loaders.png into the report
//! folder, and the report and the terminal answer "how big must my buffer
//! be?" with the same lines.

mod common;

use common::{bin, scratch, stderr};

#[test]
fn an_experiment_with_a_loader_curve_reports_the_buffer_sizes() {
    let dir = scratch("buffer");
    let file = dir.join("loaders.toml");
    std::fs::write(
        &file,
        "name = \"loaders\"\npurpose = \"How big must the buffer be?\"\nn = 2000\n\n\
         [[mixing]]\nalgorithm = \"buffer-shuffle\"\n",
    )
    .unwrap();
    let out = dir.join("report");
    let o = bin()
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .arg(&file)
        .output()
        .expect("the binary runs");
    assert!(o.status.success(), "{}", stderr(&o));
    let folder = out.join("mixing-buffer-shuffle-n2000");
    assert!(folder.join("loaders.csv").is_file());
    assert!(folder.join("loaders.png").is_file());
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    for needle in [
        "How big must the buffer be? At n = 2,000: buffer-shuffle: mean TV",
        "0.01 from b = ",
        "window-shuffle",
        "shard-shuffle",
        "mixing-buffer-shuffle-n2000/loaders.png",
        "not which items stay together",
    ] {
        assert!(report.contains(needle), "{needle}\n{report}");
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("How big must the buffer be?"));
    // The terminal states the same thresholds as the report.
    let stdout = String::from_utf8_lossy(&o.stdout).replace('\n', " ");
    assert!(
        stdout.contains("How big must the buffer be? At n = 2,000:"),
        "{stdout}"
    );
    // The report's line, without its Markdown escapes.
    let threshold = report
        .split("buffer-shuffle: mean TV")
        .nth(1)
        .and_then(|rest| rest.split(". ").next())
        .unwrap()
        .replace("\\<", "<");
    assert!(stdout.contains(threshold.trim()), "{threshold}\n{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

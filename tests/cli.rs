//! The command line: outputs, exit codes, and clear refusals of bad input.

mod common;

use common::{bin, run, stderr, stdout, temp};
use std::path::Path;
use std::process::Output;

/// An observed/expected ratio as the terminal's table shows it: two
/// decimals, or as many as it takes to show how far it is from 1 (at most
/// 6).
fn format_ratio(ratio: f64) -> String {
    let gap = (ratio - 1.0).abs();
    let decimals = if gap >= 0.01 || gap == 0.0 {
        2
    } else {
        ((-gap.log10()).ceil() as usize + 1).min(6)
    };
    format!("{ratio:.decimals$}")
}

/// Asserts exit code 2, a one-line error naming `needle`, and no output files.
fn assert_refused(args: &[&str], needle: &str) {
    let out = temp(&format!("bad-{}", needle.replace(['/', ' ', '\''], "_")));
    let mut full: Vec<&str> = args.to_vec();
    let out_str = out.to_string_lossy().into_owned();
    if !args.contains(&"--out") {
        full.extend(["--out", &out_str]);
    }
    let o = run(&full);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: stderr does not name '{needle}': {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(!out.exists(), "{args:?}: output folder was created");
}

#[test]
fn bad_input_is_refused_with_exit_2_and_no_files() {
    assert_refused(&["audit", "-n", "1"], "n = 1");
    // Large n is binned by default; the full matrix (--bins n) does not fit.
    assert_refused(
        &["audit", "-n", "5000000", "--bins", "5000000"],
        "n = 5000000 needs about",
    );
    assert_refused(&["audit", "-t", "0"], "trials must be at least 1");
    assert_refused(&["audit", "-t", "lots"], "'lots'");
    assert_refused(&["audit", "-a", "bogo-sort"], "'bogo-sort'");
    assert_refused(&["audit", "-a", "random-swap:q=3"], "'q'");
    assert_refused(&["audit", "-a", "random-swap:k=x"], "'x'");
    assert_refused(&["audit", "--rng", "mt19937"], "'mt19937'");
    assert_refused(
        &["audit", "-a", "fisher-yate"],
        "unknown algorithm 'fisher-yate': did you mean 'fisher-yates'?",
    );
    assert_refused(&["audit", "--rng", "chacha"], "did you mean 'chacha8'?");
    assert_refused(&["audit", "--tests", "cycels"], "did you mean 'cycles'?");
    assert_refused(&["audit", "--seed", "1.5"], "bad seed '1.5'");
    assert_refused(&["audit", "--alpha", "1.5"], "alpha = 1.5");
    assert_refused(&["audit", "--threads", "0"], "threads must be at least 1");
    assert_refused(
        &[
            "audit",
            "-a",
            "fisher-yates",
            "-n",
            "20000",
            "-t",
            "1e9",
            "--bins",
            "20000",
        ],
        "would write about 2.2 GiB of count matrices",
    );
    assert_refused(
        &["audit", "-a", "sattolo", "-a", "sattolo"],
        "'sattolo' is asked twice",
    );
}

#[test]
fn every_command_checks_its_numbers_the_same_way() {
    // n, trials, seed and alpha are each parsed and checked in one place,
    // so every command refuses the same value with the same words.
    for args in [
        &["power", "-a", "naive-swap", "-n", "1"][..],
        &["mixing", "-a", "riffle", "-n", "1"],
        &["bench", "-n", "1"],
        &["exact", "-a", "naive-swap", "-n", "1"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("n = 1 is too small: n must be at least 2"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    for args in [
        &["power", "-a", "naive-swap", "--pilot-trials", "0"][..],
        &["mixing", "-a", "riffle", "-t", "0"],
        &["bench", "-t", "0"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("trials must be at least 1"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let o = run(&["power", "-a", "naive-swap", "--alpha", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("alpha = 0 is not a significance level"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_unwritable_output_folder_is_refused_before_any_work() {
    let file = temp("a-file");
    std::fs::write(&file, b"x").unwrap();
    let inside_file = file.join("out");
    let o = run(&["audit", "--out", &inside_file.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot create output folder"),
        "{}",
        stderr(&o)
    );
    let o = run(&["audit", "--out", &file.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a folder"), "{}", stderr(&o));
    std::fs::remove_file(&file).unwrap();
}

/// An export names a file: a folder is refused before any work (and no
/// report is written); a link keeps being a link, its file written; a
/// device or pipe is written through, never replaced by a file.
#[cfg(unix)]
#[test]
fn exports_write_the_file_named_and_never_replace_a_link_or_device() {
    let dir = temp("exports-named");
    std::fs::create_dir_all(&dir).unwrap();
    let folder = dir.join("a-folder");
    std::fs::create_dir_all(&folder).unwrap();
    let out = dir.join("report");
    let o = run(&[
        "audit",
        "-t",
        "100",
        "-q",
        "--out",
        out.to_str().unwrap(),
        "--export-json",
        folder.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("it is a folder"), "{}", stderr(&o));
    assert!(!out.exists(), "the refused run wrote its report");
    let file = dir.join("target.json");
    std::fs::write(&file, "old").unwrap();
    let link = dir.join("link.json");
    std::os::unix::fs::symlink("target.json", &link).unwrap();
    let o = run(&[
        "audit",
        "-t",
        "100",
        "-q",
        "--export-json",
        link.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("\"audits\"")
    );
    // /dev/null stays a device.
    let o = run(&["audit", "-t", "100", "-q", "--export-csv", "/dev/null"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A write error on standard output ends the run with exit 2 and one
/// line, not a panic; a thread count past any machine's is refused.
#[cfg(target_os = "linux")]
#[test]
fn a_full_stdout_and_absurd_thread_counts_get_one_line() {
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = bin().arg("list").stdout(full).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("error: cannot write to standard output"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert_refused(
        &["audit", "--threads", "100000"],
        "threads must be at most 1024",
    );
    let o = run(&["bench", "--repeats", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("repeats must be at least 1"),
        "{}",
        stderr(&o)
    );
}

fn audit_into(out: &Path, extra: &[&str]) -> Output {
    let out_str = out.to_string_lossy().into_owned();
    let mut args = vec![
        "audit", "-n", "6", "-t", "20k", "--quiet", "--out", &out_str,
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn an_audit_writes_every_output_file() {
    let out = temp("files");
    let o = audit_into(&out, &["-a", "fisher-yates", "-a", "random-swap:k=2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = stdout(&o);
    assert!(
        table.contains("random-swap:k=2") && table.contains("✗ biased"),
        "{table}"
    );
    for file in [
        "summary.json",
        "summary.csv",
        "comparison.png",
        "fisher-yates/counts.csv",
        "fisher-yates/heatmap.png",
        "random-swap_k-2/counts.csv",
        "random-swap_k-2/heatmap.png",
        "random-swap_k-2/permutations.csv",
    ] {
        assert!(out.join(file).is_file(), "missing {file}");
    }
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let audits = summary["audits"].as_array().unwrap();
    assert_eq!(audits.len(), 2);
    assert_eq!(audits[0]["kind"], "shuffle");
    assert_eq!(audits[0]["subject"], "fisher-yates");
    assert_eq!(audits[0]["trials"], 20_000);
    assert_eq!(audits[0]["counts"].as_array().unwrap().len(), 6);
    assert_eq!(audits[1]["verdict"], "biased");
    let tests = audits[0]["tests"].as_array().unwrap();
    assert_eq!(
        tests.len(),
        8,
        "n = 6 runs every test but clumping (opt-in) and birthday (n >= 13) by default"
    );
    let perms = std::fs::read_to_string(out.join("fisher-yates/permutations.csv")).unwrap();
    assert_eq!(perms.lines().count(), 1 + 720);
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(
        csv.starts_with("kind,subject,n,trials,unit,drawn,rng,seed,threads,"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 3);
    let counts = std::fs::read_to_string(out.join("fisher-yates/counts.csv")).unwrap();
    assert!(
        counts.starts_with("position,v0,v1,v2,v3,v4,v5\n"),
        "{counts}"
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn json_mode_prints_only_json_and_fail_on_bias_sets_exit_1() {
    let out = temp("json");
    let o = audit_into(&out, &["-a", "naive-swap", "--json", "--fail-on-bias"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    assert_eq!(doc["audits"][0]["verdict"], "biased");
    let o = audit_into(&out, &["-a", "fisher-yates", "--fail-on-bias"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn require_pass_fails_an_inconclusive_audit_that_fail_on_bias_lets_pass() {
    let out = temp("require-pass");
    let dir = out.to_string_lossy().into_owned();
    let audit = |extra: &[&str]| {
        let mut args = vec!["audit", "-n", "6", "--quiet", "--json", "--out", &dir];
        args.extend_from_slice(extra);
        let o = run(&args);
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
        (
            o,
            doc["audits"][0]["verdict"]
                .as_str()
                .unwrap_or("")
                .to_string(),
        )
    };
    // Ten trials: inconclusive. --fail-on-bias lets it pass (nothing is
    // biased); --require-pass does not (a CI job needs a conclusive pass).
    let (o, verdict) = audit(&["-a", "fisher-yates", "-t", "10", "--fail-on-bias"]);
    assert_eq!(
        (o.status.code(), verdict.as_str()),
        (Some(0), "inconclusive")
    );
    let (o, verdict) = audit(&["-a", "fisher-yates", "-t", "10", "--require-pass"]);
    assert_eq!(
        (o.status.code(), verdict.as_str()),
        (Some(1), "inconclusive")
    );
    // Biased fails it too; the trials n needs give a conclusive pass.
    let (o, verdict) = audit(&["-a", "naive-swap", "--require-pass"]);
    assert_eq!((o.status.code(), verdict.as_str()), (Some(1), "biased"));
    let (o, verdict) = audit(&["-a", "fisher-yates", "--require-pass"]);
    assert_eq!(
        (o.status.code(), verdict.as_str()),
        (Some(0), "no-bias-detected")
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn counts_do_not_depend_on_the_thread_count() {
    let one = temp("t1");
    let three = temp("t3");
    assert!(
        audit_into(&one, &["-a", "naive-swap", "--threads", "1"])
            .status
            .success()
    );
    assert!(
        audit_into(&three, &["-a", "naive-swap", "--threads", "3"])
            .status
            .success()
    );
    let a = std::fs::read(one.join("naive-swap/counts.csv")).unwrap();
    let b = std::fs::read(three.join("naive-swap/counts.csv")).unwrap();
    assert_eq!(a, b);
    std::fs::remove_dir_all(&one).unwrap();
    std::fs::remove_dir_all(&three).unwrap();
}

#[test]
fn list_shows_every_algorithm_and_source() {
    let o = run(&["list", "--json"]);
    assert!(o.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> = doc["algorithms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"fisher-yates") && names.contains(&"rotation"),
        "{names:?}"
    );
    let sources = doc["sources"].as_array().unwrap();
    assert_eq!(sources.len(), 10);
    let java = sources.iter().find(|s| s["name"] == "java-random").unwrap();
    assert_eq!(java["state_bits"], 48);
}

/// Every output renders the same findings: the verdict words and the p-value
/// the verdict used agree between the terminal table, summary.json,
/// summary.csv and report.md, for each of the three verdicts and for every
/// kind of subject (shuffles and samplers judged together in one run).
#[test]
fn every_output_states_the_same_verdict_and_p() {
    for (trials, algorithms, want) in [
        (
            "20k",
            [
                "fisher-yates",
                "random-swap:k=2",
                "floyd:k=3",
                "systematic:k=2",
            ],
            ["no bias detected", "biased", "no bias detected", "biased"],
        ),
        (
            "60",
            ["fisher-yates", "rand-crate", "floyd:k=3", "reservoir:k=3"],
            [
                "inconclusive",
                "inconclusive",
                "inconclusive",
                "inconclusive",
            ],
        ),
    ] {
        let out = temp(&format!("same-{trials}"));
        let out_str = out.to_string_lossy().into_owned();
        let o = run(&[
            "audit",
            "-n",
            "6",
            "-t",
            trials,
            "--quiet",
            "--out",
            &out_str,
            "-a",
            algorithms[0],
            "-a",
            algorithms[1],
            "-a",
            algorithms[2],
            "-a",
            algorithms[3],
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let table = stdout(&o);
        let summary: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
        let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        let md = std::fs::read_to_string(out.join("report.md")).unwrap();
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        let header = reader.headers().unwrap().clone();
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        let column = |name: &str| header.iter().position(|h| h == name).unwrap();
        for (i, (algorithm, words)) in algorithms.iter().zip(want).enumerate() {
            let entry = &summary["audits"][i];
            let shuffle = i < 2;
            assert_eq!(
                entry["kind"],
                if shuffle { "shuffle" } else { "sampler" },
                "{algorithm}"
            );
            let slug = words.replace(' ', "-");
            assert_eq!(entry["verdict"], slug.as_str(), "{algorithm}");
            let p = entry["p_adjusted"].as_f64().unwrap();
            let shown = if entry["p_adjusted_is_bound"].as_bool().unwrap() {
                "< 1e-12".to_string()
            } else if p >= 1e-3 {
                format!("{p:.3}")
            } else {
                format!("{p:.1e}")
            };
            let row = table
                .lines()
                .find(|l| l.starts_with(&format!("{algorithm} ")))
                .unwrap_or_else(|| panic!("no row for {algorithm}: {table}"));
            assert!(
                row.contains(words) && row.contains(&shown),
                "{row} vs {words}, {shown}"
            );
            let md_row = md
                .lines()
                .find(|l| l.starts_with(&format!("| [{algorithm}]")))
                .unwrap_or_else(|| panic!("no report row for {algorithm}"));
            assert!(
                md_row.contains(words) && md_row.contains(&shown),
                "{md_row}"
            );
            assert_eq!(&records[i][column("verdict")], slug);
            assert_eq!(records[i][column("p_adjusted")].parse::<f64>().unwrap(), p);
            // What the run could have seen, with 90% power when the test it
            // is stated for ran (60 samples are too few for the inclusion
            // test, which a sampler's sensitivity is stated for).
            let sensitivity = entry["sensitivity"].as_str().unwrap();
            let ran = entry["tests"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["test"] == entry["sensitivity_test"]);
            assert_eq!(sensitivity.contains("90% power"), ran, "{sensitivity}");
            // The tests that saw the bias: a list in the JSON, starting with
            // the decisive test, `;`-separated in the CSV; empty unless biased.
            let seen: Vec<&str> = entry["seen_by"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            assert_eq!(seen.is_empty(), words != "biased", "{algorithm}: {seen:?}");
            if let Some(first) = seen.first() {
                assert_eq!(entry["decisive_test"], *first);
                assert!(row.contains(first), "{row} vs {seen:?}");
            }
            assert_eq!(records[i][column("seen_by")], seen.join(";"));
            // The findings (largest deviation, trials for power) are the
            // same in the table, the JSON, the CSV and the report.
            let deviation = entry["largest_deviation"].as_str().unwrap();
            // The terminal shows a shuffle's cell in a few characters.
            let short = match entry["deviation_cell"].as_object() {
                _ if !shuffle => "".to_string(),
                Some(cell) => format!(
                    "{}× v{} p{}",
                    format_ratio(cell["ratio"].as_f64().unwrap()),
                    cell["value"],
                    cell["position"]
                ),
                None => {
                    assert!(deviation.starts_with("no cell stands out"), "{deviation}");
                    "none stands out".to_string()
                }
            };
            assert!(row.contains(&short), "{row} vs {short} ({deviation})");
            let md_deviation = deviation.replace('|', "\\|").replace('<', "\\<");
            assert!(md_row.contains(&md_deviation), "{md_row} vs {md_deviation}");
            assert_eq!(&records[i][column("largest_deviation")], deviation);
            // A shuffle's plan: the trials for 90% power of a biased audit.
            match entry["trials_for_power"].as_u64() {
                _ if !shuffle => assert!(entry.get("trials_for_power").is_none()),
                Some(t) => {
                    assert_eq!(words, "biased");
                    let t = t.to_string();
                    assert_eq!(&records[i][column("trials_for_power")], t.as_str());
                    assert_eq!(
                        entry["plan_details"]["trials_for_power"]
                            .as_u64()
                            .unwrap()
                            .to_string(),
                        t
                    );
                    let thousands: String = t
                        .chars()
                        .rev()
                        .enumerate()
                        .flat_map(|(k, c)| {
                            (k > 0 && k % 3 == 0).then_some(',').into_iter().chain([c])
                        })
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect();
                    assert!(md_row.contains(&thousands), "{md_row} vs {thousands}");
                }
                None => assert_ne!(words, "biased", "a biased audit has a plan"),
            }
        }
    }
}

#[test]
fn names_are_lenient_and_seeds_are_written_like_counts() {
    let counts = |args: &[&str]| {
        let out = temp(&format!(
            "lenient-{}",
            args.join("_").replace(['-', '/'], "")
        ));
        let mut full = vec!["audit", "-n", "5", "-t", "2k", "-q", "--out"];
        let out_str = out.to_string_lossy().into_owned();
        full.push(&out_str);
        full.extend(args);
        let o = run(&full);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let summary: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
        std::fs::remove_dir_all(&out).unwrap();
        (
            summary["audits"][0]["subject"].clone(),
            summary["audits"][0]["counts"].clone(),
        )
    };
    let plain = counts(&["-a", "fisher-yates", "--seed", "1000"]);
    assert_eq!(plain, counts(&["-a", "Fisher_Yates", "--seed", "1e3"]));
    assert_eq!(plain.0, "fisher-yates");
}

#[test]
fn json_alone_writes_no_files() {
    let cwd = temp("json-cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let o = bin()
        .current_dir(&cwd)
        .args(["audit", "-a", "sattolo", "-n", "5", "-t", "2k", "--json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    assert_eq!(doc["audits"][0]["verdict"], "biased");
    assert_eq!(doc["schema"], 3);
    let left: Vec<_> = std::fs::read_dir(&cwd).unwrap().collect();
    assert!(left.is_empty(), "--json alone wrote {left:?}");
    std::fs::remove_dir_all(&cwd).unwrap();
}

#[test]
fn absurd_work_is_announced_and_finished_audits_are_reported_without_a_terminal() {
    use std::io::{BufRead, BufReader};
    let out = temp("absurd");
    let mut child = bin()
        .args(["audit", "-a", "fisher-yates", "-t", "1e19", "--out"])
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // SAFETY: sending SIGINT to our own child process (Ctrl-C cleans up).
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    child.wait().unwrap();
    assert!(
        first.starts_with("warning: this run shuffles 1.0e20 elements"),
        "{first}"
    );
    assert!(first.contains("days"), "{first}");
    let _ = std::fs::remove_dir_all(&out);

    // stderr is a pipe here, not a terminal: one line per finished audit.
    let o = run(&[
        "audit",
        "-a",
        "sattolo",
        "-a",
        "rotation",
        "-n",
        "5",
        "-t",
        "2k",
        "--out",
        &out.to_string_lossy(),
    ]);
    let err = stderr(&o);
    assert!(
        err.contains("[1/2] sattolo n=5 chacha8: 2,000 trials in"),
        "{err}"
    );
    assert!(err.contains("[2/2] rotation"), "{err}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_reused_folder_holds_only_the_last_run_and_foreign_folders_are_refused() {
    let out = temp("reuse");
    let out_str = out.to_string_lossy().into_owned();
    let first = run(&[
        "audit", "-a", "sattolo", "-n", "5", "-t", "2k", "-q", "--out", &out_str,
    ]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(out.join("sattolo").is_dir());
    let second = run(&[
        "audit", "-a", "rotation", "-n", "5", "-t", "2k", "-q", "--out", &out_str,
    ]);
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    assert!(out.join("rotation").is_dir());
    assert!(
        !out.join("sattolo").exists(),
        "a stale folder of the first run remained"
    );
    let siblings: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("-reuse.partial"))
        .collect();
    assert!(siblings.is_empty(), "{siblings:?}");
    std::fs::remove_dir_all(&out).unwrap();

    let theirs = temp("theirs");
    std::fs::create_dir_all(&theirs).unwrap();
    std::fs::write(theirs.join("notes.txt"), "mine").unwrap();
    let o = run(&[
        "audit",
        "-a",
        "sattolo",
        "-n",
        "5",
        "-t",
        "2k",
        "--out",
        &theirs.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("did not write"), "{}", stderr(&o));
    assert!(theirs.join("notes.txt").is_file());
    std::fs::remove_dir_all(&theirs).unwrap();
}

#[test]
fn ctrl_c_says_how_far_it_got_writes_nothing_and_exits_130() {
    use std::io::Read;
    let out = temp("interrupted");
    let mut child = bin()
        .args([
            "audit",
            "-a",
            "fisher-yates",
            "-n",
            "52",
            "-t",
            "1e12",
            "--out",
        ])
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(800));
    // SAFETY: sending SIGINT to our own child process.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted after "), "{err}");
    assert!(
        err.contains("of 1,000,000,000,000 trials; nothing written"),
        "{err}"
    );
    assert!(!out.exists(), "an interrupted run left its folder");
}

#[test]
fn exports_write_the_same_findings_and_no_report_folder() {
    let cwd = temp("export-cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let o = bin()
        .current_dir(&cwd)
        .args([
            "audit",
            "-a",
            "sattolo",
            "-a",
            "fisher-yates",
            "-n",
            "5",
            "-t",
            "20k",
            "--export-json",
            "e.json",
            "--export-csv",
            "e.csv",
            "--export-markdown",
            "e.md",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut left: Vec<String> = std::fs::read_dir(&cwd)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["e.csv", "e.json", "e.md"], "no report folder");
    // The exported JSON is what --json printed.
    let printed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let exported: serde_json::Value =
        serde_json::from_slice(&std::fs::read(cwd.join("e.json")).unwrap()).unwrap();
    assert_eq!(printed, exported);
    let csv = std::fs::read_to_string(cwd.join("e.csv")).unwrap();
    assert!(csv.lines().nth(1).unwrap().contains("biased"), "{csv}");
    let md = std::fs::read_to_string(cwd.join("e.md")).unwrap();
    assert!(
        md.contains("| sattolo |") && md.contains("✗ **biased**"),
        "{md}"
    );
    assert!(md.contains("no bias detected"), "{md}");
    assert!(
        !md.contains("](#"),
        "links to sections that are not there: {md}"
    );
    std::fs::remove_dir_all(&cwd).unwrap();
}

#[test]
fn an_export_into_a_missing_folder_is_refused_before_the_run() {
    assert_refused(
        &[
            "audit",
            "-a",
            "sattolo",
            "--export-csv",
            "/nonexistent-folder/x.csv",
        ],
        "cannot export to /nonexistent-folder/x.csv: no such folder",
    );
}

#[test]
fn tables_and_notes_fit_100_columns() {
    // A run mixing sizes, sources and long names: the widest table there is.
    let out = temp("wide");
    let o = run(&[
        "run",
        "experiments/classics.toml",
        "--trials-scale",
        "0.01",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    for line in stdout.lines() {
        assert!(line.chars().count() <= 100, "{} wide: {line}", line.len());
    }
    // Audits that differ only in their source stay distinguishable.
    assert!(stdout.contains("rand15-mod") && stdout.contains("reseed-per-draw"));
    let list = run(&["list"]);
    for line in String::from_utf8_lossy(&list.stdout).lines() {
        assert!(line.chars().count() <= 100, "list: {line}");
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn version_names_the_commit_and_completions_cover_the_commands() {
    let o = run(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    let version = stdout(&o);
    assert!(
        version.starts_with(&format!("shuffle-audit {}", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    if Path::new(env!("CARGO_MANIFEST_DIR")).join(".git").exists() {
        assert!(version.contains("(commit "), "{version}");
    }
    for shell in ["bash", "zsh", "fish"] {
        let o = run(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let script = stdout(&o);
        for word in ["shuffle-audit", "audit", "until-decisive", "export-json"] {
            assert!(script.contains(word), "{shell} completions lack {word}");
        }
    }
    let o = run(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let audit = |extra: &[&str], no_color: bool| {
        let out = temp("colour");
        let mut command = bin();
        command.args([
            "audit", "-a", "sattolo", "-n", "5", "-t", "5k", "-q", "--out",
        ]);
        command.arg(&out).args(extra);
        if no_color {
            command.env("NO_COLOR", "1");
        } else {
            command.env_remove("NO_COLOR");
        }
        let o = command.output().unwrap();
        let _ = std::fs::remove_dir_all(&out);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o).contains('\x1b')
    };
    assert!(audit(&["--color", "always"], true), "always beats NO_COLOR");
    assert!(!audit(&["--color", "never"], false));
    assert!(!audit(&[], false), "auto: no colour into a pipe");
}

#[test]
fn an_inconclusive_audit_states_the_trials_that_make_it_conclusive() {
    // 2,000 fair shuffles of 52 cards are too few for a verdict: every
    // output says how many would do, and at that many the verdict comes.
    use common::thousands;
    let small = temp("inconclusive-small");
    let o = run(&[
        "audit",
        "-a",
        "fisher-yates",
        "-n",
        "52",
        "-t",
        "2000",
        "--out",
        small.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let terminal = stdout(&o).replace('\n', " ");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(small.join("summary.json")).unwrap())
            .unwrap();
    let audit = &summary["audits"][0];
    assert_eq!(audit["verdict"], "inconclusive");
    let needed = audit["trials_for_verdict"].as_u64().expect("a trial count");
    let words = format!(
        "about {} trials would make it conclusive",
        thousands(needed)
    );
    assert!(
        audit["inconclusive_reason"]
            .as_str()
            .unwrap()
            .contains(&words),
        "{audit}"
    );
    assert!(terminal.contains(&words), "{terminal}");
    let report = std::fs::read_to_string(small.join("report.md")).unwrap();
    assert!(
        report.contains(&format!("{} for a verdict", thousands(needed))),
        "the verdict table names the trials"
    );
    assert!(report.contains(&words), "the audit's facts name the trials");
    let enough = temp("inconclusive-enough");
    let t = needed.to_string();
    let o = run(&[
        "audit",
        "-a",
        "fisher-yates",
        "-n",
        "52",
        "-t",
        &t,
        "-q",
        "--out",
        enough.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(enough.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["audits"][0]["verdict"], "no-bias-detected");
    assert!(summary["audits"][0]["trials_for_verdict"].is_null());
    for dir in [small, enough] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A sequential run that spends its budget without a verdict advises the
/// budget that gives one: its looks, each spending a share of α, are
/// counted at that budget, so running it gives a verdict (a budget of two
/// looks advised the trials of two looks, and the run it advised, with
/// more looks, was inconclusive again).
#[test]
fn a_sequential_run_advises_a_budget_that_gives_a_verdict() {
    // A shuffle and a sampler alike (one sequential path for every kind).
    for subject in [
        &["-a", "fisher-yates", "-t", "1000"][..],
        &["-a", "floyd:k=3", "-n", "40", "-t", "200"][..],
    ] {
        // `subject` from its first look on, up to `budget`, shown as `shown`.
        let sequential = |budget: &str, shown: &str| {
            let mut args = vec!["audit"];
            args.extend(subject);
            args.extend(["--until-decisive", "--max-trials", budget, shown]);
            let o = run(&args);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            stdout(&o)
        };
        let json = |budget: &str| {
            let summary: serde_json::Value =
                serde_json::from_str(&sequential(budget, "--json")).unwrap();
            summary["audits"][0].clone()
        };
        let first: u64 = subject[subject.len() - 1].parse().unwrap();
        let small = json(&(2 * first).to_string());
        assert_eq!(small["verdict"], "inconclusive", "{small}");
        let budget = small["trials_for_verdict"].as_u64().expect("a budget");
        let why = small["inconclusive_reason"].as_str().unwrap();
        assert!(
            why.contains(&common::thousands(budget)),
            "the reason names the budget: {why}"
        );
        let enough = json(&budget.to_string());
        assert_eq!(enough["verdict"], "no-bias-detected", "{enough}");
        assert_eq!(enough["trials"].as_u64(), Some(budget));
        // The terminal says which option sets it.
        let table = sequential(&(2 * first).to_string(), "-q");
        assert!(table.contains("--max-trials sets the budget"), "{table}");
    }
}

/// Terminal output writes counts with separators and nouns in the right
/// number (issue 21 §6): "over 1 audit", not "1 audits"; bench's shuffles
/// as `12,345`, not `12345`.
#[test]
fn counts_have_separators_and_plurals_agree() {
    let out = temp("plurals");
    let o = run(&[
        "audit",
        "-a",
        "fisher-yates",
        "-t",
        "2000",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = stdout(&o);
    assert!(text.contains("over 1 audit\n"), "{text}");
    assert!(!text.contains("1 audits"), "{text}");
    let _ = std::fs::remove_dir_all(&out);
    let o = run(&["bench", "-n", "10", "-t", "12345", "--repeats", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (text, err) = (stdout(&o), stderr(&o));
    assert!(text.contains("12,345"), "{text}");
    assert!(!text.contains("12345"), "{text}");
    assert!(text.contains("median of 1 measurement:"), "{text}");
    assert!(err.contains("x 1 repeat ..."), "{err}");
    // The default tests, spaced so that a long list wraps.
    assert!(
        text.contains("\n  n = 10: position-value, fixed-points, "),
        "{text}"
    );
}

#[test]
fn a_closed_pipe_ends_the_program_without_a_panic() {
    // `shuffle-audit … --json | head -c 100`: the reader leaves early.
    use std::io::Read;
    use std::process::Stdio;
    let out = temp("pipe");
    let mut child = bin()
        .args(["audit", "-n", "10", "-t", "20000", "--json", "--out"])
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    // The read end is dropped here: every later write hits a closed pipe.
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(out);
}

/// The terminal table lists what saw each bias, strongest first, shortened
/// to fit 100 columns by leaving out its last names (`+5 more`); a
/// "could detect" every audit shares moves to the note to make room.
#[test]
fn the_table_says_what_saw_the_bias_shortened_to_fit() {
    let out = temp("seen-by");
    let out_str = out.to_string_lossy().into_owned();
    let o = run(&[
        "audit",
        "-n",
        "10",
        "-t",
        "20k",
        "--quiet",
        "--out",
        &out_str,
        "-a",
        "naive-swap",
        "-a",
        "sort-random-comparator:sort=merge",
        "-a",
        "fisher-yates",
        "-a",
        "rotation",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = stdout(&o);
    assert!(table.lines().all(|l| l.chars().count() <= 100), "{table}");
    let header = table.lines().find(|l| l.starts_with("subject")).unwrap();
    assert!(header.contains("seen by"), "{table}");
    let row = |name: &str| {
        table
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap()
            .to_string()
    };
    assert!(row("naive-swap").contains("position-value +5"), "{table}");
    assert!(row("fisher-yates").contains(" - "), "{table}");
    // Shared by every audit, "could detect" is a column while the table
    // fits with it, and is otherwise said once in the note.
    assert!(
        header.contains("could detect") || table.contains("for every audit, so not a column here"),
        "{table}"
    );
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let naive = summary["audits"][0]["seen_by"].as_array().unwrap();
    assert_eq!(naive.len(), 6);
    assert_eq!(naive[0], "position-value");
    std::fs::remove_dir_all(&out).unwrap();
}

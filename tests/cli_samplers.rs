//! Auditing samplers from the command line: what their verdicts rest on,
//! their pictures, refusals and exact laws; and shuffles and samplers
//! judged together in one run (one table, one summary, one report). What
//! every audit states alike, whatever its kind, is checked in tests/cli.rs.

mod common;

use common::{run, run_experiment, scratch, stderr, stdout, summary, temp};

/// A sampler's audit says which of its tests saw the bias (systematic
/// sampling keeps each item's inclusion fair: the pairs and subsets tests
/// see it), in the JSON and the CSV alike, and draws its counts.
#[test]
fn sampler_audits_name_what_saw_the_bias_and_draw_their_counts() {
    let out = temp("run");
    let o = run(&[
        "audit",
        "-a",
        "floyd:k=3",
        "-a",
        "reservoir-off-by-one:k=3",
        "-a",
        "systematic:k=2",
        "-a",
        "partial-fisher-yates:k=3",
        "-t",
        "300k",
        "--seed",
        "7",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = stdout(&o);
    for line in table.lines() {
        assert!(line.chars().count() <= 100, "{line}");
    }
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let audits = summary["audits"].as_array().unwrap();
    assert!(audits.iter().all(|a| a["kind"] == "sampler"), "{summary}");
    let verdicts: Vec<&str> = audits
        .iter()
        .map(|a| a["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        ["no-bias-detected", "biased", "biased", "no-bias-detected"]
    );
    // systematic keeps each item's inclusion fair: the pairs and subset
    // tests see it, the inclusion test does not decide.
    let decisive = summary["audits"][2]["decisive_test"].as_str().unwrap();
    assert!(["pairs", "subsets"].contains(&decisive), "{decisive}");
    let tests = summary["audits"][2]["tests"].as_array().unwrap();
    let p = |name: &str| {
        tests.iter().find(|t| t["test"] == name).unwrap()["p"]
            .as_f64()
            .unwrap()
    };
    assert!(p("pairs") <= 1e-12 && p("inclusion") > 1e-3, "{tests:?}");
    // What saw the bias, strongest first: led by the decisive test, never
    // the inclusion test; nothing for a fair sampler. The CSV has the same.
    let seen = |i: usize| -> Vec<String> {
        summary["audits"][i]["seen_by"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(seen(2)[0], decisive);
    assert!(!seen(2).contains(&"inclusion".to_string()), "{:?}", seen(2));
    assert!(seen(0).is_empty() && seen(3).is_empty());
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let column = reader
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "seen_by")
        .unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows[2][column], seen(2).join(";"));
    assert_eq!(&rows[0][column], "");
    // Each sampler's folder holds its counts and pictures: the slots of
    // an ordered sampler too.
    for file in [
        "partial-fisher-yates_k-3/slots.csv",
        "partial-fisher-yates_k-3/slots.png",
        "floyd_k-3/pairs.csv",
        "floyd_k-3/pairs.png",
        "floyd_k-3/inclusion.png",
        "systematic_k-2/pairs.png",
    ] {
        assert!(out.join(file).is_file(), "{file}");
    }
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("(systematic_k-2/pairs.png)") && md.contains("(comparison.png)"),
        "the report shows the pictures and the comparison grid"
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn weighted_picks_take_their_weights_and_boards_their_size() {
    let dir = temp("weights");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("w.txt");
    std::fs::write(&file, "1\n99\n").unwrap();
    let o = run(&[
        "audit",
        "-a",
        "weighted-off-by-one",
        "-a",
        "alias",
        "--weights-file",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["audits"][0]["verdict"], "biased");
    assert_eq!(
        doc["audits"][0]["largest_deviation"],
        "item 0 never drawn (picks)"
    );
    assert_eq!(doc["audits"][1]["verdict"], "no-bias-detected");
    let board = dir.join("board");
    let o = run(&[
        "audit",
        "-a",
        "minesweeper:w=9,h=9,m=10",
        "-t",
        "200k",
        "--json",
        "--out",
        board.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let folder = "minesweeper_w-9_h-9_m-10_method-shuffle-prefix";
    assert!(board.join(folder).join("board.png").is_file());
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["audits"][0]["n"], 81);
    assert_eq!(doc["audits"][0]["k"], 10);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_sampler_requests_are_refused_with_exit_2() {
    for (args, needle) in [
        (&["audit", "-a", "floyd:k=12", "-n", "10"][..], "k = 12"),
        (
            &["audit", "-a", "floyd:k=3", "--weights", "1,2"],
            "--weights is for weighted picks",
        ),
        (
            &["audit", "-a", "naive-swap", "--weights", "1,2"],
            "--weights is for weighted picks",
        ),
        (
            &["audit", "-a", "minesweeper:w=9,h=9,m=10", "-n", "10"],
            "N = 81",
        ),
        (&["audit", "-a", "alias", "--weights", "1,x"], "weight 'x'"),
        (
            &["audit", "-a", "floyd:k=3", "--tests", "all"],
            "--tests is for shuffles",
        ),
        (
            &["audit", "-a", "reservior:k=3"],
            "did you mean 'reservoir'",
        ),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

#[test]
fn exact_laws_of_samplers_are_enumerated() {
    let o = run(&["exact", "-a", "reservoir-off-by-one:k=2", "-n", "4"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    // Items 0 and 1 survive with probability (k-1)/(N-1) = 1/3, the rest k/(N-1).
    for line in [
        "uniform over the C(4, 2) = 6 subsets: no",
        "item 0: 1/3",
        "item 3: 2/3",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    let o = run(&["exact", "-a", "floyd:k=2", "-n", "5", "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["uniform"], true);
    assert_eq!(doc["total_variation"], "0");
    let o = run(&[
        "exact",
        "-a",
        "weighted-off-by-one",
        "-n",
        "2",
        "--weights",
        "1,99",
    ]);
    let text = stdout(&o);
    assert!(text.contains("index 0: 0 (weights say 1/100)"), "{text}");
    assert!(text.contains("proportional to the weights: no"), "{text}");
}

#[test]
fn sampler_experiments_run_and_rerun_identically() {
    let dir = temp("experiment");
    let (o, out) = run_experiment(
        &dir,
        "s",
        "name = \"s\"\npurpose = \"p\"\ntrials = 50_000\n\n[[sample]]\nsampler = \"floyd:k=2\"\nn = 6\n\n\
         [[sample]]\nsampler = \"reservoir-off-by-one:k=2\"\nn = 6\n\n\
         [[sample]]\nsampler = \"weighted-off-by-one\"\nweights = [1, 99]\n",
        &["-q"],
    );
    let file = dir.join("s.toml");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for name in ["experiment.toml", "run.json", "summary.json", "report.md"] {
        assert!(out.join(name).is_file(), "{name}");
    }
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let verdicts: Vec<&str> = summary["audits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["no-bias-detected", "biased", "biased"]);
    let o = run(&["run", "--check", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("identical: 3 audits"));
    // Bad tables are refused at their line, before anything runs.
    for (text, needle) in [
        (
            "name = \"x\"\npurpose = \"p\"\n[[sample]]\nsampler = \"floid:k=2\"\n",
            "4:11: ",
        ),
        (
            "name = \"x\"\npurpose = \"p\"\n[[sample]]\nsampler = \"floyd:k=2\"\nweight = [1]\n",
            "did you mean 'weights'",
        ),
        (
            "name = \"x\"\npurpose = \"p\"\n[[sample]]\nsampler = \"minesweeper:w=3,h=3,m=2\"\nn = 10\n",
            "has N = 9 items, but n = 10",
        ),
    ] {
        std::fs::write(&file, text).unwrap();
        let o = run(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{text}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{text}: {}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An experiment with [[audit]] and [[sample]] tables is one run: one
/// table, one Holm correction over every audit, one summary, report and
/// folder per audit (no folder of its own for the samplers), and `run
/// --check` compares each kind's counts against that one summary.
#[test]
fn one_experiment_holds_shuffles_and_samplers_judged_together() {
    let dir = temp("mixed");
    let (o, out) = run_experiment(
        &dir,
        "m",
        "name = \"m\"\npurpose = \"p\"\ntrials = 40_000\nn = 8\n\n\
         [[audit]]\nalgorithm = \"naive-swap\"\n\n[[audit]]\nalgorithm = \"fisher-yates\"\n\n\
         [[sample]]\nsampler = \"floyd:k=2\"\nn = 6\n\n\
         [[sample]]\nsampler = \"reservoir-off-by-one:k=2\"\nn = 6\n",
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with(
            "m: 40,000 trials each, rng chacha8, seed 20261121: 2 biased, 2 no bias detected"
        ),
        "{text}"
    );
    assert_eq!(text.matches("over 4 audits").count(), 1, "{text}");
    assert_eq!(text.matches(" biased ").count(), 2, "one table: {text}");
    // A line per finished audit, samplers too (stderr is not a terminal).
    assert!(
        stderr(&o).contains("[4/4] reservoir-off-by-one:k=2 n=6"),
        "{}",
        stderr(&o)
    );
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let audits = summary["audits"].as_array().unwrap();
    let kinds: Vec<&str> = audits.iter().map(|a| a["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["shuffle", "shuffle", "sampler", "sampler"]);
    assert_eq!(audits[3]["verdict"], "biased");
    assert_eq!(audits[3]["decisive_test"], "inclusion");
    for name in ["summary.json", "report.html", "floyd_k-2/inclusion.csv"] {
        assert!(out.join(name).is_file(), "{name}");
    }
    assert!(!out.join("samplers").exists(), "one report for both kinds");
    let o = run(&["run", "--check", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Each kind's counts, against the one summary.
    let said = stdout(&o);
    assert!(
        said.starts_with(
            "identical: 4 audits, 128 position-by-value counts and 12 inclusion counts match"
        ),
        "{said}"
    );
    assert!(said.trim_end().ends_with("/summary.json"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One `audit` command with shuffles and samplers is one run, as its
/// experiment would be: one table and one Holm correction over the 4
/// audits, the shuffles' tests as asked, every audit in one summary; and
/// the same command in 2 shards, merged, prints the same table.
#[test]
fn one_audit_command_holds_shuffles_and_samplers_judged_together() {
    let dir = scratch("mixed-command");
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let args = [
        "audit",
        "-a",
        "naive-swap",
        "-a",
        "fisher-yates",
        "-a",
        "floyd:k=2",
        "-a",
        "reservoir-off-by-one:k=2",
        "-n",
        "8",
        "-t",
        "200k",
        "--tests",
        "position-value,lehmer",
        "--seed",
        "5",
    ];
    let whole = out("whole");
    let o = run(&[&args[..], &["--out", &whole]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("n = 8, 200,000 trials each, rng chacha8, seed 5: 2 biased, 2 no bias"),
        "{text}"
    );
    // One Holm correction over the 4 audits, stated once for the one table.
    assert_eq!(text.matches("over 4 audits").count(), 1, "{text}");
    let summary = summary(std::path::Path::new(&whole));
    let audits = summary["audits"].as_array().unwrap();
    let verdicts: Vec<&str> = audits
        .iter()
        .map(|a| a["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        ["biased", "no-bias-detected", "no-bias-detected", "biased"]
    );
    assert_eq!(audits[0]["kind"], "shuffle");
    assert_eq!(audits[2]["kind"], "sampler");
    // The tests asked are the shuffles' (samplers run their own).
    assert_eq!(audits[0]["tests_run"], "position-value,lehmer");
    assert_eq!(audits[1]["tests_run"], "position-value,lehmer");
    let csv = std::path::Path::new(&whole).join("floyd_k-2/inclusion.csv");
    assert!(csv.is_file(), "{}", csv.display());
    // The same command in 2 shards, merged: the same table.
    let mut tallies = Vec::new();
    for i in 0..2 {
        let tally = out(&format!("s{i}.tally"));
        let shard = format!("{i}/2");
        let s = run(&[&args[..], &["--shard", &shard, "--tally", &tally]].concat());
        assert_eq!(s.status.code(), Some(0), "{}", stderr(&s));
        tallies.push(tally);
    }
    let m = run(&["merge", &tallies[1], &tallies[0], "--out", &out("merged")]);
    assert_eq!(m.status.code(), Some(0), "{}", stderr(&m));
    assert_eq!(stdout(&m), text);
    std::fs::remove_dir_all(&dir).unwrap();
}

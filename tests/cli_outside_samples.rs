//! Auditing a sampler from outside (`--kind sample|ordered|pick` with
//! `--input` or `--cmd`): fair draws pass, biased ones are caught and named
//! as the input writes them, bad input is refused with its place and nothing
//! written.

mod common;

use common::{run, scratch, stderr, stdout};
use std::path::Path;
use std::process::Output;

/// The JSON a run that must succeed printed on stdout.
fn json(o: &Output) -> serde_json::Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).expect("JSON on stdout")
}

/// SplitMix64, so the draws written here depend on nothing outside the test.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..m (the bias of a 64-bit modulo is far below anything
    /// these runs can see).
    fn below(&mut self, m: u64) -> u64 {
        self.next() % m
    }
}

/// `draws` lottery lines of 6 of 1..49, sorted: a fair draw, or with each
/// number drawn as `byte % 49 + 1` (modulo bias: 1..11 come too often).
fn lottery(path: &Path, draws: usize, modulo: bool, seed: u64) {
    let mut rng = Mix(seed);
    let mut text = String::from("# 6 of 49\n");
    for _ in 0..draws {
        let mut drawn: Vec<u64> = Vec::new();
        while drawn.len() < 6 {
            let x = if modulo {
                rng.below(256) % 49 + 1
            } else {
                rng.below(49) + 1
            };
            if !drawn.contains(&x) {
                drawn.push(x);
            }
        }
        drawn.sort_unstable();
        let line: Vec<String> = drawn.iter().map(|x| format!("{x:02}")).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_fair_lottery_file_passes_and_a_modulo_biased_one_is_caught() {
    let dir = scratch("lottery");
    let (fair, biased) = (dir.join("fair.txt"), dir.join("modulo.txt"));
    lottery(&fair, 30_000, false, 1);
    lottery(&biased, 30_000, true, 2);
    let audit = |path: &Path| {
        json(&run(&[
            "audit",
            "--input",
            path.to_str().unwrap(),
            "--kind",
            "sample",
            "-n",
            "49",
            "--json",
        ]))
    };
    let fair = audit(&fair);
    let a = &fair["audits"][0];
    assert_eq!(a["verdict"], "no-bias-detected", "{a}");
    assert_eq!((a["n"].as_u64(), a["k"].as_u64()), (Some(49), Some(6)));
    assert_eq!(a["trials"], 30_000);
    assert_eq!(a["base"], 1);
    assert!(a["rng"].is_null(), "no source of ours drew these");
    assert!(
        a["drawn"]
            .as_str()
            .unwrap()
            .starts_with("30,000 samples of k = 6 from N = 49 items (1..49) read from"),
        "{a}"
    );
    let biased = audit(&biased);
    let a = &biased["audits"][0];
    assert_eq!(a["verdict"], "biased", "{a}");
    // Numbers 1..11 come too often; the finding names a number as written.
    let words = a["largest_deviation"].as_str().unwrap();
    let number: u64 = words
        .split_once("item ")
        .and_then(|(_, rest)| rest.split(':').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{words}"));
    assert!((1..=11).contains(&number), "{words}");
}

/// `draws` prize draws of 3 of 1..20 in the order drawn (first prize
/// first), or printed sorted: the same sets, so only the slots differ.
fn prize_draws(path: &Path, draws: usize, sorted: bool, seed: u64) {
    let mut rng = Mix(seed);
    let mut text = String::new();
    for _ in 0..draws {
        let mut drawn: Vec<u64> = Vec::new();
        while drawn.len() < 3 {
            let x = rng.below(20) + 1;
            if !drawn.contains(&x) {
                drawn.push(x);
            }
        }
        if sorted {
            drawn.sort_unstable();
        }
        let line: Vec<String> = drawn.iter().map(u64::to_string).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

/// `--kind ordered` tests which item comes at which slot: draws in the
/// order drawn pass, the same draws printed sorted (the lowest number
/// always "wins") are caught by the order test, and `--kind sample`,
/// which does not use the order, passes them.
#[test]
fn ordered_draws_are_tested_slot_by_slot() {
    let dir = scratch("ordered");
    let (fair, sorted) = (dir.join("fair.txt"), dir.join("sorted.txt"));
    prize_draws(&fair, 20_000, false, 3);
    prize_draws(&sorted, 20_000, true, 3);
    let audit = |path: &Path, kind: &str| {
        let v = json(&run(&[
            "audit",
            "--input",
            path.to_str().unwrap(),
            "--kind",
            kind,
            "-n",
            "20",
            "--json",
        ]));
        v["audits"][0].clone()
    };
    let tests = |a: &serde_json::Value| -> Vec<String> {
        a["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["test"].as_str().unwrap().to_string())
            .collect()
    };
    let a = audit(&fair, "ordered");
    assert_eq!(a["verdict"], "no-bias-detected", "{a}");
    assert!(tests(&a).contains(&"order".to_string()), "{a}");
    assert!(
        a["drawn"]
            .as_str()
            .unwrap()
            .contains("ordered samples of k = 3")
    );
    let a = audit(&sorted, "ordered");
    assert_eq!(a["verdict"], "biased", "{a}");
    assert_eq!(a["decisive_test"], "order", "{a}");
    assert!(
        a["largest_deviation"].as_str().unwrap().contains("slot"),
        "{a}"
    );
    let a = audit(&sorted, "sample");
    assert_eq!(a["verdict"], "no-bias-detected", "{a}");
    assert!(!tests(&a).contains(&"order".to_string()), "{a}");
}

#[test]
fn a_program_prints_picks_against_weights_and_a_limit_reads_the_first_lines() {
    let dir = scratch("picks");
    // The boundary bug: r uniform in 1..=10 against prefix sums 1, 3, 6,
    // 10, so item 0 (weight 1) is never picked.
    let buggy = "awk -v s={seed} -v c={count} 'BEGIN { srand(s); split(\"1 3 6 10\", p); \
                 for (t = 0; t < c; t++) { r = int(rand() * 10) + 1; i = 3; \
                 for (j = 1; j <= 4; j++) if (p[j] > r) { i = j - 1; break } print i } }'";
    let summary = json(&run(&[
        "audit",
        "--cmd",
        buggy,
        "--kind",
        "pick",
        "--weights",
        "1,2,3,4",
        "--base",
        "0",
        "-t",
        "20k",
        "--jobs",
        "2",
        "--name",
        "off-by-one pick",
        "--json",
    ]));
    let a = &summary["audits"][0];
    assert_eq!(a["verdict"], "biased", "{a}");
    assert_eq!(a["sampler"], "off-by-one pick");
    assert_eq!(a["decisive_test"], "picks");
    assert_eq!(a["inclusion"][0], 0);
    assert_eq!(a["trials"], 20_000);
    assert!(a["drawn"].as_str().unwrap().contains("printed by 2 copies"));

    // A limit reads only the first picks of a longer file, and says so.
    let picks = dir.join("picks.txt");
    let text: String = (0..5_000).map(|i| format!("{}\n", i % 4)).collect();
    std::fs::write(&picks, text).unwrap();
    let summary = json(&run(&[
        "audit",
        "--input",
        picks.to_str().unwrap(),
        "--kind",
        "pick",
        "-n",
        "4",
        "-t",
        "1000",
        "--json",
    ]));
    let a = &summary["audits"][0];
    assert_eq!(a["trials"], 1_000);
    assert_eq!(a["base"], 0);
    assert!(
        a["drawn"]
            .as_str()
            .unwrap()
            .ends_with("the first of a longer input"),
        "{a}"
    );
}

#[test]
fn bad_samples_and_flags_are_refused_with_exit_2_and_nothing_written() {
    let dir = scratch("bad");
    let file = dir.join("draws.txt");
    std::fs::write(&file, "1 2 3 4 5 6\n7 8 9 10 11\n").unwrap();
    let out = dir.join("out");
    let f = file.to_str().unwrap();
    let o = out.to_str().unwrap();
    let cases: [(&[&str], &str); 8] = [
        (
            &["--input", f, "--kind", "sample", "-n", "49"],
            "draws.txt:2: expected 6 items (as on the first sample line), found 5",
        ),
        (
            &["--input", f, "--kind", "sample"],
            "--kind sample needs -n",
        ),
        (
            &["--kind", "sample", "-n", "49"],
            "use it with --input FILE or --cmd PROGRAM",
        ),
        (
            &["--input", f, "--kind", "sample", "-n", "49", "--base", "2"],
            "--base '2'",
        ),
        (
            &[
                "--input", f, "--kind", "sample", "-n", "49", "--format", "u8",
            ],
            "read as text (one per line), not as u8 records",
        ),
        (&["--input", f, "--base", "1"], "use it with --kind sample"),
        (
            &[
                "--input",
                f,
                "--kind",
                "sample",
                "-n",
                "49",
                "--weights",
                "1,2",
            ],
            "--weights is for weighted picks",
        ),
        (
            &["--input", f, "--kind", "sample", "-n", "8"],
            "draws.txt:2: item 9 is not in",
        ),
    ];
    for (args, want) in cases {
        let mut all = vec!["audit"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--out", o]);
        let got = run(&all);
        assert_eq!(got.status.code(), Some(2), "{args:?}: {}", stderr(&got));
        assert!(stderr(&got).contains(want), "{args:?}: {}", stderr(&got));
        assert!(!stderr(&got).contains("panicked"), "{args:?}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}

#[test]
fn an_input_that_never_shows_0_or_n_asks_for_the_base() {
    let dir = scratch("base");
    let file = dir.join("draws.txt");
    std::fs::write(&file, "2 3\n4 5\n").unwrap();
    let o = run(&[
        "audit",
        "--input",
        file.to_str().unwrap(),
        "--kind",
        "sample",
        "-n",
        "6",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("neither 0 nor 6 appears in its 2 samples; say which with --base"),
        "{}",
        stderr(&o)
    );
    let given = json(&run(&[
        "audit",
        "--input",
        file.to_str().unwrap(),
        "--kind",
        "sample",
        "-n",
        "6",
        "--base",
        "1",
        "--json",
    ]));
    let a = &given["audits"][0];
    assert_eq!(a["inclusion"], serde_json::json!([0, 1, 1, 1, 1, 0]));
    // Two samples cannot say anything: the verdict is never "no bias".
    assert_eq!(a["verdict"], "inconclusive");
}

#[test]
fn an_experiment_audits_a_draw_file_and_check_reruns_it_to_identical_counts() {
    let dir = scratch("experiment");
    let draws = dir.join("draws.txt");
    lottery(&draws, 5_000, false, 3);
    let file = dir.join("lottery.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"lottery\"\npurpose = \"a draw history\"\n\
             [[sample]]\ninput = {:?}\nn = 49\nname = \"6 of 49\"\n\
             [[sample]]\ncmd = \"never-installed-program {{count}}\"\nn = 49\n\
             requires = [\"never-installed-program\"]\n",
            draws.to_str().unwrap()
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let o = run(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("skipped: never-installed-program {count} (needs"),
        "{}",
        stderr(&o)
    );
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let audits = summary["audits"].as_array().unwrap();
    assert_eq!(audits.len(), 1);
    assert_eq!(audits[0]["sampler"], "6 of 49");
    assert_eq!(audits[0]["trials"], 5_000);
    let check = run(&["run", "--check", out.to_str().unwrap(), "-q"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert!(stdout(&check).starts_with("identical"));
    // A changed file is a different run.
    lottery(&draws, 5_000, false, 4);
    let check = run(&["run", "--check", out.to_str().unwrap(), "-q"]);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
}

/// Weights that do not fit the picks, and probability weights (issue 21 §4):
/// a list one short says so, and decimals are read in the same proportions
/// (scaled exactly to whole numbers, as a note says).
#[test]
fn weights_one_short_say_so_and_decimal_weights_are_scaled() {
    let dir = scratch("weights");
    let picks = dir.join("picks.txt");
    let text: String = (0..400).map(|i| format!("{}\n", 3 - i % 4)).collect();
    std::fs::write(&picks, text).unwrap();
    let p = picks.to_str().unwrap();
    let short = run(&[
        "audit",
        "--input",
        p,
        "--kind",
        "pick",
        "--weights",
        "1,2,3",
        "--json",
    ]);
    assert_eq!(short.status.code(), Some(2), "{}", stderr(&short));
    assert!(
        stderr(&short).contains(
            "picks.txt:4: item 0: picks of 0..3 need 4 weights, one per item, but 3 were \
             given: the weights list is one short"
        ),
        "{}",
        stderr(&short)
    );
    let whole = run(&[
        "audit",
        "--input",
        p,
        "--kind",
        "pick",
        "--weights",
        "1,2,3,4",
        "--json",
    ]);
    let decimal = run(&[
        "audit",
        "--input",
        p,
        "--kind",
        "pick",
        "--weights",
        "0.1,0.2,0.3,0.4",
        "--json",
    ]);
    assert_eq!(decimal.status.code(), Some(0), "{}", stderr(&decimal));
    assert!(
        stderr(&decimal).contains("weights 0.1,0.2,0.3,0.4 read as 1,2,3,4"),
        "{}",
        stderr(&decimal)
    );
    let (a, b) = (json(&whole), json(&decimal));
    assert_eq!(a["audits"][0]["verdict"], b["audits"][0]["verdict"]);
    assert_eq!(
        a["audits"][0]["log10_p_adjusted"],
        b["audits"][0]["log10_p_adjusted"]
    );
    assert!(a["audits"][0]["log10_p_adjusted"].is_number());
    let bad = run(&[
        "audit",
        "--input",
        p,
        "--kind",
        "pick",
        "--weights",
        "1e-3,2",
        "--json",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("weight '1e-3' is not a number ≥ 0"));
    let _ = std::fs::remove_dir_all(&dir);
}

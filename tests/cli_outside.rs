//! Auditing shuffles from outside the tool through the command line: files,
//! stdin, binary records and running programs give the same counts for the
//! same decks, a file of built-in decks is judged exactly as the built-in
//! audit, and every bad input is refused with exit 2, one line naming the
//! place, and no files.

mod common;

use common::{bin, run, stderr, stdout, summary, temp};
use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::engine::CHUNK_TRIALS;
use shuffle_audit::source::{ChaCha8Source, StreamSource};
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

/// The decks the engine makes for `algorithm` at n with `trials` (fewer than
/// one chunk) and `seed` under ChaCha8: stream 0, one shuffle after another.
fn engine_decks(algorithm: Algorithm, n: usize, trials: u64, seed: u64) -> Vec<Vec<u32>> {
    assert!(trials <= CHUNK_TRIALS);
    let mut rng = ChaCha8Source::for_stream(seed, 0);
    (0..trials)
        .map(|_| {
            let mut deck: Vec<u32> = (0..n as u32).collect();
            algorithm.shuffle(&mut deck, &mut rng);
            deck
        })
        .collect()
}

fn write_text(path: &Path, decks: &[Vec<u32>], one_based: bool) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    writeln!(f, "# decks written by the test").unwrap();
    for d in decks {
        let items: Vec<String> = d
            .iter()
            .map(|v| (v + u32::from(one_based)).to_string())
            .collect();
        writeln!(f, "{}", items.join(" ")).unwrap();
    }
}

fn counts(dir: &Path) -> serde_json::Value {
    summary(dir)["audits"][0]["counts"].clone()
}

#[test]
fn a_file_of_built_in_decks_is_judged_exactly_as_the_built_in_audit() {
    let (n, trials, seed) = (6usize, 3_000u64, 11u64);
    let decks = engine_decks(Algorithm::NaiveSwap, n, trials, seed);
    let file = temp("naive.txt");
    write_text(&file, &decks, false);
    let (built_in, outside) = (temp("builtin"), temp("file"));
    let t = trials.to_string();
    let s = seed.to_string();
    let o = run(&[
        "audit",
        "-a",
        "naive-swap",
        "-n",
        "6",
        "-t",
        &t,
        "--seed",
        &s,
        "-q",
        "--out",
    ]
    .iter()
    .copied()
    .chain([built_in.to_str().unwrap()])
    .collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&[
        "audit",
        "--input",
        file.to_str().unwrap(),
        "-q",
        "--out",
        outside.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (a, b) = (summary(&built_in), summary(&outside));
    let (a, b) = (&a["audits"][0], &b["audits"][0]);
    assert_eq!(a["counts"], b["counts"]);
    for key in ["verdict", "p_adjusted", "log10_p_adjusted", "decisive_test"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    assert_eq!(b["verdict"], "biased");
    assert_eq!(b["rng"], "own");
    for p in [file, built_in, outside] {
        let _ = std::fs::remove_dir_all(&p);
        let _ = std::fs::remove_file(&p);
    }
}

#[test]
fn file_stdin_binary_and_command_give_the_same_counts() {
    let n = 5usize;
    let decks = engine_decks(Algorithm::FisherYates, n, 2_000, 3);
    let text = temp("decks.txt");
    write_text(&text, &decks, true);
    let binary = temp("decks.bin");
    let bytes: Vec<u8> = decks.iter().flatten().map(|&v| v as u8).collect();
    std::fs::write(&binary, bytes).unwrap();

    let audit = |name: &str, args: &[&str], stdin: Option<&Path>| {
        let out = temp(name);
        let mut cmd = bin();
        cmd.args(["audit", "-q", "--out", out.to_str().unwrap()])
            .args(args);
        if let Some(path) = stdin {
            cmd.stdin(Stdio::from(std::fs::File::open(path).unwrap()));
        }
        let o = cmd.output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let c = counts(&out);
        std::fs::remove_dir_all(&out).unwrap();
        c
    };
    let from_file = audit("f", &["--input", text.to_str().unwrap()], None);
    let from_stdin = audit("s", &["--input", "-"], Some(&text));
    let from_binary = audit(
        "b",
        &[
            "--input",
            binary.to_str().unwrap(),
            "--format",
            "u8",
            "-n",
            "5",
        ],
        None,
    );
    let cat = format!("cat {}", text.display());
    let from_cmd = audit(
        "c",
        &["--cmd", &cat, "-n", "5", "-t", "2000", "--jobs", "1"],
        None,
    );
    assert_eq!(from_file, from_stdin);
    assert_eq!(from_file, from_binary);
    assert_eq!(from_file, from_cmd);
    let _ = std::fs::remove_file(&text);
    let _ = std::fs::remove_file(&binary);
}

#[test]
fn labels_with_a_starting_order_and_a_limit() {
    let file = temp("cards.txt");
    let labels = ["AS", "2S", "3S", "4S"];
    let decks = engine_decks(Algorithm::FisherYates, 4, 1_000, 5);
    let mut text = String::new();
    for d in &decks {
        let row: Vec<&str> = d.iter().map(|&v| labels[v as usize]).collect();
        text.push_str(&format!("[{}]\n", row.join(", ")));
    }
    std::fs::write(&file, text).unwrap();
    let out = temp("cards-out");
    let o = run(&[
        "audit",
        "--input",
        file.to_str().unwrap(),
        "--order",
        "AS,2S,3S,4S",
        "-t",
        "600",
        "--name",
        "my dealer",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("my dealer: 600 decks of n = 4 items (the labels AS, 2S, 3S, 4S"),
        "{stdout}"
    );
    assert!(stdout.contains("the first of a longer input"), "{stdout}");
    let s = summary(&out);
    assert_eq!(s["audits"][0]["trials"], 600);
    // The explicit order is the engine's order, so the counts are the
    // engine's counts of the first 600 decks.
    let mut direct = vec![vec![0u64; 4]; 4];
    for d in &decks[..600] {
        for (p, &v) in d.iter().enumerate() {
            direct[p][v as usize] += 1;
        }
    }
    assert_eq!(s["audits"][0]["counts"], serde_json::json!(direct));
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("**Expected:** unknown"),
        "no expected verdict for an outside shuffle"
    );
    // Asking for more decks than the file holds is fine, and said.
    let o = run(&[
        "audit",
        "--input",
        file.to_str().unwrap(),
        "-t",
        "5000",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("1,000 decks of n = 4 items"), "{stdout}");
    assert!(
        stdout.contains("all the input held (5,000 were asked for)"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_file(&file);
}

/// Asserts exit 2, `needle` in the one-line error, no panic and no folder.
fn assert_refused(args: &[&str], stdin: Option<&str>, needle: &str) {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = temp(&format!("refused-{call}"));
    let mut cmd = bin();
    cmd.args(args).args(["--out", out.to_str().unwrap()]);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    {
        let mut pipe = child.stdin.take().unwrap();
        let _ = pipe.write_all(stdin.unwrap_or("").as_bytes());
    }
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: '{needle}' not in: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
    assert!(!out.exists(), "{args:?}: the output folder was left behind");
}

#[test]
fn bad_decks_are_refused_with_their_place_and_nothing_written() {
    let stdin = ["audit", "--input", "-"];
    assert_refused(
        &stdin,
        Some("0 1 2\n1 2\n"),
        "stdin:2: expected 3 items, found 2",
    );
    assert_refused(
        &stdin,
        Some("0 1 2\n1 1 2\n"),
        "stdin:2: \"1\" appears twice",
    );
    assert_refused(
        &stdin,
        Some("0 1 2\n0 1 7\n"),
        "\"7\" is not one of the 3 items",
    );
    assert_refused(
        &stdin,
        Some("A A B B\nA A A B\n"),
        "stdin:2: \"A\" appears more than",
    );
    assert_refused(&stdin, Some("# nothing\n\n"), "no decks found");
    assert_refused(
        &["audit", "--input", "-", "--format", "u8"],
        Some("\x00\x01"),
        "--format u8 needs -n",
    );
    assert_refused(
        &["audit", "--input", "-", "--format", "u8", "-n", "3"],
        Some("\x00\x01\x02\x00"),
        "not a whole number of 3-byte records",
    );
    assert_refused(
        &["audit", "--input", "/no/such/file"],
        None,
        "/no/such/file",
    );
    assert_refused(&["audit", "--input", "-", "--format", "u7"], None, "u7");
    assert_refused(&["audit", "--order", "a,b"], None, "--order");
    assert_refused(
        &[
            "audit",
            "--cmd",
            "sh -c 'echo 0 1 2; exit 3'",
            "-n",
            "3",
            "-t",
            "5",
            "--jobs",
            "1",
        ],
        None,
        "exited with status 3",
    );
    assert_refused(
        &[
            "audit",
            "--cmd",
            "printf '0 1 2\\n0 1 x\\n'",
            "-n",
            "3",
            "-t",
            "5",
            "--jobs",
            "1",
        ],
        None,
        "stdout:2: \"x\" is not one of",
    );
    assert_refused(
        &[
            "audit",
            "--cmd",
            "echo 0 1 2",
            "-n",
            "3",
            "-t",
            "5",
            "--jobs",
            "1",
        ],
        None,
        "exited with status 0 after printing only 1 of its 5 decks",
    );
    assert_refused(
        &[
            "audit",
            "--cmd",
            "sleep 5",
            "-n",
            "3",
            "-t",
            "5",
            "--jobs",
            "1",
            "--cmd-timeout",
            "1",
        ],
        None,
        "no output for 1 s",
    );
}

#[test]
fn bad_input_with_an_explicit_n_names_both() {
    assert_refused(
        &["audit", "--input", "-", "-n", "4"],
        Some("0 1 2\n"),
        "stdin:1: expected 4 items, found 3",
    );
}

#[test]
fn run_check_reruns_a_deterministic_program_and_flags_one_that_is_not() {
    let dir = temp("exp");
    std::fs::create_dir_all(&dir).unwrap();
    // awk's srand(seed) makes the program deterministic for its seed; the
    // second program ignores its seed and reads the clock and the pid.
    let seeded = "awk -v n={n} -v c={count} -v s={seed} 'BEGIN { srand(s); for (d = 0; d < c; d++) { for (i = 0; i < n; i++) a[i] = i; for (i = n - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = a[i]; a[i] = a[j]; a[j] = t } line = a[0]; for (i = 1; i < n; i++) line = line \" \" a[i]; print line } }'";
    let unseeded = seeded
        .replace("srand(s)", "srand()")
        .replace("-v s={seed} ", "");
    for (name, cmd, same) in [
        ("seeded", seeded.to_string(), true),
        ("unseeded", unseeded, false),
    ] {
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(
            &file,
            format!(
                "name = \"{name}\"\npurpose = \"test\"\n[[audit]]\ncmd = {cmd:?}\nname = \"{name}\"\nn = 5\ntrials = 3000\njobs = 2\nrequires = [\"awk\"]\n"
            ),
        )
        .unwrap();
        let out = dir.join(format!("{name}-out"));
        let o = run(&[
            "run",
            file.to_str().unwrap(),
            "-q",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let record = std::fs::read_to_string(out.join("run.json")).unwrap();
        assert!(record.contains("\"workers\""), "{record}");
        if !same {
            // srand() seeds from the clock in seconds: wait for it to tick.
            std::thread::sleep(std::time::Duration::from_millis(1100));
        }
        let o = run(&["run", "--check", out.to_str().unwrap(), "-q"]);
        let text = stdout(&o) + &stderr(&o);
        if same {
            assert_eq!(o.status.code(), Some(0), "{name}: {text}");
            assert!(text.contains("identical"), "{text}");
        } else {
            assert_eq!(o.status.code(), Some(1), "{name}: {text}");
            assert!(text.contains("deterministic"), "{text}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_runtime_skips_the_audit_with_a_line() {
    let dir = temp("skip");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("skip.toml");
    std::fs::write(
        &file,
        "name = \"skip\"\npurpose = \"test\"\n[[audit]]\nalgorithm = \"fisher-yates\"\ntrials = 1000\n\
         [[audit]]\ncmd = \"no-such-runtime {n}\"\nname = \"ghost\"\nrequires = [\"no-such-runtime\"]\n",
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
        stderr(&o).contains("skipped: ghost (needs `no-such-runtime`"),
        "{}",
        stderr(&o)
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("Not run on this machine: ghost"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_of_built_in_shoes_gives_every_output_of_the_built_in_shoe() {
    // Six decks of playing cards, dealt by the built-in Fisher–Yates and
    // written as card labels, read back with --categories cards: the same
    // kind-by-position counts, verdict, deviation words, TV figures and
    // heatmap matrix as the built-in audit of `--deck shoe:decks=6`.
    let (trials, seed) = (3_000u64, 5u64);
    let deck = shuffle_audit::deck::Deck::parse("shoe:decks=6").unwrap();
    let names: Vec<&str> = deck
        .kind_of()
        .iter()
        .map(|&k| deck.kind_names()[k as usize].as_str())
        .collect();
    let decks = engine_decks(Algorithm::FisherYates, deck.n(), trials, seed);
    let file = temp("shoe.txt");
    let text: String = decks
        .iter()
        .map(|d| {
            let line: Vec<&str> = d.iter().map(|&v| names[v as usize]).collect();
            line.join(" ") + "\n"
        })
        .collect();
    std::fs::write(&file, text).unwrap();
    let (built_in, outside) = (temp("shoe-builtin"), temp("shoe-file"));
    let (t, s) = (trials.to_string(), seed.to_string());
    let tests = "position-kind,position-category";
    let o = run(&[
        "audit",
        "-a",
        "fisher-yates",
        "--deck",
        "shoe:decks=6",
        "--tests",
        tests,
        "-t",
        &t,
        "--seed",
        &s,
        "-q",
        "--out",
        built_in.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&[
        "audit",
        "--input",
        file.to_str().unwrap(),
        "--categories",
        "cards",
        "--tests",
        tests,
        "-q",
        "--out",
        outside.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (a, b) = (summary(&built_in), summary(&outside));
    let (a, b) = (&a["audits"][0], &b["audits"][0]);
    for key in [
        "verdict",
        "p_adjusted",
        "decisive_test",
        "largest_deviation",
        "deviation_cell",
        "max_abs_z",
        "standout_z",
        "tv_marginal",
        "tv_noise",
        "position_value_statistic",
        "position_value_df",
        "inconclusive_reason",
        "trials_for_verdict",
        "kinds",
    ] {
        assert_eq!(a[key], b[key], "{key}");
    }
    assert_eq!(b["kinds"][0], "AS", "kinds in deck order");
    let words = b["largest_deviation"].as_str().unwrap();
    assert!(words.starts_with("no cell stands out"), "{words}");
    // A fair shoe's TV is noise: within 1.5× of its noise level (the per
    // copy figure was 0.83 against a noise of 0.06).
    let (tv, noise) = (
        b["tv_marginal"].as_f64().unwrap(),
        b["tv_noise"].as_f64().unwrap(),
    );
    assert!(tv < 1.5 * noise, "TV {tv} against noise {noise}");
    // counts.csv: positions by the 52 kinds, identical; the heatmap drawn
    // from these counts is the same matrix.
    let csv = |dir: &Path| {
        let sub = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.join("counts.csv").exists())
            .expect("an audit folder");
        assert!(sub.join("heatmap.png").exists());
        std::fs::read_to_string(sub.join("counts.csv")).unwrap()
    };
    let counts = csv(&built_in);
    assert_eq!(counts, csv(&outside));
    assert!(counts.starts_with("position,AS,2S,"), "{}", &counts[..40]);
    assert_eq!(counts.lines().count(), 1 + 312);
    for p in [file, built_in, outside] {
        let _ = std::fs::remove_dir_all(&p);
        let _ = std::fs::remove_file(&p);
    }
}

/// Input that is not one deck per line is refused for what it recognisably
/// is, not judged or named by its symptom (issue 21 §4).
#[test]
fn inputs_that_are_not_decks_are_named_for_what_they_are() {
    let stdin = ["audit", "--input", "-"];
    // A JSON array of decks on one line was one deck of 9 "labels".
    assert_refused(
        &stdin,
        Some("[[0,1,2],[1,0,2],[2,1,0]]\n"),
        "stdin:1: one line holds 3 arrays: write one deck per line",
    );
    assert_refused(&stdin, Some("[0,1,2] [2,1,0]\n"), "one line holds 2 arrays");
    assert_refused(
        &stdin,
        Some("[[0,1,2],\n[2,1,0]]\n"),
        "stdin:1: the line holds an array inside an array",
    );
    // A header line above integer decks.
    assert_refused(
        &stdin,
        Some("c1,c2,c3\n0,1,2\n2,1,0\n"),
        "stdin: line 1 looks like a header (\"c1\", \"c2\", \"c3\")",
    );
    // Text read as binary records.
    assert_refused(
        &["audit", "--input", "-", "--format", "u8", "-n", "3"],
        Some("0 1 2\n2 1 0\n"),
        "stdin: looks like text (\"0 1 2\"), not u8 records: drop --format",
    );
    // Lottery lines read as decks: the hint names --kind sample.
    assert_refused(
        &stdin,
        Some("3 12 19 27 33 41\n5 9 12 20 38 44\n"),
        "stdin:2: \"5\" is not one of the 6 items of line 1; if each line is a sample",
    );
    assert_refused(
        &["audit", "--input", "-", "-n", "49"],
        Some("3 12 19 27 33 41\n"),
        "expected 49 items, found 6; if each line is a sample of k items drawn from N \
         (a 6-of-49 lottery draw), add --kind sample -n N",
    );
    assert_refused(&stdin, Some("7\n3\n"), "add --kind pick -n N");
    // A command told {n} needs -n rather than a silent 10.
    assert_refused(
        &["audit", "--cmd", "my-shuffle --size {n}", "-t", "5"],
        None,
        "--cmd uses {n}: give -n",
    );
}

/// A command that is not told n prints decks whose first says n, as a
/// file's does: `--cmd` without `{n}` and without -n audits them.
#[test]
fn a_command_without_n_takes_n_from_its_first_deck() {
    let dir = temp("cmd-n");
    let o = run(&[
        "audit",
        "--cmd",
        "yes '0 1 2 3' | head -n {count}",
        "-t",
        "50",
        "--jobs",
        "2",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = summary(&dir);
    let audit = &s["audits"][0];
    assert_eq!(audit["n"], 4, "{audit}");
    // Progress named the audit before n was known without an "n=0".
    let progress = run(&[
        "audit",
        "--cmd",
        "yes '0 1 2 3' | head -n {count}",
        "-t",
        "50",
        "--jobs",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(!stderr(&progress).contains("n=0"), "{}", stderr(&progress));
    assert_eq!(audit["trials"], 50, "{audit}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn decks_read_from_a_file_say_their_n_everywhere() {
    // n is known from the first line: the progress line, the report's
    // title and the terminal say it (they said n = 0), and a shoe's
    // sensitivity is stated in words.
    let decks = engine_decks(Algorithm::FisherYates, 104, 300, 3);
    let labels = shuffle_audit::deck::Deck::parse("shoe:decks=2").unwrap();
    let text: String = decks
        .iter()
        .map(|d| {
            let line: Vec<&str> = d
                .iter()
                .map(|&v| labels.kind_names()[labels.kind_of()[v as usize] as usize].as_str())
                .collect();
            line.join(" ") + "\n"
        })
        .collect();
    let file = temp("n-shoe.txt");
    std::fs::write(&file, text).unwrap();
    let out = temp("n-report");
    let o = run(&[
        "audit",
        "--input",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (err, stdout) = (stderr(&o), String::from_utf8_lossy(&o.stdout).into_owned());
    assert!(err.contains("n=104") && !err.contains("n=0"), "{err}");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.starts_with("# Audit of ") && report.contains("n-shoe.txt at n = 104\n"),
        "{}",
        &report[..80]
    );
    assert!(!report.contains("n = 0"));
    assert!(stdout.contains("n = 104"), "{stdout}");
    assert!(
        stdout.contains("a w = "),
        "a shoe's sensitivity in words: {stdout}"
    );
    for p in [file, out] {
        let _ = std::fs::remove_dir_all(&p);
        let _ = std::fs::remove_file(&p);
    }
}

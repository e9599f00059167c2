//! Runs that outgrow one machine, through the command line: the shards of a
//! run merged give the run on one machine (the same counts bit for bit, the
//! same verdicts and files), for shuffles and samplers alike, and a whole
//! run saved as it goes resumes to the same judgement; `merge` refuses
//! tallies that do not belong together; a checkpointed run stopped by
//! SIGINT or killed by SIGKILL resumes to the same counts; and the per-task
//! commands of the Slurm and Kubernetes files in deploy/ run here as local
//! processes and merge.

mod common;

use common::{BIN, bin, run, scratch, stderr, stdout};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `o`, after asserting that its run succeeded.
fn ok(o: &Output) -> &Output {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    o
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A summary (summary.json, --json, --export-json) without its timing
/// fields, the only ones a merged or resumed run may change.
fn untimed(path: &Path) -> Value {
    let mut doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    for audit in doc["audits"].as_array_mut().unwrap() {
        let audit = audit.as_object_mut().unwrap();
        assert!(audit.remove("seconds").is_some());
        assert!(audit.remove("per_second").is_some());
    }
    doc
}

/// summary.csv without the `seconds` and `per_second` columns, read as
/// CSV (quoted fields hold commas).
fn untimed_csv(path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap();
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    let timing: Vec<usize> = (0..rows[0].len())
        .filter(|&i| rows[0][i] == "seconds" || rows[0][i] == "per_second")
        .collect();
    assert_eq!(timing.len(), 2);
    rows.into_iter()
        .map(|r| {
            r.into_iter()
                .enumerate()
                .filter(|(i, _)| !timing.contains(i))
                .map(|(_, c)| c)
                .collect()
        })
        .collect()
}

/// Every file under `dir`, relative to it, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    found.sort();
    found
}

/// The payload of a tally file (after its header line), as JSON.
fn payload(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap();
    let at = bytes.iter().position(|&b| b == b'\n').unwrap();
    serde_json::from_slice(&bytes[at + 1..]).unwrap()
}

/// Runs `run_args` whole and in `shards` shards, merges the shards in the
/// order `order` (indices), and asserts that the merge is the run on one
/// machine: the same table, summaries (but for the timing), files (every
/// count matrix and picture byte for byte, at least `pictures` of them) and
/// `--json`. Returns the whole run's folder and its table.
fn assert_shards_merge_to_the_whole_run(
    dir: &Path,
    run_args: &[&str],
    order: &[usize],
    pictures: usize,
) -> (PathBuf, String) {
    let shards = order.len();
    let whole = dir.join("whole");
    let one = ok(&run(&[run_args, &["--out", p(&whole)]].concat())).clone();
    let tallies: Vec<PathBuf> = (0..shards)
        .map(|i| dir.join(format!("s{i}.tally")))
        .collect();
    for (i, tally) in tallies.iter().enumerate() {
        let shard = format!("{i}/{shards}");
        let o = run(&[run_args, &["--shard", &shard, "--tally", p(tally)]].concat());
        ok(&o);
        assert!(stderr(&o).contains(&format!("shard {i}/{shards}: chunks")));
        assert!(o.stdout.is_empty(), "a shard prints no verdicts");
    }
    let merged = dir.join("merged");
    let order: Vec<&str> = order.iter().map(|&i| p(&tallies[i])).collect();
    let m = ok(&run(
        &[&["merge"], &order[..], &["--out", p(&merged)]].concat()
    ))
    .clone();
    assert_eq!(stdout(&m), stdout(&one), "the same table");
    assert_eq!(
        untimed(&merged.join("summary.json")),
        untimed(&whole.join("summary.json"))
    );
    assert_eq!(
        untimed_csv(&merged.join("summary.csv")),
        untimed_csv(&whole.join("summary.csv"))
    );
    let files = files_under(&whole);
    assert_eq!(files_under(&merged), files);
    let mut compared = 0;
    for file in &files {
        let name = file.file_name().unwrap().to_str().unwrap();
        if !name.starts_with("summary.") && !name.starts_with("report.") {
            let same = std::fs::read(whole.join(file)).unwrap()
                == std::fs::read(merged.join(file)).unwrap();
            assert!(same, "{} differs", file.display());
            compared += 1;
        }
    }
    assert!(compared >= pictures, "{files:?}");
    // --json prints the same summary.
    let json = dir.join("merged.json");
    ok(&run(&[
        &["merge"],
        &order[..],
        &["--json", "--export-json", p(&json)],
    ]
    .concat()));
    assert_eq!(untimed(&json), untimed(&whole.join("summary.json")));
    // A whole run saved as it goes and resumed from its save judges alike.
    let saved = dir.join("saved.tally");
    let c = ok(&run(
        &[run_args, &["--checkpoint", p(&saved), "--json"]].concat()
    ))
    .clone();
    let r = ok(&run(
        &[run_args, &["--resume", p(&saved), "--json"]].concat()
    ))
    .clone();
    for o in [&c, &r] {
        let printed = dir.join("printed.json");
        std::fs::write(&printed, &o.stdout).unwrap();
        assert_eq!(untimed(&printed), untimed(&whole.join("summary.json")));
    }
    // A shard of another seed is another run.
    let other = dir.join("other.tally");
    let mut other_args = run_args.to_vec();
    let seed = other_args.iter().position(|&a| a == "--seed").unwrap() + 1;
    assert_eq!(other_args[seed], "7");
    other_args[seed] = "8";
    ok(&run(&[
        &other_args[..],
        &["--shard", "1/2", "--tally", p(&other)],
    ]
    .concat()));
    let o = run(&[
        "merge",
        p(&tallies[0]),
        p(&other),
        "--out",
        p(&dir.join("no")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("its seed is 8, not 7"),
        "{}",
        stderr(&o)
    );
    (whole, stdout(&one))
}

/// The shards of a run of shuffles, and of a run of samplers, merged in
/// any order, are the run on one machine; each kind's shards hold its own
/// counts.
#[test]
fn shards_merged_in_any_order_are_the_run_on_one_machine() {
    // n = 8 counts whole permutations and the structure statistics too;
    // 300k trials are 5 chunks, so the 4 shards are uneven. counts.csv,
    // permutations.csv and heatmap.png of each audit, and comparison.png.
    let dir = scratch("equal");
    let shuffles = [
        "audit",
        "-a",
        "naive-swap",
        "-a",
        "fisher-yates",
        "-n",
        "8",
        "-t",
        "300k",
        "--seed",
        "7",
        "--threads",
        "2",
    ];
    let (_, table) = assert_shards_merge_to_the_whole_run(&dir, &shuffles, &[2, 0, 3, 1], 7);
    assert!(table.contains("1 biased, 1 no bias detected"), "{table}");
    let counts = &payload(&dir.join("s0.tally"))["audits"][0];
    assert_eq!(counts["kind"], "shuffle");
    assert!(counts["counts"]["structure"]["lehmer"].is_array());
    std::fs::remove_dir_all(&dir).unwrap();

    // 300k samples are 5 chunks: shards of 2 and 3 chunks. Each sampler's
    // inclusion and pairs, as CSV and PNG.
    let dir = scratch("samplers");
    let samplers = [
        "audit",
        "-a",
        "floyd:k=3",
        "-a",
        "reservoir-off-by-one:k=3",
        "-n",
        "10",
        "-t",
        "300k",
        "--seed",
        "7",
    ];
    let (whole, table) = assert_shards_merge_to_the_whole_run(&dir, &samplers, &[1, 0], 8);
    assert!(table.contains("1 biased, 1 no bias detected"), "{table}");
    let counts = &payload(&dir.join("s0.tally"))["audits"][0];
    assert_eq!(counts["kind"], "sampler");
    assert!(counts["counts"]["inclusion"].is_array());
    // What the table says, from the counts: verdicts, p and inclusion.
    let summary = untimed(&whole.join("summary.json"));
    let audits = summary["audits"].as_array().unwrap();
    assert_eq!(audits[1]["verdict"], "biased");
    assert_eq!(audits[0]["inclusion"].as_array().unwrap().len(), 10);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Asserts `merge args` is refused with exit 2, naming `file` and saying
/// `why`, with no output folder.
fn assert_merge_refused(dir: &Path, tallies: &[&Path], file: &Path, why: &str) {
    let out = dir.join("out");
    let mut args = vec!["merge"];
    args.extend(tallies.iter().map(|t| p(t)));
    args.extend(["--out", p(&out)]);
    let o = run(&args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(p(file)),
        "{args:?}: does not name {}: {err}",
        file.display()
    );
    assert!(err.contains(why), "{args:?}: does not say '{why}': {err}");
    assert!(!out.exists(), "{args:?}: an output folder was written");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn merge_refuses_tallies_that_do_not_belong_together() {
    let dir = scratch("refusals");
    // Shard i of 4 with `seed`, and any more options, into tally `name`.
    let shard = |i: u64, seed: &str, name: &str, more: &[&str]| {
        let tally = dir.join(name);
        let s = format!("{i}/4");
        let mut args = vec![
            "audit",
            "-a",
            "naive-swap",
            "-n",
            "6",
            "-t",
            "300k",
            "--tests",
            "position-value",
            "--seed",
            seed,
            "-q",
            "--shard",
            &s,
            "--tally",
            p(&tally),
        ];
        args.extend(more);
        ok(&run(&args));
        tally
    };
    let s: Vec<PathBuf> = (0..4)
        .map(|i| shard(i, "1", &format!("s{i}.tally"), &[]))
        .collect();
    // A shard with an option the others leave out (--bins) is refused
    // whichever comes first: first, a merge once panicked.
    let binned = shard(1, "1", "binned.tally", &["--bins", "3"]);
    assert_merge_refused(
        &dir,
        &[&s[0], &binned, &s[2], &s[3]],
        &binned,
        "its bins is 3, not none",
    );
    assert_merge_refused(
        &dir,
        &[&binned, &s[0], &s[2], &s[3]],
        &s[0],
        "its bins is none, not 3",
    );
    let other_seed = shard(1, "2", "other-seed.tally", &[]);
    assert_merge_refused(
        &dir,
        &[&s[0], &other_seed, &s[2], &s[3]],
        &other_seed,
        "its seed is 2, not 1",
    );
    assert_merge_refused(
        &dir,
        &[&s[0], &s[1], &s[2], &s[3], &s[2]],
        &s[2],
        "overlaps",
    );
    assert_merge_refused(
        &dir,
        &[&s[0], &s[1], &s[3]],
        &s[3],
        "chunks 2..3 of the run's 0..5 are in no tally file",
    );
    assert_merge_refused(&dir, &[&s[0], &s[1], &s[2]], &s[2], "is a shard missing?");
    let bytes = std::fs::read(&s[1]).unwrap();
    let corrupted = dir.join("corrupted.tally");
    let mut flipped = bytes.clone();
    let at = bytes.len() - 30;
    flipped[at] = if flipped[at] == b'1' { b'2' } else { b'1' };
    std::fs::write(&corrupted, &flipped).unwrap();
    assert_merge_refused(
        &dir,
        &[&s[0], &corrupted, &s[2], &s[3]],
        &corrupted,
        "checksum",
    );
    let truncated = dir.join("truncated.tally");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    assert_merge_refused(
        &dir,
        &[&s[0], &truncated, &s[2], &s[3]],
        &truncated,
        "truncated",
    );
    let newer = dir.join("newer.tally");
    let text_of = String::from_utf8(bytes).unwrap();
    assert!(
        text_of.starts_with("shuffle-audit tally v5 "),
        "{}",
        &text_of[..40]
    );
    std::fs::write(&newer, text_of.replacen(" v5 ", " v6 ", 1)).unwrap();
    assert_merge_refused(
        &dir,
        &[&s[0], &newer, &s[2], &s[3]],
        &newer,
        "format version 6",
    );
    let not_a_tally = dir.join("counts.csv");
    std::fs::write(&not_a_tally, "position,v0\n0,1\n").unwrap();
    assert_merge_refused(
        &dir,
        &[&s[0], &not_a_tally],
        &not_a_tally,
        "not a shuffle-audit tally",
    );
    let absent = dir.join("absent.tally");
    assert_merge_refused(&dir, &[&s[0], &absent], &absent, "no such file");
    // The four that belong together still merge.
    let all: Vec<&str> = s.iter().map(|t| p(t)).collect();
    ok(&run(&[&["merge", "-q", "--json"], &all[..]].concat()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn what_cannot_be_split_or_resumed_is_refused_before_anything_runs() {
    let dir = scratch("flags");
    let decks = dir.join("decks.txt");
    std::fs::write(&decks, "0 1 2\n2 1 0\n").unwrap();
    let tally = dir.join("t.tally");
    let refused = |args: &[&str], needle: &str| {
        let o = run(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(needle),
            "{args:?}: does not say '{needle}': {err}"
        );
        assert!(!tally.exists(), "{args:?} wrote a tally");
    };
    let t = p(&tally);
    refused(
        &[
            "audit",
            "--input",
            p(&decks),
            "--shard",
            "0/2",
            "--tally",
            t,
        ],
        "decks.txt: it is read from a file, not drawn in chunks of a seed",
    );
    refused(&["audit", "--input", "-", "--checkpoint", t], "stdin");
    refused(
        &["audit", "--cmd", "true", "-n", "5", "--checkpoint", t],
        "true: its output comes from outside, not from chunks of the seed",
    );
    // A file of samples is not split either (its read is checkpointed:
    // tests/cli_input_resume.rs).
    let samples = dir.join("samples.txt");
    std::fs::write(&samples, "0 1 2\n2 1 4\n").unwrap();
    refused(
        &[
            "audit",
            "--kind",
            "sample",
            "--input",
            p(&samples),
            "-n",
            "5",
            "--shard",
            "0/2",
        ],
        "samples.txt: it is read from a file, not drawn in chunks of a seed",
    );
    // A sequential run decides its trials as it goes, whatever its kind.
    for subject in ["reservoir:k=3", "naive-swap"] {
        refused(
            &[
                "audit",
                "-a",
                subject,
                "--until-decisive",
                "-t",
                "1k",
                "--shard",
                "0/2",
                "--tally",
                t,
            ],
            "--until-decisive decides its trials as it goes: it is not split or checkpointed",
        );
    }
    refused(
        &[
            "audit",
            "-a",
            "naive-swap",
            "--shard",
            "0/2",
            "--tally",
            t,
            "--out",
            p(&dir.join("o")),
        ],
        "--out is for a whole run",
    );
    refused(
        &["audit", "-a", "naive-swap", "--shard", "2/2", "--tally", t],
        "bad shard '2/2'",
    );
    refused(
        &["audit", "-a", "naive-swap", "--checkpoint", p(&dir)],
        "is a folder",
    );
    refused(
        &["audit", "-a", "naive-swap", "--shard", "two", "--tally", t],
        "bad shard 'two'",
    );
    // A checkpoint resumed with other options is refused, naming it.
    let saved = dir.join("saved.tally");
    ok(&run(&[
        "audit",
        "-a",
        "naive-swap",
        "-n",
        "6",
        "-t",
        "200k",
        "-q",
        "--json",
        "--checkpoint",
        p(&saved),
    ]));
    let o = run(&[
        "audit",
        "-a",
        "naive-swap",
        "-n",
        "6",
        "-t",
        "200k",
        "--seed",
        "9",
        "--resume",
        p(&saved),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(p(&saved)) && err.contains("its seed is 20261121, this run's 9"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The options of the checkpointed run: long enough (20M trials at n = 10,
/// about 1.5 s on two cores) to be stopped part-way, with saves every 0.1 s.
const LONG_RUN: [&str; 12] = [
    "audit",
    "-a",
    "naive-swap",
    "-n",
    "10",
    "-t",
    "20M",
    "--seed",
    "5",
    "--threads",
    "2",
    "-q",
];

fn spawn(args: &[&str]) -> Child {
    bin()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Waits until `path` exists and has been saved `saves` times (its bytes
/// changed), or fails after 30 s.
fn wait_for_saves(path: &Path, saves: usize) {
    let start = Instant::now();
    let mut seen: Vec<Vec<u8>> = Vec::new();
    while seen.len() < saves {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no checkpoint at {}",
            path.display()
        );
        if let Ok(bytes) = std::fs::read(path)
            && seen.last() != Some(&bytes)
        {
            seen.push(bytes);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn signal(child: &Child, signal: i32) {
    // SAFETY: kill(2) on the pid of a child this test started and has not
    // yet waited for.
    let sent = unsafe { libc::kill(child.id() as i32, signal) };
    assert_eq!(sent, 0);
}

#[test]
fn a_run_stopped_by_sigint_or_killed_by_sigkill_resumes_to_the_same_counts() {
    let dir = scratch("resume");
    let start = Instant::now();
    let reference = dir.join("reference.json");
    ok(&run(&[
        &LONG_RUN[..],
        &["--json", "--export-json", p(&reference)],
    ]
    .concat()));
    let resume_to_the_end = |saved: &Path, export: &Path| {
        let o = run(&[
            &LONG_RUN[..],
            &["--json", "--resume", p(saved), "--export-json", p(export)],
        ]
        .concat());
        ok(&o);
        assert_eq!(untimed(export), untimed(&reference), "{}", saved.display());
    };

    // SIGINT: the run saves what it has counted and exits 130.
    let interrupted = dir.join("interrupted.tally");
    let every = ["--checkpoint-every", "0.1"];
    let child = spawn(
        &[
            &LONG_RUN[..],
            &every,
            &["--json", "--checkpoint", p(&interrupted)],
        ]
        .concat(),
    );
    wait_for_saves(&interrupted, 1);
    signal(&child, libc::SIGINT);
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(
        err.contains(&format!("--resume {}", p(&interrupted))),
        "{err}"
    );
    let counted = payload(&interrupted)["audits"][0]["counted"]["end"]
        .as_u64()
        .unwrap();
    assert!(
        0 < counted && counted < 306,
        "stopped part-way: chunk {counted} of 306"
    );
    resume_to_the_end(&interrupted, &dir.join("after-sigint.json"));

    // SIGKILL between two saves: nothing is saved at the kill; the run
    // resumes from the last save, whole.
    let killed = dir.join("killed.tally");
    let mut child = spawn(
        &[
            &LONG_RUN[..],
            &every,
            &["--json", "--checkpoint", p(&killed)],
        ]
        .concat(),
    );
    wait_for_saves(&killed, 2);
    std::thread::sleep(Duration::from_millis(30));
    signal(&child, libc::SIGKILL);
    child.wait().unwrap();
    let counted = payload(&killed)["audits"][0]["counted"]["end"]
        .as_u64()
        .unwrap();
    assert!(
        0 < counted && counted < 306,
        "killed part-way: chunk {counted} of 306"
    );
    resume_to_the_end(&killed, &dir.join("after-sigkill.json"));
    // A save the kill cut short leaves no temporary file once resumed.
    let stale: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.starts_with(".tmp-") && f.ends_with("-killed.tally"))
        .collect();
    assert!(stale.is_empty(), "{stale:?}");

    // Both saved files end complete, with the same counts of every kind.
    let tallies = |path: &Path| payload(path)["audits"][0]["counts"].clone();
    assert_eq!(tallies(&interrupted), tallies(&killed));
    assert!(tallies(&killed)["structure"]["lehmer"].is_array());
    eprintln!(
        "checkpoint test took {:.1} s",
        start.elapsed().as_secs_f64()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The value of `name` in the `env` list of a Kubernetes manifest.
fn manifest_env(manifest: &str, name: &str) -> String {
    let lines: Vec<&str> = manifest.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim() == format!("- name: {name}"))
        .unwrap_or_else(|| panic!("no env {name}"));
    let value = lines[at + 1].trim().strip_prefix("value: ").unwrap();
    value.trim_matches('"').to_string()
}

/// The shell command a manifest's container runs: its one `args` entry, a
/// single-quoted YAML string given to `/bin/sh -c`.
fn manifest_command(manifest: &str) -> String {
    assert!(manifest.contains(r#"command: ["/bin/sh", "-c"]"#));
    let lines: Vec<&str> = manifest.lines().collect();
    let at = lines.iter().position(|l| l.trim() == "args:").unwrap();
    let entry = lines[at + 1].trim().strip_prefix("- ").unwrap();
    entry
        .strip_prefix('\'')
        .and_then(|e| e.strip_suffix('\''))
        .unwrap()
        .replace("''", "'")
}

/// The default a Slurm script gives `name` (`NAME=${NAME:-default}`).
fn script_default(script: &str, name: &str) -> String {
    let prefix = format!("{name}=${{{name}:-");
    let line = script
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no default for {name}"));
    line.strip_suffix('}')
        .unwrap()
        .trim_matches('"')
        .to_string()
}

#[test]
fn the_deploy_files_per_task_commands_run_here_and_merge_into_the_run() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let deploy = repo.join("deploy");
    let read = |path: &str| std::fs::read_to_string(deploy.join(path)).unwrap();
    let (sbatch, merge_sbatch) = (read("slurm/shards.sbatch"), read("slurm/merge.sbatch"));
    let (job, merge_job) = (
        read("kubernetes/shards.yaml"),
        read("kubernetes/merge.yaml"),
    );

    // Both engines run the same run, with as many tasks as shards.
    let shards = script_default(&sbatch, "SHARDS");
    assert!(sbatch.contains(&format!(
        "#SBATCH --array=0-{}",
        shards.parse::<u64>().unwrap() - 1
    )));
    assert_eq!(manifest_env(&job, "SHARDS"), shards);
    assert!(job.contains(&format!("completions: {shards}")));
    assert!(job.contains("completionMode: Indexed"));
    assert_eq!(
        manifest_env(&job, "AUDIT_ARGS"),
        script_default(&sbatch, "AUDIT_ARGS")
    );
    assert!(sbatch.contains("\"$SLURM_ARRAY_TASK_ID\""));
    let task = manifest_command(&job);
    assert!(task.contains("\"$JOB_COMPLETION_INDEX\""), "{task}");

    // Here, a smaller run of the same kind: 3 shards, 200k trials.
    let dir = scratch("deploy");
    let audit_args = "-a naive-swap -a fisher-yates -n 6 -t 200k --seed 3 --threads 1 -q";
    let env = |cmd: &mut Command, run_dir: &Path| {
        cmd.env("SHUFFLE_AUDIT", BIN)
            .env("DEPLOY", &deploy)
            .env("SHARDS", "3")
            .env("RUN_DIR", run_dir)
            .env("AUDIT_ARGS", audit_args)
            .env("SLURM_SUBMIT_DIR", repo)
            .current_dir(&dir);
    };
    let finish = |children: Vec<Child>| {
        for child in children {
            ok(&child.wait_with_output().unwrap());
        }
    };
    // Slurm: each array task runs the whole batch script.
    let slurm = dir.join("slurm");
    let tasks: Vec<Child> = (0..3)
        .map(|i| {
            let mut cmd = Command::new("bash");
            cmd.arg(deploy.join("slurm/shards.sbatch"))
                .env("SLURM_ARRAY_TASK_ID", i.to_string());
            env(&mut cmd, &slurm);
            cmd.stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    finish(tasks);
    let mut merge = Command::new("bash");
    merge.arg(deploy.join("slurm/merge.sbatch"));
    env(&mut merge, &slurm);
    ok(&merge.output().unwrap());
    assert!(merge_sbatch.contains("merge.sh"));

    // Kubernetes: each indexed pod runs the container's command.
    let k8s = dir.join("k8s");
    let pod = |index: Option<u64>, command: &str| {
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", command]);
        if let Some(i) = index {
            cmd.env("JOB_COMPLETION_INDEX", i.to_string());
        }
        env(&mut cmd, &k8s);
        cmd.stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    finish((0..3).map(|i| pod(Some(i), &task)).collect());
    // A pod run again (a retry) finds its shard complete and succeeds.
    finish(vec![pod(Some(1), &task)]);
    finish(vec![pod(None, &manifest_command(&merge_job))]);

    let whole = dir.join("whole");
    let args: Vec<&str> = audit_args.split(' ').collect();
    ok(&run(
        &[&["audit"], &args[..], &["--out", p(&whole)]].concat()
    ));
    let expected = untimed(&whole.join("summary.json"));
    for engine in [&slurm, &k8s] {
        let tallies: Vec<String> = (0..3).map(|i| format!("shard-{i}-of-3.tally")).collect();
        for t in &tallies {
            assert!(engine.join(t).is_file(), "{}/{t}", engine.display());
        }
        assert_eq!(
            untimed(&engine.join("report/summary.json")),
            expected,
            "{}",
            engine.display()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A deck run (a shoe with its suit, rank and colour columns) counts its
/// hands per trial: shards merged give the run on one machine, hands and
/// all, and the same table with the deck's note.
#[test]
fn shards_of_a_deck_run_merge_to_the_run_on_one_machine() {
    let dir = scratch("deck");
    let run_args = [
        "audit",
        "-a",
        "naive-swap",
        "-a",
        "fisher-yates",
        "--deck",
        "shoe:decks=2",
        "--hand",
        "7",
        "-t",
        "200k",
        "--seed",
        "3",
    ];
    let whole = dir.join("whole");
    let one = ok(&run(&[&run_args[..], &["--out", p(&whole)]].concat())).clone();
    let tallies: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("s{i}.tally"))).collect();
    for (i, tally) in tallies.iter().enumerate() {
        let shard = format!("{i}/3");
        ok(&run(&[
            &run_args[..],
            &["--shard", &shard, "--tally", p(tally)],
        ]
        .concat()));
    }
    let merged = dir.join("merged");
    let order = [&tallies[1], &tallies[2], &tallies[0]].map(|t| p(t));
    let m = ok(&run(
        &[&["merge"], &order[..], &["--out", p(&merged)]].concat()
    ))
    .clone();
    assert_eq!(stdout(&m), stdout(&one), "the same table");
    assert!(stdout(&one).contains("Skipped:"), "{}", stdout(&one));
    assert_eq!(
        untimed(&merged.join("summary.json")),
        untimed(&whole.join("summary.json"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

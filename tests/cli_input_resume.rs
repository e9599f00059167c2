//! Checkpointing an audit that reads a file, of decks, samples or picks
//! alike: a read stopped by SIGINT or killed by SIGKILL resumes from the
//! saved offset and gives the counts and findings of one uninterrupted
//! read; a file changed before the saved offset, a checkpoint of another
//! run, stdin and sharded reads are refused (exit 2).

mod common;

use common::{bin, run, scratch, stderr};
use std::io::Write;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A file of one kind of output, and how `audit` is told to read it.
struct Case {
    /// The file's name (and so the audit's folder).
    file: &'static str,
    /// What the file holds, for the command line.
    flags: &'static [&'static str],
    /// Flags that make another run of the same file.
    other: &'static [&'static str],
    /// Trials (lines) the file holds.
    trials: u64,
    /// Writes one line of `rng`'s making.
    line: fn(&mut Xorshift) -> String,
}

/// Seeded xorshift: the lines only need to be many and valid.
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    /// k distinct items of 1..=n, in the order drawn (a partial
    /// Fisher–Yates shuffle).
    fn draw(&mut self, k: usize, n: u32) -> String {
        let mut items: Vec<u32> = (1..=n).collect();
        for i in 0..k {
            let j = i + self.below((items.len() - i) as u64) as usize;
            items.swap(i, j);
        }
        let line: Vec<String> = items[..k].iter().map(u32::to_string).collect();
        line.join(" ")
    }
}

/// Shuffled 52-card decks, numbered 1..52.
const DECKS: Case = Case {
    file: "deals.txt",
    flags: &[],
    other: &["--trials", "1000"],
    trials: 600_000,
    line: |rng| rng.draw(52, 52),
};

/// 6-of-49 lottery draws.
const SAMPLES: Case = Case {
    file: "draws.txt",
    flags: &["--kind", "sample", "-n", "49"],
    other: &["--kind", "ordered", "-n", "49"],
    trials: 2_000_000,
    line: |rng| rng.draw(6, 49),
};

/// Picks of one of 10 items.
const PICKS: Case = Case {
    file: "picks.txt",
    flags: &["--kind", "pick", "-n", "10"],
    other: &["--kind", "pick", "-n", "10", "--base", "0"],
    trials: 20_000_000,
    line: |rng| rng.draw(1, 10),
};

/// Writes the case's file in `dir`, after a comment line.
fn write(case: &Case, dir: &Path) -> std::path::PathBuf {
    let path = dir.join(case.file);
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    writeln!(f, "# lines for the resume test").unwrap();
    let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..case.trials {
        writeln!(f, "{}", (case.line)(&mut rng)).unwrap();
    }
    path
}

/// summary.json without the timings.
fn untimed(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("seconds") && !l.contains("per_sec") && !l.contains("threads"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The counts an audit's folder holds (its CSV files), by name.
fn counts(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|f| f.extension().is_some_and(|e| e == "csv"))
        .map(|f| {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&f).unwrap())
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no counts in {}", folder.display());
    files
}

/// The saved checkpoint's payload.
fn payload(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(text.split_once('\n').unwrap().1).unwrap()
}

fn signal(child: &Child, signal: i32) {
    // SAFETY: kill(2) on the pid of a child this test started and has not
    // yet waited for.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
}

/// Waits until the checkpoint at `path` has been saved `saves` times.
fn wait_for_saves(path: &Path, saves: usize) {
    let start = Instant::now();
    let mut seen: Vec<Vec<u8>> = Vec::new();
    while seen.len() < saves {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no checkpoint saved"
        );
        if let Ok(bytes) = std::fs::read(path)
            && seen.last() != Some(&bytes)
        {
            seen.push(bytes);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The case's file read in one go, then read stopped part-way (SIGINT:
/// saved and exit 130; SIGKILL: from the last save) and resumed: the
/// same counts and summary. Then the checkpoint of another run, and of a
/// file changed before the saved offset, are refused.
fn stopped_reads_resume_to_the_same_counts(case: &Case) {
    let dir = scratch(&format!("resume-{}", case.file));
    let input = write(case, &dir);
    let audit = |extra: &[&str]| {
        let mut args = vec!["audit", "--input", p(&input), "-q"];
        args.extend_from_slice(case.flags);
        args.extend_from_slice(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let plain = dir.join("plain");
    let o = bin()
        .args(audit(&["--threads", "1", "--out", p(&plain)]))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));

    for (sig, saves) in [(libc::SIGINT, 1), (libc::SIGKILL, 2)] {
        let checkpoint = dir.join(format!("read-{sig}.ck"));
        let out = dir.join(format!("resumed-{sig}"));
        let every = ["--checkpoint-every", "0.01", "--checkpoint", p(&checkpoint)];
        let child = bin()
            .args(audit(
                &[&["--threads", "1", "--out", p(&out)][..], &every].concat(),
            ))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for_saves(&checkpoint, saves);
        signal(&child, sig);
        let o = child.wait_with_output().unwrap();
        if sig == libc::SIGINT {
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(130), "{err}");
            assert!(
                err.contains(&format!("--resume {}", p(&checkpoint))),
                "{err}"
            );
        }
        let saved = payload(&checkpoint);
        let counted = saved["at"]["counted"].as_u64().unwrap();
        assert!(
            saved["complete"] == false && 0 < counted && counted < case.trials,
            "{}, signal {sig}: stopped part-way, at {counted} trials",
            case.file
        );
        assert!(!out.exists(), "an interrupted read writes no report");
        let o = run(&audit(&["--resume", p(&checkpoint), "--out", p(&out)])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>());
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            counts(&out.join(case.file)),
            counts(&plain.join(case.file)),
            "{}, signal {sig}",
            case.file
        );
        assert_eq!(
            untimed(&out.join("summary.json")),
            untimed(&plain.join("summary.json"))
        );
        assert_eq!(payload(&checkpoint)["complete"], true);
    }

    let checkpoint = dir.join(format!("read-{}.ck", libc::SIGINT));
    let refused = |args: Vec<String>, words: &str| {
        let o = bin().args(args).output().unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{}: {err}", case.file);
        assert!(err.contains(words), "{}: {err}", case.file);
    };
    // Another run of the same file (other trials, kind or numbering).
    let mut other = vec!["audit", "--input", p(&input), "-q", "--json"];
    other.extend_from_slice(case.other);
    other.extend_from_slice(&["--resume", p(&checkpoint)]);
    refused(
        other.iter().map(|s| s.to_string()).collect(),
        "it was saved by another run",
    );
    // A file changed before the saved offset (its comment line: every
    // line after it still reads).
    let mut bytes = std::fs::read(&input).unwrap();
    bytes[2] = bytes[2].to_ascii_uppercase();
    std::fs::write(&input, &bytes).unwrap();
    refused(
        audit(&["--resume", p(&checkpoint), "--json"]),
        "has changed in its first",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_read_of_decks_stopped_or_killed_resumes_to_the_same_counts() {
    stopped_reads_resume_to_the_same_counts(&DECKS);
}

#[test]
fn a_read_of_samples_stopped_or_killed_resumes_to_the_same_counts() {
    stopped_reads_resume_to_the_same_counts(&SAMPLES);
}

#[test]
fn a_read_of_picks_stopped_or_killed_resumes_to_the_same_counts() {
    stopped_reads_resume_to_the_same_counts(&PICKS);
}

#[test]
fn reads_that_cannot_resume_are_refused_with_exit_2() {
    let dir = scratch("refused");
    for case in [DECKS, SAMPLES] {
        let input = write(&Case { trials: 10, ..case }, &dir);
        for (args, words) in [
            (vec!["--input", "-", "--checkpoint", "c.ck"], "stdin"),
            (
                vec!["--input", p(&input), "--shard", "0/2"],
                "split the file",
            ),
        ] {
            let mut all = vec!["audit", "--json"];
            all.extend(args);
            all.extend_from_slice(case.flags);
            let o = run(&all);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{}: {err}", case.file);
            assert!(err.contains(words), "{}: {err}", case.file);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

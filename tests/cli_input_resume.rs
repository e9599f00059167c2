//! Checkpointing an audit that reads a file of decks: a read stopped by
//! SIGINT or killed by SIGKILL resumes from the saved record offset and
//! gives the counts and findings of one uninterrupted read; a file changed
//! before the saved offset, stdin and sharded reads are refused (exit 2).

mod common;

use common::{bin, run, scratch, stderr};
use std::io::Write;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A file of `decks` shuffled 52-card decks, numbered 1..52, after a
/// comment line (seeded xorshift Fisher–Yates: the decks only need to be
/// many and valid).
fn write_decks(path: &Path, decks: usize) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    writeln!(f, "# decks for the resume test").unwrap();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut deck: Vec<u32> = (1..=52).collect();
    for _ in 0..decks {
        for i in (1..deck.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            deck.swap(i, (x % (i as u64 + 1)) as usize);
        }
        let line: Vec<String> = deck.iter().map(u32::to_string).collect();
        writeln!(f, "{}", line.join(" ")).unwrap();
    }
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

#[test]
fn a_read_stopped_or_killed_resumes_to_the_same_counts() {
    let dir = scratch("resume");
    let input = dir.join("deals.txt");
    write_decks(&input, 600_000);
    let read = |extra: &[&str], out: &Path| {
        let mut args = vec!["audit", "--input", p(&input), "--threads", "1", "-q"];
        args.extend_from_slice(&["--out", p(out)]);
        args.extend_from_slice(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let plain = dir.join("plain");
    let o = bin().args(read(&[], &plain)).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));

    for (sig, saves) in [(libc::SIGINT, 1), (libc::SIGKILL, 2)] {
        let checkpoint = dir.join(format!("read-{sig}.ck"));
        let out = dir.join(format!("resumed-{sig}"));
        let every = ["--checkpoint-every", "0.01", "--checkpoint", p(&checkpoint)];
        let child = bin()
            .args(read(&every, &out))
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
        let decks = saved["at"]["decks"].as_u64().unwrap();
        assert!(
            saved["complete"] == false && 0 < decks && decks < 600_000,
            "signal {sig}: stopped part-way, at {decks} decks"
        );
        assert!(!out.exists(), "an interrupted read writes no report");
        let o = run(&[
            "audit",
            "--input",
            p(&input),
            "--resume",
            p(&checkpoint),
            "--out",
            p(&out),
            "-q",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            std::fs::read(out.join("deals.txt/counts.csv")).unwrap(),
            std::fs::read(plain.join("deals.txt/counts.csv")).unwrap()
        );
        assert_eq!(
            untimed(&out.join("summary.json")),
            untimed(&plain.join("summary.json"))
        );
        assert_eq!(payload(&checkpoint)["complete"], true);
    }

    // A file changed before the saved offset is not resumed.
    let checkpoint = dir.join("read-2.ck");
    let mut bytes = std::fs::read(&input).unwrap();
    let at = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    bytes.swap(at, at + 2); // "a b ..." -> "b a ...": still a deck
    std::fs::write(&input, &bytes).unwrap();
    let o = run(&[
        "audit",
        "--input",
        p(&input),
        "--resume",
        p(&checkpoint),
        "-q",
        "--json",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("has changed in its first"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn reads_that_cannot_resume_are_refused_with_exit_2() {
    let dir = scratch("refused");
    let input = dir.join("deals.txt");
    write_decks(&input, 10);
    for (args, words) in [
        (vec!["--input", "-", "--checkpoint", "c.ck"], "stdin"),
        (
            vec!["--input", p(&input), "--shard", "0/2"],
            "split the file",
        ),
    ] {
        let mut all = vec!["audit", "--json"];
        all.extend(args);
        let o = run(&all);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(words), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

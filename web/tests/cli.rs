//! The page's path and the command line agree: the same permutations (or
//! samples), counted in the page's batches by the functions the
//! WebAssembly exports and read from a file by `shuffle-audit audit
//! --input`, give the same counts, tests, p-values and verdicts.
//!
//! Needs the command line built (`cargo build --release` at the
//! repository root), or its path in `SHUFFLE_AUDIT_BIN`.

use serde_json::Value;
use shuffle_audit::request::Form;
use shuffle_audit_web::session::Session;
use std::path::PathBuf;
use std::process::Command;

/// The command line to compare with.
fn cli() -> PathBuf {
    let path = std::env::var_os("SHUFFLE_AUDIT_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/shuffle-audit"),
        PathBuf::from,
    );
    assert!(
        path.exists(),
        "{} is missing: build the command line first (cargo build --release), or set \
         SHUFFLE_AUDIT_BIN",
        path.display()
    );
    path
}

mod common;
use common::{Mix, decks};

/// What the page asks for: `holds` of `n` items, `trials` of them, drawn
/// with `seed`.
fn form(holds: &str, n: usize, trials: usize, seed: u64) -> Form {
    Form {
        holds: holds.to_string(),
        name: "page".to_string(),
        from: "test draws".to_string(),
        n: n.to_string(),
        trials: trials.to_string(),
        seed: seed.to_string(),
        ..Form::default()
    }
}

/// The page's session of `form` (no preset).
fn session(form: &Form) -> Result<Session, String> {
    Session::new(form, None, &[])
}

/// The summary.json of the page's judgement of what `s` counted.
fn summary_of(s: &Session) -> Value {
    let judged = s.judge(1.0).unwrap();
    let summary = shuffle_audit::study::Summary::of(
        std::slice::from_ref(&judged),
        judged.alpha(),
        &Default::default(),
    );
    serde_json::from_str(&summary.to_json()).unwrap()
}

/// The decks counted as the page counts them, in uneven batches.
fn page_summary(decks: &[Vec<u8>], seed: u64) -> Value {
    let n = decks[0].len();
    let mut s = session(&form("deck", n, decks.len(), seed)).unwrap();
    let sizes = [1usize, 2, 1000, 4097, 3, 50_000, 65_536];
    let (mut at, mut i) = (0, 0);
    while at < decks.len() {
        let take = sizes[i % sizes.len()].min(decks.len() - at);
        let buf = s.batch(take);
        for (k, d) in decks[at..at + take].iter().enumerate() {
            buf[k * n..(k + 1) * n].copy_from_slice(d);
        }
        at += take;
        i += 1;
        s.count(take, at == decks.len()).unwrap();
    }
    assert_eq!(s.counted(), decks.len() as u64);
    let files = s.judge(1.0).unwrap().files().unwrap();
    let (_, csv) = files.iter().find(|(name, _)| name == "counts.csv").unwrap();
    assert!(csv.starts_with(b"position,v0,v1,"));
    summary_of(&s)
}

/// The command line's `--json` summary of a file.
fn cli_summary(file: &std::path::Path, args: &[&str]) -> Value {
    let out = Command::new(cli())
        .args(["audit", "--input"])
        .arg(file)
        .args(args)
        .args(["--json", "--quiet"])
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The first audit's record without what says where the decks came from
/// and how long they took.
fn judged_part(summary: &Value) -> Value {
    let mut a = summary["audits"][0].clone();
    let record = a.as_object_mut().unwrap();
    for key in [
        "subject",
        "rng",
        "seconds",
        "per_second",
        "threads",
        "feed",
        "drawn",
        "base",
    ] {
        record.remove(key);
    }
    a
}

/// A fresh file under the target folder.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/web-test");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn naive_swap_as_text_matches_the_command_line() {
    let decks = decks(10, 30_000, true, 7);
    let file = scratch("naive.txt");
    let text: String = decks
        .iter()
        .map(|d| {
            let items: Vec<String> = d.iter().map(u8::to_string).collect();
            items.join(" ") + "\n"
        })
        .collect();
    std::fs::write(&file, text).unwrap();
    let page = page_summary(&decks, 11);
    let cli = cli_summary(&file, &["-n", "10", "--seed", "11"]);
    assert_eq!(page["audits"][0]["verdict"], "biased");
    assert_eq!(judged_part(&page), judged_part(&cli));
}

#[test]
fn fisher_yates_as_records_over_blocks_matches_the_command_line() {
    // 3 MB of u8 records: the command line reads them in two blocks.
    let decks = decks(10, 300_000, false, 8);
    let file = scratch("fisher-yates.u8");
    std::fs::write(&file, decks.concat()).unwrap();
    let page = page_summary(&decks, 12);
    let cli = cli_summary(&file, &["-n", "10", "--format", "u8", "--seed", "12"]);
    assert_eq!(page["audits"][0]["verdict"], "no-bias-detected");
    assert_eq!(judged_part(&page), judged_part(&cli));
}

#[test]
fn samples_match_the_command_line() {
    let mut rng = Mix(9);
    let lines: Vec<String> = (0..20_000)
        .map(|_| {
            // A reservoir off by one: item n-1 is drawn too rarely.
            let mut r: Vec<usize> = (0..3).collect();
            for i in 3..10 {
                let j = rng.below(i);
                if j < 3 {
                    r[j] = i;
                }
            }
            let items: Vec<String> = r.iter().map(usize::to_string).collect();
            items.join(" ")
        })
        .collect();
    let file = scratch("reservoir.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let mut s = session(&Form {
        k: "3".to_string(),
        base: "0".to_string(),
        ..form("sample", 10, 20_000, 13)
    })
    .unwrap();
    for chunk in lines.chunks(4096) {
        s.count_text(&(chunk.join("\n") + "\n")).unwrap();
    }
    let files = s.judge(1.0).unwrap().files().unwrap();
    let (_, csv) = files
        .iter()
        .find(|(name, _)| name == "inclusion.csv")
        .unwrap();
    assert!(csv.starts_with(b"item,count\n0,"));
    let page = summary_of(&s);
    let cli = cli_summary(
        &file,
        &[
            "--kind", "sample", "-n", "10", "--base", "0", "--seed", "13",
        ],
    );
    assert_eq!(page["audits"][0]["verdict"], "biased");
    assert_eq!(judged_part(&page), judged_part(&cli));
}

#[test]
fn a_deck_that_is_not_a_permutation_is_refused() {
    let mut s = session(&form("deck", 4, 10, 1)).unwrap();
    s.batch(1).copy_from_slice(&[0, 1, 1, 3]);
    let e = s.count(1, true).unwrap_err();
    assert!(e.contains("page"), "{e}");
}

/// A batch is pushed into the run's one counter only once every record
/// of it has been checked: a bad record is named (its place in the
/// batch) and nothing of its batch is counted, and the run goes on.
#[test]
fn a_bad_record_counts_nothing_of_its_batch() {
    let mut s = session(&form("deck", 4, 30, 1)).unwrap();
    let good = [0u8, 1, 2, 3, 3, 2, 1, 0, 1, 0, 3, 2];
    s.batch(3).copy_from_slice(&good);
    s.count(3, false).unwrap();
    assert_eq!(s.counted(), 3);
    let mut bad = [good, good].concat();
    bad[4 * 4 + 2] = 0; // the fifth record: 3 2 0 0
    s.batch(6).copy_from_slice(&bad);
    let e = s.count(6, false).unwrap_err();
    assert!(
        e.contains("record 5") && e.contains("0 appears twice"),
        "{e}"
    );
    assert_eq!(s.counted(), 3, "nothing of the bad batch is counted");
    s.batch(3).copy_from_slice(&good);
    s.count(3, true).unwrap();
    assert_eq!(s.counted(), 6);
}

#[test]
fn the_default_trials_are_the_librarys_for_n() {
    // An empty trials field: what n needs, as on every front (issue 36:
    // the page ran 100,000 and was inconclusive at n = 52).
    for (n, trials) in [(10, 18_500), (52, 480_598)] {
        let s = session(&Form {
            trials: String::new(),
            ..form("deck", n, 1, 1)
        })
        .unwrap();
        assert_eq!(s.planned().trials(), trials, "n = {n}");
    }
}

#[test]
fn an_unknown_preset_is_refused_with_a_suggestion() {
    let presets = ["fisher-yates", "naive-swap"];
    let f = form("deck", 10, 100, 1);
    let e = Session::new(&f, Some("fisher-yate"), &presets)
        .err()
        .unwrap();
    assert!(e.contains("did you mean 'fisher-yates'?"), "{e}");
    assert!(Session::new(&f, Some("naive-swap"), &presets).is_ok());
}

#[test]
fn bad_fields_are_refused_in_javascripts_words() {
    let e = session(&form("deck", 1, 100, 1)).err().unwrap();
    assert!(e.contains("n = 1 is too small"), "{e}");
    let e = session(&Form {
        trials: "many".to_string(),
        ..form("deck", 10, 1, 1)
    })
    .err()
    .unwrap();
    assert!(e.contains("many"), "{e}");
    let e = session(&Form {
        weights: "1,x".to_string(),
        n: String::new(),
        ..form("pick", 10, 100, 1)
    })
    .err()
    .unwrap();
    assert!(e.contains("x"), "{e}");
    // Decimal weights are proportions, as on the command line.
    let s = session(&Form {
        weights: "0.1,0.9".to_string(),
        n: String::new(),
        ..form("pick", 2, 100, 1)
    })
    .unwrap();
    assert_eq!(s.planned().n(), 2);
}

#[test]
fn a_shoe_read_whole_matches_the_command_line() {
    // Two decks of eight cards (kinds A..H), shuffled together: items
    // repeat, so the kinds and the order tests come from the whole input.
    let kinds = ["A", "B", "C", "D", "E", "F", "G", "H"];
    let lines: Vec<String> = decks(16, 6_000, false, 21)
        .iter()
        .map(|d| {
            let items: Vec<&str> = d.iter().map(|&i| kinds[usize::from(i) % 8]).collect();
            items.join(" ")
        })
        .collect();
    let text = lines.join("\n") + "\n";
    let file = scratch("shoe.txt");
    std::fs::write(&file, &text).unwrap();
    let s = session(&Form {
        trials: String::new(),
        ..form("deck", 16, 1, 5)
    })
    .unwrap();
    let judged = s.judge_whole(&text).unwrap();
    let summary = shuffle_audit::study::Summary::of(
        std::slice::from_ref(&judged),
        judged.alpha(),
        &Default::default(),
    );
    let page: Value = serde_json::from_str(&summary.to_json()).unwrap();
    let cli = cli_summary(&file, &["-n", "16", "--seed", "5"]);
    assert_eq!(page["audits"][0]["trials"], 6_000);
    assert_ne!(page["audits"][0]["verdict"], "biased");
    assert_eq!(judged_part(&page), judged_part(&cli));
}

/// `trials` shoes of two 52-card decks stacked (AS..KC twice), as item
/// indices: each riffled `riffles` times (Gilbert–Shannon–Reeds) and cut
/// once, or (`riffles` 0) shuffled by Fisher–Yates.
fn shoes(trials: usize, riffles: usize, seed: u64) -> Vec<Vec<u8>> {
    let n = 104;
    let mut rng = Mix(seed);
    (0..trials)
        .map(|_| {
            let mut d: Vec<u8> = (0..n as u8).collect();
            if riffles == 0 {
                for i in (1..n).rev() {
                    d.swap(i, rng.below(i + 1));
                }
                return d;
            }
            for _ in 0..riffles {
                let cut = (0..n).filter(|_| rng.below(2) == 1).count();
                let (mut left, mut right) = (d[..cut].to_vec(), d[cut..].to_vec());
                left.reverse();
                right.reverse();
                d.clear();
                while !left.is_empty() || !right.is_empty() {
                    let from_left = rng.below(left.len() + right.len()) < left.len();
                    d.push(if from_left { left.pop() } else { right.pop() }.unwrap());
                }
            }
            d.rotate_left(rng.below(n));
            d
        })
        .collect()
}

#[test]
fn a_declared_shoe_counted_in_batches_matches_the_command_line_reading_its_cards() {
    // The page hands a shoe's cards to the user's function and writes each
    // shoe back as item indices, counted batch by batch (so workers can
    // merge); the command line reads the same shoes as card labels, whole.
    // Same tests, p-values and verdicts; riffles and a cut are caught by
    // the order tests.
    for (riffles, seed) in [(0, 31), (4, 32)] {
        let decks = shoes(6_000, riffles, seed);
        let asked = Form {
            deck: "shoe:decks=2".to_string(),
            n: String::new(),
            ..form("deck", 104, decks.len(), 3)
        };
        let mut s = session(&asked).unwrap();
        let items = s.items();
        assert_eq!(
            (items.len(), &items[..2], &items[52][..]),
            (104, &["AS".to_string(), "2S".to_string()][..], "AS")
        );
        for (t, chunk) in decks.chunks(1_000).enumerate() {
            s.batch(chunk.len()).copy_from_slice(&chunk.concat());
            s.count(chunk.len(), (t + 1) * 1_000 >= decks.len())
                .unwrap();
        }
        let page = summary_of(&s);
        let text: String = decks
            .iter()
            .map(|d| {
                let cards: Vec<&str> = d.iter().map(|&i| items[usize::from(i)].as_str()).collect();
                cards.join(" ") + "\n"
            })
            .collect();
        let file = scratch(&format!("shoe-{riffles}.txt"));
        std::fs::write(&file, text).unwrap();
        let cli = cli_summary(&file, &["--categories", "cards", "--seed", "3"]);
        let biased = page["audits"][0]["verdict"] == "biased";
        assert_eq!(
            biased,
            riffles > 0,
            "{riffles} riffles: {}",
            page["audits"][0]
        );
        let run = page["audits"][0]["tests_run"].as_str().unwrap().to_string();
        assert!(
            run.contains("adjacency") && run.contains("successor"),
            "{run}"
        );
        assert_eq!(judged_part(&page), judged_part(&cli), "{riffles} riffles");
    }
}

//! The lab-style parts of a report through the command line: a confidence
//! level instead of α, each position's and card's own test in every output,
//! and the SHA-256 of the input file that was judged.

mod common;

use common::{run, stderr, summary, temp};
use sha2::{Digest, Sha256};
use std::io::Write;

#[test]
fn a_confidence_level_holds_verdicts_and_lines_to_its_alpha() {
    let out = temp("confidence");
    let o = run(&[
        "audit",
        "-a",
        "naive-swap",
        "-n",
        "8",
        "-t",
        "40000",
        "--confidence",
        "99%",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = summary(&out);
    assert_eq!(s["alpha"], 0.01);
    let card = &s["audits"][0]["lines"]["views"][0];
    assert_eq!(card["name"], "card");
    assert_eq!(card["positions"]["alpha"], 0.01);
    assert_eq!(card["positions"]["lines"].as_array().unwrap().len(), 8);
    assert_eq!(card["by_group"]["lines"].as_array().unwrap().len(), 8);
    let csv = std::fs::read_to_string(out.join("naive-swap/lines.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 16, "{csv}");
    assert!(
        csv.lines()
            .any(|l| l.starts_with("card,position,0,0,") && l.ends_with(",fail"))
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("(99% confidence)"), "{report}");
    assert!(report.contains("## Per-position and per-card tests"));
    std::fs::remove_dir_all(&out).unwrap();
}

/// A shoe is tested per position by card and by suit, rank and colour,
/// and naive-swap fails lines of each.
#[test]
fn a_shoe_has_lines_by_card_and_by_category() {
    let out = temp("shoe");
    let o = run(&[
        "audit",
        "-a",
        "naive-swap",
        "--deck",
        "shoe:decks=2",
        "-t",
        "20000",
        "--confidence",
        "0.99",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let views = summary(&out)["audits"][0]["lines"]["views"].clone();
    let names: Vec<&str> = views
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["card", "suit", "rank", "colour"]);
    assert_eq!(
        views[0]["positions"]["lines"].as_array().unwrap().len(),
        104
    );
    assert_eq!(views[0]["by_group"]["lines"].as_array().unwrap().len(), 52);
    assert_eq!(views[1]["by_group"]["lines"].as_array().unwrap().len(), 4);
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("by suit: "), "{report}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn bad_confidence_levels_are_refused_with_exit_2_and_no_files() {
    let out = temp("bad");
    for args in [
        vec!["--confidence", "1.5"],
        vec!["--confidence", "99"],
        vec!["--confidence", "0.99", "--alpha", "0.01"],
    ] {
        let mut all = vec!["audit", "-a", "fisher-yates", "-t", "1000", "--out"];
        all.push(out.to_str().unwrap());
        all.extend(args.iter().copied());
        let o = run(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert!(
            e.contains(args[1]) || e.contains("--alpha"),
            "{args:?}: {e}"
        );
        assert!(!out.exists(), "{args:?} left files");
    }
}

#[test]
fn an_input_file_is_named_by_its_sha256_in_every_output() {
    let input = temp("deals.txt");
    let mut f = std::fs::File::create(&input).unwrap();
    for t in 0..600u32 {
        let deck: Vec<String> = (0..6).map(|i| ((i + t) % 6).to_string()).collect();
        writeln!(f, "{}", deck.join(" ")).unwrap();
    }
    drop(f);
    let out = temp("sha");
    let o = run(&[
        "audit",
        "--input",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // SHA-256 as `sha256sum` prints it: 64 lowercase hex digits.
    let digest: String = Sha256::digest(std::fs::read(&input).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(
        summary(&out)["audits"][0]["feed"]["sha256"],
        digest.as_str()
    );
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(report.contains(&digest));
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_file(&input).unwrap();
}

/// Card labels written by `decks` shuffles of a 52-card deck, the naive
/// swap's (`naive`) or Fisher–Yates's, from a seeded xorshift.
fn card_dump(path: &std::path::Path, decks: usize, naive: bool) {
    let suits = ["S", "H", "D", "C"];
    let ranks = [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
    ];
    let cards: Vec<String> = suits
        .iter()
        .flat_map(|s| ranks.iter().map(move |r| format!("{r}{s}")))
        .collect();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |bound: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % bound as u64) as usize
    };
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for _ in 0..decks {
        let mut deck = cards.clone();
        for i in (1..52).rev() {
            let j = if naive { next(52) } else { next(i + 1) };
            deck.swap(i, j);
        }
        writeln!(f, "{}", deck.join(" ")).unwrap();
    }
}

/// A dealer's dump of card labels is tested by card and by suit, rank and
/// colour (`--categories cards`): the naive swap is caught by category too,
/// a fair dump passes, and `--hand` (not counted while reading) is refused.
#[test]
fn a_dealers_dump_of_card_labels_is_tested_by_suit_and_rank() {
    for naive in [true, false] {
        let input = temp(&format!("dump-{naive}.txt"));
        card_dump(&input, 20_000, naive);
        let o = run(&[
            "audit",
            "--input",
            input.to_str().unwrap(),
            "--categories",
            "cards",
            "--json",
            "-q",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let audit = &s["audits"][0];
        // 20,000 fair decks are too few to call "no bias detected" at n =
        // 52 (inconclusive): what matters is that they are not "biased".
        assert_eq!(audit["verdict"] == "biased", naive, "{}", audit["verdict"]);
        let category = audit["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["test"] == "position-category")
            .expect("the position-by-category test ran");
        let p = category["p"].as_f64().unwrap();
        assert!(
            if naive { p < 1e-6 } else { p > 1e-3 },
            "naive {naive}: p = {p}"
        );
        assert!(
            audit["tests"]
                .as_array()
                .unwrap()
                .iter()
                .all(|t| t["test"] != "hand")
        );
        std::fs::remove_file(&input).unwrap();
    }
    let input = temp("dump-hand.txt");
    card_dump(&input, 10, false);
    let o = run(&[
        "audit",
        "--input",
        input.to_str().unwrap(),
        "--categories",
        "cards",
        "--hand",
        "7",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--hand"));
    std::fs::remove_file(&input).unwrap();
}

//! The order tests of decks with repeated items (issue 37): a shoe of
//! stacked decks riffled too few times and cut, read from a file as a lab
//! would give it, is found biased by which card follows which, and the
//! terminal names the pair in words; fair shoes read alike are not.

mod common;

use common::{run, stdout};

/// A small generator for the shoes (PCG-style LCG, top bits).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, k: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (((self.0 >> 32) * k as u64) >> 32) as usize
    }
}

/// One Gilbert–Shannon–Reeds riffle: a binomial cut, then cards dropped
/// from each half in proportion to its size.
fn riffle(rng: &mut Lcg, deck: &[usize]) -> Vec<usize> {
    let cut = (0..deck.len()).filter(|_| rng.below(2) == 1).count();
    let (mut left, mut right) = (&deck[..cut], &deck[cut..]);
    let mut out = Vec::with_capacity(deck.len());
    while !left.is_empty() || !right.is_empty() {
        if rng.below(left.len() + right.len()) < left.len() {
            out.push(left[0]);
            left = &left[1..];
        } else {
            out.push(right[0]);
            right = &right[1..];
        }
    }
    out
}

/// `shoes` shoes of `decks` 52-card decks stacked in deck order (AS…KC),
/// each riffled `riffles` times (`None`: shuffled uniformly) and cut at a
/// uniform point, one shoe per line of card labels.
fn shoes(decks: usize, riffles: Option<usize>, shoes: usize, seed: u64) -> String {
    let labels: Vec<String> = ["S", "H", "D", "C"]
        .iter()
        .flat_map(|s| {
            [
                "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
            ]
            .iter()
            .map(move |r| format!("{r}{s}"))
        })
        .collect();
    let mut rng = Lcg(seed);
    let mut text = String::new();
    for _ in 0..shoes {
        let mut deck: Vec<usize> = (0..52 * decks).map(|i| i % 52).collect();
        match riffles {
            Some(k) => (0..k).for_each(|_| deck = riffle(&mut rng, &deck)),
            None => (1..deck.len())
                .rev()
                .for_each(|i| deck.swap(i, rng.below(i + 1))),
        }
        let cut = rng.below(deck.len());
        deck.rotate_left(cut);
        let line: Vec<&str> = deck.iter().map(|&k| labels[k].as_str()).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    text
}

/// Audits the shoes of `text` from a file: the terminal's text and the
/// summary record.
fn audit_file(name: &str, text: &str) -> (String, serde_json::Value) {
    audit_file_with(name, text, &[])
}

/// [`audit_file`] with more options.
fn audit_file_with(name: &str, text: &str, more: &[&str]) -> (String, serde_json::Value) {
    let dir = common::scratch(name);
    let path = dir.join("shoes.txt");
    std::fs::write(&path, text).unwrap();
    let out = dir.join("out");
    let mut args = vec![
        "audit",
        "--input",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(more);
    let o = run(&args);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let summary = common::summary(&out);
    let record = summary["audits"][0].clone();
    std::fs::remove_dir_all(&dir).ok();
    (stdout(&o), record)
}

#[test]
fn a_riffled_and_cut_shoe_is_biased_by_card_order_and_named_in_words() {
    // Two decks, five riffles and a cut: position by kind is uniform (the
    // cut), but cards keep their new-deck neighbours.
    let (terminal, record) = audit_file("riffled", &shoes(2, Some(5), 3000, 1));
    assert_eq!(record["verdict"], "biased", "{terminal}");
    let seen: Vec<&str> = record["seen_by"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(
        seen.contains(&"successor") && seen.contains(&"adjacency"),
        "{seen:?}"
    );
    assert!(
        !seen.contains(&"position-kind"),
        "the cut hides positions: {seen:?}"
    );
    // The decisive finding in words: a card and its new-deck successor.
    let words = record["largest_deviation"].as_str().unwrap();
    assert!(words.contains(" followed by "), "{words}");
    assert!(terminal.contains(" then "), "{terminal}");
}

#[test]
fn fair_shoes_read_alike_are_not_biased() {
    for seed in [2, 3] {
        let (terminal, record) = audit_file("fair", &shoes(2, None, 3000, seed));
        assert_ne!(record["verdict"], "biased", "{terminal}");
        let tests: Vec<&str> = record["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["test"].as_str().unwrap())
            .collect();
        assert_eq!(tests, ["position-kind", "adjacency", "successor", "serial"]);
    }
}

/// `shoes` shoes of 4 stacked copies of the 13 kinds `a`…`m` (in that
/// order), each riffled `riffles` times and cut, one shoe per line.
fn lettered(riffles: usize, shoes: usize, seed: u64) -> (String, String) {
    let labels: Vec<String> = ('a'..='m').map(String::from).collect();
    let stacked: Vec<usize> = (0..52).map(|i| i % 13).collect();
    let mut rng = Lcg(seed);
    let mut text = String::new();
    for _ in 0..shoes {
        let mut deck = stacked.clone();
        (0..riffles).for_each(|_| deck = riffle(&mut rng, &deck));
        let cut = rng.below(deck.len());
        deck.rotate_left(cut);
        let line: Vec<&str> = deck.iter().map(|&k| labels[k].as_str()).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    let order: Vec<&str> = stacked.iter().map(|&k| labels[k].as_str()).collect();
    (text, order.join(" "))
}

#[test]
fn a_starting_order_that_repeats_items_gives_the_successor_test_its_pairs() {
    let dir = common::scratch("order-file");
    let (text, order) = lettered(4, 3000, 5);
    let (shoes, order_file) = (dir.join("shoes.txt"), dir.join("order.txt"));
    std::fs::write(&shoes, text).unwrap();
    std::fs::write(&order_file, format!("{order}\n")).unwrap();
    let audit = |extra: &[&str]| {
        let out = dir.join("out");
        let mut args = vec![
            "audit",
            "--input",
            shoes.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert!(o.status.success(), "{}", common::stderr(&o));
        common::summary(&out)["audits"][0].clone()
    };
    let tests = |record: &serde_json::Value| -> Vec<String> {
        let list = record["tests"].as_array().unwrap();
        list.iter()
            .map(|t| t["test"].as_str().unwrap().to_string())
            .collect()
    };
    // Letters have no known order: no successor test without the file.
    let plain = audit(&[]);
    assert!(!tests(&plain).contains(&"successor".to_string()), "{plain}");
    let ordered = audit(&["--order-file", order_file.to_str().unwrap()]);
    assert_eq!(ordered["verdict"], "biased", "{ordered}");
    let seen = ordered["seen_by"].to_string();
    assert!(seen.contains("successor"), "{seen}");
    let words = ordered["largest_deviation"].as_str().unwrap();
    assert!(words.contains(" followed by "), "{words}");
    // An order whose counts differ from the decks' is refused, naming it.
    std::fs::write(&order_file, format!("{order} a\n")).unwrap();
    let o = run(&[
        "audit",
        "--input",
        shoes.to_str().unwrap(),
        "--order-file",
        order_file.to_str().unwrap(),
        "--out",
        dir.join("bad").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", common::stderr(&o));
    assert!(!dir.join("bad").exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn too_few_shoes_for_the_adjacency_table_are_said_with_the_shoes_needed() {
    // Two shoes of AABBCC: 10 pairs, too few for two groups of 5.
    let (terminal, record) = audit_file("few", "A A B B C C\nC B A C B A\n");
    let not_run = record["not_run"].as_array().expect("a not-run list");
    let adjacency = not_run
        .iter()
        .find(|t| t["test"] == "adjacency")
        .unwrap_or_else(|| panic!("adjacency listed as not run: {record}\n{terminal}"));
    let why = adjacency["why"].as_str().unwrap();
    assert!(
        why.contains("with 2 shoes") && why.contains("shoes would run it"),
        "{why}"
    );
    // Running that many shoes runs it.
    let need: u64 = why
        .split("at least ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.replace(',', "").parse().ok())
        .unwrap();
    let text = "A A B B C C\nC B A C B A\n".repeat(need.div_ceil(2) as usize);
    let (_, enough) = audit_file("enough", &text);
    let ran: Vec<&str> = enough["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["test"].as_str().unwrap())
        .collect();
    assert!(ran.contains(&"adjacency"), "{enough}");
}

/// The tests a record ran, by name.
fn tests_of(record: &serde_json::Value) -> Vec<String> {
    record["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["test"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn all_runs_every_test_of_a_deck_that_applies() {
    // `--tests all` once ran the deck forms of the tests of permutations
    // only: a cut riffle of AAAABBBBCC, biased by its order tests under the
    // default, passed under `all`; and above n = 10 `all` was an error.
    let built_in = |tests: &str| {
        let o = run(&[
            "audit",
            "--deck",
            "AAAABBBBCC",
            "-a",
            "riffle:k=3,cut=true",
            "-t",
            "5k",
            "--tests",
            tests,
            "-q",
            "--json",
        ]);
        assert!(o.status.success(), "{}", common::stderr(&o));
        let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        summary["audits"][0].clone()
    };
    let all = built_in("all");
    assert_eq!(all["verdict"], "biased");
    assert_eq!(
        tests_of(&all),
        [
            "position-kind",
            "arrangement",
            "adjacency",
            "successor",
            "serial"
        ]
    );
    let default = tests_of(&built_in("default"));
    assert!(
        default.iter().all(|t| tests_of(&all).contains(t)),
        "{default:?}"
    );
    // A shoe read from a file: the same tests as its default (n = 104).
    let (terminal, record) = audit_file_with("all", &shoes(2, None, 300, 4), &["--tests", "all"]);
    assert_eq!(
        tests_of(&record),
        ["position-kind", "adjacency", "successor", "serial"],
        "{terminal}"
    );
    // Above n = 10 `all` leaves the permutation test out rather than fail.
    let o = run(&[
        "audit",
        "-a",
        "fisher-yates",
        "-n",
        "52",
        "-t",
        "2k",
        "--tests",
        "all",
        "-q",
    ]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let o = run(&[
        "audit",
        "-a",
        "fisher-yates",
        "-n",
        "52",
        "--tests",
        "all,permutation",
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::stderr(&o).contains("permutation test needs n <= 10"));
}

#[test]
fn tests_that_a_deck_skips_are_refused_with_why_not_a_panic() {
    let dir = common::scratch("skipped");
    let path = dir.join("shoes.txt");
    std::fs::write(&path, shoes(2, None, 100, 5)).unwrap();
    let shoe = path.to_str().unwrap();
    for (args, words) in [
        (
            vec!["audit", "--input", shoe, "--tests", "fixed-points", "-q"],
            "none of the tests chosen (fixed-points) applies to the deck",
        ),
        (
            vec!["audit", "--input", shoe, "--tests", "hand", "-q"],
            "hands are not counted while decks are read",
        ),
        (
            vec![
                "audit",
                "--deck",
                "AABBCCDDEE",
                "-a",
                "fisher-yates",
                "--tests",
                "cycles",
                "-q",
            ],
            "none of the tests chosen (cycles) applies to the deck AABBCCDDEE",
        ),
        (
            vec![
                "audit",
                "-a",
                "fisher-yates",
                "-n",
                "10",
                "--categories",
                "cards",
                "-q",
            ],
            "-n 10 but the deck cards has 52 items: leave -n out",
        ),
    ] {
        let o = run(&args);
        let err = common::stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(words) && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

//! Decks with repeated items and categories (issue 12 §1–2): the
//! position-by-kind, whole-arrangement, position-by-category and hand tests
//! are calibrated at α = 0.001 (rejection counts over many seeded audits of
//! a fair shuffle, inside their binomial band; the p-values' distribution
//! uniform) and catch known biases.

use rayon::prelude::*;
use shuffle_audit::audit::{self, Feed, Kind, Outside, Spec, Subject, no_progress};
use shuffle_audit::request::Request;
use shuffle_audit::shuffle::{
    self, Algorithm, Deck, SerialCounts, ShuffleOptions, Shuffles, TestKind, TestSet,
};
use shuffle_audit::source::SourceKind;
use shuffle_audit::stats::TestResult;
use shuffle_audit::stats::special::{binomial_band, ks_uniform};

/// One audit of `algorithm` on `deck`: its deck tests.
fn audit(algorithm: &str, deck: &Deck, trials: u64, seed: u64) -> Vec<TestResult> {
    let (spec, _) = Spec::<Shuffles>::new(
        Algorithm::parse(algorithm).unwrap(),
        deck.n(),
        trials,
        SourceKind::Chacha8.into(),
        seed,
    )
    .with_deck(deck.clone());
    let tally = Shuffles::count(&spec, spec.chunks(), &no_progress).unwrap();
    audit::tested(&spec, &tally).results
}

/// The deck `deck` with the category columns of the CSV `csv`
/// (`item,column,...`) and hands of `hand`, as a user gives them
/// (`--deck`, `--categories FILE`, `--hand`), resolved by the request layer.
fn deck_with_categories(deck: &str, csv: &str, hand: usize) -> Deck {
    let dir = std::env::temp_dir().join(format!("deck-categories-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.csv", deck.len()));
    std::fs::write(&path, csv).unwrap();
    let request = Request {
        subjects: vec!["fisher-yates".into()],
        deck: Some(deck.into()),
        categories: Some(path.to_str().unwrap().into()),
        hand: Some(hand),
        trials: Some(1),
        ..Request::default()
    };
    let resolved = request.resolve().unwrap();
    std::fs::remove_file(&path).ok();
    let spec: &Spec<Shuffles> = resolved.audits[0].as_any().downcast_ref().unwrap();
    Deck::clone(spec.options.deck.as_ref().expect("a deck"))
}

/// The 52 card labels in deck order (`AS 2S … KC`), as decks of cards are
/// printed.
fn card_labels() -> Vec<String> {
    let labels = Deck::parse("cards").unwrap().kind_names().to_vec();
    assert_eq!(labels.len(), 52);
    labels
}

/// `audits` fair audits of `deck`: the raw p-values of each test, and the
/// mean of each test's statistic over its df.
fn fair(deck: &Deck, audits: u64, trials: u64) -> Vec<(TestKind, Vec<f64>, f64)> {
    let runs: Vec<Vec<TestResult>> = (0..audits)
        .into_par_iter()
        .map(|seed| audit("fisher-yates", deck, trials, 7_000_000 + seed))
        .collect();
    runs[0]
        .iter()
        .enumerate()
        .map(|(i, first)| {
            let p: Vec<f64> = runs.iter().map(|r| 10f64.powf(r[i].log10_p)).collect();
            let ratio = runs.iter().map(|r| r[i].statistic / r[i].df).sum::<f64>() / audits as f64;
            (first.test, p, ratio)
        })
        .collect()
}

/// Asserts the rejection counts at 0.001 and 0.01 fall in their 99.9%
/// binomial bands, and the p-values are uniform (KS).
fn assert_calibrated(label: &str, p: &[f64]) {
    let audits = p.len() as u64;
    for alpha in [0.001, 0.01] {
        let rejections = p.iter().filter(|&&x| x <= alpha).count() as u64;
        let (lo, hi) = binomial_band(audits, alpha, 0.999);
        println!("{label}: {rejections} rejections of {audits} at {alpha} (band {lo}..={hi})");
        assert!(
            (lo..=hi).contains(&rejections),
            "{label}: {rejections} rejections at {alpha}, outside {lo}..={hi}"
        );
    }
    let ks = ks_uniform(p);
    assert!(ks.p_value > 0.001, "{label}: p-values not uniform: {ks:?}");
}

/// A 6-item block list AABBBC with one two-category column (A, B | C),
/// hand of 2: every test is a single chi-square, so each must be calibrated
/// exactly, not only conservatively.
fn small_deck() -> Deck {
    let deck = deck_with_categories("AABBBC", "item,side\nA,ab\nB,ab\nC,c\n", 2);
    assert_eq!(deck.columns()[0].names, ["ab", "c"]);
    deck
}

#[test]
fn multiset_tests_are_calibrated_at_alpha_0_001() {
    let deck = small_deck();
    let results = fair(&deck, 6000, 2000);
    let kinds: Vec<TestKind> = results.iter().map(|r| r.0).collect();
    let mut every = TestKind::DECK.to_vec();
    every.push(TestKind::Serial);
    assert_eq!(
        kinds, every,
        "every deck test and the kinds' serial test run on a small deck with a column"
    );
    for (kind, p, ratio) in &results {
        assert_calibrated(kind.name(), p);
        if matches!(kind, TestKind::PositionKind | TestKind::PositionCategory) {
            // The (n-1)/n factor: the uncorrected Pearson sum would average
            // n/(n-1) = 1.2 times its df at n = 6.
            println!("{kind}: mean Q/df = {ratio:.4}");
            assert!((ratio - 1.0).abs() < 0.01, "{kind}: mean Q/df {ratio}");
        }
    }
}

#[test]
fn shoe_and_card_tests_are_calibrated() {
    // A 2-deck shoe with the card columns, hand of 7: the combined tests
    // (Bonferroni over columns and categories) may only be conservative.
    let deck = Deck::parse("shoe:decks=2").unwrap().with_hand(7).unwrap();
    let audits = 800;
    for (kind, p, ratio) in fair(&deck, audits, 2000) {
        let at = |alpha: f64| p.iter().filter(|&&x| x <= alpha).count() as u64;
        let (_, hi_001) = binomial_band(audits, 0.001, 0.999);
        let (_, hi_01) = binomial_band(audits, 0.01, 0.999);
        println!(
            "{kind}: {} at 0.001, {} at 0.01, mean Q/df {ratio:.4}",
            at(0.001),
            at(0.01)
        );
        assert!(
            at(0.001) <= hi_001 && at(0.01) <= hi_01,
            "{kind} over-rejects"
        );
        if kind == TestKind::PositionKind {
            assert_calibrated("shoe position-kind", &p);
            assert!((ratio - 1.0).abs() < 0.01, "mean Q/df {ratio}");
        }
    }
}

/// The p-value (log10) of `kind` in an audit of `algorithm` on `deck`.
fn log10_p(algorithm: &str, deck: &Deck, trials: u64, kind: TestKind) -> f64 {
    audit(algorithm, deck, trials, 11)
        .into_iter()
        .find(|r| r.test == kind)
        .unwrap_or_else(|| panic!("{kind} ran"))
        .log10_p
}

#[test]
fn naive_swap_on_a_six_deck_shoe_is_caught_by_kind_and_by_suit() {
    let shoe = Deck::parse("shoe:decks=6").unwrap();
    let kind = log10_p("naive-swap", &shoe, 100_000, TestKind::PositionKind);
    let suit = log10_p("naive-swap", &shoe, 100_000, TestKind::PositionCategory);
    println!("naive-swap shoe: log10 p kind {kind:.1}, category {suit:.1}");
    assert!(kind < -100.0 && suit < -100.0);
    let fair = log10_p("fisher-yates", &shoe, 100_000, TestKind::PositionKind);
    assert!(fair > -3.0, "fisher-yates: {fair}");
}

#[test]
fn the_arrangement_test_sees_what_marginals_miss() {
    // Rotation has uniform marginals: the position-by-kind test cannot see
    // it, the whole-arrangement test does.
    let deck = Deck::parse("AABBC").unwrap();
    let arrangement = log10_p("rotation", &deck, 20_000, TestKind::Arrangement);
    let marginal = log10_p("rotation", &deck, 20_000, TestKind::PositionKind);
    println!("rotation AABBC: arrangement {arrangement:.1}, kind {marginal:.1}");
    assert!(arrangement < -100.0);
    assert!(marginal > -3.0);
}

#[test]
fn the_hand_test_catches_clumped_lands() {
    // 24 lands stacked on top of 36 other cards, one riffle: opening hands
    // of 7 hold too many or too few lands.
    let lands = format!("{}{}", "L".repeat(24), "N".repeat(36));
    let deck = deck_with_categories(&lands, "item,land\nL,land\nN,other\n", 7);
    let riffled = log10_p("riffle:k=2", &deck, 20_000, TestKind::Hand);
    let fair = log10_p("fisher-yates", &deck, 20_000, TestKind::Hand);
    println!("lands in 7: riffle:k=2 log10 p {riffled:.1}, fisher-yates {fair:.1}");
    assert!(riffled < -20.0);
    assert!(fair > -3.0);
}

#[test]
fn structure_tests_are_skipped_with_a_reason() {
    let spec = Spec::<Shuffles>::new(Algorithm::FisherYates, 6, 10, SourceKind::Chacha8.into(), 1);
    let (spec, note) = spec.with_deck(Deck::parse("AABBCC").unwrap());
    let note = note.unwrap();
    assert!(
        note.contains("cycles") && note.contains("distinct items"),
        "{note}"
    );
    assert_eq!(
        spec.options.tests.to_string(),
        "position-kind,arrangement,adjacency,successor,serial"
    );
    let listed = Spec::<Shuffles> {
        options: ShuffleOptions::with_tests(
            TestSet::parse("cycles,position-value,hand", 6).unwrap(),
        ),
        ..Spec::new(Algorithm::FisherYates, 6, 10, SourceKind::Chacha8.into(), 1)
    };
    let (spec, note) = listed.with_deck(Deck::parse("AABBCC").unwrap());
    assert_eq!(spec.options.tests.to_string(), "position-kind");
    let note = note.unwrap();
    assert!(
        note.contains("--categories") && note.contains("cycles"),
        "{note}"
    );
}

/// Decks with repeated items read from text: the k-th occurrence of a kind
/// becomes its k-th index, so the position-by-value counts summed over each
/// kind are exactly the position-by-kind counts of the lines (checked
/// against a direct count), whatever the per-index counts.
#[test]
fn repeated_items_from_text_aggregate_exactly() {
    use shuffle_audit::ingest::{self, Items, Options};
    use shuffle_audit::shuffle::Cells;
    let kinds = ["7", "10", "A"];
    let start = [0usize, 0, 1, 2, 2, 2];
    let mut state = 12_345u64;
    let mut direct = vec![0u64; 6 * 3];
    let mut text = String::new();
    for _ in 0..3000 {
        let mut deck = start.to_vec();
        for i in (1..deck.len()).rev() {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            deck.swap(i, ((state >> 33) % (i as u64 + 1)) as usize);
        }
        for (p, &k) in deck.iter().enumerate() {
            direct[p * 3 + k] += 1;
        }
        let line: Vec<&str> = deck.iter().map(|&k| kinds[k]).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    let read = ingest::read(
        text.as_bytes(),
        "shoe.txt",
        &Options::default(),
        &no_progress,
    )
    .unwrap();
    let Items::Labels(labels) = &read.items else {
        panic!("labels")
    };
    // Kinds in numeric order: 7, 10, then the label A.
    assert_eq!(labels, &["7", "7", "10", "A", "A", "A"]);
    let deck = Deck::from_labels(labels).unwrap();
    assert_eq!(deck.kind_names(), &["7", "10", "A"]);
    assert_eq!(
        Cells::by_kind(&read.tally, deck.kind_of(), deck.kinds()).counts(),
        direct
    );
}

#[test]
fn a_shoe_from_text_is_audited_by_kind() {
    let dir = std::env::temp_dir().join(format!("deck-shoe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("shoe.txt");
    let labels: Vec<String> = card_labels();
    let mut state = 99u64;
    let mut text = String::new();
    for _ in 0..4000 {
        // Naive swap on a 2-deck shoe, printed as card labels.
        let mut deck: Vec<usize> = (0..104).map(|i| i % 52).collect();
        for i in 0..104 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            deck.swap(i, ((state >> 33) % 104) as usize);
        }
        let line: Vec<&str> = deck.iter().map(|&k| labels[k].as_str()).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    let outside = Outside {
        name: "shoe".into(),
        feed: Feed::File {
            path: path.clone(),
            format: shuffle_audit::ingest::Format::Text,
        },
        reading: shuffle::Reading {
            order: None,
            categories: None,
        },
    };
    let spec = Spec::<Shuffles>::new(
        Subject::Outside(outside),
        audit::N_FROM_INPUT,
        audit::ALL_TRIALS,
        SourceKind::Chacha8.into(),
        1,
    );
    let result = audit::run(&spec, 0.001, &no_progress).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let kinds: Vec<TestKind> = result.tests().iter().map(|t| t.test).collect();
    assert_eq!(
        kinds,
        vec![
            TestKind::PositionKind,
            TestKind::Adjacency,
            TestKind::Successor,
            TestKind::Serial
        ],
        "no test of the per-index counts; the order tests and the serial test match kinds"
    );
    assert!(result.tests()[0].log10_p < -20.0, "{:?}", result.tests()[0]);
    assert_eq!(result.tests()[0].df, (103 * 51) as f64);
}

#[test]
fn the_kinds_serial_test_holds_its_level_at_every_trial_count() {
    // Fair arrangements of a multiset drawn directly, counted in triples
    // as the tally counts them (kinds matched), judged by the serial test:
    // on both of its paths, the exact sign law (few triples) and its
    // Edgeworth expansion (many).
    use rand::{RngExt, SeedableRng};
    use shuffle_audit::stats::sequence;
    let cases: [(&[usize], u64, u64); 5] = [
        (&[2, 2, 2], 3, 40_000),
        (&[2, 2, 2], 60, 40_000),
        (&[2, 2, 2], 9_000, 10_000),
        (&[6; 52], 9, 4_000),
        (&[6; 52], 900, 4_000),
    ];
    for (sizes, deals, replicates) in cases {
        let kinds: Vec<u32> = sizes
            .iter()
            .enumerate()
            .flat_map(|(k, &c)| std::iter::repeat_n(k as u32, c))
            .collect();
        let n = kinds.len();
        let p: Vec<f64> = (0..replicates)
            .into_par_iter()
            .map(|r| {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(r);
                let mut counts = SerialCounts::new(n);
                let mut three = vec![kinds.clone(); 3];
                let same = |a: &[u32], b: &[u32]| a.iter().zip(b).filter(|(x, y)| x == y).count();
                for _ in 0..deals / 3 {
                    for deal in three.iter_mut() {
                        for i in (1..n).rev() {
                            deal.swap(i, rng.random_range(0..=i));
                        }
                    }
                    let x = same(&three[0], &three[1]) as i64 - same(&three[0], &three[2]) as i64;
                    counts.record(x);
                }
                10f64.powf(sequence::serial(&counts, "kind").log10_p)
            })
            .collect();
        for alpha in [0.01, 0.001] {
            let rejections = p.iter().filter(|&&x| x <= alpha * (1.0 + 1e-9)).count() as u64;
            let (_, hi) = binomial_band(replicates, alpha, 0.999);
            let (lo, _) = binomial_band(replicates, alpha * 0.5, 0.999);
            println!(
                "{} kinds, {deals} deals: {rejections} of {replicates} at {alpha} (at most {hi})",
                sizes.len()
            );
            // Never over the level; below it only by the discreteness of
            // a sign test on few triples.
            assert!(
                rejections <= hi,
                "{sizes:?} {deals} deals over-rejects at {alpha}"
            );
            if deals >= 60 {
                assert!(
                    rejections >= lo,
                    "{sizes:?} {deals} deals: {rejections} at {alpha}"
                );
            }
        }
    }
}

#[test]
fn the_kinds_serial_test_of_fair_shoes_is_calibrated_end_to_end() {
    // Built-in Fisher-Yates on a 6-deck shoe: the engine matches kinds.
    let deck = Deck::parse("shoe:decks=6").unwrap();
    let audits = 1_000;
    let p: Vec<f64> = (0..audits)
        .into_par_iter()
        .map(|seed| {
            let results = audit("fisher-yates", &deck, 200, 9_000_000 + seed);
            let serial = results.iter().find(|r| r.test == TestKind::Serial).unwrap();
            10f64.powf(serial.log10_p)
        })
        .collect();
    assert_calibrated("shoe serial", &p);
}

/// `decks` 6-deck shoes printed as card labels: each a fresh Fisher-Yates
/// shuffle, except that with probability `repeat` the dealer deals the
/// previous shoe again, and with `swaps` > 0 it only swaps that many random
/// pairs of the previous shoe.
fn dealer(decks: usize, repeat: f64, swaps: usize, seed: u64) -> String {
    use rand::{RngExt, SeedableRng};
    let labels = card_labels();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut shoe: Vec<usize> = (0..312).map(|i| i % 52).collect();
    let mut text = String::new();
    for _ in 0..decks {
        if swaps > 0 {
            for _ in 0..swaps {
                let (a, b) = (rng.random_range(0..312), rng.random_range(0..312));
                shoe.swap(a, b);
            }
        } else if rng.random::<f64>() >= repeat {
            for i in (1..312).rev() {
                shoe.swap(i, rng.random_range(0..=i));
            }
        }
        let line: Vec<&str> = shoe.iter().map(|&k| labels[k].as_str()).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    text
}

/// The serial test's log10 p for shoes read from `text`.
fn serial_of_text(name: &str, text: &str) -> f64 {
    let dir = std::env::temp_dir().join(format!("deck-serial-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("shoes.txt");
    std::fs::write(&path, text).unwrap();
    let outside = Outside {
        name: name.into(),
        feed: Feed::File {
            path,
            format: shuffle_audit::ingest::Format::Text,
        },
        reading: shuffle::Reading {
            order: None,
            categories: None,
        },
    };
    let spec = Spec::<Shuffles>::new(
        Subject::Outside(outside),
        audit::N_FROM_INPUT,
        audit::ALL_TRIALS,
        SourceKind::Chacha8.into(),
        1,
    );
    let result = audit::run(&spec, 0.001, &no_progress).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    result
        .tests()
        .iter()
        .find(|t| t.test == TestKind::Serial)
        .expect("shoes read from text get the kinds' serial test")
        .log10_p
}

#[test]
fn the_kinds_serial_test_catches_a_dealer_that_leans_on_its_last_shoe() {
    // The serial test's sign law gives each repeated shoe about one bit of
    // evidence (a triple (a, b, c) with b = a has x > 0 with certainty,
    // where independent shoes would make it a coin flip), so 1% repeats
    // need some thousands of shoes: 12,000 hold about 40 usable repeats.
    let fair = serial_of_text("fair", &dealer(5_000, 0.0, 0, 1));
    let repeats = serial_of_text("repeats", &dealer(12_000, 0.01, 0, 2));
    let barely = serial_of_text("barely", &dealer(5_000, 0.0, 200, 3));
    println!("shoe serial log10 p: fair {fair:.2}, repeats 1% {repeats:.1}, 200 swaps {barely:.1}");
    assert!(fair > -3.0, "a fair dealer passes: {fair}");
    assert!(
        repeats < -6.0,
        "a dealer repeating 1% of its shoes is caught: {repeats}"
    );
    assert!(
        barely < -6.0,
        "a dealer swapping 200 pairs is caught: {barely}"
    );
}

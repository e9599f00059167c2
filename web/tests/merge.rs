//! The chunk contract at the library level: a run cut into chunks, each
//! counted as one stream (its last batch with `last`), gives the same
//! counts, tests and verdict whether one session counts every chunk or
//! several sessions (the workers of the page and of the npm package) each
//! count some of them, in any order, and hand their counts over with
//! `counts_json` / `merge`.

use serde_json::Value;
use shuffle_audit::request::Form;
use shuffle_audit_web::session::Session;

/// Trials per chunk in these tests (the JavaScript runner's CHUNK_TRIALS
/// is larger; any size shows the contract).
const CHUNK: usize = 3 * 700;

mod common;
use common::Mix;

/// `trials` decks of `n`, by Fisher–Yates or (`naive`) the naive swap.
fn decks(n: usize, trials: usize, naive: bool) -> Vec<Vec<u8>> {
    common::decks(n, trials, naive, 7)
}

/// A form for `trials` draws holding `holds` of n items (and k per sample).
fn form(holds: &str, n: usize, k: usize, trials: usize) -> Form {
    Form {
        holds: holds.to_string(),
        name: "merged".to_string(),
        from: "test draws".to_string(),
        n: n.to_string(),
        k: if k > 0 { k.to_string() } else { String::new() },
        trials: trials.to_string(),
        seed: "11".to_string(),
        base: if holds == "deck" { "" } else { "0" }.to_string(),
        ..Form::default()
    }
}

/// Counts chunk `c` of `decks` into `s` as the runner does: batches of at
/// most `batch` decks, the chunk's last with `last`.
fn count_chunk(s: &mut Session, decks: &[Vec<u8>], c: usize, batch: usize) {
    let n = decks[0].len();
    let end = ((c + 1) * CHUNK).min(decks.len());
    let mut at = c * CHUNK;
    while at < end {
        let take = batch.min(end - at);
        let buf = s.batch(take);
        for (k, d) in decks[at..at + take].iter().enumerate() {
            buf[k * n..(k + 1) * n].copy_from_slice(d);
        }
        at += take;
        s.count(take, at == end).unwrap();
    }
}

/// What a judged session says: its summary.json without the time taken.
fn judged(s: &Session) -> Value {
    let audit = s.judge(1.0).unwrap();
    let summary = shuffle_audit::study::Summary::of(
        std::slice::from_ref(&audit),
        audit.alpha(),
        &Default::default(),
    );
    let mut value: Value = serde_json::from_str(&summary.to_json()).unwrap();
    let record = value["audits"][0].as_object_mut().unwrap();
    record.remove("seconds");
    value["audits"][0].take()
}

/// One session counting every chunk, and `workers` sessions counting the
/// chunks dealt round-robin from the end, merged into the first: the same
/// counts and the same judgement.
fn same_when_merged(decks: &[Vec<u8>], workers: usize) -> Value {
    let asked = form("deck", decks[0].len(), 0, decks.len());
    let chunks = decks.len().div_ceil(CHUNK);
    let mut alone = Session::new(&asked, None, &[]).unwrap();
    for c in 0..chunks {
        count_chunk(&mut alone, decks, c, 1000);
    }
    let mut shares: Vec<Session> = (0..workers)
        .map(|_| Session::new(&asked, None, &[]).unwrap())
        .collect();
    for (i, c) in (0..chunks).rev().enumerate() {
        // Other batch sizes too: a chunk's counts do not depend on them.
        count_chunk(&mut shares[i % workers], decks, c, 257 + 100 * i);
    }
    let mut merged = Session::new(&asked, None, &[]).unwrap();
    for share in shares.iter().rev() {
        merged.merge(&share.counts_json().unwrap()).unwrap();
    }
    assert_eq!(merged.counted(), decks.len() as u64);
    let (one, many): (Value, Value) = (
        serde_json::from_str(&alone.counts_json().unwrap()).unwrap(),
        serde_json::from_str(&merged.counts_json().unwrap()).unwrap(),
    );
    assert_eq!(one, many, "counts differ with {workers} workers");
    let judgement = judged(&alone);
    assert_eq!(
        judgement,
        judged(&merged),
        "judgements differ with {workers} workers"
    );
    judgement
}

#[test]
fn merged_counts_give_the_counts_and_verdict_of_one_session() {
    let fair = decks(10, 20_000, false);
    for workers in [2, 3, 5] {
        let judged = same_when_merged(&fair, workers);
        assert_eq!(judged["verdict"], "no-bias-detected");
    }
    let naive = decks(10, 20_000, true);
    let judged = same_when_merged(&naive, 3);
    assert_eq!(judged["verdict"], "biased");
}

#[test]
fn merged_sampler_counts_give_the_verdict_of_one_session() {
    let (n, k, trials) = (12, 3, 9_000);
    let mut rng = Mix(3);
    let lines: Vec<String> = (0..trials)
        .map(|_| {
            let mut items: Vec<usize> = (0..n).collect();
            for i in 0..k {
                let j = i + rng.below(n - i);
                items.swap(i, j);
            }
            items[..k]
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let asked = form("sample", n, k, trials);
    let text = |c: usize| lines[c * CHUNK..((c + 1) * CHUNK).min(trials)].join("\n") + "\n";
    let chunks = trials.div_ceil(CHUNK);
    let mut alone = Session::new(&asked, None, &[]).unwrap();
    for c in 0..chunks {
        alone.count_text(&text(c)).unwrap();
    }
    let (mut a, mut b) = (
        Session::new(&asked, None, &[]).unwrap(),
        Session::new(&asked, None, &[]).unwrap(),
    );
    for c in (0..chunks).rev() {
        if c % 2 == 0 { &mut a } else { &mut b }
            .count_text(&text(c))
            .unwrap();
    }
    a.merge(&b.counts_json().unwrap()).unwrap();
    assert_eq!(judged(&alone), judged(&a));
    assert_eq!(judged(&a)["verdict"], "no-bias-detected");
}

#[test]
fn counts_of_another_request_are_refused() {
    let mut ten = Session::new(&form("deck", 10, 0, 3_000), None, &[]).unwrap();
    let mut twelve = Session::new(&form("deck", 12, 0, 3_000), None, &[]).unwrap();
    let decks12 = decks(12, 30, false);
    let buf = twelve.batch(30);
    for (k, d) in decks12.iter().enumerate() {
        buf[k * 12..(k + 1) * 12].copy_from_slice(d);
    }
    twelve.count(30, true).unwrap();
    let refused = ten.merge(&twelve.counts_json().unwrap()).unwrap_err();
    assert!(
        refused.contains("12") || refused.contains("shape"),
        "{refused}"
    );
}

//! The generic audit path, checked once for every kind: a sequential audit
//! (looks doubling, α spent across the looks and the audits of the run, the
//! seed rule of its batches), run on a shuffle and on a sampler alike.

use super::*;
use crate::algorithm::Algorithm;
use crate::sampler::{Sampler, Samplers};
use crate::sequential::batch_seed;
use crate::shuffle::Shuffles;
use crate::source::SourceSpec;

/// A built-in shuffle at n = 6, on xoshiro256++ with seed 11.
fn shuffle(name: &str, trials: u64) -> Spec<Shuffles> {
    let algorithm = Algorithm::parse(name).unwrap();
    Spec::new(
        algorithm,
        6,
        trials,
        SourceSpec::parse("xoshiro256pp").unwrap(),
        11,
    )
}

/// A built-in sampler of N = 10, on xoshiro256++ with seed 11.
fn sampler(name: &str, trials: u64) -> Spec<Samplers> {
    let sampler = Sampler::parse(name).unwrap();
    Spec::new(
        sampler,
        10,
        trials,
        SourceSpec::parse("xoshiro256pp").unwrap(),
        11,
    )
}

/// `spec` audited look after look at α = 0.001, up to `max` trials, among
/// `audits` audits.
fn sequential<K: Kind>(spec: &Spec<K>, max: u64, audits: usize) -> Audit<K> {
    run_until_decisive(spec, 0.001, max, audits, &no_progress).unwrap()
}

/// From 2,000 trials up to 256,000 (8 looks at α / 8): `biased` is
/// called biased at the first look within its level and stops there;
/// `fair` spends every look and is found adequate.
fn stops_early_or_spends_the_budget<K: Kind>(biased: &Spec<K>, fair: &Spec<K>) {
    let looks = look_schedule(2_000, 256_000);
    assert_eq!(looks.len(), 8);
    let level = (0.001f64 / 8.0).log10();
    let biased = sequential(biased, 256_000, 1);
    let kind = K::NAME;
    assert_eq!(biased.verdict(), Verdict::Biased, "{kind}");
    let stopped = biased.looks().last().unwrap().trials;
    assert!(stopped < 256_000, "{kind}: stopped at {stopped}");
    assert_eq!(biased.trials(), stopped);
    assert_eq!(biased.spec().trials, stopped);
    // Every look but the last was within its level; all spent α / J.
    let (last, before) = biased.looks().split_last().unwrap();
    assert!(last.log10_p <= level, "{kind}: {last:?}");
    assert!(before.iter().all(|l| l.log10_p > level), "{before:?}");
    assert!(
        biased
            .looks()
            .iter()
            .all(|l| (l.log10_alpha - level).abs() < 1e-12)
    );
    let trials: Vec<u64> = biased.looks().iter().map(|l| l.trials).collect();
    assert_eq!(trials, looks[..trials.len()]);

    let fair = sequential(fair, 256_000, 1);
    assert_eq!(fair.verdict(), Verdict::NoBiasDetected, "{kind}");
    assert_eq!(fair.trials(), 256_000);
    assert_eq!(fair.spec().trials, 256_000);
    let trials: Vec<u64> = fair.looks().iter().map(|l| l.trials).collect();
    assert_eq!(trials, looks);
    assert!(fair.sensitivity().adequate(), "{kind}");
}

#[test]
fn a_biased_subject_stops_early_and_a_fair_one_spends_the_budget() {
    stops_early_or_spends_the_budget(
        &shuffle("naive-swap", 2_000),
        &shuffle("fisher-yates", 2_000),
    );
    stops_early_or_spends_the_budget(
        &sampler("reservoir-off-by-one:k=3", 2_000),
        &sampler("floyd:k=3", 2_000),
    );
}

/// 3 planned looks (T, 2T, 4T) among 4 audits: α is divided by 12, even
/// when `biased` stops at its first look; alone in its run, the same looks
/// pay for 3; `fair`'s adjusted p is capped at 1.
fn pays_for_every_look_and_audit<K: Kind>(biased: &Spec<K>, fair: &Spec<K>) {
    let (t, kind) = (biased.trials, K::NAME);
    let a = sequential(biased, 4 * t, 4);
    assert_eq!(a.verdict(), Verdict::Biased, "{kind}");
    assert_eq!(a.looks().len(), 1, "{kind}");
    let best = a.looks()[0].log10_p;
    assert!((a.log10_p_adjusted() - (best + 12f64.log10())).abs() < 1e-12);
    let level = (0.001f64 / 12.0).log10();
    assert!((a.looks()[0].log10_alpha - level).abs() < 1e-12);
    // The sensitivity is stated at the level each test was held to.
    let tests = a.tests().len() + a.not_run().len();
    let level = 0.001 / (tests * 12) as f64;
    assert!(
        (a.sensitivity().level / level - 1.0).abs() < 1e-12,
        "{kind}: {:?}",
        a.sensitivity()
    );
    let alone = sequential(biased, 4 * t, 1);
    assert_eq!(alone.looks()[0].log10_p, best);
    assert!((alone.log10_p_adjusted() - (best + 3f64.log10())).abs() < 1e-12);
    let fair = sequential(fair, 4 * t, 4);
    let best = fair
        .looks()
        .iter()
        .map(|l| l.log10_p)
        .fold(f64::INFINITY, f64::min);
    assert_eq!(fair.log10_p_adjusted(), (best + 12f64.log10()).min(0.0));
}

#[test]
fn a_sequential_verdict_pays_for_every_look_and_audit() {
    pays_for_every_look_and_audit(
        &shuffle("naive-swap", 2_000),
        &shuffle("fisher-yates", 2_000),
    );
    pays_for_every_look_and_audit(
        &sampler("reservoir-off-by-one:k=3", 1_000),
        &sampler("floyd:k=3", 1_000),
    );
}

/// Two looks of `spec` count batch 0 from the seed and batch 1 from
/// splitmix64(seed ^ 1); one look is a plain audit of its trials at α / 1;
/// a budget below the first look is refused, naming it.
fn batches_follow_the_seed_rule<K: Kind>(spec: &Spec<K>) {
    let t = spec.trials;
    let a = sequential(spec, 2 * t, 1);
    let mut want = K::count(spec, spec.chunks(), &no_progress).unwrap();
    let second = Spec {
        seed: batch_seed(spec.seed, 1),
        ..spec.clone()
    };
    K::merge(
        &mut want,
        &K::count(&second, second.chunks(), &no_progress).unwrap(),
    );
    assert_eq!(*a.tally(), want, "{}", K::NAME);
    let one = sequential(spec, t, 1);
    let plain = run(spec, 0.001, &no_progress).unwrap();
    assert_eq!(one.tally(), plain.tally());
    assert_eq!(one.log10_p_adjusted(), plain.log10_p_adjusted());
    assert_eq!(one.verdict(), plain.verdict());
    assert!(plain.looks().is_empty());
    let err = run_until_decisive(spec, 0.001, t - 1, 1, &no_progress).unwrap_err();
    assert!(err.to_string().contains(&(t - 1).to_string()), "{err}");
}

#[test]
fn sequential_batches_follow_the_seed_rule() {
    batches_follow_the_seed_rule(&shuffle("fisher-yates", 1_000));
    batches_follow_the_seed_rule(&sampler("floyd:k=3", 1_000));
}

/// A subject of kind `K` from outside, named `name` and fed by `feed`.
fn outside<K: Kind>(name: &str, feed: Feed, reading: K::Reading) -> Spec<K> {
    let subject = Subject::Outside(Outside {
        name: name.into(),
        feed,
        reading,
    });
    Spec::new(subject, 10, 1_000, SourceSpec::default(), 1)
}

/// Nothing is known in advance of `spec`, a subject from outside: no
/// verdict is expected of it, it is no built-in subject, and its folder is
/// its name made safe.
fn knows_nothing_in_advance<K: Kind>(spec: &Spec<K>) {
    assert_eq!(K::expected(spec), None, "{}", K::NAME);
    assert!(spec.subject.builtin().is_none());
    assert_eq!(spec.subject.slug(), "node_shuffle.js_n");
    assert_eq!(spec.subject.to_string(), "node shuffle.js {n}");
}

#[test]
fn outside_subjects_know_nothing_in_advance() {
    let command = Feed::Command(crate::ingest::CommandSpec {
        template: "node shuffle.js {n}".into(),
        jobs: 2,
        timeout: std::time::Duration::from_secs(60),
    });
    let deck = outside::<Shuffles>("node shuffle.js {n}", command.clone(), Default::default());
    knows_nothing_in_advance(&deck);
    // Its own generator draws: outputs name no source of ours...
    assert_eq!(deck.source_label(), OWN_SOURCE);
    let reading = crate::sampler::Reading {
        kind: crate::ingest::samples::SampleKind::Sample,
        base: None,
        k: None,
    };
    let samples = outside::<Samplers>("node shuffle.js {n}", command, reading);
    knows_nothing_in_advance(&samples);
    // ...unless it is a Rust function, which draws from ours.
    let function = outside::<Shuffles>("node shuffle.js {n}", Feed::Function, Default::default());
    knows_nothing_in_advance(&function);
    assert_eq!(function.source_label(), "chacha8");
    // A built-in subject knows what it should be found.
    assert_eq!(
        Shuffles::expected(&shuffle("naive-swap", 1_000)),
        Some(Verdict::Biased)
    );
    assert_eq!(
        Samplers::expected(&sampler("floyd:k=3", 1_000)),
        Some(Verdict::NoBiasDetected)
    );
}

/// `trials` decks of 10 as text lines: dealt in order (biased), or
/// shuffled by Durstenfeld on an xorshift64 stream continued from `state`.
fn dealt(trials: u64, state: &mut u64, fair: bool) -> Box<dyn std::io::Read + Send> {
    let mut text = String::new();
    for _ in 0..trials {
        let mut deck: Vec<u64> = (0..10).collect();
        for i in (1..10).rev().filter(|_| fair) {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            deck.swap(i, (*state % (i as u64 + 1)) as usize);
        }
        let words: Vec<String> = deck.iter().map(u64::to_string).collect();
        text.push_str(&words.join(" "));
        text.push('\n');
    }
    Box::new(std::io::Cursor::new(text.into_bytes()))
}

/// Output drawn on demand (a Python function's) is read look after look,
/// each look asking its caller for the batch it adds: decks dealt in order
/// are biased at the first look; a fair dealer spends the budget (1,000,
/// then 1,000 and 2,000 more). Other feeds are refused.
#[test]
fn output_drawn_on_demand_is_read_look_after_look() {
    let drawn = Feed::Drawn {
        from: "a test".into(),
    };
    for (fair, max, batches) in [
        (false, 64_000, vec![1_000]),
        (true, 4_000, vec![1_000, 1_000, 2_000]),
    ] {
        let spec = outside::<Shuffles>("dealer", drawn.clone(), Default::default());
        let (mut state, mut asked) = (7u64, Vec::new());
        let audit = read_until_decisive(
            &spec,
            0.001,
            max,
            crate::ingest::Format::Text,
            &mut |batch| {
                asked.push(batch.trials);
                Ok(dealt(batch.trials, &mut state, fair))
            },
            &no_progress,
        )
        .unwrap();
        assert_eq!(asked, batches);
        assert_eq!(audit.trials(), batches.iter().sum::<u64>());
        assert_eq!(audit.verdict() == Verdict::Biased, !fair, "fair: {fair}");
        assert_eq!(audit.looks().len(), batches.len());
    }
    let function = outside::<Shuffles>("dealer", Feed::Function, Default::default());
    let refused = read_until_decisive(
        &function,
        0.001,
        4_000,
        crate::ingest::Format::Text,
        &mut |_| unreachable!("a function's run is not read"),
        &no_progress,
    );
    assert_eq!(
        refused.unwrap_err().kind(),
        crate::error::ErrorKind::Unsupported
    );
}

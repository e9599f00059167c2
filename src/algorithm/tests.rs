use super::*;
use crate::source::{SourceKind, SourceSpec, SourceVisitor};

/// Whether `a` holds each of `0..a.len()` once.
pub(super) fn is_permutation(a: &[u32]) -> bool {
    let mut seen = vec![false; a.len()];
    a.iter().all(|&v| {
        let v = v as usize;
        v < seen.len() && !std::mem::replace(&mut seen[v], true)
    })
}

/// Runs every algorithm for n = 2..=60 under one source and checks each
/// output is a permutation.
struct AllArePermutations;

impl SourceVisitor for AllArePermutations {
    type Output = ();
    fn visit<S: RandomSource, F: Fn(u64) -> S + Sync>(self, make: F) {
        let mut rng = make(0);
        let mut scratch = Scratch::default();
        let mut algorithms = Algorithm::ALL.to_vec();
        algorithms.push(Algorithm::SortRandomComparator {
            sort: ComparatorSort::Merge,
        });
        algorithms.push(Algorithm::RandomSwap { k: Some(0) });
        algorithms.push(Algorithm::Riffle { k: 0, cut: false });
        algorithms.push(Algorithm::Riffle { k: 7, cut: false });
        algorithms.push(Algorithm::Riffle { k: 7, cut: true });
        for alg in algorithms {
            for n in 2..=60usize {
                let mut batch = vec![0u32; 3 * n];
                alg.shuffle_batch(&mut batch, n, &mut rng, &mut scratch);
                for row in batch.chunks(n) {
                    assert!(is_permutation(row), "{alg} n={n}: {row:?}");
                }
            }
        }
    }
}

#[test]
fn every_algorithm_returns_a_permutation_under_every_source() {
    for kind in SourceKind::ALL {
        SourceSpec::from(kind).visit(42, AllArePermutations);
    }
}

#[test]
fn names_round_trip_through_parse() {
    for alg in Algorithm::ALL {
        assert_eq!(Algorithm::parse(&alg.to_string()).unwrap(), alg);
    }
    let merge = Algorithm::parse("sort-random-comparator:sort=merge").unwrap();
    assert_eq!(merge.to_string(), "sort-random-comparator:sort=merge");
    assert_eq!(merge.slug(), "sort-random-comparator_sort-merge");
    assert_eq!(
        Algorithm::parse("random-swap:k=100").unwrap(),
        Algorithm::RandomSwap { k: Some(100) }
    );
    let riffle = Algorithm::parse("riffle:k=7").unwrap();
    assert_eq!(riffle, Algorithm::Riffle { k: 7, cut: false });
    assert_eq!(riffle.to_string(), "riffle:k=7");
    assert_eq!(
        Algorithm::parse("riffle").unwrap(),
        Algorithm::Riffle { k: 1, cut: false }
    );
    let cut = Algorithm::parse("riffle:k=7,cut=true").unwrap();
    assert_eq!(cut, Algorithm::Riffle { k: 7, cut: true });
    assert_eq!(cut.to_string(), "riffle:k=7,cut=true");
    assert_eq!(cut.slug(), "riffle_k-7_cut-true");
    assert!(Algorithm::parse("riffle:cut=maybe").is_err());
}

#[test]
fn only_repeated_step_algorithms_take_a_step_count() {
    assert_eq!(
        Algorithm::Riffle { k: 1, cut: false }.with_k(7),
        Some(Algorithm::Riffle { k: 7, cut: false })
    );
    assert_eq!(
        Algorithm::RandomSwap { k: None }.with_k(3),
        Some(Algorithm::RandomSwap { k: Some(3) })
    );
    assert_eq!(Algorithm::FisherYates.with_k(3), None);
    // A final cut does not repeat with the riffles: no step count.
    assert_eq!(Algorithm::Riffle { k: 7, cut: true }.with_k(3), None);
    assert_eq!(Algorithm::Riffle { k: 7, cut: true }.record().steps, None);
}

#[test]
fn bad_algorithm_specs_name_the_problem() {
    let err = Algorithm::parse("bogo-sort").unwrap_err().to_string();
    assert!(err.contains("'bogo-sort'"), "{err}");
    let err = Algorithm::parse("random-swap:k=-1")
        .unwrap_err()
        .to_string();
    assert!(err.contains("'-1'"), "{err}");
    let err = Algorithm::parse("riffle:k=many").unwrap_err().to_string();
    assert!(err.contains("'many'"), "{err}");
    let err = Algorithm::parse("sort-random-comparator:sort=heap")
        .unwrap_err()
        .to_string();
    assert!(err.contains("'heap'"), "{err}");
    assert!(Algorithm::parse("fisher-yates:k=3").is_err());
}

/// A scripted source: replays fixed draws, to pin down each algorithm's exact
/// index arithmetic.
struct Script<'a>(std::iter::Copied<std::slice::Iter<'a, u32>>);

impl RandomSource for Script<'_> {
    fn below(&mut self, bound: u32) -> u32 {
        let v = self.0.next().expect("script exhausted");
        assert!(v < bound, "scripted {v} not below {bound}");
        v
    }
    fn bits32(&mut self) -> u32 {
        unreachable!("not used by these algorithms")
    }
}

fn run(alg: Algorithm, n: u32, draws: &[u32]) -> Vec<u32> {
    let mut a: Vec<u32> = (0..n).collect();
    let mut script = Script(draws.iter().copied());
    alg.shuffle(&mut a, &mut script);
    assert!(script.0.next().is_none(), "{alg} left draws unused");
    a
}

#[test]
fn algorithms_follow_their_definitions_on_scripted_draws() {
    // fisher-yates: i=3 j=0, i=2 j=2, i=1 j=0.
    assert_eq!(run(Algorithm::FisherYates, 4, &[0, 2, 0]), vec![1, 3, 2, 0]);
    // forward: i=0 offset 3 -> j=3, i=1 offset 0 -> j=1, i=2 offset 1 -> j=3.
    assert_eq!(
        run(Algorithm::FisherYatesForward, 4, &[3, 0, 1]),
        vec![3, 1, 0, 2]
    );
    assert_eq!(run(Algorithm::InsideOut, 3, &[0, 0, 1]), vec![1, 2, 0]);
    // original: strike index 2 of [0,1,2,3] -> 2; then index 0 of [0,1,3] -> 0; ...
    assert_eq!(
        run(Algorithm::FisherYatesOriginal, 4, &[2, 0, 1, 0]),
        vec![2, 0, 3, 1]
    );
    // pick-until-unused: 1, 1 (taken, redraw), 0, 2.
    assert_eq!(
        run(Algorithm::PickUntilUnused, 3, &[1, 1, 0, 2]),
        vec![1, 0, 2]
    );
    assert_eq!(run(Algorithm::NaiveSwap, 3, &[2, 2, 0]), vec![1, 0, 2]);
    assert_eq!(
        run(Algorithm::RandomSwap { k: Some(2) }, 3, &[0, 1, 2, 2]),
        vec![1, 0, 2]
    );
    // shrinking-range: i=0 k<3 -> 2; i=1 k<2 -> 0; i=2 k<1 -> 0.
    assert_eq!(run(Algorithm::ShrinkingRange, 3, &[2, 0, 0]), vec![0, 2, 1]);
    assert_eq!(run(Algorithm::Sattolo, 3, &[0, 0]), vec![1, 2, 0]);
    // insert-last: 2 ends at index 0, then 1 ends at index 2 (put back).
    assert_eq!(run(Algorithm::InsertLast, 3, &[0, 2, 1]), vec![2, 1, 0]);
    // top-to-random: 0 to index 2 -> [1,2,0]; 1 to 0 -> same; 1 to 1 -> [2,1,0].
    assert_eq!(run(Algorithm::TopToRandom, 3, &[2, 0, 1]), vec![2, 1, 0]);
    assert_eq!(run(Algorithm::Rotation, 4, &[1]), vec![1, 2, 3, 0]);
    // insertion with "less" answers: i=1 less (move), j=0 stops; i=2 not less.
    let insertion = Algorithm::SortRandomComparator {
        sort: ComparatorSort::Insertion,
    };
    assert_eq!(run(insertion, 3, &[1, 0]), vec![1, 0, 2]);
    // merge of [0] | [1,2]: sort [1,2] (right head 2 less? no -> [1,2]); merge:
    // right 1 less than left 0? yes -> 1; right 2 less than 0? no -> 0; rest 2.
    let merge = Algorithm::SortRandomComparator {
        sort: ComparatorSort::Merge,
    };
    assert_eq!(run(merge, 3, &[0, 1, 0]), vec![1, 0, 2]);
    // riffle: coins 1,0,1,0 cut after 2 -> [0,1] | [2,3]; below(4)=3 is not < 2:
    // right 2; below(3)=1 < 2: left 0; below(2)=1 not < 1: right 3; the right
    // packet is empty, so 1 follows without a draw.
    let one = [1, 0, 1, 0, 3, 1, 1];
    assert_eq!(
        run(Algorithm::Riffle { k: 1, cut: false }, 4, &one),
        vec![2, 0, 3, 1]
    );
    // A second riffle of [2,0,3,1]: coins 1,1,1,0 cut after 3 -> [2,0,3] | [1];
    // below(4)=3 is not < 3: right 1; then the left packet follows.
    let two = [&one[..], &[1, 1, 1, 0, 3]].concat();
    assert_eq!(
        run(Algorithm::Riffle { k: 2, cut: false }, 4, &two),
        vec![1, 2, 0, 3]
    );
    // The same riffle then a cut: below(4)=1 rotates [2,0,3,1] left by one.
    let cut = [&one[..], &[1]].concat();
    assert_eq!(
        run(Algorithm::Riffle { k: 1, cut: true }, 4, &cut),
        vec![0, 3, 1, 2]
    );
    // A cut of 0 leaves one packet: nothing to interleave, nothing drawn.
    assert_eq!(
        run(Algorithm::Riffle { k: 1, cut: false }, 3, &[0, 0, 0]),
        vec![0, 1, 2]
    );
}

/// The record is the one description of each algorithm: its facts must agree
/// with one another and with the code.
#[test]
fn records_are_consistent() {
    for alg in Algorithm::ALL {
        let r = alg.record();
        assert_eq!(r.name, alg.name());
        assert_ne!(r.expected, Expected::Unknown, "{alg}: built-ins are known");
        if r.exact == Exact::Replay(Leaves::Positional) {
            assert!(
                r.positional.is_some(),
                "{alg}: a positional count needs a plan"
            );
        }
        if matches!(r.exact, Exact::Stepwise) || r.steps.is_some() {
            assert!(alg.with_k(1).is_some(), "{alg}: steps need a step count");
            assert_eq!(alg.step_count(5).is_some(), r.steps.is_some(), "{alg}");
        }
        assert_eq!(
            r.draws == Draws::RawBits,
            matches!(r.exact, Exact::Unavailable(_)),
            "{alg}: only raw bits block enumeration"
        );
        for p in r.params {
            let value = if p.key == "cut" { "true" } else { "1" };
            let text = format!("{}:{}={value}", alg.name(), p.key);
            assert!(
                Algorithm::parse(&text).is_ok() || p.key == "sort",
                "{alg}: parameter {} is parsed",
                p.key
            );
        }
        assert!(r.uses_our_source());
    }
}

#[test]
fn loaders_are_expected_fair_once_their_size_covers_n() {
    let parse = |s: &str| Algorithm::parse(s).unwrap();
    for (name, n, fair) in [
        ("buffer-shuffle:b=100", 100, true),
        ("buffer-shuffle:b=99", 100, false),
        ("window-shuffle:w=100", 50, true),
        ("window-shuffle:w=10", 50, false),
        ("shard-shuffle:s=1", 50, true),
        ("shard-shuffle:s=50", 50, true),
        ("shard-shuffle:s=10", 50, false),
        ("fisher-yates", 50, true),
        ("naive-swap", 50, false),
    ] {
        let expected = parse(name).expected_at(n);
        assert_eq!(expected == Expected::Fair, fair, "{name} at n = {n}");
    }
}

use super::exact::MAX_EXACT_N;
use super::*;
use crate::error::ErrorKind;
use crate::source::{SourceSpec, SourceVisitor, StreamSource, Xoshiro256ppSource};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use std::collections::{BTreeMap, HashSet};

fn q(num: i64, den: i64) -> BigRational {
    BigRational::new(BigInt::from(num), BigInt::from(den))
}

fn subset(method: SubsetMethod, k: u32) -> Sampler {
    Sampler::Subset { method, k }
}

/// The kind of the error `result` must be.
fn kind<T: std::fmt::Debug>(result: Result<T>) -> ErrorKind {
    result.unwrap_err().kind()
}

/// Every k-subset of 0..n (or, when `ordered`, every ordered k-tuple of
/// distinct items), ascending, by hand (independent of the module).
fn tuples(n: u32, k: usize, ordered: bool) -> Vec<Vec<u32>> {
    fn go(n: u32, k: usize, ordered: bool, prefix: &mut Vec<u32>, all: &mut Vec<Vec<u32>>) {
        if prefix.len() == k {
            all.push(prefix.clone());
            return;
        }
        let start = prefix.last().filter(|_| !ordered).map_or(0, |&v| v + 1);
        for v in start..n {
            if !prefix.contains(&v) {
                prefix.push(v);
                go(n, k, ordered, prefix, all);
                prefix.pop();
            }
        }
    }
    let mut all = Vec::new();
    go(n, k, ordered, &mut Vec::new(), &mut all);
    all
}

fn fair_enumerable() -> Vec<SubsetMethod> {
    SubsetMethod::ALL
        .into_iter()
        .filter(|m| {
            let r = m.record();
            r.expected == Expected::Fair
                && r.exact != SamplerExact::Unavailable(record::REAL_UNIFORMS)
        })
        .collect()
}

const SMALL: [(usize, usize); 13] = [
    (1, 1),
    (2, 1),
    (2, 2),
    (3, 1),
    (3, 2),
    (4, 2),
    (5, 1),
    (5, 2),
    (5, 3),
    (6, 3),
    (7, 2),
    (7, 3),
    (7, 7),
];

#[test]
fn fair_samplers_are_exactly_uniform_over_subsets_and_ordered_tuples() {
    let mut ordered = Vec::new();
    for method in fair_enumerable() {
        for (n, k) in SMALL {
            let law = exact_subset_law(subset(method, k as u32), n).unwrap();
            let expected = tuples(n as u32, k, false);
            let got: Vec<Vec<u32>> = law.subsets().iter().map(|(s, _)| s.clone()).collect();
            assert_eq!(got, expected, "{method} n={n} k={k}: reachable subsets");
            let u = q(1, expected.len() as i64);
            for (s, p) in law.subsets() {
                assert_eq!(*p, u, "{method} n={n} k={k} subset {s:?}");
            }
            assert!(law.is_uniform(), "{method} n={n} k={k}");
            assert!(law.distance_to_uniform().is_zero());
            assert_eq!(law.total(), q(1, 1));
            if !method.record().ordered {
                continue;
            }
            let tuples_law = law.tuples().unwrap();
            let expected = tuples(n as u32, k, true);
            let got: Vec<Vec<u32>> = tuples_law.iter().map(|(t, _)| t.clone()).collect();
            assert_eq!(got, expected, "{method} n={n} k={k}: reachable tuples");
            let u = q(1, expected.len() as i64);
            assert!(
                tuples_law.iter().all(|(_, p)| *p == u),
                "{method} n={n} k={k}"
            );
            assert_eq!(law.is_uniform_ordered(), Some(true));
            ordered.push(method);
        }
    }
    ordered.dedup();
    assert_eq!(
        ordered,
        [
            SubsetMethod::PartialFisherYates,
            SubsetMethod::RetryDistinct,
            SubsetMethod::VirtualSwap
        ]
    );
    // Unordered samplers keep no tuples.
    let law = exact_subset_law(subset(SubsetMethod::Floyd, 2), 4).unwrap();
    assert!(law.tuples().is_none() && law.is_uniform_ordered().is_none());
}

#[test]
fn every_biased_sampler_is_not_uniform() {
    for method in SubsetMethod::ALL {
        if method.record().expected != Expected::Biased {
            continue;
        }
        // k = 2 of n = 4 shows every flaw (systematic needs k | n).
        let law = exact_subset_law(subset(method, 2), 4).unwrap();
        assert!(!law.is_uniform(), "{method}");
        assert!(law.distance_to_uniform() > BigRational::zero(), "{method}");
        assert_eq!(law.total(), q(1, 1), "{method}");
    }
}

#[test]
fn reservoir_off_by_one_keeps_the_first_k_items_too_rarely() {
    // Item i > k (1-based) enters with k/(i-1) and survives each later t
    // with (t-2)/(t-1): k/(N-1). The first k survive with (k-1)/(N-1).
    for (n, k) in [(2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 2)] {
        let law = exact_subset_law(subset(SubsetMethod::ReservoirOffByOne, k as u32), n).unwrap();
        let inclusion = law.inclusion();
        for (item, p) in inclusion.iter().enumerate() {
            let want = if item < k {
                q(k as i64 - 1, n as i64 - 1)
            } else {
                q(k as i64, n as i64 - 1)
            };
            assert_eq!(*p, want, "n={n} k={k} item {item}");
        }
        assert!(!law.is_uniform(), "n={n} k={k}");
    }
    // k = 1: the first item is always evicted by the second.
    let law = exact_subset_law(subset(SubsetMethod::ReservoirOffByOne, 1), 5).unwrap();
    assert!(law.probability(&[0]).is_zero());
}

#[test]
fn systematic_has_uniform_inclusion_but_only_n_over_k_subsets() {
    for (n, k) in [(4, 2), (6, 2), (6, 3), (8, 4), (6, 1), (6, 6)] {
        let law = exact_subset_law(subset(SubsetMethod::Systematic, k as u32), n).unwrap();
        assert!(law.inclusion().iter().all(|p| *p == q(k as i64, n as i64)));
        let step = (n / k) as u32;
        assert_eq!(law.subsets().len(), n / k, "n={n} k={k}");
        for (s, p) in law.subsets() {
            let start = s[0];
            let want: Vec<u32> = (0..k as u32).map(|t| start + t * step).collect();
            assert_eq!(*s, want);
            assert_eq!(*p, q(k as i64, n as i64));
        }
        // Uniform only when every subset is a systematic one (k = 1 or k = n).
        assert_eq!(law.is_uniform(), k == 1 || k == n, "n={n} k={k}");
    }
}

#[test]
fn bernoulli_trim_favours_the_items_scanned_first() {
    // By hand: a pass takes item 0 with 1/N, else item 1 with 1/N, ...;
    // a pass taking nothing is repeated. N = 2: {0} 2/3, {1} 1/3.
    let law = exact_subset_law(subset(SubsetMethod::BernoulliTrim, 1), 2).unwrap();
    assert_eq!(law.probability(&[0]), q(2, 3));
    assert_eq!(law.probability(&[1]), q(1, 3));
    // N = 3: (1/3, 2/9, 4/27) / (1 - 8/27) = 9/19, 6/19, 4/19.
    let law = exact_subset_law(subset(SubsetMethod::BernoulliTrim, 1), 3).unwrap();
    let got: Vec<BigRational> = (0..3).map(|i| law.probability(&[i])).collect();
    assert_eq!(got, [q(9, 19), q(6, 19), q(4, 19)]);
    assert_eq!(law.method(), SamplerExact::PassFolded);
    for (n, k) in [(4, 2), (5, 2), (5, 3), (6, 3)] {
        let law = exact_subset_law(subset(SubsetMethod::BernoulliTrim, k as u32), n).unwrap();
        assert_eq!(law.total(), q(1, 1));
        let inclusion = law.inclusion();
        let fair = q(k as i64, n as i64);
        assert!(
            inclusion[0] > fair && inclusion[n - 1] < fair,
            "n={n} k={k}"
        );
        assert!(
            inclusion.windows(2).all(|w| w[0] > w[1]),
            "n={n} k={k}: {inclusion:?}"
        );
    }
}

#[test]
fn bernoulli_trim_pass_folding_agrees_with_simulation() {
    // The folded law is a new method: check it against the kernel run under
    // a real generator (400k trials; every subset within 5 sigma).
    let (n, k) = (4, 2);
    let sampler = subset(SubsetMethod::BernoulliTrim, k);
    let law = exact_subset_law(sampler, n).unwrap();
    let trials = 400_000u32;
    let counts = simulate(sampler, n, trials, 11);
    for (s, p) in law.subsets() {
        let p = p.numer().to_string().parse::<f64>().unwrap()
            / p.denom().to_string().parse::<f64>().unwrap();
        let got = *counts.get(s).unwrap_or(&0);
        assert_binomial(got, trials, p, 5.0, &format!("{s:?}"));
    }
}

/// Asserts that `count` of `trials` is within `sigmas` binomial standard
/// deviations of `trials · p`.
fn assert_binomial(count: u64, trials: u32, p: f64, sigmas: f64, what: &str) {
    let want = p * f64::from(trials);
    let sigma = (f64::from(trials) * p * (1.0 - p)).sqrt();
    assert!(
        (count as f64 - want).abs() < sigmas * sigma,
        "{what}: {count} vs {want}"
    );
}

/// Counts the subsets (sorted) `sampler` returns over `trials` trials.
fn simulate(sampler: Sampler, n: usize, trials: u32, seed: u64) -> BTreeMap<Vec<u32>, u64> {
    let mut scratch = sampler.prepare(n, None).unwrap();
    let mut rng = Xoshiro256ppSource::for_stream(seed, 0);
    let mut out = Vec::new();
    let mut counts = BTreeMap::new();
    for _ in 0..trials {
        sampler.sample(n, &mut rng, &mut out, &mut scratch);
        out.sort_unstable();
        *counts.entry(out.clone()).or_insert(0u64) += 1;
    }
    counts
}

#[test]
fn linear_probe_favours_cyclic_neighbours() {
    // N = 4, k = 2: {a, a+1} gets 1/4 (2/4 + 1/4) = 3/16, {a, a+2} 1/8.
    let law = exact_subset_law(subset(SubsetMethod::LinearProbe, 2), 4).unwrap();
    for s in tuples(4, 2, false) {
        let adjacent = (s[1] - s[0]) % 2 == 1;
        let want = if adjacent { q(3, 16) } else { q(1, 8) };
        assert_eq!(law.probability(&s), want, "{s:?}");
    }
}

/// The naive swap run by hand on every one of the n^n draw sequences:
/// the count of each first-k tuple.
fn naive_swap_by_hand(n: usize, k: usize) -> BTreeMap<Vec<u32>, u64> {
    let mut counts = BTreeMap::new();
    for code in 0..n.pow(n as u32) {
        let mut a: Vec<u32> = (0..n as u32).collect();
        let mut c = code;
        for i in 0..n {
            a.swap(i, c % n);
            c /= n;
        }
        *counts.entry(a[..k].to_vec()).or_insert(0) += 1;
    }
    counts
}

#[test]
fn naive_swap_prefix_matches_the_naive_swap_run_by_hand() {
    for (n, k) in [(3, 1), (3, 2), (4, 1), (4, 2), (5, 2)] {
        let law = exact_subset_law(subset(SubsetMethod::NaiveSwapPrefix, k as u32), n).unwrap();
        let by_hand = naive_swap_by_hand(n, k);
        let total = n.pow(n as u32) as i64;
        let tuples = law.tuples().unwrap();
        assert_eq!(tuples.len(), by_hand.len());
        for ((t, p), (t2, c)) in tuples.iter().zip(&by_hand) {
            assert_eq!(t, t2);
            assert_eq!(*p, q(*c as i64, total), "n={n} k={k} {t:?}");
        }
        assert_eq!(law.is_uniform_ordered(), Some(false), "n={n} k={k}");
    }
    // Its first cell: 0 in 9 of 27 sequences, 1 in 10, 2 in 8.
    let law = exact_subset_law(subset(SubsetMethod::NaiveSwapPrefix, 1), 3).unwrap();
    let got: Vec<BigRational> = (0..3).map(|i| law.probability(&[i])).collect();
    assert_eq!(got, [q(9, 27), q(10, 27), q(8, 27)]);
}

#[test]
fn sample_range_makes_exactly_the_draws_of_reservoir() {
    for (n, k) in [(1, 1), (7, 3), (49, 6), (1000, 10)] {
        let mut a = Xoshiro256ppSource::for_stream(5, 1);
        let mut b = Xoshiro256ppSource::for_stream(5, 1);
        let (mut out_a, mut out_b) = (Vec::new(), Vec::new());
        let mut scratch = SamplerScratch::default();
        for _ in 0..500 {
            subset(SubsetMethod::Reservoir, k).sample(n, &mut a, &mut out_a, &mut scratch);
            subset(SubsetMethod::SampleRange, k).sample(n, &mut b, &mut out_b, &mut scratch);
            assert_eq!(out_a, out_b);
        }
    }
}

#[test]
fn leaf_counts_known_in_advance_are_the_counts_enumerated() {
    for method in SubsetMethod::ALL {
        if matches!(
            method,
            SubsetMethod::ReservoirSkip | SubsetMethod::BernoulliTrim
        ) {
            continue;
        }
        for (n, k) in [(1, 1), (3, 1), (4, 2), (5, 5), (6, 3), (6, 2)] {
            let sampler = subset(method, k);
            if sampler.check(n).is_err() {
                continue;
            }
            let law = exact_subset_law(sampler, n).unwrap();
            // A cap of leaves - 1 is refused before any work; leaves passes.
            let err = exact_subset_law_capped(sampler, n, law.leaves() - 1).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::TooCostly, "{sampler} n={n}");
            assert!(exact_subset_law_capped(sampler, n, law.leaves()).is_ok());
        }
    }
}

#[test]
fn exact_laws_refuse_what_they_cannot_do() {
    let skip = subset(SubsetMethod::ReservoirSkip, 2);
    let err = exact_subset_law(skip, 5).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.to_string().contains("bits64"), "{err}");
    let err = exact_subset_law(subset(SubsetMethod::ShufflePrefix, 3), 20).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooCostly);
    assert!(err.to_string().contains("2432902008176640000"), "{err}");
    let systematic = subset(SubsetMethod::Systematic, 1);
    assert_eq!(
        kind(exact_subset_law(systematic, MAX_EXACT_N + 1)),
        ErrorKind::TooCostly
    );
    // bernoulli-trim's cost is found as it goes, under the cap.
    let trim = subset(SubsetMethod::BernoulliTrim, 2);
    assert_eq!(
        kind(exact_subset_law_capped(trim, 6, 1000)),
        ErrorKind::TooCostly
    );
    let alias = Sampler::parse("alias").unwrap();
    assert_eq!(kind(exact_subset_law(alias, 3)), ErrorKind::Unsupported);
    let floyd = subset(SubsetMethod::Floyd, 1);
    assert_eq!(kind(exact_pick_law(floyd, &[1, 2])), ErrorKind::Unsupported);
    assert_eq!(
        kind(exact_pick_law_capped(alias, &[1, 99], 199)),
        ErrorKind::TooCostly
    );
    let law = exact_pick_law_capped(alias, &[1, 99], 200).unwrap();
    assert_eq!(law.leaves(), 200);
}

#[test]
fn weighted_picks_have_the_exact_laws_they_should() {
    let vectors: [&[u64]; 6] = [
        &[1],
        &[1, 99],
        &[3, 0, 5, 2],
        &[1, 2, 3, 4, 5, 6, 7],
        &[0, 7, 0],
        &[5, 5, 5],
    ];
    for name in ["weighted-prefix", "alias"] {
        let sampler = Sampler::parse(name).unwrap();
        for w in vectors {
            let law = exact_pick_law(sampler, w).unwrap();
            assert!(
                law.is_proportional(),
                "{name} {w:?}: {:?}",
                law.probabilities()
            );
        }
    }
    let off = Sampler::parse("weighted-off-by-one").unwrap();
    let law = exact_pick_law(off, &[1, 99]).unwrap();
    assert_eq!(law.probabilities(), [q(0, 1), q(1, 1)]);
    assert!(!law.is_proportional());
    // prefix [3, 3, 8, 10], r in 1..=10: 0 for r < 3, 2 for 3..=7, 3 for 8, 9 and
    // (no prefix above 10) the last index for r = 10.
    let law = exact_pick_law(off, &[3, 0, 5, 2]).unwrap();
    assert_eq!(law.probabilities(), [q(2, 10), q(0, 1), q(5, 10), q(3, 10)]);
}

#[test]
fn the_alias_table_is_built_in_exact_integers() {
    let table = WeightTable::new(&[1, 99]).unwrap();
    // Scaled by n = 2: p = [2, 198], W = 100: column 0 keeps 2/100, aliases 1.
    assert_eq!(table.alias_table(), (&[2u32, 100][..], &[1u32, 1][..]));
    let table = WeightTable::new(&[3, 0, 5, 2]).unwrap();
    let (keep, alias) = table.alias_table();
    // Every index gets exactly n·w[i] out of n·W over the columns.
    let n = 4u64;
    let mut mass = vec![0u64; 4];
    for c in 0..4 {
        mass[c] += u64::from(keep[c]);
        mass[alias[c] as usize] += u64::from(table.total() - keep[c]);
    }
    assert_eq!(mass, [3 * n, 0, 5 * n, 2 * n]);
}

#[test]
fn weights_are_checked() {
    assert_eq!(kind(WeightTable::new(&[])), ErrorKind::BadInput);
    assert_eq!(kind(WeightTable::new(&[0, 0])), ErrorKind::BadInput);
    let err = WeightTable::new(&[u64::from(u32::MAX), 1]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OutOfRange);
    assert!(err.to_string().contains("4294967296"), "{err}");
    let too_heavy = WeightTable::new(&[u64::MAX, u64::MAX]);
    assert_eq!(kind(too_heavy), ErrorKind::OutOfRange);
    let table = WeightTable::new(&[u64::from(u32::MAX) - 1, 1]).unwrap();
    assert_eq!(table.total(), u32::MAX);
    let prefix = Sampler::parse("weighted-prefix").unwrap();
    assert!(prefix.prepare(3, None).is_err());
    assert_eq!(
        kind(prefix.prepare(3, Some(&[1, 2]))),
        ErrorKind::OutOfRange
    );
    let scratch = prefix.prepare(2, Some(&[1, 2])).unwrap();
    assert!(scratch.weights().is_some());
    let err = subset(SubsetMethod::Floyd, 1)
        .prepare(2, Some(&[1, 2]))
        .unwrap_err();
    assert!(err.to_string().contains("takes no weights"), "{err}");
}

/// Runs every sampler on a real generator and checks each sample.
struct KernelsUnder;

impl SourceVisitor for KernelsUnder {
    type Output = ();

    fn visit<S: RandomSource, F: Fn(u64) -> S + Sync>(self, make: F) {
        let mut rng = make(0);
        // One scratch for everything: buffers must survive changes of n and
        // of sampler.
        let mut scratch = SamplerScratch::default();
        let mut out = Vec::new();
        let sizes = [
            (1, 1),
            (2, 1),
            (2, 2),
            (10, 1),
            (10, 5),
            (10, 10),
            (49, 6),
            (100, 99),
            (1000, 10),
            (1000, 1000),
            (7, 3),
        ];
        for method in SubsetMethod::ALL {
            for (n, k) in sizes {
                let sampler = subset(method, k);
                if sampler.check(n).is_err() {
                    assert!(method == SubsetMethod::Systematic && n % k as usize != 0);
                    continue;
                }
                let trials = if n >= 1000 { 50 } else { 300 };
                for _ in 0..trials {
                    sampler.sample(n, &mut rng, &mut out, &mut scratch);
                    check_sample(&out, n, k as usize, &sampler);
                }
            }
        }
        let board = Sampler::parse("minesweeper:w=30,h=16,m=99,method=virtual-swap").unwrap();
        let mut board_scratch = board.prepare(480, None).unwrap();
        for _ in 0..100 {
            board.sample(480, &mut rng, &mut out, &mut board_scratch);
            check_sample(&out, 480, 99, &board);
        }
        for name in ["weighted-prefix", "alias", "weighted-off-by-one"] {
            let sampler = Sampler::parse(name).unwrap();
            let weights = [0, 3, 0, 5, 1, 0];
            let mut s = sampler.prepare(6, Some(&weights)).unwrap();
            let mut seen = [0u32; 6];
            for _ in 0..2000 {
                sampler.sample(6, &mut rng, &mut out, &mut s);
                assert_eq!(out.len(), 1);
                seen[out[0] as usize] += 1;
            }
            if name == "weighted-off-by-one" {
                // prefix [0, 3, 3, 8, 9, 9]: r = W = 9 finds no prefix above
                // it and falls to the last index, whose weight is 0; index
                // 1 loses r = 0 (never drawn).
                assert!(seen[5] > 0 && seen[0] == 0 && seen[2] == 0, "{seen:?}");
            } else {
                for (i, &c) in seen.iter().enumerate() {
                    assert_eq!(c > 0, weights[i] > 0, "{name}: {seen:?}");
                }
            }
        }
    }
}

fn check_sample(out: &[u32], n: usize, k: usize, sampler: &Sampler) {
    assert_eq!(out.len(), k, "{sampler} n={n}");
    assert!(
        out.iter().all(|&v| (v as usize) < n),
        "{sampler} n={n}: {out:?}"
    );
    let distinct: HashSet<u32> = out.iter().copied().collect();
    assert_eq!(distinct.len(), k, "{sampler} n={n}: {out:?}");
}

#[test]
fn kernels_return_k_distinct_items_in_range_under_real_generators() {
    for name in ["xoshiro256pp", "chacha8"] {
        SourceSpec::parse(name).unwrap().visit(42, KernelsUnder);
    }
}

#[test]
fn reservoir_skip_includes_every_item_about_k_over_n_of_the_time() {
    // Not exactly enumerable: check its subset law by simulation instead.
    let (n, k) = (6, 2);
    let trials = 300_000u32;
    let counts = simulate(subset(SubsetMethod::ReservoirSkip, k), n, trials, 3);
    assert_eq!(counts.len(), 15);
    for (s, &c) in &counts {
        assert_binomial(c, trials, 1.0 / 15.0, 5.0, &format!("{s:?}"));
    }
    // Inclusion at n = 1000, k = 10 (skips are long there).
    let (n, k, trials) = (1000usize, 10u32, 100_000u32);
    let sampler = subset(SubsetMethod::ReservoirSkip, k);
    let mut scratch = SamplerScratch::default();
    let mut rng = Xoshiro256ppSource::for_stream(9, 0);
    let mut out = Vec::new();
    let mut hits = vec![0u64; n];
    for _ in 0..trials {
        sampler.sample(n, &mut rng, &mut out, &mut scratch);
        for &v in &out {
            hits[v as usize] += 1;
        }
    }
    for (item, &h) in hits.iter().enumerate() {
        assert_binomial(
            h,
            trials,
            f64::from(k) / n as f64,
            6.0,
            &format!("item {item}"),
        );
    }
}

#[test]
fn names_round_trip_and_typos_get_a_suggestion() {
    for sampler in Sampler::ALL {
        assert_eq!(Sampler::parse(&sampler.to_string()).unwrap(), sampler);
        assert_eq!(Sampler::parse(sampler.name()).unwrap(), sampler);
    }
    let s = Sampler::parse("reservoir:k=3").unwrap();
    assert_eq!(s, subset(SubsetMethod::Reservoir, 3));
    assert_eq!(s.to_string(), "reservoir:k=3");
    assert_eq!(s.slug(), "reservoir_k-3");
    assert_eq!(
        Sampler::parse("Partial_Fisher_Yates:k=2").unwrap(),
        subset(SubsetMethod::PartialFisherYates, 2)
    );
    let err = Sampler::parse("resevoir:k=3").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownName);
    assert!(
        err.to_string()
            .starts_with("unknown sampler 'resevoir': did you mean 'reservoir'?"),
        "{err}"
    );
    let err = Sampler::parse("flyod").unwrap_err().to_string();
    assert!(err.contains("did you mean 'floyd'?"), "{err}");
    assert_eq!(kind(Sampler::parse("reservoir:k=0")), ErrorKind::OutOfRange);
    assert!(Sampler::parse("reservoir:n=3").is_err());
    assert!(Sampler::parse("reservoir:k=x").is_err());
    let err = Sampler::parse("alias:k=2").unwrap_err().to_string();
    assert!(err.contains("takes no parameters"), "{err}");
}

#[test]
fn sizes_are_checked_with_clear_errors() {
    let floyd = subset(SubsetMethod::Floyd, 5);
    let err = floyd.check(4).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OutOfRange);
    assert!(
        err.to_string().contains("k = 5") && err.to_string().contains("n = 4"),
        "{err}"
    );
    assert!(floyd.check(5).is_ok());
    assert!(floyd.check(0).is_err());
    assert!(subset(SubsetMethod::Reservoir, 0).check(3).is_err());
    let err = subset(SubsetMethod::Systematic, 4).check(6).unwrap_err();
    assert!(err.to_string().contains("divide"), "{err}");
    assert!(subset(SubsetMethod::Systematic, 3).check(6).is_ok());
    assert!(Sampler::parse("alias").unwrap().check(3).is_ok());
}

#[test]
fn minesweeper_is_a_board_placed_by_any_k_of_n_sampler() {
    let default = Sampler::parse("minesweeper").unwrap();
    let board = default.board().unwrap();
    assert_eq!((board.w, board.h, board.m), (9, 9, 10));
    assert_eq!(board.method, SubsetMethod::ShufflePrefix);
    assert_eq!(default.population(), Some(81));
    assert_eq!(default.k(), 10);
    assert_eq!(
        default.to_string(),
        "minesweeper:w=9,h=9,m=10,method=shuffle-prefix"
    );
    let record = default.record();
    assert_eq!(record.shape, Shape::Board { w: 9, h: 9 });
    assert_eq!(record.expected, Expected::Fair);
    assert!(!record.ordered);
    assert_eq!(board.position(10), (1, 1));

    let small = Sampler::parse("minesweeper:w=3,h=2,m=2,method=floyd").unwrap();
    assert_eq!(small.record().shape, Shape::Board { w: 3, h: 2 });
    let law = exact_subset_law(small, 6).unwrap();
    assert!(law.is_uniform());
    assert!(small.check(5).is_err());
    let biased = Sampler::parse("minesweeper:w=2,h=2,m=2,method=linear-probe").unwrap();
    assert_eq!(biased.record().expected, Expected::Biased);
    assert!(!exact_subset_law(biased, 4).unwrap().is_uniform());
    let skip = Sampler::parse("minesweeper:method=reservoir-skip").unwrap();
    assert!(matches!(skip.record().exact, SamplerExact::Unavailable(_)));

    let err = Sampler::parse("minesweeper:w=3,h=3,m=10").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OutOfRange);
    assert!(err.to_string().contains("do not fit"), "{err}");
    let err = Sampler::parse("minesweeper:method=flyod").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownName);
    assert!(err.to_string().contains("did you mean 'floyd'?"), "{err}");
    for method in ["alias", "minesweeper"] {
        let err = Sampler::parse(&format!("minesweeper:method={method}")).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unsupported, "{err}");
        assert!(err.to_string().contains("k-of-N"), "{err}");
    }
    assert!(Sampler::parse("minesweeper:method=floyd:k=3").is_err());
    let err = Sampler::parse("minesweeper:w=3,h=3,m=2,method=systematic").unwrap_err();
    assert!(err.to_string().contains("divide"), "{err}");
    assert!(Sampler::parse("minesweeper:w=3,h=3,m=3,method=systematic").is_ok());
    assert!(Sampler::parse("minesweeper:w=0").is_err());
    assert!(Sampler::parse("minesweeper:k=3").is_err());
    let huge = Sampler::parse("minesweeper:w=100000,h=100000,m=1");
    assert_eq!(kind(huge), ErrorKind::OutOfRange);
}

#[test]
fn records_say_what_each_sampler_is() {
    let names: HashSet<&str> = Sampler::ALL.iter().map(|s| s.name()).collect();
    assert_eq!(names.len(), Sampler::ALL.len());
    for sampler in Sampler::ALL {
        let r = sampler.record();
        let raw = r.draws == Draws::RawBits;
        let unavailable = matches!(r.exact, SamplerExact::Unavailable(_));
        assert_eq!(raw, r.name == "reservoir-skip", "{sampler}");
        assert_eq!(unavailable, raw, "{sampler}");
        assert_eq!(sampler.expected_fair(), r.expected == Expected::Fair);
        assert!(!r.description.is_empty());
        // Every parameter's default parses back to the default sampler.
        let typed: Vec<String> = r
            .params
            .iter()
            .map(|p| format!("{}={}", p.key, p.default))
            .collect();
        if !typed.is_empty() {
            let text = format!("{}:{}", r.name, typed.join(","));
            assert_eq!(Sampler::parse(&text).unwrap(), sampler, "{text}");
        }
    }
    let ordered: Vec<&str> = Sampler::ALL
        .iter()
        .filter(|s| s.is_ordered())
        .map(|s| s.name())
        .collect();
    assert_eq!(
        ordered,
        [
            "partial-fisher-yates",
            "retry-distinct",
            "virtual-swap",
            "naive-swap-prefix"
        ]
    );
    let biased: Vec<&str> = Sampler::ALL
        .iter()
        .filter(|s| !s.expected_fair())
        .map(|s| s.name())
        .collect();
    assert_eq!(
        biased,
        [
            "reservoir-off-by-one",
            "bernoulli-trim",
            "systematic",
            "linear-probe",
            "naive-swap-prefix",
            "weighted-off-by-one"
        ]
    );
    assert_eq!(
        subset(SubsetMethod::RetryDistinct, 1).record().exact,
        SamplerExact::ReplayWithoutRepeats
    );
    assert_eq!(
        Sampler::parse("alias").unwrap().record().shape,
        Shape::Weighted
    );
}

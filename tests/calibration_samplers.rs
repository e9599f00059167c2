//! The sampler tests (`stats::sampling`) are calibrated: over thousands of
//! independent audits of a fair sampler their p-values are uniform (KS) and
//! they reject at 0.01 and at 0.001 as often as promised (binomial bands,
//! per setting and pooled over each test's settings, where the 0.001 tail
//! has enough audits to show a skewed law). And each catches the bias it is
//! for, where the others do not.
//!
//! The samplers are written here: a fair k-of-N sampler (partial
//! Fisher–Yates on a persistent array, so each trial costs O(k)), a fair
//! weighted pick (inverse CDF), and the biased ones. Everything is seeded
//! (xoshiro256++) and deterministic.
//!
//! The settings sit a small multiple above the fewest trials each test
//! accepts, where the law is least accurate (at the boundary itself the
//! module docs of `stats::sampling::law` report 10⁶-audit figures).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use shuffle_audit::stats::sampling::{
    self, Method, NotApplicable, SamplingTest, pair_index, subset_rank,
};
use shuffle_audit::stats::special::{binomial_band, ks_uniform};

/// Fair audits per setting.
const AUDITS: u64 = 10_000;
/// The levels whose rejection counts are checked.
const LEVELS: [f64; 2] = [0.01, 0.001];
/// Band level of every count check: a correct law fails it once in 1,000.
const BAND: f64 = 0.999;
/// Level of the KS check on the p-values themselves.
const KS_LEVEL: f64 = 0.001;

fn below(rng: &mut Xoshiro256PlusPlus, m: usize) -> usize {
    // Multiply-shift on 64 bits: bias below m / 2^64.
    ((rng.next_u64() as u128 * m as u128) >> 64) as usize
}

/// How a k-of-N sampler goes about it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Sampler {
    /// Partial Fisher–Yates: a uniform k-arrangement.
    Fair,
    /// Reservoir sampling (algorithm R) drawing j from [0, i) where it
    /// should be [0, i]: item i ≥ k ends up in the sample with probability
    /// k/(N−1), items below k with (k−1)/(N−1), instead of k/N.
    ReservoirOffByOne,
    /// Systematic sampling: s uniform on [0, N/k), then s, s + N/k, ...
    /// Every item is in with probability exactly k/N; pairs are not.
    Systematic,
    /// A fair subset, returned sorted: fair as a subset, not as an order.
    Sorted,
}

/// One audit's counts.
struct Tally {
    inclusion: Vec<u64>,
    pairs: Vec<u64>,
    slots: Vec<u64>,
    subsets: Vec<u64>,
}

/// What to count besides inclusions.
#[derive(Clone, Copy, Default)]
struct Collect {
    pairs: bool,
    slots: bool,
    subsets: bool,
}

fn run(sampler: Sampler, n: usize, k: usize, trials: u64, collect: Collect, seed: u64) -> Tally {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut items: Vec<usize> = (0..n).collect();
    let mut out = vec![0usize; k];
    let mut sorted = vec![0usize; k];
    let cells = if collect.subsets {
        sampling::binomial(n, k).unwrap() as usize
    } else {
        0
    };
    let mut t = Tally {
        inclusion: vec![0; n],
        pairs: vec![0; if collect.pairs { n * (n - 1) / 2 } else { 0 }],
        slots: vec![0; if collect.slots { k * n } else { 0 }],
        subsets: vec![0; cells],
    };
    for _ in 0..trials {
        match sampler {
            Sampler::Fair | Sampler::Sorted => {
                // Any arrangement of `items` will do: the first k slots
                // receive a uniform k-arrangement whatever the order.
                for s in 0..k {
                    let j = s + below(&mut rng, n - s);
                    items.swap(s, j);
                }
                out.copy_from_slice(&items[..k]);
                if sampler == Sampler::Sorted {
                    out.sort_unstable();
                }
            }
            Sampler::ReservoirOffByOne => {
                for (s, o) in out.iter_mut().enumerate() {
                    *o = s;
                }
                for i in k..n {
                    let j = below(&mut rng, i); // should be below(i + 1)
                    if j < k {
                        out[j] = i;
                    }
                }
            }
            Sampler::Systematic => {
                let step = n / k;
                let start = below(&mut rng, step);
                for (s, o) in out.iter_mut().enumerate() {
                    *o = start + s * step;
                }
            }
        }
        for (s, &v) in out.iter().enumerate() {
            t.inclusion[v] += 1;
            if collect.slots {
                t.slots[s * n + v] += 1;
            }
        }
        if collect.pairs || collect.subsets {
            sorted.copy_from_slice(&out);
            sorted.sort_unstable();
            if collect.pairs {
                for a in 0..k {
                    for b in a + 1..k {
                        t.pairs[pair_index(n, sorted[a], sorted[b])] += 1;
                    }
                }
            }
            if collect.subsets {
                t.subsets[subset_rank(&sorted) as usize] += 1;
            }
        }
    }
    t
}

/// Weighted picks: the fair inverse CDF (r uniform on [0, W), the first i
/// with prefix[i] > r), or the off-by-one one (r uniform on [1, W], the
/// first i with prefix[i] > r, else the last).
fn picks(weights: &[u64], trials: u64, off_by_one: bool, seed: u64) -> Vec<u64> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let prefix: Vec<u64> = weights
        .iter()
        .scan(0u64, |acc, &w| {
            *acc += w;
            Some(*acc)
        })
        .collect();
    let total = *prefix.last().unwrap() as usize;
    let mut counts = vec![0u64; weights.len()];
    for _ in 0..trials {
        let r = if off_by_one {
            1 + below(&mut rng, total) as u64
        } else {
            below(&mut rng, total) as u64
        };
        let i = prefix.partition_point(|&p| p <= r).min(weights.len() - 1);
        counts[i] += 1;
    }
    counts
}

fn p_value(r: Result<SamplingTest, NotApplicable>, what: &str) -> f64 {
    match r {
        Ok(t) => 10f64.powf(t.log10_p),
        Err(e) => panic!("{what}: {e}"),
    }
}

/// Seeds of the fair audits of one setting: disjoint across tests and
/// settings.
fn seeds(test: u64, setting: u64) -> impl ParallelIterator<Item = u64> {
    (0..AUDITS)
        .into_par_iter()
        .map(move |a| (test << 48) ^ (setting << 32) ^ a)
}

/// Asserts the p-values of one setting look uniform, and returns them.
fn assert_calibrated(label: &str, p: Vec<f64>) -> Vec<f64> {
    check(label, p, false)
}

/// As [`assert_calibrated`], for the sequential Monte Carlo p-values of
/// sparse tables: those are discrete and conservative by construction
/// (P(p ≤ u) ≤ u, ties counted against the data), which a KS test of
/// uniformity sees at 10,000 audits. So instead of KS: at no level u is
/// P(p ≤ u) above the upper end of its binomial band.
fn assert_valid(label: &str, p: Vec<f64>) -> Vec<f64> {
    check(label, p, true)
}

fn check(label: &str, p: Vec<f64>, discrete: bool) -> Vec<f64> {
    let ks = ks_uniform(&p);
    let mut line = format!("{label}: KS D = {:.4}, p = {:.3}", ks.statistic, ks.p_value);
    let mut failures = Vec::new();
    for alpha in LEVELS {
        let rejections = p.iter().filter(|&&x| x <= alpha).count() as u64;
        let (lo, hi) = binomial_band(p.len() as u64, alpha, BAND);
        line += &format!("; p <= {alpha}: {rejections} (band {lo}..={hi})");
        if !(lo..=hi).contains(&rejections) {
            failures.push(format!(
                "{rejections} rejections at {alpha}, outside {lo}..={hi}"
            ));
        }
    }
    println!("{line}");
    if discrete {
        for u in [0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9] {
            let below = p.iter().filter(|&&x| x <= u).count() as u64;
            let (_, hi) = binomial_band(p.len() as u64, u, BAND);
            if below > hi {
                failures.push(format!("{below} p-values <= {u}, above {hi}"));
            }
        }
    } else {
        assert!(
            ks.p_value > KS_LEVEL,
            "{label}: p-values not uniform: {ks:?}"
        );
    }
    assert!(failures.is_empty(), "{label}: {failures:?}");
    p
}

/// The tail check pooled over a test's settings.
fn assert_pooled_tails(label: &str, all: &[Vec<f64>]) {
    let pooled: Vec<f64> = all.iter().flatten().copied().collect();
    for alpha in LEVELS {
        let rejections = pooled.iter().filter(|&&x| x <= alpha).count() as u64;
        let (lo, hi) = binomial_band(pooled.len() as u64, alpha, BAND);
        println!(
            "{label}, pooled over {} audits: p <= {alpha}: {rejections} (expected {:.0}, band {lo}..={hi})",
            pooled.len(),
            pooled.len() as f64 * alpha
        );
        assert!(
            (lo..=hi).contains(&rejections),
            "{label}: {rejections} pooled rejections at {alpha}, outside {lo}..={hi}"
        );
    }
}

const INCLUSION_ONLY: Collect = Collect {
    pairs: false,
    slots: false,
    subsets: false,
};

#[test]
fn inclusion_is_calibrated() {
    // (N, k, T): about 2.4× the fewest trials the law accepts; k = 1 is
    // sparse (2 per item) and goes to the Monte Carlo p-value.
    let settings = [(10, 3, 40), (50, 5, 150), (20, 10, 60), (30, 1, 60)];
    let all: Vec<Vec<f64>> = settings
        .iter()
        .enumerate()
        .map(|(i, &(n, k, trials))| {
            let p = seeds(1, i as u64)
                .map(|seed| {
                    let t = run(Sampler::Fair, n, k, trials, INCLUSION_ONLY, seed);
                    p_value(
                        sampling::inclusion(&t.inclusion, trials, k, seed),
                        "inclusion",
                    )
                })
                .collect();
            let label = format!("inclusion N = {n}, k = {k}, T = {trials}");
            if k == 1 {
                assert_valid(&label, p)
            } else {
                assert_calibrated(&label, p)
            }
        })
        .collect();
    assert_pooled_tails("inclusion", &all);
}

#[test]
fn pairs_are_calibrated() {
    // 1.3× to 2.1× the fewest trials the law accepts.
    let settings = [(10, 3, 250), (20, 4, 320), (30, 10, 120), (20, 2, 1_250)];
    let collect = Collect {
        pairs: true,
        ..INCLUSION_ONLY
    };
    let all: Vec<Vec<f64>> = settings
        .iter()
        .enumerate()
        .map(|(i, &(n, k, trials))| {
            let p = seeds(2, i as u64)
                .map(|seed| {
                    let t = run(Sampler::Fair, n, k, trials, collect, seed);
                    p_value(sampling::pairs(&t.pairs, n, trials, k), "pairs")
                })
                .collect();
            assert_calibrated(&format!("pairs N = {n}, k = {k}, T = {trials}"), p)
        })
        .collect();
    assert_pooled_tails("pairs", &all);
}

#[test]
fn order_is_calibrated() {
    // 2× the fewest trials the law accepts; k = N is the position-by-value
    // test of a shuffle.
    let settings = [(10, 3, 150), (20, 5, 200), (6, 6, 152), (50, 5, 500)];
    let collect = Collect {
        slots: true,
        ..INCLUSION_ONLY
    };
    let all: Vec<Vec<f64>> = settings
        .iter()
        .enumerate()
        .map(|(i, &(n, k, trials))| {
            let p = seeds(3, i as u64)
                .map(|seed| {
                    let t = run(Sampler::Fair, n, k, trials, collect, seed);
                    p_value(sampling::order(&t.slots, n, k, trials), "order")
                })
                .collect();
            assert_calibrated(&format!("order N = {n}, k = {k}, T = {trials}"), p)
        })
        .collect();
    assert_pooled_tails("order", &all);
}

#[test]
fn whole_subsets_are_calibrated() {
    // 20 subsets, 10 expected each: chi-square. 210 subsets, 1.4 expected:
    // sequential Monte Carlo. 924 subsets, 2.2 expected, too many trials to
    // simulate: the collision count's moment-matched law.
    let settings = [(6, 3, 200), (10, 4, 300), (12, 6, 2_000)];
    let collect = Collect {
        subsets: true,
        ..INCLUSION_ONLY
    };
    let all: Vec<Vec<f64>> = settings
        .iter()
        .enumerate()
        .map(|(i, &(n, k, trials))| {
            let p = seeds(4, i as u64)
                .map(|seed| {
                    let t = run(Sampler::Fair, n, k, trials, collect, seed);
                    p_value(sampling::subset(&t.subsets, n, k, seed), "subset")
                })
                .collect();
            let label = format!("subset N = {n}, k = {k}, T = {trials}");
            if i == 1 {
                assert_valid(&label, p)
            } else {
                assert_calibrated(&label, p)
            }
        })
        .collect();
    assert_pooled_tails("subset", &all);
}

#[test]
fn weighted_picks_are_calibrated() {
    // Pearson's statistic needs more picks than five per item before its
    // tails are those of its law (see stats::sampling::weighted): these sit
    // 1.06× to 1.2× the fewest the test accepts.
    let skewed: Vec<u64> = (1..=40).collect();
    let settings: [(&[u64], u64); 3] = [
        (&[3, 1, 4, 1, 5, 9, 2, 6], 2_000),
        // Zero weights.
        (&[0, 5, 1, 0, 20, 3, 1, 50, 0, 2], 9_000),
        // The light items pool (about 2 expected each).
        (&skewed, 1_700),
    ];
    let all: Vec<Vec<f64>> = settings
        .iter()
        .enumerate()
        .map(|(i, &(weights, trials))| {
            let p = seeds(5, i as u64)
                .map(|seed| {
                    let counts = picks(weights, trials, false, seed);
                    p_value(sampling::weighted(&counts, weights), "weighted")
                })
                .collect();
            assert_calibrated(
                &format!("weighted {} items, T = {trials}", weights.len()),
                p,
            )
        })
        .collect();
    assert_pooled_tails("weighted", &all);
}

#[test]
fn weighted_picks_of_a_rare_item_are_calibrated_by_the_exact_tail() {
    // Where a rare item's term keeps the statistic's tail from its law's
    // (weights 1, 99 below 139,020 picks), the p-value is exact over the
    // rarest groups: valid at every level, the verdicts' tails included.
    // Settings from 20 to 200 expected picks of the rarest item, and two
    // rare groups beside a common one.
    let settings: [(&[u64], u64, u64); 4] = [
        (&[1, 99], 2_000, 100_000),
        (&[1, 9], 1_000, 100_000),
        (&[1, 2, 200], 1_500, 100_000),
        (&[1, 99], 20_000, 20_000),
    ];
    for (i, &(weights, trials, audits)) in settings.iter().enumerate() {
        let p: Vec<f64> = (0..audits)
            .into_par_iter()
            .map(|a| {
                let counts = picks(weights, trials, false, (7 << 48) ^ ((i as u64) << 32) ^ a);
                let t = sampling::weighted(&counts, weights).unwrap();
                assert!(matches!(t.method, Method::Exact { .. }), "{:?}", t.method);
                t.p_value()
            })
            .collect();
        let mut line = format!("weighted {weights:?}, T = {trials}, {audits} audits");
        for alpha in [0.01, 0.001, 1e-4] {
            let rejections = p.iter().filter(|&&x| x <= alpha).count() as u64;
            let (lo, hi) = binomial_band(audits, alpha, BAND);
            line += &format!("; p <= {alpha}: {rejections} (band {lo}..={hi})");
            // Exact and discrete: never above the band; below it only as a
            // discrete test is (conservative), checked at 0.01 where the
            // lattice is fine.
            assert!(rejections <= hi, "{line}");
            if alpha == 0.01 {
                assert!(rejections >= lo, "{line}");
            }
        }
        println!("{line}");
    }
}

/// p-values of `audits` audits of `sampler` by `test`.
fn biased(
    sampler: Sampler,
    (n, k, trials): (usize, usize, u64),
    audits: u64,
    collect: Collect,
    test: impl Fn(&Tally) -> Result<SamplingTest, NotApplicable> + Sync,
) -> Vec<f64> {
    (0..audits)
        .into_par_iter()
        .map(|seed| {
            p_value(
                test(&run(sampler, n, k, trials, collect, 900 + seed)),
                "biased",
            )
        })
        .collect()
}

#[test]
fn inclusion_catches_an_off_by_one_reservoir() {
    // N = 20, k = 5: items 0..5 in with probability 4/19, the others 5/19,
    // instead of 1/4.
    let (n, k, trials) = (20, 5, 5_000);
    let p = biased(
        Sampler::ReservoirOffByOne,
        (n, k, trials),
        20,
        INCLUSION_ONLY,
        |t| sampling::inclusion(&t.inclusion, trials, k, 1),
    );
    let worst = p.iter().copied().fold(0.0, f64::max);
    println!("off-by-one reservoir, inclusion: largest p of 20 audits {worst:.2e}");
    assert!(worst < 1e-10, "{p:?}");
}

#[test]
fn pairs_catch_systematic_sampling_where_inclusion_does_not() {
    // N = 20, k = 2: start s uniform on 0..10, sample {s, s + 10}.
    let (n, k, trials) = (20, 2, 2_000);
    let audits = 200;
    let collect = Collect {
        pairs: true,
        ..INCLUSION_ONLY
    };
    let pairs = biased(Sampler::Systematic, (n, k, trials), audits, collect, |t| {
        sampling::pairs(&t.pairs, n, trials, k)
    });
    let inclusion = biased(Sampler::Systematic, (n, k, trials), audits, collect, |t| {
        sampling::inclusion(&t.inclusion, trials, k, 1)
    });
    let worst = pairs.iter().copied().fold(0.0, f64::max);
    let caught = inclusion.iter().filter(|&&p| p <= 0.01).count() as u64;
    println!(
        "systematic: pairs' largest p of {audits} audits {worst:.2e}; inclusion rejected {caught} of {audits} at 0.01"
    );
    assert!(worst < 1e-10, "pairs missed systematic sampling");
    // Every item is in exactly k/N of the time. The inclusion counts are
    // over-dispersed (the two items of a start move together: Q is about
    // 2.1·χ²(9) instead of χ²(19)), so the inclusion test rejects a little
    // more than 1% of the time (about 5%), far from catching it.
    assert!(caught <= audits / 8, "{caught} of {audits}");
}

#[test]
fn order_catches_sorted_output_where_inclusion_does_not() {
    let (n, k, trials) = (10, 3, 300);
    let collect = Collect {
        slots: true,
        ..INCLUSION_ONLY
    };
    let order = biased(Sampler::Sorted, (n, k, trials), 1_000, collect, |t| {
        sampling::order(&t.slots, n, k, trials)
    });
    let worst = order.iter().copied().fold(0.0, f64::max);
    println!("sorted output: order's largest p of 1000 audits {worst:.2e}");
    assert!(worst < 1e-10);
    // The subsets are fair: the inclusion test's p-values stay uniform.
    let inclusion = biased(Sampler::Sorted, (n, k, trials), 1_000, collect, |t| {
        sampling::inclusion(&t.inclusion, trials, k, 1)
    });
    let ks = ks_uniform(&inclusion);
    println!("sorted output: inclusion p-values KS p = {:.3}", ks.p_value);
    assert!(ks.p_value > KS_LEVEL);
}

#[test]
fn the_whole_subset_test_catches_systematic_sampling() {
    // N = 8, k = 2: only 4 of the 28 subsets ever appear.
    let (n, k, trials) = (8, 2, 280);
    let collect = Collect {
        subsets: true,
        ..INCLUSION_ONLY
    };
    let p = biased(Sampler::Systematic, (n, k, trials), 20, collect, |t| {
        sampling::subset(&t.subsets, n, k, 1)
    });
    let worst = p.iter().copied().fold(0.0, f64::max);
    println!("systematic, whole subsets: largest p of 20 audits {worst:.2e}");
    assert!(worst < 1e-10);
}

#[test]
fn weighted_catches_the_off_by_one_pick() {
    // Blunt: weights 3, 1, 4, ...: item 0 gets 2/31 instead of 3/31, the
    // last 7/31 instead of 6/31.
    let blunt = [3u64, 1, 4, 1, 5, 9, 2, 6];
    // Subtle: the same shape ×10: 29/310 instead of 30/310 (3% relative).
    let subtle = blunt.map(|w| w * 10);
    for (weights, trials) in [(&blunt, 20_000u64), (&subtle, 1_000_000)] {
        let worst = (0..20u64)
            .into_par_iter()
            .map(|seed| {
                let counts = picks(weights, trials, true, 500 + seed);
                p_value(sampling::weighted(&counts, weights), "weighted")
            })
            .reduce(|| 0.0, f64::max);
        println!(
            "off-by-one pick, weights {weights:?}, T = {trials}: largest p of 20 audits {worst:.2e}"
        );
        assert!(worst < 1e-6, "{weights:?}: {worst}");
    }
    // A rare item never drawn (weights 1, 99: the bug never picks item 0)
    // is caught where the law's tail is not yet to be trusted: at the
    // 2,070 picks `power` plans (Pearson's statistic is two-sided, so 0
    // of 20.7 weighs as much as 42), and at 10,000, far below every level.
    for (trials, level) in [(2_070u64, 1e-3), (10_000, 1e-12)] {
        let counts = picks(&[1, 99], trials, true, 3);
        assert_eq!(counts[0], 0);
        let t = sampling::weighted(&counts, &[1, 99]).unwrap();
        assert!(t.p_value() < level, "T = {trials}: {t:?}");
        assert!(matches!(t.method, Method::Exact { groups: 1, .. }), "{t:?}");
    }
    // With a zero weight last, the bug picks it (r = W): p = 0 exactly.
    let weights = [2u64, 0, 3, 0];
    let counts = picks(&weights, 1_000, true, 1);
    assert!(counts[3] > 0);
    let t = sampling::weighted(&counts, &weights).unwrap();
    assert_eq!(t.log10_p, f64::NEG_INFINITY);
    assert!(matches!(&t.method, Method::Impossible { items, .. } if items == &[3]));
    println!("zero weight last: {}", t.describe());
    // The fair pick never does.
    let fair = picks(&weights, 100_000, false, 1);
    assert_eq!((fair[1], fair[3]), (0, 0));
}

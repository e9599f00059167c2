//! Exact mode: known laws found exactly, marginal propagation against full
//! enumeration, the Monte Carlo engine against the exact marginals, and the
//! refusals.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use shuffle_audit::audit::{Kind, Spec};
use shuffle_audit::exact::{self, DEFAULT_MAX_LEAVES, ExactLaw, Method};
use shuffle_audit::shuffle::{Algorithm, ComparatorSort, ShuffleOptions, Shuffles, TestSet};
use shuffle_audit::source::{SourceKind, SourceSpec};

fn q(num: u64, den: u64) -> BigRational {
    BigRational::new(BigInt::from(num), BigInt::from(den))
}

fn factorial(n: u64) -> u64 {
    (2..=n).product()
}

fn law(alg: Algorithm, n: usize, kind: SourceKind) -> ExactLaw {
    exact::enumerate(alg, n, kind.into(), DEFAULT_MAX_LEAVES).unwrap()
}

const IDEAL: SourceKind = SourceKind::Chacha8;
const RAND15: SourceKind = SourceKind::Rand15Mod;

/// Algorithms that [`exact::marginals`] propagates, with a non-default
/// parameter too.
fn propagatable() -> Vec<Algorithm> {
    let mut algs: Vec<Algorithm> = Algorithm::ALL
        .into_iter()
        .filter(|&a| exact::can_propagate(a))
        .collect();
    algs.push(Algorithm::RandomSwap { k: Some(2) });
    algs
}

#[test]
fn the_fisher_yates_family_is_exactly_uniform() {
    for alg in [
        Algorithm::FisherYates,
        Algorithm::FisherYatesForward,
        Algorithm::InsideOut,
        Algorithm::FisherYatesOriginal,
        Algorithm::PickUntilUnused,
    ] {
        for n in 2..=6usize {
            let law = law(alg, n, IDEAL);
            assert_eq!(
                law.support_size() as u64,
                factorial(n as u64),
                "{alg} n={n}"
            );
            let uniform = q(1, factorial(n as u64));
            assert!(law.iter().all(|(_, p)| *p == uniform), "{alg} n={n}");
            assert!(law.is_uniform() && law.tv_to_uniform_exact().is_zero());
            assert_eq!(law.marginals().exactly_uniform(), Some(true));
            assert_eq!(law.marginals().max_deviation(), 0.0);
            assert!(law.total_is_one());
        }
    }
}

#[test]
fn naive_swap_at_3_is_4_5_5_5_4_4_out_of_27() {
    let law = law(Algorithm::NaiveSwap, 3, IDEAL);
    let got: Vec<(Vec<u32>, BigRational)> =
        law.iter().map(|(p, w)| (p.to_vec(), w.clone())).collect();
    let expected = vec![
        (vec![0, 1, 2], q(4, 27)),
        (vec![0, 2, 1], q(5, 27)),
        (vec![1, 0, 2], q(5, 27)),
        (vec![1, 2, 0], q(5, 27)),
        (vec![2, 0, 1], q(4, 27)),
        (vec![2, 1, 0], q(4, 27)),
    ];
    assert_eq!(got, expected);
    assert_eq!(law.leaves(), 27);
    assert_eq!(law.method(), Method::Enumerated);
    // TV = 3 * (5/27 - 1/6) = 1/18.
    assert_eq!(*law.tv_to_uniform_exact(), q(1, 18));
    assert!((law.tv_to_uniform() - 1.0 / 18.0).abs() < 1e-15);
    assert_eq!(law.probability(&[1, 2, 0]), q(5, 27));
    assert_eq!(law.probability_f64(&[0, 1, 2]), 4.0 / 27.0);
    assert_eq!(law.probability(&[0, 0, 0]), BigRational::zero());
    assert_eq!(law.levels(), vec![(q(5, 27), 3), (q(4, 27), 3)]);
    assert_eq!(law.ranked()[0].0, &[0, 2, 1]);
    let m = law.marginals();
    assert_eq!(m.exactly_uniform(), Some(false));
    // Value 0 stays at position 0 with probability 4/27+5/27 = 1/3; value 1
    // at position 0: 5/27 + 5/27 = 10/27, the largest deviation 10/9 - 1.
    assert_eq!(m.exact(0, 1), Some(&q(10, 27)));
    assert_eq!(m.max_deviation_exact(), Some(&q(1, 9)));
}

/// Whether `perm` is a single cycle through all of its positions.
fn is_n_cycle(perm: &[u32]) -> bool {
    let mut at = 0usize;
    for step in 1..=perm.len() {
        at = perm[at] as usize;
        if at == 0 {
            return step == perm.len();
        }
    }
    false
}

#[test]
fn sattolo_spreads_its_mass_evenly_over_the_n_cycles() {
    for n in 2..=6usize {
        let law = law(Algorithm::Sattolo, n, IDEAL);
        let cycles = factorial(n as u64 - 1);
        assert_eq!(law.support_size() as u64, cycles, "n={n}");
        assert!(
            law.iter()
                .all(|(perm, p)| is_n_cycle(perm) && *p == q(1, cycles))
        );
        // Every value moves: never a fixed point.
        let m = law.marginals();
        assert!((0..n).all(|i| m.probability(i, i) == 0.0));
    }
}

#[test]
fn rotation_has_uniform_marginals_and_tv_one_minus_one_over_n_minus_1_factorial() {
    for n in 2..=7usize {
        let law = law(Algorithm::Rotation, n, IDEAL);
        assert_eq!(law.support_size(), n);
        assert_eq!(law.marginals().exactly_uniform(), Some(true), "n={n}");
        let expected = BigRational::one() - q(1, factorial(n as u64 - 1));
        assert_eq!(*law.tv_to_uniform_exact(), expected, "n={n}");
        assert_eq!(law.is_uniform(), n == 2);
    }
    // Large n is cheap for rotation: n leaves.
    let law = law(Algorithm::Rotation, 52, IDEAL);
    assert_eq!(law.marginals().exactly_uniform(), Some(true));
    assert_eq!(law.tv_to_uniform(), 1.0);
    assert!(*law.tv_to_uniform_exact() < BigRational::one());
}

#[test]
fn merge_sort_with_a_coin_comparator_at_4_has_uniform_marginals_but_not_a_uniform_law() {
    let merge = Algorithm::SortRandomComparator {
        sort: ComparatorSort::Merge,
    };
    let law = law(merge, 4, IDEAL);
    assert_eq!(law.marginals().exactly_uniform(), Some(true));
    assert!(!law.is_uniform());
    // A third of the 24 permutations are twice as likely as the others.
    assert_eq!(law.levels(), vec![(q(1, 16), 8), (q(1, 32), 16)]);
    assert_eq!(*law.tv_to_uniform_exact(), q(1, 6));
    // Insertion sort is not even uniform in its marginals.
    let insertion = law_of_insertion(4);
    assert_eq!(insertion.marginals().exactly_uniform(), Some(false));
    // Under rand15-mod a coin is exactly fair (32768 is even): same law.
    let under_rand15 = exact::enumerate(merge, 4, RAND15.into(), 1000).unwrap();
    assert!(law.iter().eq(under_rand15.iter()));
}

fn law_of_insertion(n: usize) -> ExactLaw {
    law(
        Algorithm::SortRandomComparator {
            sort: ComparatorSort::Insertion,
        },
        n,
        IDEAL,
    )
}

#[test]
fn propagated_marginals_equal_the_enumerated_ones_exactly() {
    for kind in [IDEAL, RAND15] {
        for alg in propagatable() {
            let n = 5;
            let enumerated = law(alg, n, kind);
            let propagated = exact::marginals(alg, n, kind.into()).unwrap();
            assert_eq!(propagated.method(), Method::Propagated);
            assert!(propagated.is_exact());
            for p in 0..n {
                for v in 0..n {
                    assert_eq!(
                        propagated.exact(p, v),
                        enumerated.marginals().exact(p, v),
                        "{alg} {kind:?} at ({p},{v})"
                    );
                }
            }
            assert_eq!(
                propagated.max_deviation_exact(),
                enumerated.marginals().max_deviation_exact()
            );
            assert_eq!(
                propagated.exactly_uniform(),
                enumerated.marginals().exactly_uniform()
            );
            // The marginal TV is a lower bound on the law's TV.
            assert!(propagated.tv_lower_bound() <= enumerated.tv_to_uniform() + 1e-15);
        }
    }
}

#[test]
fn fisher_yates_under_rand15_mod_at_52_deviates_by_2_6e_minus_5_in_probability() {
    let m = exact::marginals(Algorithm::FisherYates, 52, RAND15.into()).unwrap();
    assert!(!m.is_exact());
    // f64, but the deviation is far beyond rounding: certainly not uniform.
    assert_eq!(m.exactly_uniform(), Some(false));
    assert!(m.rounding_bound() < 1e-12);
    // Position 51 is filled by the first draw, below 52 from 32768 = 52 * 630
    // + 8 values: values 0..8 get weight 631. So P(value 0 at 51) = 631/32768:
    // |n·P - 1| = 44/32768 = 1.34e-3, i.e. |P - 1/n| = 2.58e-5. Measured by
    // the f64 propagation, good to about 3e-13 here.
    let measured = m.max_deviation();
    assert!((measured - 44.0 / 32768.0).abs() < 1e-12, "{measured:e}");
    assert!((measured / 52.0 - 2.582e-5).abs() < 1e-8, "{measured:e}");
    let cell = m.max_deviation_cell();
    assert_eq!((cell.position, cell.value), (51, 0));
    // Every row and column of the marginal matrix adds up to one.
    for i in 0..52 {
        let row: f64 = (0..52).map(|v| m.probability(i, v)).sum();
        let col: f64 = (0..52).map(|p| m.probability(p, i)).sum();
        assert!((row - 1.0).abs() < 1e-12 && (col - 1.0).abs() < 1e-12);
    }
    // Under an ideal source the same propagation finds no deviation at all.
    let ideal = exact::marginals(Algorithm::FisherYates, 52, IDEAL.into()).unwrap();
    assert!(ideal.max_deviation() < 1e-12, "{:e}", ideal.max_deviation());
    assert_eq!(ideal.exactly_uniform(), None);
}

#[test]
fn pick_until_unused_is_exact_under_rand15_mod_too() {
    // n = 3: weights 10923, 10923, 10922 of 32768. The accepted index is j
    // with probability w(j) / (sum of w over untaken indices).
    let law = law(Algorithm::PickUntilUnused, 3, RAND15);
    assert_eq!(law.method(), Method::RejectionFolded);
    assert!(law.total_is_one());
    let p = q(10923, 32768) * q(10923, 32768 - 10923);
    assert_eq!(law.probability(&[0, 1, 2]), p);
    let p = q(10922, 32768) * q(10923, 32768 - 10922);
    assert_eq!(law.probability(&[2, 0, 1]), p);
    assert!(!law.is_uniform());
}

#[test]
fn random_swap_is_composed_step_by_step_and_matches_plain_enumeration() {
    let law = law(Algorithm::RandomSwap { k: None }, 4, IDEAL);
    assert_eq!(law.method(), Method::Stepwise);
    assert!(law.total_is_one());
    // k = 1 at n = 3: the identity with 3/9, each transposition 2/9.
    let one = law_k(3, 1);
    assert_eq!(one.probability(&[0, 1, 2]), q(1, 3));
    assert_eq!(one.probability(&[1, 0, 2]), q(2, 9));
    assert_eq!(one.support_size(), 4);
    // k = 0 leaves the identity.
    let none = law_k(3, 0);
    assert!(none.iter().eq([(&[0u32, 1, 2][..], &BigRational::one())]));
    // Two steps: the law is the composition of two one-step laws.
    let two = law_k(3, 2);
    let mut composed = vec![BigRational::zero(); 6];
    let perms: Vec<Vec<u32>> = two.iter().map(|(p, _)| p.to_vec()).collect();
    for (a, pa) in one.iter() {
        for (b, pb) in one.iter() {
            // Swap b applied to the arrangement a: the algorithm swaps
            // positions, so the result is a composed with b's position map.
            let c: Vec<u32> = b.iter().map(|&i| a[i as usize]).collect();
            let i = perms.iter().position(|p| *p == c).unwrap();
            composed[i] += pa * pb;
        }
    }
    for (i, (_, p)) in two.iter().enumerate() {
        assert_eq!(*p, composed[i]);
    }
}

fn law_k(n: usize, k: u32) -> ExactLaw {
    law(Algorithm::RandomSwap { k: Some(k) }, n, IDEAL)
}

#[test]
fn the_monte_carlo_engine_agrees_with_the_exact_marginals() {
    for (alg, kind) in [
        (Algorithm::NaiveSwap, IDEAL),
        (Algorithm::InsertLast, RAND15),
        (
            Algorithm::SortRandomComparator {
                sort: ComparatorSort::Insertion,
            },
            IDEAL,
        ),
    ] {
        let n = 5;
        let exact = law(alg, n, kind);
        let spec = Spec::<Shuffles> {
            threads: Some(2),
            options: ShuffleOptions::with_tests(TestSet::position_value()),
            ..Spec::new(alg, n, 400_000, kind.into(), 12_345)
        };
        let tally = Shuffles::count(&spec, spec.chunks(), &|_| {}).unwrap();
        let t = spec.trials as f64;
        for p in 0..n {
            for v in 0..n {
                let prob = exact.marginals().probability(p, v);
                let observed = tally.count(p, v) as f64 / t;
                let sd = (prob * (1.0 - prob) / t).sqrt();
                assert!(
                    (observed - prob).abs() < 5.0 * sd + 1e-12,
                    "{alg} ({p},{v}): observed {observed}, exact {prob}"
                );
            }
        }
    }
}

#[test]
fn raw_bit_algorithms_and_dependent_sources_are_refused_with_the_reason() {
    for alg in [Algorithm::RandCrate, Algorithm::SortRandomKeys] {
        let err = exact::enumerate(alg, 3, SourceSpec::default(), DEFAULT_MAX_LEAVES)
            .unwrap_err()
            .to_string();
        assert!(err.contains(alg.name()) && err.contains("raw"), "{err}");
        let err = exact::marginals(alg, 3, SourceSpec::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains(alg.name()), "{err}");
    }
    for name in ["msvc-rand", "reseed-per-draw"] {
        let source = SourceSpec::parse(name).unwrap();
        let err = exact::enumerate(Algorithm::FisherYates, 3, source, DEFAULT_MAX_LEAVES)
            .unwrap_err()
            .to_string();
        assert!(err.contains(name) && err.contains("independent"), "{err}");
        let err = exact::marginals(Algorithm::FisherYates, 3, source)
            .unwrap_err()
            .to_string();
        assert!(err.contains(name), "{err}");
    }
    for alg in [
        Algorithm::PickUntilUnused,
        Algorithm::SortRandomComparator {
            sort: ComparatorSort::Insertion,
        },
    ] {
        let err = exact::marginals(alg, 5, SourceSpec::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(alg.name()) && err.contains("positions alone"),
            "{err}"
        );
    }
    let err = exact::enumerate(Algorithm::FisherYates, 1, SourceSpec::default(), 10)
        .unwrap_err()
        .to_string();
    assert!(err.contains("n = 1"), "{err}");
}

#[test]
fn the_leaf_cap_is_named_with_the_option_to_raise_it() {
    // fisher-yates at n = 8 has 8! = 40,320 leaves.
    let err = exact::enumerate(Algorithm::FisherYates, 8, SourceSpec::default(), 40_319)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("40320") && err.contains("40319") && err.contains("--max-leaves"),
        "{err}"
    );
    assert!(exact::enumerate(Algorithm::FisherYates, 8, SourceSpec::default(), 40_320).is_ok());
    // The merge sort's count is n! as well, known before the work.
    let merge = Algorithm::SortRandomComparator {
        sort: ComparatorSort::Merge,
    };
    assert!(exact::check_enumerate(merge, 12, SourceSpec::default(), DEFAULT_MAX_LEAVES).is_err());
}

#[test]
fn f64_views_match_the_exact_values() {
    let law = law(Algorithm::TopToRandom, 4, RAND15);
    let total: f64 = law.probabilities_f64().iter().sum();
    assert!((total - 1.0).abs() < 1e-12);
    for ((perm, exact), (perm2, approx)) in law.iter().zip(law.iter_f64()) {
        assert_eq!(perm, perm2);
        assert_eq!(exact.to_f64().unwrap(), approx);
    }
    assert_eq!(law.marginals().ratios().len(), 16);
    assert_eq!(law.marginals().rows().len(), 4);
}

/// Two independent routes to the riffle's law agree: enumerating every draw
/// sequence of k Gilbert–Shannon–Reeds riffles, and Bayer & Diaconis' closed
/// form P(π) = C(2^k + n − r, n) / 2^(nk), r the rising sequences of π.
#[test]
fn enumerated_riffles_match_bayer_diaconis() {
    use shuffle_audit::mixing::laws::ln_riffle_ratio;
    // The rising sequences of a permutation: 1 + the values v whose
    // successor v + 1 lies before them.
    let rising_sequences = |perm: &[u32]| -> usize {
        let mut position = vec![0; perm.len()];
        for (i, &v) in perm.iter().enumerate() {
            position[v as usize] = i;
        }
        1 + position.windows(2).filter(|w| w[1] < w[0]).count()
    };
    for (n, k) in [(3, 1), (4, 2), (5, 1), (5, 2), (6, 1)] {
        let algorithm = Algorithm::parse(&format!("riffle:k={k}")).unwrap();
        let law = exact::enumerate(algorithm, n, SourceSpec::default(), 50_000_000).unwrap();
        let factorial: usize = (1..=n).product();
        let mut total = 0.0;
        for (perm, p) in law.iter_f64() {
            let r = rising_sequences(perm);
            let closed = ln_riffle_ratio(n, k, r).exp() / factorial as f64;
            assert!(
                (p - closed).abs() < 1e-12,
                "n={n} k={k} {perm:?}: {p} vs {closed}"
            );
            total += p;
        }
        assert!((total - 1.0).abs() < 1e-12);
    }
}

/// The data-loader shuffles enumerate like any other (their bounds do not
/// depend on the values drawn), and the buffer shuffle's closed-form
/// distance from uniform (the mean and the worst item's TV of its
/// marginals) is exactly what enumeration of the real kernel gives.
#[test]
fn loader_shuffles_enumerate_and_the_buffer_marginals_are_exact() {
    use shuffle_audit::mixing::buffer::buffer_distance;
    for (n, b) in [(5usize, 1u32), (6, 2), (6, 3), (7, 4), (6, 6)] {
        let law = law(Algorithm::BufferShuffle { b }, n, SourceKind::Chacha8);
        // P(item v at position p) is cell (p, v): item v's TV from a
        // uniform position is half the sum of its column's departures.
        let p = law.marginals().probabilities();
        let tv: Vec<f64> = (0..n)
            .map(|v| {
                0.5 * (0..n)
                    .map(|t| (p[t * n + v] - 1.0 / n as f64).abs())
                    .sum::<f64>()
            })
            .collect();
        let mean = tv.iter().sum::<f64>() / n as f64;
        let max = tv.iter().cloned().fold(0.0, f64::max);
        let closed = buffer_distance(n, b as usize);
        assert!(
            (mean - closed.mean_tv).abs() < 1e-12,
            "n {n} b {b}: mean {mean} vs {closed:?}"
        );
        assert!(
            (max - closed.max_tv).abs() < 1e-12,
            "n {n} b {b}: max {max} vs {closed:?}"
        );
        assert_eq!(law.marginals().exactly_uniform(), Some(b as usize >= n));
    }
    // Shards of 3 of 6: 2! shard orders times 3!·3! inside = 72 arrangements.
    let shards = law(Algorithm::ShardShuffle { s: 3 }, 6, SourceKind::Chacha8);
    assert_eq!(shards.support_size(), 72);
    // Windows of 2 of 6: 2^3 arrangements.
    let windows = law(Algorithm::WindowShuffle { w: 2 }, 6, SourceKind::Chacha8);
    assert_eq!(windows.support_size(), 8);
}

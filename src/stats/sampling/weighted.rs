//! The weighted-pick test: is item i picked with probability w_i / Σw?
//!
//! The picks of independent trials are a multinomial table with known cell
//! probabilities `π_i = w_i / Σw`, so Pearson's goodness of fit applies: over
//! the items with positive weight, neighbouring items (in index order)
//! pooled until every group expects [`MIN_EXPECTED`]
//! picks (the rule of [`gof::chi_square`], which the unit tests check this
//! reproduces), df = groups − 1.
//!
//! # The law
//!
//! With unequal probabilities Pearson's statistic is not close to χ²(df) in
//! the far tail at the usual five expected counts: 10⁶ fair audits with
//! weights 3, 1, 4, 1, 5, 9, 2, 6 and T = 300 (at least 9.7 expected per
//! item) rejected 1.24× as often as promised at 0.001 and 1.54× at 1e-4;
//! with pooled sparse items (weights 0, 5, 1, 0, 20, 3, 1, 50, 0, 2,
//! T = 150) 1.7× and 3.1×; weights 1, 1, 1, 100 at T = 2000 (19 expected
//! at least) 1.5× and 2.4×. The extra skew comes from the rare items, whose
//! squared deviations are far from χ²(1) at these counts. So the p-value is
//! the shifted gamma with the statistic's exact mean, variance and
//! skewness ([`pearson_law`]: a cumulant expansion over pairs of picks,
//! checked against brute-force enumeration), where the fourth cumulant is
//! close to the law's ([`MAX_EXCESS_KURTOSIS`]).
//!
//! Where it is not — a rare item expecting up to about a thousand picks
//! (weights 1, 99 up to 139,019 picks) — the p-value is exact over the
//! rarest groups instead ([`pearson_tail`]): every count of theirs is
//! enumerated, and the other groups, given their total, take the shifted
//! gamma of their own statistic, which is shaped (with two groups the
//! enumeration is a plain binomial tail, exact). So the test runs from the
//! first trial count with two groups, and an item never drawn where 100
//! are expected reads p ≈ 0.99¹⁰⁰⁰⁰ (shown as a bound below 1e-12) rather
//! than waiting for ten times the picks. Only where neither applies (many
//! rare groups whose counts are too many to walk) does the test wait for
//! the law, saying how many picks it needs, unless Cantelli's inequality
//! already makes the departure certain.
//!
//! A zero-weight item can never be picked by a correct sampler. One pick of
//! it settles the question whatever the other counts say: the test returns
//! [`Method::Impossible`], with p = 0 exactly (`log10_p = -inf`, statistic
//! `+inf`) rather than a small number it would have to make up. Zero-weight
//! items that were never picked drop out of the law (they carry no
//! information).

use super::law::{MAX_EXCESS_KURTOSIS, fewest_trials};
use super::pearson::pearson_law;
use super::{
    CANTELLI_DECISIVE, Deviation, MIN_EXPECTED, Method, NotApplicable, SampleCell, SamplingTest,
    cantelli_log10, keep_largest,
};
use crate::stats::gof;
use crate::stats::pearson_tail;

/// Pools neighbouring cells (in order) until each group expects at least
/// [`MIN_EXPECTED`] of `trials`, the remainder joining the last group, as
/// [`gof::chi_square`] does. Returns (observed, probability) per group.
fn pool(counts: &[u64], probs: &[f64], trials: u64) -> Vec<(u64, f64)> {
    let items = probs.iter().copied().zip(counts.iter().copied());
    gof::pool_neighbours(items, trials as f64)
        .into_iter()
        .map(|(p, o)| (o, p))
        .collect()
}

/// The fewest picks from `from` on at which the test runs and keeps running:
/// pooling changes with T, so whether it runs is not monotone in T until
/// every item expects [`MIN_EXPECTED`] picks; below that the candidate is
/// re-checked on a 1% grid and moved past any failure.
fn fewest_settled_trials(probs: &[f64], from: u64) -> u64 {
    let rarest = probs.iter().copied().fold(f64::INFINITY, f64::min);
    let settled = (MIN_EXPECTED / rarest).ceil() as u64;
    let runs = |t: u64| judged_by(probs, t).is_some();
    let mut candidate = fewest_trials(from, runs);
    'search: loop {
        let mut t = candidate;
        while t < settled {
            t = (t + 1).max((t as f64 * 1.01) as u64);
            if !runs(t) {
                candidate = fewest_trials(t + 1, runs);
                continue 'search;
            }
        }
        return candidate;
    }
}

/// The fewest picks, from `from` on, at which the test of picks against
/// `weights` runs in full (by its law or exactly, not only to a bound);
/// `None` when fewer than two weights are positive (nothing but a
/// zero-weight pick can then be wrong). Advice to "run N picks" is never
/// below it.
pub fn runs_from(weights: &[u64], from: u64) -> Option<u64> {
    let total: f64 = weights.iter().map(|&w| w as f64).sum();
    let probs: Vec<f64> = weights
        .iter()
        .filter(|&&w| w > 0)
        .map(|&w| w as f64 / total)
        .collect();
    (probs.len() >= 2).then(|| fewest_trials(from.max(1), |t| judged_by(&probs, t).is_some()))
}

/// How Pearson's statistic over the groups of `probs` pooled at `trials`
/// picks is judged.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Judge {
    /// By its shifted-gamma law, whose fourth cumulant is close to the
    /// statistic's.
    Law,
    /// Exactly over the groups expecting fewer than this many picks
    /// ([`pearson_tail::upper_tail`]).
    Exact(f64),
}

/// How the test judges `trials` picks of items with probabilities `probs`
/// (pooled at that T), or `None` when it cannot yet: fewer than two groups,
/// or a statistic neither shaped like its law nor enumerable.
fn judged_by(probs: &[f64], trials: u64) -> Option<Judge> {
    let groups: Vec<f64> = pool(&vec![0; probs.len()], probs, trials)
        .iter()
        .map(|g| g.1)
        .collect();
    if groups.len() < 2 {
        return None;
    }
    if shaped(&groups, trials) {
        return Some(Judge::Law);
    }
    let cut = exact_cut(&groups, trials);
    pearson_tail::is_enumerable(&groups, trials, cut).then_some(Judge::Exact(cut))
}

/// Whether the law of Pearson's statistic over groups of probabilities
/// `groups` after `trials` picks has a fourth cumulant close to its
/// shifted gamma's.
fn shaped(groups: &[f64], trials: u64) -> bool {
    pearson_law(groups, trials).excess_kurtosis().abs() <= MAX_EXCESS_KURTOSIS
}

/// The expected count below which groups are enumerated for an exact
/// tail: the fewest rarest groups such that the others, given their total,
/// are one group (a step) or a statistic shaped like its law; with every
/// group enumerated (infinity), the one expecting most stands in for the
/// rest, a step.
fn exact_cut(groups: &[f64], trials: u64) -> f64 {
    let t = trials as f64;
    let mut expected: Vec<f64> = groups.iter().map(|p| p * t).collect();
    expected.sort_by(f64::total_cmp);
    expected.dedup();
    for pair in expected.windows(2) {
        let cut = 0.5 * (pair[0] + pair[1]);
        let large: Vec<f64> = groups.iter().copied().filter(|p| p * t >= cut).collect();
        let share: f64 = large.iter().sum();
        let rest = (t * share).round() as u64;
        if large.len() < 2 {
            return cut;
        }
        let q: Vec<f64> = large.iter().map(|p| p / share).collect();
        if shaped(&q, rest) {
            return cut;
        }
    }
    f64::INFINITY
}

/// The exact tail's error allowance: [`pearson_tail::upper_tail`] is within
/// about 1e-14 of the true tail, so a smaller p-value is stated as this
/// (below the floor every output states as a bound).
const EXACT_ALLOWANCE: f64 = 1e-14;

/// The weighted-pick test of `counts[i]` = trials that picked item i,
/// against integer `weights` (any may be zero).
///
/// The largest deviation is the item with the largest
/// |O − Tπ_i| / √(T π_i (1 − π_i)) among positive weights; for an
/// impossible pick, the zero-weight item picked most often (expected 0,
/// z = +inf). With a single positive weight only zero-weight picks can be
/// wrong: if there are none the result has df = 0 and p = 1. Refused
/// ([`NotApplicable::TooFewTrials`], `min_expected` then the smallest
/// pooled group's) when every item pools into one group, or when the
/// statistic's tails are not yet its law's and its rare groups are too
/// many to enumerate (module docs).
///
/// # Panics
/// If `counts` and `weights` differ in length.
pub fn weighted(counts: &[u64], weights: &[u64]) -> Result<SamplingTest, NotApplicable> {
    assert_eq!(counts.len(), weights.len(), "one weight per item");
    let total_weight: u128 = weights.iter().map(|&w| w as u128).sum();
    if total_weight == 0 {
        return Err(NotApplicable::Degenerate {
            why: "every weight is zero",
        });
    }
    let trials: u64 = counts.iter().sum();
    if trials == 0 {
        return Err(NotApplicable::NoTrials);
    }
    let t = trials as f64;
    let positive: Vec<usize> = (0..weights.len()).filter(|&i| weights[i] > 0).collect();
    let probs: Vec<f64> = positive
        .iter()
        .map(|&i| (weights[i] as f64) / (total_weight as f64))
        .collect();
    let min_expected = t * probs.iter().copied().fold(f64::INFINITY, f64::min);

    let impossible: Vec<usize> = (0..weights.len())
        .filter(|&i| weights[i] == 0 && counts[i] > 0)
        .collect();
    if !impossible.is_empty() {
        let worst = *impossible
            .iter()
            .max_by_key(|&&i| (counts[i], std::cmp::Reverse(i)))
            .expect("non-empty");
        return Ok(SamplingTest {
            statistic: f64::INFINITY,
            df: positive.len().saturating_sub(1) as f64,
            log10_p: f64::NEG_INFINITY,
            method: Method::Impossible {
                picks: impossible.iter().map(|&i| counts[i]).sum(),
                items: impossible,
            },
            min_expected,
            largest: Some(Deviation {
                cell: SampleCell::Item(worst),
                observed: counts[worst],
                expected: 0.0,
                z: f64::INFINITY,
            }),
        });
    }

    let observed: Vec<u64> = positive.iter().map(|&i| counts[i]).collect();
    let mut largest = None;
    for (&i, &pi) in positive.iter().zip(&probs) {
        let expected = t * pi;
        let sd = (t * pi * (1.0 - pi)).sqrt();
        if sd > 0.0 {
            keep_largest(
                &mut largest,
                Deviation {
                    cell: SampleCell::Item(i),
                    observed: counts[i],
                    expected,
                    z: (counts[i] as f64 - expected) / sd,
                },
            );
        }
    }
    let groups = pool(&observed, &probs, trials);
    let pooled = probs.len() - groups.len();
    if probs.len() == 1 {
        // One item can be picked: nothing but zero-weight picks can be
        // wrong, and there were none.
        return Ok(SamplingTest {
            statistic: 0.0,
            df: 0.0,
            log10_p: 0.0,
            method: Method::Pearson { pooled, law: None },
            min_expected,
            largest,
        });
    }
    // The smallest expected count of a group the law is about.
    let smallest_group = t * groups.iter().map(|g| g.1).fold(f64::INFINITY, f64::min);
    if groups.len() < 2 {
        // So few picks that every item pools into one group.
        return Err(NotApplicable::TooFewTrials {
            min_expected: smallest_group,
            excess_kurtosis: None,
            needed: fewest_settled_trials(&probs, trials),
        });
    }
    let statistic: f64 = groups
        .iter()
        .map(|&(o, p)| (o as f64 - t * p).powi(2) / (t * p))
        .sum();
    let group_probs: Vec<f64> = groups.iter().map(|g| g.1).collect();
    let law = pearson_law(&group_probs, trials);
    let excess = law.excess_kurtosis();
    if excess.abs() > MAX_EXCESS_KURTOSIS {
        // The tail is not yet the fitted law's: exact over the rarest
        // groups where their counts can be walked ...
        let cut = exact_cut(&group_probs, trials);
        if let Some(p) = pearson_tail::upper_tail(&group_probs, trials, statistic, cut) {
            let enumerated = group_probs
                .iter()
                .filter(|&&p| p * t < cut)
                .count()
                .min(group_probs.len() - 1);
            return Ok(SamplingTest {
                statistic,
                df: law.df,
                log10_p: p.max(EXACT_ALLOWANCE).log10(),
                method: Method::Exact {
                    pooled,
                    groups: enumerated,
                },
                min_expected,
                largest,
            });
        }
        // ... else an overwhelming departure is still certain by
        // Cantelli's inequality.
        let bound = cantelli_log10(statistic, &law);
        if bound <= CANTELLI_DECISIVE.log10() {
            return Ok(SamplingTest {
                statistic,
                df: law.df,
                log10_p: bound,
                method: Method::Cantelli {
                    law,
                    needed: fewest_settled_trials(&probs, trials),
                },
                min_expected,
                largest,
            });
        }
        return Err(NotApplicable::TooFewTrials {
            min_expected: smallest_group,
            excess_kurtosis: Some(excess),
            needed: fewest_settled_trials(&probs, trials),
        });
    }
    Ok(SamplingTest {
        statistic,
        df: law.df,
        log10_p: law.log10_sf(statistic),
        method: Method::Pearson {
            pooled,
            law: Some(law),
        },
        min_expected,
        largest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::gof;
    use crate::stats::special::chi2_sf;

    /// P(|O − Tπ| ≥ |o − Tπ|) for O ~ Binomial(T, π), summed term by term
    /// in log space: the exact two-group tail, computed apart from the
    /// enumeration.
    fn binomial_two_sided(o: u64, trials: u64, pi: f64) -> f64 {
        use statrs::function::gamma::ln_gamma;
        let t = trials as f64;
        let d = (o as f64 - t * pi).abs() - 1e-9;
        (0..=trials)
            .filter(|&k| (k as f64 - t * pi).abs() >= d)
            .map(|k| {
                let k = k as f64;
                (ln_gamma(t + 1.0) - ln_gamma(k + 1.0) - ln_gamma(t - k + 1.0)
                    + k * pi.ln()
                    + (t - k) * (1.0 - pi).ln())
                .exp()
            })
            .sum()
    }

    #[test]
    fn a_rare_item_is_judged_by_its_exact_tail() {
        // [1, 99] at 50,000 picks: too few for the tail law (139,020), so
        // the p-value is the binomial tail of the rare item, exactly.
        let weights = [1, 99];
        for (rare, rel) in [(500, 1e-9), (540, 1e-6), (580, 1e-6), (430, 1e-6)] {
            let t = weighted(&[rare, 50_000 - rare], &weights).unwrap();
            assert_eq!(
                t.method,
                Method::Exact {
                    pooled: 0,
                    groups: 1
                }
            );
            let exact = binomial_two_sided(rare, 50_000, 0.01).min(1.0);
            let ratio = t.p_value() / exact;
            assert!((ratio - 1.0).abs() < rel, "{rare}: {t:?} against {exact}");
            assert!(
                t.describe()
                    .contains("exact over the counts of the 1 rarest group")
            );
        }
        // An item never drawn where 500 are expected: far below every
        // level (0.99^50000), stated at the enumeration's allowance.
        let never = weighted(&[0, 50_000], &weights).unwrap();
        assert!(never.log10_p <= EXACT_ALLOWANCE.log10() + 1e-9, "{never:?}");
        // From the fewest picks with two groups (500: the rare item
        // expects 5) the test runs, and says so below.
        assert_eq!(runs_from(&weights, 1), Some(500));
        assert_eq!(runs_from(&weights, 51_738), Some(51_738));
        assert_eq!(runs_from(&[0, 4], 1), None);
        let e = weighted(&[0, 499], &weights).unwrap_err();
        assert!(
            matches!(e, NotApplicable::TooFewTrials { needed: 500, .. }),
            "{e:?}"
        );
    }

    #[test]
    fn many_rare_items_wait_for_the_law_unless_certain_by_cantelli() {
        // Eight items of weight 1 beside one of 1,000, 100,000 picks: each
        // rare item expects about 99, too many to walk and too skewed for
        // the law.
        let mut weights = vec![1u64; 8];
        weights.push(1000);
        let probs: Vec<f64> = weights.iter().map(|&w| w as f64 / 1008.0).collect();
        let fair: Vec<u64> = {
            let mut c = vec![99u64; 8];
            c.push(100_000 - 8 * 99);
            c
        };
        let e = weighted(&fair, &weights).unwrap_err();
        let NotApplicable::TooFewTrials { needed, .. } = e else {
            panic!("{e:?}")
        };
        assert!(needed > 100_000 && judged_by(&probs, needed).is_some());
        assert_eq!(runs_from(&weights, 100_000), Some(needed));
        // None of them drawn: Cantelli's bound is decisive and shown, and
        // the picks from which the test runs in full are carried along.
        let mut never = vec![0u64; 8];
        never.push(100_000);
        let t = weighted(&never, &weights).unwrap();
        let Method::Cantelli { law, needed: n } = &t.method else {
            panic!("{:?}", t.method);
        };
        assert_eq!(*n, needed);
        let x = t.statistic - law.mean;
        assert_eq!(t.log10_p, (law.variance / (law.variance + x * x)).log10());
        assert!(t.log10_p <= CANTELLI_DECISIVE.log10());
    }

    #[test]
    fn matches_a_hand_computation() {
        // Weights 1, 0, 3 (π = 1/4, 0, 3/4), 2000 picks: 550, 0, 1450.
        // X² = 50²/500 + 50²/1500 = 20/3 on 1 df; the zero-weight item drops
        // out.
        let t = weighted(&[550, 0, 1450], &[1, 0, 3]).unwrap();
        assert!((t.statistic - 20.0 / 3.0).abs() < 1e-12);
        assert_eq!(t.df, 1.0);
        // Near the χ²(1) tail, from the exact-cumulant law.
        let ratio = t.p_value() / chi2_sf(20.0 / 3.0, 1.0);
        assert!((ratio - 1.0).abs() < 0.1, "{ratio}");
        assert_eq!(t.min_expected, 500.0);
        let d = t.largest.unwrap();
        assert_eq!(d.cell, SampleCell::Item(0));
        assert!((d.ratio() - 1.1).abs() < 1e-12);
        assert!(matches!(
            t.method,
            Method::Pearson {
                pooled: 0,
                law: Some(_)
            }
        ));
        // At 100 picks the statistic's tails are not yet its law's: the
        // p-value is the binomial tail of the lighter item.
        let t = weighted(&[30, 0, 70], &[1, 0, 3]).unwrap();
        assert!(matches!(t.method, Method::Exact { groups: 1, .. }));
        let ratio = t.p_value() / binomial_two_sided(30, 100, 0.25);
        assert!((ratio - 1.0).abs() < 1e-9, "{ratio}");
    }

    #[test]
    fn pooling_and_statistic_are_those_of_gof_chi_square() {
        let cases: [(&[u64], &[u64]); 4] = [
            (&[50, 45, 4, 1], &[50, 45, 4, 1]),
            (&[3, 0, 1, 9, 2, 0, 40], &[2, 1, 1, 10, 3, 1, 40]),
            (&[1, 1, 1, 1], &[1, 1, 1, 1]),
            (&[10, 20, 30, 5, 5, 1], &[1, 2, 3, 1, 1, 1]),
        ];
        for (counts, weights) in cases {
            let total: u64 = weights.iter().sum();
            let probs: Vec<f64> = weights.iter().map(|&w| w as f64 / total as f64).collect();
            let g = gof::chi_square(counts, &probs);
            let trials = counts.iter().sum();
            let groups = pool(counts, &probs, trials);
            let t = trials as f64;
            let x2: f64 = groups
                .iter()
                .map(|&(o, p)| (o as f64 - t * p).powi(2) / (t * p))
                .sum();
            assert!((x2 - g.statistic).abs() < 1e-9, "{counts:?}");
            assert_eq!((groups.len() - 1) as f64, g.df.max(0.0), "{counts:?}");
            assert_eq!(probs.len() - groups.len(), g.pooled, "{counts:?}");
        }
    }

    #[test]
    fn a_zero_weight_pick_is_a_certain_rejection() {
        let t = weighted(&[500, 1, 499, 2], &[1, 0, 1, 0]).unwrap();
        assert_eq!(t.log10_p, f64::NEG_INFINITY);
        assert_eq!(t.p_value(), 0.0);
        assert_eq!(t.statistic, f64::INFINITY);
        assert_eq!(
            t.method,
            Method::Impossible {
                picks: 3,
                items: vec![1, 3]
            }
        );
        assert_eq!(t.largest.as_ref().unwrap().cell, SampleCell::Item(3));
        assert!(t.describe().contains("p = 0"), "{}", t.describe());
        // It survives Holm and the stated-p convention.
        let holm = crate::stats::holm_log10(&[t.log10_p, -1.0]);
        assert_eq!(holm[0], f64::NEG_INFINITY);
        assert!(crate::stats::pvalue::is_bound(t.log10_p));
    }

    #[test]
    fn sparse_items_pool_and_small_or_degenerate_tables_are_refused() {
        // Weights 1..=40: refused at 400 picks; at the picks it asks for the
        // light items still pool, and so on a little beyond.
        let weights: Vec<u64> = (1..=40).collect();
        let spread = |t: u64| -> Vec<u64> {
            let mut c: Vec<u64> = weights.iter().map(|&w| w * t / 820).collect();
            c[39] += t - c.iter().sum::<u64>();
            c
        };
        let e = weighted(&spread(400), &weights).unwrap_err();
        let NotApplicable::TooFewTrials { needed, .. } = e else {
            panic!("{e:?}")
        };
        for t in [needed, needed + needed / 10, 2 * needed] {
            assert!(weighted(&spread(t), &weights).is_ok(), "{t}");
        }
        let t = weighted(&spread(needed), &weights).unwrap();
        let (Method::Pearson { pooled, .. } | Method::Exact { pooled, .. }) = &t.method else {
            panic!("{:?}", t.method)
        };
        assert!(*pooled > 0);
        assert_eq!(t.df, (40 - pooled - 1) as f64);
        assert!(t.describe().contains("pooled"));
        // Weights 1, 1, 1, 100 at T = 1000: the rare items' tails are not
        // yet their law's, and their counts are walked exactly.
        let t = weighted(&[10, 10, 10, 970], &[1, 1, 1, 100]).unwrap();
        assert!(matches!(t.method, Method::Exact { groups: 3, .. }), "{t:?}");
        assert!(matches!(
            weighted(&[1, 2], &[0, 0]),
            Err(NotApplicable::Degenerate { .. })
        ));
        assert_eq!(weighted(&[0, 0], &[1, 2]), Err(NotApplicable::NoTrials));
        // Four picks over two equal weights: one group, refused.
        let e = weighted(&[3, 1], &[1, 1]).unwrap_err();
        assert!(
            matches!(e, NotApplicable::TooFewTrials { min_expected, .. } if min_expected == 4.0)
        );
        assert!(e.to_string().contains("expects 4.00"), "{e}");
        // One positive weight: nothing but zero-weight picks can be wrong.
        let one = weighted(&[0, 10], &[0, 7]).unwrap();
        assert_eq!((one.df, one.log10_p), (0.0, 0.0));
    }
}

//! The tests of a run's deals as a sequence rather than one by one: serial
//! dependence (each deal against the one before it, given the deals' own
//! law) and repeated deals (the birthday test). What they count is in
//! `crate::tally` ([`SerialCounts`], `DealSample`); their laws are the
//! weighted sign test's ([`signs`]) and the collision law ([`collisions`]).

use super::collisions::{self, Moments};
use super::signs;
use crate::tally::{DEAL_EXACT_N, DealSample, MAX_KEPT_DEALS, SerialCounts};
use std::f64::consts::LN_10;

/// A sequence test's outcome: statistic, df and p-value as a chi-square
/// test reports them, and how it was judged.
#[derive(Debug, Clone, PartialEq)]
pub struct SequenceTest {
    /// The statistic: chi-square-type when `df` > 0, else a count or a sum
    /// (the birthday test's pairs, the serial test's S).
    pub statistic: f64,
    /// Degrees of freedom of the reference law's chi-square form; 0 for a
    /// statistic that has none.
    pub df: f64,
    /// The statistic's standardised departure from its null mean, for a
    /// statistic without a chi-square form (`df` = 0): (C − E C)/sd C for
    /// the birthday test, |S|/sd S for the serial test.
    pub departure: f64,
    /// log10 of the p-value.
    pub log10_p: f64,
    /// How the p-value was obtained.
    pub method: String,
}

/// The serial test of `counts`: does each deal depend on the one made just
/// before it, given the law the run's deals have on their own?
///
/// Each triple (a, b, c) of consecutive deals gives x = M(a, b) − M(a, c)
/// (positions holding the same `unit`, "value" or "kind"; see
/// [`SerialCounts`]). Under independent, identically distributed deals
/// with any law, x is symmetric about 0 and the triples are independent,
/// so given the sizes |x| the signs are fair coins and S, the sum of the
/// x's weighted by a function of their sizes (below), has the exact law
/// of a weighted sign test ([`signs::two_sided`]): the test holds
/// its level whatever the marginals, and a positionally biased shuffle
/// without memory (a naive swap, a biased generator) is not rejected by it
/// more often than α. Two-sided: a dealer that repeats or barely reshuffles
/// its last deal makes S positive, one that avoids its last deal negative.
///
/// A repeated deal is weighed in full: each x is weighted by g(|x|) = |x|
/// below [`heavy_triples`]'s threshold h (about n/2) and
/// [`HEAVY_FACTOR`] · |x| from it, S = Σ sign(x) g(|x|)
/// ([`signs::two_sided_heavy`]). If b repeats a, x = n − M(a, c), near n,
/// where a chance triple's |x| (two matches of about one position each,
/// for a uniform deck) reaches h with probability below 1/h!; weighted
/// by |x| alone, the few dozen repeats of a dealer that repeats 1% of
/// its deals at n = 10 drown among thousands of chance triples with |x|
/// of 1 to 4 (19 of 100 audits caught in 10,000 deals), while weighted
/// tenfold each heavy triple weighs about as much as the chance triples'
/// whole spread and decides (100 of 100 caught). The weights are fixed by the
/// sizes (n and |x|), never by the signs, so the test stays exact given
/// the sizes; a run with no heavy triple is judged exactly as the plain
/// sum Σ x, and a chance heavy triple only adds variance. Below n = 5 no
/// size is heavy: a uniform deck repeats by chance too often (1 in 24 or
/// more) for a repeat to stand out.
///
/// The statistic is the weighted S, with no chi-square form (df 0); its
/// departure is |S| / √(Σ g(|x|)²).
pub fn serial(counts: &SerialCounts, unit: &str) -> SequenceTest {
    let triples = counts.total();
    let n = counts.triples.len().saturating_sub(1);
    let heavy = heavy_triples(n);
    let sum: i64 = counts
        .triples
        .iter()
        .zip(&counts.ahead)
        .enumerate()
        .map(|(j, (&all, &up))| heavy.weight(j) as i64 * (2 * up as i64 - all as i64))
        .sum();
    let tied = counts.triples.first().copied().unwrap_or(0);
    let test = signs::two_sided_heavy(&counts.triples, heavy, sum);
    let heavy_count = heavy.count(&counts.triples);
    let heavy_ahead: u64 = counts.ahead.iter().skip(heavy.from).sum();
    let weighting = if heavy.from > n {
        "S = sum of x".to_string()
    } else {
        format!(
            "S = sum of x, each |x| of {} or more (as a repeated deal makes) weighted {}-fold: \
             {heavy_count} such triples, {heavy_ahead} of them with the next deal matching more",
            heavy.from, heavy.factor
        )
    };
    let lean = match sum.signum() {
        1 => "the next deal matches more often than the one after it",
        -1 => "the next deal matches less often than the one after it",
        _ => "no lean",
    };
    SequenceTest {
        statistic: sum as f64,
        df: 0.0,
        departure: test.z,
        log10_p: test.log10_p,
        method: format!(
            "dependence between consecutive deals, given the run's own marginals: each stream's \
             deals (a chunk, a block of a file, or one copy of a program's output) in {triples} disjoint triples (a, b, c), \
             x = M(a, b) - M(a, c) with M the positions holding the same {unit} in both; \
             independent deals with any law make x symmetric about 0, so given the |x| the \
             signs are fair coins: {weighting}; S = {sum} ({lean}; sd {:.1}, {tied} triples \
             with x = 0), two-sided p from {} (a positional bias alone is not a dependence)",
            test.variance.sqrt(),
            test.how,
        ),
    }
}

/// How many times its size a heavy triple weighs in the serial test: enough
/// for one heavy triple to weigh about as much as the spread of 3,000
/// chance triples (sd √(2 · 3,000) ≈ 80 at n = 10, where a repeat weighs
/// 70 to 100), so a few dozen repeats decide, and little enough that the
/// rare chance heavy triple (about one in 6,000 at n = 10) adds only a
/// fraction of the variance at large trial counts.
pub const HEAVY_FACTOR: u64 = 10;

/// The serial test's heavy triples for deals of `n`: |x| ≥ ⌊n/2⌋ + 2, more
/// than half the positions matching one deal and not the other. A repeat
/// reaches it unless the deal after it matches the first in n/2 − 2
/// positions; a chance triple needs a match of h positions, probability
/// at most 1/h! for a uniform deck (h = 7 at n = 10: 7.9e-5). None below
/// n = 5 (a threshold above n).
pub fn heavy_triples(n: usize) -> signs::Heavy {
    signs::Heavy {
        from: if n >= 5 { n / 2 + 2 } else { n + 1 },
        factor: HEAVY_FACTOR,
    }
}

/// The birthday test of `sample` for deals of `n`: the pairs of identical
/// deals among those kept, against the collision law of as many uniform
/// draws over the deals in the kept range (Poisson with mean C(M, 2)/k when
/// M ≪ k; a moment-matched shifted gamma otherwise, which also covers small
/// n, where deals repeat often even under a uniform shuffle). Above n = 20
/// deals are known by 64-bit hashes, and two different kept deals also
/// pair when their hashes agree (probability 2ˢ/2⁶⁴), so the null is that
/// of draws over k' cells, 1/k' = 1/k + 2ˢ/2⁶⁴: at n = 52 the hashes
/// dominate (k ≈ 8e67), and where k overflows (n > 170) they are the whole
/// null, so a run that repeats deals is still caught. One-sided: too many
/// repeats. The statistic is the number of pairs C itself, with no
/// chi-square form (df 0): Pearson's X² over the k cells, (k/M)(2C + M) −
/// M with df k − 1, is an increasing function of it, but at n = 52 k is
/// about 8e67 and above n = 170 it overflows. Its departure is
/// (C − E C)/sd C under the null (0 when the null expects no pair at all).
pub fn birthday(sample: &DealSample, n: usize) -> SequenceTest {
    let kept = sample.kept.len() as u64;
    let pairs = sample.pairs();
    let cells = sample.cells(n);
    let effective = sample.effective_cells(n);
    let moments = Moments::over(effective, kept);
    let log10_p = if kept < 2 || effective <= 1.0 {
        0.0
    } else {
        collisions::ln_sf(pairs, &moments) / LN_10
    };
    let law = if moments.poisson_is_adequate() {
        "Poisson"
    } else {
        "moment-matched shifted gamma (Pearson III)"
    };
    let m = kept as f64;
    let sd = moments.variance.sqrt();
    let departure = if sd > 0.0 && sd.is_finite() {
        (pairs as f64 - moments.mean) / sd
    } else {
        0.0
    };
    let identity = if n <= DEAL_EXACT_N {
        "its exact rank".to_string()
    } else {
        format!(
            "a 64-bit hash (spurious pairs expected: {:.1e})",
            m * (m - 1.0) / 2.0 / (2f64.powi(64) / 2f64.powi(sample.level as i32))
        )
    };
    let used = if sample.level == 0 {
        format!("all {kept} deals")
    } else {
        format!(
            "{kept} of {} deals (those whose scrambled value falls in the lowest 1/2^{} of its \
             range, at most {MAX_KEPT_DEALS} kept)",
            sample.deals, sample.level
        )
    };
    let caught = match seed_space_caught(sample, &moments, CAUGHT_LEVEL) {
        Some(space) => format!(
            "; at level {CAUGHT_LEVEL} it catches with 90% power a shuffle with at most \
             {space:.2e} equally likely deals (a seed space of 2^{:.1})",
            space.log2()
        ),
        None => String::new(),
    };
    SequenceTest {
        statistic: pairs as f64,
        df: 0.0,
        departure,
        log10_p,
        method: format!(
            "pairs of identical deals among {used}, each deal known by {identity}: {pairs} \
             pairs against {:.3e} expected from {} equally likely deals{} ({law} tail, \
             one-sided){caught}",
            moments.mean,
            if cells.is_finite() {
                format!("{cells:.3e}")
            } else {
                format!("2^{:.0}", sample.log2_cells(n))
            },
            if n <= DEAL_EXACT_N {
                ""
            } else {
                " and hash coincidences"
            }
        ),
    }
}

/// The level at which the birthday test's method states the seed space
/// it catches.
pub const CAUGHT_LEVEL: f64 = 0.001;

/// The largest number S of equally likely deals (a seed space) that the
/// birthday test of `sample` detects with 90% power at `level`, about:
/// the kept deals are a 2⁻ˢ share of the S, so C(T, 2)·2⁻ˢ/S pairs are
/// expected among them (Poisson), and they must reach the null's critical
/// count. `None` when fewer than two deals were kept.
pub fn seed_space_caught(sample: &DealSample, null: &Moments, level: f64) -> Option<f64> {
    if sample.kept.len() < 2 {
        return None;
    }
    // The critical count: the least c with P_null(C ≥ c) ≤ level.
    let ln_level = level.ln();
    let mut c = 1u64;
    // No more pairs than the kept deals make: where the tail never falls
    // below the level before that (a degenerate null at large n, whose
    // moments underflow), there is no critical count to state.
    let m = sample.kept.len() as u64;
    let most = m.saturating_mul(m - 1) / 2;
    while collisions::ln_sf(c, null) > ln_level {
        if c > most {
            return None;
        }
        c = if c < 1024 { c + 1 } else { c + c / 64 };
    }
    // The Poisson mean μ with P(C ≥ c) = 0.9, by bisection.
    let (mut lo, mut hi) = (0.0f64, c as f64 + 10.0 * (c as f64).sqrt() + 10.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if collisions::ln_poisson_sf(c, mid) < 0.9f64.ln() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = sample.deals as f64;
    let pairs = t * (t - 1.0) / 2.0 * 0.5f64.powi(sample.level as i32);
    Some(pairs / hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The serial test weighs |x| ≥ 7 tenfold at n = 10, says what it saw,
    /// and without a heavy triple is the plain sign test of Σ x.
    #[test]
    fn serial_weighs_heavy_triples_and_says_so() {
        let mut counts = SerialCounts::new(10);
        for (x, times) in [
            (1i64, 700),
            (-1, 700),
            (2, 300),
            (-2, 300),
            (3, 50),
            (-3, 50),
        ] {
            (0..times).for_each(|_| counts.record(x));
        }
        let plain = serial(&counts, "value");
        assert_eq!(
            plain.log10_p,
            signs::two_sided(&counts.triples, counts.sum()).log10_p
        );
        assert!(
            plain
                .method
                .contains("weighted 10-fold: 0 such triples, 0 of them"),
            "{}",
            plain.method
        );
        for x in [9, 10, 9, 8, 10, 9, 9, 10, 8, 9, 10, 9] {
            counts.record(x);
        }
        counts.record(-7);
        let t = serial(&counts, "value");
        assert_eq!(heavy_triples(10).from, 7);
        assert_eq!(t.statistic, (10 * (9 * 6 + 10 * 4 + 8 * 2) - 70) as f64);
        assert!(
            t.method.contains(
                "each |x| of 7 or more (as a repeated deal makes) weighted 10-fold: 13 such \
                 triples, 12 of them with the next deal matching more"
            ),
            "{}",
            t.method
        );
        // 12 of 13 heavy signs ahead: near 10^-3 (2 · 14 / 2^13 from the
        // heavy signs alone, less with their sizes and the light terms).
        assert!(t.log10_p < -2.3 && t.log10_p > -3.5, "{t:?}");
        assert!(plain.log10_p > -0.1);
        assert_eq!(heavy_triples(4).from, 5);
    }

    #[test]
    fn identical_deals_are_judged_against_their_expectation() {
        // 1,000 deals of 52 with 100 repeated pairs: hopeless for a uniform
        // shuffle, whose expected pairs are about 1e-62.
        let mut kept: Vec<u64> = (0..900).collect();
        kept.extend(0..100);
        let sample = DealSample {
            deals: 1000,
            level: 0,
            kept,
        };
        let t = birthday(&sample, 52);
        assert!(t.log10_p < -1000.0, "{t:?}");
        assert!(t.method.contains("100 pairs"), "{}", t.method);
        let none = DealSample {
            deals: 900,
            level: 0,
            kept: (0..900).collect(),
        };
        assert_eq!(birthday(&none, 52).log10_p, 0.0);
    }

    /// The statistic is the count of pairs with no chi-square form, and
    /// every number shown stays finite where n! overflows (n = 100,000);
    /// the departure is the pairs' standard score where the null expects
    /// some (n = 6: 720 deals).
    #[test]
    fn birthday_numbers_are_finite_and_mean_what_they_say() {
        let none = DealSample {
            deals: 900,
            level: 0,
            kept: (0..900).collect(),
        };
        for n in [52, 100_000] {
            let t = birthday(&none, n);
            assert_eq!((t.statistic, t.df), (0.0, 0.0), "n = {n}");
            assert!(t.departure <= 0.0 && t.departure > -1e-6, "{t:?}");
            assert!(
                t.log10_p.is_finite() && !t.method.contains("inf"),
                "{}",
                t.method
            );
        }
        let repeated = DealSample {
            deals: 1000,
            level: 0,
            kept: (0..1000).map(|i| i % 500).collect(),
        };
        let t = birthday(&repeated, 100_000);
        assert_eq!(t.statistic, 500.0);
        assert!(t.log10_p < -100.0, "{t:?}");
        // At n = 6 the null expects C(1000, 2)/720 ≈ 694 pairs among 1,000
        // deals; 500 deals twice each make 500 pairs: below it.
        let small = birthday(&repeated, 6);
        let moments = Moments::over(720.0, 1000);
        let z = (500.0 - moments.mean) / moments.variance.sqrt();
        assert!((small.departure - z).abs() < 1e-9 && z < 0.0, "{small:?}");
    }
}

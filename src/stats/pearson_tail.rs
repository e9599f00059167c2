//! The upper tail of Pearson's statistic computed exactly over the groups
//! that expect few counts.
//!
//! The shifted gamma of [`super::pearson_law`] follows the statistic's first
//! three cumulants; a group expecting E < 100 counts has a term
//! `(O − E)²/E` whose tail is heavier than any gamma's, and a Monte Carlo
//! p-value has a floor (1e-5 after 10⁵ tables) and is conservative near it:
//! the hand test's 18 parts, each judged at 1.85e-5 in a battery at 0.001,
//! rejected 2 fair audits in 40,000 where 13 were due (issue 22). Here the
//! small groups' counts are enumerated instead.
//!
//! # The decomposition
//!
//! Split the groups into the small ones S and the large ones L (total
//! probability `P`, count `N`, `q_l = p_l / P`). Since the deviations of the
//! large groups from their share `q_l·N` sum to zero,
//!
//! ```text
//! X² = Σ_S (O_s − Tp_s)²/(Tp_s)  +  (N − TP)²/(TP)  +  (N/(TP)) · Y_N
//! ```
//!
//! where `Y_N` is Pearson's statistic of the large groups' counts against
//! `q` given their total N: a multinomial of N trials, independent of how
//! the small groups fell. So `P(X² ≥ x) = Σ P(O_S) · P(Y_N ≥ y(O_S))` over
//! every count of the small groups, each term exact but the last factor,
//! which is a step (0 or 1) when one group is large and otherwise comes
//! from the shifted gamma with `Y_N`'s exact cumulants, every one of whose
//! groups expects many counts (the regime where that law holds). When every
//! group is small, the one expecting most stands in for L.
//!
//! The enumeration walks the small groups' conditional binomials and drops
//! counts whose probability is below e⁻⁴⁰ of the most likely (and branches
//! below 1e-20, at most 1e-14 in all); each binomial is normalised over the
//! counts it keeps, since log-gamma loses about 1e-9 of `ln C(n, k)` at
//! n = 10⁶. The mass of the dropped branches is added to the p-value, so
//! the result is within about 1e-14 of the exact tail (a tail below that
//! may read 0).

use super::pearson_law::{NullLaw, from_power_sums, power_sums};
use std::collections::HashMap;

/// The most counts of the small groups [`upper_tail`] walks (estimated
/// before it starts; [`is_enumerable`]): about a second at worst on one
/// core. Tables beyond it keep the Monte Carlo p-value.
pub const ENUMERATION_BUDGET: f64 = 1e6;

/// A count is dropped when its conditional probability is below this many
/// natural-log units under the most likely count of its group.
const RELATIVE_CUT: f64 = 40.0;

/// A branch of the walk is dropped when its probability is below e^this.
const ABSOLUTE_CUT: f64 = -46.0;

/// The groups enumerated and the groups taken together.
struct Split {
    small: Vec<usize>,
    large: Vec<usize>,
}

/// Splits `probs` over `trials` into the groups expecting fewer than
/// `small_below` counts and the rest; `None` when there is nothing to
/// enumerate or more than `budget` counts to walk.
fn split(probs: &[f64], trials: u64, small_below: f64, budget: f64) -> Option<Split> {
    let t = trials as f64;
    let (mut small, mut large): (Vec<usize>, Vec<usize>) =
        (0..probs.len()).partition(|&i| probs[i] * t < small_below);
    if large.is_empty() {
        let most = small
            .iter()
            .copied()
            .max_by(|&a, &b| probs[a].total_cmp(&probs[b]))?;
        small.retain(|&i| i != most);
        large.push(most);
    }
    if small.is_empty() {
        return None;
    }
    // About ±9 standard deviations per group, and the right tail of a small
    // Poisson.
    let walked: f64 = small
        .iter()
        .map(|&i| 18.0 * (probs[i] * t * (1.0 - probs[i])).sqrt() + 20.0)
        .product();
    (walked <= budget).then_some(Split { small, large })
}

/// Whether [`upper_tail`] computes the tail of this table (positive group
/// probabilities `probs`, summing to 1, over `trials`): some group expects
/// fewer than `small_below` counts, and their counts fit the budget.
pub fn is_enumerable(probs: &[f64], trials: u64, small_below: f64) -> bool {
    split(probs, trials, small_below, ENUMERATION_BUDGET).is_some()
}

/// `P(X² ≥ statistic)` for Pearson's statistic over `trials` picks into
/// groups of probabilities `probs` (positive, summing to 1), exact over the
/// groups expecting fewer than `small_below` counts (module docs); `None`
/// where [`is_enumerable`] is false. Ties (up to rounding) count as reaching
/// the statistic.
pub fn upper_tail(probs: &[f64], trials: u64, statistic: f64, small_below: f64) -> Option<f64> {
    upper_tail_within(probs, trials, statistic, small_below, ENUMERATION_BUDGET)
}

/// [`upper_tail`] where the walk is at most `budget` counts (estimated
/// before it starts), `None` otherwise: for callers judging many tables,
/// which take the cheap walks and leave the rest to a shared Monte Carlo.
pub fn upper_tail_within(
    probs: &[f64],
    trials: u64,
    statistic: f64,
    small_below: f64,
    budget: f64,
) -> Option<f64> {
    let split = split(probs, trials, small_below, budget)?;
    let t = trials as f64;
    let large_p: f64 = split.large.iter().map(|&i| probs[i]).sum();
    let rest = (split.large.len() >= 2).then(|| {
        let q: Vec<f64> = split.large.iter().map(|&i| probs[i] / large_p).collect();
        (split.large.len(), power_sums(&q))
    });
    // P(a small group | not in the small groups before it).
    let mut after = large_p;
    let mut conditional = vec![0.0; split.small.len()];
    for (k, &i) in split.small.iter().enumerate().rev() {
        after += probs[i];
        conditional[k] = (probs[i] / after).min(1.0);
    }
    let mut walk = Walk {
        expected: split.small.iter().map(|&i| probs[i] * t).collect(),
        conditional,
        large_expected: large_p * t,
        bar: statistic - 1e-9 * statistic.abs().max(1.0),
        rest,
        laws: HashMap::new(),
        tail: Sum::default(),
        mass: Sum::default(),
    };
    walk.level(0, trials, 0.0, 0.0);
    // Branches dropped below e^ABSOLUTE_CUT, at most the budget of them.
    let dropped = (1.0 - walk.mass.value()).clamp(0.0, 1e-13);
    Some((walk.tail.value() + dropped).clamp(0.0, 1.0))
}

/// The state of one enumeration.
struct Walk {
    /// Expected counts of the small groups.
    expected: Vec<f64>,
    /// Each small group's probability given the groups before it missed.
    conditional: Vec<f64>,
    /// Expected count of the large groups together.
    large_expected: f64,
    /// The statistic to reach, less a rounding allowance.
    bar: f64,
    /// The large groups' count and power sums, when there are two or more.
    rest: Option<(usize, Vec<f64>)>,
    /// The law of `Y_N` by N.
    laws: HashMap<u64, NullLaw>,
    /// Probability of reaching the statistic, so far.
    tail: Sum,
    /// Probability walked, so far.
    mass: Sum,
}

impl Walk {
    /// Walks the counts of small group `k` onward, with `left` trials not
    /// yet placed, the branch's log probability and partial statistic.
    fn level(&mut self, k: usize, left: u64, ln_prob: f64, partial: f64) {
        if k == self.expected.len() {
            let p = ln_prob.exp();
            self.mass.add(p);
            let reach = self.reach(left, partial);
            self.tail.add(p * reach);
            return;
        }
        let e = self.expected[k];
        for (o, ln_pmf) in binomial_range(left, self.conditional[k]) {
            if ln_prob + ln_pmf >= ABSOLUTE_CUT {
                let d = o as f64 - e;
                self.level(k + 1, left - o, ln_prob + ln_pmf, partial + d * d / e);
            }
        }
    }

    /// `P(X² ≥ bar)` given the small groups' partial statistic and the
    /// large groups' total `n`.
    fn reach(&mut self, n: u64, partial: f64) -> f64 {
        let d = n as f64 - self.large_expected;
        let need = self.bar - partial - d * d / self.large_expected;
        if need <= 0.0 {
            return 1.0;
        }
        let Some((m, sums)) = &self.rest else {
            return 0.0;
        };
        if n == 0 {
            return 0.0;
        }
        let law = *self
            .laws
            .entry(n)
            .or_insert_with(|| from_power_sums(*m, sums, n));
        10f64.powf(law.log10_sf(need * self.large_expected / n as f64))
    }
}

/// The counts of Binomial(n, c) within [`RELATIVE_CUT`] of the most likely
/// one, with their log probabilities. Built outward from the mode by the
/// ratio of successive probabilities and normalised over the counts kept:
/// `ln C(n, k)` from log-gamma loses about 1e-9 at n = 10⁶, far more than
/// the counts dropped weigh (each below e⁻⁴⁰ of the mode).
fn binomial_range(n: u64, c: f64) -> Vec<(u64, f64)> {
    if c >= 1.0 {
        return vec![(n, 0.0)];
    }
    let nf = n as f64;
    let mode = ((nf + 1.0) * c).floor().min(nf) as u64;
    let ratio = c / (1.0 - c);
    let mut kept = vec![(mode, 0.0)];
    let (mut o, mut rel) = (mode, 0.0);
    while o < n {
        rel += ((nf - o as f64) / (o as f64 + 1.0) * ratio).ln();
        o += 1;
        if rel < -RELATIVE_CUT {
            break;
        }
        kept.push((o, rel));
    }
    let (mut o, mut rel) = (mode, 0.0);
    while o > 0 {
        rel += (o as f64 / (nf - o as f64 + 1.0) / ratio).ln();
        o -= 1;
        if rel < -RELATIVE_CUT {
            break;
        }
        kept.push((o, rel));
    }
    let total: f64 = kept.iter().map(|&(_, rel)| rel.exp()).sum();
    let ln_total = total.ln();
    kept.iter_mut().for_each(|(_, rel)| *rel -= ln_total);
    kept
}

/// Neumaier's compensated sum: a million small terms without the rounding
/// of a plain sum (the dropped mass is read from 1 − the sum).
#[derive(Default)]
struct Sum {
    sum: f64,
    compensation: f64,
}

impl Sum {
    fn add(&mut self, x: f64) {
        let t = self.sum + x;
        if self.sum.abs() >= x.abs() {
            self.compensation += (self.sum - t) + x;
        } else {
            self.compensation += (x - t) + self.sum;
        }
        self.sum = t;
    }

    fn value(&self) -> f64 {
        self.sum + self.compensation
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::function::gamma::ln_gamma;

    /// The exact tail by walking every table of `t` trials.
    fn brute(probs: &[f64], t: u64, statistic: f64) -> f64 {
        fn go(probs: &[f64], i: usize, left: u64, counts: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
            if i + 1 == probs.len() {
                counts.push(left);
                out.push(counts.clone());
                counts.pop();
                return;
            }
            for o in 0..=left {
                counts.push(o);
                go(probs, i + 1, left - o, counts, out);
                counts.pop();
            }
        }
        let mut tables = Vec::new();
        go(probs, 0, t, &mut Vec::new(), &mut tables);
        let tf = t as f64;
        let bar = statistic - 1e-9 * statistic.abs().max(1.0);
        tables
            .iter()
            .map(|counts| {
                let x2: f64 = counts
                    .iter()
                    .zip(probs)
                    .map(|(&o, &p)| (o as f64 - p * tf).powi(2) / (p * tf))
                    .sum();
                let ln_p = ln_gamma(tf + 1.0)
                    + counts
                        .iter()
                        .zip(probs)
                        .map(|(&o, &p)| o as f64 * p.ln() - ln_gamma(o as f64 + 1.0))
                        .sum::<f64>();
                if x2 >= bar { ln_p.exp() } else { 0.0 }
            })
            .sum()
    }

    /// Asserts the walk's tail equals the sum over every table.
    fn assert_matches_every_table(probs: &[f64], t: u64, statistics: &[f64]) {
        for &statistic in statistics {
            let exact = brute(probs, t, statistic);
            let walked = upper_tail(probs, t, statistic, 100.0).unwrap();
            assert!(
                (walked - exact).abs() <= 1e-12 + 1e-9 * exact,
                "x = {statistic}: {walked} vs {exact}"
            );
        }
    }

    #[test]
    fn matches_every_table_when_one_group_is_large() {
        // Four groups, the last expecting 100+ counts: the step is exact.
        let statistics = [1.0, 4.0, 9.5, 16.0, 25.0, 40.0];
        assert_matches_every_table(&[0.05, 0.1, 0.15, 0.7], 150, &statistics);
    }

    #[test]
    fn matches_every_table_when_every_group_is_small() {
        let statistics = [0.5, 3.0, 8.0, 14.0, 30.0];
        assert_matches_every_table(&[0.2, 0.3, 0.5], 40, &statistics);
    }

    #[test]
    fn large_groups_follow_their_law_given_their_total() {
        // Two small groups beside three large ones: the gamma for the large
        // groups against a quarter of a million simulated tables.
        use rand::{Rng, SeedableRng};
        let probs = [0.01, 0.04, 0.3, 0.3, 0.35];
        let t: u64 = 500;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(22);
        let tables = 250_000;
        let mut stats: Vec<f64> = (0..tables)
            .map(|_| {
                let mut counts = [0u64; 5];
                for _ in 0..t {
                    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                    let mut acc = 0.0;
                    let mut cell = probs.len() - 1;
                    for (j, &p) in probs.iter().enumerate() {
                        acc += p;
                        if u < acc {
                            cell = j;
                            break;
                        }
                    }
                    counts[cell] += 1;
                }
                counts
                    .iter()
                    .zip(&probs)
                    .map(|(&o, &p)| (o as f64 - p * t as f64).powi(2) / (p * t as f64))
                    .sum()
            })
            .collect();
        stats.sort_by(f64::total_cmp);
        for level in [0.1, 0.01, 0.001] {
            let x = stats[((1.0 - level) * tables as f64) as usize];
            let p = upper_tail(&probs, t, x, 100.0).unwrap();
            // The simulated quantile's own spread: a few standard errors.
            let se = (level / tables as f64).sqrt();
            assert!(
                (p - level).abs() < 5.0 * se + 0.02 * level,
                "at {level}: p = {p}"
            );
        }
    }

    #[test]
    fn a_far_tail_at_a_million_trials_is_not_lost_in_rounding() {
        // One group expecting 30 of 10^6 next to large ones, and a table far
        // out: the tail is far below 1e-12, not the ~1e-9 of ln C(n, k)'s
        // rounding.
        let probs = [3e-5, 0.3, 0.3, 0.39997];
        let p = upper_tail(&probs, 1_000_000, 5_000.0, 100.0).unwrap();
        assert!(p < 1e-12, "{p}");
        // Near the body, the same as the walk over the law's own quantile.
        let p = upper_tail(&probs, 1_000_000, 3.0, 100.0).unwrap();
        assert!(p > 0.2 && p < 0.6, "{p}");
    }

    #[test]
    fn binomials_keep_their_mass_at_a_million_trials() {
        // Log-gamma's rounding of ln C(n, k) at n near 10^6 is about 1e-9,
        // which a walk's mass (and its p-value) must not carry.
        for (n, c) in [
            (1_000_000, 3e-5),
            (999_983, 0.01),
            (2_000_003, 0.2),
            (4_999_999, 0.47),
        ] {
            let mass: f64 = binomial_range(n, c).iter().map(|&(_, l)| l.exp()).sum();
            assert!((mass - 1.0).abs() < 1e-13, "n = {n}, c = {c}: {mass}");
        }
    }

    #[test]
    fn tables_without_small_groups_or_beyond_the_budget_are_left() {
        assert!(!is_enumerable(&[0.5, 0.5], 1000, 100.0));
        assert!(upper_tail(&[0.5, 0.5], 1000, 3.0, 100.0).is_none());
        let many = vec![1.0 / 40.0; 40];
        assert!(!is_enumerable(&many, 2000, 100.0));
    }

    #[test]
    fn far_tails_are_tiny_and_the_start_is_certain() {
        let probs = [0.02, 0.08, 0.9];
        let p = upper_tail(&probs, 300, 500.0, 100.0).unwrap();
        assert!((0.0..1e-12).contains(&p), "{p}");
        assert_eq!(upper_tail(&probs, 300, 0.0, 100.0).unwrap(), 1.0);
    }
}

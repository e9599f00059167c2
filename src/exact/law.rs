//! The exact law of a shuffle: every reachable permutation with its exact
//! probability, and what follows from it.

use super::mass::Entries;
use super::{ExactMarginals, Method, Origin};
use crate::algorithm::Algorithm;
use crate::source::SourceSpec;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::HashMap;

/// The exact output distribution of an algorithm on `[0, 1, ..., n-1]`:
/// `perm[p]` is the value at position p, as the algorithms leave it.
///
/// Permutations never produced have probability zero and are not stored;
/// iteration is over the reachable ones, in lexicographic order.
#[derive(Debug, Clone)]
pub struct ExactLaw {
    origin: Origin,
    leaves: u64,
    perms: Vec<Box<[u32]>>,
    probs: Vec<BigRational>,
    probs_f64: Vec<f64>,
    marginals: ExactMarginals,
    tv: BigRational,
}

impl ExactLaw {
    /// Builds the law from its entries (sorted by permutation, positive
    /// probabilities adding up to one).
    ///
    /// # Panics
    ///
    /// If the probabilities do not add up to exactly one: the enumeration
    /// would be broken.
    pub(crate) fn build(origin: Origin, leaves: u64, entries: Entries) -> Self {
        let n = origin.n;
        let factorial: BigUint = (2..=n as u64).map(BigUint::from).product();
        // One common denominator for everything: the lcm of the entries'
        // denominators and n!, so that sums are integer sums. Denominators
        // repeat a lot, so the last one seen short-cuts most of the work.
        let mut common = factorial.clone();
        let mut last: Option<&BigInt> = None;
        for (_, p) in &entries {
            if last != Some(p.denom()) {
                let d = p.denom().to_biguint().expect("denominators are positive");
                if !(&common % &d).is_zero() {
                    common = common.lcm(&d);
                }
                last = Some(p.denom());
            }
        }
        let mut scale: Option<(&BigInt, BigUint)> = None;
        let numerators: Vec<BigUint> = entries
            .iter()
            .map(|(_, p)| {
                if scale.as_ref().is_none_or(|(d, _)| *d != p.denom()) {
                    let d = p.denom().to_biguint().expect("denominators are positive");
                    scale = Some((p.denom(), &common / d));
                }
                let num = p.numer().to_biguint().expect("probabilities are positive");
                num * &scale.as_ref().expect("set just above").1
            })
            .collect();
        let total: BigUint = numerators.iter().sum();
        assert!(
            total == common,
            "the exact law of {} at n = {n} adds up to {total}/{common}, not 1",
            origin.algorithm
        );

        let mut sums = vec![BigUint::zero(); n * n];
        for ((perm, _), num) in entries.iter().zip(&numerators) {
            for (p, &v) in perm.iter().enumerate() {
                sums[p * n + v as usize] += num;
            }
        }
        let marginals = ExactMarginals::from_sums(origin, &sums, &common);

        let uniform = &common / &factorial;
        let excess: BigUint = numerators
            .iter()
            .filter(|&num| *num > uniform)
            .map(|num| num - &uniform)
            .sum();
        let tv = BigRational::new(BigInt::from(excess), BigInt::from(common));

        let (perms, probs): (Vec<_>, Vec<_>) = entries.into_iter().unzip();
        let probs_f64 = probs.iter().map(to_f64).collect();
        Self {
            origin,
            leaves,
            perms,
            probs,
            probs_f64,
            marginals,
            tv,
        }
    }

    /// Number of elements shuffled.
    pub fn n(&self) -> usize {
        self.origin.n
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.origin.algorithm
    }

    /// The random source.
    pub fn source(&self) -> SourceSpec {
        self.origin.source
    }

    /// How the law was computed.
    pub fn method(&self) -> Method {
        self.origin.method
    }

    /// Leaves enumerated: replays of the algorithm against the script (of
    /// one step, for [`Method::Stepwise`]).
    pub fn leaves(&self) -> u64 {
        self.leaves
    }

    /// n!, the number of permutations.
    pub fn permutations(&self) -> BigUint {
        (2..=self.origin.n as u64).map(BigUint::from).product()
    }

    /// Number of permutations with a positive probability.
    pub fn support_size(&self) -> usize {
        self.perms.len()
    }

    /// Every reachable permutation with its exact probability, in
    /// lexicographic order of the permutations.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&[u32], &BigRational)> + '_ {
        self.perms.iter().map(|p| &**p).zip(&self.probs)
    }

    /// Every reachable permutation with its probability as `f64`, in the
    /// order of [`iter`](Self::iter).
    pub fn iter_f64(&self) -> impl ExactSizeIterator<Item = (&[u32], f64)> + '_ {
        self.perms
            .iter()
            .map(|p| &**p)
            .zip(self.probs_f64.iter().copied())
    }

    /// The probabilities as `f64`, in the order of [`iter`](Self::iter).
    pub fn probabilities_f64(&self) -> &[f64] {
        &self.probs_f64
    }

    /// The exact probability of `perm` (zero if it is never produced).
    pub fn probability(&self, perm: &[u32]) -> BigRational {
        self.index(perm)
            .map_or_else(BigRational::zero, |i| self.probs[i].clone())
    }

    /// The probability of `perm` as `f64`.
    pub fn probability_f64(&self, perm: &[u32]) -> f64 {
        self.index(perm).map_or(0.0, |i| self.probs_f64[i])
    }

    fn index(&self, perm: &[u32]) -> Option<usize> {
        self.perms.binary_search_by(|p| (**p).cmp(perm)).ok()
    }

    /// The reachable permutations from most to least likely (ties in
    /// lexicographic order).
    pub fn ranked(&self) -> Vec<(&[u32], &BigRational)> {
        // f64 first (correctly rounded, so never out of exact order), exact
        // only to split f64 ties, then the index (lexicographic order).
        let mut order: Vec<usize> = (0..self.perms.len()).collect();
        order.sort_by(|&a, &b| {
            self.probs_f64[b]
                .total_cmp(&self.probs_f64[a])
                .then_with(|| self.probs[b].cmp(&self.probs[a]))
        });
        order
            .into_iter()
            .map(|i| (&*self.perms[i], &self.probs[i]))
            .collect()
    }

    /// The distinct probabilities of reachable permutations, largest first,
    /// each with how many permutations have it.
    pub fn levels(&self) -> Vec<(BigRational, usize)> {
        let mut counts: HashMap<&BigRational, usize> = HashMap::new();
        for p in &self.probs {
            *counts.entry(p).or_default() += 1;
        }
        let mut levels: Vec<_> = counts.into_iter().map(|(p, c)| (p.clone(), c)).collect();
        levels.sort_by(|a, b| b.0.cmp(&a.0));
        levels
    }

    /// The exact marginal matrix, P(value v at position p).
    pub fn marginals(&self) -> &ExactMarginals {
        &self.marginals
    }

    /// Total variation distance between the law and the uniform law on all
    /// n! permutations: the largest difference in probability the two give
    /// to any set of permutations.
    pub fn tv_to_uniform(&self) -> f64 {
        to_f64(&self.tv)
    }

    /// [`tv_to_uniform`](Self::tv_to_uniform), exactly.
    pub fn tv_to_uniform_exact(&self) -> &BigRational {
        &self.tv
    }

    /// Whether the law is exactly uniform over all n! permutations.
    pub fn is_uniform(&self) -> bool {
        self.tv.is_zero()
    }

    /// Whether the probabilities add up to exactly one (always true; a
    /// check for callers and tests).
    pub fn total_is_one(&self) -> bool {
        self.probs
            .iter()
            .fold(BigRational::zero(), |acc, p| acc + p)
            .is_one()
    }
}

fn to_f64(q: &BigRational) -> f64 {
    q.to_f64().unwrap_or(f64::NAN)
}

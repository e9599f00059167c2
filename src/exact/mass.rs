//! Exact probability masses, kept as integer fractions that stay in `u128`
//! while they fit, and the table that adds them up per permutation.
//!
//! Adding millions of leaf probabilities as reduced big rationals would spend
//! most of the time in gcds. Instead every leaf's probability is the plain
//! product of its draws' weights over the product of their totals; masses with
//! the same denominator are added as integers (a sum of probabilities never
//! exceeds 1, so a sum of numerators never exceeds the denominator and cannot
//! overflow), and only the final per-permutation sums become big rationals.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::Zero;
use std::collections::HashMap;

/// A non-negative fraction `num / den`, not reduced, in `u128` while both
/// parts fit and in big integers otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fraction {
    /// Both parts fit in `u128`.
    Small { num: u128, den: u128 },
    /// At least one part needed more than 128 bits.
    Big { num: BigUint, den: BigUint },
}

impl Fraction {
    /// The fraction 1/1.
    pub(crate) fn one() -> Self {
        Fraction::Small { num: 1, den: 1 }
    }

    /// Multiplies by `num / den`.
    #[inline]
    pub(crate) fn mul(&mut self, num: u64, den: u64) {
        match self {
            Fraction::Small { num: a, den: b } => {
                match (a.checked_mul(num.into()), b.checked_mul(den.into())) {
                    (Some(x), Some(y)) => {
                        *a = x;
                        *b = y;
                    }
                    _ => {
                        *self = Fraction::Big {
                            num: BigUint::from(*a) * num,
                            den: BigUint::from(*b) * den,
                        }
                    }
                }
            }
            Fraction::Big { num: a, den: b } => {
                *a *= num;
                *b *= den;
            }
        }
    }

    /// Whether the fraction is zero.
    pub(crate) fn is_zero(&self) -> bool {
        match self {
            Fraction::Small { num, .. } => *num == 0,
            Fraction::Big { num, .. } => num.is_zero(),
        }
    }

    /// The reduced exact value.
    pub(crate) fn to_rational(&self) -> BigRational {
        match self {
            Fraction::Small { num, den } => {
                // Reduce in u128: much cheaper than big-integer gcds.
                let g = num.gcd(den);
                BigRational::new_raw(BigInt::from(num / g), BigInt::from(den / g))
            }
            Fraction::Big { num, den } => {
                BigRational::new(BigInt::from(num.clone()), BigInt::from(den.clone()))
            }
        }
    }

    /// Adds `other` if it has the same denominator; returns whether it did.
    fn add_same_den(&mut self, other: &Fraction) -> bool {
        match (self, other) {
            (Fraction::Small { num: a, den: b }, Fraction::Small { num: x, den: y }) if b == y => {
                // Never overflows: both are probability masses over the same
                // denominator, so the sum is at most the denominator.
                *a += *x;
                true
            }
            (Fraction::Big { num: a, den: b }, Fraction::Big { num: x, den: y }) if b == y => {
                *a += x;
                true
            }
            _ => false,
        }
    }
}

/// Reachable permutations with their exact probabilities, sorted by
/// permutation.
pub(crate) type Entries = Vec<(Box<[u32]>, BigRational)>;

/// The probability mass landed on each permutation so far.
#[derive(Debug, Default)]
pub(crate) struct MassTable {
    /// Each permutation seen, with its index in `masses`.
    index: HashMap<Box<[u32]>, usize>,
    /// Per permutation (in first-seen order): its mass as a few fractions,
    /// one per distinct denominator.
    masses: Vec<Vec<Fraction>>,
}

impl MassTable {
    /// Adds `mass` to permutation `perm`.
    #[inline]
    pub(crate) fn add(&mut self, perm: &[u32], mass: Fraction) {
        if mass.is_zero() {
            return;
        }
        let i = match self.index.get(perm) {
            Some(&i) => i,
            None => {
                self.masses.push(Vec::new());
                self.index.insert(perm.into(), self.masses.len() - 1);
                self.masses.len() - 1
            }
        };
        let terms = &mut self.masses[i];
        if !terms.iter_mut().any(|t| t.add_same_den(&mass)) {
            terms.push(mass);
        }
    }

    /// Every permutation reached with its exact probability, sorted by
    /// permutation.
    pub(crate) fn into_sorted(self) -> Entries {
        // Masses become rationals in storage order (each freed as it goes),
        // then join their permutations.
        let mut probabilities: Vec<BigRational> = self
            .masses
            .into_iter()
            .map(|terms| match terms.as_slice() {
                [one] => one.to_rational(),
                terms => terms
                    .iter()
                    .fold(BigRational::zero(), |acc, t| acc + t.to_rational()),
            })
            .collect();
        let mut out: Entries = self
            .index
            .into_iter()
            .map(|(perm, i)| (perm, std::mem::replace(&mut probabilities[i], Zero::zero())))
            .collect();
        sort_by_permutation(&mut out);
        out
    }
}

/// Sorts entries by permutation (lexicographically). Permutations that fit
/// are packed into one integer key first: comparing the boxed slices
/// directly chases a pointer per comparison, which dominates for millions of
/// entries.
pub(crate) fn sort_by_permutation(entries: &mut Entries) {
    let Some(n) = entries.first().map(|(p, _)| p.len()) else {
        return;
    };
    let bits = usize::BITS - n.saturating_sub(1).leading_zeros();
    if (n as u32) * bits.max(1) <= u128::BITS {
        let pack = |perm: &[u32]| {
            perm.iter()
                .fold(0u128, |key, &v| (key << bits.max(1)) | u128::from(v))
        };
        entries.sort_by_cached_key(|(perm, _)| pack(perm));
    } else {
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::One;

    #[test]
    fn fractions_move_to_big_integers_on_overflow_and_stay_exact() {
        let mut f = Fraction::one();
        for _ in 0..20 {
            f.mul(4681, 32_768);
        }
        assert!(matches!(f, Fraction::Big { .. }));
        let expected = BigRational::new(
            BigInt::from(4681u32).pow(20u32),
            BigInt::from(2u32).pow(300u32),
        );
        assert_eq!(f.to_rational(), expected);
    }

    #[test]
    fn packed_keys_sort_like_the_permutations() {
        use crate::algorithm::Algorithm;
        use crate::source::{ChaCha8Source, StreamSource};
        let mut rng = ChaCha8Source::for_stream(1, 2);
        for n in [2usize, 3, 8, 16, 17, 25, 26, 40] {
            let mut entries: Entries = (0..200)
                .map(|_| {
                    let mut perm: Vec<u32> = (0..n as u32).collect();
                    Algorithm::FisherYates.shuffle(&mut perm, &mut rng);
                    (perm.into_boxed_slice(), BigRational::zero())
                })
                .collect();
            let mut expected: Vec<Box<[u32]>> = entries.iter().map(|e| e.0.clone()).collect();
            expected.sort();
            sort_by_permutation(&mut entries);
            let got: Vec<Box<[u32]>> = entries.into_iter().map(|e| e.0).collect();
            assert_eq!(got, expected, "n={n}");
        }
    }

    #[test]
    fn masses_add_up_per_permutation_across_denominators() {
        let mut table = MassTable::default();
        let third = Fraction::Small { num: 1, den: 3 };
        table.add(&[1, 0], third.clone());
        table.add(&[0, 1], Fraction::Small { num: 1, den: 6 });
        table.add(&[0, 1], Fraction::Small { num: 1, den: 6 });
        table.add(&[1, 0], Fraction::Small { num: 2, den: 6 });
        table.add(&[1, 0], Fraction::Small { num: 0, den: 6 });
        let entries = table.into_sorted();
        assert_eq!(&*entries[0].0, &[0, 1]);
        assert_eq!(entries[0].1, BigRational::new(1.into(), 3.into()));
        assert_eq!(entries[1].1, BigRational::new(2.into(), 3.into()));
        let total = entries
            .iter()
            .fold(BigRational::zero(), |acc, (_, p)| acc + p);
        assert!(total.is_one());
    }
}

//! The per-permutation statistics whose exact law under a uniform shuffle is
//! known: how each is computed, how many values it takes, and that law, in
//! one place for the audit's tally and tests ([`crate::tally`],
//! [`crate::stats`]), the power planner ([`crate::power`]) and mixing curves
//! ([`crate::mixing`]).

use super::{
    CycleScratch, adjacent_pairs, cycles, factorial, fixed_points, laws, rank, rising_sequences,
};
use serde::Serialize;
use std::fmt;

/// A number computed from one arrangement, counted over many shuffles and
/// compared with its law under a uniform shuffle.
///
/// Values run over `0..support(n)`, so a histogram indexed by value has
/// [`support`](Self::support) cells, and [`uniform_law`](Self::uniform_law)
/// gives each cell's probability (0 for values that never occur, such as 0
/// cycles). Only [`Statistic::Permutation`] tells every arrangement apart;
/// the others summarise it, so their distance to uniform is a lower bound
/// on the arrangement's (see [`is_lower_bound`](Self::is_lower_bound)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Statistic {
    /// The whole arrangement, by its `rank`: n! values, uniform.
    Permutation,
    /// How many values stay at their own position, 0..=n: the rencontres
    /// law.
    FixedPoints,
    /// The number of cycles, 1..=n: Stirling numbers of the first kind over
    /// n!.
    Cycles,
    /// The number of rising sequences, 1..=n: Eulerian numbers over n!.
    RisingSequences,
    /// Clumping: how many neighbours of the starting order (values i and
    /// i+1) are still side by side, in either order, 0..=n-1
    /// (`adjacent_pairs`): about Poisson(2), exact by inclusion–exclusion.
    Clumping,
}

/// Reusable buffers for [`Statistic::value`].
#[derive(Debug, Default, Clone)]
pub struct StatisticScratch {
    positions: Vec<u32>,
    seen: CycleScratch,
}

impl Statistic {
    /// Every statistic.
    pub const ALL: [Statistic; 5] = [
        Statistic::Permutation,
        Statistic::FixedPoints,
        Statistic::Cycles,
        Statistic::RisingSequences,
        Statistic::Clumping,
    ];

    /// The statistics with about n values, cheap to count at any n: the
    /// ones a tally's structure counts hold a histogram of.
    pub const STRUCTURE: [Statistic; 4] = [
        Statistic::FixedPoints,
        Statistic::Cycles,
        Statistic::RisingSequences,
        Statistic::Clumping,
    ];

    /// The name used in output (the same as the audit test's that counts it).
    pub fn name(self) -> &'static str {
        match self {
            Statistic::Permutation => "permutation",
            Statistic::FixedPoints => "fixed-points",
            Statistic::Cycles => "cycles",
            Statistic::RisingSequences => "rising-sequences",
            Statistic::Clumping => "clumping",
        }
    }

    /// The number of values it takes on arrangements of `n`, counting from
    /// 0: the length of its histogram and of its law.
    ///
    /// # Panics
    /// For [`Statistic::Permutation`] with n > 20 (n! overflows), in debug
    /// builds.
    pub fn support(self, n: usize) -> usize {
        match self {
            Statistic::Permutation => factorial(n),
            _ => n + 1,
        }
    }

    /// Its value on arrangement `a`, below [`support`](Self::support) of
    /// `a.len()`.
    #[inline]
    pub fn value(self, a: &[u32], scratch: &mut StatisticScratch) -> usize {
        match self {
            Statistic::Permutation => rank(a),
            Statistic::FixedPoints => fixed_points(a),
            Statistic::Cycles => cycles(a, &mut scratch.seen),
            Statistic::RisingSequences => rising_sequences(a, &mut scratch.positions),
            Statistic::Clumping => adjacent_pairs(a),
        }
    }

    /// Its exact law under a uniform shuffle of `n` elements, value by value
    /// ([`support`](Self::support) probabilities).
    pub fn uniform_law(self, n: usize) -> Vec<f64> {
        match self {
            Statistic::Permutation => vec![1.0 / factorial(n) as f64; factorial(n)],
            Statistic::FixedPoints => laws::fixed_points(n),
            Statistic::Cycles => laws::cycles(n),
            Statistic::RisingSequences => laws::rising_sequences(n),
            Statistic::Clumping => laws::adjacent_pairs(n),
        }
    }

    /// What its uniform law is called, for the methods tests report
    /// ("chi-square against the rencontres law").
    pub fn law_name(self) -> &'static str {
        match self {
            Statistic::Permutation => "uniform law on the n! permutations",
            Statistic::FixedPoints => "rencontres law",
            Statistic::Cycles => "Stirling numbers of the first kind",
            Statistic::RisingSequences => "Eulerian numbers",
            Statistic::Clumping => "adjacent-pairs law (inclusion-exclusion)",
        }
    }

    /// The entry for this statistic among `entries`, one per
    /// [`Statistic::STRUCTURE`] in that order, or `None` for
    /// [`Statistic::Permutation`]: how a record with a field per structure
    /// statistic (fixed points, cycles, rising sequences, clumping) finds
    /// the field of one.
    #[inline]
    pub fn structure_entry<T>(self, entries: [T; 4]) -> Option<T> {
        let [fixed_points, cycles, rising_sequences, clumping] = entries;
        match self {
            Statistic::FixedPoints => Some(fixed_points),
            Statistic::Cycles => Some(cycles),
            Statistic::RisingSequences => Some(rising_sequences),
            Statistic::Clumping => Some(clumping),
            Statistic::Permutation => None,
        }
    }

    /// Whether its distance to uniform is only a lower bound on the
    /// arrangement's (a function cannot separate two laws more than its
    /// argument does): all but [`Statistic::Permutation`]. For a particular
    /// shuffle a summary may still be sufficient (the rising sequences of
    /// riffles: see [`crate::mixing`]).
    pub fn is_lower_bound(self) -> bool {
        self != Statistic::Permutation
    }
}

impl fmt::Display for Statistic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::unrank;

    /// Every statistic's values and law against brute-force enumeration of
    /// all n! permutations.
    #[test]
    fn laws_match_enumeration() {
        let mut scratch = StatisticScratch::default();
        for n in 1..=8 {
            let total = factorial(n) as f64;
            for statistic in Statistic::ALL {
                let mut brute = vec![0.0; statistic.support(n)];
                for r in 0..factorial(n) {
                    brute[statistic.value(&unrank(r, n), &mut scratch)] += 1.0 / total;
                }
                let law = statistic.uniform_law(n);
                assert_eq!(law.len(), brute.len(), "{statistic} n={n}");
                for (a, b) in law.iter().zip(&brute) {
                    assert!(
                        (a - b).abs() < 1e-12,
                        "{statistic} n={n}: {law:?} vs {brute:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn structure_entries_follow_the_structure_order() {
        for (i, statistic) in Statistic::STRUCTURE.into_iter().enumerate() {
            assert_eq!(statistic.structure_entry([0, 1, 2, 3]), Some(i));
        }
        assert_eq!(Statistic::Permutation.structure_entry([0, 1, 2, 3]), None);
    }

    #[test]
    fn names_match_the_audit_tests() {
        for statistic in Statistic::ALL {
            let test = crate::spec::TestKind::parse(statistic.name()).unwrap();
            assert_eq!(test.statistic(), Some(statistic));
            assert_eq!(
                serde_json::to_value(statistic).unwrap(),
                statistic.name(),
                "serialised by name"
            );
        }
    }
}

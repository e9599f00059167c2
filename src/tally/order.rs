//! What the order tests count, at any n in O(n log n) time per shuffle and
//! O(n) scratch: the number of inversions of each permutation (Kendall's τ
//! with the starting order) in a few bins, the displacements |π(p) − p| of
//! all its positions in a few bins on the scale d/n, and its Lehmer digits
//! in bins of positions and of the digit's relative size d/(i + 1).
//!
//! The tables have a fixed number of cells whatever n, so they are what an
//! audit of a dataset's row order (n = 10^6) can afford; their laws under a
//! uniform shuffle are in `stats::order`.

use super::Binning;
use crate::permutation::lehmer_digits;
use serde::{Deserialize, Serialize};

/// The inversion count is counted in at most this many bins, nearly equally
/// likely under a uniform shuffle ([`inversion_edges`]).
pub const INVERSION_BINS: usize = 32;

/// Displacements d = |π(p) − p| are counted in min(n, this) bins of equal
/// width on the scale d/n ([`displacement_bin`]).
pub const DISPLACEMENT_BINS: usize = 16;

/// Binned Lehmer digits: positions are counted in min(n, this) bins
/// ([`lehmer_rows`]), the rows of the table.
pub const LEHMER_ROWS: usize = 64;

/// Binned Lehmer digits: digit d of position i (uniform on 0..=i under a
/// uniform shuffle) is counted in bin ⌊d·K/(i + 1)⌋ of K = this many
/// ([`lehmer_digit_bin`]): the digit's relative size, the rank of the
/// value at i among the values up to i, in sixteenths.
pub const LEHMER_DIGIT_BINS: usize = 16;

/// Which order counts a tally collects: one flag per test, so that each
/// test pays only for what it needs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OrderParts {
    /// `OrderCounts::inversions`.
    pub inversions: bool,
    /// `OrderCounts::displacement`.
    pub displacement: bool,
    /// `OrderCounts::lehmer`.
    pub lehmer: bool,
}

impl OrderParts {
    /// No order counts.
    pub const NONE: OrderParts = OrderParts {
        inversions: false,
        displacement: false,
        lehmer: false,
    };

    /// Whether any part is counted.
    pub fn any(self) -> bool {
        self != OrderParts::NONE
    }
}

/// The order tests' counts, merged by addition. A part the tally does not
/// collect ([`OrderParts`]) is empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderCounts {
    /// The bins' lower edges above the first ([`inversion_edges`]): a
    /// permutation with I inversions is in bin `#{e ∈ edges : e ≤ I}`.
    /// Kept with the counts so that the tests use the very bins counted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inversion_edges: Vec<u64>,
    /// `inversions[k]`: trials whose inversion count is in bin k.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inversions: Vec<u64>,
    /// `displacement[a]`: positions p, over all trials, whose displacement
    /// |π(p) − p| is in bin a ([`displacement_bin`]; min(n,
    /// [`DISPLACEMENT_BINS`]) bins).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub displacement: Vec<u64>,
    /// `lehmer[r * K + k]` (K = [`LEHMER_DIGIT_BINS`]): positions i of row
    /// r ([`lehmer_rows`]), over all trials, whose Lehmer digit is in bin
    /// k ([`lehmer_digit_bin`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lehmer: Vec<u64>,
}

/// The mean and variance of the number of inversions of a uniform
/// permutation of `n`: n(n−1)/4 and n(n−1)(2n+5)/72 (the sum of independent
/// Lehmer digits, digit k − 1 uniform on {0, …, k−1}).
pub fn inversion_moments(n: usize) -> (f64, f64) {
    let n = n as f64;
    (n * (n - 1.0) / 4.0, n * (n - 1.0) * (2.0 * n + 5.0) / 72.0)
}

/// The largest number of inversions of a permutation of `n`, n(n−1)/2.
pub fn max_inversions(n: usize) -> u64 {
    let n = n as u64;
    n * n.saturating_sub(1) / 2
}

/// The bin edges of the inversion count at `n`: every value its own bin
/// while there are at most [`INVERSION_BINS`] values (n ≤ 8), else the
/// integers nearest to the normal quantiles μ + σ·Φ⁻¹(k/K), k = 1..K−1
/// (K = [`INVERSION_BINS`]), without repeats: bins nearly equally likely
/// under a uniform shuffle. The tests use the exact probabilities of
/// whatever bins these are.
pub fn inversion_edges(n: usize) -> Vec<u64> {
    let top = max_inversions(n);
    if top < INVERSION_BINS as u64 {
        return (1..=top).collect();
    }
    let (mean, variance) = inversion_moments(n);
    let sd = variance.sqrt();
    let mut edges: Vec<u64> = (1..INVERSION_BINS)
        .map(|k| {
            let z = std::f64::consts::SQRT_2
                * statrs::function::erf::erf_inv(2.0 * k as f64 / INVERSION_BINS as f64 - 1.0);
            ((mean + sd * z).round().max(1.0) as u64).min(top)
        })
        .collect();
    edges.dedup();
    edges
}

/// The bin of `inversions` among the bins of `edges` ([`inversion_edges`]).
#[inline]
pub fn inversion_bin(edges: &[u64], inversions: u64) -> usize {
    edges.partition_point(|&e| e <= inversions)
}

/// The number of displacement bins at `n`: min(n, [`DISPLACEMENT_BINS`]).
pub fn displacement_bins(n: usize) -> usize {
    n.clamp(1, DISPLACEMENT_BINS)
}

/// The bin of displacement `d` (in `0..n`) among `bins` equal ranges of
/// `0..n`: bin a holds d with ⌊d·bins/n⌋ = a.
#[inline]
pub fn displacement_bin(d: usize, bins: usize, n: usize) -> usize {
    d * bins / n
}

/// The rows of the binned Lehmer digit table at `n`: min(n,
/// [`LEHMER_ROWS`]) bins of positions, as the matrix bins them.
pub fn lehmer_rows(n: usize) -> Binning {
    Binning::new(n, n.min(LEHMER_ROWS)).expect("1 <= rows <= n")
}

/// The bin of Lehmer digit `d` of position `i` (d ≤ i) among `bins` equal
/// ranges of its values 0..=i: ⌊d·bins/(i + 1)⌋.
#[inline]
pub fn lehmer_digit_bin(d: u32, i: usize, bins: usize) -> usize {
    (d as u64 * bins as u64 / (i as u64 + 1)) as usize
}

/// The number of inversions of `a` (pairs of positions i < j with
/// a[i] > a[j]), Kendall's distance from the starting order: the sum of
/// its Lehmer digits ([`crate::permutation::lehmer_digits`]: popcounts up
/// to n = 64, a Fenwick tree, a blocked bitmap above 2^16). Measured side
/// by side (single-threaded audits of `--tests inversions` against
/// `--tests lehmer`), a merge sort counting inversions was 1.7–1.9× slower
/// at n = 2000 to 10^6.
pub fn inversions(a: &[u32], scratch: &mut OrderScratch) -> u64 {
    lehmer_digits(a, &mut scratch.digits, &mut scratch.tree);
    scratch.digits.iter().map(|&d| u64::from(d)).sum()
}

/// Reusable buffers for [`OrderCounts::observe_batch`] and [`inversions`]
/// (which leaves the digits in `digits`).
#[derive(Debug, Clone, Default)]
pub struct OrderScratch {
    digits: Vec<u32>,
    tree: Vec<u32>,
}

impl OrderCounts {
    /// Empty counts of the `parts` asked for, for permutations of `n`.
    pub fn new(n: usize, parts: OrderParts) -> Self {
        let (inversion_edges, inversions) = if parts.inversions {
            let edges = inversion_edges(n);
            let bins = edges.len() + 1;
            (edges, vec![0; bins])
        } else {
            (Vec::new(), Vec::new())
        };
        Self {
            inversion_edges,
            inversions,
            displacement: super::zeros(parts.displacement, displacement_bins(n)),
            lehmer: super::zeros(parts.lehmer, lehmer_rows(n).bins() * LEHMER_DIGIT_BINS),
        }
    }

    /// The parts these counts hold.
    pub fn parts(&self) -> OrderParts {
        OrderParts {
            inversions: !self.inversions.is_empty(),
            displacement: !self.displacement.is_empty(),
            lehmer: !self.lehmer.is_empty(),
        }
    }

    /// Counts the permutations of `n` stored back to back in `batch`.
    pub fn observe_batch(&mut self, batch: &[u32], n: usize, scratch: &mut OrderScratch) {
        if n == 0 {
            return;
        }
        let bins = self.displacement.len();
        let rows = lehmer_rows(n);
        for a in batch.chunks_exact(n) {
            if !self.lehmer.is_empty() || !self.inversions.is_empty() {
                // Also leaves the digits in the scratch.
                let count = inversions(a, scratch);
                let table = self.lehmer.chunks_exact_mut(LEHMER_DIGIT_BINS);
                for (r, row) in table.enumerate() {
                    for i in rows.range(r) {
                        row[lehmer_digit_bin(scratch.digits[i], i, LEHMER_DIGIT_BINS)] += 1;
                    }
                }
                if !self.inversions.is_empty() {
                    self.inversions[inversion_bin(&self.inversion_edges, count)] += 1;
                }
            }
            if bins > 0 {
                for (p, &v) in a.iter().enumerate() {
                    let d = (v as usize).abs_diff(p);
                    self.displacement[displacement_bin(d, bins, n)] += 1;
                }
            }
        }
    }

    /// Adds counts of the same n and parts.
    ///
    /// # Panics
    /// If the inversion bins differ (counts of another n).
    pub fn merge(&mut self, other: &OrderCounts) {
        assert_eq!(
            self.inversion_edges, other.inversion_edges,
            "cannot merge inversion counts of other bins"
        );
        super::add(&mut self.inversions, &other.inversions);
        super::add(&mut self.displacement, &other.displacement);
        super::add(&mut self.lehmer, &other.lehmer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::unrank;

    fn brute_inversions(a: &[u32]) -> u64 {
        let mut count = 0;
        for i in 0..a.len() {
            for j in i + 1..a.len() {
                count += u64::from(a[i] > a[j]);
            }
        }
        count
    }

    #[test]
    fn inversions_match_the_definition_below_and_above_one_word() {
        let mut scratch = OrderScratch::default();
        for r in 0..120 {
            let a = unrank(r, 5);
            assert_eq!(inversions(&a, &mut scratch), brute_inversions(&a));
        }
        // Below and above one word, odd lengths and powers of two.
        for n in [63usize, 64, 65, 100, 128, 200, 1000] {
            let mut a: Vec<u32> = (0..n as u32).collect();
            let mut state = n as u64;
            for i in (1..n).rev() {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                a.swap(i, (state >> 33) as usize % (i + 1));
            }
            assert_eq!(
                inversions(&a, &mut scratch),
                brute_inversions(&a),
                "n = {n}"
            );
            let reversed: Vec<u32> = (0..n as u32).rev().collect();
            assert_eq!(inversions(&reversed, &mut scratch), max_inversions(n));
            let identity: Vec<u32> = (0..n as u32).collect();
            assert_eq!(inversions(&identity, &mut scratch), 0);
        }
    }

    #[test]
    fn edges_give_every_value_its_bin_at_small_n_and_about_k_bins_above() {
        assert_eq!(inversion_edges(2), vec![1]);
        assert_eq!(inversion_edges(3), vec![1, 2, 3]);
        assert_eq!(inversion_edges(8).len(), 28);
        for n in [9usize, 20, 1000, 1_000_000] {
            let edges = inversion_edges(n);
            assert!(edges.windows(2).all(|w| w[0] < w[1]), "n = {n}");
            assert!(edges.len() < INVERSION_BINS && edges.len() >= 15);
            let (mean, _) = inversion_moments(n);
            let middle = edges[edges.len() / 2] as f64;
            assert!((middle - mean).abs() <= 0.1 * mean + 2.0, "n = {n}");
        }
        assert_eq!(inversion_edges(1_000_000).len() + 1, INVERSION_BINS);
        assert_eq!(inversion_bin(&[1, 2, 3], 0), 0);
        assert_eq!(inversion_bin(&[1, 2, 3], 3), 3);
        assert_eq!(inversion_bin(&[5, 9], 7), 1);
    }

    #[test]
    fn counts_and_merges() {
        let parts = OrderParts {
            inversions: true,
            displacement: true,
            lehmer: false,
        };
        let mut a = OrderCounts::new(3, parts);
        let mut scratch = OrderScratch::default();
        // [0,1,2]: 0 inversions, displacements 0,0,0; [2,1,0]: 3, and 2,0,2.
        a.observe_batch(&[0, 1, 2, 2, 1, 0], 3, &mut scratch);
        assert_eq!(a.inversions, vec![1, 0, 0, 1]);
        assert_eq!(a.displacement, vec![4, 0, 2]);
        let mut b = OrderCounts::new(3, parts);
        b.observe_batch(&[1, 2, 0], 3, &mut scratch);
        a.merge(&b);
        assert_eq!(a.inversions, vec![1, 0, 1, 1]);
        assert_eq!(a.displacement, vec![4, 2, 3]);
        assert_eq!(a.parts(), parts);
        let only = OrderCounts::new(
            50,
            OrderParts {
                displacement: true,
                ..OrderParts::NONE
            },
        );
        assert!(only.inversions.is_empty() && only.inversion_edges.is_empty());
        assert_eq!(only.displacement.len(), DISPLACEMENT_BINS);
    }

    /// The binned digits fill their rows as the definition says, and the
    /// inversions read off them are those the merge counts.
    #[test]
    fn binned_digits_and_their_inversions() {
        let n = 3001;
        let a: Vec<u32> = (0..n as u64)
            .map(|v| ((v * 101 + 7) % n as u64) as u32)
            .collect();
        let mut scratch = OrderScratch::default();
        let with = OrderParts {
            inversions: true,
            lehmer: true,
            ..OrderParts::NONE
        };
        let mut both = OrderCounts::new(n, with);
        both.observe_batch(&a, n, &mut scratch);
        let mut alone = OrderCounts::new(
            n,
            OrderParts {
                inversions: true,
                ..OrderParts::NONE
            },
        );
        alone.observe_batch(&a, n, &mut scratch);
        assert_eq!(both.inversions, alone.inversions);
        assert_eq!(both.parts(), with);
        let rows = lehmer_rows(n);
        assert_eq!(both.lehmer.len(), LEHMER_ROWS * LEHMER_DIGIT_BINS);
        let mut want = vec![0u64; both.lehmer.len()];
        for i in 0..n {
            let d = a[..i].iter().filter(|&&x| x > a[i]).count() as u32;
            want[rows.bin_of(i) * LEHMER_DIGIT_BINS + lehmer_digit_bin(d, i, LEHMER_DIGIT_BINS)] +=
                1;
        }
        assert_eq!(both.lehmer, want);
        let copy = both.clone();
        both.merge(&copy);
        assert_eq!(both.lehmer.iter().sum::<u64>(), 2 * n as u64);
    }
}

//! Statistics of a single permutation, as the structure tests count them.
//!
//! A permutation is an arrangement `a` of `0..n`: `a[p]` is the value at
//! position `p` (what a shuffle of the identity leaves behind).
//!
//! The functions here compute; [`Statistic`] names the statistics that are
//! counted and compared with a known law, and ties each to its function,
//! its number of values and its law under a uniform shuffle ([`laws`]).

pub mod laws;
mod statistic;

pub use statistic::{Statistic, StatisticScratch};

/// Above this size [`lehmer_digits`] counts with a Fenwick tree (O(n log n))
/// rather than by direct comparison (O(n²), but vectorised and faster for
/// small n).
const LEHMER_TREE_FROM: usize = 64;

/// The Lehmer digits of `a`: digit i = #{j < i : a[j] > a[i]}, in `0..=i`.
/// Under a uniform shuffle the digits are independent and digit i is uniform
/// on `[0, i]`. `tree` is scratch.
pub fn lehmer_digits(a: &[u32], digits: &mut Vec<u32>, tree: &mut Vec<u32>) {
    digits.clear();
    if a.len() <= LEHMER_TREE_FROM {
        digits.extend(
            a.iter()
                .enumerate()
                .map(|(i, &v)| a[..i].iter().filter(|&&x| x > v).count() as u32),
        );
        return;
    }
    // tree counts the values seen so far; digit i = i − #{seen values < a[i]}.
    tree.clear();
    tree.resize(a.len() + 1, 0);
    for (i, &v) in a.iter().enumerate() {
        let mut smaller = 0;
        let mut k = v as usize; // prefix over values 0..v, 1-based indices 1..=v
        while k > 0 {
            smaller += tree[k];
            k &= k - 1;
        }
        digits.push(i as u32 - smaller);
        let mut k = v as usize + 1;
        while k < tree.len() {
            tree[k] += 1;
            k += k & k.wrapping_neg();
        }
    }
}

/// The rank of `a` among the n! permutations, in `0..n!`: the Lehmer digits
/// read as a mixed-radix number (digit i has radix i + 1). A bijection, so
/// counting ranks counts permutations.
pub fn rank(a: &[u32]) -> usize {
    let mut rank = 0usize;
    for (i, &v) in a.iter().enumerate().rev() {
        let digit = a[..i].iter().filter(|&&x| x > v).count();
        rank = rank * (i + 1) + digit;
    }
    rank
}

/// The permutation of `n` whose [`rank`] is `rank`.
pub fn unrank(mut rank: usize, n: usize) -> Vec<u32> {
    let mut digits = vec![0usize; n];
    for (i, digit) in digits.iter_mut().enumerate() {
        *digit = rank % (i + 1);
        rank /= i + 1;
    }
    // Rebuild from the last position backwards: the value at position i is the
    // (digit_i + 1)-th largest of the values not placed after it.
    let mut remaining: Vec<u32> = (0..n as u32).collect();
    let mut a = vec![0u32; n];
    for i in (0..n).rev() {
        let index = remaining.len() - 1 - digits[i];
        a[i] = remaining.remove(index);
    }
    a
}

/// n! as a `usize`, for n ≤ 20.
pub fn factorial(n: usize) -> usize {
    (1..=n).product()
}

/// How many values are at their own position.
pub fn fixed_points(a: &[u32]) -> usize {
    a.iter()
        .enumerate()
        .filter(|&(p, &v)| p == v as usize)
        .count()
}

/// The number of cycles of `a` as a mapping position → value (fixed points
/// count as cycles of length 1). `seen` is scratch.
pub fn cycles(a: &[u32], seen: &mut Vec<bool>) -> usize {
    seen.clear();
    seen.resize(a.len(), false);
    let mut count = 0;
    for start in 0..a.len() {
        if seen[start] {
            continue;
        }
        count += 1;
        let mut p = start;
        while !seen[p] {
            seen[p] = true;
            p = a[p] as usize;
        }
    }
    count
}

/// The number of rising sequences: maximal runs of consecutive values x,
/// x+1, ... appearing left to right. Equals 1 + the number of x whose
/// successor x+1 lies to its left. `position` is scratch.
pub fn rising_sequences(a: &[u32], position: &mut Vec<u32>) -> usize {
    position.clear();
    position.resize(a.len(), 0);
    for (p, &v) in a.iter().enumerate() {
        position[v as usize] = p as u32;
    }
    1 + position.windows(2).filter(|w| w[1] < w[0]).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse_bijections() {
        for n in 1..=6 {
            for r in 0..factorial(n) {
                let a = unrank(r, n);
                assert!(a.iter().all(|&v| (v as usize) < n) && a.len() == n);
                assert_eq!(rank(&a), r, "n={n} {a:?}");
            }
        }
        assert_eq!(rank(&[0, 1, 2, 3]), 0);
    }

    #[test]
    fn both_lehmer_methods_agree() {
        // A scrambled arrangement of 307 values, above the switch to the tree.
        let n = 307u32; // prime, so v -> 7v + 3 mod n is a permutation
        let a: Vec<u32> = (0..n).map(|v| (v * 7 + 3) % n).collect();
        let direct: Vec<u32> = a
            .iter()
            .enumerate()
            .map(|(i, &v)| a[..i].iter().filter(|&&x| x > v).count() as u32)
            .collect();
        let (mut digits, mut tree) = (Vec::new(), Vec::new());
        lehmer_digits(&a, &mut digits, &mut tree);
        assert_eq!(digits, direct);
    }

    #[test]
    fn statistics_by_hand() {
        let mut scratch_b = Vec::new();
        let mut scratch_u = Vec::new();
        // [1, 2, 0]: a 3-cycle, no fixed point; values 0 | 1 2 -> rising sequences "1 2" and "0".
        assert_eq!(fixed_points(&[1, 2, 0]), 0);
        assert_eq!(cycles(&[1, 2, 0], &mut scratch_b), 1);
        assert_eq!(rising_sequences(&[1, 2, 0], &mut scratch_u), 2);
        // Identity: n fixed points, n cycles, one rising sequence.
        assert_eq!(fixed_points(&[0, 1, 2, 3]), 4);
        assert_eq!(cycles(&[0, 1, 2, 3], &mut scratch_b), 4);
        assert_eq!(rising_sequences(&[0, 1, 2, 3], &mut scratch_u), 1);
        // Reversal of 4: n rising sequences, cycles (0 3)(1 2).
        assert_eq!(rising_sequences(&[3, 2, 1, 0], &mut scratch_u), 4);
        assert_eq!(cycles(&[3, 2, 1, 0], &mut scratch_b), 2);
        let (mut digits, mut tree) = (Vec::new(), Vec::new());
        lehmer_digits(&[2, 0, 3, 1], &mut digits, &mut tree);
        assert_eq!(digits, vec![0, 1, 0, 2]);
    }
}

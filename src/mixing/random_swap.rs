//! The exact law of `random-swap` after k transpositions, for small n, by
//! carrying the probability of every one of the n! arrangements forward one
//! transposition at a time.

use super::MAX_CARRIED_N;
use crate::error::{Error, Result};
use crate::permutation::{factorial, rank, unrank};

/// The exact distance to uniform of `random-swap` after each k in `ks`
/// (ascending), for n ≤ [`MAX_CARRIED_N`].
///
/// Each step swaps cells i and j drawn independently and uniformly (i = j,
/// probability 1/n, changes nothing; each of the n(n-1)/2 transpositions has
/// probability 2/n²), exactly as the algorithm does. The law over arrangements,
/// indexed by Lehmer rank, is propagated in f64: every step is a convex
/// combination, so rounding errors stay near 1e-16 per step and the total
/// mass stays 1 to about k · 1e-16. TV at k is (1/2) Σ |P_k(π) - 1/n!|.
pub fn random_swap_tv(n: usize, ks: &[u32]) -> Result<Vec<f64>> {
    if !(1..=MAX_CARRIED_N).contains(&n) {
        return Err(Error::out_of_range(format!(
            "exact random-swap needs 1 <= n <= {MAX_CARRIED_N} (got n = {n})"
        )));
    }
    let cells = factorial(n);
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    // neighbours[x * pairs + p]: the rank after applying pair p to arrangement x.
    let mut neighbours = Vec::with_capacity(cells * pairs.len());
    for x in 0..cells {
        let a = unrank(x, n);
        for &(i, j) in &pairs {
            let mut b = a.clone();
            b.swap(i, j);
            neighbours.push(rank(&b) as u32);
        }
    }
    let stay = 1.0 / n as f64;
    let move_to = 2.0 / (n * n) as f64;
    let uniform = 1.0 / cells as f64;
    let tv = |law: &[f64]| 0.5 * law.iter().map(|p| (p - uniform).abs()).sum::<f64>();

    let mut law = vec![0.0; cells];
    law[0] = 1.0; // the identity
    let mut next = vec![0.0; cells];
    let mut done = 0u32;
    let mut out = Vec::with_capacity(ks.len());
    for &k in ks {
        while done < k {
            // A transposition is its own inverse, so the mass arriving at x
            // comes from x's own neighbours.
            for (x, slot) in next.iter_mut().enumerate() {
                let row = &neighbours[x * pairs.len()..(x + 1) * pairs.len()];
                let arriving: f64 = row.iter().map(|&y| law[y as usize]).sum();
                *slot = stay * law[x] + move_to * arriving;
            }
            std::mem::swap(&mut law, &mut next);
            done += 1;
        }
        out.push(tv(&law));
    }
    Ok(out)
}

/// How far rounding can move the distance [`random_swap_tv`] returns for n
/// elements after `k` transpositions, given the value `tv` it returned: a
/// value at or below this is rounding noise, not a distance.
///
/// With u = ε/2 ≈ 1.1e-16 (f64's unit roundoff) and m = n(n-1)/2 pairs:
/// - each step computes every cell as (1/n)·P(x) + (2/n²)·Σ_m P(y), about
///   m + 2 rounded operations (the two constants are rounded too), so it
///   adds at most (m + 2)u times the total mass, 1, to the L1 error of the
///   law; a step is a Markov kernel, which never increases an L1 error, so
///   after k steps the law is off by at most k(m + 2)u in L1;
/// - the distance is half the L1 distance, so that contributes k(m + 2)u/2;
/// - the uniform value 1/C is rounded in each of the C = n! cells: at most
///   u/C each, u in all, u/2 on the distance;
/// - subtracting and summing C terms of total 2·tv adds at most C·u·tv.
///
/// For n = 3, k = 60 that is 1.7e-14 (the value computed there, 9e-16, is
/// all rounding: the true distance is about 3^-60 ≈ 2e-29); for n = 8, k =
/// 100 it is 1.7e-13. The bound grows with k because errors in the total
/// mass never decay; in practice they add up like a random walk, far below
/// it, so it errs on the side of calling a value rounding.
pub fn rounding_bound(n: usize, k: u32, tv: f64) -> f64 {
    let u = f64::EPSILON / 2.0;
    let pairs = (n * n.saturating_sub(1) / 2) as f64;
    let cells = factorial(n.min(MAX_CARRIED_N)) as f64;
    0.5 * u * (f64::from(k) * (pairs + 2.0) + 1.0) + cells * u * tv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_cards_by_hand() {
        // k = 0: the identity alone, TV = 1 - 1/6.
        // k = 1: identity 1/3, each transposition 2/9, 3-cycles 0:
        //   TV = (1/2)(1/6 + 3 (1/18) + 2 (1/6)) = 1/3.
        // k = 2: identity 7/27, the 5 others 4/27 each:
        //   TV = (1/2)(5/54 + 5 (1/54)) = 5/54.
        let tv = random_swap_tv(3, &[0, 1, 2]).unwrap();
        let want = [5.0 / 6.0, 1.0 / 3.0, 5.0 / 54.0];
        for (k, (got, want)) in tv.iter().zip(want).enumerate() {
            assert!((got - want).abs() < 1e-15, "k = {k}: {got} vs {want}");
        }
    }

    #[test]
    fn decreases_to_zero_and_refuses_large_n() {
        let tv = random_swap_tv(6, &[0, 5, 10, 20, 40, 80]).unwrap();
        assert!(tv.windows(2).all(|w| w[1] < w[0]), "{tv:?}");
        assert!(tv[5] < 1e-3, "{tv:?}");
        let err = random_swap_tv(9, &[1]).unwrap_err().to_string();
        assert!(err.contains("n = 9"), "{err}");
    }
}

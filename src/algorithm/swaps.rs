//! Shuffles made of swaps at drawn indices: the Fisher–Yates family and its
//! classic mistakes.

use crate::source::RandomSource;

/// Durstenfeld's Fisher–Yates: for i = n-1 down to 1, swap a[i] with a uniform
/// a[0..=i]. Fair.
pub fn fisher_yates<R: RandomSource>(a: &mut [u32], rng: &mut R) {
    for i in (1..a.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        a.swap(i, j);
    }
}

/// Fisher–Yates run forwards: for i = 0 to n-2, swap a[i] with a uniform
/// a[i..n]. Fair.
pub fn fisher_yates_forward<R: RandomSource>(a: &mut [u32], rng: &mut R) {
    let n = a.len();
    for i in 0..n.saturating_sub(1) {
        let j = rng.between(i as u32, n as u32 - 1) as usize;
        a.swap(i, j);
    }
}

/// The "inside-out" variant: for i = 0 to n-1, swap a[i] with a uniform
/// a[0..=i]. Fair.
pub fn inside_out<R: RandomSource>(a: &mut [u32], rng: &mut R) {
    for i in 0..a.len() {
        let j = rng.below(i as u32 + 1) as usize;
        a.swap(i, j);
    }
}

/// The naive swap: for every i, swap a[i] with a uniform a[0..n]. Biased: n^n
/// equally likely draw sequences cannot split evenly over n! outcomes.
pub fn naive_swap<R: RandomSource>(a: &mut [u32], rng: &mut R) {
    let n = a.len() as u32;
    for i in 0..a.len() {
        let j = rng.below(n) as usize;
        a.swap(i, j);
    }
}

/// `k` random transpositions of two independent uniform indices (equal
/// indices are a no-op). Biased until k is well past (1/2) n ln n.
pub fn random_swap<R: RandomSource>(a: &mut [u32], rng: &mut R, k: u32) {
    let n = a.len() as u32;
    for _ in 0..k {
        let i = rng.below(n) as usize;
        let j = rng.below(n) as usize;
        a.swap(i, j);
    }
}

/// The `Math.floor(Math.random() * (n - i))` bug: swap a[i] with a uniform
/// a[0..n-i]. Biased.
pub fn shrinking_range<R: RandomSource>(a: &mut [u32], rng: &mut R) {
    let n = a.len() as u32;
    for i in 0..a.len() {
        let k = rng.below(n - i as u32) as usize;
        a.swap(i, k);
    }
}

/// Sattolo's algorithm, i.e. Fisher–Yates with the off-by-one j < i: only the
/// (n-1)! n-cycles, never a fixed point.
pub fn sattolo<R: RandomSource>(a: &mut [u32], rng: &mut R) {
    for i in (1..a.len()).rev() {
        let j = rng.below(i as u32) as usize;
        a.swap(i, j);
    }
}

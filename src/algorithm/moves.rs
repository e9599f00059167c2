//! Shuffles that move elements by removal and insertion, or pick them one by
//! one.

use crate::source::RandomSource;

/// The pencil-and-paper Fisher–Yates: strike a uniformly chosen remaining
/// element and append it to the output. Fair, O(n²).
///
/// Done in place: `a[..i]` is the output so far and `a[i..]` the remaining
/// list in its original order.
pub fn fisher_yates_original<R: RandomSource>(a: &mut [u32], rng: &mut R) {
    let n = a.len();
    for i in 0..n {
        let j = rng.below((n - i) as u32) as usize;
        a[i..=i + j].rotate_right(1);
    }
}

/// Draw a uniform index until it points at an element not yet taken, then take
/// it. Fair, but slow (about n ln n draws). `taken` and `out` are scratch.
pub fn pick_until_unused<R: RandomSource>(
    a: &mut [u32],
    rng: &mut R,
    taken: &mut Vec<bool>,
    out: &mut Vec<u32>,
) {
    let n = a.len();
    taken.clear();
    taken.resize(n, false);
    out.clear();
    while out.len() < n {
        let j = rng.below(n as u32) as usize;
        if !taken[j] {
            taken[j] = true;
            out.push(a[j]);
        }
    }
    a.copy_from_slice(out);
}

/// n times: take the last element and insert it so that it ends at a uniform
/// index (the last index puts it back). Biased.
pub fn insert_last<R: RandomSource>(a: &mut [u32], rng: &mut R) {
    let n = a.len();
    for _ in 0..n {
        let k = rng.below(n as u32) as usize;
        a[k..].rotate_right(1);
    }
}

/// n times: take the top element and insert it so that it ends at a uniform
/// index. Biased: about n ln n moves are needed to mix.
pub fn top_to_random<R: RandomSource>(a: &mut [u32], rng: &mut R) {
    let n = a.len();
    for _ in 0..n {
        let k = rng.below(n as u32) as usize;
        a[..=k].rotate_left(1);
    }
}

/// A uniform cyclic rotation: out[p] = in[(p + s) mod n]. Uniform marginals,
/// yet only n of the n! permutations.
pub fn rotation<R: RandomSource>(a: &mut [u32], rng: &mut R) {
    let s = rng.below(a.len() as u32) as usize;
    a.rotate_left(s);
}

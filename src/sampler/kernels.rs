//! The k-of-N sampler kernels: each writes k items of `0..n` to `out`
//! (cleared first), draws only through [`RandomSource`], and keeps its
//! working space in buffers it is handed, so running millions of trials
//! allocates nothing per trial.
//!
//! Callers guarantee `1 <= k <= n <= u32::MAX` (and `k | n` for
//! `systematic`); [`Sampler::check`](super::Sampler::check) is where that
//! is enforced.
//!
//! Buffers with an invariant between calls: `flags` is all `false` (each
//! kernel that sets flags clears exactly the ones it set, O(k) rather than
//! O(n)), and `identity` is `[0, 1, ..., n-1]` (`partial_fisher_yates`
//! undoes its swaps). Both are rebuilt when `n` changes.

use crate::algorithm::{fisher_yates, naive_swap};
use crate::source::RandomSource;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// `flags` sized for `n`, all false, with `out` cleared: the start of a
/// kernel that flags the items it has taken.
#[inline]
fn flags_for<'a>(flags: &'a mut Vec<bool>, n: usize, out: &mut Vec<u32>) -> &'a mut [bool] {
    out.clear();
    if flags.len() != n {
        flags.clear();
        flags.resize(n, false);
    }
    flags
}

/// Clears the flags of the items in `out` (restoring the all-false invariant).
#[inline]
fn release(flags: &mut [bool], out: &[u32]) {
    for &v in out {
        flags[v as usize] = false;
    }
}

/// `out = [0, 1, ..., k-1]`.
#[inline]
fn first_k(out: &mut Vec<u32>, k: usize) {
    out.clear();
    out.extend(0..k as u32);
}

/// Algorithm R: keep items `0..k`; item `i` (0-based, `i >= k`; the
/// (i+1)-th) replaces `res[j]` when `j = uniform[0, i - 1 + above] < k`.
/// `above = 1` is the algorithm; `above = 0` is the off-by-one bound (for
/// the 1-based i-th item, `uniform[0, i-2]`), keeping item `i` with
/// probability k/i instead of k/(i+1).
#[inline]
pub(super) fn reservoir<S: RandomSource>(
    n: usize,
    k: usize,
    rng: &mut S,
    out: &mut Vec<u32>,
    above: u32,
) {
    first_k(out, k);
    for i in k..n {
        let j = rng.below(i as u32 + above) as usize;
        if j < k {
            out[j] = i as u32;
        }
    }
}

/// labuladong's `sample(lo, hi, k)` ("reservoir over the range [lo, hi)"),
/// transcribed with `lo = 0`, `hi = n`: `res = [lo, lo+1, ..., lo+k-1]`;
/// for `i` in `lo+k..hi`: `j = uniform[0, i-lo]`; if `j < k`: `res[j] = i`.
/// At `lo = 0` it makes exactly the draws and the output of [`reservoir`].
#[inline]
pub(super) fn sample_range<S: RandomSource>(n: usize, k: usize, rng: &mut S, out: &mut Vec<u32>) {
    let (lo, hi) = (0u32, n as u32);
    let k32 = k as u32;
    out.clear();
    out.extend(lo..lo + k32);
    for i in lo + k32..hi {
        let j = rng.between(0, i - lo);
        if j < k32 {
            out[j as usize] = i;
        }
    }
}

/// A uniform real in the open interval (0, 1) from the top 52 bits of a
/// 64-bit word: `(x + 1/2) / 2^52`, never 0 and never 1.
#[inline]
fn open_unit<S: RandomSource>(rng: &mut S) -> f64 {
    const SCALE: f64 = 1.0 / (1u64 << 52) as f64;
    ((rng.bits64() >> 12) as f64 + 0.5) * SCALE
}

/// ln(1 - W) for W = exp(log_w), accurately at both ends (W near 1 and W
/// tiny); strictly negative unless W underflows to 0.
#[inline]
fn ln_one_minus(log_w: f64) -> f64 {
    if log_w < -1.0 {
        (-log_w.exp()).ln_1p()
    } else {
        (-log_w.exp_m1()).ln()
    }
}

/// Li's Algorithm L: keep items `0..k`; W = u^(1/k); then repeatedly skip
/// `floor(ln u / ln(1 - W))` items, put the next one at a uniform slot
/// (`uniform[0, k-1]`) and multiply W by u^(1/k) (each u a fresh uniform
/// real in (0, 1), made by [`open_unit`] from `bits64`). W is kept as its
/// logarithm.
pub(super) fn reservoir_skip<S: RandomSource>(n: usize, k: usize, rng: &mut S, out: &mut Vec<u32>) {
    first_k(out, k);
    if k == n {
        return;
    }
    let kf = k as f64;
    let limit = n as f64;
    let mut log_w = open_unit(rng).ln() / kf;
    let mut last = (k - 1) as f64; // the last item considered, 0-based
    loop {
        let skip = (open_unit(rng).ln() / ln_one_minus(log_w)).floor();
        let next = last + skip + 1.0;
        // Also leaves on NaN or infinity (W underflowed to 0: skip is +inf).
        if next.is_nan() || next >= limit {
            return;
        }
        last = next;
        out[rng.below(k as u32) as usize] = next as u32;
        log_w += open_unit(rng).ln() / kf;
    }
}

/// Floyd: for `j = n-k ..= n-1`: `t = uniform[0, j]`; insert `t`, or `j`
/// when `t` is already in (`j` never is: every earlier pick is below `j`).
/// Output in insertion order, which is not uniform: an unordered sampler.
#[inline]
pub(super) fn floyd<S: RandomSource>(
    n: usize,
    k: usize,
    rng: &mut S,
    out: &mut Vec<u32>,
    flags: &mut Vec<bool>,
) {
    let taken = flags_for(flags, n, out);
    for j in n - k..n {
        let t = rng.below(j as u32 + 1) as usize;
        let pick = if taken[t] { j } else { t };
        taken[pick] = true;
        out.push(pick as u32);
    }
    release(taken, out);
}

/// Knuth's Algorithm S (selection sampling): scan `i = 0..n`, take `i` when
/// `uniform[0, n-i-1] < k - taken` (probability (k - taken)/(n - i)),
/// stopping once `k` are taken. Output ascending.
#[inline]
pub(super) fn selection<S: RandomSource>(n: usize, k: usize, rng: &mut S, out: &mut Vec<u32>) {
    out.clear();
    let mut need = k;
    for i in 0..n {
        if need == 0 {
            return;
        }
        if (rng.below((n - i) as u32) as usize) < need {
            out.push(i as u32);
            need -= 1;
        }
    }
}

/// The first `k` steps of forward Fisher–Yates on `[0, ..., n-1]`: for
/// `i in 0..k`: `j = uniform[i, n-1]`; swap `a[i]`, `a[j]`. Returns
/// `a[0..k]` in order. O(k) per trial: `identity` is the array, and its
/// swaps are undone afterwards (`swaps` remembers them).
#[inline]
pub(super) fn partial_fisher_yates<S: RandomSource>(
    n: usize,
    k: usize,
    rng: &mut S,
    out: &mut Vec<u32>,
    identity: &mut Vec<u32>,
    swaps: &mut Vec<u32>,
) {
    if identity.len() != n {
        identity.clear();
        identity.extend(0..n as u32);
    }
    swaps.clear();
    let last = n as u32 - 1;
    for i in 0..k {
        let j = rng.between(i as u32, last);
        identity.swap(i, j as usize);
        swaps.push(j);
    }
    out.clear();
    out.extend_from_slice(&identity[..k]);
    for (i, &j) in swaps.iter().enumerate().rev() {
        identity.swap(i, j as usize);
    }
}

/// Draws `uniform[0, n-1]` until `k` distinct values are in hand; output
/// in draw order (ordered).
#[inline]
pub(super) fn retry_distinct<S: RandomSource>(
    n: usize,
    k: usize,
    rng: &mut S,
    out: &mut Vec<u32>,
    flags: &mut Vec<bool>,
) {
    let taken = flags_for(flags, n, out);
    while out.len() < k {
        let d = rng.below(n as u32);
        if !taken[d as usize] {
            taken[d as usize] = true;
            out.push(d);
        }
    }
    release(taken, out);
}

/// The minesweeper way: a board of `n` cells with marks in the first `k`,
/// shuffled by Durstenfeld's Fisher–Yates (the audited
/// [`fisher_yates`](crate::algorithm::fisher_yates)), then the marked
/// cells taken in ascending order. O(n) per trial.
#[inline]
pub(super) fn shuffle_prefix<S: RandomSource>(
    n: usize,
    k: usize,
    rng: &mut S,
    out: &mut Vec<u32>,
    board: &mut Vec<u32>,
) {
    board.clear();
    board.resize(n, 0);
    board[..k].fill(1);
    fisher_yates(board, rng);
    out.clear();
    out.extend(
        board
            .iter()
            .enumerate()
            .filter(|&(_, &mark)| mark == 1)
            .map(|(cell, _)| cell as u32),
    );
}

/// A fast hasher for the `u32` keys of [`virtual_swap`]'s map (a
/// multiplicative hash: the low bits pick the bucket, the high bits the
/// control byte; both are well mixed for small integer keys).
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(26) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

/// The map of displaced slots that [`virtual_swap`] keeps.
pub(super) type SwapMap = HashMap<u32, u32, BuildHasherDefault<KeyHasher>>;

/// `k` calls of the O(1) no-repeat getter: with `m` values not yet
/// returned, virtually laid out in slots `0..m`, draw `r = uniform[0, m-1]`,
/// return slot `r`'s value and move slot `m-1`'s value into slot `r`; a slot
/// that never moved holds its own index, so only moved slots are kept, in a
/// hash map (cleared per trial; it keeps its capacity). Output in draw order
/// (ordered).
#[inline]
pub(super) fn virtual_swap<S: RandomSource>(
    n: usize,
    k: usize,
    rng: &mut S,
    out: &mut Vec<u32>,
    map: &mut SwapMap,
) {
    map.clear();
    out.clear();
    let mut m = n as u32;
    for _ in 0..k {
        let r = rng.below(m);
        let last = m - 1;
        let value = map.get(&r).copied().unwrap_or(r);
        let moved = map.get(&last).copied().unwrap_or(last);
        map.insert(r, moved);
        out.push(value);
        m -= 1;
    }
}

/// The "`WHERE random() < k/N LIMIT k`" pattern: scan in order, taking each
/// untaken item when `uniform[0, n-1] < k` (an exact rational coin of
/// probability k/n), until `k` are taken; while short, scan the untaken
/// ones again. Output in taking order (unordered).
#[inline]
pub(super) fn bernoulli_trim<S: RandomSource>(
    n: usize,
    k: usize,
    rng: &mut S,
    out: &mut Vec<u32>,
    flags: &mut Vec<bool>,
) {
    let taken = flags_for(flags, n, out);
    while out.len() < k {
        bernoulli_pass(n, k, rng, out, taken);
    }
    release(taken, out);
}

/// One scan of [`bernoulli_trim`] over the items not yet `taken`, adding
/// to `out` (and `taken`) until `out` holds `k`. The exact law replays this
/// very function, one pass at a time.
#[inline]
pub(super) fn bernoulli_pass<S: RandomSource>(
    n: usize,
    k: usize,
    rng: &mut S,
    out: &mut Vec<u32>,
    taken: &mut [bool],
) {
    for (i, flag) in taken.iter_mut().enumerate() {
        if out.len() == k {
            return;
        }
        if !*flag && (rng.below(n as u32) as usize) < k {
            *flag = true;
            out.push(i as u32);
        }
    }
}

/// Systematic sampling: `s = uniform[0, n/k - 1]`; take `s, s + n/k, ...,
/// s + (k-1)·n/k`. Needs `k | n`.
#[inline]
pub(super) fn systematic<S: RandomSource>(n: usize, k: usize, rng: &mut S, out: &mut Vec<u32>) {
    let step = (n / k) as u32;
    let s = rng.below(step);
    out.clear();
    out.extend((0..k as u32).map(|t| s + t * step));
}

/// `k` times: draw `uniform[0, n-1]`; if that cell is taken, move to the
/// next free cell (wrapping). Output in taking order (unordered).
#[inline]
pub(super) fn linear_probe<S: RandomSource>(
    n: usize,
    k: usize,
    rng: &mut S,
    out: &mut Vec<u32>,
    flags: &mut Vec<bool>,
) {
    let taken = flags_for(flags, n, out);
    for _ in 0..k {
        let mut d = rng.below(n as u32) as usize;
        while taken[d] {
            d += 1;
            if d == n {
                d = 0;
            }
        }
        taken[d] = true;
        out.push(d as u32);
    }
    release(taken, out);
}

/// The first `k` cells of `[0, ..., n-1]` after the naive swap shuffle (the
/// audited [`naive_swap`](crate::algorithm::naive_swap): for every `i`,
/// swap `a[i]`, `a[uniform[0, n-1]]`), in order. O(n) per trial.
#[inline]
pub(super) fn naive_swap_prefix<S: RandomSource>(
    n: usize,
    k: usize,
    rng: &mut S,
    out: &mut Vec<u32>,
    board: &mut Vec<u32>,
) {
    board.clear();
    board.extend(0..n as u32);
    naive_swap(board, rng);
    out.clear();
    out.extend_from_slice(&board[..k]);
}

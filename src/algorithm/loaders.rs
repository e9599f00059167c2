//! The partial shuffles of data pipelines, which trade uniformity for
//! memory on purpose: a shuffle buffer (TensorFlow's `Dataset.shuffle`),
//! shard-then-shuffle (streaming loaders) and per-window shuffles. Each is
//! uniform only when its parameter covers the whole dataset; the audit says
//! how far from uniform a smaller one is.

use super::Algorithm;
use crate::source::RandomSource;
use serde::Serialize;
use std::fmt;

/// A data-loader shuffle, without its size (serialised by its algorithm
/// name, `buffer-shuffle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loader {
    /// `buffer-shuffle:b=B`, a shuffle buffer of B items.
    Buffer,
    /// `window-shuffle:w=W`, each window of W items shuffled in place.
    Window,
    /// `shard-shuffle:s=S`, shards of S in a uniform order, shuffled within.
    Shard,
}

impl Loader {
    /// The three loaders, in the order curves show them.
    pub const ALL: [Loader; 3] = [Loader::Buffer, Loader::Window, Loader::Shard];

    /// The three loaders with this one first (the one a curve is for), the
    /// others in [`ALL`](Self::ALL) order: the order of curves and columns.
    pub fn first(self) -> Vec<Loader> {
        let mut order = vec![self];
        order.extend(Loader::ALL.iter().filter(|&&l| l != self));
        order
    }

    /// The loader `algorithm` is, if it is one.
    pub fn of(algorithm: &Algorithm) -> Option<Loader> {
        algorithm.loader().map(|(loader, _)| loader)
    }

    /// The algorithm's name (`buffer-shuffle`).
    pub fn name(self) -> &'static str {
        match self {
            Loader::Buffer => "buffer-shuffle",
            Loader::Window => "window-shuffle",
            Loader::Shard => "shard-shuffle",
        }
    }

    /// The letter of its size parameter (`b`, `w`, `s`).
    pub fn key(self) -> &'static str {
        match self {
            Loader::Buffer => "b",
            Loader::Window => "w",
            Loader::Shard => "s",
        }
    }

    /// Whether the loader with size `size` is a uniform shuffle of `n`
    /// items: its buffer, window or shard covers them all (and shards of
    /// one item are a uniform order of single items).
    pub fn is_uniform(self, size: usize, n: usize) -> bool {
        match self {
            Loader::Buffer | Loader::Window => size >= n,
            Loader::Shard => size >= n || size == 1,
        }
    }
}

impl Serialize for Loader {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl fmt::Display for Loader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The shuffle buffer: fill a buffer with the first `b` items; then, for
/// every output position, output a uniform element of the buffer and put
/// the next input item in its place (at the end, when the input is spent,
/// the buffer drains). Uniform only when `b >= n`; with a small buffer an
/// item cannot travel more than about `b` places forward, and early items
/// come out early.
pub fn buffer_shuffle<R: RandomSource>(
    a: &mut [u32],
    rng: &mut R,
    b: usize,
    buffer: &mut Vec<u32>,
) {
    let n = a.len();
    let b = b.clamp(1, n.max(1));
    buffer.clear();
    buffer.extend_from_slice(&a[..b.min(n)]);
    let mut next = b;
    for t in 0..n {
        let j = rng.below(buffer.len() as u32) as usize;
        // `next > t` always, so a[next] is still unread input.
        a[t] = buffer[j];
        if next < n {
            buffer[j] = a[next];
            next += 1;
        } else {
            buffer.swap_remove(j);
        }
    }
}

/// Shard, then shuffle: cut the items into consecutive shards of `s` (the
/// last may be shorter), put the shards in a uniform order, and shuffle
/// within each shard (Fisher–Yates throughout). Uniform only when `s >= n`
/// (one shard) or `s == 1` (every shard one item): otherwise items of a
/// shard stay together.
pub fn shard_shuffle<R: RandomSource>(
    a: &mut [u32],
    rng: &mut R,
    s: usize,
    order: &mut Vec<u32>,
    input: &mut Vec<u32>,
) {
    let n = a.len();
    let s = s.max(1);
    let shards = n.div_ceil(s);
    order.clear();
    order.extend(0..shards as u32);
    super::fisher_yates(order, rng);
    // Lay the shards out in their new order (from a copy of the input:
    // shards have unequal lengths when s does not divide n).
    input.clear();
    input.extend_from_slice(a);
    let mut at = 0;
    for &shard in order.iter() {
        let start = shard as usize * s;
        let end = (start + s).min(n);
        let piece = &mut a[at..at + (end - start)];
        piece.copy_from_slice(&input[start..end]);
        super::fisher_yates(piece, rng);
        at += end - start;
    }
}

/// Shuffle each consecutive window of `w` items in place (Fisher–Yates),
/// the windows staying in order. Uniform only when `w >= n`: an item never
/// leaves its window.
pub fn window_shuffle<R: RandomSource>(a: &mut [u32], rng: &mut R, w: usize) {
    for window in a.chunks_mut(w.max(1)) {
        super::fisher_yates(window, rng);
    }
}

/// The exact marginal law of [`buffer_shuffle`] with ideal draws:
/// `p[t * n + i]` = P(item i is output at position t).
///
/// Items in the buffer are exchangeable, so only when an item enters and
/// how full the buffer is matter: item i is in the buffer from step
/// `e_i = max(0, i − b + 1)`, the buffer holds `m_t = min(b, n − t)` items
/// at step t, and each is output with probability 1/m_t; so
/// P(i at t) = (1/m_t) · Π_{s = e_i}^{t−1} (1 − 1/m_s) for t ≥ e_i, else 0.
/// O(n²) time and memory; each row and column sums to 1.
#[cfg(test)]
pub fn buffer_marginals(n: usize, b: usize) -> Vec<f64> {
    let b = b.clamp(1, n.max(1));
    let mut p = vec![0.0; n * n];
    let m = |t: usize| b.min(n - t) as f64;
    for i in 0..n {
        let enter = (i + 1).saturating_sub(b);
        let mut survive = 1.0;
        for t in enter..n {
            p[t * n + i] = survive / m(t);
            survive *= 1.0 - 1.0 / m(t);
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::super::tests::is_permutation;
    use super::*;
    use crate::source::{StreamSource, Xoshiro256ppSource};

    fn rng(seed: u64) -> impl RandomSource {
        Xoshiro256ppSource::for_stream(seed, 0)
    }

    #[test]
    fn every_loader_returns_a_permutation_for_any_parameter() {
        let mut r = rng(1);
        let (mut buffer, mut order) = (Vec::new(), Vec::new());
        for n in [0usize, 1, 2, 7, 10, 33] {
            for param in [1usize, 2, 3, 10, 50] {
                let mut a: Vec<u32> = (0..n as u32).collect();
                buffer_shuffle(&mut a, &mut r, param, &mut buffer);
                assert!(is_permutation(&a), "buffer {n} {param}: {a:?}");
                shard_shuffle(&mut a, &mut r, param, &mut order, &mut buffer);
                assert!(is_permutation(&a), "shard {n} {param}: {a:?}");
                window_shuffle(&mut a, &mut r, param);
                assert!(is_permutation(&a), "window {n} {param}: {a:?}");
            }
        }
    }

    #[test]
    fn windows_and_shards_keep_their_items_together() {
        let mut r = rng(2);
        let mut a: Vec<u32> = (0..12).collect();
        window_shuffle(&mut a, &mut r, 4);
        for (w, chunk) in a.chunks(4).enumerate() {
            assert!(chunk.iter().all(|&v| v as usize / 4 == w), "{a:?}");
        }
        let mut a: Vec<u32> = (0..10).collect();
        shard_shuffle(&mut a, &mut r, 3, &mut Vec::new(), &mut Vec::new());
        // Every shard's items are contiguous in the output.
        for shard in 0..4u32 {
            let at: Vec<usize> = (0..10).filter(|&p| a[p] / 3 == shard).collect();
            assert_eq!(at.last().unwrap() - at[0] + 1, at.len(), "{a:?}");
        }
    }

    #[test]
    fn buffer_marginals_are_a_doubly_stochastic_law_and_match_a_long_run() {
        let (n, b) = (8usize, 3usize);
        let p = buffer_marginals(n, b);
        for t in 0..n {
            let row: f64 = p[t * n..(t + 1) * n].iter().sum();
            let col: f64 = (0..n).map(|u| p[u * n + t]).sum();
            assert!((row - 1.0).abs() < 1e-12 && (col - 1.0).abs() < 1e-12);
        }
        // Item 7 enters at step 5: it can never come out earlier.
        assert_eq!(p[4 * n + 7], 0.0);
        let trials = 400_000;
        let mut counts = vec![0u64; n * n];
        let mut r = rng(3);
        let mut buffer = Vec::new();
        for _ in 0..trials {
            let mut a: Vec<u32> = (0..n as u32).collect();
            buffer_shuffle(&mut a, &mut r, b, &mut buffer);
            for (t, &v) in a.iter().enumerate() {
                counts[t * n + v as usize] += 1;
            }
        }
        for (cell, (&c, &q)) in counts.iter().zip(&p).enumerate() {
            let expected = q * trials as f64;
            let sd = (expected * (1.0 - q)).sqrt().max(1.0);
            assert!(
                (c as f64 - expected).abs() < 5.0 * sd,
                "cell {cell}: {c} vs {expected:.0}"
            );
        }
        // A buffer as large as the data is a uniform shuffle.
        assert!(
            buffer_marginals(6, 6)
                .iter()
                .all(|&q| (q - 1.0 / 6.0).abs() < 1e-12)
        );
    }
}

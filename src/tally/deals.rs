//! What the birthday test counts: a deterministic sample of the deals, each
//! as one 64-bit value, among which identical deals are paired up.
//!
//! Each deal gets a value ([`deal_value`]): up to n = 20 its rank among the
//! n! permutations (so equal values mean equal deals, exactly); above, a 64-bit hash of its values (two
//! different deals share a hash with probability 2⁻⁶⁴, so spurious pairs
//! add about C(M, 2)/2⁶⁴ to the count: negligible). A deal is kept when its
//! scrambled value lies in the lowest 2⁻ˢ of the range ([`DealSample::level`],
//! [`selected`]), s the
//! smallest level keeping at most [`MAX_KEPT`] deals (8 bytes each). The
//! kept set is then a function of the multiset of deals alone: whichever
//! chunks, threads, blocks or shards counted them, and in whatever order
//! tallies merge, the same deals are kept. Under a uniform shuffle the kept
//! deals are independent and uniform over the k deals whose value is in
//! range (k = ⌊n!/2ˢ⌋ exactly up to n = 12, about n!/2ˢ above), so their pairs
//! follow the collision law of [`crate::stats::collisions`]: Poisson with
//! mean C(M, 2)/k while M ≪ k. Sampling by value rather than by order keeps
//! all the pairs among kept deals, about 2⁻ˢ of all the pairs of the run,
//! where the first M deals would hold only (M/T)² of them.

use crate::permutation::{factorial, rank};
use crate::source::avalanche;
use rayon::slice::ParallelSliceMut;
use serde::{Deserialize, Serialize};

/// The most deals a sample keeps: 2^20 (8 MiB of values).
pub const MAX_KEPT: usize = 1 << 20;

/// Up to this n a deal's value is its rank (n! < 2^63).
pub const EXACT_N: usize = 20;

/// Up to this n the sample's selection is an exact bijection of the ranks
/// (see [`selected`]): n! < 2^29, so a rank times [`SCRAMBLE`] fits in 64 bits.
pub const EXACT_SELECTION_N: usize = 12;

/// The largest n whose n! is finite in a double.
const FINITE_FACTORIAL_N: usize = 170;

/// The multiplier of the rank scramble: the prime 2^32 + 15, larger than
/// any prime factor of n! for n ≤ 12, so multiplying by it modulo n! is a
/// bijection of `0..n!`.
const SCRAMBLE: u64 = (1 << 32) + 15;

/// A deterministic sample of a run's deals (see the module docs), merged
/// by union at the finer level.
///
/// The kept values are a set in no particular order: counting and merging
/// only append and filter, and nothing sorts them until a test counts the
/// pairs ([`pairs`](Self::pairs)). Comparison and serialization see them
/// sorted, so equal samples compare equal and tally files are the same
/// bytes however the run was split. (Sorting each worker's share instead,
/// up to 2^20 values while it has not yet been thinned to the run's level,
/// held the 2-thread default audit at n = 52 to 1.80× one thread; 1.84×
/// without those sorts, measured by `bench`.)
#[derive(Debug, Clone, Eq, Serialize, Deserialize)]
pub struct DealSample {
    /// Deals offered (all of the run's, T).
    pub deals: u64,
    /// s: the values kept are those below range / 2ˢ.
    pub level: u32,
    /// The values kept, in no particular order (written sorted).
    #[serde(serialize_with = "sorted")]
    pub kept: Vec<u64>,
}

impl PartialEq for DealSample {
    /// The same deals offered, the same level and the same kept values
    /// (as multisets).
    fn eq(&self, other: &Self) -> bool {
        self.deals == other.deals
            && self.level == other.level
            && self.kept.len() == other.kept.len()
            && sorted_copy(&self.kept) == sorted_copy(&other.kept)
    }
}

/// The kept values, sorted: the sample's canonical form.
fn sorted_copy(kept: &[u64]) -> Vec<u64> {
    let mut copy = kept.to_vec();
    copy.sort_unstable();
    copy
}

/// Serializes the kept values sorted: the sample's canonical form.
fn sorted<S: serde::Serializer>(kept: &[u64], s: S) -> Result<S::Ok, S::Error> {
    sorted_copy(kept).serialize(s)
}

impl Default for DealSample {
    fn default() -> Self {
        Self::new()
    }
}

impl DealSample {
    /// An empty sample, keeping every deal until it holds [`MAX_KEPT`].
    pub fn new() -> Self {
        Self {
            deals: 0,
            level: 0,
            kept: Vec::new(),
        }
    }

    /// Counts the deals of `batch` (rows of `n` back to back).
    #[inline]
    pub fn offer_batch(&mut self, batch: &[u32], n: usize) {
        if n == 0 {
            return;
        }
        for deal in batch.chunks_exact(n) {
            let value = deal_value(deal);
            if selected(value, n, self.level) {
                self.kept.push(value);
                if self.kept.len() > MAX_KEPT {
                    self.thin(n);
                }
            }
        }
        self.deals += (batch.len() / n) as u64;
    }

    /// Raises the level until at most [`MAX_KEPT`] values are kept.
    fn thin(&mut self, n: usize) {
        while self.kept.len() > MAX_KEPT {
            self.level += 1;
            let level = self.level;
            keep_selected(&mut self.kept, n, level);
        }
    }

    /// Adds another sample of deals of `n`: the union, thinned to the finer
    /// level of the two and below [`MAX_KEPT`].
    pub fn merge(&mut self, other: &DealSample, n: usize) {
        self.deals += other.deals;
        let level = self.level.max(other.level);
        // Only the sample at the coarser level has values to drop.
        if self.level < level {
            keep_selected(&mut self.kept, n, level);
        }
        if other.level < level {
            self.kept
                .extend(other.kept.iter().filter(|&&v| selected(v, n, level)));
        } else {
            self.kept.extend_from_slice(&other.kept);
        }
        self.level = level;
        self.thin(n);
    }

    /// The number of pairs of kept deals that are identical.
    ///
    /// Counted once per audit after the workers have merged, on a sorted
    /// copy of up to [`MAX_KEPT`] values: the sort runs on the current
    /// rayon pool (the audit's own, see `audit::run`), since on one thread
    /// it was most of the serial tail of a default audit at n = 52.
    pub fn pairs(&self) -> u64 {
        let mut sorted = self.kept.clone();
        sorted.par_sort_unstable();
        let mut pairs = 0u64;
        let mut run = 0u64;
        for (i, v) in sorted.iter().enumerate() {
            run = if i > 0 && sorted[i - 1] == *v {
                run + 1
            } else {
                0
            };
            pairs += run;
        }
        pairs
    }

    /// The number of deals of `n` whose value is in the kept range: k, over
    /// which kept deals are uniform under a uniform shuffle (exact up to
    /// n = 20, n!/2ˢ above).
    pub fn cells(&self, n: usize) -> f64 {
        if n <= EXACT_SELECTION_N {
            (factorial(n) as u64 >> self.level.min(63)) as f64
        } else {
            self.log2_cells(n).exp2()
        }
    }

    /// The number of equally likely values a kept deal of `n` takes under a
    /// uniform shuffle, as the birthday test tells deals apart: the
    /// [`cells`](Self::cells) k up to n = [`EXACT_N`], where a deal is known
    /// by its rank; above, where it is known by a 64-bit hash and two kept
    /// deals also pair when their hashes agree, k' with 1/k' = 1/k + 2ˢ/2⁶⁴
    /// (2^(64 − s) exactly above n = 170, where k is beyond 2^962).
    pub fn effective_cells(&self, n: usize) -> f64 {
        let cells = self.cells(n);
        if n <= EXACT_N {
            cells
        } else {
            1.0 / (1.0 / cells + (f64::from(self.level) - 64.0).exp2())
        }
    }

    /// log2 of [`cells`](Self::cells), finite where k itself overflows
    /// (n > 170): log2(n!) − s.
    ///
    /// log2(n!) is summed where n! is finite in a double, and taken from
    /// the log-gamma function above (the sum took 5 ms at n = 10^6, twice
    /// per birthday test): there k is 2^962 or more, far beyond the 2^64
    /// deals a hash tells apart, so the birthday test's p-value does not
    /// depend on it, only the size it states.
    pub fn log2_cells(&self, n: usize) -> f64 {
        if n <= EXACT_SELECTION_N {
            return self.cells(n).log2();
        }
        let log2_fact = if n <= FINITE_FACTORIAL_N {
            (1..=n).map(|k| (k as f64).log2()).sum()
        } else {
            statrs::function::gamma::ln_gamma(n as f64 + 1.0) / std::f64::consts::LN_2
        };
        log2_fact - f64::from(self.level)
    }
}

/// Whether a deal of `n` with value `value` is kept at `level`: every deal
/// at level 0; above, those whose scrambled value lies in the lowest 2⁻ˢ of
/// its range. Up to n = [`EXACT_SELECTION_N`] the scramble is a bijection
/// of `0..n!` (multiplying by a prime larger than n, modulo n!), so exactly
/// ⌊n!/2ˢ⌋ deals are in range; above, the splitmix64 finaliser, and about
/// n!/2ˢ are (the relative error, √(2ˢ/n!), moves the expected pairs by
/// about T/(1.4·n!) standard deviations: negligible from n = 13 on).
#[inline]
fn selected(value: u64, n: usize, level: u32) -> bool {
    if level == 0 {
        return true;
    }
    if n <= EXACT_SELECTION_N {
        let total = factorial(n) as u64;
        (value.wrapping_mul(SCRAMBLE) % total) < total >> level.min(63)
    } else {
        avalanche(value) < u64::MAX >> level.min(63)
    }
}

/// Keeps the values of `kept` that are [`selected`] at `level`, in order:
/// a compaction without a branch on the outcome (about half the values go
/// at each level, and a branch on that would mispredict half the time).
fn keep_selected(kept: &mut Vec<u64>, n: usize, level: u32) {
    let mut to = 0;
    for from in 0..kept.len() {
        let v = kept[from];
        kept[to] = v;
        to += usize::from(selected(v, n, level));
    }
    kept.truncate(to);
}

/// A deal's value: its rank among the n! permutations up to n = 20 (so
/// equal values are equal deals, exactly), a 64-bit hash of its values
/// above.
#[inline]
pub fn deal_value(deal: &[u32]) -> u64 {
    if deal.len() <= EXACT_N {
        return rank(deal) as u64;
    }
    hash(deal)
}

/// A 64-bit hash of a deal: its values packed into words (8 to a word as
/// bytes up to n = 256, else 2), each word mixed with its index and folded
/// by a 64×64→128-bit multiply, the results added (independent multiplies,
/// so they overlap in the CPU), then a final avalanche.
#[inline]
fn hash(deal: &[u32]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    const SALT: u64 = 0xA076_1D64_78BD_642F;
    let mum = |x: u64| {
        let m = u128::from(x) * u128::from(K);
        (m as u64) ^ ((m >> 64) as u64)
    };
    let lane = |i: usize, word: u64| mum(word ^ SALT.wrapping_mul(i as u64 + 1));
    let n = deal.len();
    let mut h = 0u64;
    if n <= 256 {
        let words = deal.chunks_exact(8);
        let rest = words.remainder();
        let full = words.len();
        for (i, chunk) in words.enumerate() {
            h = h.wrapping_add(lane(i, pack_eight(chunk.try_into().expect("8 values"))));
        }
        if !rest.is_empty() {
            h = h.wrapping_add(lane(full, pack(rest)));
        }
    } else {
        for (i, chunk) in deal.chunks(2).enumerate() {
            let word = chunk.iter().fold(0u64, |w, &v| (w << 32) | u64::from(v));
            h = h.wrapping_add(lane(i, word));
        }
    }
    avalanche(h ^ n as u64)
}

/// Up to 8 values as the bytes of a word: byte j is the low byte of value
/// j (the value itself up to n = 256).
#[inline]
fn pack(chunk: &[u32]) -> u64 {
    chunk
        .iter()
        .enumerate()
        .fold(0u64, |w, (j, &v)| w | (u64::from(v as u8) << (8 * j)))
}

/// [`pack`] of exactly 8 values: on x86-64 two SSE2 packs of 4 lanes each
/// (three times fewer instructions than the shifts, on every x86-64 CPU).
#[inline]
fn pack_eight(chunk: &[u32; 8]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_cvtsi128_si64, _mm_loadu_si128, _mm_packs_epi32,
            _mm_packus_epi16, _mm_set1_epi32,
        };
        // SAFETY: SSE2 is part of x86-64; the loads read the 8 values of
        // `chunk` (unaligned loads of 16 bytes each).
        unsafe {
            let low = _mm_set1_epi32(0xFF);
            let a = _mm_and_si128(_mm_loadu_si128(chunk.as_ptr().cast::<__m128i>()), low);
            let b = _mm_and_si128(
                _mm_loadu_si128(chunk.as_ptr().add(4).cast::<__m128i>()),
                low,
            );
            // Lanes ≤ 255 pack to 16 then 8 bits unchanged (no saturation).
            let words = _mm_packs_epi32(a, b);
            _mm_cvtsi128_si64(_mm_packus_epi16(words, words)) as u64
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    pack(chunk)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::unrank;

    /// Above the n whose n! a double holds, log2 of the cells comes from
    /// log-gamma: the sum it replaces, to 1e-12 of it; and the cells the
    /// birthday test judges by are the hash's 2^(64 − s) there, whatever
    /// log2(n!) is.
    #[test]
    fn log_gamma_cells_agree_with_the_sum() {
        for n in [FINITE_FACTORIAL_N + 1, 312, 5_000, 100_000] {
            for level in [0, 3, 40] {
                let sample = DealSample {
                    deals: 1000,
                    level,
                    kept: Vec::new(),
                };
                let sum: f64 = (1..=n).map(|k| (k as f64).log2()).sum::<f64>() - f64::from(level);
                let got = sample.log2_cells(n);
                assert!((got - sum).abs() < 1e-12 * sum, "n = {n}: {got} vs {sum}");
                assert_eq!(
                    sample.effective_cells(n),
                    (64.0 - f64::from(level)).exp2(),
                    "n = {n}, level {level}"
                );
            }
        }
    }

    #[test]
    fn small_deals_get_distinct_values_in_range() {
        let mut seen: Vec<u64> = (0..factorial(6))
            .map(|r| deal_value(&unrank(r, 6)))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 720);
        assert!(seen.iter().all(|&v| v < 720));
        for level in 0..5 {
            let kept = seen.iter().filter(|&&v| selected(v, 6, level)).count();
            let cells = DealSample {
                level,
                ..DealSample::new()
            }
            .cells(6);
            assert_eq!(kept as f64, cells, "level {level}");
        }
    }

    #[test]
    fn samples_merge_to_the_same_set_in_any_grouping() {
        // Deals of 30 (hashed), some repeated, more than MAX_KEPT in all.
        let deal = |i: u64| -> Vec<u32> {
            let mut d: Vec<u32> = (0..30).collect();
            d.swap((i % 30) as usize, ((i / 30) % 30) as usize);
            d.rotate_left(((i / 900) % 30) as usize);
            d
        };
        let batch = |from: u64, to: u64| -> Vec<u32> { (from..to).flat_map(deal).collect() };
        let total = (MAX_KEPT as u64) * 3 / 2;
        let mut whole = DealSample::new();
        whole.offer_batch(&batch(0, total), 30);
        assert!(whole.level >= 1 && whole.kept.len() <= MAX_KEPT);
        let mut a = DealSample::new();
        a.offer_batch(&batch(0, total / 3), 30);
        let mut b = DealSample::new();
        b.offer_batch(&batch(total / 3, total), 30);
        let (a0, mut ba) = (a.clone(), b.clone());
        a.merge(&b, 30);
        ba.merge(&a0, 30);
        assert_eq!(ba, a, "merge order does not matter");
        assert_ne!(ba.kept, a.kept, "the same set in another order");
        assert_eq!(a.level, whole.level);
        assert_eq!(a, whole);
        // Written sorted: the same bytes.
        let json = |s: &DealSample| serde_json::to_string(s).unwrap();
        assert_eq!(json(&a), json(&ba));
        let back: DealSample = serde_json::from_str(&json(&a)).unwrap();
        assert_eq!(back, whole);
        assert!(back.kept.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(a.deals, total);
        // 27,000 distinct deals, each about 58 times: pairs abound.
        assert!(whole.pairs() > 0);
    }

    #[test]
    fn pairs_count_equal_values() {
        let s = DealSample {
            deals: 6,
            level: 0,
            kept: vec![5, 1, 5, 5, 2, 2],
        };
        assert_eq!(s.pairs(), 3 + 1);
        assert_eq!(s.cells(4), 24.0);
        let t = DealSample { level: 3, ..s };
        assert_eq!(t.cells(4), 3.0);
        let log2_fact52: f64 = (1..=52).map(|k| f64::from(k).log2()).sum();
        assert!((t.cells(52).log2() - (log2_fact52 - 3.0)).abs() < 1e-6);
    }

    /// The vector pack and the shifts give each value's low byte in its
    /// place, for values above a byte too.
    #[test]
    fn eight_values_pack_as_their_low_bytes() {
        let chunks: [[u32; 8]; 4] = [
            [0, 1, 2, 3, 4, 5, 6, 7],
            [255, 254, 0, 128, 127, 1, 200, 51],
            [256, 511, 65_535, 70_000, 3, u32::MAX, 0x1_00FF, 9],
            [7, 6, 5, 4, 3, 2, 1, 0],
        ];
        for chunk in chunks {
            let by_shifts = (0..8).fold(0u64, |w, j| w | (u64::from(chunk[j] & 0xFF) << (8 * j)));
            assert_eq!(pack_eight(&chunk), by_shifts, "{chunk:?}");
            assert_eq!(pack(&chunk), by_shifts, "{chunk:?}");
        }
    }
}

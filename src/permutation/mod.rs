//! Statistics of a single permutation, as the structure tests count them.
//!
//! A permutation is an arrangement `a` of `0..n`: `a[p]` is the value at
//! position `p` (what a shuffle of the identity leaves behind).
//!
//! The functions here compute; [`Statistic`] names the statistics that are
//! counted and compared with a known law, and ties each to its function,
//! its number of values and its law under a uniform shuffle ([`laws`]).

pub mod laws;
pub mod simd;
mod statistic;
pub mod word;

pub use simd::Vbmi;
pub use statistic::{Statistic, StatisticScratch};
use std::sync::OnceLock;
use word::WORD;

/// Above this n, [`lehmer_digits`] counts the values seen in a bitmap
/// with a Fenwick tree over its blocks ([`blocked_digits`]) instead of a
/// Fenwick tree over every value: at n = 10^6 the tree's 4 MB outgrow the
/// caches and the bitmap (125 kB) is 3.6× faster; below 2^16 the plain
/// tree is as fast or faster (measured side by side at n = 2^12 to 10^6).
pub const BLOCKED_DIGITS_N: usize = 1 << 16;

/// The Lehmer digits of `a`: digit i = #{j < i : a[j] > a[i]}, in `0..=i`.
/// Under a uniform shuffle the digits are independent and digit i is uniform
/// on `[0, i]`. Up to n = 64 they are popcounts of a word of the values
/// seen ([`word::scan`]); above, prefix counts of a Fenwick tree (O(n log
/// n)), over blocks of a bitmap above [`BLOCKED_DIGITS_N`]. `tree` is
/// scratch.
pub fn lehmer_digits(a: &[u32], digits: &mut Vec<u32>, tree: &mut Vec<u32>) {
    digits.clear();
    if a.len() <= WORD {
        digits.resize(a.len(), 0);
        word::scan(a, digits);
        return;
    }
    if a.len() > BLOCKED_DIGITS_N {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has popcnt.
            unsafe { blocked_digits_popcnt(a, digits, tree) };
            return;
        }
        blocked_digits(a, digits, tree);
    } else {
        fenwick_digits(a, digits, tree);
    }
}

/// The first `count` Lehmer digits of `a` (all of them if there are fewer),
/// by their definition in O(count²): digit i depends only on a[..=i], so
/// a few digits of a long permutation cost a few comparisons.
pub fn leading_digits(a: &[u32], count: usize, digits: &mut Vec<u32>) {
    let head = &a[..count.min(a.len())];
    digits.clear();
    digits.extend(
        head.iter()
            .enumerate()
            .map(|(i, &v)| head[..i].iter().filter(|&&x| x > v).count() as u32),
    );
}

/// [`lehmer_digits`] by a Fenwick tree over the values, in `tree`.
fn fenwick_digits(a: &[u32], digits: &mut Vec<u32>, tree: &mut Vec<u32>) {
    // tree counts the values seen so far; digit i = i − #{seen values < a[i]}.
    digits.clear();
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

/// 32-bit words of the bitmap per leaf of [`blocked_digits`]' tree.
const BLOCK_WORDS: usize = 4;

/// [`lehmer_digits`] for large n: the values seen are bits of a bitmap,
/// and a Fenwick tree counts them per block of [`BLOCK_WORDS`] words, so
/// the values below v seen so far are the tree's prefix over the blocks
/// before v's plus the popcounts of the words before v's in its block and
/// of v's word below it. `scratch` holds the tree, then the bitmap.
#[inline(always)]
fn blocked_digits(a: &[u32], digits: &mut Vec<u32>, scratch: &mut Vec<u32>) {
    let n = a.len();
    let blocks = n.div_ceil(32 * BLOCK_WORDS);
    scratch.clear();
    scratch.resize(blocks + 1 + n.div_ceil(32), 0);
    let (tree, bits) = scratch.split_at_mut(blocks + 1);
    digits.clear();
    for (i, &v) in a.iter().enumerate() {
        let (w, bit) = (v as usize / 32, v % 32);
        let block = w / BLOCK_WORDS;
        let mut smaller = 0;
        let mut k = block; // blocks 0..block, 1-based indices 1..=block
        while k > 0 {
            smaller += tree[k];
            k &= k - 1;
        }
        smaller += bits[block * BLOCK_WORDS..w]
            .iter()
            .map(|x| x.count_ones())
            .sum::<u32>();
        smaller += (bits[w] & ((1u32 << bit) - 1)).count_ones();
        digits.push(i as u32 - smaller);
        bits[w] |= 1 << bit;
        let mut k = block + 1;
        while k <= blocks {
            tree[k] += 1;
            k += k & k.wrapping_neg();
        }
    }
}

/// [`blocked_digits`] compiled with the CPU's popcount: up to four words
/// per value, which without it are a dozen instructions each (the default
/// audit's counting at n = 10^5 and 10^6 took 1.1× less time, measured
/// side by side).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn blocked_digits_popcnt(a: &[u32], digits: &mut Vec<u32>, scratch: &mut Vec<u32>) {
    blocked_digits(a, digits, scratch);
}

/// The rank of `a` among the n! permutations, in `0..n!` (n ≤ 20): the
/// Lehmer digits read as a mixed-radix number (see [`rank_of_digits`]). A
/// bijection, so counting ranks counts permutations.
///
/// # Panics
/// If n > 20 (n! overflows).
pub fn rank(a: &[u32]) -> usize {
    assert!(
        a.len() <= 20,
        "n = {} has too many permutations to rank",
        a.len()
    );
    let mut digits = [0u32; 20];
    word::scan(a, &mut digits);
    rank_of_digits(&digits[..a.len()])
}

/// The rank whose Lehmer digits are `digits`: digit i has radix i + 1, so
/// the rank is the sum of digit i times i!.
#[inline]
pub fn rank_of_digits(digits: &[u32]) -> usize {
    digits
        .iter()
        .rev()
        .enumerate()
        .fold(0, |rank, (k, &d)| rank * (digits.len() - k) + d as usize)
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
#[inline]
pub fn fixed_points(a: &[u32]) -> usize {
    // A 32-bit count of 32-bit comparisons: vectorised, measured 2 to 3
    // times faster than counting matches as usize.
    let mut count = 0u32;
    for (p, &v) in a.iter().enumerate() {
        count += u32::from(v == p as u32);
    }
    count as usize
}

/// The number of cycles of `a` as a mapping position → value (fixed points
/// count as cycles of length 1), by the fastest method this CPU has for n
/// (see [`CycleCount`]). `seen` is scratch.
pub fn cycles(a: &[u32], seen: &mut CycleScratch) -> usize {
    CycleCount::for_n(a.len()).count(a, seen)
}

/// Whether vectors count the cycles and fixed points of arrangements of
/// `n` (≤ [`WORD`]) faster than the word on this CPU: measured once per n
/// and process, on the same 256 arrangements both ways, alternating, the
/// best of 5 rounds each (about 0.1 ms in all).
fn measured_choice(n: usize, vbmi: Vbmi) -> bool {
    static CHOICES: [OnceLock<bool>; WORD + 1] = [const { OnceLock::new() }; WORD + 1];
    *CHOICES[n].get_or_init(|| {
        let mut x = 0x853C_49E6_748F_EA9Bu64;
        let mut a: Vec<u32> = (0..n as u32).collect();
        let batch: Vec<u32> = (0..256)
            .flat_map(|_| {
                for i in (1..n).rev() {
                    x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    a.swap(i, ((x >> 33) % (i as u64 + 1)) as usize);
                }
                a.clone()
            })
            .collect();
        let time = |method: CycleCount| {
            let start = std::time::Instant::now();
            let mut seen = CycleScratch::default();
            let total: usize = batch
                .chunks_exact(n.max(1))
                .map(|a| {
                    let (c, f) = method.count_with_fixed_points(std::hint::black_box(a), &mut seen);
                    c + f
                })
                .sum();
            std::hint::black_box(total);
            start.elapsed()
        };
        let (mut vector, mut word) = (std::time::Duration::MAX, std::time::Duration::MAX);
        for _ in 0..5 {
            vector = vector.min(time(CycleCount::Vector(vbmi)));
            word = word.min(time(CycleCount::Word));
        }
        vector < word
    })
}

/// A method of counting the cycles of arrangements: chosen once for a size
/// and a CPU, then used for many arrangements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CycleCount {
    /// Vector byte permutes, n ≤ 64 ([`Vbmi::cycles_and_fixed_points`]).
    Vector(Vbmi),
    /// Following each cycle with a word of unvisited positions, n ≤ 64
    /// ([`word::cycles`]).
    Word,
    /// Following each cycle with a flag per position, any n.
    Walk,
}

impl CycleCount {
    /// The fastest method for arrangements of `n` on this CPU: above
    /// [`WORD`] the walk; below, where the CPU has the vector instructions,
    /// whichever of vectors and the word measured faster here
    /// ([`measured_choice`]), since having AVX-512 is not having it fast
    /// (on one 16-core Xeon the vector path made the default audit at
    /// n = 10 2.4× slower than on a 2-core EPYC, where the bare shuffle was
    /// 1.4× slower); else the word. Every method gives the same counts.
    pub fn for_n(n: usize) -> Self {
        if n > WORD {
            return CycleCount::Walk;
        }
        match Vbmi::detect() {
            Some(vbmi) if measured_choice(n, vbmi) => CycleCount::Vector(vbmi),
            _ => CycleCount::Word,
        }
    }

    /// The number of cycles of `a`, which must have the n the method was
    /// chosen for. `seen` is scratch (for [`CycleCount::Walk`]).
    #[inline]
    pub fn count(self, a: &[u32], seen: &mut CycleScratch) -> usize {
        match self {
            CycleCount::Vector(vbmi) => vbmi.cycles_and_fixed_points(a).0,
            CycleCount::Word => word::cycles(a),
            CycleCount::Walk => walk_cycles(a, seen),
        }
    }

    /// The number of cycles of `a` (see [`count`](Self::count)) and of its
    /// fixed points, which vectors give at almost no extra cost.
    #[inline]
    pub fn count_with_fixed_points(self, a: &[u32], seen: &mut CycleScratch) -> (usize, usize) {
        match self {
            CycleCount::Vector(vbmi) => vbmi.cycles_and_fixed_points(a),
            CycleCount::Word => word::cycles_and_fixed_points(a),
            CycleCount::Walk => (self.count(a, seen), fixed_points(a)),
        }
    }

    /// [`count_with_fixed_points`](Self::count_with_fixed_points) with the
    /// vector method inlined ([`Vbmi::cycles_and_fixed_points_inlined`]):
    /// for loops compiled with its features.
    #[inline(always)]
    pub fn count_with_fixed_points_inlined(
        self,
        a: &[u32],
        seen: &mut CycleScratch,
    ) -> (usize, usize) {
        match self {
            CycleCount::Vector(vbmi) => vbmi.cycles_and_fixed_points_inlined(a),
            CycleCount::Word | CycleCount::Walk => self.count_with_fixed_points(a, seen),
        }
    }
}

/// Working space for counting cycles by walking them ([`CycleCount::Walk`]):
/// which walk visited each position, and the walks' union–find.
#[derive(Debug, Default, Clone)]
pub struct CycleScratch {
    /// The walk that visited each position, as ids from [`next`](Self::next)
    /// on; ids below the current permutation's first are stale, which
    /// spares clearing the array for every permutation.
    owner: Vec<u32>,
    /// The id the next walk gets.
    next: u32,
    /// The union–find parent of each walk of the current permutation.
    parent: Vec<u32>,
}

/// Walks followed at once by [`walk_cycles`].
const WALKS: usize = 16;

/// [`cycles`] for any n, by walking the cycles, [`WALKS`] at once: one walk
/// is a chain of dependent loads (the next position is the value just
/// read), each a cache miss once the deck outgrows the caches (at
/// n = 10^6, 70% of a default audit's counting), while independent walks
/// let the CPU wait for many misses at a time.
///
/// Each walk starts at an unvisited position and stops at the first
/// visited one, which is always the start of a walk: its own (the walk
/// closed its cycle) or another's on the same cycle (the other walk marked
/// its start first, and a position is marked by one walk only). Walks that
/// meet are joined in a union–find; the cycles are the walks less the
/// joins that merged two groups.
fn walk_cycles(a: &[u32], scratch: &mut CycleScratch) -> usize {
    let n = a.len();
    let CycleScratch {
        owner,
        next,
        parent,
    } = scratch;
    if owner.len() != n || *next > u32::MAX - n as u32 - 1 {
        owner.clear();
        owner.resize(n, 0);
        *next = 1;
    }
    let base = *next;
    parent.clear();
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let up = parent[parent[x as usize] as usize];
            parent[x as usize] = up;
            x = up;
        }
        x
    }
    // Each live walk: its id and the position it goes to next.
    let mut walks: [(u32, usize); WALKS] = [(0, 0); WALKS];
    let mut live = 0;
    let mut scan = 0;
    let mut joins = 0;
    loop {
        while live < WALKS {
            while scan < n && owner[scan] >= base {
                scan += 1;
            }
            if scan == n {
                break;
            }
            let id = base + parent.len() as u32;
            parent.push(id - base);
            owner[scan] = id;
            walks[live] = (id, a[scan] as usize);
            live += 1;
        }
        if live == 0 {
            break;
        }
        let mut w = 0;
        while w < live {
            let (id, p) = walks[w];
            let seen = owner[p];
            if seen >= base {
                let (x, y) = (find(parent, id - base), find(parent, seen - base));
                if x != y {
                    parent[x as usize] = y;
                    joins += 1;
                }
                live -= 1;
                walks[w] = walks[live];
            } else {
                owner[p] = id;
                walks[w].1 = a[p] as usize;
                w += 1;
            }
        }
    }
    *next = base + parent.len() as u32;
    parent.len() - joins
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

/// How many starting neighbours are still neighbours: the values i and i+1
/// that sit side by side (in either order), 0..=n-1. Each such pair fills
/// one pair of neighbouring positions p, p+1 with |a[p] − a[p+1]| = 1, so
/// this counts those positions (no inverse needed, and vectorised). Under
/// a uniform shuffle it is about Poisson(2) ([`laws::adjacent_pairs`]); a
/// shuffle that leaves runs of the starting order together has too many.
#[inline]
pub fn adjacent_pairs(a: &[u32]) -> usize {
    let mut count = 0u32;
    let next = a.get(1..).unwrap_or_default();
    for (&x, &y) in a.iter().zip(next) {
        // |x − y| = 1 as one wrapping compare: x − y + 1 ∈ {0, 2}.
        let d = x.wrapping_sub(y).wrapping_add(1);
        count += u32::from(d == 0) + u32::from(d == 2);
    }
    count as usize
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::algorithm::fisher_yates;
    use crate::source::{ChaCha8Source, StreamSource};

    /// Every statistic of an arrangement, straight from its definition.
    #[derive(Debug, PartialEq, Eq)]
    pub(crate) struct Definitions {
        pub fixed_points: usize,
        pub cycles: usize,
        pub rising_sequences: usize,
        pub digits: Vec<u32>,
    }

    /// The statistics of `a` as defined, with no shortcut: digit i counts
    /// the larger values left of i one by one, cycles are followed with a
    /// flag per position, rising sequences read off the inverse.
    pub(crate) fn by_definition(a: &[u32]) -> Definitions {
        let digits = (0..a.len())
            .map(|i| a[..i].iter().filter(|&&x| x > a[i]).count() as u32)
            .collect();
        let mut inverse = vec![0; a.len()];
        for (p, &v) in a.iter().enumerate() {
            inverse[v as usize] = p;
        }
        Definitions {
            fixed_points: (0..a.len()).filter(|&p| a[p] as usize == p).count(),
            cycles: {
                let mut seen = vec![false; a.len()];
                (0..a.len())
                    .filter(|&start| {
                        let new = !seen[start];
                        let mut p = start;
                        while !seen[p] {
                            seen[p] = true;
                            p = a[p] as usize;
                        }
                        new
                    })
                    .count()
            },
            rising_sequences: 1 + inverse.windows(2).filter(|w| w[1] < w[0]).count(),
            digits,
        }
    }

    /// Test arrangements: every arrangement of each n ≤ 5 in `sizes`, and
    /// for the others the identity, the reversal, a single n-cycle, and 200
    /// seeded Fisher–Yates shuffles.
    pub(crate) fn arrangements(sizes: &[usize]) -> Vec<Vec<u32>> {
        let mut all = Vec::new();
        for &n in sizes {
            if n <= 5 {
                all.extend((0..factorial(n)).map(|r| unrank(r, n)));
                continue;
            }
            let identity: Vec<u32> = (0..n as u32).collect();
            all.push(identity.iter().rev().copied().collect());
            all.push(identity.iter().map(|&v| (v + 1) % n as u32).collect());
            let mut rng = ChaCha8Source::for_stream(2026, n as u64);
            let mut a = identity.clone();
            all.push(identity);
            for _ in 0..200 {
                fisher_yates(&mut a, &mut rng);
                all.push(a.clone());
            }
        }
        all
    }

    /// The fast methods of this module (words, vectors, Fenwick tree)
    /// against the definitions, at the sizes around each switch.
    #[test]
    fn fast_methods_match_the_definitions() {
        let (mut digits, mut tree, mut positions) = (Vec::new(), Vec::new(), Vec::new());
        let mut seen = CycleScratch::default();
        for a in arrangements(&[1, 2, 3, 4, 5, 8, 20, 63, 64, 65, 100, 1000]) {
            let want = by_definition(&a);
            lehmer_digits(&a, &mut digits, &mut tree);
            assert_eq!(digits, want.digits, "{a:?}");
            leading_digits(&a, 9, &mut digits);
            assert_eq!(digits, want.digits[..a.len().min(9)], "{a:?}");
            assert_eq!(cycles(&a, &mut seen), want.cycles, "{a:?}");
            let mut methods = vec![CycleCount::for_n(a.len())];
            if let Some(vbmi) = Vbmi::detect().filter(|_| a.len() <= WORD) {
                methods.extend([CycleCount::Vector(vbmi), CycleCount::Word]);
            }
            for method in methods {
                let both = method.count_with_fixed_points(&a, &mut seen);
                assert_eq!(both, (want.cycles, want.fixed_points), "{method:?} {a:?}");
            }
            if a.len() <= WORD {
                assert_eq!(CycleCount::Word.count(&a, &mut seen), want.cycles);
            }
            assert_eq!(CycleCount::Walk.count(&a, &mut seen), want.cycles);
            assert_eq!(fixed_points(&a), want.fixed_points, "{a:?}");
            assert_eq!(rising_sequences(&a, &mut positions), want.rising_sequences);
            if a.len() <= 20 {
                assert_eq!(rank_of_digits(&want.digits), rank(&a), "{a:?}");
            }
        }
    }

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
        // The blocked bitmap against the plain tree, below and above its
        // switch, on scrambled arrangements and the reversal.
        let mut fenwick = Vec::new();
        for n in [307u64, 1000, 5003, BLOCKED_DIGITS_N as u64 + 4099] {
            let scrambled: Vec<u32> = (0..n).map(|v| ((v * 7919 + 11) % n) as u32).collect();
            assert!(n % 7919 != 0);
            let reversed: Vec<u32> = (0..n as u32).rev().collect();
            for a in [scrambled, reversed] {
                fenwick_digits(&a, &mut fenwick, &mut tree);
                blocked_digits(&a, &mut digits, &mut tree);
                assert_eq!(digits, fenwick, "n = {n}");
                // The dispatch (popcount compiled in where the CPU has it).
                lehmer_digits(&a, &mut digits, &mut tree);
                assert_eq!(digits, fenwick, "n = {n}");
            }
        }
    }

    /// The walks followed at once count the cycles of large permutations
    /// as one walk does: random ones (one long cycle and a few short), many
    /// 2-cycles, and one cycle through every position, reusing the scratch
    /// across permutations and sizes.
    #[test]
    fn simultaneous_walks_count_cycles_of_large_permutations() {
        let one_walk = |a: &[u32]| by_definition(a).cycles;
        let mut scratch = CycleScratch::default();
        let mut rng = ChaCha8Source::for_stream(7, 0);
        for n in [70_000usize, 100_003] {
            let mut a: Vec<u32> = (0..n as u32).collect();
            for _ in 0..3 {
                fisher_yates(&mut a, &mut rng);
                assert_eq!(walk_cycles(&a, &mut scratch), one_walk(&a), "n = {n}");
            }
            let pairs: Vec<u32> = (0..n as u32)
                .map(|v| v ^ 1)
                .map(|v| v.min(n as u32 - 1))
                .collect();
            assert_eq!(walk_cycles(&pairs, &mut scratch), one_walk(&pairs));
            let around: Vec<u32> = (0..n as u32).map(|v| (v + 7919) % n as u32).collect();
            assert_eq!(walk_cycles(&around, &mut scratch), one_walk(&around));
        }
    }

    #[test]
    fn statistics_by_hand() {
        let mut scratch_b = CycleScratch::default();
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

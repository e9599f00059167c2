//! The one pass over each permutation that a [`super::super::Counter`]
//! makes up to n = 64: the cycles and fixed points (with vectors where the
//! CPU has them), then the matrix and the Lehmer digits counted into
//! 32-bit chunk rows, with the rising sequences and digit pairs found on
//! the way ([`word::Scan`]), all counted into 32-bit chunk cells
//! ([`StructureChunk`]) and flushed into the tally with the matrix.

use super::super::{
    Collect, NARROW, StructureCounts, StructureParts, bump, count_row, drain, drain_rows,
    lehmer_pairs, pair_cell,
};
use super::{Measured, Observe};
use crate::permutation::{adjacent_pairs, fixed_points, rank_of_digits, word};

/// A counter's chunk-local structure counts for n ≤ 64, in 32-bit cells
/// flushed into the tally with the matrix: the Lehmer digits in one
/// fixed-width row per digit (like the matrix's, [`super::ChunkTally`]),
/// each histogram and digit pair table in a fixed-size array. Every index
/// is masked to its array's size, so the compiler checks no bounds (the
/// masks never change an index: values ≤ n ≤ 64, pair digits ≤ 8).
#[derive(Debug, Clone)]
pub(in crate::tally) struct StructureChunk {
    n: usize,
    /// Digit i's counts in row i, when the digits are collected.
    digits: Vec<[u32; NARROW]>,
    /// Fixed points, cycles, rising sequences and clumping, by value.
    histograms: [[u32; CELLS]; 4],
    /// Digit pair k (digits 2k + 1 and 2k + 2, as in [`lehmer_pairs`]), by
    /// [`pair_slot`]; the first `pair_count` are collected.
    pairs: [[u32; CELLS]; 4],
    pair_count: usize,
}

/// Cells of each histogram and pair table in a [`StructureChunk`]: room for
/// the values 0..=64 and for [`pair_slot`].
const CELLS: usize = 128;

/// Where digits `a` ≤ 7 and `b` ≤ 8 of a pair are counted in a
/// [`StructureChunk`]'s table (other digits, of pairs not collected, give
/// some cell in range).
#[inline(always)]
fn pair_slot(a: u32, b: u32) -> usize {
    ((a as usize & 7) << 4) | (b as usize & 15)
}

/// Counts `value` (≤ 64) in a histogram.
#[inline(always)]
fn bump_cell(cells: &mut [u32; CELLS], value: usize) {
    cells[value & (CELLS - 1)] += 1;
}

impl StructureChunk {
    /// Empty counts of what `collect` asks of permutations of `n`, or
    /// `None` above n = 64, for a binned matrix (which the one pass does
    /// not count) or when nothing but the matrix is collected.
    pub(in crate::tally) fn for_collect(n: usize, collect: Collect) -> Option<Self> {
        if n > NARROW || collect.bins.is_some() || !collect.per_deal() {
            return None;
        }
        let parts = collect.structure;
        let pairs = if parts.pairs {
            lehmer_pairs(n)
        } else {
            Vec::new()
        };
        debug_assert!(
            pairs
                .iter()
                .enumerate()
                .all(|(k, &first)| first == 2 * k + 1)
        );
        Some(Self {
            n,
            digits: vec![[0; NARROW]; if parts.lehmer { n } else { 0 }],
            histograms: [[0; CELLS]; 4],
            pairs: [[0; CELLS]; 4],
            pair_count: pairs.len(),
        })
    }

    /// Counts one permutation's histograms and digit pairs (their cells,
    /// [`pair_slot`], when the pairs are collected).
    #[inline(always)]
    fn count(&mut self, parts: StructureParts, m: Measured, pairs: [usize; 4]) {
        let [fixed_points, cycles, rising, clumping] = &mut self.histograms;
        if parts.fixed_points {
            bump_cell(fixed_points, m.fixed_points);
        }
        if parts.cycles {
            bump_cell(cycles, m.cycles);
        }
        if parts.rising {
            bump_cell(rising, m.rising);
        }
        if parts.clumping {
            bump_cell(clumping, m.clumping);
        }
        for (table, &slot) in self.pairs.iter_mut().zip(&pairs).take(self.pair_count) {
            bump_cell(table, slot);
        }
    }

    /// Adds the counts to `counts` (which collects the same parts) and
    /// clears them.
    pub(in crate::tally) fn flush_into(&mut self, counts: &mut StructureCounts) {
        drain_rows(&mut self.digits, &mut counts.lehmer);
        let histograms = [
            &mut counts.fixed_points,
            &mut counts.cycles,
            &mut counts.rising,
            &mut counts.clumping,
        ];
        for (cells, target) in self.histograms.iter_mut().zip(histograms) {
            drain(&mut cells[..=self.n], target);
        }
        for (table, pair) in self.pairs.iter_mut().zip(&mut counts.pairs) {
            let first = pair.first as u32;
            for (a, b) in (0..=first).flat_map(|a| (0..=first + 1).map(move |b| (a, b))) {
                let cell = std::mem::take(&mut table[pair_slot(a, b)]);
                pair.counts[pair_cell(pair.first, a, b)] += u64::from(cell);
            }
        }
    }
}

/// The 32-bit chunk counts a [`super::Counter`] counts into in one pass,
/// for n ≤ 64.
pub(in crate::tally) struct Rows<'a> {
    /// The position-by-value matrix, one row per position.
    pub(in crate::tally) matrix: &'a mut [[u32; NARROW]],
    /// The structure counts.
    pub(in crate::tally) structure: &'a mut StructureChunk,
}

/// What the one pass keeps of the Lehmer digits beyond counting them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Digits {
    /// Nothing.
    Skip,
    /// Every digit, in [`ObserveScratch::word`], for the rank or the pairs.
    Keep,
    /// The digit pairs, read off the first nine positions on the way (n ≥
    /// 9, where every pair exists), with no digit stored.
    PairsAhead,
}

/// [`super::observe_batch`] with rows: cycles and fixed points first,
/// together where vectors give both, then one pass per permutation
/// ([`word::Scan`]) counts the matrix and the digits and finds the rising
/// sequences and the digit pairs (only the matrix, if none of them is
/// collected). Each way of handling the digits is a loop of its own.
#[inline(always)]
pub(super) fn one_pass(args: Observe<'_, Rows<'_>>) {
    let (_, n, collect, ..) = args;
    let parts = collect.structure;
    let digits = if collect.permutations || (parts.pairs && n < 9) {
        Digits::Keep
    } else if parts.pairs {
        Digits::PairsAhead
    } else {
        Digits::Skip
    };
    match (parts.lehmer, digits) {
        (true, Digits::Skip) => one_pass_with::<true, false, false>(args),
        (true, Digits::Keep) => one_pass_with::<true, true, false>(args),
        (true, Digits::PairsAhead) => one_pass_with::<true, false, true>(args),
        (false, Digits::Skip) => one_pass_with::<false, false, false>(args),
        (false, Digits::Keep) => one_pass_with::<false, true, false>(args),
        (false, Digits::PairsAhead) => one_pass_with::<false, false, true>(args),
    }
}

/// [`one_pass`] counting the digits if `LEHMER`, keeping them all if
/// `KEEP` ([`Digits::Keep`]), reading the pairs off the first nine
/// positions if `AHEAD` ([`Digits::PairsAhead`]).
#[inline(always)]
fn one_pass_with<const LEHMER: bool, const KEEP: bool, const AHEAD: bool>(
    (batch, n, collect, cycles, tally, rows, scratch): Observe<'_, Rows<'_>>,
) {
    let parts = collect.structure;
    let Rows { matrix, structure } = rows;
    let matrix = &mut matrix[..n];
    assert!(!AHEAD || n > 8, "every pair exists from n = 9");
    let scanned = LEHMER || KEEP || AHEAD || parts.rising;
    for a in batch.chunks_exact(n) {
        // First, so that the vector cycle count's chain of dependent
        // permutes runs while the scan below does (after it, the next
        // permutation waited for the chain).
        let (cycles, fixed_points) = match (parts.cycles, parts.fixed_points) {
            (true, _) => cycles.count_with_fixed_points_inlined(a, &mut scratch.seen),
            (false, true) => (0, fixed_points(a)),
            (false, false) => (0, 0),
        };
        let mut pairs = [0; 4];
        let rising = if scanned {
            let mut scan = word::Scan::default();
            let digit_rows = &mut structure.digits[..if LEHMER { n } else { 0 }];
            let word = &mut scratch.word;
            let mut visit = |i: usize| {
                let value = a[i];
                let digit = scan.step(value);
                bump(&mut matrix[i], value);
                if LEHMER {
                    bump(&mut digit_rows[i], digit);
                }
                if KEEP {
                    word[i & (word::WORD - 1)] = digit;
                }
                digit
            };
            let mut start = 0;
            if AHEAD {
                visit(0);
                for (k, pair) in pairs.iter_mut().enumerate() {
                    let first = visit(2 * k + 1);
                    *pair = pair_slot(first, visit(2 * k + 2));
                }
                start = 9;
            }
            for i in start..n {
                visit(i);
            }
            scan.rising_sequences()
        } else {
            count_row(matrix, a);
            0
        };
        let m = Measured {
            fixed_points,
            cycles,
            rising,
            clumping: if parts.clumping { adjacent_pairs(a) } else { 0 },
        };
        if KEEP {
            let word = &scratch.word;
            if let Some(permutations) = &mut tally.permutations {
                permutations[rank_of_digits(&word[..n])] += 1;
            }
            for (k, pair) in pairs.iter_mut().enumerate() {
                *pair = pair_slot(word[2 * k + 1], word[2 * k + 2]);
            }
        }
        structure.count(parts, m, pairs);
    }
}

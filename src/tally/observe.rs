//! Counting what the tests need of each permutation beyond the matrix: its
//! rank, and the structure statistics a [`Collect`] asks for, each computed
//! only if asked for.
//!
//! Up to n = 64 a [`super::Counter`] counts everything, the matrix too, in
//! one pass over each permutation ([`one_pass`]) into 32-bit chunk cells.
//! Above, and for [`Tally::observe`], each statistic is computed by
//! [`crate::permutation`]'s functions and counted straight into the tally.
//! Either way the code is compiled for the CPU's popcount and, where it
//! has them, AVX-512 byte permutes (chosen once per batch).

mod one_pass;
#[cfg(test)]
mod tests;

use super::{Collect, NARROW, PAIR_DIGITS, Tally, pair_cell};
use crate::permutation::{
    CycleCount, CycleScratch, adjacent_pairs, fixed_points, leading_digits, lehmer_digits,
    rank_of_digits, rising_sequences, word,
};
use one_pass::one_pass;
pub(super) use one_pass::{Rows, StructureChunk};

/// Reusable buffers for [`Tally::observe`].
#[derive(Debug)]
pub struct ObserveScratch {
    /// The Lehmer digits of the permutation at hand, up to n = 64.
    word: [u32; word::WORD],
    /// The Lehmer digits of the permutation at hand, above n = 64.
    digits: Vec<u32>,
    tree: Vec<u32>,
    positions: Vec<u32>,
    seen: CycleScratch,
}

impl Default for ObserveScratch {
    fn default() -> Self {
        Self {
            word: [0; word::WORD],
            digits: Vec::new(),
            tree: Vec::new(),
            positions: Vec::new(),
            seen: CycleScratch::default(),
        }
    }
}

/// Counts what `collect` asks for of each permutation of `n` in `batch`
/// (stored back to back): with `rows` (n ≤ 64), the matrix too, into the
/// rows (and the permutation ranks into `tally`); without, straight into
/// `tally`'s permutation and structure counts, leaving the matrix alone.
/// The tally must hold everything `collect` asks for.
pub(super) fn observe_batch(
    batch: &[u32],
    n: usize,
    collect: Collect,
    tally: &mut Tally,
    rows: Option<Rows<'_>>,
    scratch: &mut ObserveScratch,
) {
    debug_assert!(rows.is_none() || n <= NARROW);
    let cycles = CycleCount::for_n(n);
    let args = (batch, n, collect, cycles, tally, rows, scratch);
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
    {
        if let CycleCount::Vector(_) = cycles {
            // SAFETY: the CPU has popcnt and BMI, and the vector cycle
            // count proves it has the AVX-512 features.
            unsafe { observe_vbmi(args) };
        } else {
            // SAFETY: the CPU has popcnt and BMI.
            unsafe { observe_bits(args) };
        }
        return;
    }
    observe_any(args);
}

/// The arguments of the counting functions below [`observe_batch`]: its
/// own, with the cycle count chosen for `n`, and its rows as `R` (an
/// `Option` of [`Rows`], or, in the one pass, the rows themselves).
type Observe<'a, R> = (
    &'a [u32],
    usize,
    Collect,
    CycleCount,
    &'a mut Tally,
    R,
    &'a mut ObserveScratch,
);

/// [`observe_any`] compiled with the CPU's popcount and shift
/// instructions, which the one-pass Lehmer digits use once per value.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn observe_bits(args: Observe<'_, Option<Rows<'_>>>) {
    observe_any(args);
}

/// [`observe_bits`] with the AVX-512 features of [`CycleCount::Vector`]
/// as well, so that the vector cycle count is inlined.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,avx512f,avx512bw,avx512vbmi")]
fn observe_vbmi(args: Observe<'_, Option<Rows<'_>>>) {
    observe_any(args);
}

/// [`observe_batch`] on any CPU.
#[inline(always)]
fn observe_any((batch, n, collect, cycles, tally, rows, scratch): Observe<'_, Option<Rows<'_>>>) {
    match rows {
        Some(rows) => one_pass((batch, n, collect, cycles, tally, rows, scratch)),
        None => one_by_one(batch, n, collect, cycles, tally, scratch),
    }
}

/// The statistics of one permutation; 0 for those not asked for.
#[derive(Debug, Clone, Copy, Default)]
struct Measured {
    fixed_points: usize,
    cycles: usize,
    rising: usize,
    clumping: usize,
}

/// [`observe_batch`] without rows: each statistic by its own function.
#[inline(always)]
fn one_by_one(
    batch: &[u32],
    n: usize,
    collect: Collect,
    cycles: CycleCount,
    tally: &mut Tally,
    scratch: &mut ObserveScratch,
) {
    let parts = collect.structure;
    let keep = parts.lehmer || parts.pairs || collect.permutations;
    // The pairs alone need only the first few digits.
    let all = parts.lehmer || collect.permutations;
    for a in batch.chunks_exact(n) {
        if all {
            lehmer_digits(a, &mut scratch.digits, &mut scratch.tree);
        } else if parts.pairs {
            leading_digits(a, PAIR_DIGITS, &mut scratch.digits);
        }
        let m = Measured {
            fixed_points: if parts.fixed_points {
                fixed_points(a)
            } else {
                0
            },
            cycles: if parts.cycles {
                cycles.count(a, &mut scratch.seen)
            } else {
                0
            },
            rising: if parts.rising {
                rising_sequences(a, &mut scratch.positions)
            } else {
                0
            },
            clumping: if parts.clumping { adjacent_pairs(a) } else { 0 },
        };
        let digits: &[u32] = if keep { &scratch.digits } else { &[] };
        count(tally, collect, m, digits);
    }
}

/// Adds one permutation's statistics straight to the counts `collect`
/// asks for: its rank and digit pairs (from `digits`, its Lehmer digits,
/// given when either or the digits are collected), its histograms and its
/// digits.
#[inline(always)]
fn count(tally: &mut Tally, collect: Collect, m: Measured, digits: &[u32]) {
    if let Some(permutations) = &mut tally.permutations {
        permutations[rank_of_digits(digits)] += 1;
    }
    let Some(counts) = &mut tally.structure else {
        return;
    };
    let parts = collect.structure;
    if parts.fixed_points {
        counts.fixed_points[m.fixed_points] += 1;
    }
    if parts.cycles {
        counts.cycles[m.cycles] += 1;
    }
    if parts.rising {
        counts.rising[m.rising] += 1;
    }
    if parts.clumping {
        counts.clumping[m.clumping] += 1;
    }
    if parts.lehmer {
        let rows = counts.lehmer.chunks_exact_mut(digits.len());
        for (row, &d) in rows.zip(digits) {
            row[d as usize] += 1;
        }
    }
    for pair in &mut counts.pairs {
        let (a, b) = (digits[pair.first], digits[pair.first + 1]);
        pair.counts[pair_cell(pair.first, a, b)] += 1;
    }
}

//! Statistics of arrangements of at most 64 values, with the values or
//! positions seen so far held in one 64-bit word: one pass where the
//! definitions in [`super`] take two or O(n²) comparisons.

/// The largest n the one-word methods handle.
pub const WORD: usize = 64;

/// One left-to-right pass over an arrangement of at most [`WORD`] values:
/// [`step`](Self::step) takes the values in order and gives each
/// position's Lehmer digit; at the end, [`rising_sequences`]
/// (Self::rising_sequences) gives their number.
///
/// With `seen` the set of values left of position i as bits, `seen >>
/// a[i]` holds the values above `a[i]` already seen (`a[i]` itself is not
/// among them): their number is Lehmer digit i ([`super::lehmer_digits`]),
/// and the bit above the lowest says whether `a[i] + 1` lies left of
/// `a[i]`, which is what starts a new rising sequence
/// ([`super::rising_sequences`]). Whatever of it a caller leaves unused,
/// the compiler leaves out.
///
/// The values must be an arrangement of `0..n`: others give meaningless
/// results (or a panic in debug builds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    seen: u64,
    rising_sequences: usize,
}

impl Default for Scan {
    fn default() -> Self {
        Self {
            seen: 0,
            rising_sequences: 1,
        }
    }
}

impl Scan {
    /// Takes the value at the next position and returns that position's
    /// Lehmer digit.
    #[inline(always)]
    pub fn step(&mut self, value: u32) -> u32 {
        let above = self.seen >> value;
        self.rising_sequences += ((above >> 1) & 1) as usize;
        self.seen |= 1 << value;
        above.count_ones()
    }

    /// The number of rising sequences, once every value has been taken.
    #[inline(always)]
    pub fn rising_sequences(&self) -> usize {
        self.rising_sequences
    }
}

/// The Lehmer digits of `a` (n ≤ [`WORD`]) into `digits[..n]`, and its
/// rising sequences ([`Scan`]).
///
/// # Panics
/// If `digits` is shorter than `a`.
#[inline]
pub fn scan(a: &[u32], digits: &mut [u32]) -> usize {
    let mut scan = Scan::default();
    for (digit, &v) in digits[..a.len()].iter_mut().zip(a) {
        *digit = scan.step(v);
    }
    scan.rising_sequences()
}

/// The number of cycles of `a` (n ≤ [`WORD`]) as a mapping position →
/// value, following each cycle once and keeping the positions not yet
/// visited as bits.
///
/// # Panics
/// If `a` is longer than [`WORD`] or is not a permutation of `0..n`.
#[inline]
pub fn cycles(a: &[u32]) -> usize {
    let mut unvisited = low_bits(a.len());
    let mut count = 0;
    while unvisited != 0 {
        count += 1;
        let mut p = unvisited.trailing_zeros() as usize;
        while (unvisited >> p) & 1 == 1 {
            unvisited &= !(1 << p);
            p = a[p] as usize;
        }
    }
    count
}

/// Up to this n, [`cycles_and_fixed_points`] walks without a branch:
/// measured on a 2-core EPYC and in WebAssembly (Node 20), counting the
/// cycles and fixed points of a shuffle of 10 took 27 ns for 40 by
/// [`cycles`] and a pass for the fixed points natively, 43 for 46 in
/// WebAssembly; from n = 16 to 24 the two were even, and at 52 the walk
/// with branches was faster (150 against 240 ns in WebAssembly).
pub const BRANCH_FREE: usize = 16;

/// The number of cycles of `a` (n ≤ [`WORD`]) as a mapping position →
/// value, and of its fixed points. Up to [`BRANCH_FREE`] items, by one
/// step per position: the walk goes on to the value at the position it
/// stands on, or, when that closes the cycle (the value is a position
/// already visited), to the lowest position not yet visited, chosen
/// without a branch; the closing steps are the cycles, the steps that stay
/// put the fixed points. The walk of [`cycles`] mispredicts a branch at
/// the end of each cycle (about ln n + 0.58 of them), which costs more
/// than the n short steps below [`BRANCH_FREE`]; above, it is used.
///
/// # Panics
/// If `a` is longer than [`WORD`] or is not a permutation of `0..n`
/// (a value out of range; others give meaningless counts).
#[inline]
pub fn cycles_and_fixed_points(a: &[u32]) -> (usize, usize) {
    if a.len() > BRANCH_FREE {
        return (cycles(a), super::fixed_points(a));
    }
    let mut unvisited = low_bits(a.len());
    let (mut cycles, mut fixed) = (0, 0);
    // The position the walk stands on: always one not yet visited.
    let mut p = 0;
    for _ in 0..a.len() {
        unvisited &= !(1 << (p & (WORD - 1)));
        let next = a[p] as usize;
        fixed += usize::from(next == p);
        let open = ((unvisited >> (next & (WORD - 1))) & 1) as usize;
        cycles += open ^ 1;
        let lowest = unvisited.trailing_zeros() as usize;
        // `next` while the cycle is open, else `lowest`: a mask, not a
        // select, which WebAssembly engines may compile to a branch.
        p = lowest ^ ((next ^ lowest) & open.wrapping_neg());
    }
    (cycles, fixed)
}

/// A word with its lowest `n` bits set (n ≤ [`WORD`]).
///
/// # Panics
/// If n > [`WORD`].
#[inline]
pub fn low_bits(n: usize) -> u64 {
    assert!(n <= WORD, "n = {n} does not fit in a word");
    if n == WORD { u64::MAX } else { (1 << n) - 1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::tests::{arrangements, by_definition};

    #[test]
    fn low_bits_at_the_ends() {
        assert_eq!(low_bits(0), 0);
        assert_eq!(low_bits(1), 1);
        assert_eq!(low_bits(63), u64::MAX >> 1);
        assert_eq!(low_bits(64), u64::MAX);
    }

    /// The pass and the cycle walks against the definitions, on every
    /// arrangement of up to 5 and on seeded random ones up to 64.
    #[test]
    fn scan_and_cycles_match_the_definitions() {
        let mut digits = [0u32; WORD];
        for a in arrangements(&[1, 2, 3, 4, 5, 10, 16, 17, 52, 63, 64]) {
            let want = by_definition(&a);
            let rising = scan(&a, &mut digits);
            assert_eq!(&digits[..a.len()], &want.digits[..], "{a:?}");
            assert_eq!(rising, want.rising_sequences, "{a:?}");
            assert_eq!(cycles(&a), want.cycles, "{a:?}");
            let both = (want.cycles, want.fixed_points);
            assert_eq!(cycles_and_fixed_points(&a), both, "{a:?}");
        }
    }
}

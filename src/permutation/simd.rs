//! The cycle count of an arrangement of at most 64 values with vector byte
//! permutes, on CPUs that have them (x86-64 with AVX-512 VBMI): about
//! log2(n) rounds of three vector instructions, where following the cycles
//! takes n dependent loads.

use super::word::WORD;

/// Proof that this CPU has the vector byte permutes
/// [`Vbmi::cycles_and_fixed_points`] runs on (x86-64 with AVX-512 F, BW and VBMI): only [`Vbmi::detect`] makes
/// one, so holding one is enough to call it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vbmi(());

impl Vbmi {
    /// The proof, if this CPU has the instructions.
    pub fn detect() -> Option<Vbmi> {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi")
        {
            return Some(Vbmi(()));
        }
        None
    }

    /// The number of cycles of `a` (n ≤ [`WORD`]) as a mapping position →
    /// value, and of its fixed points (which the same registers give for
    /// three more instructions).
    ///
    /// Every position starts labelled with itself; round k replaces each
    /// label with the smaller of it and the label 2^k steps along the
    /// cycle, so after ⌈log2 n⌉ rounds every position holds the smallest
    /// position of its cycle, and the cycles are counted by the positions
    /// that hold themselves.
    ///
    /// # Panics
    /// If `a` is longer than [`WORD`]; `a` must be a permutation of `0..n`.
    pub fn cycles_and_fixed_points(self, a: &[u32]) -> (usize, usize) {
        assert!(a.len() <= WORD, "n = {} does not fit in a word", a.len());
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `self` proves that the CPU has every feature `x86::compiled`
        // is compiled for.
        return unsafe { x86::compiled(a) };
        #[cfg(not(target_arch = "x86_64"))]
        return (super::word::cycles(a), super::fixed_points(a));
    }

    /// [`cycles_and_fixed_points`](Self::cycles_and_fixed_points) inlined
    /// into the caller, for loops compiled with the AVX-512 features
    /// (within a `#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]`
    /// function): there it saves a call per arrangement; elsewhere each of
    /// its vector instructions would be a call.
    ///
    /// # Panics
    /// If `a` is longer than [`WORD`]; `a` must be a permutation of `0..n`.
    #[inline(always)]
    pub fn cycles_and_fixed_points_inlined(self, a: &[u32]) -> (usize, usize) {
        assert!(a.len() <= WORD, "n = {} does not fit in a word", a.len());
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `self` proves that the CPU has the features the body's
        // instructions need.
        return unsafe { x86::cycles_and_fixed_points(a) };
        #[cfg(not(target_arch = "x86_64"))]
        return (super::word::cycles(a), super::fixed_points(a));
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::super::word::low_bits;
    use std::arch::x86_64::*;

    /// `[0, 1, ..., 63]`.
    static IOTA: [u8; 64] = {
        let mut a = [0u8; 64];
        let mut i = 0;
        while i < a.len() {
            a[i] = i as u8;
            i += 1;
        }
        a
    };

    /// [`cycles_and_fixed_points`] compiled for AVX-512 F, BW and VBMI.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) fn compiled(a: &[u32]) -> (usize, usize) {
        // SAFETY: compiled for the features the body needs.
        unsafe { cycles_and_fixed_points(a) }
    }

    /// [`super::Vbmi::cycles_and_fixed_points`]: in one 16-byte register up
    /// to n = 16 (whose shuffle takes one cycle), in a 64-byte one above.
    ///
    /// # Safety
    /// The CPU must have AVX-512 F, BW and VBMI. Inlined into a function
    /// compiled for them, the body is all vector instructions; anywhere
    /// else each intrinsic is a call.
    #[inline(always)]
    pub(super) unsafe fn cycles_and_fixed_points(a: &[u32]) -> (usize, usize) {
        // SAFETY: the caller vouches for the CPU; the loads stay within
        // `a` (masked) and IOTA (64 bytes).
        unsafe {
            let n = a.len();
            let live = low_bits(n);
            // The values from position 16q on as bytes; positions from n on map
            // to position 0, outside every cycle of 0..n, and are not counted.
            let quarter = |q: usize| {
                let start = 16 * q;
                if start >= n {
                    return _mm_setzero_si128();
                }
                let k = low_bits((n - start).min(16)) as __mmask16;
                // The mask leaves out every value past the end of `a` (start <
                // n), which a masked load does not touch.
                let values = _mm512_maskz_loadu_epi32(k, a.as_ptr().add(start).cast());
                _mm512_cvtepi32_epi8(values)
            };
            // Invariant of both loops: least[i] is the smallest of the first
            // `span` positions of i's cycle, and step maps i to the position
            // `span` further on.
            let mut span = 1;
            let (leaders, fixed) = if n <= 16 {
                let iota = _mm_loadu_si128(IOTA.as_ptr().cast());
                let mut step = quarter(0);
                let fixed = _mm_movemask_epi8(_mm_cmpeq_epi8(step, iota)) as u16;
                let mut least = iota;
                while span < n {
                    least = _mm_min_epu8(least, _mm_shuffle_epi8(least, step));
                    step = _mm_shuffle_epi8(step, step);
                    span *= 2;
                }
                let leaders = _mm_movemask_epi8(_mm_cmpeq_epi8(least, iota)) as u16;
                (u64::from(leaders), u64::from(fixed))
            } else {
                let iota = _mm512_loadu_si512(IOTA.as_ptr().cast());
                let mut step = _mm512_castsi128_si512(quarter(0));
                step = _mm512_inserti32x4::<1>(step, quarter(1));
                step = _mm512_inserti32x4::<2>(step, quarter(2));
                step = _mm512_inserti32x4::<3>(step, quarter(3));
                let fixed = _mm512_cmpeq_epi8_mask(step, iota);
                let mut least = iota;
                while span < n {
                    least = _mm512_min_epu8(least, _mm512_permutexvar_epi8(step, least));
                    step = _mm512_permutexvar_epi8(step, step);
                    span *= 2;
                }
                (_mm512_cmpeq_epi8_mask(least, iota), fixed)
            };
            let count = |bits: u64| (bits & live).count_ones() as usize;
            (count(leaders), count(fixed))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::tests::{arrangements, by_definition};

    #[test]
    fn vector_cycles_match_the_definition() {
        let Some(vbmi) = Vbmi::detect() else {
            eprintln!("no AVX-512 VBMI on this CPU: nothing to check");
            return;
        };
        for a in arrangements(&[1, 2, 3, 4, 5, 8, 10, 15, 16, 17, 31, 32, 33, 52, 63, 64]) {
            let want = by_definition(&a);
            let got = vbmi.cycles_and_fixed_points(&a);
            assert_eq!(got, (want.cycles, want.fixed_points), "{a:?}");
        }
    }
}

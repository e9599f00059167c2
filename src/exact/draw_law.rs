//! The exact law of one bounded draw, `below(bound)`, under each random source
//! that exact mode can treat.

use crate::error::{Error, Result};
use crate::source::{RAND15_RANGE, SourceKind, SourceSpec};

/// How a source answers `below(bound)`, as exact integer weights: value `j`
/// comes out with probability `weight(j, bound) / total(bound)`, independently
/// of every other draw.
///
/// Exact mode needs exactly this: independent draws with a known law. The good
/// generators are taken to be ideal (that is what they are for; their
/// `below` is exactly uniform given uniform words), and `rand15-mod` is
/// ideal 15-bit values mapped by `% bound`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawLaw {
    /// Exactly uniform: every value below `bound` has weight 1 out of `bound`.
    Ideal,
    /// `r % bound` for a uniform 15-bit `r`: value `j` has weight
    /// `floor((32767 - j) / bound) + 1` out of 32768, and values at or above
    /// 32768 (possible only when `bound > 32768`) have weight 0.
    Rand15Mod,
}

impl DrawLaw {
    /// The draw law of `source`, or a refusal saying why its draws cannot be
    /// treated exactly.
    pub fn of(source: &SourceSpec) -> Result<Self> {
        match source.kind {
            SourceKind::Chacha8
            | SourceKind::Chacha20
            | SourceKind::Xoshiro256pp
            | SourceKind::Pcg64 => Ok(DrawLaw::Ideal),
            SourceKind::Rand15Mod => Ok(DrawLaw::Rand15Mod),
            SourceKind::MsvcRand => Err(Error::unsupported(format!(
                "random source '{source}' cannot be treated exactly: its draws come from one \
                 32-bit LCG state and depend on each other, while exact mode needs independent \
                 draws with a known law (use rand15-mod for its modulo bias alone)"
            ))),
            SourceKind::ReseedPerDraw => Err(Error::unsupported(format!(
                "random source '{source}' cannot be treated exactly: it repeats the same value \
                 for every draw within a clock tick, so its draws are not independent, while \
                 exact mode needs independent draws with a known law"
            ))),
            SourceKind::JavaRandom => Err(Error::unsupported(format!(
                "random source '{source}' cannot be treated exactly: its draws come from one \
                 48-bit LCG state and depend on each other, while exact mode needs independent \
                 draws with a known law"
            ))),
            SourceKind::Seed32 | SourceKind::ClockMs => Err(Error::unsupported(format!(
                "random source '{source}' cannot be treated exactly: each deal is a function of \
                 its seed, so a deal's law spreads over the seeds (at most 2^32 deals), not over \
                 independent draws with a known law"
            ))),
        }
    }

    /// The weight of `value` among the answers to `below(bound)`; 0 for a
    /// value that never comes out.
    #[inline]
    pub fn weight(self, value: u32, bound: u32) -> u64 {
        debug_assert!(value < bound);
        match self {
            DrawLaw::Ideal => 1,
            DrawLaw::Rand15Mod => {
                if value >= RAND15_RANGE {
                    0
                } else {
                    u64::from((RAND15_RANGE - 1 - value) / bound) + 1
                }
            }
        }
    }

    /// The sum of the weights of all answers to `below(bound)`: the
    /// denominator of one draw's probabilities.
    #[inline]
    pub fn total(self, bound: u32) -> u64 {
        match self {
            DrawLaw::Ideal => u64::from(bound),
            DrawLaw::Rand15Mod => u64::from(RAND15_RANGE),
        }
    }

    /// How many answers to `below(bound)` have a positive weight; they are
    /// exactly the values `0..support(bound)`.
    #[inline]
    pub fn support(self, bound: u32) -> u32 {
        match self {
            DrawLaw::Ideal => bound,
            DrawLaw::Rand15Mod => bound.min(RAND15_RANGE),
        }
    }

    /// What the law means, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            DrawLaw::Ideal => "ideal uniform draws",
            DrawLaw::Rand15Mod => "r % bound for an ideal 15-bit r (modulo bias)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rand15_weights_count_the_residues_of_every_15_bit_value() {
        for bound in [1u32, 2, 3, 7, 52, 1000, 32_767, 32_768, 40_000] {
            let law = DrawLaw::Rand15Mod;
            let mut counts = vec![0u64; bound as usize];
            for r in 0..RAND15_RANGE {
                counts[(r % bound) as usize] += 1;
            }
            for (j, &c) in counts.iter().enumerate() {
                assert_eq!(law.weight(j as u32, bound), c, "bound {bound} value {j}");
            }
            let support = law.support(bound) as usize;
            assert!(counts[..support].iter().all(|&c| c > 0));
            assert!(counts[support..].iter().all(|&c| c == 0));
            assert_eq!(counts.iter().sum::<u64>(), law.total(bound));
        }
    }

    #[test]
    fn ideal_weights_are_uniform() {
        let law = DrawLaw::Ideal;
        assert_eq!(law.weight(4, 5), 1);
        assert_eq!(law.total(5), 5);
        assert_eq!(law.support(5), 5);
    }

    #[test]
    fn dependent_sources_are_refused_by_name() {
        for name in ["msvc-rand", "reseed-per-draw"] {
            let err = DrawLaw::of(&SourceSpec::parse(name).unwrap())
                .unwrap_err()
                .to_string();
            assert!(err.contains(name) && err.contains("independent"), "{err}");
        }
        for name in ["chacha8", "chacha20", "xoshiro256pp", "pcg64"] {
            assert_eq!(
                DrawLaw::of(&SourceSpec::parse(name).unwrap()).unwrap(),
                DrawLaw::Ideal
            );
        }
    }
}

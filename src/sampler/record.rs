//! What is known about a sampler before it runs: one [`SamplerRecord`] per
//! sampler, which every other module asks instead of matching samplers.
//!
//! The facts of the fourteen k-of-N samplers live in
//! [`SubsetMethod::record`](super::SubsetMethod::record), those of the three
//! weighted picks in [`WeightedMethod::record`](super::WeightedMethod::record),
//! and the minesweeper board's in [`Sampler::record`](super::Sampler::record)
//! (which borrows its verdict and exact method from the sampler that places
//! the mines): each sampler is described in exactly one place.

pub use crate::algorithm::record::{Draws, Expected};

/// What a sampler returns per trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `k` distinct items of `0..n`.
    Subset,
    /// `m` distinct cells of a `w`-wide, `h`-high board (`n = w·h`); cell
    /// `c` is row `c / w`, column `c % w`, so pictures can be drawn as the
    /// board.
    Board {
        /// Width (columns).
        w: u32,
        /// Height (rows).
        h: u32,
    },
    /// One index of `0..n`, drawn with integer weights given separately
    /// (see [`WeightTable`](super::WeightTable)).
    Weighted,
}

/// Which exact method computes a sampler's law, or why none does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SamplerExact {
    /// Replay the sampler on every draw sequence (the odometer of
    /// [`Script`](crate::exact::Script)); the number of sequences is finite
    /// and every draw is bounded.
    Replay,
    /// Replay with repeated draws folded away: a sampler that ignores a
    /// value it already has and draws again sees, at each draw, a uniform
    /// value among those it does not have (the script's without-repeats
    /// mode), so its unbounded draw sequences reduce to `n!/(n-k)!`.
    ReplayWithoutRepeats,
    /// Replay one pass of the scan at a time over the taken sets reached; a
    /// pass that takes nothing leaves the state as it was and is repeated,
    /// so it is folded away by conditioning the pass on taking something.
    PassFolded,
    /// No exact method; the reason, for the refusal message.
    Unavailable(&'static str),
}

/// One parameter of a sampler (`NAME:key=value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SamplerParam {
    /// The key.
    pub key: &'static str,
    /// Its default value, as typed.
    pub default: &'static str,
    /// What it means.
    pub meaning: &'static str,
}

/// Everything known about a sampler before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SamplerRecord {
    /// The registry name.
    pub name: &'static str,
    /// One line saying what it does.
    pub description: &'static str,
    /// Its parameters, with their defaults.
    pub params: &'static [SamplerParam],
    /// The verdict an ideal run should reach: fair means every k-subset
    /// equally likely (and every ordered k-tuple, for an ordered sampler),
    /// or every index with probability proportional to its weight.
    pub expected: Expected,
    /// What one trial returns.
    pub shape: Shape,
    /// Whether the order within the sample is meaningful (a k-tuple rather
    /// than a k-set): fair ordered samplers make every ordered tuple equally
    /// likely, and their order may be audited too.
    pub ordered: bool,
    /// How it draws its randomness.
    pub draws: Draws,
    /// Its exact method, or why there is none.
    pub exact: SamplerExact,
}

/// The parameter `k` of the k-of-N samplers.
pub(super) const K: &[SamplerParam] = &[SamplerParam {
    key: "k",
    default: "1",
    meaning: "sample size, 1 <= k <= N",
}];

/// The parameter `k` of `systematic`.
pub(super) const K_DIVIDES: &[SamplerParam] = &[SamplerParam {
    key: "k",
    default: "1",
    meaning: "sample size; k must divide N",
}];

/// The parameters of `minesweeper`.
pub(super) const BOARD: &[SamplerParam] = &[
    SamplerParam {
        key: "w",
        default: "9",
        meaning: "board width",
    },
    SamplerParam {
        key: "h",
        default: "9",
        meaning: "board height",
    },
    SamplerParam {
        key: "m",
        default: "10",
        meaning: "mines, 1 <= m <= w*h",
    },
    SamplerParam {
        key: "method",
        default: "shuffle-prefix",
        meaning: "the k-of-N sampler that places the mines (k = m, N = w*h)",
    },
];

/// Why `reservoir-skip` has no exact law.
pub(super) const REAL_UNIFORMS: &str = "Li's Algorithm L needs real-valued uniforms, which it \
    builds from raw 64-bit words (bits64); 2^64 values per draw cannot be enumerated, and its \
    law is uniform only up to floating-point rounding";

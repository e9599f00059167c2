//! Exact mode: the exact output distribution of a shuffle algorithm, with
//! exact rational probabilities, by enumerating every sequence of draws.
//!
//! [`enumerate`] replays the real algorithm code against a scripted
//! [`RandomSource`](crate::source::RandomSource) ([`Script`]) that walks the
//! tree of draw sequences odometer-style, and adds up each leaf's probability
//! (the product of its draws' probabilities under the source's [`DrawLaw`])
//! on the permutation it produced. The result, an [`ExactLaw`], has every
//! reachable permutation's probability, the exact marginal matrix, the total
//! variation distance to uniform, and the largest marginal deviation.
//!
//! Two algorithms get an exact shortcut instead of plain enumeration (see
//! [`Method`]): `pick-until-unused`, whose draw sequences are unbounded, and
//! `random-swap`, whose n^(2k) draw sequences are composed step by step.
//!
//! [`marginals`] computes only the marginal matrix, by propagation, for
//! algorithms whose moves depend on positions alone; it handles n = 52 in
//! milliseconds.
//!
//! Exact mode needs independent bounded draws with a known law: the ideal
//! generators (chacha8, chacha20, xoshiro256pp, pcg64 are all treated as
//! ideal uniform draws) and `rand15-mod`. Algorithms that draw raw bits
//! (`rand-crate`, `sort-random-keys`) and sources whose draws depend on each
//! other (`msvc-rand`, `reseed-per-draw`) are refused with the reason.

mod draw_law;
mod enumerate;
mod law;
mod marginals;
mod mass;
mod plan;
mod propagate;
mod script;

pub use draw_law::DrawLaw;
pub use enumerate::MAX_ENUMERATE_N;
pub use law::ExactLaw;
pub use marginals::ExactMarginals;
pub use propagate::{EXACT_MAX_BITS, EXACT_MAX_N, MAX_WORK};
pub use script::{Script, ScriptFault};

use crate::algorithm::Algorithm;
use crate::error::Result;
use crate::source::SourceSpec;
use serde::Serialize;

/// Default cap on the leaves (algorithm replays) of one enumeration.
pub const DEFAULT_MAX_LEAVES: u64 = 50_000_000;

/// How an exact result was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Every draw sequence replayed against the scripted source.
    Enumerated,
    /// `pick-until-unused`: a draw that hits a taken index changes nothing
    /// and is redrawn, so with independent draws the accepted index is `j`
    /// with probability `w(j) / Σ w(untaken)`; the script deals only untaken
    /// indices with those probabilities, and every sequence of accepted
    /// draws is replayed (n! of them).
    RejectionFolded,
    /// `random-swap`: its k transpositions are independent, identical steps,
    /// so the law is built one step at a time over the arrangements reached
    /// so far (at most n!), replaying the real algorithm with k = 1 on each
    /// for every draw pair.
    Stepwise,
    /// Marginals only: every value's position propagated through the steps
    /// as a Markov chain (algorithms whose moves depend on positions alone).
    Propagated,
}

impl Method {
    /// One line for reports.
    pub fn describe(self) -> &'static str {
        match self {
            Method::Enumerated => "every draw sequence replayed against a scripted source",
            Method::RejectionFolded => {
                "rejected draws folded exactly (accepted index j has probability w(j)/sum of untaken w); \
                 every sequence of accepted draws replayed"
            }
            Method::Stepwise => {
                "independent transposition steps composed one at a time over the reachable \
                 arrangements, each step's draw pairs replayed"
            }
            Method::Propagated => "each value's position propagated step by step as a Markov chain",
        }
    }
}

/// What a result is about: carried by [`ExactLaw`] and [`ExactMarginals`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Origin {
    pub algorithm: Algorithm,
    pub source: SourceSpec,
    pub n: usize,
    pub method: Method,
}

/// The exact law of `algorithm` shuffling `[0, 1, ..., n-1]` with draws from
/// `source`, by enumeration.
///
/// Refuses (with [`crate::Error::Invalid`] naming the reason) algorithms that draw
/// raw bits, sources whose draws are not independent, n outside
/// `2..=`[`MAX_ENUMERATE_N`], and any case that needs more than `max_leaves`
/// replays of the algorithm (the count is known before any work starts).
pub fn enumerate(
    algorithm: Algorithm,
    n: usize,
    source: SourceSpec,
    max_leaves: u64,
) -> Result<ExactLaw> {
    enumerate::enumerate(algorithm, n, source, max_leaves)
}

/// The exact marginal matrix of `algorithm` at `n` under `source`, by
/// propagation, without enumerating the law.
///
/// Only for algorithms whose moves depend on positions alone (see
/// [`can_propagate`]); exact rationals for n ≤ [`EXACT_MAX_N`] (and a total
/// denominator of at most [`EXACT_MAX_BITS`] bits), `f64` beyond (relative
/// error about 3e-13 at n = 52). Refuses work beyond [`MAX_WORK`].
pub fn marginals(algorithm: Algorithm, n: usize, source: SourceSpec) -> Result<ExactMarginals> {
    propagate::marginals(algorithm, n, source)
}

/// Whether [`marginals`] can handle `algorithm` (its moves depend on
/// positions alone).
pub fn can_propagate(algorithm: Algorithm) -> bool {
    plan::Plan::of(algorithm, 2).is_some()
}

/// Checks, without doing the work, everything [`enumerate`] would refuse;
/// returns the method it would use.
pub fn check_enumerate(
    algorithm: Algorithm,
    n: usize,
    source: SourceSpec,
    max_leaves: u64,
) -> Result<Method> {
    enumerate::check(algorithm, n, source, max_leaves).map(|(_, method)| method)
}

/// Checks, without doing the work, everything [`marginals`] would refuse;
/// returns whether the result would be exact (rationals) rather than `f64`.
pub fn check_marginals(algorithm: Algorithm, n: usize, source: SourceSpec) -> Result<bool> {
    propagate::check(algorithm, n, source).map(|(_, _, exact)| exact)
}

/// The method [`enumerate`] uses for `algorithm`, or the refusal it gives.
pub fn method_for(algorithm: Algorithm) -> Result<Method> {
    enumerate::method_for(algorithm)
}

/// Rejects sizes that exact mode does not take.
fn check_n(n: usize) -> Result<()> {
    crate::values::check_n(n).map(|_| ())
}

#[cfg(test)]
mod tests;

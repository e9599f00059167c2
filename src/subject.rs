//! Shuffles as a kind of subject, the part every layer may name: the
//! kind's marker ([`Shuffles`]), what a spec of shuffles adds to the shared
//! header ([`ShuffleOptions`]), how permutations made outside the tool are
//! read ([`Reading`]), and the [`Shuffle`] trait a Rust function
//! implements. The kind itself (counting, tests, findings, outputs) is in
//! [`crate::shuffle`], above the planning it uses.

use crate::deck::Deck;
use crate::source::{RandAdapter, RandomSource};
use crate::spec::TestSet;
use std::sync::Arc;

/// Shuffles as a kind of subject ([`crate::audit::Kind`]): a built-in
/// algorithm, a Rust function or permutations made outside the tool, of
/// distinct items or of a deck whose items repeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shuffles;

/// What an audit of shuffles holds beyond the shared header: the tests it
/// runs and, when items repeat or have categories, the deck.
#[derive(Debug, Clone, PartialEq)]
pub struct ShuffleOptions {
    /// The tests the counts are for; decides what is counted.
    pub tests: TestSet,
    /// The deck when items repeat or have categories (`--deck`,
    /// `--categories`): its tests replace those of distinct items, and its
    /// hands are counted. `None` for a plain deck of distinct items.
    pub deck: Option<Arc<Deck>>,
}

impl ShuffleOptions {
    /// The default tests at `n`, no deck.
    pub fn default_for(n: usize) -> Self {
        Self::with_tests(TestSet::default_for(n))
    }

    /// `tests`, no deck.
    pub fn with_tests(tests: TestSet) -> Self {
        Self { tests, deck: None }
    }
}

/// How permutations made outside the tool are read.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reading {
    /// The starting order, as item labels (what the deck looked like before
    /// the shuffle); `None` means ascending.
    pub order: Option<Vec<String>>,
    /// Category columns of the items (`cards`, or a CSV file: see
    /// `crate::deck::categories`), applied once the input has said what
    /// its items are; `None` for none.
    pub categories: Option<String>,
}

/// A shuffle written in Rust that draws through our [`RandomSource`]: the
/// trait form of a user's shuffle, run by the engine exactly like a built-in
/// algorithm (the same chunks, streams and seeds).
///
/// Any `Fn(&mut [u32], &mut dyn rand::Rng) + Sync` closure is one too (see
/// [`FnShuffle`]), for shuffles written against `rand`.
pub trait Shuffle: Sync {
    /// Shuffles `deck` in place (it arrives as `[0, 1, ..., n-1]`), drawing
    /// every random number from `rng`.
    fn shuffle<R: RandomSource>(&self, deck: &mut [u32], rng: &mut R);
}

/// A closure taking a `rand` generator, as a [`Shuffle`]: our source is
/// handed to it as `&mut dyn rand::Rng` (raw 32/64-bit words).
#[derive(Debug, Clone, Copy)]
pub struct FnShuffle<F>(pub F);

impl<F: Fn(&mut [u32], &mut dyn rand::Rng) + Sync> Shuffle for FnShuffle<F> {
    fn shuffle<R: RandomSource>(&self, deck: &mut [u32], rng: &mut R) {
        (self.0)(deck, &mut RandAdapter(rng))
    }
}

//! The audit's observer: shuffle a batch of rows, count it into a tally,
//! repeat. Run chunk by chunk by [`super::chunks`].

use super::batch_rows;
use super::chunks::Observer;
use crate::algorithm::{Algorithm, Scratch};
use crate::error::{Error, Result};
use crate::source::RandomSource;
use crate::subject::Shuffle;
use crate::tally::{Collect, Counter, Tally};

/// Fills a batch of rows with shuffles: a built-in algorithm (one tight
/// loop per algorithm) or a user's [`Shuffle`] (checked row by row).
pub(super) trait Rows: Sync + Send + Copy {
    /// Fills `batch`, rows of `w.n` back to back, with shuffles of the
    /// identity drawn from `rng`.
    fn fill<S: RandomSource>(self, batch: &mut [u32], rng: &mut S, w: &mut Buffers) -> Result<()>;
}

impl Rows for Algorithm {
    #[inline]
    fn fill<S: RandomSource>(self, batch: &mut [u32], rng: &mut S, w: &mut Buffers) -> Result<()> {
        self.shuffle_batch(batch, w.n, rng, &mut w.scratch);
        Ok(())
    }
}

/// A user's shuffle with the name its errors use.
pub(super) struct Custom<'a, T> {
    shuffle: &'a T,
    name: &'a str,
}

impl<'a, T> Custom<'a, T> {
    /// `shuffle`, called `name` in errors.
    pub(super) fn new(shuffle: &'a T, name: &'a str) -> Self {
        Self { shuffle, name }
    }
}

impl<T> Clone for Custom<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Custom<'_, T> {}

impl<T: Shuffle> Rows for Custom<'_, T> {
    fn fill<S: RandomSource>(self, batch: &mut [u32], rng: &mut S, w: &mut Buffers) -> Result<()> {
        for row in batch.chunks_exact_mut(w.n) {
            for (i, slot) in row.iter_mut().enumerate() {
                *slot = i as u32;
            }
            self.shuffle.shuffle(row, rng);
            check_permutation(row, &mut w.seen, self.name)?;
        }
        Ok(())
    }
}

/// One worker of an audit run: its kernel, its counter and reusable shuffle
/// buffers.
pub(super) struct Worker<K> {
    kernel: K,
    n: usize,
    counter: Counter,
    batch: Vec<u32>,
    buffers: Buffers,
}

/// Working space of the shuffles: the row length, the algorithms' scratch,
/// and the flags that check a user's shuffle returned a permutation.
pub(super) struct Buffers {
    n: usize,
    scratch: Scratch,
    seen: Vec<bool>,
}

impl<K: Rows> Worker<K> {
    /// A worker shuffling `n` elements with `kernel` and counting what
    /// `collect` asks for.
    pub(super) fn new(kernel: K, n: usize, collect: Collect) -> Self {
        Self {
            kernel,
            n,
            counter: Counter::new(n, collect),
            batch: vec![0; batch_rows(n) * n],
            buffers: Buffers {
                n,
                scratch: Scratch::default(),
                seen: vec![false; n],
            },
        }
    }
}

impl<K> Worker<K> {
    /// The worker also counting `hands` (a deck's hand test).
    pub(super) fn with_hands(mut self, hands: Option<crate::tally::HandCounts>) -> Self {
        self.counter = self.counter.with_hands(hands);
        self
    }

    /// The observer matching consecutive deals by kind (a deck whose items
    /// repeat), see [`crate::tally::Counter::with_kinds`].
    pub(super) fn with_kinds(mut self, kinds: Option<Vec<u32>>) -> Self {
        self.counter = self.counter.with_kinds(kinds);
        self
    }
}

impl<K: Rows> Observer for Worker<K> {
    type Output = Tally;

    fn run_chunk<S: RandomSource>(&mut self, rng: &mut S, trials: u64) -> Result<()> {
        let mut left = trials as usize;
        while left > 0 {
            let rows = left.min(self.batch.len() / self.n.max(1)).max(1);
            let batch = &mut self.batch[..rows * self.n];
            self.kernel.fill(batch, rng, &mut self.buffers)?;
            self.counter.count_batch(batch);
            left -= rows;
        }
        // A chunk is one stream: its last deal is not followed by the next
        // chunk's first (which another worker may draw).
        self.counter.end_stream();
        self.counter.flush();
        Ok(())
    }

    fn finish(self) -> Tally {
        self.counter.finish()
    }

    fn merge(into: &mut Tally, other: Tally) {
        into.merge(&other);
    }
}

/// Fails, naming the shuffle and showing the start of the deck, unless
/// `deck` holds each of 0..n-1 once: a user's function that loses or
/// duplicates a card is broken, not merely biased.
fn check_permutation(deck: &[u32], seen: &mut [bool], name: &str) -> Result<()> {
    seen.fill(false);
    let bad = deck.iter().find_map(|&v| match seen.get_mut(v as usize) {
        Some(s) if !*s => {
            *s = true;
            None
        }
        Some(_) => Some(format!("{v} appears twice")),
        None => Some(format!("{v} is not below n = {}", deck.len())),
    });
    match bad {
        None => Ok(()),
        Some(why) => {
            let shown: Vec<String> = deck.iter().take(12).map(u32::to_string).collect();
            let more = if deck.len() > 12 { ", ..." } else { "" };
            Err(Error::bad_input(format!(
                "{name} did not return a permutation: {why} in [{}{more}]",
                shown.join(", ")
            )))
        }
    }
}

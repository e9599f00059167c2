//! What the serial test counts: whether each deal depends on the one made
//! just before it, given whatever law the deals have on their own.
//!
//! Each stream's deals are taken in disjoint triples (a, b, c) in the order
//! made: deals 0, 1, 2, then 3, 4, 5, … of the stream (an incomplete triple
//! at a stream's end is not counted). For each triple
//! x = M(a, b) − M(a, c), where M counts the positions holding the same
//! value in both deals (for a deck whose items repeat, the same kind): the
//! match with the next deal against the match with the one after it. If
//! deals are independent and identically distributed, with any law at all
//! (a positionally biased shuffle included), b and c are exchangeable given
//! a, so x is symmetric about 0, and the x's of disjoint triples are
//! independent; a dealer whose deal leans on the previous one (repeats it,
//! barely reshuffles it, seeds from a clock that has not moved) makes x
//! positive. The counts keep, for each size |x| = j, how many triples had
//! it and how many of those had x > 0: all the weighted sign test
//! ([`crate::stats::signs`]) needs.
//!
//! Consecutive means within one stream: one chunk of a built-in run (chunk
//! boundaries are where the generator's stream changes), one block of an
//! input file (cut at fixed sizes), the whole output of one copy of a
//! command (its pipe's blocks are cut wherever reads happen to end, so they
//! cannot be streams: the counts would depend on timing). Triples never
//! span stream ends, so the counts do not depend on how streams were
//! scheduled.

use serde::{Deserialize, Serialize};

/// The serial test's counts, merged by addition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SerialCounts {
    /// `triples[j]`: triples with |M(a, b) − M(a, c)| = j (j = 0..=n).
    pub triples: Vec<u64>,
    /// `ahead[j]`: those of them with M(a, b) − M(a, c) = +j, the next deal
    /// matching more than the one after it.
    pub ahead: Vec<u64>,
}

impl SerialCounts {
    /// Empty counts for deals of `n`.
    pub fn new(n: usize) -> Self {
        Self {
            triples: vec![0; n + 1],
            ahead: vec![0; n + 1],
        }
    }

    /// Adds counts of the same n.
    pub fn merge(&mut self, other: &SerialCounts) {
        super::add(&mut self.triples, &other.triples);
        super::add(&mut self.ahead, &other.ahead);
    }

    /// The triples counted.
    pub fn total(&self) -> u64 {
        self.triples.iter().sum()
    }

    /// S = Σ x over the triples: Σ_j j (2 ahead_j − triples_j).
    pub fn sum(&self) -> i64 {
        self.triples
            .iter()
            .zip(&self.ahead)
            .enumerate()
            .map(|(j, (&all, &up))| j as i64 * (2 * up as i64 - all as i64))
            .sum()
    }

    /// Counts one triple's x (|x| ≤ n). Without a branch on the sign of
    /// x, which is a coin toss for a fair dealer.
    #[inline]
    pub fn record(&mut self, x: i64) {
        let j = x.unsigned_abs() as usize;
        self.triples[j] += 1;
        self.ahead[j] += u64::from(x > 0);
    }
}

/// A counter's memory of the stream it is counting: the first deal of the
/// triple under way, its match with the second, and how many deals the
/// stream has had.
#[derive(Debug, Clone)]
pub(crate) struct SerialState {
    /// The triple's first deal, a.
    first: Vec<u32>,
    /// M(a, b), once the triple's second deal has been seen.
    next_match: usize,
    /// The kind of each value, for a deck whose items repeat: a match is
    /// then the same kind at a position (the copies of a kind are
    /// interchangeable); `None` for distinct items.
    kinds: Option<Vec<u32>>,
    /// Deals seen in the current stream.
    seen: u64,
}

impl SerialState {
    /// A state for deals of `n`, at the start of a stream.
    pub(crate) fn new(n: usize) -> Self {
        Self {
            first: vec![0; n],
            next_match: 0,
            kinds: None,
            seen: 0,
        }
    }

    /// The state matching kinds rather than values, for a deck whose item
    /// v is of kind `kinds[v]`.
    pub(crate) fn with_kinds(mut self, kinds: Option<Vec<u32>>) -> Self {
        self.kinds = kinds;
        self
    }

    /// Counts the deals of `batch` (rows of n, back to back, in the order
    /// made), continuing the stream's triples: the deals that finish a
    /// triple begun in an earlier batch one by one, then every whole
    /// triple of the batch where it lies (nothing copied), then the start
    /// of the next.
    #[inline]
    pub(crate) fn observe(&mut self, batch: &[u32], counts: &mut SerialCounts) {
        let n = self.first.len();
        if n == 0 {
            return;
        }
        let mut start = 0;
        while !self.seen.is_multiple_of(3) && start + n <= batch.len() {
            self.step(&batch[start..start + n], counts);
            start += n;
        }
        let rest = &batch[start..];
        let whole = rest.len() / (3 * n) * (3 * n);
        let triples = rest[..whole].chunks_exact(3 * n).map(|triple| {
            let (a, bc) = triple.split_at(n);
            let (b, c) = bc.split_at(n);
            (a, b, c)
        });
        match &self.kinds {
            None => {
                for (a, b, c) in triples {
                    let (ab, ac) = match_pair(a, b, c);
                    counts.record(ab as i64 - ac as i64);
                }
            }
            Some(kinds) => {
                for (a, b, c) in triples {
                    let x = kind_matches(a, b, kinds) as i64 - kind_matches(a, c, kinds) as i64;
                    counts.record(x);
                }
            }
        }
        self.seen += (whole / n) as u64;
        for deal in rest[whole..].chunks_exact(n) {
            self.step(deal, counts);
        }
    }

    /// Counts one deal of the stream: the first, second or third of its
    /// triple.
    #[inline]
    fn step(&mut self, deal: &[u32], counts: &mut SerialCounts) {
        match self.seen % 3 {
            0 => self.first.copy_from_slice(deal),
            1 => self.next_match = self.matches(deal),
            _ => {
                let x = self.next_match as i64 - self.matches(deal) as i64;
                counts.record(x);
            }
        }
        self.seen += 1;
    }

    /// M(a, `deal`) for the triple's first deal a.
    #[inline]
    fn matches(&self, deal: &[u32]) -> usize {
        match &self.kinds {
            None => matches(&self.first, deal),
            Some(kinds) => kind_matches(&self.first, deal, kinds),
        }
    }

    /// Ends the stream: the next deal starts a new triple.
    pub(crate) fn end_stream(&mut self) {
        self.seen = 0;
    }
}

/// The number of positions where `a` and `b` hold the same value.
#[inline]
fn matches(a: &[u32], b: &[u32]) -> usize {
    let mut count = 0u32;
    for (x, y) in a.iter().zip(b) {
        count += u32::from(x == y);
    }
    count as usize
}

/// M(a, b) and M(a, c) in one pass over a.
#[inline]
fn match_pair(a: &[u32], b: &[u32], c: &[u32]) -> (usize, usize) {
    let (mut ab, mut ac) = (0u32, 0u32);
    for ((x, y), z) in a.iter().zip(b).zip(c) {
        ab += u32::from(x == y);
        ac += u32::from(x == z);
    }
    (ab as usize, ac as usize)
}

/// The number of positions where `a` and `b` hold items of the same kind.
#[inline]
fn kind_matches(a: &[u32], b: &[u32], kinds: &[u32]) -> usize {
    a.iter()
        .zip(b)
        .filter(|&(&x, &y)| kinds[x as usize] == kinds[y as usize])
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_disjoint_triples_within_a_stream_only() {
        let mut counts = SerialCounts::new(3);
        let mut state = SerialState::new(3);
        // Triple 0,1,2 / 0,2,1 / 0,1,2: M(a, b) = 1, M(a, c) = 3: x = −2.
        // Triple 2,1,0 / 2,1,0 / 1,2,0: M(a, b) = 3, M(a, c) = 1: x = +2.
        state.observe(&[0, 1, 2, 0, 2, 1], &mut counts);
        state.observe(&[0, 1, 2, 2, 1, 0, 2, 1, 0], &mut counts);
        state.observe(&[1, 2, 0, 0, 1, 2], &mut counts);
        assert_eq!(counts.triples, vec![0, 0, 2, 0]);
        assert_eq!(counts.ahead, vec![0, 0, 1, 0]);
        assert_eq!(counts.sum(), 0);
        // The stream ends with one deal of a third triple pending: a new
        // stream starts a new triple (the pending deal is dropped).
        state.end_stream();
        state.observe(&[2, 1, 0, 2, 1, 0, 0, 1, 2], &mut counts);
        assert_eq!(counts.total(), 3, "no triple across streams");
        assert_eq!(counts.triples[2], 3);
        assert_eq!(counts.sum(), 2);
        // Items 0, 1 of one kind: 0,1,2 against 1,0,2 match at every
        // position, against 2,0,1 at the middle one only.
        let mut kinds = SerialCounts::new(3);
        let mut state = SerialState::new(3).with_kinds(Some(vec![0, 0, 1]));
        state.observe(&[0, 1, 2, 1, 0, 2, 2, 0, 1], &mut kinds);
        assert_eq!(kinds.triples, vec![0, 0, 1, 0]);
        assert_eq!(kinds.sum(), 2);
        let mut merged = counts.clone();
        merged.merge(&counts);
        assert_eq!((merged.total(), merged.sum()), (6, 4));
    }

    /// x of each disjoint triple of `deals`, straight from the definition.
    fn by_definition(deals: &[Vec<u32>], kinds: &[u32]) -> SerialCounts {
        let n = deals[0].len();
        let m = |a: &[u32], b: &[u32]| {
            (0..n)
                .filter(|&i| kinds[a[i] as usize] == kinds[b[i] as usize])
                .count() as i64
        };
        let mut counts = SerialCounts::new(n);
        for t in deals.chunks_exact(3) {
            counts.record(m(&t[0], &t[1]) - m(&t[0], &t[2]));
        }
        counts
    }

    #[test]
    fn whole_triples_in_place_count_as_deal_by_deal() {
        use rand::{RngExt, SeedableRng, seq::SliceRandom};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(25);
        for (n, kinds) in [(7, None), (10, None), (6, Some(vec![0, 0, 1, 1, 1, 2]))] {
            let ids: Vec<u32> = (0..n as u32).collect();
            // Deals that often repeat the one before, so every x occurs.
            let mut deal = ids.clone();
            let deals: Vec<Vec<u32>> = (0..301)
                .map(|_| {
                    if rng.random_bool(0.5) {
                        deal.shuffle(&mut rng);
                    }
                    deal.clone()
                })
                .collect();
            let expected = by_definition(&deals, kinds.as_deref().unwrap_or(&ids));
            assert!(expected.ahead.iter().sum::<u64>() > 0 && expected.triples[0] > 0);
            // Batches of 1 to 11 deals: triples split across batches.
            let flat: Vec<u32> = deals.concat();
            let mut counts = SerialCounts::new(n);
            let mut state = SerialState::new(n).with_kinds(kinds.clone());
            let mut rest = &flat[..];
            while !rest.is_empty() {
                let take = (rng.random_range(1..=11) * n).min(rest.len());
                state.observe(&rest[..take], &mut counts);
                rest = &rest[take..];
            }
            assert_eq!(counts, expected, "n = {n}, kinds {kinds:?}");
        }
    }
}

//! What the serial-independence test counts: each deal against the one made
//! just before it, in the order the deals were made.
//!
//! For independent uniform deals σ₁, σ₂, … the maps τ_t = σ_t⁻¹σ_{t+1}
//! are themselves independent and uniform (given σ₁, (σ₂, …, σ_T) ↦
//! (τ₁, …, τ_{T−1}) is a bijection), and the positions where σ_{t+1} and
//! σ_t hold the same value are the fixed points of τ_t. So the number of
//! such positions, over all consecutive pairs, is a multinomial sample of
//! the rencontres law, exactly: [`SerialCounts::matches`]. The top cards of
//! disjoint consecutive pairs (deals 2j and 2j+1 of a stream) are
//! independent and uniform: [`SerialCounts::top`].
//!
//! Consecutive means within one stream: one chunk of a built-in run (chunk
//! boundaries are where the generator's stream changes), one block of an
//! input file or of a command's output. Pairs across stream ends are not
//! counted, so the counts do not depend on how streams were scheduled.

use serde::{Deserialize, Serialize};

/// The top card's value is counted in at most this many bins (equal
/// ranges of values), so that the pair table stays small at any n.
pub const TOP_BINS: usize = 16;

/// The serial test's counts, merged by addition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SerialCounts {
    /// `matches[k]`: consecutive pairs of deals with exactly k positions
    /// holding the same value in both (k = 0..=n; n − 1 never occurs).
    pub matches: Vec<u64>,
    /// Bins of the top card's value: min(n, [`TOP_BINS`]); value v is in bin
    /// `v * bins / n` ([`top_bin`]).
    pub bins: usize,
    /// `top[a * bins + b]`: disjoint consecutive pairs whose first deal's top
    /// card is in bin a and second's in bin b.
    pub top: Vec<u64>,
}

/// The bin of value `v` among `bins` equal ranges of `0..n`.
#[inline]
pub fn top_bin(v: u32, bins: usize, n: usize) -> usize {
    (v as usize * bins) / n
}

impl SerialCounts {
    /// Empty counts for deals of `n`.
    pub fn new(n: usize) -> Self {
        let bins = n.clamp(1, TOP_BINS);
        Self {
            matches: vec![0; n + 1],
            bins,
            top: vec![0; bins * bins],
        }
    }

    /// The probability of each top-card bin under a uniform shuffle of `n`:
    /// its number of values over n.
    pub fn bin_law(&self, n: usize) -> Vec<f64> {
        let mut law = vec![0.0; self.bins];
        for v in 0..n as u32 {
            law[top_bin(v, self.bins, n)] += 1.0 / n as f64;
        }
        law
    }

    /// Adds counts of the same n.
    pub fn merge(&mut self, other: &SerialCounts) {
        super::add(&mut self.matches, &other.matches);
        super::add(&mut self.top, &other.top);
    }
}

/// A counter's memory of the stream it is counting: the last deal seen and
/// how many deals the stream has had.
#[derive(Debug, Clone)]
pub(crate) struct SerialState {
    n: usize,
    previous: Vec<u32>,
    /// The top-card bin of each value ([`top_bin`]), looked up rather than
    /// divided per deal.
    bin_of: Vec<u32>,
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
        let bins = n.clamp(1, TOP_BINS);
        Self {
            n,
            previous: vec![0; n],
            bin_of: (0..n as u32).map(|v| top_bin(v, bins, n) as u32).collect(),
            kinds: None,
            seen: 0,
        }
    }

    /// The state matching kinds rather than values, for a deck whose item
    /// v is of kind `kinds[v]` (see [`crate::deck::laws::kind_match_law`]).
    pub(crate) fn with_kinds(mut self, kinds: Option<Vec<u32>>) -> Self {
        self.kinds = kinds;
        self
    }

    /// Counts the deals of `batch` (rows of n, back to back, in the order
    /// made) against their predecessors in the stream.
    #[inline]
    pub(crate) fn observe(&mut self, batch: &[u32], counts: &mut SerialCounts) {
        let n = self.n;
        if n == 0 {
            return;
        }
        let bins = counts.bins;
        let mut before: Option<&[u32]> = (self.seen > 0).then_some(&self.previous[..]);
        let mut seen = self.seen;
        for deal in batch.chunks_exact(n) {
            if let Some(prev) = before {
                let same = match &self.kinds {
                    None => matches(prev, deal),
                    Some(kinds) => kind_matches(prev, deal, kinds),
                };
                counts.matches[same] += 1;
                if seen % 2 == 1 {
                    let bin = |v: u32| self.bin_of[v as usize] as usize;
                    counts.top[bin(prev[0]) * bins + bin(deal[0])] += 1;
                }
            }
            seen += 1;
            before = Some(deal);
        }
        if let Some(last) = batch.rchunks_exact(n).next() {
            self.previous.copy_from_slice(last);
        }
        self.seen = seen;
    }

    /// Ends the stream: the next deal has no predecessor.
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
    fn counts_consecutive_deals_within_a_stream_only() {
        let mut counts = SerialCounts::new(3);
        let mut state = SerialState::new(3);
        // Deals 0,1,2 / 0,2,1 / 0,2,1 / 1,0,2: matches 1, 3, 0.
        state.observe(&[0, 1, 2, 0, 2, 1], &mut counts);
        state.observe(&[0, 2, 1, 1, 0, 2], &mut counts);
        assert_eq!(counts.matches, vec![1, 1, 0, 1]);
        // Disjoint pairs (deals 0,1) and (2,3): top cards (0,0) and (0,1).
        assert_eq!(counts.top[0], 1);
        assert_eq!(counts.top[1], 1);
        assert_eq!(counts.top.iter().sum::<u64>(), 2);
        state.end_stream();
        state.observe(&[2, 1, 0], &mut counts);
        assert_eq!(
            counts.matches.iter().sum::<u64>(),
            3,
            "no pair across streams"
        );
        let law = counts.bin_law(3);
        assert_eq!(law.len(), 3);
        assert!((law.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // Items 0, 1 of one kind: 0,1,2 against 1,0,2 match at every position.
        let mut kinds = SerialCounts::new(3);
        let mut state = SerialState::new(3).with_kinds(Some(vec![0, 0, 1]));
        state.observe(&[0, 1, 2, 1, 0, 2, 2, 0, 1], &mut kinds);
        assert_eq!(kinds.matches, vec![0, 1, 0, 1]);
        let big = SerialCounts::new(52);
        assert_eq!(big.bins, TOP_BINS);
        let sizes: Vec<f64> = big.bin_law(52).iter().map(|p| p * 52.0).collect();
        assert!(
            sizes
                .iter()
                .all(|&s| (s - 3.0).abs() < 1e-9 || (s - 4.0).abs() < 1e-9)
        );
    }
}

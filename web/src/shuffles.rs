//! A shuffle audited a batch at a time: the page's permutations, written
//! as binary records (`u8` for n ≤ 256, `u16` above), are counted by the
//! library's reader exactly as `shuffle-audit audit --input FILE --format
//! u8` counts a file, and judged by the library as the command line judges
//! it.
//!
//! The serial test compares the deals of disjoint triples within a stream
//! (one block of a file); here each counted batch is a stream, so batches
//! are counted in whole triples and the 0 to 2 decks left over go to the
//! front of the next batch: the triples are those of one stream of every
//! deck, whatever sizes the page's batches have.

use shuffle_audit::audit::{self, DEFAULT_ALPHA};
use shuffle_audit::engine::{RunSpec, no_progress};
use shuffle_audit::findings::Findings;
use shuffle_audit::ingest::{self, Format, Ingested};
use shuffle_audit::output::summary::{Summary, counts_csv};
use shuffle_audit::produce::read_options;
use shuffle_audit::source::SourceKind;
use shuffle_audit::subject::{Feed, Outside, Subject};
use shuffle_audit::{Audit, values};

/// Decks per serial-test triple: batches are counted in multiples of it.
const TRIPLE: usize = 3;

/// The most bytes one batch may hold: below the library reader's block
/// (2 MiB), so that a batch is read as one block, one stream.
pub const MAX_BATCH_BYTES: usize = 1 << 20;

/// The largest n the page audits: u16 records hold 65,536 items.
pub const MAX_N: usize = 1 << 16;

/// A shuffle audit under way.
pub struct ShuffleSession {
    spec: RunSpec,
    opts: ingest::Options,
    name: String,
    /// Bytes per item of a record: 1 (u8) or 2 (u16, little-endian).
    width: usize,
    /// Decks left over from the last batch, then room for the next one.
    buffer: Vec<u8>,
    /// Decks at the front of `buffer` not yet counted (fewer than a triple).
    carried: usize,
    /// Everything counted so far, with what the items were.
    read: Option<Ingested>,
}

impl ShuffleSession {
    /// An audit of `trials` shuffles of `n` items named `name`, the decks
    /// made as `from` says ("shuffled in the browser by a JavaScript
    /// function on Math.random"); `seed` is the page's generator's seed,
    /// which the report states and the sparse tests' Monte Carlo p-values
    /// use, as the command line's `--seed` does.
    pub fn new(n: usize, trials: u64, seed: u64, name: &str, from: &str) -> Result<Self, String> {
        values::check_n(n).map_err(|e| e.to_string())?;
        if n > MAX_N {
            return Err(format!("n = {n}: the page audits at most {MAX_N} items"));
        }
        if trials == 0 {
            return Err("trials must be at least 1".to_string());
        }
        let outside = Outside {
            name: name.to_string(),
            feed: Feed::Given {
                from: from.to_string(),
            },
            order: None,
            categories: None,
        };
        let spec = RunSpec::new(
            Subject::Outside(outside.clone()),
            n,
            trials,
            SourceKind::Chacha8.into(),
            seed,
        );
        let (format, width) = if n <= 256 {
            (Format::U8, 1)
        } else {
            (Format::U16, 2)
        };
        let opts = ingest::Options {
            max_decks: None,
            ..read_options(&spec, &outside, format)
        };
        Ok(ShuffleSession {
            spec,
            opts,
            name: name.to_string(),
            width,
            buffer: Vec::new(),
            carried: 0,
            read: None,
        })
    }

    /// Items per deck.
    pub fn n(&self) -> usize {
        self.spec.n
    }

    /// Bytes per item of a record: 1 (u8) or 2 (u16, little-endian).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Bytes per deck.
    fn record(&self) -> usize {
        self.spec.n * self.width
    }

    /// Decks counted so far (not counting those carried to the next batch).
    pub fn counted(&self) -> u64 {
        self.read.as_ref().map_or(0, |r| r.decks)
    }

    /// The most decks one batch may hold ([`MAX_BATCH_BYTES`], less the
    /// decks carried over).
    pub fn max_batch(&self) -> usize {
        (MAX_BATCH_BYTES / self.record())
            .saturating_sub(TRIPLE)
            .max(1)
    }

    /// Room for the next `decks` decks (at most [`max_batch`](Self::max_batch)),
    /// each n little-endian items (the index of the item at each position),
    /// for the caller to fill before [`count`](Self::count).
    pub fn batch(&mut self, decks: usize) -> &mut [u8] {
        let decks = decks.min(self.max_batch());
        let start = self.carried * self.record();
        self.buffer.resize(start + decks * self.record(), 0);
        &mut self.buffer[start..]
    }

    /// Counts the first `decks` decks of the batch; with `last`, also the
    /// decks carried over (the run's end). Fails, counting nothing of the
    /// batch, on a record that is not a permutation of 0..n-1.
    pub fn count(&mut self, decks: usize, last: bool) -> Result<(), String> {
        let record = self.record();
        let total = self.carried + decks;
        let whole = if last { total } else { total - total % TRIPLE };
        if total * record > self.buffer.len() {
            return Err(format!("{decks} decks were counted but fewer were written"));
        }
        if whole > 0 {
            let read = ingest::read(
                &self.buffer[..whole * record],
                &self.name,
                &self.opts,
                &no_progress,
            )
            .map_err(|e| e.to_string())?;
            match &mut self.read {
                None => self.read = Some(read),
                Some(so_far) => {
                    so_far.tally.merge(&read.tally);
                    so_far.decks += read.decks;
                }
            }
        }
        self.buffer.copy_within(whole * record..total * record, 0);
        self.carried = total - whole;
        self.buffer.truncate(self.carried * record);
        Ok(())
    }

    /// The audit of what has been counted so far, judged alone as the
    /// command line judges one audit; `seconds` is the time taken.
    pub fn judge(&self, seconds: f64) -> Result<Audit, String> {
        let read = self
            .read
            .clone()
            .ok_or_else(|| "no decks have been counted yet".to_string())?;
        judged(&self.spec, read, seconds)
    }
}

/// Judges decks read for `spec` alone, at the default level, as
/// `shuffle-audit audit --input` judges a file (`audit::of_read`).
pub fn judged(spec: &RunSpec, read: Ingested, seconds: f64) -> Result<Audit, String> {
    let mut a =
        audit::of_read(spec, read, seconds, DEFAULT_ALPHA, true).map_err(|e| e.to_string())?;
    audit::judge(std::slice::from_mut(&mut a), DEFAULT_ALPHA);
    Ok(a)
}

/// The audit's `summary.json`, as `shuffle-audit audit --json` prints it.
pub fn summary_json(a: &Audit) -> String {
    let audits = std::slice::from_ref(a);
    Summary::of(audits, &Findings::of(audits, a.alpha())).to_json()
}

/// The audit's `counts.csv`, as the command line writes it (the page's
/// decks hold distinct items, so the columns are values, never kinds).
pub fn counts(a: &Audit) -> String {
    counts_csv(&a.cells(), None)
}

//! Permutations made outside the tool, counted into a [`Tally`].
//!
//! A shuffle written in another language can be audited by what it prints:
//! one shuffled deck per line of text, or fixed-width binary records, read
//! from a file, from stdin ([`read`], [`read_path`]) or from the output of
//! the program itself run in parallel ([`run_command`]). The input is read in
//! large blocks, parsed and counted on all threads in constant memory, and
//! counted by the same code as the engine's own shuffles, so a tally of
//! ingested decks means exactly what a tally of built-in shuffles means.
//!
//! # The tally's convention
//!
//! Each deck is counted as the permutation `perm[p]` = the index, in the
//! starting order, of the item at position p. With the default order that is
//! the item's rank: for integer items 0..n-1 the item itself, for 1..n the
//! item minus one, for labels their rank in byte order. With an explicit
//! order ([`Decks::order`]) it is the item's position in that order.
//!
//! # The text format
//!
//! One deck per line; items separated by whitespace and/or commas; optional
//! `[` `]` around the line and `"` around items (so one JSON array per line
//! works); blank lines and lines starting with `#` are skipped; `\r\n` line
//! ends are fine. Items are split at separators before quotes are removed,
//! so a quoted item cannot contain a space or a comma. Items are identified
//! by their text (`07` is not `7`). If every item of the
//! first deck is a plain non-negative integer (no sign, no leading zero) and
//! together they are exactly 0..n-1 or 1..n, the decks are numeric;
//! otherwise the items are labels (`AS 10H QD ...`). n is the first deck's
//! item count, and every later deck must be a permutation of the same items.
//! A first deck whose items repeat (a shoe, `A A B B`) makes a deck with
//! repeated items: its distinct items are the kinds (integers by value,
//! playing cards in deck order as a built-in shoe has them, else labels in
//! byte order), kind j's items the consecutive indices `first[j]..`, and
//! the k-th occurrence of a kind on a line is counted as its k-th index.
//! Summed over each kind's indices the counts are exactly the
//! position-by-kind counts (`crate::deck` tests them, and every per-cell
//! output reads them: [`crate::tally::Cells`]; the per-index counts mean
//! nothing and are neither tested nor shown). A later line holding a kind
//! more often than the first line is refused. Binary records and explicit
//! starting orders must still hold distinct items.
//!
//! # The binary formats
//!
//! `u8`, `u16`, `u32`: records of n little-endian values of that width, n
//! given (there is no line to count it from); the first record must hold
//! 0..n-1 or 1..n, which fixes the base. With a starting order (of
//! integers), value v is the item written `v` in it.
//!
//! # Speed
//!
//! Measured on a 2-core machine (`shuffle-audit bench`), counting what the
//! default tests need (the position-by-value matrix and the structure
//! statistics): about 2M decks/s (300 MB/s) of text at n = 52 and 11M/s at
//! n = 10, u32 records at 2.6M/s and 13M/s, against 2.8M/s and 17M/s for
//! the engine shuffling and counting its own. Counting the structure
//! statistics, not parsing, takes most of the time: without them text reads
//! at 4.7M decks/s (690 MB/s) at n = 52.
//!
//! # Errors
//!
//! The first bad line (in input order, although parsing is parallel) stops
//! the read with an [`Error::Invalid`] naming its place and problem:
//! `deals.txt:1834: expected 52 items, found 51`, `deals.txt:77: "7H" appears
//! twice`, `deals.bin: record 17: value 60 is not one of the 52 items of
//! record 1`. No tally is returned with an error.

mod batches;
mod binary;
mod command;
mod driver;
mod items;
pub mod samples;
#[cfg(test)]
mod tests;
mod text;

pub use batches::{BatchCounter, Batches};
use command::Unit;
pub use command::{
    CommandSpec, WorkerRun, run_command, shares, substitute, uses_n, worker_runs, worker_seed,
};

use crate::error::{Error, Result};
use crate::pacing::Progress;
use crate::spec::{MAX_PERMUTATION_N, TestKind, TestSet};
use crate::tally::{Collect, Tally};
use driver::{Chunker, Drive, Fail, Source, Streams, Threaded, Truncated};
pub use driver::{ReadPoint, Saver};
use items::{Dict, Lookup};
use std::io::Read;
use std::path::Path;

mod format;
pub use format::Format;

/// What to read and how to count it, for any kind of record (a shuffled
/// deck, a sample): what every kind shares is written here once, and
/// `reading` holds what one kind adds ([`Decks`] for decks,
/// [`samples::Samples`] for samples).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options<R> {
    /// Items per record. Decks: required for the binary formats; for text,
    /// checked against the first deck when given. Samples: the population
    /// size N, required.
    pub n: Option<usize>,
    /// How records are written (samples are text only).
    pub format: Format,
    /// Read only the first this many records, decks or samples
    /// (`--trials`); fewer available is fine. `None` reads everything.
    pub max_records: Option<u64>,
    /// What the kind of record adds.
    pub reading: R,
}

impl<R> Options<R> {
    /// The most records to count ([`Options::max_records`], or no limit),
    /// refusing a limit of 0 in a message naming the records (`unit`).
    pub(crate) fn limit(&self, unit: Unit) -> Result<u64> {
        match self.max_records {
            Some(0) => Err(Error::out_of_range(format!(
                "the number of {} to read must be at least 1 (got 0)",
                unit.many
            ))),
            Some(t) => Ok(t),
            None => Ok(u64::MAX),
        }
    }
}

/// What a read of decks adds to [`Options`]: the starting order, and what
/// the tally counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decks {
    /// The starting order, as item tokens: item i of this list gets index i
    /// in the tally. `None`: ascending integers, or labels in byte order.
    pub order: Option<Vec<String>>,
    /// What the tally collects beyond the position-by-value matrix.
    pub collect: Collect,
    /// The tests the tally is for, when n is only known from the input:
    /// then what is collected is what these tests need at the first deck's
    /// n (default tests depend on n), and `collect` is ignored.
    pub tests: Option<TestSet>,
    /// The kind of each item of a deck declared up front whose items
    /// repeat (a shoe handed to the caller's function, its decks written
    /// as item indices): the serial counts then match kinds, as for a
    /// first deck whose labels repeat. `None` otherwise.
    pub kinds: Option<Vec<u32>>,
}

impl Decks {
    /// What to collect for decks of `n` items.
    pub fn collect_at(&self, n: usize) -> Collect {
        self.tests
            .as_ref()
            .map_or(self.collect, |tests| tests.at(n).collect(n))
    }

    /// What to collect for decks of `n` items whose first deck repeats
    /// items (`multiset`) or not: a shoe's default tests (or `all`), or tests naming
    /// adjacency or successor, also count which kind follows which (the
    /// deck's order tests, see `crate::deck::battery`).
    pub fn collect_for(&self, n: usize, multiset: bool) -> Collect {
        let mut collect = self.collect_at(n);
        collect.adjacency |= multiset
            && self.tests.as_ref().is_some_and(|tests| {
                tests.takes_deck_tests()
                    || tests
                        .iter()
                        .any(|k| matches!(k, TestKind::Adjacency | TestKind::Successor))
            });
        collect
    }
}

/// What tally index i means: the i-th item of the starting order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Items {
    /// Integer items in ascending order: index i is the item `i`
    /// (`one_based == false`) or `i + 1`.
    Numeric {
        /// Whether the items are 1..n rather than 0..n-1.
        one_based: bool,
    },
    /// Index i is the item written as `labels[i]`.
    Labels(Vec<String>),
}

impl Items {
    /// The text of item `index` (as written in the input).
    pub fn label(&self, index: usize) -> String {
        match self {
            Items::Numeric { one_based } => (index + usize::from(*one_based)).to_string(),
            Items::Labels(labels) => labels[index].clone(),
        }
    }

    /// A short description for messages: `0..51`, `1..52`, `the labels 10H,
    /// 2C, 3S, ... (52 items)`, for a deck whose items repeat `52 kinds: AS,
    /// 2S, 3S, 4S, ..., 312 items in all`.
    pub fn describe(&self, n: usize) -> String {
        match self {
            Items::Numeric { one_based: false } => format!("0..{}", n.saturating_sub(1)),
            Items::Numeric { one_based: true } => format!("1..{n}"),
            Items::Labels(labels) => {
                // A multiset's copies are consecutive: name each kind once.
                let mut kinds: Vec<&str> = labels.iter().map(String::as_str).collect();
                kinds.dedup();
                let head = kinds[..kinds.len().min(4)].join(", ");
                let more = if kinds.len() > 4 { ", ..." } else { "" };
                if kinds.len() < labels.len() {
                    format!(
                        "{} kinds: {head}{more}, {} items in all",
                        kinds.len(),
                        labels.len()
                    )
                } else {
                    format!("the labels {head}{more} ({} items)", labels.len())
                }
            }
        }
    }
}

/// The result of a read of any kind of record: the counts, how many records
/// they hold, and what the input's items mean (decks: [`Items`]; samples:
/// their [`samples::Base`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ingested<T, M> {
    /// The counts, by tally index (decks: the index in the starting order;
    /// samples: items numbered from 0).
    pub tally: T,
    /// Records (decks or samples) counted.
    pub counted: u64,
    /// What each tally index stands for in the input: a deck's [`Items`],
    /// or how samples numbered theirs ([`samples::Base`]).
    pub items: M,
    /// Whether [`Options::max_records`] stopped the read before the end of
    /// the input (at least one more record followed).
    pub stopped_early: bool,
}

/// The item count of the first deck of a text file, read from its start
/// (at most 1 MiB), for saying n before the file is read: `None` for
/// stdin, binary records, an unreadable file or one without a deck line in
/// that much. The read itself decides n (and checks every deck).
pub fn peek_n(path: &Path, format: Format) -> Option<usize> {
    const PEEK: u64 = 1 << 20;
    if format != Format::Text || path.as_os_str() == "-" {
        return None;
    }
    let mut start = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(PEEK)
        .read_to_end(&mut start)
        .ok()?;
    let (_, line) = text::deck_lines(&start).next()?;
    // A line running to the end of a full buffer may go on past it.
    let cut = start.len() as u64 == PEEK && start.ends_with(line);
    (!cut).then(|| text::tokens(text::deck_body(line).unwrap_or_default()).count())
}

/// Reads decks from `reader` and counts them.
///
/// `name` names the input in messages (`deals.txt`, `stdin`). The input is
/// read by one thread in 2 MiB blocks cut at line (or record) ends and
/// parsed by all threads of the current rayon pool, a bounded window of
/// blocks at a time, so memory stays constant whatever the input's size.
/// `progress` receives deck counts as blocks are counted. If a limit
/// ([`Options::max_records`]) stops the read early, the reading thread is
/// released when its pending read returns (at once for files and pipes
/// whose writer goes on writing or exits).
pub fn read(
    reader: impl Read + Send,
    name: &str,
    opts: &Options<Decks>,
    progress: Progress<'_>,
) -> Result<Ingested<Tally, Items>> {
    read_blocks(reader, name, opts, progress, driver::BLOCK)
}

/// [`read`] from a file, or from stdin when `path` is `-`.
pub fn read_path(
    path: &Path,
    opts: &Options<Decks>,
    progress: Progress<'_>,
) -> Result<Ingested<Tally, Items>> {
    with_input(path, |reader, name| read(reader, name, opts, progress))
}

/// Runs `read` on the file at `path`, or on stdin when `path` is `-`, with
/// the name messages give it (the path, or `stdin`).
fn with_input<T>(
    path: &Path,
    read: impl FnOnce(Box<dyn Read + Send>, &str) -> Result<T>,
) -> Result<T> {
    if path == Path::new("-") {
        return read(Box::new(std::io::stdin()), "stdin");
    }
    let file = std::fs::File::open(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read(Box::new(file), &path.display().to_string())
}

/// Where a read starts, what the read before that point found, and who is
/// told how far it has got: a read resumed from a checkpoint, or saving
/// one (see [`read_path_from`] for decks,
/// [`samples::read_samples_path_from`] for samples). `T` is the tally and
/// `M` what a read finds out about the items (see [`Saver`]).
pub struct Resume<'a, T = Tally, M = Items> {
    /// The point the input is read from (its start by default).
    pub at: ReadPoint,
    /// What the read before [`at`](Self::at) found out, and its counts
    /// (`None` for a read from the start): the rest is read as that read
    /// would have read it (the same items, numbering and sample size),
    /// since the lines that decided them are not read again.
    pub before: Option<(&'a M, &'a T)>,
    /// Told the read's progress after every window of blocks.
    pub saver: Option<&'a dyn Saver<T, M>>,
}

impl<T, M> Clone for Resume<'_, T, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, M> Copy for Resume<'_, T, M> {}

impl<T, M> Default for Resume<'_, T, M> {
    fn default() -> Self {
        Self {
            at: ReadPoint::default(),
            before: None,
            saver: None,
        }
    }
}

/// The file at `path` (not stdin) opened at `at`, with `opts`' limit
/// lowered by the records before `at`: how every kind's read resumes.
pub(crate) fn open_at<R: Clone>(
    path: &Path,
    at: ReadPoint,
    opts: &Options<R>,
) -> Result<(std::fs::File, Options<R>)> {
    use std::io::{Seek, SeekFrom};
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(io)?;
    file.seek(SeekFrom::Start(at.bytes)).map_err(io)?;
    let opts = Options {
        max_records: opts
            .max_records
            .map(|max| max.saturating_sub(at.counted).max(1)),
        ..opts.clone()
    };
    Ok((file, opts))
}

/// [`read_path`] of a file (not stdin) from `resume.at`, a point an
/// earlier read of the same file reached (see [`Saver`]): the file is
/// opened at that byte, lines are numbered on from there, and the decks
/// before it count towards [`Options::max_records`]. The decks are read
/// with the items the earlier read found (`resume.before`), since the
/// first deck that set them is not read again; a starting order
/// (`opts.reading.order`) must be the earlier read's. The tally holds this
/// read's decks only.
pub fn read_path_from(
    path: &Path,
    opts: &Options<Decks>,
    resume: Resume<'_>,
    progress: Progress<'_>,
) -> Result<Ingested<Tally, Items>> {
    let (file, opts) = open_at(path, resume.at, opts)?;
    read_resumable(
        file,
        &path.display().to_string(),
        &opts,
        progress,
        driver::BLOCK,
        resume,
    )
}

/// [`read`] with a given block size (small in tests, to exercise block
/// boundaries).
pub(crate) fn read_blocks(
    reader: impl Read + Send,
    name: &str,
    opts: &Options<Decks>,
    progress: Progress<'_>,
    block: usize,
) -> Result<Ingested<Tally, Items>> {
    read_resumable(reader, name, opts, progress, block, Resume::default())
}

/// [`read_blocks`] from a point, telling a saver (see [`Resume`]).
fn read_resumable(
    reader: impl Read + Send,
    name: &str,
    opts: &Options<Decks>,
    progress: Progress<'_>,
    block: usize,
    resume: Resume<'_>,
) -> Result<Ingested<Tally, Items>> {
    let plan = Plan::new(opts)?;
    let limit = opts.limit(Unit::DECK)?;
    let window = (driver::BLOCKS_PER_THREAD * rayon::current_num_threads()).clamp(2, 32);
    let read = |src: &mut dyn Source| {
        ingest(
            src,
            name,
            opts,
            &plan,
            limit,
            Streams::Blocks(window),
            true,
            progress,
            resume,
        )
        .map_err(|f| f.error)
    };
    if cfg!(target_family = "wasm") {
        // No threads to read ahead with (the browser's WebAssembly): the
        // blocks are read on the calling thread, and counted alike.
        return read(&mut Chunker::new(reader, block, plan.record, false));
    }
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel(window);
        let (free_tx, free_rx) = std::sync::mpsc::channel();
        let chunker = Chunker::new(reader, block, plan.record, false).with_free(free_rx);
        scope.spawn(move || chunker.run(tx));
        let mut src = Threaded {
            rx,
            free: free_tx,
            end: (0, 0),
        };
        let result = read(&mut src);
        // Hanging up tells the reading thread to stop.
        drop(src);
        result
    })
}

/// The options checked once, before any input is read.
pub(crate) struct Plan {
    /// The starting order's dictionary, if given.
    order: Option<Dict>,
    /// Bytes per record (binary formats).
    record: Option<usize>,
}

impl Plan {
    pub(crate) fn new(opts: &Options<Decks>) -> Result<Plan> {
        let record = match opts.format.width() {
            None => None,
            Some(width) => {
                let Some(n) = opts.n else {
                    return Err(Error::unsupported(format!(
                        "the {} format needs n, the number of items per record (--n)",
                        opts.format
                    )));
                };
                crate::values::check_n(n)?;
                let most = 1usize << (8 * width.min(3));
                if width < 4 && n > most {
                    return Err(Error::out_of_range(format!(
                        "{} records cannot hold {n} distinct items (at most {most})",
                        opts.format
                    )));
                }
                Some(n * width)
            }
        };
        if let Some(n) = opts.n {
            check_collect(n, opts)?;
        }
        let order = match &opts.reading.order {
            None => None,
            Some(order) => {
                let dict = Dict::from_order(order, opts.n).map_err(Error::bad_input)?;
                if record.is_some() && dict.multiset.is_some() {
                    return Err(Error::bad_input(format!(
                        "the starting order repeats items, and {} records hold n distinct \
                         values: {}",
                        opts.format,
                        items::REPEATED_ITEMS
                    )));
                }
                if record.is_some()
                    && let Lookup::Labels(_) = dict.lookup
                {
                    return Err(Error::bad_input(format!(
                        "{} records hold integers: the starting order must list integers \
                         (below 1,048,576), one per value",
                        opts.format
                    )));
                }
                Some(dict)
            }
        };
        Ok(Plan { order, record })
    }
}

/// Fails unless what `opts` counts, and the tests it counts for, can run
/// on decks of `n` items (n is known only once the input is read: a
/// `--bins` above it, or a test that cannot run at it, is refused then).
fn check_collect(n: usize, opts: &Options<Decks>) -> Result<()> {
    if let Some(tests) = &opts.reading.tests {
        tests.at(n).check(n)?;
    }
    let collect = opts.reading.collect_at(n);
    if collect.permutations && n > MAX_PERMUTATION_N {
        return Err(Error::too_costly(format!(
            "counting whole permutations needs n <= {MAX_PERMUTATION_N} (n! counters), \
             but the decks have n = {n}"
        )));
    }
    Ok(())
}

/// The first deck line of a text input, with the deck line after it (if
/// in the same block), to judge whether the input is decks at all.
struct FirstDeck<'a> {
    /// The input, for messages.
    name: &'a str,
    /// Its line number.
    at: u64,
    /// Its text.
    text: &'a [u8],
    /// The next deck line, if the block holds one.
    next: Option<&'a [u8]>,
}

impl FirstDeck<'_> {
    /// The dictionary of the items of this deck (`None` when a starting
    /// order gives them), refusing what is recognisably not a deck line:
    /// an array of decks on one line, or a header above decks of integers.
    fn dict(&self, opts: &Options<Decks>, ordered: bool) -> Result<Option<Dict>> {
        let (name, at) = (self.name, self.at);
        if let Some(problem) = text::arrays_problem(self.text) {
            return Err(Error::bad_input(format!("{name}:{at}: {problem}")));
        }
        if ordered {
            return Ok(None);
        }
        let tokens = line_tokens(self.text);
        let dict = Dict::from_first_deck(&tokens, opts.n, format!("line {at}"))
            .map_err(|p| items::first_deck_error(format!("{name}:{at}"), p))?;
        if self.is_header(&dict) {
            let head: Vec<String> = tokens.iter().take(3).map(|t| items::quoted(t)).collect();
            let more = if tokens.len() > 3 { ", ..." } else { "" };
            return Err(Error::bad_input(format!(
                "{name}: line {at} looks like a header ({}{more}) above decks of integers: \
                 delete it, or start it with # to skip it",
                head.join(", ")
            )));
        }
        Ok(Some(dict))
    }

    /// Whether this line, read as `dict`, is a header: labels none of which
    /// is an integer, above a line of as many integers that is a deck of
    /// 0..n-1 or 1..n.
    fn is_header(&self, dict: &Dict) -> bool {
        let Some(next) = self.next else {
            return false;
        };
        let labels = matches!(dict.items, Items::Labels(_))
            && dict.multiset.is_none()
            && !dict.looks_like_samples
            && line_tokens(self.text)
                .iter()
                .all(|t| items::canonical_int(t).is_none());
        labels
            && Dict::from_first_deck(&line_tokens(next), Some(dict.n), String::new())
                .is_ok_and(|d| matches!(d.items, Items::Numeric { .. }))
    }
}

/// The dictionary of a read resumed after an earlier one found `items`
/// (`n` of them) in its first deck, as that read built it (binary records
/// are numbered from 0 or 1).
fn resumed_dict(items: &Items, n: usize, binary: bool) -> Result<Dict, Fail> {
    let dict = match (items, binary) {
        (Items::Numeric { one_based }, true) => {
            Ok(Dict::numbered(n, *one_based, "record 1".to_string()))
        }
        (Items::Labels(_), true) => Err("binary records hold numbered items".to_string()),
        (_, false) => {
            let labels: Vec<String> = (0..n).map(|i| items.label(i)).collect();
            let tokens: Vec<&[u8]> = labels.iter().map(|l| l.as_bytes()).collect();
            Dict::from_first_deck(&tokens, Some(n), "the first deck".to_string())
        }
    };
    dict.map_err(|p| Fail::from(Error::bad_input(format!("the items read before: {p}"))))
}

/// The dictionary of binary records without a starting order, from the
/// first record of `block` (`record` bytes of `format`), the start of the
/// input `name`: numbered from 0 or 1 as that record is.
fn first_record(name: &str, block: &[u8], record: usize, format: Format) -> Result<Dict> {
    let values = binary::record_values(&block[..record], format.width().unwrap_or(1));
    binary::first_record_dict(&values).map_err(|p| match binary::text_problem(block, format) {
        Some(text) => Error::bad_input(format!("{name}: {text}")),
        None => items::first_deck_error(format!("{name}: record 1"), p),
    })
}

/// The items of a deck line.
fn line_tokens(line: &[u8]) -> Vec<&[u8]> {
    text::tokens(text::deck_body(line).unwrap_or_default()).collect()
}

/// Reads a whole source in either format, its blocks parsed, and its
/// streams of deals taken, as `streams` says.
#[allow(clippy::too_many_arguments)]
pub(crate) fn ingest(
    src: &mut dyn Source,
    name: &str,
    opts: &Options<Decks>,
    plan: &Plan,
    limit: u64,
    streams: Streams,
    probe_more: bool,
    progress: Progress<'_>,
    resume: Resume<'_>,
) -> Result<Ingested<Tally, Items>, Fail> {
    let io = |e| Fail::io(name, e, 0);
    let ragged = |src: &dyn Source, decks, record| {
        let (total, leftover) = src.end();
        (leftover > 0).then(|| Fail {
            error: driver::ragged(name, total, record),
            decks,
            truncated: Truncated::MidDeck,
        })
    };
    // A resumed read goes on with the items the earlier read found.
    let resumed = match (resume.before, &plan.order) {
        (Some((items, tally)), None) => {
            Some(resumed_dict(items, tally.n(), plan.record.is_some())?)
        }
        _ => None,
    };
    let (own, first, units_before, skipped_bytes) = match plan.record {
        None if resume.before.is_some() => {
            let first = src.next_block().map_err(io)?.unwrap_or_default();
            (resumed, first, resume.at.units, 0)
        }
        None => {
            let mut units_before = resume.at.units;
            let mut skipped_bytes = 0u64;
            loop {
                let Some(block) = src.next_block().map_err(io)? else {
                    return Err(Fail::none_found(name, Unit::DECK));
                };
                let (found, next) = {
                    let mut lines = text::deck_lines(&block);
                    (lines.next(), lines.next().map(|(_, next)| next))
                };
                let Some((line, text)) = found else {
                    units_before += text::count_lines(&block);
                    skipped_bytes += block.len() as u64;
                    src.recycle(block);
                    continue;
                };
                let first = FirstDeck {
                    name,
                    at: units_before + line,
                    text,
                    next,
                };
                let own = first.dict(opts, plan.order.is_some())?;
                break (own, block, units_before, skipped_bytes);
            }
        }
        Some(record) => {
            let first = match src.next_block().map_err(io)? {
                Some(first) => first,
                // A resumed read may find nothing left to read.
                None if resume.before.is_some() && src.end().1 == 0 => Vec::new(),
                None => {
                    return Err(ragged(src, 0, record)
                        .unwrap_or_else(|| Fail::none_found(name, Unit::DECK)));
                }
            };
            let own = match (&plan.order, resumed) {
                (Some(_), _) => None,
                (None, Some(resumed)) => Some(resumed),
                (None, None) => Some(first_record(name, &first, record, opts.format)?),
            };
            (own, first, resume.at.units, 0)
        }
    };
    let dict = own.as_ref().or(plan.order.as_ref()).expect("a dictionary");
    let drive = Drive {
        name,
        n: dict.n,
        collect: opts.reading.collect_for(dict.n, dict.multiset.is_some()),
        kinds: dict
            .multiset
            .as_ref()
            .map(items::Multiset::kind_of)
            .or_else(|| opts.reading.kinds.clone()),
        before: ReadPoint {
            bytes: resume.at.bytes + skipped_bytes,
            units: units_before,
            counted: resume.at.counted,
        },
        saver: resume.saver,
        items: dict.items.clone(),
        limit,
        streams,
        probe_more,
        progress,
    };
    let done = match (plan.record, &dict.lookup) {
        (None, _) => {
            check_collect(dict.n, opts)?;
            drive.run(src, first, &text::TextParser { dict })?
        }
        (Some(record), Lookup::Table(table)) => {
            let width = opts.format.width().unwrap_or(1);
            let parser = binary::BinaryParser { dict, table, width };
            let done = drive.run(src, first, &parser)?;
            if done.reached_end
                && let Some(fail) = ragged(src, done.decks, record)
            {
                return Err(fail);
            }
            done
        }
        (Some(_), Lookup::Labels(_)) => unreachable!("binary dictionaries are tables"),
    };
    Ok(Ingested {
        tally: done.tally,
        counted: done.decks,
        items: dict.items.clone(),
        stopped_early: done.stopped_early,
    })
}

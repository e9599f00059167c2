//! The machinery shared by every format: cutting the input into blocks,
//! parsing a window of blocks in parallel, and combining their results in
//! input order so that the deck limit and the first error behave exactly as
//! if the input had been read line by line.

use crate::error::{Error, Result};
use crate::format::thousands;
use crate::pacing::Progress;
use crate::tally::{Collect, Counter, Tally};
use rayon::prelude::*;
use std::io::{self, Read};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, SyncSender};

pub(crate) use crate::pacing::BATCH;

/// Bytes per block when reading a file or stdin: large enough that a block's
/// work (about 14,000 decks of 52 integers) dwarfs the cost of handing it to
/// a thread, small enough that a window of several blocks per thread keeps
/// the threads evenly loaded (measured: 4 MiB blocks two per thread were
/// 5-15% slower on files of 30 MB).
pub(crate) const BLOCK: usize = 2 << 20;

/// Blocks parsed at once per thread. Memory in use is about twice the window
/// (the window, plus as many blocks read ahead): 32 MiB on 2 threads.
pub(crate) const BLOCKS_PER_THREAD: usize = 4;

/// Bytes per block when reading a child's output: small, so that decks are
/// counted (and progress shown) as they arrive.
pub(crate) const EAGER_BLOCK: usize = 256 << 10;

/// Duplicate detection without clearing per line: each line gets a fresh
/// stamp, and `seen[i] == stamp` means item i already appeared on it.
#[derive(Debug)]
pub(crate) struct Marks {
    pub seen: Vec<u32>,
    /// For decks with repeated items: occurrences so far of each kind on
    /// the line (valid where `seen` holds the line's stamp).
    pub occurrences: Vec<u32>,
    current: u32,
}

impl Marks {
    pub(crate) fn new(n: usize) -> Self {
        Self {
            seen: vec![0; n],
            occurrences: vec![0; n],
            current: 0,
        }
    }

    /// A stamp no item carries yet (clearing `seen` once every 4 billion
    /// lines, when the stamps wrap).
    #[inline]
    pub(crate) fn next(&mut self) -> u32 {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.seen.fill(0);
            self.current = 1;
        }
        self.current
    }

    /// Moves the stamps on, for testing the wrap.
    #[cfg(test)]
    pub(crate) fn skip_to(&mut self, current: u32) {
        self.current = current;
    }
}

/// One thread's working state: its counter and reusable buffers.
#[derive(Debug)]
pub(crate) struct Slot {
    pub counter: Counter,
    /// Parsed decks waiting to be counted: [`BATCH`] of them for a block's
    /// parser, or a whole pushed batch (see [`super::BatchCounter`]), so
    /// that a bad record is found before any deck of the batch is counted.
    pub batch: Vec<u32>,
    pub marks: Marks,
    /// Items per deck.
    pub n: usize,
}

impl Slot {
    pub(crate) fn new(n: usize, collect: Collect, kinds: Option<Vec<u32>>) -> Self {
        Self {
            counter: Counter::new(n, collect).with_kinds(kinds),
            batch: vec![0; BATCH * n],
            marks: Marks::new(n),
            n,
        }
    }

    /// Decks the parsed-deck buffer holds.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.batch.len() / self.n.max(1)
    }

    /// Counts the first `rows` parsed decks of the buffer, [`BATCH`] at a
    /// time (counting a batch in parts counts it alike).
    #[inline]
    pub(crate) fn count_rows(&mut self, rows: usize) {
        let n = self.n.max(1);
        for part in self.batch[..rows * n].chunks(BATCH * n) {
            self.counter.count_batch(part);
        }
    }
}

/// How a source's blocks are parsed, and what the serial test takes for a
/// stream of consecutive deals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Streams {
    /// This many blocks parsed at once, on all threads (1: on the calling
    /// thread only), each block a stream of its own: the blocks of a file
    /// or of stdin are cut at fixed sizes, so the streams are the same on
    /// every read, whichever thread parses which block.
    Blocks(usize),
    /// One block at a time, in input order, on the calling thread, and the
    /// whole source one stream: a program's output, whose blocks are cut
    /// wherever its pipe's reads happened to end (a matter of timing), so
    /// that its deals are compared as the program made them, whatever the
    /// timing.
    Whole,
}

impl Streams {
    /// Blocks parsed at once.
    fn window(self) -> usize {
        match self {
            Streams::Blocks(window) => window.max(1),
            Streams::Whole => 1,
        }
    }
}

/// One slot per thread of the current rayon pool, made on first use.
struct Slots {
    slots: Vec<Mutex<Option<Slot>>>,
    n: usize,
    collect: Collect,
    kinds: Option<Vec<u32>>,
    /// Whether each block is a stream of its own ([`Streams::Blocks`]).
    block_streams: bool,
}

impl Slots {
    fn new(
        count: usize,
        n: usize,
        collect: Collect,
        kinds: Option<Vec<u32>>,
        streams: Streams,
    ) -> Self {
        Self {
            slots: (0..count.max(1)).map(|_| Mutex::new(None)).collect(),
            n,
            collect,
            kinds,
            block_streams: matches!(streams, Streams::Blocks(_)),
        }
    }

    /// Runs `f` with the calling thread's slot (locked, so correct even if
    /// two threads ever share one). With [`Streams::Blocks`] each call
    /// counts one stream of decks (a block): the serial test compares decks
    /// within it only, so what it counts does not depend on which thread
    /// parsed which block. With [`Streams::Whole`] (one slot, the blocks
    /// handed in input order) the stream goes on from block to block.
    fn with<R>(&self, f: impl FnOnce(&mut Slot) -> R) -> R {
        let i = match self.slots.len() {
            1 => 0,
            len => rayon::current_thread_index().unwrap_or(0) % len,
        };
        let mut guard = self.slots[i].lock().unwrap_or_else(|e| e.into_inner());
        let slot = guard.get_or_insert_with(|| Slot::new(self.n, self.collect, self.kinds.clone()));
        let result = f(slot);
        if self.block_streams {
            slot.counter.end_stream();
        }
        result
    }

    /// Everything the slots have counted so far, in one tally (for a
    /// checkpoint), the slots counting on.
    fn so_far(&self) -> Tally {
        let mut tally = Tally::collecting(self.n, self.collect);
        for slot in &self.slots {
            let mut guard = slot.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(slot) = guard.as_mut() {
                tally.merge(&slot.counter.so_far());
            }
        }
        tally
    }

    fn finish(self) -> Tally {
        let mut tally = Tally::collecting(self.n, self.collect);
        for slot in self.slots {
            if let Some(slot) = slot.into_inner().unwrap_or_else(|e| e.into_inner()) {
                tally.merge(&slot.counter.finish());
            }
        }
        tally
    }
}

/// What parsing one block found.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    /// Decks counted (before the error, if any).
    pub decks: u64,
    /// Lines (or records) scanned, up to and including the error line.
    pub units: u64,
    /// The first bad line or record: its 1-based number in the block and
    /// the problem.
    pub error: Option<(u64, String)>,
    /// Set when the limit stopped the block: whether another deck follows
    /// in the block.
    pub more: Option<bool>,
}

/// A format's block parser.
pub(crate) trait Parser: Sync {
    /// The most decks `block` can hold.
    fn bound(&self, block: &[u8]) -> u64;
    /// Parses and counts the decks of `block`, at most `limit` of them,
    /// stopping at the first bad one.
    fn parse(&self, block: &[u8], limit: u64, slot: &mut Slot) -> Outcome;
    /// Whether `block` holds anything that would be read as a deck.
    fn has_deck(&self, block: &[u8]) -> bool;
    /// `deals.txt:17` or `deals.bin: record 17`.
    fn place(&self, name: &str, unit: u64) -> String;
    /// Whether line (or record) `unit` of `block` is its last and lacks its
    /// terminator.
    fn unterminated(&self, _block: &[u8], _unit: u64) -> bool {
        false
    }
}

/// Where blocks come from.
pub(crate) trait Source {
    /// The next block, cut at a line (or record) boundary; `None` at the end.
    fn next_block(&mut self) -> io::Result<Option<Vec<u8>>>;
    /// Gives a block's buffer back for reuse.
    fn recycle(&mut self, _block: Vec<u8>) {}
    /// After the end: bytes read in all, and bytes left over after the last
    /// whole record (binary formats).
    fn end(&self) -> (u64, usize);
}

/// Cuts a reader into blocks.
pub(crate) struct Chunker<R> {
    reader: R,
    block: usize,
    /// `None`: text, cut after the last newline; `Some(k)`: k-byte records.
    record: Option<usize>,
    /// Return a block as soon as a read brings a cut point (for pipes).
    eager: bool,
    carry: Vec<u8>,
    eof: bool,
    total: u64,
    leftover: usize,
    spare: Vec<Vec<u8>>,
    free: Option<Receiver<Vec<u8>>>,
}

impl<R: Read> Chunker<R> {
    pub(crate) fn new(reader: R, block: usize, record: Option<usize>, eager: bool) -> Self {
        Self {
            reader,
            block: block.max(1),
            record,
            eager,
            carry: Vec::new(),
            eof: false,
            total: 0,
            leftover: 0,
            spare: Vec::new(),
            free: None,
        }
    }

    fn cut_point(&self, buf: &[u8]) -> usize {
        match self.record {
            None => buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1),
            Some(k) => buf.len() - buf.len() % k,
        }
    }

    fn split(&mut self, mut buf: Vec<u8>, cut: usize) -> Vec<u8> {
        self.carry.extend_from_slice(&buf[cut..]);
        buf.truncate(cut);
        buf
    }

    /// The next block, or `None` at the end of the input.
    pub(crate) fn next(&mut self) -> io::Result<Option<Vec<u8>>> {
        let mut buf = self
            .free
            .as_ref()
            .and_then(|f| f.try_recv().ok())
            .or_else(|| self.spare.pop())
            .unwrap_or_default();
        buf.clear();
        buf.append(&mut self.carry);
        let mut target = self.block;
        loop {
            if self.eof {
                if buf.is_empty() {
                    return Ok(None);
                }
                if let Some(k) = self.record {
                    let whole = buf.len() - buf.len() % k;
                    self.leftover = buf.len() - whole;
                    buf.truncate(whole);
                    if whole == 0 {
                        return Ok(None);
                    }
                }
                return Ok(Some(buf));
            }
            if buf.len() >= target {
                let cut = self.cut_point(&buf);
                if cut > 0 {
                    return Ok(Some(self.split(buf, cut)));
                }
                // A line longer than a block: read on.
                target = buf.len().max(target).saturating_mul(2);
            }
            let old = buf.len();
            buf.resize(target, 0);
            let got = loop {
                match self.reader.read(&mut buf[old..]) {
                    Ok(k) => break k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            };
            buf.truncate(old + got);
            if got == 0 {
                self.eof = true;
            } else {
                self.total += got as u64;
                if self.eager {
                    let cut = self.cut_point(&buf);
                    if cut > 0 {
                        return Ok(Some(self.split(buf, cut)));
                    }
                }
            }
        }
    }

    /// Sends blocks until the end, an error, or the receiver hanging up.
    pub(crate) fn run(mut self, to: SyncSender<Message>) {
        loop {
            let message = match self.next() {
                Ok(Some(block)) => Message::Block(block),
                Ok(None) => Message::End(self.total, self.leftover),
                Err(e) => Message::Failed(e),
            };
            let last = !matches!(message, Message::Block(_));
            if to.send(message).is_err() || last {
                return;
            }
        }
    }

    /// Reads free buffers from `free` before allocating.
    pub(crate) fn with_free(mut self, free: Receiver<Vec<u8>>) -> Self {
        self.free = Some(free);
        self
    }
}

impl<R: Read> Source for Chunker<R> {
    fn next_block(&mut self) -> io::Result<Option<Vec<u8>>> {
        self.next()
    }

    fn recycle(&mut self, block: Vec<u8>) {
        if self.spare.len() < 2 {
            self.spare.push(block);
        }
    }

    fn end(&self) -> (u64, usize) {
        (self.total, self.leftover)
    }
}

/// What the reading thread sends.
pub(crate) enum Message {
    Block(Vec<u8>),
    End(u64, usize),
    Failed(io::Error),
}

/// Blocks read by another thread (see [`Chunker::run`]).
pub(crate) struct Threaded {
    pub rx: Receiver<Message>,
    pub free: Sender<Vec<u8>>,
    pub end: (u64, usize),
}

impl Source for Threaded {
    fn next_block(&mut self) -> io::Result<Option<Vec<u8>>> {
        match self.rx.recv() {
            Ok(Message::Block(b)) => Ok(Some(b)),
            Ok(Message::End(total, leftover)) => {
                self.end = (total, leftover);
                Ok(None)
            }
            Ok(Message::Failed(e)) => Err(e),
            Err(_) => Ok(None),
        }
    }

    fn recycle(&mut self, block: Vec<u8>) {
        let _ = self.free.send(block);
    }

    fn end(&self) -> (u64, usize) {
        self.end
    }
}

/// A failed read, with the decks counted before the failure (in input
/// order), which the command runner reports.
#[derive(Debug)]
pub(crate) struct Fail {
    pub error: Error,
    pub decks: u64,
    /// Whether the problem is an input that ended too soon, which is what
    /// a writer that died leaves.
    pub truncated: Truncated,
}

/// How a failed input ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Truncated {
    /// The problem is in the input itself.
    No,
    /// The input held no deck at all (or too few to read: the count is
    /// in [`Fail::decks`]).
    Empty,
    /// The input ended in the middle of a line or record.
    MidDeck,
}

impl From<Error> for Fail {
    fn from(error: Error) -> Self {
        Fail::after(error, 0)
    }
}

impl Fail {
    /// `error`, a problem of the input itself, after `decks` were counted.
    pub(crate) fn after(error: Error, decks: u64) -> Self {
        Fail {
            error,
            decks,
            truncated: Truncated::No,
        }
    }

    /// The input `name` holds no record (`unit`: decks, samples).
    pub(crate) fn none_found(name: &str, unit: super::command::Unit) -> Self {
        Fail {
            error: Error::bad_input(format!("{name}: no {} found", unit.many)),
            decks: 0,
            truncated: Truncated::Empty,
        }
    }

    /// Reading the input `name` failed with `source` after `decks`.
    pub(crate) fn io(name: &str, source: io::Error, decks: u64) -> Self {
        Fail::after(
            Error::Io {
                path: name.into(),
                source,
            },
            decks,
        )
    }
}

/// What a whole read found.
pub(crate) struct Drained {
    pub tally: Tally,
    pub decks: u64,
    pub stopped_early: bool,
    /// The source was read to its end (the limit did not stop it).
    pub reached_end: bool,
}

/// How far a read has got: the bytes, lines (or binary records) and
/// trials (decks, samples, picks) of the input counted so far, each from
/// the input's start. A read resumed here (the input opened at `bytes`)
/// continues exactly where it stopped, since blocks are cut at line
/// (record) ends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReadPoint {
    /// Bytes of the input before the point.
    pub bytes: u64,
    /// Lines (or binary records) before the point.
    pub units: u64,
    /// Trials (decks, samples, picks) counted before the point.
    #[serde(alias = "decks")]
    pub counted: u64,
}

/// Told, between two windows of blocks, how far a read has got, so that it
/// can save the counts (see [`super::read_path_from`] for decks,
/// [`super::samples::read_samples_path_from`] for samples): `T` is the
/// tally, `M` what the read finds out about the input's items (a deck's
/// [`Items`](super::Items), how samples number theirs).
pub trait Saver<T = Tally, M = super::Items>: Sync {
    /// The read has counted everything up to `point`; `so_far` gives what
    /// it has found out and the tally of this read's records (those before
    /// its start excluded), or `None` while nothing it read can be counted
    /// yet (samples held back until their numbering is known: a save then
    /// keeps the point the read started from). An error ends the read with
    /// it (after a save, to stop).
    fn reached(&self, point: ReadPoint, so_far: &dyn Fn() -> Option<(M, T)>) -> Result<()>;
}

/// How to drive a read.
pub(crate) struct Drive<'a> {
    pub name: &'a str,
    pub n: usize,
    pub collect: Collect,
    /// The kind of each index of a deck whose items repeat (the serial
    /// counts then match kinds), `None` for distinct items.
    pub kinds: Option<Vec<u32>>,
    /// Bytes, lines (or records) and decks before the first block handed
    /// in.
    pub before: ReadPoint,
    /// Told the read's progress after every window, if set.
    pub saver: Option<&'a dyn Saver>,
    /// What the items are, as the saver is told.
    pub items: super::Items,
    pub limit: u64,
    /// How the blocks are parsed, and what is a stream of deals.
    pub streams: Streams,
    /// After the limit, look for one more deck to set `stopped_early`.
    pub probe_more: bool,
    pub progress: Progress<'a>,
}

/// What combining one outcome decided.
enum Step {
    Go,
    /// The limit was reached; `Some(more)` if it is known whether another
    /// deck follows.
    Limit(Option<bool>),
}

impl Drive<'_> {
    /// Reads `first` and then the rest of `src`, counting at most `limit`
    /// decks.
    pub(crate) fn run<P: Parser>(
        &self,
        src: &mut dyn Source,
        first: Vec<u8>,
        parser: &P,
    ) -> Result<Drained, Fail> {
        let window = self.streams.window();
        let threads = if window > 1 {
            rayon::current_num_threads()
        } else {
            1
        };
        let slots = Slots::new(
            threads,
            self.n,
            self.collect,
            self.kinds.clone(),
            self.streams,
        );
        let mut decks = 0u64;
        let mut units = self.before.units;
        let mut bytes = self.before.bytes;
        let mut pending = Some(first);
        loop {
            let mut win: Vec<Vec<u8>> = pending.take().into_iter().collect();
            while win.len() < window {
                match src
                    .next_block()
                    .map_err(|e| Fail::io(self.name, e, decks))?
                {
                    Some(block) => win.push(block),
                    None => break,
                }
            }
            if win.is_empty() {
                return Ok(Drained {
                    tally: slots.finish(),
                    decks,
                    stopped_early: false,
                    reached_end: true,
                });
            }
            // Blocks that cannot reach the limit together are parsed in
            // parallel without one; the rest one by one with the exact limit.
            let room = self.limit - decks;
            let (mut free, mut sum) = (0usize, 0u64);
            while free < win.len() {
                let bound = parser.bound(&win[free]);
                if sum.saturating_add(bound) > room {
                    break;
                }
                sum += bound;
                free += 1;
            }
            let parse = |b: &Vec<u8>| slots.with(|s| parser.parse(b, u64::MAX, s));
            let outcomes: Vec<Outcome> = if free > 1 {
                win[..free].par_iter().map(parse).collect()
            } else {
                win[..free].iter().map(parse).collect()
            };
            let mut outcomes = outcomes.into_iter();
            let mut stop = None;
            let mut used = 0;
            while stop.is_none() && used < win.len() {
                let block = &win[used];
                let outcome = outcomes.next().unwrap_or_else(|| {
                    let limit = self.limit - decks;
                    slots.with(|s| parser.parse(block, limit, s))
                });
                used += 1;
                if let Step::Limit(more) =
                    self.combine(outcome, block, parser, &mut decks, &mut units)?
                {
                    stop = Some(more);
                }
            }
            if let Some(more) = stop {
                let more = match more {
                    Some(more) => more,
                    None if !self.probe_more => false,
                    None => {
                        win[used..].iter().any(|b| parser.has_deck(b))
                            || self
                                .probe(src, parser)
                                .map_err(|e| Fail::io(self.name, e, decks))?
                    }
                };
                return Ok(Drained {
                    tally: slots.finish(),
                    decks,
                    stopped_early: more,
                    reached_end: false,
                });
            }
            let window_bytes: u64 = win.iter().map(|b| b.len() as u64).sum();
            for block in win {
                src.recycle(block);
            }
            bytes += window_bytes;
            if let Some(saver) = self.saver {
                let point = ReadPoint {
                    bytes,
                    units,
                    counted: self.before.counted + decks,
                };
                saver
                    .reached(point, &|| Some((self.items.clone(), slots.so_far())))
                    .map_err(|error| Fail::after(error, decks))?;
            }
        }
    }

    /// Adds one block's outcome, in input order.
    fn combine<P: Parser>(
        &self,
        outcome: Outcome,
        block: &[u8],
        parser: &P,
        decks: &mut u64,
        units: &mut u64,
    ) -> Result<Step, Fail> {
        *decks += outcome.decks;
        if outcome.decks > 0 {
            (self.progress)(outcome.decks);
        }
        if let Some((unit, problem)) = outcome.error {
            if *decks >= self.limit {
                // The bad line comes after the last deck asked for.
                return Ok(Step::Limit(Some(true)));
            }
            return Err(Fail {
                error: Error::bad_input(format!(
                    "{}: {problem}",
                    parser.place(self.name, *units + unit)
                )),
                decks: *decks,
                truncated: if parser.unterminated(block, unit) {
                    Truncated::MidDeck
                } else {
                    Truncated::No
                },
            });
        }
        *units += outcome.units;
        if *decks >= self.limit {
            return Ok(Step::Limit(outcome.more));
        }
        Ok(Step::Go)
    }

    /// Whether any deck follows in the rest of the source.
    fn probe<P: Parser>(&self, src: &mut dyn Source, parser: &P) -> io::Result<bool> {
        while let Some(block) = src.next_block()? {
            if parser.has_deck(&block) {
                return Ok(true);
            }
        }
        Ok(src.end().1 > 0)
    }
}

/// `{name}: 1,000,003 bytes is not a whole number of 52-byte records`.
pub(crate) fn ragged(name: &str, total: u64, record: usize) -> Error {
    Error::bad_input(format!(
        "{name}: {} bytes is not a whole number of {record}-byte records",
        thousands(total)
    ))
}

//! Binary records handed over batch by batch (the page's and the npm
//! package's decks), counted into one counter that lives as long as the
//! run: each batch is read as a file's block is, by the same parser, with
//! none of a file read's blocks, threads and tallies to set up per batch.

use super::binary::BinaryParser;
use super::command::Unit;
use super::driver::Slot;
use super::items::{Dict, Lookup};
use super::{Decks, Options, Plan, first_record};
use crate::error::{Error, Result};
use crate::tally::Tally;

/// Batches of records pushed into one count, each read as one stream (a
/// block of a file), so that they count exactly as the same batches read
/// one by one ([`super::read`]) and merged: the way a front that draws
/// trials batch by batch counts them without setting up a read per batch.
/// `T` is what the counts are handed back as.
pub trait Batches<T>: Send {
    /// Counts the whole records of `bytes` as one stream. Fails, counting
    /// nothing of them, on a record that is not a trial, naming it as a
    /// read of the same bytes would.
    fn push(&mut self, bytes: &[u8]) -> Result<()>;

    /// Trials counted so far.
    fn trials(&self) -> u64;

    /// Everything counted so far.
    fn counts(&self) -> T;
}

/// Decks written as binary records ([`Options::format`] `u8`, `u16` or
/// `u32`), counted batch by batch ([`Batches`]): what a read of each batch
/// would count (its first record saying whether the items are numbered
/// from 0 or 1, unless a starting order says what they are), with the
/// same errors.
#[derive(Debug)]
pub struct BatchCounter {
    /// The input's name in messages.
    name: String,
    opts: Options<Decks>,
    /// The starting order's dictionary, if given.
    order: Option<Dict>,
    /// Bytes per record.
    record: usize,
    /// The most decks one batch counts ([`Options::max_records`]).
    limit: u64,
    /// The counter and its buffers, the buffer sized to the largest batch
    /// so far.
    slot: Slot,
}

impl BatchCounter {
    /// A counter of the records `opts` describes (a binary format, with
    /// n), named `name` in messages; refuses what a read with `opts` would
    /// refuse before reading anything.
    pub fn new(name: &str, opts: &Options<Decks>) -> Result<Self> {
        let plan = Plan::new(opts)?;
        let limit = opts.limit(Unit::DECK)?;
        let (Some(record), Some(n)) = (plan.record, opts.n) else {
            return Err(Error::unsupported(format!(
                "{name}: only binary records are counted batch by batch, not {}",
                opts.format
            )));
        };
        let multiset = plan.order.as_ref().is_some_and(|d| d.multiset.is_some());
        let slot = Slot::new(
            n,
            opts.reading.collect_for(n, multiset),
            opts.reading.kinds.clone(),
        );
        Ok(Self {
            name: name.to_string(),
            opts: opts.clone(),
            order: plan.order,
            record,
            limit,
            slot,
        })
    }
}

impl Batches<Tally> for BatchCounter {
    fn push(&mut self, bytes: &[u8]) -> Result<()> {
        let whole = bytes.len() - bytes.len() % self.record;
        let bytes = &bytes[..whole];
        if bytes.is_empty() {
            return Ok(());
        }
        let own = match &self.order {
            Some(_) => None,
            None => Some(first_record(
                &self.name,
                bytes,
                self.record,
                self.opts.format,
            )?),
        };
        let dict = own.as_ref().or(self.order.as_ref()).expect("a dictionary");
        let Lookup::Table(table) = &dict.lookup else {
            unreachable!("binary dictionaries are tables")
        };
        let width = self.opts.format.width().unwrap_or(1);
        let parser = BinaryParser { dict, table, width };
        // Room for the whole batch: nothing is counted before every record
        // has been checked.
        let decks = bytes.len() / self.record;
        let room = decks.min(usize::try_from(self.limit).unwrap_or(usize::MAX)) * dict.n;
        if self.slot.batch.len() < room {
            self.slot.batch.resize(room, 0);
        }
        let (out, rows) = parser.convert(bytes, self.limit, &mut self.slot);
        if let Some((unit, problem)) = out.error {
            use super::driver::Parser;
            return Err(Error::bad_input(format!(
                "{}: {problem}",
                parser.place(&self.name, unit)
            )));
        }
        self.slot.count_rows(rows);
        self.slot.counter.end_stream();
        self.slot.counter.flush();
        Ok(())
    }

    fn trials(&self) -> u64 {
        self.slot.counter.flushed().trials()
    }

    fn counts(&self) -> Tally {
        self.slot.counter.flushed().clone()
    }
}

//! The binary formats: fixed-width little-endian records of n values, with
//! nothing to parse, only to check (every value an item, none twice).

use super::driver::{Outcome, Parser, Slot};
use super::items::{Dict, NOT_ITEM, quoted, repeated_items};
use crate::permutation::word::{WORD, low_bits};

/// One value of width `W` bytes, little-endian.
#[inline(always)]
fn value<const W: usize>(bytes: &[u8]) -> u32 {
    let mut v = 0u32;
    for (k, &b) in bytes[..W].iter().enumerate() {
        v |= u32::from(b) << (8 * k);
    }
    v
}

/// The values of one record.
pub(crate) fn record_values(record: &[u8], width: usize) -> Vec<u32> {
    match width {
        1 => record.iter().map(|&b| u32::from(b)).collect(),
        2 => record.chunks_exact(2).map(value::<2>).collect(),
        _ => record.chunks_exact(4).map(value::<4>).collect(),
    }
}

/// The dictionary of a binary input without a starting order, from its first
/// record: the values must be 0..n-1 (0-based) or 1..n (1-based).
pub(crate) fn first_record_dict(values: &[u32]) -> Result<Dict, String> {
    let n = values.len();
    let mut seen = vec![false; n + 1];
    for &v in values {
        if v as usize > n {
            return Err(format!(
                "value {v} is out of range: the first record must hold 0..{} or 1..{n}",
                n - 1
            ));
        }
        if std::mem::replace(&mut seen[v as usize], true) {
            return Err(repeated_items(&v.to_string()));
        }
    }
    // n distinct values in 0..=n: exactly one of 0..=n is missing.
    let one_based = match (seen[0], seen[n]) {
        (true, false) => false,
        (false, true) => true,
        _ => {
            return Err(format!(
                "holds both 0 and {n}: the first record must hold 0..{} or 1..{n}",
                n - 1
            ));
        }
    };
    Ok(Dict::numbered(n, one_based, "record 1".to_string()))
}

/// What is wrong with reading `block`, the start of an input, as `format`
/// records when it is text (printable ASCII, tabs and line ends, with a line
/// end in its first 4 KiB): the decks are written one per line, and the
/// binary flag must go. `None` when it does not look like text.
pub(crate) fn text_problem(block: &[u8], format: super::Format) -> Option<String> {
    let head = &block[..block.len().min(4096)];
    let text = head.contains(&b'\n')
        && head
            .iter()
            .all(|&b| matches!(b, b'\t' | b'\n' | b'\r' | b' '..=b'~'));
    let first_line = head.split(|&b| b == b'\n').next().unwrap_or_default();
    text.then(|| {
        format!(
            "looks like text ({}), not {format} records: drop --format to read one deck per line",
            quoted(first_line)
        )
    })
}

/// The value of index 0 when `table` numbers n items in order from it (it
/// maps `base + i` to i, and nothing below `base` to an item), as a
/// dictionary without a starting order does.
fn numbered_from(table: &[u32], n: usize) -> Option<u32> {
    let base = table.len().checked_sub(n)?;
    let below = table[..base].iter().all(|&i| i == NOT_ITEM);
    let in_order = table[base..]
        .iter()
        .enumerate()
        .all(|(i, &t)| t == i as u32);
    (below && in_order).then_some(base as u32)
}

/// Parses records of `width`-byte values against a dictionary.
pub(crate) struct BinaryParser<'a> {
    pub dict: &'a Dict,
    pub table: &'a [u32],
    pub width: usize,
}

impl BinaryParser<'_> {
    /// Parses the records of `block` (at most `limit` of them, stopping at
    /// the first bad one) into the slot's buffer, counting it whenever it
    /// is full: what it was left holding is the second value, for the
    /// caller to count ([`Slot::count_rows`]) or, after a bad record, not.
    /// How a file's blocks and pushed batches ([`super::BatchCounter`])
    /// are read alike.
    pub(crate) fn convert(&self, block: &[u8], limit: u64, slot: &mut Slot) -> (Outcome, usize) {
        match self.width {
            1 => self.records::<1>(block, limit, slot),
            2 => self.records::<2>(block, limit, slot),
            _ => self.records::<4>(block, limit, slot),
        }
    }

    fn records<const W: usize>(
        &self,
        block: &[u8],
        limit: u64,
        slot: &mut Slot,
    ) -> (Outcome, usize) {
        let n = self.dict.n;
        let table = self.table;
        let capacity = slot.capacity();
        // Up to 64 items, a record is a permutation when its indices are
        // all below n and together set the n lowest bits of a word: no
        // marks to read and write per item. Any other record is read again
        // item by item below, which names its problem.
        let word = (n <= WORD).then(|| low_bits(n));
        // One-byte values look their index up in a full table of 256: no
        // bounds to check.
        let mut bytes_table = [NOT_ITEM; 256];
        if W == 1 {
            let known = table.len().min(256);
            bytes_table[..known].copy_from_slice(&table[..known]);
        }
        // Items numbered from `base` (no starting order): the index is the
        // value less the base, with nothing to look up.
        let base = numbered_from(table, n);
        let index_of = |v: u32| {
            if let Some(base) = base {
                v.wrapping_sub(base)
            } else if W == 1 {
                bytes_table[v as usize & 255]
            } else {
                table.get(v as usize).copied().unwrap_or(NOT_ITEM)
            }
        };
        let mut out = Outcome::default();
        let mut rows = 0usize;
        let mut records = block.chunks_exact(n * W);
        for record in &mut records {
            if out.decks == limit {
                out.more = Some(true);
                break;
            }
            out.units += 1;
            let row = &mut slot.batch[rows * n..(rows + 1) * n];
            let fast = word.is_some_and(|all| {
                let mut seen = 0u64;
                let mut outside = 0u32;
                for (bytes, cell) in record.chunks_exact(W).zip(row.iter_mut()) {
                    let index = index_of(value::<W>(bytes));
                    *cell = index;
                    outside |= index & !(WORD as u32 - 1);
                    seen |= 1 << (index & (WORD as u32 - 1));
                }
                outside == 0 && seen == all
            });
            if !fast {
                let stamp = slot.marks.next();
                for (bytes, cell) in record.chunks_exact(W).zip(row.iter_mut()) {
                    let v = value::<W>(bytes);
                    let index = table.get(v as usize).copied().unwrap_or(NOT_ITEM);
                    let problem = if index == NOT_ITEM {
                        format!(
                            "value {v} is not one of the {n} items of {}",
                            self.dict.against
                        )
                    } else if slot.marks.seen[index as usize] == stamp {
                        format!("{v} appears twice")
                    } else {
                        slot.marks.seen[index as usize] = stamp;
                        *cell = index;
                        continue;
                    };
                    out.error = Some((out.units, problem));
                    break;
                }
                if out.error.is_some() {
                    break;
                }
            }
            rows += 1;
            out.decks += 1;
            if rows == capacity {
                slot.count_rows(rows);
                rows = 0;
            }
        }
        (out, rows)
    }
}

impl Parser for BinaryParser<'_> {
    fn bound(&self, block: &[u8]) -> u64 {
        (block.len() / (self.dict.n * self.width)) as u64
    }

    fn parse(&self, block: &[u8], limit: u64, slot: &mut Slot) -> Outcome {
        // The decks before a bad record count: the limit may end the read
        // before it.
        let (out, rows) = self.convert(block, limit, slot);
        slot.count_rows(rows);
        out
    }

    fn has_deck(&self, block: &[u8]) -> bool {
        !block.is_empty()
    }

    fn place(&self, name: &str, unit: u64) -> String {
        format!("{name}: record {unit}")
    }
}

//! The binary formats: fixed-width little-endian records of n values, with
//! nothing to parse, only to check (every value an item, none twice).

use super::driver::{BATCH, Outcome, Parser, Slot};
use super::items::{Dict, NOT_ITEM, quoted, repeated_items};

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

/// Parses records of `width`-byte values against a dictionary.
pub(crate) struct BinaryParser<'a> {
    pub dict: &'a Dict,
    pub table: &'a [u32],
    pub width: usize,
}

impl BinaryParser<'_> {
    fn records<const W: usize>(&self, block: &[u8], limit: u64, slot: &mut Slot) -> Outcome {
        let n = self.dict.n;
        let table = self.table;
        let mut out = Outcome::default();
        let mut rows = 0usize;
        let mut records = block.chunks_exact(n * W);
        for record in &mut records {
            if out.decks == limit {
                out.more = Some(true);
                break;
            }
            out.units += 1;
            let stamp = slot.marks.next();
            let row = &mut slot.batch[rows * n..(rows + 1) * n];
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
            rows += 1;
            out.decks += 1;
            if rows == BATCH {
                slot.counter.count_batch(&slot.batch[..rows * n]);
                rows = 0;
            }
        }
        if rows > 0 {
            slot.counter.count_batch(&slot.batch[..rows * n]);
        }
        out
    }
}

impl Parser for BinaryParser<'_> {
    fn bound(&self, block: &[u8]) -> u64 {
        (block.len() / (self.dict.n * self.width)) as u64
    }

    fn parse(&self, block: &[u8], limit: u64, slot: &mut Slot) -> Outcome {
        match self.width {
            1 => self.records::<1>(block, limit, slot),
            2 => self.records::<2>(block, limit, slot),
            _ => self.records::<4>(block, limit, slot),
        }
    }

    fn has_deck(&self, block: &[u8]) -> bool {
        !block.is_empty()
    }

    fn place(&self, name: &str, unit: u64) -> String {
        format!("{name}: record {unit}")
    }
}

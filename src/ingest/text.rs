//! The text format: one deck per line, items separated by whitespace and/or
//! commas, optional `[` `]` around the line and `"` around items; blank lines
//! and `#` comments skipped.
//!
//! Every line goes through a tight byte loop first, which accepts only plain
//! integer lines that are valid decks; anything else (labels, quotes, bad
//! lines) takes the general path, which is the one definition of the format
//! and also phrases the error messages.

use super::driver::{Marks, Outcome, Parser, Slot};
use super::items::{Dict, Lookup, Multiset, NOT_ITEM, SAMPLES_HINT, quoted};

/// Whitespace inside a line (a `\n` ends the line).
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// Separates items: whitespace or a comma.
#[inline]
fn is_sep(b: u8) -> bool {
    b == b',' || is_space(b)
}

/// Where the line starting at `pos` ends (its `\n`, or the block's end).
#[inline]
fn line_end(block: &[u8], pos: usize) -> usize {
    block[pos..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(block.len(), |i| pos + i)
}

/// A line without the whitespace around it, nor a byte-order mark before
/// it (the UTF-8 BOM some editors write at a file's start, which would make
/// the first item a label of its own).
fn trim(mut s: &[u8]) -> &[u8] {
    if let [0xEF, 0xBB, 0xBF, rest @ ..] = s {
        s = rest;
    }
    while let [first, rest @ ..] = s
        && is_space(*first)
    {
        s = rest;
    }
    while let [rest @ .., last] = s
        && is_space(*last)
    {
        s = rest;
    }
    s
}

/// The part of a line holding items, or `None` for a blank or comment line:
/// trimmed, without a leading `[` and a trailing `]`.
pub(crate) fn deck_body(line: &[u8]) -> Option<&[u8]> {
    let mut s = trim(line);
    if s.is_empty() || s[0] == b'#' {
        return None;
    }
    if let [b'[', rest @ ..] = s {
        s = rest;
    }
    if let [rest @ .., b']'] = s {
        s = rest;
    }
    Some(s)
}

/// The items of a deck body, with one pair of surrounding `"` removed.
pub(crate) fn tokens(body: &[u8]) -> impl Iterator<Item = &[u8]> {
    body.split(|&b| is_sep(b))
        .filter(|t| !t.is_empty())
        .map(|t| match t {
            [b'"', inner @ .., b'"'] => inner,
            _ => t,
        })
}

/// The deck lines of a block (blank and comment lines skipped): each one's
/// 1-based line number in the block and its text.
pub(crate) fn deck_lines(block: &[u8]) -> impl Iterator<Item = (u64, &[u8])> {
    block
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, line)| deck_body(line).is_some())
        .map(|(i, line)| (i as u64 + 1, line))
}

/// What is wrong with a deck line holding arrays inside its one optional
/// pair of brackets (`[[0,1],[1,0]]`, `[0,1] [1,0]`, the `[[0,1],` of a
/// pretty-printed JSON array): decks written as one array of decks, which
/// would otherwise be read as one long deck of labels like `[0` and `1]`.
/// `None` for a plain deck line.
pub(crate) fn arrays_problem(line: &[u8]) -> Option<String> {
    let body = deck_body(line)?;
    if !tokens(body).any(|t| t.starts_with(b"[")) {
        return None;
    }
    let line = trim(line);
    let opens = line.iter().filter(|&&b| b == b'[').count();
    let arrays = opens - usize::from(line.starts_with(b"[["));
    Some(if arrays >= 2 {
        format!("one line holds {arrays} arrays: write one deck per line")
    } else {
        "the line holds an array inside an array: write one deck per line, as one flat \
         array or a list of items"
            .to_string()
    })
}

/// Physical lines in a block (a final line without `\n` counts).
pub(crate) fn count_lines(block: &[u8]) -> u64 {
    let newlines = block.iter().filter(|&&b| b == b'\n').count() as u64;
    newlines + u64::from(block.last().is_some_and(|&b| b != b'\n'))
}

/// What one line turned out to be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Line {
    /// A valid deck, written to the row.
    Deck,
    /// Blank or comment.
    Skip,
    /// Not handled by the fast loop: take the general path.
    General,
}

/// The fast loop for integer items: parses the line starting at `pos` into
/// `row` if it is a plain valid deck (digits, separators, optional brackets)
/// and returns where the next line starts; anything unusual returns
/// [`Line::General`] and leaves the line to [`TextParser::general`].
#[inline]
fn fast_integers(
    block: &[u8],
    mut i: usize,
    table: &[u32],
    row: &mut [u32],
    seen: &mut [u32],
    stamp: u32,
) -> (Line, usize) {
    let start = i;
    let len = block.len();
    while i < len && is_space(block[i]) {
        i += 1;
    }
    if i == len {
        return (Line::Skip, len);
    }
    match block[i] {
        b'\n' => return (Line::Skip, i + 1),
        b'#' => return (Line::Skip, (line_end(block, i) + 1).min(len)),
        b'[' => i += 1,
        _ => {}
    }
    let n = row.len();
    let mut count = 0usize;
    loop {
        while i < len && is_sep(block[i]) {
            i += 1;
        }
        if i == len || block[i] == b'\n' {
            break;
        }
        if block[i] == b']' {
            i += 1;
            while i < len && is_space(block[i]) {
                i += 1;
            }
            if i == len || block[i] == b'\n' {
                break;
            }
            return (Line::General, start);
        }
        let first = i;
        let mut v = 0u32;
        while i < len {
            let d = block[i].wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            v = v.wrapping_mul(10).wrapping_add(u32::from(d));
            i += 1;
        }
        let digits = i - first;
        if digits == 0
            || digits > 9
            || (digits > 1 && block[first] == b'0')
            || (i < len && !(is_sep(block[i]) || block[i] == b'\n' || block[i] == b']'))
        {
            return (Line::General, start);
        }
        let index = table.get(v as usize).copied().unwrap_or(NOT_ITEM);
        if index == NOT_ITEM || count == n || seen[index as usize] == stamp {
            return (Line::General, start);
        }
        seen[index as usize] = stamp;
        row[count] = index;
        count += 1;
    }
    if count != n {
        return (Line::General, start);
    }
    (Line::Deck, if i < len { i + 1 } else { len })
}

/// Parses text blocks against a dictionary.
pub(crate) struct TextParser<'a> {
    pub dict: &'a Dict,
}

impl TextParser<'_> {
    /// The general path: the format's definition. Parses `line` into `row`
    /// (`Ok(true)`), skips it (`Ok(false)`), or says what is wrong with it.
    fn general(
        &self,
        line: &[u8],
        row: &mut [u32],
        marks: &mut Marks,
        stamp: u32,
    ) -> Result<bool, String> {
        let Some(body) = deck_body(line) else {
            return Ok(false);
        };
        let n = self.dict.n;
        let found = tokens(body).count();
        if found != n {
            return Err(format!("expected {n} items, found {found}"));
        }
        if let Some(multiset) = &self.dict.multiset {
            return self.general_multiset(body, multiset, row, marks, stamp);
        }
        let seen = &mut marks.seen;
        for (k, token) in tokens(body).enumerate() {
            let index = self.dict.index(token);
            if index == NOT_ITEM {
                let hint = if self.dict.looks_like_samples {
                    format!("; {SAMPLES_HINT}")
                } else {
                    String::new()
                };
                return Err(format!(
                    "{} is not one of the {n} items of {}{hint}",
                    quoted(token),
                    self.dict.against
                ));
            }
            if seen[index as usize] == stamp {
                return Err(format!("{} appears twice", quoted(token)));
            }
            seen[index as usize] = stamp;
            row[k] = index;
        }
        Ok(true)
    }

    /// [`general`](Self::general) for a deck with repeated items: the k-th
    /// occurrence of a kind becomes its k-th index; a kind occurring more
    /// often than on the first line is refused (with exactly n items, no
    /// kind then occurs less often either).
    fn general_multiset(
        &self,
        body: &[u8],
        multiset: &Multiset,
        row: &mut [u32],
        marks: &mut Marks,
        stamp: u32,
    ) -> Result<bool, String> {
        let n = self.dict.n;
        for (k, token) in tokens(body).enumerate() {
            let kind = self.dict.index(token);
            if kind == NOT_ITEM {
                return Err(format!(
                    "{} is not one of the kinds of item of {}",
                    quoted(token),
                    self.dict.against
                ));
            }
            let kind = kind as usize;
            let seen = if marks.seen[kind] == stamp {
                marks.occurrences[kind]
            } else {
                marks.seen[kind] = stamp;
                0
            };
            if seen == multiset.size[kind] {
                return Err(format!(
                    "{} appears more than the {} times it does on {} (every deck must hold the same \
                     items; {n} in all)",
                    quoted(token),
                    multiset.size[kind],
                    self.dict.against
                ));
            }
            marks.occurrences[kind] = seen + 1;
            row[k] = multiset.first[kind] + seen;
        }
        Ok(true)
    }
}

impl Parser for TextParser<'_> {
    fn bound(&self, block: &[u8]) -> u64 {
        // A deck line holds n items of at least one byte, n - 1 separators
        // and a newline: at least 2n bytes (2n - 1 for a last line).
        (block.len() as u64 + 1) / (2 * self.dict.n as u64)
    }

    fn parse(&self, block: &[u8], limit: u64, slot: &mut Slot) -> Outcome {
        let n = self.dict.n;
        let table = match &self.dict.lookup {
            Lookup::Table(t) if self.dict.multiset.is_none() => Some(t.as_slice()),
            Lookup::Table(_) | Lookup::Labels(_) => None,
        };
        let mut out = Outcome::default();
        let mut rows = 0usize;
        let mut pos = 0usize;
        let len = block.len();
        while pos < len {
            if out.decks == limit {
                out.more = Some(self.has_deck(&block[pos..]));
                break;
            }
            out.units += 1;
            let row = &mut slot.batch[rows * n..(rows + 1) * n];
            let stamp = slot.marks.next();
            let (mut line, mut next) = match table {
                Some(table) => fast_integers(block, pos, table, row, &mut slot.marks.seen, stamp),
                None => (Line::General, pos),
            };
            if line == Line::General {
                let end = line_end(block, pos);
                let stamp = slot.marks.next();
                match self.general(&block[pos..end], row, &mut slot.marks, stamp) {
                    Ok(deck) => line = if deck { Line::Deck } else { Line::Skip },
                    Err(problem) => {
                        out.error = Some((out.units, problem));
                        break;
                    }
                }
                next = (end + 1).min(len);
            }
            if line == Line::Deck {
                rows += 1;
                out.decks += 1;
                if rows == super::driver::BATCH {
                    slot.counter.count_batch(&slot.batch[..rows * n]);
                    rows = 0;
                }
            }
            pos = next;
        }
        if rows > 0 {
            slot.counter.count_batch(&slot.batch[..rows * n]);
        }
        out
    }

    fn has_deck(&self, block: &[u8]) -> bool {
        deck_lines(block).next().is_some()
    }

    fn place(&self, name: &str, unit: u64) -> String {
        format!("{name}:{unit}")
    }

    fn unterminated(&self, block: &[u8], unit: u64) -> bool {
        block.last() != Some(&b'\n') && count_lines(block) == unit
    }
}

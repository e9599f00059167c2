//! The item set of an input: which token (or binary value) is item number i
//! of the starting order, built once and looked up for every item read.

use super::Items;
use crate::deck::cards;
use crate::error::{Error, ErrorKind};
use crate::values::MIN_N;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// What a lookup returns for a token that is not one of the items.
pub(crate) const NOT_ITEM: u32 = u32::MAX;

/// Integer items are looked up in a table indexed by value when the largest
/// is below this (a 4 MiB table at most); larger ones go through the map.
const TABLE_LIMIT: u32 = 1 << 20;

/// A small, fast hasher for label lookups (FxHash's multiply-rotate): the
/// map is built from trusted-enough input and looked up once per item read,
/// so SipHash's flood resistance is not worth its cost here.
#[derive(Default)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let word = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
        }
        let mut last = [0u8; 8];
        let rest = chunks.remainder();
        last[..rest.len()].copy_from_slice(rest);
        self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(last)).wrapping_mul(K);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.0 = (self.0.rotate_left(5) ^ i as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

type LabelMap = HashMap<Box<[u8]>, u32, BuildHasherDefault<FxHasher>>;

/// How tokens are turned into item indices.
#[derive(Debug)]
pub(crate) enum Lookup {
    /// Every item is a canonical non-negative integer: `table[value]`.
    Table(Vec<u32>),
    /// Any tokens: a map from the token's bytes.
    Labels(LabelMap),
}

/// The items of an input, in their starting order.
#[derive(Debug)]
pub(crate) struct Dict {
    /// Number of items.
    pub n: usize,
    /// Token → index.
    pub lookup: Lookup,
    /// What the items were taken from, for messages: `line 1`,
    /// `the starting order`, `record 1`.
    pub against: String,
    /// The public description of what index i means.
    pub items: Items,
    /// For decks whose items repeat (a shoe): the lookup gives a token's
    /// kind, and the k-th occurrence of kind j on a line is item
    /// `first[j] + k`. `None` for distinct items.
    pub multiset: Option<Multiset>,
    /// Whether the items are integers taken as labels because they are not
    /// 0..n-1 or 1..n (`3 12 19 27 33 41`): such lines are usually samples,
    /// and a line that is not a deck of them gets [`SAMPLES_HINT`].
    pub looks_like_samples: bool,
}

/// The kinds of a deck whose items repeat: kind j's items are the indices
/// `first[j] .. first[j] + size[j]`. Mapping the k-th occurrence of a kind
/// on a line to its k-th index makes every line a permutation of distinct
/// indices whose position-by-value counts, summed over each kind's indices,
/// are exactly the position-by-kind counts (the per-index counts mean
/// nothing and are not tested).
#[derive(Debug)]
pub(crate) struct Multiset {
    /// The first index of each kind.
    pub first: Vec<u32>,
    /// How many items of each kind a line holds (those of the first line).
    pub size: Vec<u32>,
}

impl Multiset {
    /// The kind of each index: j for `first[j] .. first[j] + size[j]`.
    pub(crate) fn kind_of(&self) -> Vec<u32> {
        self.size
            .iter()
            .enumerate()
            .flat_map(|(j, &s)| std::iter::repeat_n(j as u32, s as usize))
            .collect()
    }
}

/// The value of a canonical decimal integer token (`0`, or digits not
/// starting with `0`, at most 9 of them), if it is one. Items are identified
/// by their text, so `07` is not the item `7`.
#[inline]
pub(crate) fn canonical_int(token: &[u8]) -> Option<u32> {
    if token.is_empty() || token.len() > 9 || (token.len() > 1 && token[0] == b'0') {
        return None;
    }
    let mut v = 0u32;
    for &b in token {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + u32::from(d);
    }
    Some(v)
}

/// A token as shown in messages: in double quotes, at most 40 characters.
pub(crate) fn quoted(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(token);
    let mut shown: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        shown.push('…');
    }
    format!("\"{shown}\"")
}

/// Whether distinct integer `values` (k of them) are exactly 0..k-1
/// (`Some(false)`) or 1..k (`Some(true)`); `None` if neither. Distinct
/// values all below k are exactly 0..k-1; all in 1..=k, exactly 1..k.
fn one_based(values: &[u32]) -> Option<bool> {
    let k = values.len();
    let max = values.iter().copied().max().unwrap_or(0) as usize;
    let min = values.iter().copied().min().unwrap_or(0);
    if max < k {
        Some(false)
    } else if min >= 1 && max == k {
        Some(true)
    } else {
        None
    }
}

/// The first token appearing twice, if any.
pub(crate) fn first_repeat<'a>(tokens: &[&'a [u8]]) -> Option<&'a [u8]> {
    let mut seen: HashMap<&[u8], (), BuildHasherDefault<FxHasher>> = HashMap::default();
    tokens
        .iter()
        .find(|t| seen.insert(t, ()).is_some())
        .copied()
}

/// Said when integer lines that are not decks of 0..n-1 or 1..n fail to
/// read as decks: they look like samples drawn from a larger population.
pub(crate) const SAMPLES_HINT: &str = "if each line is a sample of k items drawn from \
    N (a 6-of-49 lottery draw), add --kind sample -n N";

/// Said when the first deck is a single integer: the lines look like picks.
const PICK_HINT: &str = "if each line is one pick of N items, add --kind pick -n N";

/// The words that mark the refusal of decks with repeated items.
pub(crate) const REPEATED_ITEMS: &str = "decks with repeated items (shoes, AABB blocks) are read from text only, and their starting order (--order, --order-file) must repeat the same items";

/// The message for repeated items on the first deck.
pub(crate) fn repeated_items(shown: &str) -> String {
    format!("{shown} appears twice: {REPEATED_ITEMS}; every deck must hold n distinct items")
}

/// The error for a problem `p` with the first deck (at `place`): a deck
/// with repeated items is something the tool does not do yet, anything
/// else is bad input.
pub(crate) fn first_deck_error(place: String, p: String) -> Error {
    let kind = if p.contains(REPEATED_ITEMS) {
        ErrorKind::Unsupported
    } else {
        ErrorKind::BadInput
    };
    Error::of_kind(kind, format!("{place}: {p}"))
}

impl Dict {
    /// The dictionary of the integer items 0..n-1, or 1..n when
    /// `one_based`, in ascending order.
    pub(crate) fn numbered(n: usize, one_based: bool, against: String) -> Dict {
        let base = usize::from(one_based);
        let mut table = vec![NOT_ITEM; n + base];
        for (i, slot) in table[base..].iter_mut().enumerate() {
            *slot = i as u32;
        }
        Dict {
            n,
            lookup: Lookup::Table(table),
            against,
            items: Items::Numeric { one_based },
            multiset: None,
            looks_like_samples: false,
        }
    }

    /// A dictionary whose item i is `tokens[i]` (distinct tokens).
    pub(crate) fn from_ordered(tokens: &[&[u8]], against: String, items: Items) -> Dict {
        let n = tokens.len();
        let ints: Option<Vec<u32>> = tokens.iter().map(|t| canonical_int(t)).collect();
        let lookup = match ints {
            Some(values) if values.iter().all(|&v| v < TABLE_LIMIT) => {
                let max = values.iter().copied().max().unwrap_or(0) as usize;
                let mut table = vec![NOT_ITEM; max + 1];
                for (i, &v) in values.iter().enumerate() {
                    table[v as usize] = i as u32;
                }
                Lookup::Table(table)
            }
            _ => Lookup::Labels(
                tokens
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (Box::<[u8]>::from(*t), i as u32))
                    .collect(),
            ),
        };
        Dict {
            n,
            lookup,
            against,
            items,
            multiset: None,
            looks_like_samples: false,
        }
    }

    /// The dictionary of a first deck whose items repeat: its distinct
    /// tokens are the kinds (integers by value, playing cards in deck order,
    /// else labels in byte order),
    /// each kind's items consecutive indices. Fails (without the place) on
    /// a single kind.
    fn multiset(tokens: &[&[u8]], against: String) -> Result<Dict, String> {
        let mut kinds: Vec<&[u8]> = tokens.to_vec();
        kinds.sort_unstable_by_key(|t| (canonical_int(t).map_or(u64::MAX, u64::from), *t));
        kinds.dedup();
        // Playing cards in deck order (AS … KS AH … KC), the order of a
        // built-in shoe's kinds, so that both give the same columns.
        let cards: Option<Vec<(usize, usize)>> = kinds
            .iter()
            .map(|k| std::str::from_utf8(k).ok().and_then(cards::parse_label))
            .collect();
        if let Some(cards) = cards {
            let mut order: Vec<usize> = (0..kinds.len()).collect();
            order.sort_by_key(|&i| cards[i]);
            kinds = order.into_iter().map(|i| kinds[i]).collect();
        }
        if kinds.len() < 2 {
            return Err(format!(
                "all {} items are {}: a deck needs at least 2 kinds of item",
                tokens.len(),
                quoted(kinds[0])
            ));
        }
        let size: Vec<u32> = kinds
            .iter()
            .map(|k| tokens.iter().filter(|t| *t == k).count() as u32)
            .collect();
        let first: Vec<u32> = size
            .iter()
            .scan(0u32, |at, &s| {
                let start = *at;
                *at += s;
                Some(start)
            })
            .collect();
        let labels = kinds
            .iter()
            .zip(&size)
            .flat_map(|(k, &s)| {
                std::iter::repeat_n(String::from_utf8_lossy(k).into_owned(), s as usize)
            })
            .collect();
        let lookup = Lookup::Labels(
            kinds
                .iter()
                .enumerate()
                .map(|(j, t)| (Box::<[u8]>::from(*t), j as u32))
                .collect(),
        );
        Ok(Dict {
            n: tokens.len(),
            lookup,
            against,
            items: Items::Labels(labels),
            multiset: Some(Multiset { first, size }),
            looks_like_samples: false,
        })
    }

    /// The dictionary of a text input without a starting order, from the
    /// tokens of its first deck: integers forming 0..n-1 or 1..n in
    /// ascending order, anything else as labels in byte order. Fails (with
    /// the problem, without the place) on fewer than 2 items, on a count
    /// other than `want`, and on repeated items.
    pub(crate) fn from_first_deck(
        tokens: &[&[u8]],
        want: Option<usize>,
        against: String,
    ) -> Result<Dict, String> {
        let k = tokens.len();
        let ints: Option<Vec<u32>> = tokens.iter().map(|t| canonical_int(t)).collect();
        if let Some(n) = want
            && k != n
        {
            // Distinct integers that are no deck of their own (not 0..k-1 or
            // 1..k) look like a sample.
            let sample = ints.as_ref().is_some_and(|v| one_based(v).is_none())
                && first_repeat(tokens).is_none();
            let hint = if sample && k < n {
                format!("; {SAMPLES_HINT}")
            } else {
                String::new()
            };
            return Err(format!("expected {n} items, found {k}{hint}"));
        }
        if k < MIN_N {
            let found = if k == 0 {
                "no items".to_string()
            } else {
                format!("1 item ({})", quoted(tokens[0]))
            };
            let hint = match &ints {
                Some(_) if k == 1 => format!("; {PICK_HINT}"),
                _ => String::new(),
            };
            return Err(format!("found {found}: n must be at least {MIN_N}{hint}"));
        }
        if first_repeat(tokens).is_some() {
            return Dict::multiset(tokens, against);
        }
        if let Some(one_based) = ints.as_deref().and_then(one_based) {
            return Ok(Dict::numbered(k, one_based, against));
        }
        let mut sorted: Vec<&[u8]> = tokens.to_vec();
        sorted.sort_unstable();
        let labels = sorted
            .iter()
            .map(|t| String::from_utf8_lossy(t).into_owned())
            .collect();
        Ok(Dict {
            looks_like_samples: ints.is_some(),
            ..Dict::from_ordered(&sorted, against, Items::Labels(labels))
        })
    }

    /// The dictionary of an explicit starting order: its items in that
    /// order, or for an order that repeats items (a shoe) the kinds of a
    /// deck with repeated items, as [`Dict::from_first_deck`] makes them.
    pub(crate) fn from_order(order: &[String], want: Option<usize>) -> Result<Dict, String> {
        let tokens: Vec<&[u8]> = order.iter().map(|s| s.as_bytes()).collect();
        if let Some(n) = want
            && tokens.len() != n
        {
            return Err(format!(
                "the starting order has {} items but n = {n}",
                tokens.len()
            ));
        }
        if tokens.len() < MIN_N {
            return Err(format!(
                "the starting order has {}: n must be at least {MIN_N}",
                crate::format::counted(tokens.len() as u64, "item", "items")
            ));
        }
        // A starting order that repeats items is a shoe's: its kinds are
        // counted as a first deck's would be (the order itself only tells
        // the successor test which card followed which).
        if first_repeat(&tokens).is_some() {
            return Dict::multiset(&tokens, "the starting order".to_string())
                .map_err(|e| format!("the starting order: {e}"));
        }
        Ok(Dict::from_ordered(
            &tokens,
            "the starting order".to_string(),
            Items::Labels(order.to_vec()),
        ))
    }

    /// The index of `token`, or [`NOT_ITEM`].
    #[inline]
    pub(crate) fn index(&self, token: &[u8]) -> u32 {
        match &self.lookup {
            Lookup::Table(table) => canonical_int(token)
                .and_then(|v| table.get(v as usize).copied())
                .unwrap_or(NOT_ITEM),
            Lookup::Labels(map) => map.get(token).copied().unwrap_or(NOT_ITEM),
        }
    }
}

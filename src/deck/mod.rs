//! Decks with repeated items and category columns: shoes of several
//! 52-card decks, decks holding several copies of each card, block
//! randomisation lists (`AABB`), and item → category tables (suit, rank,
//! colour, "land").
//!
//! A built-in shuffle of a multiset is exactly a shuffle of distinct items
//! 0..n−1 whose item i is then labelled with its kind, so the engine runs
//! unchanged and the tests ([`battery`]) aggregate the position-by-value
//! counts by kind or category ([`laws`]).

pub mod battery;
pub mod cards;
pub mod categories;
pub mod laws;
mod relabel;

pub use relabel::Relabel;

use crate::error::{Error, ErrorKind, Result};
use crate::tally::HandCounts;
use serde::{Deserialize, Serialize};

/// The hand size of the hand test when `--hand` is not given: a poker hand.
pub const DEFAULT_HAND: usize = 5;

/// A category column: which category each kind belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Column {
    /// The column's name (`suit`, `rank`, a CSV header).
    pub name: String,
    /// The categories' names, in order of first appearance.
    pub names: Vec<String>,
    /// The category of each kind.
    pub of_kind: Vec<u32>,
}

/// A deck: n items, each of a kind (several items may share one), with
/// optional category columns over the kinds. Serialised whole in records
/// and tally files, so that a rerun or a merge needs no other file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    /// The deck as given (`shoe:decks=6`, `AABB`), for outputs.
    pub label: String,
    /// The kind of each item, by item index (the starting order).
    kind_of: Vec<u32>,
    /// The kinds' names.
    kind_names: Vec<String>,
    /// Category columns over the kinds.
    columns: Vec<Column>,
    /// The hand size of the hand test (the first `hand` positions).
    pub hand: usize,
    /// Whether the deck was read from its items' labels (decks from
    /// outside), whose order of items is then not the starting order.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    read: bool,
    /// A read deck's starting order, as kinds (`--order-file` of a shoe):
    /// which card followed which before the shuffle, for the successor
    /// test; empty when not given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    start: Vec<u32>,
}

impl Deck {
    /// A deck whose item i is of kind `kind_of[i]`, named `kind_names`.
    fn of(label: String, kind_of: Vec<u32>, kind_names: Vec<String>) -> Self {
        Self {
            label,
            kind_of,
            kind_names,
            columns: Vec::new(),
            hand: DEFAULT_HAND,
            read: false,
            start: Vec::new(),
        }
    }

    /// The read deck with its starting order `order` (item labels, as many
    /// of each kind as the deck holds), for the successor test. Fails,
    /// naming it, on a label that is no kind of the deck or on other
    /// counts than the deck's.
    pub fn with_start(mut self, order: &[String]) -> Result<Self> {
        let mut start = Vec::with_capacity(order.len());
        for label in order {
            let kind = self
                .kind_names
                .iter()
                .position(|k| k == label)
                .ok_or_else(|| {
                    Error::bad_input(format!(
                        "the starting order's item '{label}' is not an item of the decks read"
                    ))
                })?;
            start.push(kind as u32);
        }
        let mut copies = vec![0u64; self.kinds()];
        for &k in &start {
            copies[k as usize] += 1;
        }
        if copies != self.copies() {
            return Err(Error::bad_input(
                "the starting order must hold each item as often as the decks read do".to_string(),
            ));
        }
        self.start = start;
        Ok(self)
    }

    /// Parses a `--deck` value:
    /// - `cards`: one 52-card deck (distinct cards, with suit, rank and
    ///   colour columns);
    /// - `shoe:decks=D`: D 52-card decks one after the other (52 kinds,
    ///   with the card columns);
    /// - `copies:kinds=K,each=E`: K kinds, E copies each, copies adjacent;
    /// - a block list: one kind per character (`AABB`), or comma-separated
    ///   labels (`A,A,B,B`).
    pub fn parse(text: &str) -> Result<Self> {
        let text = text.trim();
        let bad = |why: String| Error::bad_input(format!("deck '{text}': {why}"));
        let (name, params) = text.split_once(':').unwrap_or((text, ""));
        let params = parse_params(params).map_err(&bad)?;
        let get = |key: &str| -> Result<usize> {
            let value = params
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
                .ok_or_else(|| bad(format!("needs {key}=N")))?;
            value
                .parse::<usize>()
                .ok()
                .filter(|&v| v >= 1)
                .ok_or_else(|| {
                    bad(format!("{key} must be a whole number >= 1 (got '{value}')"))
                        .with_kind(ErrorKind::OutOfRange)
                })
        };
        let allow = |keys: &[&str]| -> Result<()> {
            match params.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
                Some((k, _)) => Err(bad(format!(
                    "unknown key '{k}' (expected {})",
                    keys.join(", ")
                ))
                .with_kind(ErrorKind::UnknownName)),
                None => Ok(()),
            }
        };
        let deck = match name {
            "cards" => {
                allow(&[])?;
                cards::shoe(text, 1)
            }
            "shoe" => {
                allow(&["decks"])?;
                let decks = get("decks")?;
                if decks > 64 {
                    return Err(bad(format!("at most 64 decks (got {decks})"))
                        .with_kind(ErrorKind::OutOfRange));
                }
                cards::shoe(text, decks)
            }
            "copies" => {
                allow(&["kinds", "each"])?;
                let (kinds, each) = (get("kinds")?, get("each")?);
                if kinds < 2 || kinds * each > 100_000 {
                    return Err(bad(format!(
                        "needs 2 to 100000 items of at least 2 kinds (got {kinds} x {each})"
                    ))
                    .with_kind(ErrorKind::OutOfRange));
                }
                let kind_of = (0..kinds * each).map(|i| (i / each) as u32).collect();
                let names = (0..kinds).map(|k| k.to_string()).collect();
                Deck::of(text.to_string(), kind_of, names)
            }
            _ if params.is_empty() => block_list(text).map_err(bad)?,
            _ => {
                return Err(bad(format!(
                    "unknown deck '{name}' (cards, shoe, copies or a block list like AABB)"
                ))
                .with_kind(ErrorKind::UnknownName));
            }
        };
        Ok(deck)
    }

    /// A deck of `n` distinct items named 0..n-1 (for category columns
    /// over plain items).
    pub fn distinct(n: usize) -> Self {
        Deck::of(
            format!("0..{}", n - 1),
            (0..n as u32).collect(),
            (0..n).map(|i| i.to_string()).collect(),
        )
    }

    /// The deck of labels read from an input whose items repeat (item i
    /// written `labels[i]`, a kind's items consecutive, see
    /// [`crate::ingest`]); `None` when no label repeats.
    pub fn from_labels(labels: &[String]) -> Option<Self> {
        let deck = Self::of_labels(labels);
        (deck.kinds() < labels.len()).then_some(deck)
    }

    /// The deck of items named `labels` (item i written `labels[i]`), its
    /// kinds the distinct labels in order of first appearance: a deck of
    /// distinct items when no label repeats.
    pub fn of_labels(labels: &[String]) -> Self {
        let mut names: Vec<String> = Vec::new();
        let kind_of: Vec<u32> = labels
            .iter()
            .map(|l| match names.iter().rposition(|n| n == l) {
                Some(k) => k as u32,
                None => {
                    names.push(l.clone());
                    (names.len() - 1) as u32
                }
            })
            .collect();
        Deck {
            read: true,
            ..Deck::of("read from the input".to_string(), kind_of, names)
        }
    }

    /// Number of items.
    pub fn n(&self) -> usize {
        self.kind_of.len()
    }

    /// Number of kinds.
    pub fn kinds(&self) -> usize {
        self.kind_names.len()
    }

    /// The kind of each item.
    pub fn kind_of(&self) -> &[u32] {
        &self.kind_of
    }

    /// The kinds' names.
    pub fn kind_names(&self) -> &[String] {
        &self.kind_names
    }

    /// The (kind, next kind) pairs of the deck's starting order, for the
    /// successor test: a built-in deck's own order; a read deck's starting
    /// order when one was given ([`Deck::with_start`]); else for a deck read
    /// from outside whose kinds are playing cards, decks stacked in deck order
    /// (AS…KS AH…KH AD…KD AC…KC, each king followed by the next deck's ace
    /// of spades), as a built-in shoe starts; `None` when the order is not
    /// known (other labels read from outside).
    pub fn successors(&self) -> Option<Vec<(usize, usize)>> {
        let given = if self.read {
            &self.start
        } else {
            &self.kind_of
        };
        if !given.is_empty() {
            let pairs = given.windows(2);
            return Some(pairs.map(|w| (w[0] as usize, w[1] as usize)).collect());
        }
        let mut kind_of_card = [None; 52];
        for (kind, name) in self.kind_names.iter().enumerate() {
            let (suit, rank) = cards::parse_label(name)?;
            kind_of_card[suit * 13 + rank] = Some(kind);
        }
        let pairs = (0..52).filter_map(|c| Some((kind_of_card[c]?, kind_of_card[(c + 1) % 52]?)));
        Some(pairs.collect())
    }

    /// How many items each kind has.
    pub fn copies(&self) -> Vec<u64> {
        let mut copies = vec![0; self.kinds()];
        for &k in &self.kind_of {
            copies[k as usize] += 1;
        }
        copies
    }

    /// Whether some kind has more than one item (a true multiset).
    pub fn repeats(&self) -> bool {
        self.kinds() < self.n()
    }

    /// The category columns.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The deck with category columns added (replacing any of the same
    /// name).
    pub fn with_columns(mut self, columns: Vec<Column>) -> Self {
        for column in columns {
            self.columns.retain(|c| c.name != column.name);
            self.columns.push(column);
        }
        self
    }

    /// The deck with hand size `hand`, checked against n.
    pub fn with_hand(mut self, hand: usize) -> Result<Self> {
        if hand == 0 || hand >= self.n() {
            return Err(Error::out_of_range(format!(
                "a hand of {hand}: the hand must hold 1 to n - 1 = {} items",
                self.n() - 1
            )));
        }
        self.hand = hand;
        Ok(self)
    }

    /// The category of each item in each column.
    pub fn item_columns(&self) -> Vec<Vec<u32>> {
        self.columns
            .iter()
            .map(|c| {
                self.kind_of
                    .iter()
                    .map(|&k| c.of_kind[k as usize])
                    .collect()
            })
            .collect()
    }

    /// Empty hand counts for the hand test, when the deck has columns.
    pub fn hand_counts(&self) -> Option<HandCounts> {
        (!self.columns.is_empty()).then(|| HandCounts::new(self.hand, &self.item_columns()))
    }

    /// A one-line description for outputs.
    pub fn describe(&self) -> String {
        let columns: Vec<&str> = self.columns.iter().map(|c| c.name.as_str()).collect();
        let mut out = format!(
            "deck {}: {} items of {} kinds",
            self.label,
            self.n(),
            self.kinds()
        );
        if !columns.is_empty() {
            out.push_str(&format!("; categories {}", columns.join(", ")));
            out.push_str(&if self.read {
                " (hand test not run: hands are not counted while reading)".to_string()
            } else {
                format!("; hand of {}", self.hand)
            });
        }
        out
    }
}

/// `key=value` pairs separated by commas.
fn parse_params(text: &str) -> std::result::Result<Vec<(String, String)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("'{p}' is not key=value"))
        })
        .collect()
}

/// A block list: one kind per character, or comma-separated labels; kinds
/// numbered in order of first appearance.
fn block_list(text: &str) -> std::result::Result<Deck, String> {
    let tokens: Vec<String> = if text.contains(',') {
        text.split(',').map(|t| t.trim().to_string()).collect()
    } else {
        text.chars().map(String::from).collect()
    };
    if tokens
        .iter()
        .any(|t| t.is_empty() || t.chars().any(char::is_whitespace))
    {
        return Err(
            "a block list's items are single characters (AABB) or labels separated by commas"
                .into(),
        );
    }
    // A block list is its own starting order, not a deck read from outside.
    let deck = Deck {
        label: text.to_string(),
        read: false,
        ..Deck::of_labels(&tokens)
    };
    if deck.n() < 2 || deck.kinds() < 2 {
        return Err(format!(
            "needs at least 2 items of at least 2 kinds (got {} items, {} kinds)",
            deck.n(),
            deck.kinds()
        ));
    }
    Ok(deck)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_decks() {
        let shoe = Deck::parse("shoe:decks=6").unwrap();
        assert_eq!((shoe.n(), shoe.kinds()), (312, 52));
        assert_eq!(shoe.kind_of()[52], 0, "decks one after the other");
        assert_eq!(shoe.columns().len(), 3);
        let copies = Deck::parse("copies:kinds=15,each=4").unwrap();
        assert_eq!((copies.n(), copies.kinds()), (60, 15));
        assert_eq!(&copies.kind_of()[..5], &[0, 0, 0, 0, 1]);
        let blocks = Deck::parse("AABB").unwrap();
        assert_eq!(blocks.kind_of(), &[0, 0, 1, 1]);
        assert_eq!(Deck::parse("x,y,x").unwrap().kind_names(), &["x", "y"]);
        let cards = Deck::parse("cards").unwrap();
        assert!(!cards.repeats() && cards.n() == 52);
        for bad in [
            "shoe",
            "shoe:decks=0",
            "shoe:decks=2,x=1",
            "copies:kinds=1,each=3",
            "AAAA",
            "A",
            "nope:x=1",
        ] {
            let e = Deck::parse(bad).unwrap_err().to_string();
            assert!(e.contains(bad), "{bad}: {e}");
        }
        assert!(cards.clone().with_hand(52).is_err());
        assert_eq!(cards.with_hand(7).unwrap().hand, 7);
    }
}

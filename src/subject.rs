//! What an audit judges: one of the tool's own algorithms, or a shuffle from
//! outside (permutations in a file, the output of a running program, or a
//! Rust function), which the audit sees only through its output.

use crate::algorithm::{Algorithm, Draws, Expected, Record, record};
use crate::error::{Error, Result};
use crate::source::{RandAdapter, RandomSource};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// The shuffle under audit.
#[derive(Debug, Clone, PartialEq)]
pub enum Subject {
    /// One of the built-in algorithms, run by the engine on our sources.
    Builtin(Algorithm),
    /// A shuffle whose code is elsewhere: the audit counts what it produced.
    Outside(Outside),
}

/// A shuffle from outside the tool: a name for reports and where its
/// permutations come from.
#[derive(Debug, Clone, PartialEq)]
pub struct Outside {
    /// The name reports show (the file name, the command, or the user's).
    pub name: String,
    /// Where the permutations come from.
    pub feed: Feed,
    /// The starting order, as item labels (what the deck looked like before
    /// the shuffle); `None` means ascending.
    pub order: Option<Vec<String>>,
    /// Category columns of the items (`cards`, or a CSV file: see
    /// [`crate::deck::categories`]), applied once the input has said what
    /// its items are; `None` for none.
    pub categories: Option<String>,
}

/// Where an outside shuffle's permutations come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Feed {
    /// A file of shuffled decks (`-` is stdin), in `format`.
    File {
        /// The path, or `-` for standard input.
        path: PathBuf,
        /// Text lines or fixed-width binary records.
        format: Format,
    },
    /// A program run by the tool, `jobs` copies in parallel, each printing
    /// its share of the decks.
    Command {
        /// The command line (run by `sh -c`), with `{n}`, `{count}`,
        /// `{seed}` and `{worker}` placeholders.
        template: String,
        /// Copies run in parallel.
        jobs: usize,
        /// How long a copy may stay silent before the run fails.
        timeout: Duration,
    },
    /// A Rust function handed to the engine alongside the spec (see
    /// [`crate::custom`]), drawing from our random source.
    Function,
    /// Permutations the caller made with its own generator and hands over
    /// in memory (a Python shuffle, an array of orders), counted with
    /// [`crate::audit::of_read`]; `from` says where they came from, for
    /// the report ("shuffled by a Python function").
    Given {
        /// Where the permutations came from, as a phrase.
        from: String,
    },
}

/// How the decks of a file feed are written (read by [`crate::ingest`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// One deck per line of text (see the module documentation).
    #[default]
    Text,
    /// Records of n one-byte values.
    U8,
    /// Records of n two-byte little-endian values.
    U16,
    /// Records of n four-byte little-endian values.
    U32,
}

impl Format {
    /// Every format, in the order of its names.
    pub const ALL: [Format; 4] = [Format::Text, Format::U8, Format::U16, Format::U32];

    /// The name used on the command line: `text`, `u8`, `u16`, `u32`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::U8 => "u8",
            Format::U16 => "u16",
            Format::U32 => "u32",
        }
    }

    /// The format called `text`, failing with the known names otherwise.
    pub fn parse(text: &str) -> Result<Format> {
        let wanted = text.trim().to_ascii_lowercase();
        Format::ALL
            .into_iter()
            .find(|f| f.name() == wanted)
            .ok_or_else(|| {
                Error::unknown_name(format!(
                    "unknown input format '{text}' (expected: text, u8, u16, u32)"
                ))
            })
    }

    /// Bytes per value for the binary formats, `None` for text.
    pub fn width(self) -> Option<usize> {
        match self {
            Format::Text => None,
            Format::U8 => Some(1),
            Format::U16 => Some(2),
            Format::U32 => Some(4),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Format::parse(s)
    }
}

/// A shuffle written in Rust that draws through our [`RandomSource`]: the
/// trait form of a user's shuffle, run by the engine exactly like a built-in
/// algorithm (the same chunks, streams and seeds).
///
/// Any `Fn(&mut [u32], &mut dyn rand::Rng) + Sync` closure is one too (see
/// [`FnShuffle`]), for shuffles written against `rand`.
pub trait Shuffle: Sync {
    /// Shuffles `deck` in place (it arrives as `[0, 1, ..., n-1]`), drawing
    /// every random number from `rng`.
    fn shuffle<R: RandomSource>(&self, deck: &mut [u32], rng: &mut R);
}

/// A closure taking a `rand` generator, as a [`Shuffle`]: our source is
/// handed to it as `&mut dyn rand::Rng` (raw 32/64-bit words).
#[derive(Debug, Clone, Copy)]
pub struct FnShuffle<F>(pub F);

impl<F: Fn(&mut [u32], &mut dyn rand::Rng) + Sync> Shuffle for FnShuffle<F> {
    fn shuffle<R: RandomSource>(&self, deck: &mut [u32], rng: &mut R) {
        (self.0)(deck, &mut RandAdapter(rng))
    }
}

impl Subject {
    /// The verdict an audit of this subject should reach at `n` under an
    /// ideal source ([`Algorithm::expected_at`]); an outside
    /// shuffle's record says nobody knows.
    pub fn expected_at(&self, n: usize) -> Expected {
        match self {
            Subject::Builtin(algorithm) => algorithm.expected_at(n),
            Subject::Outside(_) => self.record().expected,
        }
    }

    /// Everything known about the shuffle before it runs.
    pub fn record(&self) -> Record<'_> {
        match self {
            Subject::Builtin(algorithm) => algorithm.record(),
            Subject::Outside(outside) => Record {
                name: &outside.name,
                description: outside.feed.description(),
                draws: match outside.feed {
                    Feed::Function => Draws::Generator,
                    Feed::File { .. } | Feed::Command { .. } | Feed::Given { .. } => Draws::Outside,
                },
                ..record::OUTSIDE
            },
        }
    }

    /// The built-in algorithm, if this is one: what exact laws, mixing
    /// curves and power plans need.
    pub fn builtin(&self) -> Option<Algorithm> {
        match self {
            Subject::Builtin(algorithm) => Some(*algorithm),
            Subject::Outside(_) => None,
        }
    }

    /// A name safe to use as a folder name.
    pub fn slug(&self) -> String {
        match self {
            Subject::Builtin(algorithm) => algorithm.slug(),
            Subject::Outside(outside) => slug_of(&outside.name),
        }
    }

    /// Whether one of our random sources (with the seed) produces the
    /// permutations, so that the source is worth naming in outputs.
    pub fn uses_our_source(&self) -> bool {
        self.record().uses_our_source()
    }
}

impl Feed {
    /// What the feed is, in a few words, for the record's description.
    pub fn description(&self) -> &'static str {
        match self {
            Feed::File { .. } => "permutations read from a file (its own generator)",
            Feed::Command { .. } => "permutations printed by a program run by the tool",
            Feed::Function => "a Rust function drawing from our random source",
            Feed::Given { .. } => "permutations handed over by the caller (its own generator)",
        }
    }
}

/// `name` with every character that is awkward in a folder name replaced:
/// letters, digits, `-`, `_` and `.` are kept, runs of anything else become
/// one `_`, and the result is at most 60 characters.
pub fn slug_of(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let out: String = out.trim_matches('_').chars().take(60).collect();
    if out.is_empty() {
        "outside".to_string()
    } else {
        out
    }
}

impl From<Algorithm> for Subject {
    fn from(algorithm: Algorithm) -> Self {
        Subject::Builtin(algorithm)
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Builtin(algorithm) => algorithm.fmt(f),
            Subject::Outside(outside) => f.write_str(&outside.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Expected;

    #[test]
    fn outside_shuffles_know_nothing_in_advance() {
        let outside = Subject::Outside(Outside {
            name: "node shuffle.js {n}".into(),
            feed: Feed::Function,
            order: None,
            categories: None,
        });
        let record = outside.record();
        assert_eq!(record.expected, Expected::Unknown);
        assert!(record.positional.is_none() && record.steps.is_none());
        assert_eq!(outside.slug(), "node_shuffle.js_n");
        assert_eq!(outside.builtin(), None);
        assert_eq!(slug_of("///"), "outside");
    }
}

//! How the decks of a file are written: text lines or fixed-width binary
//! records.

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

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

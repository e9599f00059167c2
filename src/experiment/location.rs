//! Error messages that point into a file: `FILE:LINE:COLUMN: message`.

use crate::error::Error;
use std::fmt::Display;
use std::ops::Range;

/// A text being validated, with the name it is reported under.
#[derive(Debug, Clone, Copy)]
pub struct SourceText<'a> {
    /// The file name as the user gave it.
    pub file: &'a str,
    /// The file's contents.
    pub text: &'a str,
}

impl SourceText<'_> {
    /// An [`Error::Invalid`] naming the file, and the line and column where
    /// `span` starts (or just the file when there is no span).
    pub fn error(&self, span: Option<Range<usize>>, message: impl Display) -> Error {
        match span {
            Some(span) => {
                let (line, column) = line_column(self.text, span.start);
                Error::bad_input(format!("{}:{line}:{column}: {message}", self.file))
            }
            None => Error::bad_input(format!("{}: {message}", self.file)),
        }
    }

    /// An error at `span`.
    pub fn at(&self, span: Range<usize>, message: impl Display) -> Error {
        self.error(Some(span), message)
    }
}

/// The 1-based line and column (in characters) of byte `offset` in `text`;
/// offsets past the end or inside a character are clamped to a valid place.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let text = "ab\ncdé\nf";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 2), (1, 3));
        assert_eq!(line_column(text, 3), (2, 1));
        // 'é' is two bytes: the 'f' line starts at byte 8.
        assert_eq!(line_column(text, 8), (3, 1));
        assert_eq!(line_column(text, 7), (2, 4), "the newline after é");
        assert_eq!(line_column(text, 6), (2, 3), "inside é clamps to its start");
        assert_eq!(line_column(text, 99), (3, 2));
        let src = SourceText {
            file: "x.toml",
            text,
        };
        assert_eq!(src.at(3..4, "bad").to_string(), "x.toml:2:1: bad");
        assert_eq!(src.error(None, "bad").to_string(), "x.toml: bad");
    }
}

//! The library's error type.

use std::path::PathBuf;

/// Everything that can go wrong in an audit, phrased for the person who ran it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request itself is wrong (bad name, bad number, impossible size,
    /// bad input data): nothing was run and nothing was written. `kind`
    /// says which sort of wrong, for programs (tests match kinds, people
    /// read the message).
    #[error("{message}")]
    Invalid {
        /// Which sort of wrong.
        kind: ErrorKind,
        /// The message, naming the bad value.
        message: String,
    },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// Encoding an output (CSV, JSON, PNG) failed.
    #[error("cannot write {}: {message}", path.display())]
    Output {
        /// The file being written.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// Which sort of wrong an [`Error::Invalid`] request is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A name the tool does not know (algorithm, source, test, key).
    UnknownName,
    /// A number outside its range (n, trials, alpha, threads, seed).
    OutOfRange,
    /// Something the tool does not do (yet), such as decks with repeated
    /// items or an exact law of a shuffle that draws raw bits.
    Unsupported,
    /// Work or memory beyond what the tool allows or the machine has.
    TooCostly,
    /// Input data that is not what it should be (a bad deck line, a failing
    /// program).
    BadInput,
    /// The run was asked to stop (Ctrl-C) and did: what it had counted is
    /// saved where the message says, to be resumed.
    Interrupted,
    /// Anything else.
    Other,
}

impl Error {
    /// Shorthand for an [`Error::Invalid`] of kind [`ErrorKind::Other`].
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::Other, message)
    }

    /// An [`Error::Invalid`] of `kind`.
    pub fn of_kind(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error::Invalid {
            kind,
            message: message.into(),
        }
    }

    /// The kind of an [`Error::Invalid`]; `None` for I/O and output errors.
    pub fn kind(&self) -> Option<ErrorKind> {
        match self {
            Error::Invalid { kind, .. } => Some(*kind),
            Error::Io { .. } | Error::Output { .. } => None,
        }
    }

    /// The same error with `kind`, if it is an [`Error::Invalid`] (used by
    /// layers that know better what went wrong than the helper that said it).
    pub fn with_kind(self, kind: ErrorKind) -> Self {
        match self {
            Error::Invalid { message, .. } => Error::Invalid { kind, message },
            other => other,
        }
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

//! The library's error type.

use std::path::PathBuf;

/// Everything that can go wrong in an audit, phrased for the person who ran it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The request or its input is wrong (bad name, bad number, impossible
    /// size, bad input data), or a step failed that has no [`Error::Io`]
    /// of its own; usually nothing was run and nothing was written. `kind`
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

/// Which sort of wrong an [`Error`] is, for programs to match: see
/// [`Error::kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A name the tool does not know (algorithm, source, test, key).
    UnknownName,
    /// A number outside its range, or text that is not the number asked
    /// for (n, trials, alpha, threads, k, sizes, weights).
    OutOfRange,
    /// Something the tool does not do (yet), such as decks with repeated
    /// items or an exact law of a shuffle that draws raw bits.
    Unsupported,
    /// Work or memory beyond what the tool allows or the machine has.
    TooCostly,
    /// Input that is not what it should be: a malformed deck line, file,
    /// record or argument text, a failing program, counts that do not fit
    /// together.
    BadInput,
    /// Reading or writing a file or folder failed (or cannot be done: no
    /// such file, a file where a folder should be), or a program could not
    /// be started or is not installed.
    Io,
    /// The run was asked to stop (Ctrl-C) and did: what it had counted is
    /// saved where the message says, to be resumed.
    Interrupted,
    /// Anything else (today only a command worker that stopped without
    /// saying why).
    Other,
}

impl Error {
    /// An [`Error::Invalid`] of `kind`.
    pub fn of_kind(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error::Invalid {
            kind,
            message: message.into(),
        }
    }

    /// An [`Error::Invalid`] of kind [`ErrorKind::BadInput`].
    pub fn bad_input(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::BadInput, message)
    }

    /// An [`Error::Invalid`] of kind [`ErrorKind::OutOfRange`].
    pub fn out_of_range(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::OutOfRange, message)
    }

    /// An [`Error::Invalid`] of kind [`ErrorKind::UnknownName`].
    pub fn unknown_name(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::UnknownName, message)
    }

    /// An [`Error::Invalid`] of kind [`ErrorKind::Unsupported`].
    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::Unsupported, message)
    }

    /// An [`Error::Invalid`] of kind [`ErrorKind::TooCostly`].
    pub fn too_costly(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::TooCostly, message)
    }

    /// An [`Error::Invalid`] of kind [`ErrorKind::Io`]: a file, folder or
    /// program trouble told in a sentence of its own (an [`Error::Io`]
    /// reads `PATH: what the system said`).
    pub fn io(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::Io, message)
    }

    /// Which sort of wrong this is: the kind of an [`Error::Invalid`], and
    /// [`ErrorKind::Io`] for [`Error::Io`] and [`Error::Output`].
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Invalid { kind, .. } => *kind,
            Error::Io { .. } | Error::Output { .. } => ErrorKind::Io,
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

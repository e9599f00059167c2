//! The library's error type.

use std::path::PathBuf;

/// Everything that can go wrong in an audit, phrased for the person who ran it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request itself is wrong (bad name, bad number, impossible size):
    /// nothing was run and nothing was written.
    #[error("{0}")]
    Invalid(String),
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

impl Error {
    /// Shorthand for [`Error::Invalid`].
    pub fn invalid(message: impl Into<String>) -> Self {
        Error::Invalid(message.into())
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

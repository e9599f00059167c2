//! The library's errors as Python exceptions, by [`ErrorKind`]: what the
//! command line reports in one line (exit 2) is a `ValueError` here, with
//! the same words.

use pyo3::PyErr;
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError};
use shuffle_audit::{Error, ErrorKind};

/// `e` as the Python exception a caller expects: bad input, names, ranges
/// and unsupported requests are `ValueError`; files `OSError`; a stopped
/// run `KeyboardInterrupt`; anything else `RuntimeError`.
pub fn to_py(e: Error) -> PyErr {
    let message = e.to_string();
    match e.kind() {
        ErrorKind::UnknownName
        | ErrorKind::OutOfRange
        | ErrorKind::Unsupported
        | ErrorKind::TooCostly
        | ErrorKind::BadInput => PyValueError::new_err(message),
        ErrorKind::Io => PyOSError::new_err(message),
        ErrorKind::Interrupted => PyKeyboardInterrupt::new_err(message),
        _ => PyRuntimeError::new_err(message),
    }
}

//! `shuffle_audit._native`: the shuffle-audit library behind the Python
//! package `shuffle_audit` (whose `__init__.py` is the documented front).
//! What Python asks is a library request and what it gives is read by the
//! library's readers, so a Python audit means exactly what a command-line
//! audit means; one binding (`audit`) serves every kind of subject. A run
//! of a Python function is counted in the library's chunks, so it splits
//! into shards (`shard`) that the library's merge puts back together.

mod audit;
mod errors;
mod feeds;
mod shard;
mod watch;

use pyo3::prelude::*;

/// The native module: audits of any kind of subject, and their results.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<audit::Audit>()?;
    m.add_class::<shard::Shard>()?;
    m.add_function(wrap_pyfunction!(shard::merge, m)?)?;
    m.add_function(wrap_pyfunction!(audit::audit_shuffle, m)?)?;
    m.add_function(wrap_pyfunction!(audit::audit_draws, m)?)?;
    m.add_function(wrap_pyfunction!(audit::audit_given, m)?)?;
    m.add_function(wrap_pyfunction!(audit::default_trials, m)?)?;
    m.add_function(wrap_pyfunction!(slug_of, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("DEFAULT_SEED", shuffle_audit::audit::DEFAULT_SEED)?;
    m.add("DEFAULT_ALPHA", shuffle_audit::audit::DEFAULT_ALPHA)?;
    Ok(())
}

/// The folder name the library gives a subject named `name` (what Rust's
/// `assert_fair` names its report folder).
#[pyfunction]
fn slug_of(name: &str) -> String {
    shuffle_audit::audit::slug_of(name)
}

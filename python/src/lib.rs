//! `shuffle_audit._native`: the shuffle-audit library behind the Python
//! package `shuffle_audit` (whose `__init__.py` is the documented front).
//! Everything here runs the library's own readers, tests and reports, so
//! a Python audit means exactly what a command-line audit means.

mod errors;
mod feeds;
mod samples;
mod shuffles;

use pyo3::prelude::*;

/// The native module: audits of shuffles and samplers, and their results.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<shuffles::ShuffleAudit>()?;
    m.add_class::<samples::SamplerAudit>()?;
    m.add_function(wrap_pyfunction!(shuffles::run_shuffle, m)?)?;
    m.add_function(wrap_pyfunction!(shuffles::read_orders, m)?)?;
    m.add_function(wrap_pyfunction!(shuffles::default_trials, m)?)?;
    m.add_function(wrap_pyfunction!(samples::run_sampler, m)?)?;
    m.add_function(wrap_pyfunction!(samples::default_sample_trials, m)?)?;
    m.add_function(wrap_pyfunction!(slug_of, m)?)?;
    m.add("DEFAULT_SEED", shuffle_audit::audit::DEFAULT_SEED)?;
    m.add("DEFAULT_ALPHA", shuffle_audit::audit::DEFAULT_ALPHA)?;
    Ok(())
}

/// The folder name the library gives a subject named `name` (what Rust's
/// `assert_fair` names its report folder).
#[pyfunction]
fn slug_of(name: &str) -> String {
    shuffle_audit::subject::slug_of(name)
}

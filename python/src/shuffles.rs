//! Audits of shuffles: a Python function run here, or permutations already
//! made (a numpy array or any iterable of decks), counted by the library's
//! readers and judged as the command line judges them.

use crate::errors::to_py;
use crate::feeds::{self, Element, Records};
use numpy::{PyArray2, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use shuffle_audit::custom::{Own, OwnShuffle};
use shuffle_audit::engine::no_progress;
use shuffle_audit::engine::{ALL_DECKS, N_FROM_INPUT, RunSpec};
use shuffle_audit::findings::Findings;
use shuffle_audit::ingest::{self, Format, Ingested};
use shuffle_audit::output::summary::Summary;
use shuffle_audit::produce::read_options;
use shuffle_audit::source::SourceKind;
use shuffle_audit::spec::TestSet;
use shuffle_audit::subject::{Feed, FnShuffle, Outside, Subject};
use shuffle_audit::{Audit, audit};
use std::io::Read;

/// A finished, judged audit of a shuffle, as the Python `Result` wraps it.
#[pyclass(module = "shuffle_audit._native", frozen)]
pub struct ShuffleAudit {
    audit: Audit,
}

/// The type of a shuffle written in Rust, only to name the message of
/// Rust's `assert_fair` (which does not depend on the function).
type RustShuffle = OwnShuffle<FnShuffle<fn(&mut [u32], &mut dyn rand::Rng)>>;

#[pymethods]
impl ShuffleAudit {
    /// The verdict in words: `biased`, `no bias detected` or
    /// `inconclusive`.
    fn verdict(&self) -> String {
        self.audit.verdict().to_string()
    }

    /// The adjusted p as every output states it (`< 1e-12`, `0.031`).
    fn p_text(&self) -> String {
        shuffle_audit::output::format_p(self.audit.log10_p_adjusted())
    }

    /// The run's `summary.json` (what `shuffle-audit audit --json`
    /// prints), as text.
    fn summary_json(&self) -> String {
        let audits = std::slice::from_ref(&self.audit);
        Summary::of(audits, &Findings::of(audits, self.audit.alpha())).to_json()
    }

    /// What the run could have detected, in the verdict table's words
    /// (`±8.8% in a cell`).
    fn could_detect(&self) -> String {
        self.audit.sensitivity().short()
    }

    /// Why the audit is not "no bias detected", in the words of Rust's
    /// `assert_fair` (without the report line).
    fn failure_message(&self) -> String {
        <RustShuffle as Own>::failure_message(&self.audit)
    }

    /// The position-by-value counts (position by kind for a deck whose
    /// items repeat), as a 2-D array.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u64>>> {
        let cells = self.audit.cells();
        let rows: Vec<Vec<u64>> = (0..cells.rows())
            .map(|p| (0..cells.cols()).map(|v| cells.count(p, v)).collect())
            .collect();
        PyArray2::from_vec2(py, &rows).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The heatmap the report shows, as PNG bytes.
    fn heatmap_png<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let png = shuffle_audit::output::heatmap_png(&self.audit).map_err(to_py)?;
        Ok(PyBytes::new(py, &png))
    }

    /// Writes the report (HTML, Markdown, CSV, JSON, PNG) into `dir`;
    /// returns the HTML's path.
    fn write_report(&self, py: Python<'_>, dir: std::path::PathBuf) -> PyResult<String> {
        let path = py
            .allow_threads(|| self.audit.write_report(&dir))
            .map_err(to_py)?;
        Ok(path.display().to_string())
    }
}

/// The tests, trial count and spec of an audit of `n` items.
fn spec_of(outside: Outside, n: usize, trials: u64, seed: u64) -> RunSpec {
    RunSpec::new(
        Subject::Outside(outside),
        n,
        trials,
        SourceKind::Chacha8.into(),
        seed,
    )
}

/// The trials a default audit of a shuffle of `n` items runs at `alpha`
/// (Rust's `custom::default_trials` with the default tests).
#[pyfunction]
pub fn default_trials(n: usize, alpha: f64) -> u64 {
    shuffle_audit::custom::default_trials(n, &TestSet::default_for(n), alpha)
}

/// Audits `shuffle(deck, rng)`, a shuffle written in Python, over `trials`
/// fresh decks `[0, ..., n-1]`, with `rng` (already seeded by the caller).
#[pyfunction]
#[pyo3(signature = (shuffle, rng, n, trials, seed, alpha, name))]
#[allow(clippy::too_many_arguments)]
pub fn run_shuffle(
    py: Python<'_>,
    shuffle: Py<PyAny>,
    rng: Py<PyAny>,
    n: usize,
    trials: Option<u64>,
    seed: u64,
    alpha: f64,
    name: String,
) -> PyResult<ShuffleAudit> {
    shuffle_audit::values::check_alpha(alpha).map_err(to_py)?;
    let trials = trials.unwrap_or_else(|| default_trials(n, alpha));
    if trials == 0 {
        return Err(PyValueError::new_err("trials must be at least 1"));
    }
    let outside = Outside {
        name: name.clone(),
        feed: Feed::Given {
            from: format!("shuffled by a Python function, its generator seeded with {seed}"),
        },
        order: None,
        categories: None,
    };
    let spec = spec_of(outside.clone(), n, trials, seed);
    let opts = read_options(&spec, &outside, Format::U32);
    let mut reader = feeds::decks_shuffled(shuffle, rng, n, trials, name.clone());
    let (read, seconds) =
        feeds::timed(py, || ingest::read(&mut reader, &name, &opts, &no_progress));
    judged(&spec, reader.outcome(read)?, seconds, alpha, false)
}

/// Audits permutations already made: `decks`, a 2-D numpy integer array
/// (one deck per row, read in place) or any iterable of sequences of
/// integers or labels (as `--input` reads them).
#[pyfunction]
#[pyo3(signature = (decks, n, trials, order, name, seed, alpha))]
#[allow(clippy::too_many_arguments)]
pub fn read_orders(
    py: Python<'_>,
    decks: &Bound<'_, PyAny>,
    n: Option<usize>,
    trials: Option<u64>,
    order: Option<Vec<String>>,
    name: String,
    seed: u64,
    alpha: f64,
) -> PyResult<ShuffleAudit> {
    shuffle_audit::values::check_alpha(alpha).map_err(to_py)?;
    if trials == Some(0) {
        return Err(PyValueError::new_err(
            "the number of decks to read must be at least 1 (got 0)",
        ));
    }
    let outside = Outside {
        name: name.clone(),
        feed: Feed::Given {
            from: "handed over from Python".to_string(),
        },
        order: order.clone(),
        categories: None,
    };
    let spec = |outside: &Outside, n: usize| {
        spec_of(outside.clone(), n, trials.unwrap_or(ALL_DECKS), seed)
    };
    macro_rules! array_of {
        ($($t:ty => $format:expr),*) => {$(
            if let Ok(array) = decks.extract::<PyReadonlyArray2<'_, $t>>() {
                let cols = array.shape()[1];
                if let Some(n) = n.filter(|&n| n != cols) {
                    return Err(PyValueError::new_err(format!(
                        "n = {n} was given, but the array's rows hold {cols} items"
                    )));
                }
                return read_array(py, &array, &name, $format, |format| {
                    let o = outside.clone();
                    let s = spec(&o, cols);
                    (s.clone(), read_options(&s, &o, format))
                }, alpha);
            }
        )*};
    }
    array_of!(u8 => Format::U8, u16 => Format::U16, u32 => Format::U32,
        i8 => Format::U32, i16 => Format::U32, i32 => Format::U32,
        i64 => Format::U32, u64 => Format::U32);
    let iter = decks.try_iter().map_err(|_| {
        PyValueError::new_err(
            "decks must be a 2-D numpy integer array or an iterable of decks (sequences)",
        )
    })?;
    let o = outside;
    let spec = spec(&o, n.unwrap_or(N_FROM_INPUT));
    let opts = read_options(&spec, &o, Format::Text);
    let mut reader = feeds::lines_of(iter.unbind(), false);
    let (read, seconds) =
        feeds::timed(py, || ingest::read(&mut reader, &name, &opts, &no_progress));
    judged(&spec, reader.outcome(read)?, seconds, alpha, true)
}

/// Reads the decks of a 2-D integer array: its own bytes when they already
/// are the records of `format` (C order, little-endian u8/u16/u32), else
/// converted to u32 records a block at a time. The GIL is released while
/// the library counts.
fn read_array<T: Element + numpy::Element>(
    py: Python<'_>,
    array: &PyReadonlyArray2<'_, T>,
    name: &str,
    format: Format,
    plan: impl Fn(Format) -> (RunSpec, ingest::Options),
    alpha: f64,
) -> PyResult<ShuffleAudit> {
    let view = array.as_array();
    let in_place = format != Format::U32 || std::mem::size_of::<T>() == 4;
    let bytes = match (in_place && cfg!(target_endian = "little"), view.as_slice()) {
        (true, Some(slice)) => {
            // SAFETY: a slice of plain integers viewed as its bytes.
            Some(unsafe {
                std::slice::from_raw_parts(
                    slice.as_ptr().cast::<u8>(),
                    std::mem::size_of_val(slice),
                )
            })
        }
        _ => None,
    };
    let format = if bytes.is_some() { format } else { Format::U32 };
    if bytes.is_none()
        && let Some((record, value)) = py.allow_threads(|| feeds::first_out_of_range(&view))
    {
        return Err(PyValueError::new_err(format!(
            "{name}: record {record}: value {value} is not one of the {} items of record 1",
            view.ncols()
        )));
    }
    let (spec, opts) = plan(format);
    let (read, seconds) = feeds::timed(py, || {
        let reader: Box<dyn Read + Send> = match bytes {
            Some(bytes) => Box::new(bytes),
            None => Box::new(Records::new(view.view())),
        };
        ingest::read(reader, name, &opts, &no_progress)
    });
    judged(&spec, read.map_err(to_py)?, seconds, alpha, true)
}

/// The judged audit of decks read for `spec`, alone in its run as Rust's
/// `assert_fair` judges one, audited as the command line audits a file
/// (`audit::of_read`); `feed` keeps what was read in the report (decks,
/// items), which a function's run has not.
fn judged(
    spec: &RunSpec,
    read: Ingested,
    seconds: f64,
    alpha: f64,
    feed: bool,
) -> PyResult<ShuffleAudit> {
    let mut audit = audit::of_read(spec, read, seconds, alpha, !feed).map_err(to_py)?;
    audit::judge(std::slice::from_mut(&mut audit), alpha);
    Ok(ShuffleAudit { audit })
}

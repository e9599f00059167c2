//! Shards of a run drawn by a Python function: what `audit(..., shard=(i,
//! k))` hands back, and their merge. A shard is the library's tally file
//! ([`TallyFile`]: the counts of the shard's chunks with everything that
//! decides them, under a checksum), so its bytes are those `shuffle-audit
//! audit --shard` writes, and they are merged by the library's merge
//! ([`library::merge_named`]) and judged as every run's counts are.

use crate::audit::{Audit, judge_file};
use crate::errors::to_py;
use crate::watch::{Control, watched};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use shuffle_audit::shard::{TallyFile, merge as library};

/// The counts of one shard of a run (its share of the run's chunks), as a
/// tally file.
#[pyclass(module = "shuffle_audit._native", frozen)]
pub struct Shard {
    file: TallyFile,
}

impl Shard {
    /// The shard whose counts `file` holds.
    pub fn of(file: TallyFile) -> Self {
        Self { file }
    }

    /// The shard's index and count (`(0, 1)` for a whole run's tally).
    fn index_count(&self) -> (u64, u64) {
        self.file.shard.map_or((0, 1), |s| (s.index, s.count))
    }
}

#[pymethods]
impl Shard {
    /// Reads a shard's bytes (what [`to_bytes`](Self::to_bytes) gave, or a
    /// tally file `shuffle-audit audit --shard` wrote), refusing with
    /// `ValueError` anything else, a damaged copy or an unfinished one.
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        let file = TallyFile::from_bytes(data).map_err(PyValueError::new_err)?;
        Ok(Self { file })
    }

    /// The shard's bytes: the library's tally file (a header line with
    /// the payload's SHA-256, then the counts and the run's specs as JSON).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.file.to_bytes())
    }

    /// What the shard is, as a dict: `index`, `count`, `name`, `kind`,
    /// `n`, `seed`, `trials` (counted here), `run_trials` (of the whole
    /// run), `chunks` (first, end) of the run's `run_chunks`, `seconds`.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        let (index, count) = self.index_count();
        let first = &self.file.audits[0].spec;
        dict.set_item("index", index)?;
        dict.set_item("count", count)?;
        dict.set_item("name", first.subject())?;
        dict.set_item("kind", first.kind())?;
        dict.set_item("n", first.n())?;
        dict.set_item("seed", first.seed())?;
        dict.set_item("trials", self.file.counted_trials())?;
        dict.set_item("run_trials", self.file.run_trials())?;
        dict.set_item("chunks", (self.file.planned.first, self.file.planned.end))?;
        dict.set_item("run_chunks", self.file.all_chunks().end)?;
        dict.set_item("seconds", self.file.seconds())?;
        Ok(dict)
    }
}

/// Merges the shards `shards` (each a `Shard` or its bytes) of one run,
/// in any order, into the run's counts with the library's merge, and
/// judges them as the run on one machine is judged: the same audit, with
/// the same counts and verdict. Refuses (`ValueError`, naming the shard by
/// its place in `shards`) bytes that are not a shard, a shard of another
/// run, one given twice and one missing; `TypeError` for anything else.
#[pyfunction]
pub fn merge(py: Python<'_>, shards: Vec<Bound<'_, PyAny>>) -> PyResult<Audit> {
    if shards.is_empty() {
        return Err(PyValueError::new_err(
            "no shards to merge: give every shard of the run (or their bytes)",
        ));
    }
    let mut files = Vec::with_capacity(shards.len());
    for (at, item) in shards.iter().enumerate() {
        let file = if let Ok(shard) = item.downcast::<Shard>() {
            shard.get().file.clone()
        } else if let Ok(bytes) = item.downcast::<PyBytes>() {
            TallyFile::from_bytes(bytes.as_bytes())
                .map_err(|why| PyValueError::new_err(format!("shards[{at}]: {why}")))?
        } else {
            return Err(PyTypeError::new_err(format!(
                "shards[{at}] is a {}: give Shard objects or their bytes (Shard.to_bytes())",
                item.get_type().name().map_or("?".into(), |n| n.to_string())
            )));
        };
        let name = match file.shard {
            Some(shard) => format!("shards[{at}] (shard {shard})"),
            None => format!("shards[{at}] (a whole run)"),
        };
        files.push((name, file));
    }
    let control = Control::new(None);
    let read = watched(py, &control, None, || {
        let merged = library::merge_named(files)?;
        if merged.audits.len() != 1 {
            return Err(shuffle_audit::Error::bad_input(format!(
                "the shards hold a run of {} audits: shuffle_audit.merge judges a run of one \
                 (merge a study's tally files with `shuffle-audit merge`)",
                merged.audits.len()
            )));
        }
        let call = merged.command_line.clone();
        judge_file(merged, call)
    })?;
    Ok(Audit {
        audit: read.map_err(to_py)?,
    })
}

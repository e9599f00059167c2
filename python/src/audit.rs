//! The one binding of every kind of audit: what Python asks becomes a
//! library request (every default and refusal the library's, worded for
//! Python: `trials=4629`), what Python gives is read by the library's
//! readers, and the judged audit of any kind is one [`Audit`] object.

use crate::errors::to_py;
use crate::feeds::{self, Element, Generators, Records};
use crate::shard::Shard;
use crate::watch::{Control, Stoppable, watched, watched_in_place};
use numpy::{PyArray1, PyArray2, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyString};
use shuffle_audit::audit::{ALL_TRIALS, ChunkRange, DEFAULT_SEED, Feed, Judged, Planned};
use shuffle_audit::error::Front;
use shuffle_audit::experiment::record::RunStart;
use shuffle_audit::ingest::Format;
use shuffle_audit::ingest::samples::Base;
use shuffle_audit::report::{Provenance, format_p};
use shuffle_audit::request::{Form, Holds, Request};
use shuffle_audit::shard::{Shard as ShardOf, TallyFile, drawn};
use shuffle_audit::shuffle::{Deck, declared_deck};
use shuffle_audit::study::{Study, Summary};
use std::io::Read;
use std::sync::Arc;

/// A finished, judged audit of any kind, as the Python `Result` wraps it.
#[pyclass(module = "shuffle_audit._native", frozen)]
pub struct Audit {
    pub(crate) audit: Box<dyn Judged>,
}

#[pymethods]
impl Audit {
    /// The verdict in words: `biased`, `no bias detected` or
    /// `inconclusive`.
    fn verdict(&self) -> String {
        self.audit.verdict().to_string()
    }

    /// The adjusted p as every output states it (`< 1e-12`, `0.031`).
    fn p_text(&self) -> String {
        format_p(self.audit.log10_p_adjusted())
    }

    /// The run's `summary.json` (what `shuffle-audit audit --json`
    /// prints), as text.
    fn summary_json(&self) -> String {
        Summary::of(
            std::slice::from_ref(&self.audit),
            self.audit.alpha(),
            &Default::default(),
        )
        .to_json()
    }

    /// What the run could have detected, in the verdict table's words.
    fn could_detect(&self) -> String {
        self.audit.sensitivity().short.clone()
    }

    /// Why the audit is not "no bias detected", with the trials a verdict
    /// needs written as Python writes them (`trials=4629`).
    fn failure_message(&self) -> String {
        self.audit.failure_message(Front::Python)
    }

    /// The counts: a shuffle's position-by-value matrix (by kind for a
    /// deck whose items repeat) as a 2-D array, a sampler's draws per item
    /// as a 1-D array.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let table = self.audit.table();
        if let [row] = table.as_slice()
            && self.audit.kind() != "shuffle"
        {
            return Ok(PyArray1::from_slice(py, row).into_any());
        }
        PyArray2::from_vec2(py, &table)
            .map(Bound::into_any)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The audit's picture as the report shows it (a shuffle's heatmap, a
    /// sampler's inclusion chart), as PNG bytes.
    fn heatmap_png<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let files = py.allow_threads(|| self.audit.files()).map_err(to_py)?;
        let (_, png) = files
            .into_iter()
            .find(|(name, _)| name.ends_with(".png"))
            .ok_or_else(|| PyValueError::new_err("this audit has no picture"))?;
        Ok(PyBytes::new(py, &png))
    }

    /// Writes the report (HTML, Markdown, CSV, JSON, PNG) into `dir`;
    /// returns the HTML's path.
    fn write_report(&self, py: Python<'_>, dir: std::path::PathBuf) -> PyResult<String> {
        let call = format!(
            "shuffle_audit (Python) audit of {}, seed {}",
            self.audit.subject(),
            self.audit.planned().recorded()["seed"]
        );
        let provenance = Provenance::of(&RunStart::now(), call.clone(), vec![call]);
        let audit = self.audit.clone();
        let path = py
            .allow_threads(|| shuffle_audit::study::write_report(audit, provenance, &dir))
            .map_err(to_py)?;
        Ok(path.display().to_string())
    }
}

/// What Python asked (a dict of its keyword arguments), as the library
/// reads a form: every number and list handed over as the text the
/// command line reads for the same flag, so that every default, check and
/// refusal is the library's, worded for Python (`bad seed '-1': ...`).
/// Only Python's own syntax is read here: a value of the wrong Python
/// type is a `TypeError` naming the option and the value.
pub struct Asked {
    form: Form,
    /// A starting order given as a list (its items as they are).
    order: Option<Vec<String>>,
    until_decisive: bool,
}

/// `dict[key]`, `None` when absent.
fn item<'py>(dict: &Bound<'py, PyDict>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    Ok(dict.get_item(key)?.filter(|v| !v.is_none()))
}

/// The `TypeError` for `value` given as `key`, which should be `what`.
fn wrong_type(key: &str, value: &Bound<'_, PyAny>, what: &str) -> PyErr {
    let shown = value
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    PyTypeError::new_err(format!("{key}: {shown} is not {what}"))
}

/// A whole number (an `int`, or anything with `__index__`, not a
/// `bool`) as its decimal text, for the library to read and check.
fn whole(dict: &Bound<'_, PyDict>, key: &str) -> PyResult<String> {
    let Some(value) = item(dict, key)? else {
        return Ok(String::new());
    };
    let index = match value.is_instance_of::<PyBool>() {
        true => None,
        false => value.call_method0("__index__").ok(),
    };
    match index {
        Some(int) => Ok(int.str()?.to_string()),
        None => Err(wrong_type(key, &value, "a whole number (an int)")),
    }
}

/// A text option (`tests`, `deck`, `categories`, ...) as given.
fn text(dict: &Bound<'_, PyDict>, key: &str) -> PyResult<String> {
    match item(dict, key)? {
        None => Ok(String::new()),
        Some(value) => match value.downcast::<PyString>() {
            Ok(s) => Ok(s.to_string()),
            Err(_) => Err(wrong_type(key, &value, "a string")),
        },
    }
}

impl Asked {
    /// What the dict `asked` asks; a value of the wrong Python type is a
    /// `TypeError` naming its key and the value (`n: 10.0 is not a whole
    /// number (an int)`).
    fn read(asked: &Bound<'_, PyAny>) -> PyResult<Self> {
        let dict = asked.downcast::<PyDict>()?;
        let alpha = match item(dict, "alpha")? {
            None => String::new(),
            Some(a) if a.is_instance_of::<PyBool>() => {
                return Err(wrong_type("alpha", &a, "a number"));
            }
            Some(a) if a.is_instance_of::<PyFloat>() || a.is_instance_of::<PyInt>() => {
                a.str()?.to_string()
            }
            Some(a) => return Err(wrong_type("alpha", &a, "a number")),
        };
        let weights = match item(dict, "weights")? {
            None => String::new(),
            Some(w) if w.is_instance_of::<PyString>() => w.to_string(),
            Some(w) => weights_text(&w)?,
        };
        let (order, order_text) = match item(dict, "order")? {
            None => (None, String::new()),
            Some(o) if o.is_instance_of::<PyString>() => (None, o.to_string()),
            Some(o) => {
                let items = o
                    .try_iter()
                    .map_err(|_| wrong_type("order", &o, "a list of items or a string"))?
                    .map(|x| Ok(x?.str()?.to_string()))
                    .collect::<PyResult<Vec<String>>>()?;
                (Some(items), String::new())
            }
        };
        Ok(Asked {
            form: Form {
                holds: text(dict, "holds")?,
                name: text(dict, "name")?,
                from: String::new(),
                n: whole(dict, "n")?,
                k: whole(dict, "k")?,
                trials: whole(dict, "trials")?,
                max_trials: whole(dict, "max_trials")?,
                seed: whole(dict, "seed")?,
                weights,
                base: whole(dict, "base")?,
                alpha,
                tests: text(dict, "tests")?,
                categories: text(dict, "categories")?,
                deck: text(dict, "deck")?,
                order: order_text,
                // Each call says where its draws come from
                // ([`Asked::request`]).
                given: false,
            },
            order,
            until_decisive: item(dict, "until_decisive")?
                .is_some_and(|u| u.is_truthy().unwrap_or(false)),
        })
    }

    /// The request Python made, read by the library (a refusal is a
    /// `ValueError` in its words), of the subject `feed` gives.
    fn request(&self, feed: Feed) -> PyResult<Request> {
        let request = self.form.request(Front::Python).map_err(to_py)?;
        Ok(Request {
            feed: Some(feed),
            order: self.order.clone().or(request.order),
            until_decisive: self.until_decisive,
            ..request
        })
    }

    /// The seed asked (the library's default when none was).
    fn seed(&self) -> PyResult<u64> {
        Ok(self
            .request(Feed::Given {
                from: String::new(),
            })?
            .seed
            .unwrap_or(DEFAULT_SEED))
    }
}

/// Weights as Python gives them (ints, or floats read as proportions, as
/// the command line reads decimals), written as the library reads them.
fn weights_text(weights: &Bound<'_, PyAny>) -> PyResult<String> {
    let words = weights
        .try_iter()
        .map_err(|_| wrong_type("weights", weights, "a list of weights or a string"))?
        .map(|w| {
            let w = w?;
            if w.is_instance_of::<PyBool>() {
                Err(PyValueError::new_err(format!(
                    "weight {w} is not a number: weights are whole numbers or proportions"
                )))
            } else if w.is_instance_of::<PyInt>() {
                Ok(w.extract::<i128>()?.to_string())
            } else if w.is_instance_of::<PyFloat>() {
                // Rust writes a float without an exponent: 1e-05 as 0.00001.
                Ok(format!("{}", w.extract::<f64>()?))
            } else {
                Ok(w.str()?.to_string())
            }
        })
        .collect::<PyResult<Vec<String>>>()?;
    Ok(words.join(","))
}

/// The library's resolution of `request`: the one spec to read for, the
/// trial budget of a sequential audit when `until_decisive` was asked,
/// and the significance level.
fn planned(request: Request) -> PyResult<(Box<dyn Planned>, Option<u64>, f64)> {
    let resolved = request.resolve().map_err(to_py)?;
    let alpha = resolved.alpha;
    let planned = resolved
        .audits
        .into_iter()
        .next()
        .expect("an outside subject resolves to one audit");
    Ok((planned, resolved.until_decisive, alpha))
}

/// Reads `reader` (what Python hands over, read by calling Python) for
/// `planned` on a worker thread, watched from this one (Ctrl-C stops it,
/// `progress(done, total)` hears of it: see [`watched`]), and judges it
/// alone.
fn judged(
    py: Python<'_>,
    planned: Box<dyn Planned>,
    reader: impl Read + Send + 'static,
    format: Format,
    alpha: f64,
    control: &Arc<Control>,
) -> PyResult<Audit> {
    let mut reader = Stoppable::new(reader, control.clone());
    let total = Some(planned.trials()).filter(|&t| t != ALL_TRIALS);
    let counter = control.clone();
    let read = watched(py, control, total, move || {
        planned.read_given(&mut reader, format, alpha, false, &|t| counter.counted(t))
    })?;
    Ok(Audit {
        audit: control.outcome(read)?,
    })
}

/// [`judged`] for a `reader` of an array read in place (of `rows` trials),
/// which never calls Python ([`watched_in_place`]).
fn judged_in_place(
    py: Python<'_>,
    planned: &dyn Planned,
    reader: impl Read + Send,
    rows: u64,
    format: Format,
    alpha: f64,
    control: &Arc<Control>,
) -> PyResult<Audit> {
    let mut reader = Stoppable::new(reader, control.clone());
    let total = Some(planned.trials().min(rows)).filter(|&t| t != ALL_TRIALS);
    let read = watched_in_place(py, control, total, || {
        planned.read_given(&mut reader, format, alpha, false, &|t| control.counted(t))
    })?;
    Ok(Audit {
        audit: control.outcome(read)?,
    })
}

/// What a run of a function written in Python gives: the judged audit of
/// the whole run, or the counts of one shard of it.
pub enum Drawn {
    /// The whole run, judged.
    Judged(Audit),
    /// One shard's counts, to be merged with the others.
    Shard(Shard),
}

impl Drawn {
    /// The Python object: an `Audit` or a `Shard`.
    fn into_py(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(match self {
            Drawn::Judged(audit) => Py::new(py, audit)?.into_any(),
            Drawn::Shard(shard) => Py::new(py, shard)?.into_any(),
        })
    }
}

/// What the library counted for a run drawn by a Python function.
enum Counted {
    Judged(Box<dyn Judged>),
    Shard(TallyFile),
}

/// The one audit of a whole run's tally `file`, judged as every run's
/// counts are ([`TallyFile::judge`]): an unsharded run and the merge of its
/// shards go through here alike.
pub fn judge_file(file: TallyFile, call: String) -> shuffle_audit::Result<Box<dyn Judged>> {
    let provenance = Provenance::of(&RunStart::now(), call.clone(), vec![call]);
    let judged = file.judge(provenance)?;
    Ok(judged
        .audits
        .into_iter()
        .next()
        .expect("a tally file holds at least one audit"))
}

/// Audits what a function written in Python draws, `reader(chunks)` giving
/// a reader of the trials of `chunks`, each chunk drawn with a fresh
/// generator seeded from the run's seed and its number
/// ([`shuffle_audit::shard::drawn`]). Without a `budget`, the run's chunks
/// (all of them, or those of `shard`) are counted one by one into a tally
/// file, judged whole, or handed back as the shard's counts; with a
/// `budget` (`until_decisive`) the looks of a sequential audit, look j's
/// trials being a run of their own seeded as the library seeds the look.
/// Watched from this thread as [`judged`] is.
#[allow(clippy::too_many_arguments)]
fn drawn<R: Read + Send + 'static>(
    py: Python<'_>,
    (planned, budget): (Box<dyn Planned>, Option<u64>),
    format: Format,
    alpha: f64,
    shard: Option<ShardOf>,
    call: String,
    control: &Arc<Control>,
    reader: impl Fn(Generators) -> R + Send + Sync + 'static,
) -> PyResult<Drawn> {
    let counter = control.clone();
    let count = move |t| counter.counted(t);
    let size = planned.chunks().size;
    if let (Some(max), None) = (budget, shard) {
        let read = watched(py, control, Some(max), move || {
            planned.read_until_decisive(
                alpha,
                max,
                format,
                &mut |batch| {
                    let all = ChunkRange::all_sized(batch.trials, size);
                    let chunks = drawn::chunks(0, batch.seed, batch.trials, all);
                    Ok(Box::new(reader(Generators::new(chunks))) as Box<dyn Read + Send>)
                },
                &count,
            )
        })?;
        return Ok(Drawn::Judged(Audit {
            audit: control.outcome(read)?,
        }));
    }
    let study = Study {
        alpha,
        until_decisive: budget,
        ..Study::new(vec![planned])
    };
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let mut file = TallyFile::of_study(&study, shard, call.clone(), threads).map_err(to_py)?;
    let total = file.planned_trials();
    let read = watched(py, control, Some(total), move || {
        let mut next =
            |chunk| Ok(Box::new(reader(Generators::new([chunk]))) as Box<dyn Read + Send>);
        drawn::count(&mut file, format, &mut next, &count)?;
        Ok(match shard {
            Some(_) => Counted::Shard(file),
            None => Counted::Judged(judge_file(file, call)?),
        })
    })?;
    Ok(match control.outcome(read)? {
        Counted::Judged(audit) => Drawn::Judged(Audit { audit }),
        Counted::Shard(file) => Drawn::Shard(Shard::of(file)),
    })
}

/// The shard `(index, count)` Python asked for, checked by the library as
/// `--shard I/N` is; a refusal names it (`shard=(4, 4): ...`).
fn shard_of(shard: Option<(i64, i64)>) -> PyResult<Option<ShardOf>> {
    let Some((index, count)) = shard else {
        return Ok(None);
    };
    let bad = |why: String| PyValueError::new_err(format!("shard=({index}, {count}): {why}"));
    match (u64::try_from(index), u64::try_from(count)) {
        (Ok(i), Ok(k)) => ShardOf::new(i, k).map(Some).map_err(|e| bad(e.to_string())),
        _ => Err(bad("shard i of k counts from 0: neither is negative".into())),
    }
}

/// The trials a default audit runs (what n needs for a verdict), as the
/// library decides them for what Python asks.
#[pyfunction]
pub fn default_trials(asked: &Bound<'_, PyAny>) -> PyResult<u64> {
    let asked = Asked::read(asked)?;
    let feed = Feed::Drawn {
        from: String::new(),
    };
    Ok(planned(asked.request(feed)?)?.0.trials())
}

/// Audits `shuffle(deck, rng)`, a shuffle written in Python, over fresh
/// decks `[0, ..., n-1]` (or a declared deck's cards: `deck` asked), chunk `c` of the run drawn with the generator
/// `make_rng(seed of chunk c)`; `progress(done, total)` hears how far it
/// has got. With `shard = (i, k)`, counts only shard i of k of the run's
/// chunks and returns a `Shard` (see [`merge`](crate::shard::merge)).
#[pyfunction]
#[pyo3(signature = (shuffle, make_rng, asked, shard=None, progress=None))]
pub fn audit_shuffle(
    py: Python<'_>,
    shuffle: Py<PyAny>,
    make_rng: Py<PyAny>,
    asked: &Bound<'_, PyAny>,
    shard: Option<(i64, i64)>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let shard = shard_of(shard)?;
    let asked = Asked::read(asked)?;
    let (seed, name) = (asked.seed()?, asked.form.name.clone());
    let from = format!(
        "shuffled by a Python function, a generator per chunk ({}) seeded from {seed}",
        maker_name(make_rng.bind(py))
    );
    let call = python_call(&name, seed, shard);
    let (planned, budget, alpha) = planned(asked.request(Feed::Drawn { from })?)?;
    let n = planned.n();
    // A declared deck (a shoe) is handed to the function as its cards.
    let cards = declared_deck(planned.as_ref()).map(Deck::relabel);
    let control = Control::new(progress);
    let shuffler: feeds::Drawer = Arc::new((shuffle, make_rng));
    let stops = control.clone();
    let drawn = drawn(
        py,
        (planned, budget),
        Format::U32,
        alpha,
        shard,
        call,
        &control,
        move |chunks| {
            let cards = cards.clone();
            feeds::decks_shuffled(
                shuffler.clone(),
                n,
                chunks,
                name.clone(),
                stops.clone(),
                cards,
            )
        },
    )?;
    drawn.into_py(py)
}

/// Audits what `draw(rng)` returns, a sampler written in Python (k items,
/// or one for a pick, numbered from 0 unless `base` says 1), chunk `c` of
/// the run drawn with the generator `make_rng(seed of chunk c)`;
/// `progress(done, total)` hears how far it has got. With `shard = (i,
/// k)`, counts only shard i of k of the run's chunks and returns a `Shard`.
#[pyfunction]
#[pyo3(signature = (draw, make_rng, asked, shard=None, progress=None))]
pub fn audit_draws(
    py: Python<'_>,
    draw: Py<PyAny>,
    make_rng: Py<PyAny>,
    asked: &Bound<'_, PyAny>,
    shard: Option<(i64, i64)>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let shard = shard_of(shard)?;
    let asked = Asked::read(asked)?;
    let seed = asked.seed()?;
    let from = format!(
        "drawn by a Python function, a generator per chunk ({}) seeded from {seed}",
        maker_name(make_rng.bind(py))
    );
    let call = python_call(&asked.form.name, seed, shard);
    let mut request = asked.request(Feed::Drawn { from })?;
    let pick = request.holds == Some(Holds::Pick);
    // Each chunk is read alone: the numbering is fixed before, not left to
    // whichever chunk first holds 0 or N.
    request.base.get_or_insert(Base::Zero);
    let (planned, budget, alpha) = planned(request)?;
    let control = Control::new(progress);
    let drawer: feeds::Drawer = Arc::new((draw, make_rng));
    let drawn = drawn(
        py,
        (planned, budget),
        Format::Text,
        alpha,
        shard,
        call,
        &control,
        {
            let stops = control.clone();
            move |chunks| feeds::lines_drawn(drawer.clone(), chunks, pick, stops.clone())
        },
    )?;
    drawn.into_py(py)
}

/// What makes a run's generators (`random.Random`,
/// `numpy.random._generator.default_rng`, a function of the seed), as the
/// run's record states it: shards drawn with other generators are not
/// shards of one run, and the library's merge refuses them.
fn maker_name(make_rng: &Bound<'_, PyAny>) -> String {
    let attr = |name: &str| {
        make_rng
            .getattr(name)
            .and_then(|a| a.extract::<String>())
            .ok()
    };
    match (attr("__module__"), attr("__qualname__")) {
        (Some(module), Some(name)) => format!("{module}.{name}"),
        (None, Some(name)) => name,
        _ => make_rng
            .repr()
            .map_or_else(|_| "?".to_string(), |r| r.to_string()),
    }
}

/// How a run of a Python function is named in its tally file and report.
fn python_call(name: &str, seed: u64, shard: Option<ShardOf>) -> String {
    match shard {
        Some(shard) => {
            format!("shuffle_audit (Python) audit of {name}, seed {seed}, shard {shard}")
        }
        None => format!("shuffle_audit (Python) audit of {name}, seed {seed}"),
    }
}

/// Audits output already made: a 2-D numpy integer array of shape
/// (trials, n) or any iterable of decks, samples or picks, read as the
/// command line reads a file of them.
/// `progress(done, total)` hears how far the read has got (`total` is
/// `None` for an iterable, whose length is known at its end).
#[pyfunction]
#[pyo3(signature = (given, asked, progress=None))]
pub fn audit_given(
    py: Python<'_>,
    given: &Bound<'_, PyAny>,
    asked: &Bound<'_, PyAny>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Audit> {
    let from = "handed over from Python".to_string();
    let asked = Asked::read(asked)?;
    let request = asked.request(Feed::Given { from })?;
    let pick = request.holds == Some(Holds::Pick);
    let deck = matches!(request.holds, None | Some(Holds::Deck));
    // Decks come as a 2-D array read in place; samples and picks (rows
    // of k items, or items) are read as any iterable is.
    if deck && let Some(array) = feeds::numpy_array(given)? {
        return audit_array(py, &array, request, progress);
    }
    let iter = given.try_iter().map_err(|_| {
        PyValueError::new_err(format!(
            "expected a 2-D integer array (trials, n) or an iterable of {}, got {}",
            if deck { "decks" } else { "samples" },
            given
                .get_type()
                .name()
                .map_or("?".into(), |n| n.to_string())
        ))
    })?;
    let (planned, _, alpha) = planned(request)?;
    let control = Control::new(progress);
    let reader = feeds::lines_of(iter.unbind(), pick, control.clone());
    judged(py, planned, reader, Format::Text, alpha, &control)
}

/// Reads a 2-D integer array of decks (checked by
/// [`feeds::numpy_array`]): its own bytes when they already are binary
/// records of permutations (C order, little-endian u8/u16/u32), else
/// converted a block of rows at a time, as records of a permutation or as
/// text lines when items repeat (a shoe).
fn audit_array(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    mut request: Request,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Audit> {
    macro_rules! typed {
        ($($t:ty => $format:expr),*) => {$(
            if let Ok(array) = array.extract::<PyReadonlyArray2<'_, $t>>() {
                let cols = array.shape()[1];
                if let Some(n) = request.n.filter(|&n| n != cols) {
                    return Err(PyValueError::new_err(format!(
                        "n = {n} was given, but the array's rows hold {cols} items"
                    )));
                }
                request.n = Some(cols);
                return read_array(py, &array, request, $format, progress);
            }
        )*};
    }
    typed!(u8 => Format::U8, u16 => Format::U16, u32 => Format::U32,
        i8 => Format::U32, i16 => Format::U32, i32 => Format::U32,
        i64 => Format::U32, u64 => Format::U32);
    Err(PyValueError::new_err(
        "expected a 2-D integer array (trials, n) of a numpy integer type",
    ))
}

/// Reads the rows of `array` (see [`audit_array`]) as `format`.
fn read_array<T: Element + numpy::Element>(
    py: Python<'_>,
    array: &PyReadonlyArray2<'_, T>,
    request: Request,
    format: Format,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Audit> {
    let view = array.as_array();
    let (planned, _, alpha) = planned(request)?;
    // Decks whose items repeat (a shoe) are labels: read as text.
    let repeats = view.nrows() > 0 && !feeds::is_permutation(&view.row(0));
    let in_place = !repeats && (format != Format::U32 || std::mem::size_of::<T>() == 4);
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
    if !repeats
        && bytes.is_none()
        && let Some((record, value)) = py.allow_threads(|| feeds::first_out_of_range(&view))
    {
        return Err(PyValueError::new_err(format!(
            "{}: record {record}: value {value} is not one of the {} items of record 1",
            planned.subject(),
            view.ncols()
        )));
    }
    let (reader, format): (Box<dyn Read + Send>, Format) = match (bytes, repeats) {
        (Some(bytes), _) => (Box::new(bytes), format),
        (None, true) => (Box::new(Records::text(view.view())), Format::Text),
        (None, false) => (Box::new(Records::new(view.view())), Format::U32),
    };
    let control = Control::new(progress);
    judged_in_place(
        py,
        planned.as_ref(),
        reader,
        view.nrows() as u64,
        format,
        alpha,
        &control,
    )
}

//! What Python gives, as the bytes the library's readers read: decks and
//! samples are counted by [`shuffle_audit::ingest`], exactly as the command
//! line counts a file (same checks, same messages, same counts).
//!
//! - A 2-D numpy array of integers becomes little-endian binary records:
//!   an array of `uint8`/`uint16`/`uint32` laid out in C order is read in
//!   place, any other integer array is converted a block at a time (never
//!   copied whole).
//! - Anything else (an iterable of sequences, items or labels; a Python
//!   function called again and again) becomes text, one line per deck or
//!   sample, written a batch at a time while the library counts the batches
//!   before it on its own threads (a Python shuffle's decks as binary
//!   records).
//!
//! A Python function is called with a fresh generator at the first trial of
//! each chunk of the run ([`Generators`]), made from the chunk's seed
//! ([`shuffle_audit::shard::drawn::chunk_seed`]), so that each chunk's
//! trials are the same wherever and whenever it is drawn.

use crate::watch::{Control, stopped};
use numpy::ndarray::ArrayView2;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyIterator, PyList, PyString};
use shuffle_audit::shard::drawn::DrawnChunk;
use shuffle_audit::shuffle::Relabel;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::Arc;

/// A reader whose bytes Python makes on demand: `fill` appends the next
/// batch to a buffer, with the GIL held, and says whether more may follow
/// (it stops early, saying more may follow, once the run is asked to
/// stop). A Python exception stops the read (as an I/O error the library
/// reports) and is kept in the run's [`Control`] to be raised instead.
pub struct Pull<F> {
    fill: F,
    staging: Vec<u8>,
    pos: usize,
    done: bool,
    control: Arc<Control>,
}

impl<F> Pull<F>
where
    F: FnMut(Python<'_>, &mut Vec<u8>, &Control) -> PyResult<bool> + Send,
{
    /// A reader of what `fill` makes, in the run `control` stops.
    pub fn new(fill: F, control: Arc<Control>) -> Self {
        Self {
            fill,
            staging: Vec::new(),
            pos: 0,
            done: false,
            control,
        }
    }
}

impl<F> Read for Pull<F>
where
    F: FnMut(Python<'_>, &mut Vec<u8>, &Control) -> PyResult<bool> + Send,
{
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.staging.len() {
            if self.control.stopped() {
                return Err(stopped());
            }
            if self.done {
                return Ok(0);
            }
            self.staging.clear();
            self.pos = 0;
            let (fill, staging, control) = (&mut self.fill, &mut self.staging, &*self.control);
            match Python::with_gil(|py| control.in_python(py, || fill(py, staging, control))) {
                Ok(more) => self.done = !more,
                Err(e) => {
                    self.control.fail(e);
                    return Err(io::Error::other("stopped by a Python exception"));
                }
            }
        }
        let k = buf.len().min(self.staging.len() - self.pos);
        buf[..k].copy_from_slice(&self.staging[self.pos..self.pos + k]);
        self.pos += k;
        Ok(k)
    }
}

/// Rows converted per block when an array is not read in place.
const ROWS_PER_BLOCK: usize = 8192;

/// An integer element of a numpy array, as the value it holds.
pub trait Element: Copy + Send + Sync {
    /// The value (saturated to the range of i128, which holds every one).
    fn value(self) -> i128;
}

macro_rules! element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            #[inline]
            fn value(self) -> i128 {
                self as i128
            }
        }
    )*};
}
element!(u8, u16, u32, u64, i8, i16, i32, i64);

/// The rows of a 2-D integer array as u32 little-endian records, converted
/// a block of rows at a time.
pub struct Records<'a, T> {
    view: ArrayView2<'a, T>,
    row: usize,
    staging: Vec<u8>,
    pos: usize,
    /// Text lines instead of binary records.
    text: bool,
}

impl<'a, T: Element> Records<'a, T> {
    /// The records of `view`, whose values must all lie in 0..2^32 (see
    /// [`first_out_of_range`]).
    pub fn new(view: ArrayView2<'a, T>) -> Self {
        Self {
            view,
            row: 0,
            staging: Vec::new(),
            pos: 0,
            text: false,
        }
    }

    /// The rows of `view` as text lines of integers: a deck whose items
    /// repeat (a shoe of labels), which only the text reader reads.
    pub fn text(view: ArrayView2<'a, T>) -> Self {
        Self {
            text: true,
            ..Self::new(view)
        }
    }
}

/// Whether `row` holds each of `0..n` (or each of `1..=n`) once: a deck of
/// distinct items, which binary records carry.
pub fn is_permutation<T: Element>(row: &numpy::ndarray::ArrayView1<'_, T>) -> bool {
    let n = row.len() as i128;
    let mut seen = vec![false; row.len() + 1];
    row.iter().all(|v| {
        let v = v.value();
        (0..=n).contains(&v) && !std::mem::replace(&mut seen[v as usize], true)
    }) && !(seen[0] && seen[row.len()])
}

/// `given` as a numpy array of decks when it is one (an object with `ndim`
/// and `dtype`), refused unless it is 2-D and of integers: `expected a 2-D
/// integer array (trials, n), got float64`; `None` for anything else (an
/// iterable the text reader reads).
pub fn numpy_array<'py>(given: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let (Ok(ndim), Ok(dtype)) = (given.getattr("ndim"), given.getattr("dtype")) else {
        return Ok(None);
    };
    let kind: String = dtype.getattr("kind")?.extract()?;
    let name: String = dtype.getattr("name")?.extract()?;
    // Strings and objects are labels: the text reader reads them.
    if matches!(kind.as_str(), "U" | "S" | "O") {
        return Ok(None);
    }
    let ndim: usize = ndim.extract()?;
    if !matches!(kind.as_str(), "i" | "u") {
        return Err(PyValueError::new_err(format!(
            "expected a 2-D integer array (trials, n), got {name}"
        )));
    }
    if ndim != 2 {
        return Err(PyValueError::new_err(format!(
            "expected a 2-D integer array (trials, n), got a {ndim}-D array of {name}"
        )));
    }
    Ok(Some(given.clone()))
}

impl<T: Element> Read for Records<'_, T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.staging.len() {
            let rows = self.view.nrows();
            if self.row == rows {
                return Ok(0);
            }
            let end = (self.row + ROWS_PER_BLOCK).min(rows);
            self.staging.clear();
            self.pos = 0;
            for r in self.row..end {
                if self.text {
                    for (i, &v) in self.view.row(r).iter().enumerate() {
                        if i > 0 {
                            self.staging.push(b' ');
                        }
                        self.staging
                            .extend_from_slice(v.value().to_string().as_bytes());
                    }
                    self.staging.push(b'\n');
                    continue;
                }
                for &v in self.view.row(r) {
                    self.staging
                        .extend_from_slice(&(v.value() as u32).to_le_bytes());
                }
            }
            self.row = end;
        }
        let k = buf.len().min(self.staging.len() - self.pos);
        buf[..k].copy_from_slice(&self.staging[self.pos..self.pos + k]);
        self.pos += k;
        Ok(k)
    }
}

/// The first value of `view` that no u32 record can hold, as (1-based
/// record, value).
pub fn first_out_of_range<T: Element>(view: &ArrayView2<'_, T>) -> Option<(usize, i128)> {
    view.rows().into_iter().enumerate().find_map(|(r, row)| {
        row.iter()
            .map(|v| v.value())
            .find(|&v| !(0..=i128::from(u32::MAX)).contains(&v))
            .map(|v| (r + 1, v))
    })
}

/// Appends `item` to a text line as one item: an integer as its digits, a
/// string as itself (it must read back as one item: no separator, quote,
/// bracket or `#`), anything else as its `str()`.
pub fn write_item(item: &Bound<'_, PyAny>, out: &mut Vec<u8>) -> PyResult<()> {
    if let Ok(v) = item.extract::<i64>() {
        out.extend_from_slice(v.to_string().as_bytes());
        return Ok(());
    }
    let text = match item.downcast::<PyString>() {
        Ok(s) => s.to_cow()?.into_owned(),
        Err(_) => item.str()?.to_cow()?.into_owned(),
    };
    if text.is_empty()
        || text
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, ',' | '"' | '[' | ']' | '#'))
    {
        return Err(PyValueError::new_err(format!(
            "the item {text:?} cannot be read as one item: items are integers or labels \
             without spaces, commas, quotes, brackets or #"
        )));
    }
    out.extend_from_slice(text.as_bytes());
    Ok(())
}

/// Appends `items` (a sequence, or one item when `one` is set) as a line.
pub fn write_line(items: &Bound<'_, PyAny>, one: bool, out: &mut Vec<u8>) -> PyResult<()> {
    if one {
        write_item(items, out)?;
    } else if let Ok(list) = items.downcast::<PyList>() {
        for (i, item) in list.iter().enumerate() {
            if i > 0 {
                out.push(b' ');
            }
            write_item(&item, out)?;
        }
    } else {
        if items.is_instance_of::<PyString>() {
            return Err(PyValueError::new_err(format!(
                "expected a sequence of items, found the string {:?}",
                items.to_string()
            )));
        }
        let iter = items.try_iter().map_err(|_| {
            PyValueError::new_err(format!(
                "expected a sequence of items, found {}",
                items
                    .get_type()
                    .name()
                    .map_or("?".into(), |n| n.to_string())
            ))
        })?;
        for (i, item) in iter.enumerate() {
            if i > 0 {
                out.push(b' ');
            }
            write_item(&item?, out)?;
        }
    }
    out.push(b'\n');
    Ok(())
}

/// Bytes of text written per batch (a batch ends after the line that
/// crosses it).
pub const TEXT_BATCH: usize = 1 << 20;

/// Lines of the items of `iter` (sequences, or single items when `one`),
/// a batch at a time: the reader of an iterable of decks or samples.
pub fn lines_of(
    iter: Py<PyIterator>,
    one: bool,
    control: Arc<Control>,
) -> Pull<impl FnMut(Python<'_>, &mut Vec<u8>, &Control) -> PyResult<bool> + Send> {
    let fill = move |py: Python<'_>, out: &mut Vec<u8>, control: &Control| {
        let mut iter = iter.bind(py).clone();
        while out.len() < TEXT_BATCH && !control.stopped() {
            match iter.next() {
                Some(items) => write_line(&items?, one, out)?,
                None => return Ok(false),
            }
            control.pulled_one();
        }
        Ok(true)
    };
    Pull::new(fill, control)
}

/// A function written in Python and the maker of its generators
/// (`make_rng(seed)`: `random.Random`, `numpy.random.default_rng` or the
/// user's own), shared by every chunk of a run.
pub type Drawer = Arc<(Py<PyAny>, Py<PyAny>)>;

/// The generators the trials of a stretch of chunks are drawn with: a
/// fresh one, `make_rng(chunk.seed)`, at the first trial of each chunk
/// (see [`shuffle_audit::shard::drawn`]).
pub struct Generators {
    chunks: VecDeque<DrawnChunk>,
    rng: Option<Py<PyAny>>,
    left: u64,
}

impl Generators {
    /// The generators of `chunks`, in order.
    pub fn new(chunks: impl IntoIterator<Item = DrawnChunk>) -> Self {
        Self {
            chunks: chunks.into_iter().collect(),
            rng: None,
            left: 0,
        }
    }

    /// The generator of the next trial (made by `make` at a chunk's
    /// first), or `None` once every chunk's trials are drawn.
    fn next<'py>(
        &mut self,
        py: Python<'py>,
        make: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        while self.left == 0 {
            let Some(chunk) = self.chunks.pop_front() else {
                return Ok(None);
            };
            self.rng = Some(make.call1((chunk.seed,))?.unbind());
            self.left = chunk.trials;
        }
        self.left -= 1;
        Ok(self.rng.as_ref().map(|rng| rng.bind(py).clone()))
    }

    /// Whether every chunk's trials are drawn.
    fn done(&self) -> bool {
        self.left == 0 && self.chunks.is_empty()
    }
}

/// Lines of what `draw(rng)` returns (a sequence, or one item when `one`),
/// one call per trial of `chunks`, each chunk with its own generator: the
/// reader of a sampler written in Python.
pub fn lines_drawn(
    drawer: Drawer,
    chunks: Generators,
    one: bool,
    control: Arc<Control>,
) -> Pull<impl FnMut(Python<'_>, &mut Vec<u8>, &Control) -> PyResult<bool> + Send> {
    let mut generators = chunks;
    let fill = move |py: Python<'_>, out: &mut Vec<u8>, control: &Control| {
        let (draw, make) = (drawer.0.bind(py), drawer.1.bind(py));
        while out.len() < TEXT_BATCH && !control.stopped() {
            let Some(rng) = generators.next(py, make)? else {
                return Ok(false);
            };
            write_line(&draw.call1((rng,))?, one, out)?;
            control.pulled_one();
        }
        Ok(!generators.done())
    };
    Pull::new(fill, control)
}

/// Decks per batch of a shuffle written in Python.
const DECKS_PER_BATCH: u64 = 1024;

/// Records (u32 little-endian) of the decks `shuffle(deck, rng)` makes of
/// `0..n`, one call per trial of `chunks` (each chunk with its own
/// generator), each on a fresh list shuffled in place (or, if the function
/// returns a sequence, what it returns). A deck that is not a permutation
/// of `0..n` stops the run with a `ValueError` in the words of the Rust
/// engine's check. With `cards` (a declared deck, such as a shoe), the
/// fresh list holds the deck's cards as labels, and the cards returned are
/// written as the deck's item indices ([`Relabel`]).
pub fn decks_shuffled(
    shuffler: Drawer,
    n: usize,
    chunks: Generators,
    name: String,
    control: Arc<Control>,
    mut cards: Option<Relabel>,
) -> Pull<impl FnMut(Python<'_>, &mut Vec<u8>, &Control) -> PyResult<bool> + Send> {
    let mut generators = chunks;
    let mut deck: Vec<u32> = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut start: Option<Py<PyList>> = None;
    let fill = move |py: Python<'_>, out: &mut Vec<u8>, control: &Control| {
        let start = start
            .get_or_insert_with(|| {
                let list = match &cards {
                    Some(cards) => PyList::new(py, cards.labels()),
                    None => PyList::new(py, 0..n as u32),
                };
                list.expect("a list").unbind()
            })
            .bind(py);
        let (shuffle, make) = (shuffler.0.bind(py), shuffler.1.bind(py));
        out.reserve(DECKS_PER_BATCH as usize * n * 4);
        for _ in 0..DECKS_PER_BATCH {
            if control.stopped() {
                return Ok(true);
            }
            let Some(rng) = generators.next(py, make)? else {
                return Ok(false);
            };
            let list = start.get_slice(0, n);
            let returned = shuffle.call1((&list, &rng))?;
            deck.clear();
            if let Some(cards) = cards.as_mut() {
                let held = if returned.is_none() {
                    list.into_any()
                } else {
                    returned
                };
                read_cards(&held, cards, &mut deck, &name)?;
            } else if returned.is_none() {
                if !small_ints(&list, &mut deck) {
                    deck.clear();
                    for item in list.iter() {
                        deck.push(deck_item(&item, &name)?);
                    }
                }
            } else {
                for item in items_of(&returned, &name)? {
                    deck.push(deck_item(&item?, &name)?);
                }
            }
            check_permutation(&deck, n, &mut seen, &name)?;
            for &v in &deck {
                out.extend_from_slice(&v.to_le_bytes());
            }
            control.pulled_one();
        }
        Ok(!generators.done())
    };
    Pull::new(fill, control)
}

/// The items of what a shuffle returned, or a `ValueError` when it is not
/// a sequence.
fn items_of<'py>(returned: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyIterator>> {
    // A string is iterable, but no deck: it is what `deck.pop()` returns.
    let text = returned.is_instance_of::<PyString>() || returned.is_instance_of::<PyBytes>();
    returned.try_iter().ok().filter(|_| !text).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{name} returned {}: a shuffle shuffles its deck in place (and returns None) or \
             returns the shuffled deck",
            returned.repr().map_or("?".into(), |r| r.to_string())
        ))
    })
}

/// Reads the cards a shuffle of a declared deck holds after its call (the
/// deck it was handed, or what it returned) into `deck` as the deck's item
/// indices; a `ValueError` naming the card when they are not the deck's
/// cards rearranged.
fn read_cards(
    held: &Bound<'_, PyAny>,
    cards: &mut Relabel,
    deck: &mut Vec<u32>,
    name: &str,
) -> PyResult<()> {
    let items = items_of(held, name)?.collect::<PyResult<Vec<_>>>()?;
    let shown = |item: &Bound<'_, PyAny>| item.repr().map_or("?".into(), |r| r.to_string());
    let labels: Vec<Result<_, String>> = items
        .iter()
        .map(|item| match item.downcast::<PyString>() {
            Ok(label) => label.to_cow().map_err(|_| shown(item)),
            Err(_) => Err(shown(item)),
        })
        .collect();
    let labels = labels.iter().map(|l| l.as_deref().map_err(Clone::clone));
    cards.indices(labels, deck).map_err(|why| {
        let first: Vec<String> = items.iter().take(12).map(shown).collect();
        let more = if items.len() > 12 { ", ..." } else { "" };
        PyValueError::new_err(format!(
            "{name} did not return the deck's cards: {why}: [{}{more}]",
            first.join(", ")
        ))
    })
}

/// Reads `list` into `deck` when it holds only Python ints that fit a u32
/// (the usual deck), without the checks and reference counting of the
/// general path; false (with `deck` partly filled) for anything else, which
/// the general path then reads and names.
fn small_ints(list: &Bound<'_, PyList>, deck: &mut Vec<u32>) -> bool {
    use pyo3::ffi;
    // SAFETY: the GIL is held (a `Bound`), the list outlives the loop, and
    // `PyList_GetItem` returns a borrowed reference to an item in range.
    unsafe {
        let len = ffi::PyList_Size(list.as_ptr());
        for i in 0..len {
            let item = ffi::PyList_GetItem(list.as_ptr(), i);
            if item.is_null() || ffi::PyLong_CheckExact(item) == 0 {
                ffi::PyErr_Clear();
                return false;
            }
            match u32::try_from(ffi::PyLong_AsLong(item)) {
                Ok(v) => deck.push(v),
                Err(_) => {
                    ffi::PyErr_Clear();
                    return false;
                }
            }
        }
    }
    true
}

/// One item of a deck a Python shuffle made, which must be an integer.
fn deck_item(item: &Bound<'_, PyAny>, name: &str) -> PyResult<u32> {
    item.extract::<u32>().map_err(|_| {
        PyValueError::new_err(format!(
            "{name} did not return a permutation: {} is not an item of 0..n-1",
            item.repr().map_or("?".into(), |r| r.to_string())
        ))
    })
}

/// Fails unless `deck` holds each of `0..n` once, in the words of the Rust
/// engine's check of a user's shuffle (`NAME did not return a
/// permutation: 3 appears twice in [..]`).
fn check_permutation(deck: &[u32], n: usize, seen: &mut [bool], name: &str) -> PyResult<()> {
    seen.fill(false);
    let bad = if deck.len() != n {
        Some(format!("expected {n} items, found {}", deck.len()))
    } else {
        deck.iter().find_map(|&v| match seen.get_mut(v as usize) {
            Some(s) if !*s => {
                *s = true;
                None
            }
            Some(_) => Some(format!("{v} appears twice")),
            None => Some(format!("{v} is not below n = {n}")),
        })
    };
    match bad {
        None => Ok(()),
        Some(why) => {
            let shown: Vec<String> = deck.iter().take(12).map(u32::to_string).collect();
            let more = if deck.len() > 12 { ", ..." } else { "" };
            Err(PyValueError::new_err(format!(
                "{name} did not return a permutation: {why} in [{}{more}]",
                shown.join(", ")
            )))
        }
    }
}

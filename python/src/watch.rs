//! An audit run from Python, watched from the thread that called it.
//!
//! Python runs its signal handlers (Ctrl-C's `KeyboardInterrupt`) only on
//! the main thread, between bytecodes: a run that holds that thread in Rust
//! until it ends cannot be interrupted. So the run goes to a worker thread
//! (which takes the GIL when it calls the user's Python function), and the
//! calling thread waits for it a tick at a time, the GIL released: at each
//! tick it lets Python check its signals and reports progress. On an
//! exception (Ctrl-C, or one raised by the progress callback) it asks the
//! run to stop ([`Control::stop`]: every reader of the run fails at its next
//! read, and a Python function is not called again), raises
//! `KeyboardInterrupt` in the worker if it is running Python code (the
//! user's function, a generator: [`Control::interrupt`], which stops a
//! pure-Python loop), waits for the worker to end, discards what it
//! counted and raises the exception. A worker that has not ended within
//! [`GRACE`] (a call blocked in C, such as `time.sleep`, or a function
//! that catches `KeyboardInterrupt`) is left to end on its own, its result
//! discarded ([`watched`]; a read of an array in place, which never calls
//! Python, is always waited for: [`watched_in_place`]).

use pyo3::prelude::*;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the calling thread waits before it checks signals again:
/// Ctrl-C stops a run well within a second.
const TICK: Duration = Duration::from_millis(50);

/// How long an interrupted run's worker is waited for before it is left
/// to end on its own.
const GRACE: Duration = Duration::from_millis(500);

/// How often the progress callback is called while a run goes on.
const REPORT_EVERY: Duration = Duration::from_millis(100);

/// What the calling thread and the run share: the request to stop, the
/// trials counted so far, the first Python exception the run's own Python
/// calls raised, and the progress callback the calling thread calls.
#[derive(Default)]
pub struct Control {
    stop: AtomicBool,
    /// The Python thread id of the run's thread while it runs Python code
    /// (set and cleared with the GIL held), 0 otherwise.
    in_python: AtomicU64,
    done: AtomicU64,
    /// Trials Python has handed over so far (decks or lines made by its
    /// calls), ahead of `done`: the library counts a chunk when it ends.
    pulled: AtomicU64,
    error: Mutex<Option<PyErr>>,
    progress: Option<Py<PyAny>>,
}

impl Control {
    /// A fresh control, shared with the run's readers, reporting to
    /// `progress(done, total)` if given.
    pub fn new(progress: Option<Bound<'_, PyAny>>) -> Arc<Self> {
        Arc::new(Self {
            progress: progress.map(Bound::unbind),
            ..Self::default()
        })
    }

    /// Asks the run to stop.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the run was asked to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Runs `call` (Python code of the run, on the run's thread, with the
    /// GIL held) where [`Control::interrupt`] can raise
    /// `KeyboardInterrupt` in it.
    pub fn in_python<T>(&self, _py: Python<'_>, call: impl FnOnce() -> T) -> T {
        // SAFETY: a plain call of the C API, with the GIL held. (A C
        // `unsigned long`: 64 bits here, 32 on Windows.)
        #[allow(clippy::useless_conversion)]
        let id = u64::from(unsafe { PyThread_get_thread_ident() });
        self.in_python.store(id, Ordering::SeqCst);
        let out = call();
        self.in_python.store(0, Ordering::SeqCst);
        out
    }

    /// Raises `KeyboardInterrupt` in the run's thread if it is running
    /// Python code: a pure-Python loop stops at once, a call blocked in C
    /// (`time.sleep`) when it returns.
    fn interrupt(&self, _py: Python<'_>) {
        // The GIL is held: the run's thread is between two bytecodes of
        // the Python code it runs, or outside any (`in_python` 0).
        let id = self.in_python.load(Ordering::SeqCst);
        if id != 0 {
            // SAFETY: the C API, with the GIL held; a thread id that ended
            // meanwhile is no thread state's, and nothing is raised.
            unsafe {
                pyo3::ffi::PyThreadState_SetAsyncExc(id as _, pyo3::ffi::PyExc_KeyboardInterrupt);
            }
        }
    }

    /// Keeps `e`, raised by the run's Python calls, to be raised instead
    /// of the library's error (the first one only), and stops the run.
    pub fn fail(&self, e: PyErr) {
        let mut error = self.error.lock().unwrap_or_else(|p| p.into_inner());
        error.get_or_insert(e);
        self.stop();
    }

    /// Adds `trials` counted (the library's progress callback).
    pub fn counted(&self, trials: u64) {
        self.done.fetch_add(trials, Ordering::Relaxed);
    }

    /// The trials counted so far.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Adds one trial Python has handed over (a deck or line made by its
    /// calls), shown as progress before the library counts its chunk.
    pub fn pulled_one(&self) {
        self.pulled.fetch_add(1, Ordering::Relaxed);
    }

    /// The trials a run in progress shows as done: those counted, or
    /// those Python has handed over when more (a chunk of a slow Python
    /// function can take minutes before the library counts it), never
    /// past `total`. (What the library counted is what the last report
    /// says: a reader may pull more than a run counts.)
    fn shown(&self, total: Option<u64>) -> u64 {
        let ahead = self.done().max(self.pulled.load(Ordering::Relaxed));
        total.map_or(ahead, |total| ahead.min(total))
    }

    /// The result of a run: the Python exception that stopped it, if any,
    /// before the library's own error.
    pub fn outcome<T>(&self, read: shuffle_audit::Result<T>) -> PyResult<T> {
        let mut error = self.error.lock().unwrap_or_else(|p| p.into_inner());
        match error.take() {
            Some(e) => Err(e),
            None => read.map_err(crate::errors::to_py),
        }
    }
}

unsafe extern "C" {
    /// The calling thread's id as Python knows it (`threading.get_ident()`),
    /// of the stable ABI; what `PyThreadState_SetAsyncExc` takes.
    fn PyThread_get_thread_ident() -> std::os::raw::c_ulong;
}

/// The error a reader returns once its run was asked to stop.
pub fn stopped() -> io::Error {
    io::Error::other("stopped")
}

/// A reader that fails as soon as its run is asked to stop (an array read
/// in place, whose reads never call Python).
pub struct Stoppable<R> {
    inner: R,
    control: Arc<Control>,
}

impl<R: Read> Stoppable<R> {
    /// `inner`, stopped by `control`.
    pub fn new(inner: R, control: Arc<Control>) -> Self {
        Self { inner, control }
    }
}

impl<R: Read> Read for Stoppable<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.control.stopped() {
            return Err(stopped());
        }
        self.inner.read(buf)
    }
}

/// Waits for the worker to say it ended (on `rx`), checking Python's
/// signals every [`TICK`] and calling the control's `progress(done,
/// total)` every [`REPORT_EVERY`]: `None` once it ended, or the exception
/// either raised, the run then asked to stop, its Python code interrupted
/// and the worker given [`GRACE`] to end.
fn wait(
    py: Python<'_>,
    control: &Control,
    total: Option<u64>,
    mut rx: mpsc::Receiver<()>,
) -> Option<PyErr> {
    let progress = control.progress.as_ref().map(|p| p.bind(py));
    let mut reported = Instant::now();
    let raised = loop {
        let (ended, back) = py.allow_threads(move || {
            let ended = !matches!(rx.recv_timeout(TICK), Err(RecvTimeoutError::Timeout));
            (ended, rx)
        });
        rx = back;
        if ended {
            return None;
        }
        if let Err(e) = py.check_signals() {
            break e;
        }
        if let Some(progress) = progress
            && reported.elapsed() >= REPORT_EVERY
        {
            reported = Instant::now();
            if let Err(e) = progress.call1((control.shown(total), total)) {
                break e;
            }
        }
    };
    control.stop();
    control.interrupt(py);
    let _ = py.allow_threads(move || rx.recv_timeout(GRACE));
    Some(raised)
}

/// Runs `work` on a worker thread while this thread waits for it (see
/// [`wait`]), and calls `progress(done, total)` once at the end (`total`:
/// `None` when the run's length is not known before it ends). An exception
/// raised meanwhile stops the run and is raised once the worker has ended,
/// or after [`GRACE`] if it has not (a Python call blocked in C): the
/// worker is then left to end on its own, its result discarded.
pub fn watched<T: Send + 'static>(
    py: Python<'_>,
    control: &Control,
    total: Option<u64>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = mpsc::channel::<()>();
    let ended = Arc::new(AtomicBool::new(false));
    let worker = std::thread::spawn({
        let ended = ended.clone();
        move || {
            let out = work();
            ended.store(true, Ordering::SeqCst);
            let _ = tx.send(());
            out
        }
    });
    if let Some(e) = wait(py, control, total, rx) {
        // A worker that ended is joined: a panic of the run is the caller's.
        if ended.load(Ordering::SeqCst)
            && let Err(panic) = py.allow_threads(move || worker.join())
        {
            std::panic::resume_unwind(panic);
        }
        return Err(e);
    }
    let out = py
        .allow_threads(move || worker.join())
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    finish(py, control, total)?;
    Ok(out)
}

/// [`watched`] for work that borrows (an array read in place) and never
/// calls Python: stopped at its next read, it is always waited for.
pub fn watched_in_place<T: Send>(
    py: Python<'_>,
    control: &Control,
    total: Option<u64>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<()>();
        let worker = scope.spawn(move || {
            let out = work();
            let _ = tx.send(());
            out
        });
        let raised = wait(py, control, total, rx);
        let out = py
            .allow_threads(move || worker.join())
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        if let Some(e) = raised {
            return Err(e);
        }
        finish(py, control, total)?;
        Ok(out)
    })
}

/// The last `progress(done, total)` call, once a run has ended.
fn finish(py: Python<'_>, control: &Control, total: Option<u64>) -> PyResult<()> {
    if let Some(progress) = &control.progress {
        progress.bind(py).call1((control.done(), total))?;
    }
    Ok(())
}

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
//! read, and a Python function is not called again), waits for the worker
//! to end, discards what it counted and raises the exception.

use pyo3::prelude::*;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the calling thread waits before it checks signals again:
/// Ctrl-C stops a run well within a second.
const TICK: Duration = Duration::from_millis(50);

/// How often the progress callback is called while a run goes on.
const REPORT_EVERY: Duration = Duration::from_millis(100);

/// What the calling thread and the run share: the request to stop, the
/// trials counted so far, the first Python exception the run's own Python
/// calls raised, and the progress callback the calling thread calls.
#[derive(Default)]
pub struct Control {
    stop: AtomicBool,
    done: AtomicU64,
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

/// Runs `work` on a worker thread while this thread checks Python's
/// signals every [`TICK`] and calls the control's `progress(done, total)`
/// every [`REPORT_EVERY`] and once at the end (`total`: `None` when the
/// run's length is not known before it ends). An exception from either stops the
/// run and is raised once the worker has ended; `work`'s result is
/// discarded.
pub fn watched<T: Send>(
    py: Python<'_>,
    control: &Control,
    total: Option<u64>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let progress = control.progress.as_ref().map(|p| p.bind(py));
    std::thread::scope(|scope| {
        let (tx, mut rx) = mpsc::channel::<()>();
        let worker = scope.spawn(move || {
            let out = work();
            let _ = tx.send(());
            out
        });
        let mut reported = Instant::now();
        let raised = loop {
            let (ended, back) = py.allow_threads(move || {
                let ended = !matches!(rx.recv_timeout(TICK), Err(RecvTimeoutError::Timeout));
                (ended, rx)
            });
            rx = back;
            if ended {
                break None;
            }
            if let Err(e) = py.check_signals() {
                break Some(e);
            }
            if let Some(progress) = progress
                && reported.elapsed() >= REPORT_EVERY
            {
                reported = Instant::now();
                if let Err(e) = progress.call1((control.done(), total)) {
                    break Some(e);
                }
            }
        };
        if raised.is_some() {
            control.stop();
        }
        let out = py
            .allow_threads(move || worker.join())
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        if let Some(e) = raised {
            return Err(e);
        }
        if let Some(progress) = progress {
            progress.call1((control.done(), total))?;
        }
        Ok(out)
    })
}

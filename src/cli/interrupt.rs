//! Ctrl-C: a run interrupted by the user says how far it got, removes its
//! unfinished output folder, and exits with status 130 (128 + SIGINT), as
//! shells expect. A run that saves checkpoints asks instead to be told
//! ([`stop_flag`]): the first Ctrl-C sets its flag, and it saves its counts
//! and stops at its next look; a second one quits at once.
//!
//! SIGINT is blocked in every thread (the mask is inherited by the threads
//! started later, and reset by the standard library in child processes) and
//! received by one watcher thread with `sigwait`, so no code runs inside a
//! signal handler.

use crate::Result;
use crate::output::files;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Exit status of an interrupted run.
pub const EXIT_INTERRUPTED: i32 = 130;

/// Trials done so far and planned, for the message.
static DONE: AtomicU64 = AtomicU64::new(0);
static TOTAL: AtomicU64 = AtomicU64::new(0);

/// The unfinished output folder to remove on Ctrl-C.
static CLEANUP: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Whether the run stops by itself on Ctrl-C ([`stop_flag`]).
static GRACEFUL: AtomicBool = AtomicBool::new(false);
/// Set by the first Ctrl-C of a run that stops by itself.
static STOP: AtomicBool = AtomicBool::new(false);

/// Makes the first Ctrl-C set the returned flag instead of ending the
/// process: for a run that saves its counts and stops when the flag is set
/// (a second Ctrl-C still quits at once).
pub fn stop_flag() -> &'static AtomicBool {
    GRACEFUL.store(true, Ordering::Relaxed);
    &STOP
}

/// Starts watching for Ctrl-C. Call first thing, before any thread starts.
pub fn install() {
    // SAFETY: pthread_sigmask only changes this thread's mask (inherited by
    // threads started afterwards).
    let blocked =
        unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &sigint(), std::ptr::null_mut()) == 0 };
    if !blocked {
        return; // Keep the default behaviour: Ctrl-C ends the process.
    }
    std::thread::spawn(|| {
        loop {
            let mut signal = 0;
            // SAFETY: sigwait blocks this thread until SIGINT arrives.
            let received = unsafe { libc::sigwait(&sigint(), &mut signal) == 0 };
            if !received {
                return;
            }
            if GRACEFUL.load(Ordering::Relaxed) && !STOP.swap(true, Ordering::Relaxed) {
                let _ = writeln!(
                    std::io::stderr(),
                    "\nstopping: saving the counts so far (Ctrl-C again to quit at once)"
                );
                continue;
            }
            interrupted();
        }
    });
}

/// The signal set holding SIGINT alone.
fn sigint() -> libc::sigset_t {
    // SAFETY: plain libc calls on a local, zero-initialised signal set.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        set
    }
}

/// Reports, cleans up and exits.
fn interrupted() -> ! {
    let cleaned = CLEANUP.lock().ok().and_then(|mut c| c.take()).map(|path| {
        match std::fs::remove_dir_all(path) {
            // Not created yet: nothing to remove.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            other => other,
        }
    });
    let (done, total) = (DONE.load(Ordering::Relaxed), TOTAL.load(Ordering::Relaxed));
    let progress = if total > 0 {
        format!(
            " after {} of {} trials",
            crate::output::thousands(done),
            crate::output::thousands(total)
        )
    } else {
        String::new()
    };
    let written = match cleaned {
        Some(Err(e)) => format!("; the unfinished output could not be removed: {e}"),
        _ => "; nothing written".to_string(),
    };
    // Not eprintln!: stderr may be closed, and a panic here would leave the
    // run going.
    let _ = writeln!(std::io::stderr(), "\ninterrupted{progress}{written}");
    std::process::exit(EXIT_INTERRUPTED);
}

/// Runs `work` with the run's files going into a staged folder for `out`
/// (see [`files::stage`]): moved into place when `work` succeeds, removed
/// when it fails or the user presses Ctrl-C. `None` writes no files.
pub fn staged<T>(out: Option<&Path>, work: impl FnOnce(Option<&Path>) -> Result<T>) -> Result<T> {
    let Some(out) = out else {
        return work(None);
    };
    // Registered before the folder exists: Ctrl-C while it is being
    // created must not leave it behind.
    cleanup(Some(files::partial_path(out)));
    let result = files::staged(out, |dir| work(Some(dir)));
    cleanup(None);
    result
}

/// The unfinished folder Ctrl-C must remove (`None` once it is complete).
fn cleanup(path: Option<PathBuf>) {
    if let Ok(mut c) = CLEANUP.lock() {
        *c = path;
    }
}

/// Records the trials planned for the run.
pub fn planned(total: u64) {
    TOTAL.store(total, Ordering::Relaxed);
    DONE.store(0, Ordering::Relaxed);
}

/// Records `trials` more trials done.
pub fn advanced(trials: u64) {
    DONE.fetch_add(trials, Ordering::Relaxed);
}

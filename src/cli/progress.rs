//! The progress bar: on stderr, only on a terminal, only once a run has lasted
//! about a second.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const SHOW_AFTER: Duration = Duration::from_secs(1);

/// Counts trials done across all audits of a run.
pub struct Progress {
    bar: ProgressBar,
    enabled: bool,
    shown: AtomicBool,
    start: Instant,
}

impl Progress {
    /// A bar for `total` trials; `quiet` or a non-terminal stderr hides it.
    pub fn new(total: u64, quiet: bool) -> Self {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {msg:<28} [{bar:30}] {percent:>3}%  {per_sec:>12}  eta {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        Self {
            bar,
            enabled: !quiet && std::io::stderr().is_terminal(),
            shown: AtomicBool::new(false),
            start: Instant::now(),
        }
    }

    /// Names what is running now.
    pub fn set_message(&self, message: String) {
        self.bar.set_message(message);
    }

    /// Records `trials` more trials done.
    pub fn add(&self, trials: u64) {
        self.bar.inc(trials);
        if self.enabled
            && self.start.elapsed() > SHOW_AFTER
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

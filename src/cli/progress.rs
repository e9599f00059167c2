//! Progress on stderr: a bar for the audit running now and one for the whole
//! run, shown only on a terminal and only once a run has lasted about a
//! second; plus one line per finished audit (also when stderr is a file).

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use shuffle_audit::engine::ALL_DECKS;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const SHOW_AFTER: Duration = Duration::from_secs(1);

/// Counts trials done in the current audit and across all audits of a run.
pub struct Progress {
    bars: MultiProgress,
    item: ProgressBar,
    overall: ProgressBar,
    quiet: bool,
    enabled: bool,
    shown: AtomicBool,
    start: Instant,
}

impl Progress {
    /// Bars for `total` trials; `quiet` or a non-terminal stderr hides them.
    pub fn new(total: u64, quiet: bool) -> Self {
        let bars = MultiProgress::with_draw_target(ProgressDrawTarget::hidden());
        let item = bars.add(ProgressBar::new(0));
        item.set_style(
            ProgressStyle::with_template(
                "{spinner} {msg:<36} [{bar:30}] {percent:>3}%  {per_sec:>12}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        let overall = bars.add(ProgressBar::new(total));
        overall.set_style(
            ProgressStyle::with_template("  {msg:<36} [{bar:30}] {percent:>3}%  eta {eta:>12}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        overall.set_message("all audits");
        Self {
            bars,
            item,
            overall,
            quiet,
            enabled: !quiet && std::io::stderr().is_terminal(),
            shown: AtomicBool::new(false),
            start: Instant::now(),
        }
    }

    /// Starts the next audit: `label` with `trials` trials.
    pub fn begin(&self, label: String, trials: u64) {
        if trials == ALL_DECKS {
            self.item.unset_length();
            self.overall.unset_length();
        } else {
            self.item.set_length(trials);
        }
        self.item.set_position(0);
        self.item.set_message(label);
    }

    /// Records `trials` more trials done.
    pub fn add(&self, trials: u64) {
        self.item.inc(trials);
        self.overall.inc(trials);
        if self.enabled
            && self.start.elapsed() > SHOW_AFTER
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bars.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Prints a line on stderr (above the bars when they are shown), unless quiet.
    pub fn println(&self, line: &str) {
        if self.quiet {
            return;
        }
        if self.shown.load(Ordering::Relaxed) {
            let _ = self.bars.println(line);
        } else {
            eprintln!("{line}");
        }
    }

    /// Removes the bars.
    pub fn finish(&self) {
        self.item.finish_and_clear();
        self.overall.finish_and_clear();
        let _ = self.bars.clear();
    }
}

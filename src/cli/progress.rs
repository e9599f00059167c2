//! Progress on stderr: a bar for the audit running now and one for the whole
//! run, shown only on a terminal and only once a run has lasted about a
//! second; plus one line per finished audit (also when stderr is a file).
//!
//! The overall bar counts work, not trials: a trial of n items weighs n, so
//! its ETA stays right when a run mixes sizes (a trial at n = 52 costs about
//! five at n = 10).

use crate::audit::ALL_TRIALS;
use crate::format::human_rate;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
    weight: AtomicU64,
}

/// The work of `trials` trials of `n` items, as the overall bar counts it:
/// saturating, and [`ALL_TRIALS`] (unknown) stays unknown.
pub fn work(trials: u64, n: usize) -> u64 {
    if trials == ALL_TRIALS {
        ALL_TRIALS
    } else {
        trials.saturating_mul(n.max(1) as u64)
    }
}

impl Progress {
    /// Bars for `trials` trials in all, weighing `work` (see [`work`]);
    /// `quiet` or a non-terminal stderr hides them.
    pub fn new(trials: u64, work: u64, quiet: bool) -> Self {
        super::interrupt::planned(trials);
        let bars = MultiProgress::with_draw_target(ProgressDrawTarget::hidden());
        let item = bars.add(ProgressBar::new(0));
        item.set_style(
            ProgressStyle::with_template(
                "{spinner} {msg:<36} [{bar:30}] {percent:>3}%  {rate:>16}",
            )
            .expect("valid template")
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&human_rate(state.per_sec()));
                },
            )
            .progress_chars("=> "),
        );
        let overall = bars.add(ProgressBar::new(work));
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
            weight: AtomicU64::new(1),
        }
    }

    /// Starts the next audit: `label` with `trials` trials of `n` items.
    pub fn begin(&self, label: String, trials: u64, n: usize) {
        self.weight.store(n.max(1) as u64, Ordering::Relaxed);
        if trials == ALL_TRIALS {
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
        super::interrupt::advanced(trials);
        self.item.inc(trials);
        self.overall
            .inc(trials.saturating_mul(self.weight.load(Ordering::Relaxed)));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overall_bar_weighs_trials_by_their_size() {
        // 1,000 trials at n = 52 are about as much work as 5,200 at n = 10:
        // counting trials alone made the ETA of a mixed run far off.
        assert_eq!(work(1_000, 52), 52_000);
        assert_eq!(work(5_200, 10), 52_000);
        assert_eq!(work(ALL_TRIALS, 10), ALL_TRIALS);
        assert_eq!(work(u64::MAX - 1, 10), u64::MAX);
        let progress = Progress::new(2_000, work(1_000, 10) + work(1_000, 52), true);
        progress.begin("a".into(), 1_000, 10);
        progress.add(1_000);
        progress.begin("b".into(), 1_000, 52);
        progress.add(500);
        assert_eq!(progress.overall.position(), 10_000 + 26_000);
        assert_eq!(progress.overall.length(), Some(62_000));
    }
}

//! Progress on stderr: a bar for the audit running now and one for the whole
//! run, shown only on a terminal and only once a run has lasted about a
//! second; plus one line per finished audit (also when stderr is a file).

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use shuffle_audit::engine::ALL_DECKS;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const SHOW_AFTER: Duration = Duration::from_secs(1);

/// A rate for people: `2.58 M/s`, `950 k/s`, `12 /s`.
pub fn human_rate(per_sec: f64) -> String {
    let (value, unit) = match per_sec {
        r if r >= 1e9 => (r / 1e9, " G"),
        r if r >= 1e6 => (r / 1e6, " M"),
        r if r >= 1e3 => (r / 1e3, " k"),
        r => (r, " "),
    };
    let digits = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.digits$}{unit}/s")
}

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
        super::interrupt::planned(total);
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
        super::interrupt::advanced(trials);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_in_human_units() {
        assert_eq!(human_rate(2_582_036.141_177_221), "2.58 M/s");
        assert_eq!(human_rate(950_000.0), "950 k/s");
        assert_eq!(human_rate(12.0), "12.0 /s");
        assert_eq!(human_rate(3.2e9), "3.20 G/s");
    }
}

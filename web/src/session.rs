//! One audit under way in the page, of any kind of subject: the page asks
//! in a [`Form`] (text fields, resolved by the library's request layer, so
//! every default and refusal is the library's) and hands its draws over
//! in batches, read by the library's readers exactly as `shuffle-audit
//! audit --input FILE` reads a file: decks as binary records (`u8` for
//! n ≤ 256, `u16` above), samples and picks as text lines.
//!
//! The serial test compares the deals of disjoint triples within a stream
//! (one block of a file); here each counted batch is a stream, so decks
//! are counted in whole triples and the 0 to 2 left over go to the front
//! of the next batch: the triples are those of one stream of every deck,
//! whatever sizes the page's batches have.

use shuffle_audit::audit::{CountBatches, Counts, Judged, Planned, no_progress};
use shuffle_audit::error::Front;
use shuffle_audit::ingest::{Batches, Format};
use shuffle_audit::report::Provenance;
use shuffle_audit::report::provenance::RunStart;
use shuffle_audit::request::{Form, choose};
use shuffle_audit::shuffle::declared_deck;
use shuffle_audit::study::report_files;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Decks per serial-test triple: binary batches are counted in multiples
/// of it.
const TRIPLE: usize = 3;

/// The most bytes one batch may hold: below the library reader's block
/// (2 MiB), so that a batch is read as one block, one stream.
pub const MAX_BATCH_BYTES: usize = 1 << 20;

/// The largest n the page's records carry: `u16` records hold 65,536
/// items.
pub const MAX_N: usize = 1 << 16;

/// Files by their paths in a report folder (`/`-separated), with their
/// bytes.
pub type Files = Vec<(String, Vec<u8>)>;

/// An audit under way.
pub struct Session {
    planned: Box<dyn Planned>,
    /// The level the audit is judged at.
    alpha: f64,
    /// Bytes per item of a binary record: 1 (`u8`) or 2 (`u16`,
    /// little-endian).
    width: usize,
    /// Records left over from the last batch, then room for the next one.
    buffer: Vec<u8>,
    /// Records at the front of `buffer` not yet counted (fewer than a
    /// triple).
    carried: usize,
    /// Counts merged in from other sessions ([`merge`](Self::merge)),
    /// and batches read one by one (text, or records of a kind with no
    /// batch counter).
    counts: Option<Box<dyn Counts>>,
    /// The counter binary batches are pushed into, made at the first
    /// batch: `None` until then, `Some(None)` when the kind has none.
    batches: Option<Option<CountBatches>>,
    /// When the run started, once asked for the report's files
    /// ([`report_from`](Self::report_from)).
    report: Option<SystemTime>,
}

impl Session {
    /// The audit `form` asks for, in JavaScript's words; with `preset`,
    /// the name of one of the page's `presets`, refused (suggesting the
    /// closest) when it is none of them.
    pub fn new(form: &Form, preset: Option<&str>, presets: &[&str]) -> Result<Self, String> {
        if let Some(name) = preset {
            choose("preset", name, presets).map_err(|e| e.to_string())?;
        }
        let request = form.request(Front::JavaScript).map_err(|e| e.to_string())?;
        let resolved = request.resolve().map_err(|e| e.to_string())?;
        let alpha = resolved.alpha;
        let planned = resolved
            .audits
            .into_iter()
            .next()
            .expect("an outside subject resolves to one audit");
        let n = planned.n();
        if n > MAX_N {
            return Err(format!(
                "n: {n}: JavaScript (the page, the npm package) audits at most {MAX_N} items"
            ));
        }
        Ok(Session {
            width: if n <= 256 { 1 } else { 2 },
            planned,
            alpha,
            buffer: Vec::new(),
            carried: 0,
            counts: None,
            batches: None,
            report: None,
        })
    }

    /// Asks for the files of the report the command line writes
    /// ([`report`](Self::report)) at the end, the run dated
    /// `epoch_seconds` (seconds since 1970: WebAssembly has no clock of
    /// its own).
    pub fn report_from(&mut self, epoch_seconds: f64) {
        let since = Duration::try_from_secs_f64(epoch_seconds).unwrap_or_default();
        self.report = Some(UNIX_EPOCH + since);
    }

    /// The files of the report of `audit` (report.html and .md,
    /// summary.json and .csv, comparison.png, the audit's folder), as
    /// `shuffle-audit audit --report` and Python's `write_report` write
    /// them, when [`report_from`](Self::report_from) asked for them.
    pub fn report(&self, audit: &dyn Judged) -> Option<Result<Files, String>> {
        let start = RunStart {
            time: self.report?,
            commit: None,
            dirty: None,
        };
        let call = format!(
            "shuffle-audit (JavaScript) audit of {}, seed {}",
            audit.subject(),
            audit.planned().recorded()["seed"]
        );
        let provenance = Provenance::of(&start, call.clone(), vec![call]);
        Some(report_files(audit.clone_box(), provenance).map_err(|e| e.to_string()))
    }

    /// What the library resolved: the kind, subject, n and trials.
    pub fn planned(&self) -> &dyn Planned {
        self.planned.as_ref()
    }

    /// The items of the declared deck (`deck` of the form: a shoe, a deck
    /// of cards), by item index, as the user's function is handed them
    /// (`AS`, `2S`, … six times over for `shoe:decks=6`); empty when the
    /// items are 0..n-1. A deck the function returns is written back as
    /// the indices of these items (each kind's copies in turn).
    pub fn items(&self) -> Vec<String> {
        declared_deck(self.planned.as_ref())
            .map_or_else(Vec::new, |deck| deck.relabel().labels().to_vec())
    }

    /// Bytes per item of a binary record: 1 (`u8`) or 2 (`u16`,
    /// little-endian).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Bytes per deck.
    fn record(&self) -> usize {
        self.planned.n() * self.width
    }

    /// Trials counted so far (not counting decks carried to the next
    /// batch).
    pub fn counted(&self) -> u64 {
        self.counts.as_ref().map_or(0, |c| c.trials()) + self.pushed().map_or(0, |b| b.trials())
    }

    /// The most decks one batch may hold ([`MAX_BATCH_BYTES`], less the
    /// decks carried over).
    pub fn max_batch(&self) -> usize {
        (MAX_BATCH_BYTES / self.record())
            .saturating_sub(TRIPLE)
            .max(1)
    }

    /// Room for the next `decks` decks (at most
    /// [`max_batch`](Self::max_batch)), each n little-endian items (the
    /// index of the item at each position), for the caller to fill before
    /// [`count`](Self::count).
    pub fn batch(&mut self, decks: usize) -> &mut [u8] {
        let decks = decks.min(self.max_batch());
        let start = self.carried * self.record();
        self.buffer.resize(start + decks * self.record(), 0);
        &mut self.buffer[start..]
    }

    /// Counts the first `decks` decks of the batch; with `last`, also the
    /// decks carried over (the run's end). Fails, counting nothing of the
    /// batch, on a record that is not a permutation of 0..n-1.
    pub fn count(&mut self, decks: usize, last: bool) -> Result<(), String> {
        let record = self.record();
        let total = self.carried + decks;
        let whole = if last { total } else { total - total % TRIPLE };
        if total * record > self.buffer.len() {
            return Err(format!("{decks} decks were counted but fewer were written"));
        }
        if whole > 0 {
            let format = if self.width == 1 {
                Format::U8
            } else {
                Format::U16
            };
            let bytes = std::mem::take(&mut self.buffer);
            let read = self.push(&bytes[..whole * record], format);
            self.buffer = bytes;
            read?;
        }
        self.buffer.copy_within(whole * record..total * record, 0);
        self.carried = total - whole;
        self.buffer.truncate(self.carried * record);
        Ok(())
    }

    /// Counts a batch of draws written as text, one per line (a sample's
    /// items separated by spaces, or one pick). Fails, counting nothing of
    /// the batch, on a bad line.
    pub fn count_text(&mut self, lines: &str) -> Result<(), String> {
        self.read(lines.as_bytes(), Format::Text)
    }

    /// Reads and judges `text`, every deck of the run at once (one per
    /// line), exactly as `shuffle-audit audit --input FILE` reads a text
    /// file: the way for decks whose items repeat (a shoe), whose kinds and
    /// order tests only the whole input tells. Nothing else of the session
    /// is counted.
    pub fn judge_whole(&self, text: &str) -> Result<Box<dyn Judged>, String> {
        let mut bytes = text.as_bytes();
        self.planned
            .read_given(&mut bytes, Format::Text, self.alpha, false, &no_progress)
            .map_err(|e| e.to_string())
    }

    /// Everything counted so far, as a tally file saves it (JSON): what
    /// one worker hands to another, to be merged with
    /// [`merge`](Self::merge). Fails when nothing has been counted.
    pub fn counts_json(&self) -> Result<String, String> {
        self.so_far()?
            .map(|c| c.to_json().to_string())
            .ok_or_else(|| "nothing has been counted yet".to_string())
    }

    /// Adds counts another session of the same request made
    /// ([`counts_json`](Self::counts_json)); refuses counts of another
    /// kind or shape. Counts add, so any number of workers, merged in any
    /// order, give the same counts.
    pub fn merge(&mut self, json: &str) -> Result<(), String> {
        let value =
            serde_json::from_str(json).map_err(|e| format!("counts that do not read: {e}"))?;
        let read = self.planned.counts_from(value).map_err(|e| e.to_string())?;
        match &mut self.counts {
            None => self.counts = Some(read),
            Some(so_far) => so_far.merge(read.as_ref()).map_err(|e| e.to_string())?,
        }
        Ok(())
    }

    /// Counts `bytes`, binary records of `format`, as one stream: pushed
    /// into the run's batch counter (one counter for the whole run, no
    /// read to set up per batch), or read as [`read`](Self::read) reads
    /// them when the kind has none.
    fn push(&mut self, bytes: &[u8], format: Format) -> Result<(), String> {
        if self.batches.is_none() {
            let made = self.planned.batches(format).map_err(|e| e.to_string())?;
            self.batches = Some(made);
        }
        match self.batches.as_mut().and_then(Option::as_mut) {
            Some(batches) => batches.push(bytes).map_err(|e| e.to_string()),
            None => self.read(bytes, format),
        }
    }

    /// The batch counter, once made (for a kind that has one).
    fn pushed(&self) -> Option<&dyn Batches<Box<dyn Counts>>> {
        self.batches.as_ref()?.as_deref()
    }

    /// Everything counted so far: the batch counter's counts with those
    /// read or merged in; `None` when nothing has been counted.
    fn so_far(&self) -> Result<Option<Box<dyn Counts>>, String> {
        let pushed = self.pushed().filter(|b| b.trials() > 0).map(|b| b.counts());
        Ok(match (pushed, &self.counts) {
            (None, None) => None,
            (None, Some(counts)) => Some(counts.clone_box()),
            (Some(pushed), None) => Some(pushed),
            (Some(mut pushed), Some(counts)) => {
                pushed.merge(counts.as_ref()).map_err(|e| e.to_string())?;
                Some(pushed)
            }
        })
    }

    /// Reads `bytes` as one stream and adds their counts.
    fn read(&mut self, mut bytes: &[u8], format: Format) -> Result<(), String> {
        let read = self
            .planned
            .read_counts(&mut bytes, format, &no_progress)
            .map_err(|e| e.to_string())?;
        match &mut self.counts {
            None => self.counts = Some(read),
            Some(so_far) => so_far.merge(read.as_ref()).map_err(|e| e.to_string())?,
        }
        Ok(())
    }

    /// The audit of what has been counted so far, judged alone as the
    /// command line judges one audit, with its findings; `seconds` is the
    /// time taken.
    pub fn judge(&self, seconds: f64) -> Result<Box<dyn Judged>, String> {
        let counts = self
            .so_far()?
            .ok_or_else(|| "nothing has been counted yet".to_string())?;
        let mut judged = self
            .planned
            .judge_counts(counts, seconds, self.alpha)
            .map_err(|e| e.to_string())?;
        judged.find(1);
        Ok(judged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The report's files are the command line's (the HTML and Markdown
    /// beside the summary, the audit's files in its folder), dated as
    /// asked; without asking there are none.
    #[test]
    fn the_report_is_written_as_the_command_line_writes_it_when_asked() {
        let form = Form {
            holds: "pick".to_string(),
            name: "coin".to_string(),
            weights: "1,1".to_string(),
            base: "0".to_string(),
            trials: "100".to_string(),
            ..Form::default()
        };
        let mut session = Session::new(&form, None, &[]).expect("a good form");
        session.count_text(&"0\n1\n".repeat(50)).expect("picks");
        let audit = session.judge(1.0).expect("counted");
        assert!(session.report(audit.as_ref()).is_none());
        session.report_from(1_764_000_000.0);
        let files = session
            .report(audit.as_ref())
            .expect("asked")
            .expect("written");
        let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
        for name in ["summary.json", "summary.csv", "report.html", "report.md"] {
            assert!(names.contains(&name), "{names:?}");
        }
        assert!(names.iter().any(|n| n.starts_with("coin/")), "{names:?}");
        let markdown = &files.iter().find(|(n, _)| n == "report.md").unwrap().1;
        let markdown = String::from_utf8_lossy(markdown);
        assert!(markdown.contains("2025-11-24T16:00:00Z"), "{markdown}");
        assert!(markdown.contains("audit of coin, seed"), "{markdown}");
    }
}

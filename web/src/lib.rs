//! The shuffle-audit library in the browser: the page's JavaScript runs the
//! user's shuffle or sampler and hands its draws over in batches;
//! everything else (the request's defaults and refusals, counting, tests,
//! verdicts, the words they are stated in, the picture's colours and the
//! files) happens here, in the library's own code, so a page audit means
//! exactly what `shuffle-audit audit --input` means.
//!
//! [`session`] holds the one session of every kind of subject (plain Rust,
//! tested natively against the command line) and [`view`] what the page
//! shows of it; this module only exports them to JavaScript with
//! wasm-bindgen.

pub mod session;
pub mod view;

use serde::Deserialize;
use shuffle_audit::audit::Judged;
use shuffle_audit::error::Front;
use shuffle_audit::request::Form;
use shuffle_audit::study::Summary;
use wasm_bindgen::prelude::*;

/// The library's messages as JavaScript errors.
fn js(message: String) -> JsError {
    JsError::new(&message)
}

/// What the page asks, as JSON: the form's fields, and the preset named
/// in the link with the page's presets (an unknown one is refused).
#[derive(Deserialize)]
struct Asked {
    #[serde(flatten)]
    form: Form,
    #[serde(default)]
    preset: Option<String>,
    #[serde(default)]
    presets: Vec<String>,
}

/// The module's memory (a `WebAssembly.Memory`), where
/// [`Session::batch`] points: JavaScript writes decks into its buffer.
/// The glue of every wasm-bindgen target exports this function, so that
/// the page and Node reach the memory the same way.
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// An audit under way ([`session::Session`]).
#[wasm_bindgen]
pub struct Session(session::Session);

#[wasm_bindgen]
impl Session {
    /// The audit a form asks for (JSON of [`Form`]'s fields, each text,
    /// an empty one the library's default; with `preset` and `presets`),
    /// resolved by the library; refused with its message.
    #[wasm_bindgen(constructor)]
    pub fn new(asked: &str) -> Result<Session, JsError> {
        let asked: Asked =
            serde_json::from_str(asked).map_err(|e| js(format!("a bad request: {e}")))?;
        let presets: Vec<&str> = asked.presets.iter().map(String::as_str).collect();
        session::Session::new(&asked.form, asked.preset.as_deref(), &presets)
            .map(Session)
            .map_err(js)
    }

    /// The trials the audit runs (the library's default for n unless
    /// asked).
    pub fn trials(&self) -> f64 {
        self.0.planned().trials() as f64
    }

    /// The seed as the library read it, for the page's generator.
    pub fn seed(&self) -> f64 {
        self.0.planned().recorded()["seed"].as_f64().unwrap_or(0.0)
    }

    /// Items per deck, or the population sampled.
    pub fn n(&self) -> usize {
        self.0.planned().n()
    }

    /// The declared deck's items by index (a shoe's card labels), handed
    /// to the user's shuffle; empty for the items 0..n-1.
    pub fn items(&self) -> Vec<String> {
        self.0.items()
    }

    /// Bytes per item of a deck's record: 1 (`u8`) or 2 (`u16`,
    /// little-endian).
    pub fn width(&self) -> usize {
        self.0.width()
    }

    /// The most decks one batch may hold.
    #[wasm_bindgen(js_name = maxBatch)]
    pub fn max_batch(&self) -> usize {
        self.0.max_batch()
    }

    /// Where in the module's memory to write the next `decks` decks (valid
    /// until the next call into the module).
    pub fn batch(&mut self, decks: usize) -> *mut u8 {
        self.0.batch(decks).as_mut_ptr()
    }

    /// Counts the first `decks` decks written at [`batch`](Self::batch);
    /// `last` at the run's end.
    pub fn count(&mut self, decks: usize, last: bool) -> Result<(), JsError> {
        self.0.count(decks, last).map_err(js)
    }

    /// Counts a batch of samples or picks, one per line.
    #[wasm_bindgen(js_name = countText)]
    pub fn count_text(&mut self, lines: &str) -> Result<(), JsError> {
        self.0.count_text(lines).map_err(js)
    }

    /// Trials counted so far.
    pub fn counted(&self) -> f64 {
        self.0.counted() as f64
    }

    /// Everything counted so far, as JSON for another session's
    /// [`mergeCounts`](Self::merge_counts) (a worker's share of the run).
    #[wasm_bindgen(js_name = countsJson)]
    pub fn counts_json(&self) -> Result<String, JsError> {
        self.0.counts_json().map_err(js)
    }

    /// Adds the counts another session of the same request made.
    #[wasm_bindgen(js_name = mergeCounts)]
    pub fn merge_counts(&mut self, json: &str) -> Result<(), JsError> {
        self.0.merge(json).map_err(js)
    }

    /// Asks for the files of the whole report at the end
    /// ([`session::Session::report`]: report.html and .md beside
    /// summary.json, the audit's files in its folder) in place of the
    /// audit's own files, the run dated `epochSeconds` (seconds since
    /// 1970); what the npm package writes.
    #[wasm_bindgen(js_name = reportFrom)]
    pub fn report_from(&mut self, epoch_seconds: f64) {
        self.0.report_from(epoch_seconds);
    }

    /// The audit of `text`, every deck of the run as lines of the text
    /// format, read whole as the command line reads a file (decks whose
    /// items repeat: a shoe), with its files.
    #[wasm_bindgen(js_name = judgeText)]
    pub fn judge_text(&self, text: &str) -> Result<Shown, JsError> {
        let audit = self.0.judge_whole(text).map_err(js)?;
        self.shown(audit.as_ref(), true)
    }

    /// The audit of what was counted, in `seconds`; with `files`, every
    /// file the command line writes for it too (the end of the run).
    pub fn judge(&self, seconds: f64, files: bool) -> Result<Shown, JsError> {
        let audit = self.0.judge(seconds).map_err(js)?;
        self.shown(audit.as_ref(), files)
    }
}

impl Session {
    /// What is shown of `audit`; with `files`, the report's files if
    /// [`reportFrom`](Self::report_from) asked for them, else the audit's
    /// own ([`own_files`]).
    fn shown(&self, audit: &dyn Judged, files: bool) -> Result<Shown, JsError> {
        let written = match files.then(|| self.0.report(audit)) {
            None => Vec::new(),
            Some(Some(report)) => report.map_err(js)?,
            Some(None) => own_files(audit).map_err(js)?,
        };
        Ok(Shown::of(audit, written))
    }
}

/// `audit`'s `summary.json` and the files the command line writes beside
/// its report (what the page offers to download).
fn own_files(audit: &dyn Judged) -> Result<session::Files, String> {
    let boxed = audit.clone_box();
    let summary = Summary::of(
        std::slice::from_ref(&boxed),
        audit.alpha(),
        &Default::default(),
    );
    let mut written = vec![("summary.json".to_string(), summary.to_json().into_bytes())];
    written.extend(audit.files().map_err(|e| e.to_string())?);
    Ok(written)
}

/// A judged audit, for the page and the npm package: its view (JSON),
/// picture colours, counts, failure message and downloadable files.
#[wasm_bindgen]
pub struct Shown {
    drawn: view::Drawn,
    files: session::Files,
    /// Why the audit is not "no bias detected", worded for JavaScript.
    failure: String,
    /// The counts as rows ([`Judged::table`]).
    table: Vec<Vec<u64>>,
    /// A folder-safe name of the subject.
    slug: String,
}

impl Shown {
    /// What the page shows of `audit`, with `files` (none for a live
    /// look).
    fn of(audit: &dyn Judged, files: session::Files) -> Self {
        Shown {
            drawn: view::Drawn::of(audit),
            files,
            failure: audit.failure_message(Front::JavaScript),
            table: audit.table(),
            slug: audit.slug(),
        }
    }
}

#[wasm_bindgen]
impl Shown {
    /// The verdict, its figures and the test table, as JSON
    /// ([`view::View`]).
    #[wasm_bindgen(getter)]
    pub fn view(&self) -> String {
        serde_json::to_string(&self.drawn.view).expect("a view serialises")
    }

    /// The picture's cells as RGBA bytes, row by row.
    #[wasm_bindgen(getter)]
    pub fn rgba(&self) -> Vec<u8> {
        self.drawn.rgba.clone()
    }

    /// The colour bar as RGBA bytes, from 1/X (first) to X (last).
    #[wasm_bindgen(getter)]
    pub fn legend(&self) -> Vec<u8> {
        self.drawn.legend.clone()
    }

    /// Why the audit is not "no bias detected", in the words of the
    /// library's `assert_fair` (the decisive test, its p and the largest
    /// deviation, or for an inconclusive run the trials a verdict needs,
    /// spelled `trials: 4629`); what `assertFair` throws.
    #[wasm_bindgen(getter, js_name = failureMessage)]
    pub fn failure_message(&self) -> String {
        self.failure.clone()
    }

    /// The counts every front shows, as JSON rows: a shuffle's
    /// position-by-value matrix (by kind for a deck whose items repeat), a
    /// sampler's draws per item as one row.
    #[wasm_bindgen(getter)]
    pub fn table(&self) -> String {
        serde_json::to_string(&self.table).expect("counts serialise")
    }

    /// A folder-safe name of the subject (where a failing assertion
    /// writes its report).
    #[wasm_bindgen(getter)]
    pub fn slug(&self) -> String {
        self.slug.clone()
    }

    /// The names of the files (none for a live look): `summary.json` first.
    #[wasm_bindgen(js_name = fileNames)]
    pub fn file_names(&self) -> Vec<String> {
        self.files.iter().map(|(name, _)| name.clone()).collect()
    }

    /// The bytes of the file called `name` (empty if there is none).
    pub fn file(&self, name: &str) -> Vec<u8> {
        self.files
            .iter()
            .find(|(n, _)| n == name)
            .map_or_else(Vec::new, |(_, bytes)| bytes.clone())
    }
}

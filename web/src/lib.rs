//! The shuffle-audit library in the browser: the page's JavaScript runs the
//! user's shuffle or sampler and hands its permutations or samples over in
//! batches; everything statistical (counting, tests, verdicts, the words
//! they are stated in, the heatmap's colours, `summary.json` and
//! `counts.csv`) happens here, in the library's own code, so a page audit
//! means exactly what `shuffle-audit audit --input` means.
//!
//! [`shuffles`] and [`samples`] hold the sessions (plain Rust, tested
//! natively against the command line); this module only exports them to
//! JavaScript with wasm-bindgen.

pub mod samples;
pub mod shuffles;
pub mod view;

use wasm_bindgen::prelude::*;

/// The library's messages as JavaScript errors.
fn js(message: String) -> JsError {
    JsError::new(&message)
}

/// A finished (or provisional) judgement, for the page: its view (JSON),
/// heatmap colours and downloadable files.
#[wasm_bindgen]
pub struct Judged {
    view: String,
    rgba: Vec<u8>,
    legend: Vec<u8>,
    summary: String,
    counts: String,
}

#[wasm_bindgen]
impl Judged {
    /// The verdict, its figures and the test table, as JSON ([`view::View`]).
    #[wasm_bindgen(getter)]
    pub fn view(&self) -> String {
        self.view.clone()
    }

    /// The heatmap's cells as RGBA bytes, row by row.
    #[wasm_bindgen(getter)]
    pub fn rgba(&self) -> Vec<u8> {
        self.rgba.clone()
    }

    /// The colour bar as RGBA bytes, from 1/X (first) to X (last).
    #[wasm_bindgen(getter)]
    pub fn legend(&self) -> Vec<u8> {
        self.legend.clone()
    }

    /// `summary.json` in the command line's schema (empty for a live look).
    #[wasm_bindgen(getter)]
    pub fn summary(&self) -> String {
        self.summary.clone()
    }

    /// `counts.csv` (`inclusion.csv` for a sampler; empty for a live look).
    #[wasm_bindgen(getter)]
    pub fn counts(&self) -> String {
        self.counts.clone()
    }
}

/// A shuffle audit under way ([`shuffles::ShuffleSession`]).
#[wasm_bindgen]
pub struct ShuffleRun(shuffles::ShuffleSession);

#[wasm_bindgen]
impl ShuffleRun {
    /// An audit of `trials` shuffles of `n` items; see
    /// [`shuffles::ShuffleSession::new`].
    #[wasm_bindgen(constructor)]
    pub fn new(n: usize, trials: f64, seed: f64, name: &str, from: &str) -> Result<Self, JsError> {
        shuffles::ShuffleSession::new(n, whole(trials)?, whole(seed)?, name, from)
            .map(ShuffleRun)
            .map_err(js)
    }

    /// Bytes per item of a record: 1 (`u8`) or 2 (`u16`, little-endian).
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

    /// Decks counted so far.
    pub fn counted(&self) -> f64 {
        self.0.counted() as f64
    }

    /// The audit of what was counted, in `seconds`; with `files`, its
    /// `summary.json` and `counts.csv` too (the end of the run).
    pub fn judge(&self, seconds: f64, files: bool) -> Result<Judged, JsError> {
        let a = self.0.judge(seconds).map_err(js)?;
        let (rgba, legend) = view::shuffle_rgba(&a);
        Ok(Judged {
            view: view::View::of_shuffle(&a).to_json(),
            rgba,
            legend,
            summary: if files {
                shuffles::summary_json(&a)
            } else {
                String::new()
            },
            counts: if files {
                shuffles::counts(&a)
            } else {
                String::new()
            },
        })
    }
}

/// A sampler audit under way ([`samples::SamplerSession`]).
#[wasm_bindgen]
pub struct SamplerRun(samples::SamplerSession);

#[wasm_bindgen]
impl SamplerRun {
    /// An audit of `trials` draws from `n` items of `kind` (`sample`,
    /// `ordered`, `pick`), `weights` (empty for none) for a weighted pick;
    /// see [`samples::SamplerSession::new`].
    #[wasm_bindgen(constructor)]
    pub fn new(
        n: usize,
        kind: &str,
        weights: Vec<f64>,
        trials: f64,
        seed: f64,
        name: &str,
        from: &str,
    ) -> Result<Self, JsError> {
        let weights = if weights.is_empty() {
            None
        } else {
            Some(weights.into_iter().map(whole).collect::<Result<_, _>>()?)
        };
        samples::SamplerSession::new(n, kind, weights, whole(trials)?, whole(seed)?, name, from)
            .map(SamplerRun)
            .map_err(js)
    }

    /// Counts a batch of samples, one per line.
    pub fn count(&mut self, lines: &str) -> Result<(), JsError> {
        self.0.count(lines).map_err(js)
    }

    /// Samples counted so far.
    pub fn counted(&self) -> f64 {
        self.0.counted() as f64
    }

    /// The audit of what was counted, as [`ShuffleRun::judge`].
    pub fn judge(&self, seconds: f64, files: bool) -> Result<Judged, JsError> {
        let a = self.0.judge(seconds).map_err(js)?;
        let (rgba, legend) = view::sampler_rgba(&a);
        Ok(Judged {
            view: view::View::of_sampler(&a).to_json(),
            rgba,
            legend,
            summary: if files {
                samples::summary_json(&a)
            } else {
                String::new()
            },
            counts: if files {
                samples::inclusion(&a)
            } else {
                String::new()
            },
        })
    }
}

/// A JavaScript number that must be a whole number from 0 to 2^53.
fn whole(x: f64) -> Result<u64, JsError> {
    if x.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&x) {
        Ok(x as u64)
    } else {
        Err(JsError::new(&format!(
            "{x} is not a whole number from 0 to 2^53"
        )))
    }
}

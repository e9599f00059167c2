//! Audits of samplers: k of N items (in no order, or in the order drawn)
//! or weighted picks, from a Python function run here or from draws
//! already made, read and judged as the command line reads and judges
//! `--kind sample|ordered|pick`.

use crate::errors::to_py;
use crate::feeds;
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use shuffle_audit::custom::{Own, OwnSampler};
use shuffle_audit::engine::no_progress;
use shuffle_audit::ingest::samples::{self, Base, IngestedSamples, SampleKind, SampleOptions};
use shuffle_audit::output::samples::{SampleSummary, pictures};
use shuffle_audit::sampler::audit::{self as sampling, SampleAudit};
use shuffle_audit::sampler::run::{ALL_SAMPLES, SampleSpec};
use shuffle_audit::sampler::subject::{FnSampler, OutsideSampler, SampleFeed, SamplerSubject};
use shuffle_audit::source::SourceKind;
use std::io::Read;

/// A finished, judged audit of a sampler, as the Python `Result` wraps it.
#[pyclass(module = "shuffle_audit._native", frozen)]
pub struct SamplerAudit {
    audit: SampleAudit,
}

/// The type of a sampler written in Rust, only to name the message of
/// Rust's `assert_fair_sample` (which does not depend on the function).
type RustSampler = OwnSampler<FnSampler<fn(&mut dyn rand::Rng) -> Vec<u32>>>;

#[pymethods]
impl SamplerAudit {
    /// The verdict in words: `biased`, `no bias detected` or
    /// `inconclusive`.
    fn verdict(&self) -> String {
        self.audit.verdict().to_string()
    }

    /// The adjusted p as every output states it (`< 1e-12`, `0.031`).
    fn p_text(&self) -> String {
        shuffle_audit::output::format_p(self.audit.log10_p_adjusted())
    }

    /// The run's `summary.json` (what `shuffle-audit audit --kind ...
    /// --json` prints), as text.
    fn summary_json(&self) -> String {
        SampleSummary::of(std::slice::from_ref(&self.audit), self.audit.alpha()).to_json()
    }

    /// What the run could have detected, in the verdict table's words.
    fn could_detect(&self) -> String {
        shuffle_audit::report::samples::detectable_words(&self.audit).replace(" per item", "")
    }

    /// Why the audit is not "no bias detected", in the words of Rust's
    /// `assert_fair_sample` (without the report line).
    fn failure_message(&self) -> String {
        <RustSampler as Own>::failure_message(&self.audit)
    }

    /// How often each item was drawn (picked, or included in a sample).
    fn counts<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_slice(py, self.audit.tally().inclusion())
    }

    /// The report's inclusion chart, as PNG bytes.
    fn heatmap_png<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let (_, draw) = pictures(&self.audit)
            .into_iter()
            .next()
            .ok_or_else(|| PyValueError::new_err("no picture"))?;
        let png = draw().map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyBytes::new(py, &png))
    }

    /// Writes the report into `dir`; returns the HTML's path.
    fn write_report(&self, py: Python<'_>, dir: std::path::PathBuf) -> PyResult<String> {
        let path = py
            .allow_threads(|| self.audit.write_report(&dir))
            .map_err(to_py)?;
        Ok(path.display().to_string())
    }
}

/// `sample`, `ordered` or `pick`.
fn kind_of(kind: &str) -> PyResult<SampleKind> {
    match kind {
        "sample" => Ok(SampleKind::Sample),
        "ordered" => Ok(SampleKind::Ordered),
        "pick" => Ok(SampleKind::Pick),
        other => Err(PyValueError::new_err(format!(
            "kind '{other}': one of sample, ordered, pick"
        ))),
    }
}

/// The samples a default audit of k of `n` (or of picks against
/// `weights`) runs at `alpha` (Rust's `custom::default_sample_trials`).
#[pyfunction]
#[pyo3(signature = (n, k, ordered, weights, alpha))]
pub fn default_sample_trials(
    n: usize,
    k: usize,
    ordered: bool,
    weights: Option<Vec<u64>>,
    alpha: f64,
) -> u64 {
    shuffle_audit::custom::default_sample_trials(n, k, ordered, weights.as_deref(), alpha)
}

/// Audits a sampler: `draw(rng)` called `trials` times when `draw` is
/// given (returning k items, or one item for a pick), else the draws of
/// `draws` (an iterable of samples, or of items for picks).
#[pyfunction]
#[pyo3(signature = (draw, rng, draws, n, k, kind, weights, trials, base, name, seed, alpha))]
#[allow(clippy::too_many_arguments)]
pub fn run_sampler(
    py: Python<'_>,
    draw: Option<Py<PyAny>>,
    rng: Option<Py<PyAny>>,
    draws: Option<&Bound<'_, PyAny>>,
    n: usize,
    k: Option<usize>,
    kind: &str,
    weights: Option<Vec<u64>>,
    trials: Option<u64>,
    base: Option<u8>,
    name: String,
    seed: u64,
    alpha: f64,
) -> PyResult<SamplerAudit> {
    shuffle_audit::values::check_alpha(alpha).map_err(to_py)?;
    let kind = kind_of(kind)?;
    let pick = kind == SampleKind::Pick;
    let base = match base {
        None => None,
        Some(b) => Some(Base::parse(&b.to_string()).map_err(to_py)?),
    };
    let draw_given = draw.is_some();
    let (feed, trials, reader): (SampleFeed, u64, Box<dyn ReadOutcome + Send>) = match (draw, draws)
    {
        (Some(draw), None) => {
            let k = if pick {
                1
            } else {
                k.ok_or_else(|| PyValueError::new_err("k is needed to run a sampler"))?
            };
            let trials = trials.unwrap_or_else(|| {
                default_sample_trials(n, k, kind.ordered(), weights.clone(), alpha)
            });
            let rng = rng.ok_or_else(|| PyValueError::new_err("a random generator is needed"))?;
            let reader = feeds::lines_drawn(draw, rng, trials, pick);
            let from = format!("drawn by a Python function, its generator seeded with {seed}");
            (SampleFeed::Given { from }, trials, Box::new(reader))
        }
        (None, Some(draws)) => {
            let iter = draws.try_iter().map_err(|_| {
                PyValueError::new_err("draws must be an iterable of samples (or of picks)")
            })?;
            let reader = feeds::lines_of(iter.unbind(), pick);
            (
                SampleFeed::Given {
                    from: "handed over from Python".to_string(),
                },
                trials.unwrap_or(ALL_SAMPLES),
                Box::new(reader),
            )
        }
        _ => return Err(PyValueError::new_err("give a sampler or draws, not both")),
    };
    let function = draw_given;
    let subject = SamplerSubject::Outside(OutsideSampler {
        name: name.clone(),
        feed,
        kind,
        base: if function { Some(Base::Zero) } else { base },
    });
    let mut spec = SampleSpec::new(subject, n, trials, SourceKind::Chacha8.into(), seed);
    spec.weights = weights;
    let opts = SampleOptions {
        n,
        kind,
        base: if function { Some(Base::Zero) } else { base },
        max_samples: (trials != ALL_SAMPLES).then_some(trials),
        weighted: spec.weights.is_some(),
    };
    let mut reader = reader;
    let (read, seconds) = feeds::timed(py, || {
        samples::read_samples(&mut reader, &name, &opts, &no_progress)
    });
    let read = reader.outcome(read)?;
    Ok(SamplerAudit {
        audit: judged(&spec, read, seconds, alpha, !function),
    })
}

/// A reader of Python's draws that can say which Python exception stopped
/// it.
trait ReadOutcome: Read {
    /// The result of a read: the Python exception first, if one stopped it.
    fn outcome(
        &mut self,
        read: shuffle_audit::Result<IngestedSamples>,
    ) -> PyResult<IngestedSamples>;
}

impl<F> ReadOutcome for feeds::Pull<F>
where
    F: FnMut(Python<'_>, &mut Vec<u8>) -> PyResult<bool> + Send,
{
    fn outcome(
        &mut self,
        read: shuffle_audit::Result<IngestedSamples>,
    ) -> PyResult<IngestedSamples> {
        feeds::Pull::outcome(self, read)
    }
}

/// The judged audit of samples read for `spec`, alone in its run
/// (`sampler::audit::of_read`); `feed` keeps what was read (how items were
/// numbered) for the report.
fn judged(
    spec: &SampleSpec,
    read: IngestedSamples,
    seconds: f64,
    alpha: f64,
    feed: bool,
) -> SampleAudit {
    let mut audit = sampling::of_read(spec, read, seconds, alpha, !feed);
    sampling::judge(std::slice::from_mut(&mut audit), alpha);
    audit
}

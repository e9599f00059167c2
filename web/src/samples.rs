//! A sampler audited a batch at a time: the page's samples (k distinct
//! items of 0..N-1 per line, or one pick per line) are read by the
//! library's sample reader exactly as `shuffle-audit audit --kind sample
//! --input FILE` reads a file, and judged as the command line judges it.

use shuffle_audit::audit::DEFAULT_ALPHA;
use shuffle_audit::engine::no_progress;
use shuffle_audit::ingest::samples::{self, Base, IngestedSamples, SampleKind, SampleOptions};
use shuffle_audit::output::samples::{SampleSummary, inclusion_csv};
use shuffle_audit::sampler::audit::{self as sampling, SampleAudit};
use shuffle_audit::sampler::run::SampleSpec;
use shuffle_audit::sampler::subject::{OutsideSampler, SampleFeed, SamplerSubject};
use shuffle_audit::source::SourceKind;

/// A sampler audit under way.
pub struct SamplerSession {
    spec: SampleSpec,
    opts: SampleOptions,
    name: String,
    read: Option<IngestedSamples>,
}

/// `sample`, `ordered` or `pick`, as on the command line (`--kind`).
pub fn kind_of(kind: &str) -> Result<SampleKind, String> {
    match kind {
        "sample" => Ok(SampleKind::Sample),
        "ordered" => Ok(SampleKind::Ordered),
        "pick" => Ok(SampleKind::Pick),
        other => Err(format!("kind '{other}': one of sample, ordered, pick")),
    }
}

impl SamplerSession {
    /// An audit of `trials` draws from a population of `n` items (0..n-1)
    /// of `kind`; `weights` (one per item) for a weighted pick. `name`,
    /// `from` and `seed` as for [`crate::shuffles::ShuffleSession::new`].
    pub fn new(
        n: usize,
        kind: &str,
        weights: Option<Vec<u64>>,
        trials: u64,
        seed: u64,
        name: &str,
        from: &str,
    ) -> Result<Self, String> {
        let kind = kind_of(kind)?;
        if trials == 0 {
            return Err("trials must be at least 1".to_string());
        }
        if let Some(w) = &weights
            && w.len() != n
        {
            return Err(format!("{} weights for N = {n} items", w.len()));
        }
        let subject = SamplerSubject::Outside(OutsideSampler {
            name: name.to_string(),
            feed: SampleFeed::Given {
                from: from.to_string(),
            },
            kind,
            base: Some(Base::Zero),
        });
        let mut spec = SampleSpec::new(subject, n, trials, SourceKind::Chacha8.into(), seed);
        spec.weights = weights;
        let opts = SampleOptions {
            n,
            kind,
            base: Some(Base::Zero),
            max_samples: None,
            weighted: spec.weights.is_some(),
        };
        Ok(SamplerSession {
            spec,
            opts,
            name: name.to_string(),
            read: None,
        })
    }

    /// Samples counted so far.
    pub fn counted(&self) -> u64 {
        self.read.as_ref().map_or(0, |r| r.tally.trials())
    }

    /// Counts a batch of samples, one per line (items separated by spaces).
    /// Fails, counting nothing of the batch, on a bad line.
    pub fn count(&mut self, lines: &str) -> Result<(), String> {
        let read = samples::read_samples(lines.as_bytes(), &self.name, &self.opts, &no_progress)
            .map_err(|e| e.to_string())?;
        match &mut self.read {
            None => self.read = Some(read),
            Some(so_far) => {
                if so_far.tally.k() != read.tally.k() {
                    return Err(format!(
                        "{}: a sample of {} items after samples of {}",
                        self.name,
                        read.tally.k(),
                        so_far.tally.k()
                    ));
                }
                so_far.tally.merge(&read.tally);
            }
        }
        Ok(())
    }

    /// The audit of what has been counted so far, judged alone as the
    /// command line judges one audit; `seconds` is the time taken.
    pub fn judge(&self, seconds: f64) -> Result<SampleAudit, String> {
        let read = self
            .read
            .clone()
            .ok_or_else(|| "no samples have been counted yet".to_string())?;
        let mut a = sampling::of_read(&self.spec, read, seconds, DEFAULT_ALPHA, true);
        sampling::judge(std::slice::from_mut(&mut a), DEFAULT_ALPHA);
        Ok(a)
    }
}

/// The audit's `summary.json`, as `shuffle-audit audit --kind ... --json`
/// prints it.
pub fn summary_json(a: &SampleAudit) -> String {
    SampleSummary::of(std::slice::from_ref(a), a.alpha()).to_json()
}

/// The audit's `inclusion.csv` (`item,count`), as the command line writes
/// it.
pub fn inclusion(a: &SampleAudit) -> String {
    inclusion_csv(a)
}

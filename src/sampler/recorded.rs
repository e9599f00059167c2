//! What a tally file and `run.json` record of a sampler audit's spec:
//! everything that decides its counts, enough to rebuild the spec and to
//! tell two runs apart.

use super::Sampler;
use super::subject::Samplers;
use crate::audit::Spec;
use crate::error::{Error, Result};
use crate::source::SourceSpec;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Everything that decides a sampler audit's counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recorded {
    /// The sampler with its parameters (`floyd:k=3`), or the name of one
    /// from outside.
    pub subject: String,
    /// The population size N.
    pub n: usize,
    /// The integer weights of a weighted pick; absent for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<Vec<u64>>,
    /// Samples of the whole run.
    pub trials: u64,
    /// Random source with its parameters.
    pub rng: String,
    /// Seed.
    pub seed: u64,
}

impl Recorded {
    /// The record of `spec`.
    pub fn of(spec: &Spec<Samplers>) -> Self {
        Self {
            subject: spec.subject.to_string(),
            n: spec.n,
            weights: spec.options.weights.clone(),
            trials: spec.trials,
            rng: spec.source.to_string(),
            seed: spec.seed,
        }
    }

    /// The record in `value`.
    pub fn from_value(value: &Value) -> Result<Self> {
        serde_json::from_value(value.clone())
            .map_err(|e| Error::bad_input(format!("not the record of a sampler audit: {e}")))
    }

    /// The spec of a built-in sampler recorded here, run on `threads`
    /// workers (which do not change the counts); refuses names that do not
    /// parse.
    pub fn to_spec(&self, threads: Option<usize>) -> Result<Spec<Samplers>> {
        let mut spec = Spec::new(
            Sampler::parse(&self.subject)?,
            self.n,
            self.trials,
            SourceSpec::parse(&self.rng)?,
            self.seed,
        );
        spec.threads = threads;
        spec.options.weights = self.weights.clone();
        Ok(spec)
    }
}

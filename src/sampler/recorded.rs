//! What a tally file and `run.json` record of a sampler audit's spec:
//! everything that decides its counts, enough to rebuild the spec and to
//! tell two runs apart.

use super::Sampler;
use super::subject::{Reading, Samplers};
use crate::audit::{Feed, Outside, Spec, Subject};
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
    /// How a sampler drawn on demand by a caller's own function (a Python
    /// sampler, [`Feed::Drawn`]) drew its samples, in the report's words;
    /// absent for a built-in sampler. Its samples are counted chunk by
    /// chunk as a built-in's (see [`crate::shard::drawn`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawn: Option<String>,
    /// How the samples of a sampler drawn on demand are read (samples,
    /// ordered samples or picks, their base and k); present with `drawn`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<Reading>,
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
            drawn: spec.subject.drawn().map(|(from, _)| from.to_string()),
            reading: spec.subject.drawn().map(|(_, reading)| reading.clone()),
        }
    }

    /// The record in `value`.
    pub fn from_value(value: &Value) -> Result<Self> {
        serde_json::from_value(value.clone())
            .map_err(|e| Error::bad_input(format!("not the record of a sampler audit: {e}")))
    }

    /// The spec of a built-in sampler recorded here (or of a sampler
    /// drawn on demand by a caller's function), run on `threads` workers
    /// (which do not change the counts); refuses names that do not parse.
    pub fn to_spec(&self, threads: Option<usize>) -> Result<Spec<Samplers>> {
        let subject = match (&self.drawn, &self.reading) {
            (Some(from), Some(reading)) => Subject::Outside(Outside {
                name: self.subject.clone(),
                feed: Feed::Drawn { from: from.clone() },
                reading: reading.clone(),
            }),
            (Some(_), None) => {
                return Err(Error::bad_input(format!(
                    "the record of {} says it was drawn on demand but not how it was read",
                    self.subject
                )));
            }
            (None, _) => Subject::Builtin(Sampler::parse(&self.subject)?),
        };
        let mut spec = Spec::<Samplers>::new(
            subject,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Kind;

    #[test]
    fn a_recorded_spec_reads_back_as_the_spec() {
        for (name, n, weights) in [
            ("floyd:k=3", 10, None),
            ("minesweeper:w=3,h=2,m=2,method=floyd", 6, None),
            ("alias", 3, Some(vec![1, 0, 7])),
        ] {
            let mut spec = Spec::<Samplers>::new(
                Sampler::parse(name).unwrap(),
                n,
                1234,
                SourceSpec::parse("pcg64").unwrap(),
                99,
            );
            spec.threads = Some(3);
            spec.options.weights = weights;
            let back = Samplers::from_recorded(&Samplers::recorded(&spec), Some(3)).unwrap();
            assert_eq!(back, spec);
        }
        let bad = serde_json::json!({"subject": "flyod:k=3", "n": 10, "trials": 1, "rng": "pcg64", "seed": 1});
        assert!(Samplers::from_recorded(&bad, None).is_err());
    }
}

//! What a tally file and `run.json` record of a shuffle audit's spec:
//! everything that decides its counts, enough to rebuild the spec and to
//! tell two runs apart.

use crate::algorithm::Algorithm;
use crate::audit::{Feed, Outside, Spec, Subject};
use crate::deck::Deck;
use crate::error::{Error, Result};
use crate::source::SourceSpec;
use crate::spec::TestSet;
use crate::subject::{Reading, Shuffles};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Everything that decides one shuffle audit's counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recorded {
    /// The algorithm with its parameters (or the name of a shuffle from
    /// outside).
    pub subject: String,
    /// Elements shuffled.
    pub n: usize,
    /// Shuffles.
    pub trials: u64,
    /// Random source with its parameters.
    pub rng: String,
    /// Seed.
    pub seed: u64,
    /// Tests requested.
    pub tests: Vec<String>,
    /// The bins per side chosen for the position-by-value matrix
    /// (`--bins`, a `bins` key); absent for the default (binned with
    /// [`crate::tally::DEFAULT_BINS`] above [`crate::spec::LARGE_N`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bins: Option<usize>,
    /// The deck of a `--deck`/`--categories` audit (kinds, columns, hand);
    /// absent for plain decks of distinct items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Deck>,
    /// How a shuffle drawn on demand by a caller's own function (a Python
    /// shuffle, [`Feed::Drawn`]) drew its decks, in the report's words;
    /// absent for a built-in algorithm. Its decks are counted chunk by
    /// chunk as a built-in's (see [`crate::shard::drawn`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawn: Option<String>,
    /// How the decks of a shuffle drawn on demand are read (its starting
    /// order and categories); absent for a built-in algorithm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<Reading>,
}

impl Recorded {
    /// The record of what decides `spec`'s counts.
    pub fn of(spec: &Spec<Shuffles>) -> Self {
        Self {
            subject: spec.subject.to_string(),
            n: spec.n,
            trials: spec.trials,
            rng: spec.source.to_string(),
            seed: spec.seed,
            tests: spec
                .options
                .tests
                .iter()
                .map(|t| t.name().to_string())
                .collect(),
            bins: spec.options.tests.chosen_bins(),
            deck: spec.options.deck.as_deref().cloned(),
            drawn: spec.subject.drawn().map(|(from, _)| from.to_string()),
            reading: spec.subject.drawn().map(|(_, reading)| reading.clone()),
        }
    }

    /// The record in `value`.
    pub fn from_value(value: &Value) -> Result<Self> {
        serde_json::from_value(value.clone())
            .map_err(|e| Error::bad_input(format!("not the record of a shuffle audit: {e}")))
    }

    /// The spec of a built-in algorithm's audit recorded here (or of a
    /// shuffle drawn on demand by a caller's function), run on `threads`
    /// workers (which do not change the counts); refuses names that do not
    /// parse.
    pub fn to_spec(&self, threads: Option<usize>) -> Result<Spec<Shuffles>> {
        let tests = TestSet::parse(&self.tests.join(","), self.n)?;
        let tests = match self.bins {
            Some(bins) => tests.with_bins(bins, self.n)?,
            None => tests,
        };
        let subject = match &self.drawn {
            Some(from) => Subject::Outside(Outside {
                name: self.subject.clone(),
                feed: Feed::Drawn { from: from.clone() },
                reading: self.reading.clone().unwrap_or_default(),
            }),
            None => Subject::Builtin(Algorithm::parse(&self.subject)?),
        };
        let mut spec = Spec::<Shuffles>::new(
            subject,
            self.n,
            self.trials,
            SourceSpec::parse(&self.rng)?,
            self.seed,
        );
        spec.threads = threads;
        spec.options.tests = tests;
        Ok(match &self.deck {
            Some(deck) => spec.with_deck(deck.clone()).0,
            None => spec,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Kind;

    #[test]
    fn a_recorded_spec_reads_back_as_the_spec() {
        for (name, rng, tests, n) in [
            ("random-swap:k=100", "reseed-per-draw:d=7", "default", 9),
            (
                "sort-random-comparator:sort=merge",
                "chacha8",
                "cycles,lehmer",
                12,
            ),
            ("riffle:k=3", "pcg64", "all", 3),
        ] {
            let spec = Spec::<Shuffles> {
                threads: Some(3),
                ..Spec::new(
                    Algorithm::parse(name).unwrap(),
                    n,
                    1234,
                    SourceSpec::parse(rng).unwrap(),
                    99,
                )
                .with_options(crate::subject::ShuffleOptions::with_tests(
                    TestSet::parse(tests, n).unwrap(),
                ))
            };
            let back = Shuffles::from_recorded(&Shuffles::recorded(&spec), Some(3)).unwrap();
            assert_eq!(back.subject, spec.subject);
            assert_eq!(back.source, spec.source);
            assert_eq!(
                back.options.tests.to_string(),
                spec.options.tests.to_string()
            );
            assert_eq!(
                (back.n, back.trials, back.seed, back.threads),
                (n, 1234, 99, Some(3))
            );
            assert_eq!(back.collect(), spec.collect());
        }
    }
}

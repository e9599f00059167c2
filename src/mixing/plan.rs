//! Mixing curves requested by an experiment (`[[mixing]]` tables): how far a
//! step-by-step shuffle is from uniform after k steps, or a data loader
//! against its size (see [`crate::mixing::buffer`]).
//!
//! This module holds the validated request and the shape of a result for the
//! report; `shuffle-audit run` hands the request to [`crate::mixing`].

use crate::source::SourceSpec;
use serde::Serialize;

/// One requested mixing curve.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MixingPlan {
    /// The process (an algorithm whose record has a repeated step: see
    /// [`crate::mixing::stepped_names`]; or a data loader, see
    /// [`crate::mixing::buffer::Loader`]).
    pub process: String,
    /// Number of elements (cards).
    pub n: usize,
    /// The step counts at which to measure, increasing (for a data loader:
    /// its sizes in items).
    pub steps: Vec<u64>,
    /// Shuffles per step count.
    pub trials: u64,
    /// The random source.
    #[serde(serialize_with = "as_text")]
    pub source: SourceSpec,
    /// The seed.
    pub seed: u64,
}

impl MixingPlan {
    /// A one-line description: `random-swap, n = 10, k = 1..60, 60 points`
    /// (for a loader: `buffer-shuffle, n = 100000, sizes 1..100000, 22
    /// points`).
    pub fn describe(&self) -> String {
        let what = if self.loader().is_some() {
            "sizes "
        } else {
            "k = "
        };
        let range = match (self.steps.first(), self.steps.last()) {
            (Some(a), Some(b)) if a != b => {
                format!("{what}{a}..{b}, {} points", self.steps.len())
            }
            (Some(a), _) => format!("{what}{a}"),
            _ => "no steps".to_string(),
        };
        format!("{}, n = {}, {range}", self.process, self.n)
    }

    /// The data loader this plan measures, if it is one.
    pub fn loader(&self) -> Option<Loader> {
        Loader::ALL.into_iter().find(|l| l.name() == self.process)
    }
}

pub use crate::mixing::MixingPoint;
use crate::mixing::buffer::{Loader, LoaderCurve};

/// A measured data-loader curve, ready for a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoaderReport {
    /// What was measured.
    pub plan: MixingPlan,
    /// The curve, with its thresholds.
    pub curve: LoaderCurve,
    /// A PNG of the curve, relative to the report folder, if one was drawn.
    pub image: Option<String>,
}

/// A measured mixing curve, ready for a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MixingCurve {
    /// What was measured.
    pub plan: MixingPlan,
    /// The name of the distance (e.g. "total variation of the position-by-value marginals").
    pub metric: String,
    /// The curve, in increasing step count.
    pub points: Vec<MixingPoint>,
    /// A PNG of the curve, relative to the report folder, if one was drawn.
    pub image: Option<String>,
}

fn as_text<S: serde::Serializer>(source: &SourceSpec, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_describe_themselves() {
        let plan = MixingPlan {
            process: "riffle".into(),
            n: 52,
            steps: (1..=12).collect(),
            trials: 1000,
            source: SourceSpec::default(),
            seed: 1,
        };
        assert_eq!(plan.describe(), "riffle, n = 52, k = 1..12, 12 points");
        let loader = MixingPlan {
            process: "buffer-shuffle".into(),
            n: 1000,
            steps: vec![1, 10, 1000],
            ..plan.clone()
        };
        assert_eq!(loader.loader(), Some(Loader::Buffer));
        assert_eq!(
            loader.describe(),
            "buffer-shuffle, n = 1000, sizes 1..1000, 3 points"
        );
        let json = serde_json::to_value(&plan).unwrap();
        assert_eq!(json["source"], "chacha8");
    }
}

//! The raw shape of an experiment file, as serde reads it: every field that is
//! validated afterwards keeps its byte span, so a bad value can be reported at
//! its line and column.

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use toml::Spanned;

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawExperiment {
    pub name: Spanned<String>,
    pub purpose: Option<Spanned<String>>,
    pub n: Option<Spanned<Sizes>>,
    pub trials: Option<Spanned<Count>>,
    pub rng: Option<Spanned<String>>,
    pub seed: Option<u64>,
    pub alpha: Option<Spanned<f64>>,
    pub confidence: Option<Spanned<f64>>,
    pub threads: Option<Spanned<i64>>,
    pub out: Option<String>,
    /// `[meta]`: certificate metadata, each value a string.
    pub meta: Option<Spanned<toml::Table>>,
    #[serde(default)]
    pub audit: Vec<RawAudit>,
    #[serde(default)]
    pub mixing: Vec<RawMixing>,
    #[serde(default)]
    pub sample: Vec<RawSample>,
}

/// One `[[sample]]` table: a built-in sampler (k of N, a board or a
/// weighted pick), or a sampler from outside (`input` file or `cmd` program).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSample {
    pub sampler: Option<Spanned<String>>,
    pub input: Option<Spanned<String>>,
    pub cmd: Option<Spanned<String>>,
    pub kind: Option<Spanned<String>>,
    pub base: Option<Spanned<i64>>,
    pub name: Option<Spanned<String>>,
    pub jobs: Option<Spanned<i64>>,
    pub cmd_timeout: Option<Spanned<i64>>,
    pub requires: Option<Vec<Spanned<String>>>,
    pub n: Option<Spanned<i64>>,
    pub trials: Option<Spanned<Count>>,
    pub rng: Option<Spanned<String>>,
    pub seed: Option<u64>,
    pub weights: Option<Spanned<Vec<u64>>>,
    pub note: Option<String>,
}

/// One `[[audit]]` table: a built-in `algorithm`, or a shuffle from outside
/// (`input` file or `cmd` program) with its own keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAudit {
    pub algorithm: Option<Spanned<String>>,
    pub input: Option<Spanned<String>>,
    pub cmd: Option<Spanned<String>>,
    pub name: Option<Spanned<String>>,
    pub format: Option<Spanned<String>>,
    pub order: Option<Spanned<String>>,
    pub jobs: Option<Spanned<i64>>,
    pub cmd_timeout: Option<Spanned<i64>>,
    pub requires: Option<Vec<Spanned<String>>>,
    pub n: Option<Spanned<Sizes>>,
    pub trials: Option<Spanned<Count>>,
    pub rng: Option<Spanned<String>>,
    pub seed: Option<u64>,
    pub tests: Option<Vec<Spanned<String>>>,
    /// Bins per side of the position-by-value matrix (as `--bins`).
    pub bins: Option<Spanned<i64>>,
    pub deck: Option<Spanned<String>>,
    pub categories: Option<Spanned<String>>,
    pub hand: Option<Spanned<i64>>,
    pub note: Option<String>,
}

/// One `[[mixing]]` table: `k` is required for a stepped algorithm; for a
/// data loader it lists sizes in items and may be left out.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMixing {
    pub algorithm: Spanned<String>,
    pub n: Option<Spanned<i64>>,
    pub k: Option<Spanned<Steps>>,
    pub trials: Option<Spanned<Count>>,
    pub rng: Option<Spanned<String>>,
    pub seed: Option<u64>,
}

/// `n = 10` or `n = [10, 52]`: the sizes with the span of each.
#[derive(Debug)]
pub(super) enum Sizes {
    One(i64),
    Many(Vec<Spanned<i64>>),
}

impl<'de> Deserialize<'de> for Sizes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SizesVisitor;
        impl<'de> Visitor<'de> for SizesVisitor {
            type Value = Sizes;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer or a list of integers")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Sizes, E> {
                Ok(Sizes::One(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Sizes, E> {
                i64::try_from(v)
                    .map(Sizes::One)
                    .map_err(|_| E::custom(format!("n = {v} is too large")))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Sizes, A::Error> {
                let mut sizes = Vec::new();
                while let Some(n) = seq.next_element::<Spanned<i64>>()? {
                    sizes.push(n);
                }
                Ok(Sizes::Many(sizes))
            }
        }
        deserializer.deserialize_any(SizesVisitor)
    }
}

/// A trial count as written: `1000000`, `1e6` (a TOML float) or `"1M"`.
#[derive(Debug)]
pub(super) enum Count {
    Integer(i64),
    Float(f64),
    Text(String),
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CountVisitor;
        impl Visitor<'_> for CountVisitor {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a count such as 1000000, 1e6 or \"1M\"")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Count, E> {
                Ok(Count::Integer(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Count, E> {
                Ok(Count::Text(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Count, E> {
                Ok(Count::Float(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Count, E> {
                Ok(Count::Text(v.to_string()))
            }
        }
        deserializer.deserialize_any(CountVisitor)
    }
}

/// The step counts of a mixing curve: `k = [1, 2, 4, 8]` or
/// `k = { from = 1, to = 20, step = 1 }`.
#[derive(Debug)]
pub(super) enum Steps {
    List(Vec<Spanned<i64>>),
    Range(StepRange),
}

/// `{ from, to, step }`, both ends included.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StepRange {
    pub from: i64,
    pub to: i64,
    pub step: Option<i64>,
}

impl<'de> Deserialize<'de> for Steps {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StepsVisitor;
        impl<'de> Visitor<'de> for StepsVisitor {
            type Value = Steps;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of step counts or a table { from = .., to = .., step = .. }")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Steps, A::Error> {
                let mut steps = Vec::new();
                while let Some(k) = seq.next_element::<Spanned<i64>>()? {
                    steps.push(k);
                }
                Ok(Steps::List(steps))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Steps, A::Error> {
                StepRange::deserialize(de::value::MapAccessDeserializer::new(map)).map(Steps::Range)
            }
        }
        deserializer.deserialize_any(StepsVisitor)
    }
}

//! shuffle-audit: tells, with calibrated statistics, whether a shuffle or a
//! random sampler is fair.
//!
//! Data flows one way, on one path for every kind of subject: a
//! [`request::Request`] (what any front asked) is resolved into checked
//! [`audit::Spec`]s, each counted into a tally (built-in subjects by the
//! engine, output made outside by the [`ingest`] readers), tested with
//! calibrated tests ([`stats`]) and judged into an [`audit::Audit`]; a
//! [`study::Study`] judges its audits together and writes `summary.json`,
//! CSV, PNG and a readable [`report`]. What differs between shuffles and
//! samplers sits behind one trait, [`audit::Kind`]; a new kind of subject is
//! one `impl` of it. [`exact`] computes a shuffle's exact output law,
//! [`power`] plans trial counts, [`mixing`] draws mixing curves, an
//! [`experiment`] file describes a whole study so that it can be rerun bit
//! for bit, and [`shard`] cuts a run into shards counted anywhere and merges
//! them back into the one run. The command line ([`cli`], behind the default
//! `cli` feature) is a thin front over this library.
//!
//! ```
//! use shuffle_audit::audit::{self, Spec, no_progress};
//! use shuffle_audit::{Kind, Shuffles, source::SourceSpec, stats::Verdict};
//!
//! # fn main() -> shuffle_audit::Result<()> {
//! let naive = Shuffles::parse("naive-swap")?;
//! let spec = Spec::<Shuffles>::new(naive, 10, 100_000, SourceSpec::parse("chacha8")?, 1);
//! let result = audit::run(&spec, audit::DEFAULT_ALPHA, &no_progress)?;
//! assert_eq!(result.verdict(), Verdict::Biased);
//! // Every test that saw the bias, strongest evidence first (the decisive one leads).
//! let seen: Vec<&str> = result.seen_by().iter().map(|t| t.test.name()).collect();
//! assert_eq!(seen[0], "position-value");
//! println!("seen by: {}", seen.join(", "));
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

mod algorithm;
pub mod audit;
#[cfg(feature = "cli")]
mod bench;
#[cfg(feature = "cli")]
pub mod cli;
mod custom;
mod deck;
mod digest;
mod engine;
pub mod error;
pub mod exact;
pub mod experiment;
mod format;
pub mod ingest;
pub mod mixing;
mod output;
mod pacing;
mod params;
mod permutation;
mod plot;
pub mod power;
pub mod report;
pub mod request;
pub mod sampler;
#[cfg(feature = "cli")]
mod selftest;
mod sequential;
pub mod shard;
pub mod shuffle;
pub mod source;
mod spec;
pub mod stats;
pub mod study;
mod subject;
mod subsets;
mod tally;
mod values;

/// The README's Rust blocks, compiled and run by `cargo test` as doc tests
/// so that what it shows stays true (never built otherwise).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The book in docs/: each chapter compiled and run as doc tests.
#[cfg(doctest)]
mod book;

// The small front a test suite needs: assert a shuffle or a sampler fair,
// or build an audit, read its verdict, and match the kind of an error.
pub use audit::{Audit, Kind, Spec};
pub use custom::{
    CustomAudit, Own, OwnSampler, OwnShuffle, assert_fair, assert_fair_picks, assert_fair_sample,
};
pub use error::{Error, ErrorKind, Result};
pub use sampler::{Sample, Samplers};
pub use shuffle::{Shuffle, Shuffles};
pub use stats::Verdict;

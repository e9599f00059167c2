//! shuffle-audit: tells, with calibrated statistics, whether a shuffle or a
//! random sampler is fair.
//!
//! Data flows one way: an [`engine::RunSpec`] (algorithm × random source × n ×
//! trials × seed) goes to the [`engine`], which returns a [`tally::Tally`] of
//! where every value landed; [`stats`] turns tallies into calibrated tests and
//! a verdict; [`output`] writes CSV, JSON and PNG files and [`report`] a
//! readable HTML/Markdown report. [`exact`] computes an algorithm's exact
//! output distribution instead of sampling it, [`power`] plans trial counts,
//! [`mixing`] draws mixing curves and [`selftest`] proves the harness. An
//! [`experiment`] file describes a whole study (many audits) so that it can be
//! rerun bit for bit. [`ingest`] counts permutations made outside the tool
//! (text or binary files, stdin, or the output of a program run in parallel)
//! into the same kind of tally, so shuffles in any language can be audited;
//! [`produce`] gives the tally of any subject, running the engine or the
//! readers as it needs, and [`pacing`] holds the batch size and progress
//! callback all of them share.
//! [`shard`] cuts a run into shards counted anywhere, saves runs part-way
//! and merges the shards back into the one run, bit for bit.
//! The command-line tool is a thin shell over this library.
//!
//! ```
//! use shuffle_audit::{algorithm::Algorithm, audit, engine::{RunSpec, no_progress}};
//! use shuffle_audit::{source::SourceSpec, stats::Verdict};
//!
//! # fn main() -> shuffle_audit::Result<()> {
//! let spec = RunSpec::new(Algorithm::parse("naive-swap")?, 10, 100_000, SourceSpec::parse("chacha8")?, 1);
//! let result = audit::run(&spec, audit::DEFAULT_ALPHA, &no_progress)?;
//! assert_eq!(result.verdict(), Verdict::Biased);
//! println!("decisive test: {}, log10 p = {:.0}", result.decisive().test, result.log10_p());
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

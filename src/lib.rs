//! shuffle-audit: tells, with calibrated statistics, whether a shuffle or a
//! random sampler is fair.
//!
//! Data flows one way: an [`audit::AuditSpec`] (algorithm × random source × n ×
//! trials × seed) goes to the [`engine`], which returns a [`tally::Tally`] of
//! where every value landed; [`stats`] turns tallies into calibrated tests and
//! a verdict; [`output`] writes CSV, JSON and PNG files. [`exact`] computes
//! an algorithm's exact output distribution instead of sampling it. The
//! command-line tool is a thin shell over this library.

pub mod algorithm;
pub mod audit;
pub mod bench;
pub mod engine;
pub mod error;
pub mod exact;
pub mod mixing;
pub mod output;
pub mod params;
pub mod permutation;
pub mod power;
pub mod selftest;
pub mod source;
pub mod spec;
pub mod stats;
pub mod tally;

pub use error::{Error, Result};

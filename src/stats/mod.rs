//! Statistical tests on tallies, with calibrated null distributions, and the
//! multiple-testing correction that turns p-values into verdicts.

pub mod adjacency;
pub mod battery;
mod binomial_draw;
pub mod collisions;
pub mod gof;
pub mod hypergeometric;
pub mod laws;
pub mod lines;
pub mod multiple;
pub mod order;
pub mod pearson_law;
pub mod pearson_tail;
pub mod position_value;
pub mod pvalue;
mod result;
pub mod sampling;
pub mod sensitivity;
pub mod sequence;
pub mod signs;
pub mod special;

pub use multiple::{Verdict, by_strength, holm_log10, seen_by, strongest};
pub use position_value::{Cell, PositionValueStats};
pub use result::{Parts, TestResult};
pub use sensitivity::Sensitivity;

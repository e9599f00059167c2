//! The exact laws of the per-permutation statistics under a uniform shuffle,
//! where callers have long found them. They live with the statistics they
//! describe, in `crate::permutation::laws`; ask
//! [`Statistic::uniform_law`](crate::permutation::Statistic::uniform_law)
//! for the law of a named statistic.

pub use crate::permutation::laws::{cycles, fixed_points, rising_sequences};

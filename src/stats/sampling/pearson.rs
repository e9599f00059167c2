//! Pearson's statistic for weighted picks: its exact null cumulants live in
//! [`crate::stats::pearson_law`] (shared with the structure tests'
//! goodness of fit, [`crate::stats::gof`]); re-exported here where the
//! sampler tests have always found them.

pub use crate::stats::pearson_law::{pearson_law, pearson_law_uniform};

//! Special functions and small distribution helpers for the statistical tests.
//!
//! The auditor reports p-values that are often astronomically small (a biased
//! shuffle observed over millions of trials), so the chi-square tail is
//! computed in log space and stays finite far beyond the range where `f64`
//! underflows. The rest of the module supplies the Kolmogorov–Smirnov test used
//! to check p-value uniformity, the non-central chi-square tail used for power
//! calculations, the chi-square quantile used for critical values and a
//! binomial acceptance band used to judge counts of rejections.
//!
//! The code is split by topic, one file each: `gamma` (ln Γ and the
//! regularized incomplete gamma function everything else rests on), `normal`
//! (the log normal tail behind the incomplete gamma's last-resort
//! approximation), `chi2` (central chi-square tail and quantile), `noncentral`
//! (non-central chi-square tail and the non-centrality behind a given power),
//! `ks` (Kolmogorov–Smirnov test of uniformity) and `binomial` (acceptance
//! bands for counts). The public functions are re-exported here, so callers use
//! `stats::special::NAME` whatever file the code lives in.

mod binomial;
mod chi2;
mod gamma;
mod ks;
mod noncentral;
mod normal;

pub use binomial::{binomial_band, binomial_upper_tail};
pub use chi2::{chi2_isf, chi2_sf, ln_chi2_sf, log10_chi2_sf};
pub use gamma::{ln_gamma_p, ln_gamma_q};
pub use ks::{KsResult, ks_uniform};
pub use noncentral::{noncentral_chi2_sf, noncentrality_for_power};
pub use normal::ln_normal_sf;

/// Relative tolerance at which series, continued fractions and sums stop.
const EPS: f64 = f64::EPSILON;

/// Relative error of `value` against `reference`; shared by the unit tests of
/// every topic.
#[cfg(test)]
fn rel_err(value: f64, reference: f64) -> f64 {
    ((value - reference) / reference).abs()
}

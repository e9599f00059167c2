//! The standard normal upper tail, in log space.
//!
//! The Wilson–Hilferty fallback of the incomplete gamma function needs it
//! (for shapes far beyond anything the auditor produces), and so does the
//! Edgeworth tail of the serial test's weighted sign law; it is a topic of its own: it stays finite for any `z`, switching to the asymptotic Mills
//! ratio expansion where `erfc` underflows.

use std::f64::consts::{SQRT_2, TAU};

use statrs::function::erf::erfc;

/// `ln Φ(-z)`, the log of the standard normal upper tail, finite for all `z`.
pub fn ln_normal_sf(z: f64) -> f64 {
    if z < 0.0 {
        (-0.5 * erfc(-z / SQRT_2)).ln_1p()
    } else if z < 35.0 {
        (0.5 * erfc(z / SQRT_2)).ln()
    } else {
        // Asymptotic (Mills ratio) expansion; erfc underflows beyond here.
        let z2 = z * z;
        -0.5 * z2 - (z * TAU.sqrt()).ln() + (1.0 - 1.0 / z2 + 3.0 / (z2 * z2)).ln()
    }
}

//! The position-by-value test: does every value land at every position equally
//! often?
//!
//! # Calibration
//!
//! Each trial adds a whole permutation matrix X to the counts (every row and
//! every column gets exactly one count), so the n² cells are not independent
//! multinomial counts. Under a uniform shuffle E\[X_pv\] = 1/n and
//!
//! ```text
//! Cov(X_pv, X_p'v') = (1/(n-1)) · (δ_pp' - 1/n) · (δ_vv' - 1/n),
//! ```
//!
//! i.e. `Cov(vec X) = (1/(n-1)) · P ⊗ P` with `P = I - J/n` the centring
//! projection of rank n-1 (check: the diagonal gives (1/n)(1-1/n), the same
//! row (1/n²)·(-1), another row and column 1/(n²(n-1))). Over T independent
//! trials the deviations `D = O - T/n` therefore have covariance
//! `(T/(n-1)) · P ⊗ P`, a multiple of a projection of rank (n-1)², and by the
//! central limit theorem `‖D‖² · (n-1)/T → χ²((n-1)²)`. The textbook Pearson
//! sum `X² = Σ (O-E)²/E = (n/T) ‖D‖²` is thus `n/(n-1)` times a χ²((n-1)²)
//! variable: used as is, it over-rejects (at n = 3 its mean is 6 where 4 is
//! expected). The calibrated statistic is
//!
//! ```text
//! Q = ((n-1)/n) · Σ (O-E)²/E  ~  χ²((n-1)²)   under a uniform shuffle.
//! ```
//!
//! The calibration test in `tests/calibration.rs` checks this over thousands of
//! independent audits, and checks that the uncorrected sum fails it.
//!
//! # Binned matrices (large n)
//!
//! Above [`crate::spec::LARGE_N`] the tally counts a B×B matrix of bins
//! ([`Binning`]: position bin i holds a_i positions, value bin j holds b_j
//! values, sizes differing by at most one). Its cell (i, j) sums the a_i·b_j
//! cells of X it covers, so it expects a_i·b_j/n per trial, and summing the
//! covariance above over those cells gives
//!
//! ```text
//! Cov(Y) = (1/(n-1)) · (D_a - a aᵀ/n) ⊗ (D_b - b bᵀ/n)
//! ```
//!
//! with D_a = diag(a). Scaled by 1/√(a_i b_j / n), each factor becomes
//! `I - √a √aᵀ/n`, a projection of rank B-1 (since Σ a_i = n), so exactly
//! as for the full matrix the Pearson sum with expected counts T·a_i·b_j/n,
//! times (n-1)/n, follows χ²((B-1)²): the full matrix is the case B = n.
//! `tests/calibration_large_n.rs` checks the rejection rates of binned
//! audits with unequal bins.

use super::special::{chi2_isf, chi2_sf, ln_chi2_sf};
use crate::tally::{Binning, Cells, Columns, Tally};
use serde::Serialize;
use std::f64::consts::{LN_10, PI};

/// A cell of the position-by-value matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// Position in the shuffled array.
    pub position: usize,
    /// Value (original index) of the element.
    pub value: usize,
}

/// The position-by-value statistic of one tally, with the descriptive
/// figures a reader needs to judge the size of any bias. Its test result
/// (p-value, Holm-adjusted p) is the audit's [`super::TestResult`] for
/// [`crate::spec::TestKind::PositionValue`], like every other test's: one
/// result type, computed in one place.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PositionValueStats {
    /// The calibrated statistic Q = ((n-1)/n) Σ (O-E)²/E.
    pub statistic: f64,
    /// The uncorrected Pearson sum Σ (O-E)²/E, for reference only.
    pub pearson: f64,
    /// Degrees of freedom, (n-1)² (or (B-1)² when binned).
    pub df: f64,
    /// The bins per side when the matrix is binned (B < n; cells are then
    /// bins of positions and values); absent for the full matrix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bins: Option<usize>,
    /// The kinds of a multiset deck when the columns are kinds (n × kinds
    /// cells, see [`Cells`]); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kinds: Option<usize>,
    /// The largest |standardised residual| (O-E)/sd, with sd² the cell's
    /// variance under a uniform shuffle: T·(1/n)(1-1/n) for the full
    /// matrix, T·a(1-a/n)·b(1-b/n)/(n-1) for a cell of bins of a and b.
    pub max_abs_z: f64,
    /// Where `max_abs_z` occurs.
    pub max_abs_z_cell: Cell,
    /// The largest relative deviation |O/E - 1|.
    pub max_rel_dev: f64,
    /// Where `max_rel_dev` occurs.
    pub max_rel_dev_cell: Cell,
    /// Signed O/E - 1 at `max_rel_dev_cell` (positive: too often).
    pub rel_dev_at_max: f64,
    /// Estimated total variation distance between the value distribution at a
    /// position and uniform, the largest over positions (of the value-bin
    /// distribution over a position bin, when binned).
    pub tv_marginal: f64,
    /// What `tv_marginal` (the largest over positions) is on average for a
    /// perfectly fair shuffle at this T: the noise level of the figure shown
    /// (see [`tv_noise`]).
    pub tv_noise: f64,
}

impl PositionValueStats {
    /// P(χ²(df) > Q); may underflow to 0, see [`log10_p`](Self::log10_p).
    pub fn p_value(&self) -> f64 {
        chi2_sf(self.statistic, self.df)
    }

    /// log10 of the p-value, finite even where [`p_value`](Self::p_value)
    /// underflows.
    pub fn log10_p(&self) -> f64 {
        ln_chi2_sf(self.statistic, self.df) / LN_10
    }

    /// Computes the statistic and figures of `tally`'s own matrix (see
    /// [`of`](Self::of)).
    ///
    /// # Panics
    /// If the tally holds no trials.
    pub fn run(tally: &Tally) -> Self {
        Self::of(&Cells::of(tally))
    }

    /// Computes the statistic and figures of a cell matrix: the values (or
    /// bins) of distinct items, or the kinds of a multiset deck, at each
    /// position (see [`Cells`]). Its Q is χ²((R−1)(C−1)) under a uniform
    /// shuffle in every case (the module docs and `crate::deck::laws`).
    ///
    /// # Panics
    /// If the matrix holds no trials.
    pub fn of(cells: &Cells) -> Self {
        let n = cells.n();
        let t = cells.trials() as f64;
        assert!(
            t > 0.0,
            "the position-by-value test needs at least one trial"
        );
        let nf = n as f64;
        let (rows, cols) = (cells.rows(), cells.cols());
        let mut pearson = 0.0;
        let origin = Cell {
            position: 0,
            value: 0,
        };
        let mut best_z = (0.0f64, origin);
        let mut best_rel = (0.0f64, 0.0f64, origin);
        let mut tv_marginal = 0.0f64;
        for position in 0..rows {
            let mut abs_dev_sum = 0.0;
            for value in 0..cols {
                let expected = cells.expected(position, value);
                let sd = cells.sd(position, value);
                let dev = cells.count(position, value) as f64 - expected;
                pearson += dev * dev / expected;
                abs_dev_sum += dev.abs();
                let cell = Cell { position, value };
                if dev.abs() / sd > best_z.0 {
                    best_z = (dev.abs() / sd, cell);
                }
                let rel = dev / expected;
                if rel.abs() > best_rel.0 {
                    best_rel = (rel.abs(), rel, cell);
                }
            }
            tv_marginal =
                tv_marginal.max(0.5 * abs_dev_sum / (t * cells.row_size(position) as f64));
        }
        let df = (rows as f64 - 1.0) * (cols as f64 - 1.0);
        let statistic = pearson * (nf - 1.0) / nf;
        let kinds = (cells.columns() == Columns::Kinds).then_some(cols);
        Self {
            statistic,
            pearson,
            df,
            bins: (cells.columns() == Columns::ValueBins).then_some(rows),
            kinds,
            max_abs_z: best_z.0,
            max_abs_z_cell: best_z.1,
            max_rel_dev: best_rel.0,
            max_rel_dev_cell: best_rel.2,
            rel_dev_at_max: best_rel.1,
            tv_marginal,
            tv_noise: tv_noise_of_cells(cells),
        }
    }

    /// The cell that stands out: the largest |standardised residual|, if it
    /// is significant at level `alpha` after a Bonferroni correction for the
    /// cells looked at (two-sided); `None` when no single cell stands out
    /// from the noise. Naming the most extreme of many noisy cells otherwise
    /// would report noise as a finding.
    pub fn standout(&self, n: usize, alpha: f64) -> Option<Cell> {
        (self.max_abs_z >= self.standout_z(n, alpha)).then_some(self.max_abs_z_cell)
    }

    /// The |z| a cell must reach to stand out at level `alpha` among the
    /// cells of this matrix ([`standout_z`] over its cells).
    pub fn standout_z(&self, n: usize, alpha: f64) -> f64 {
        standout_z_among(self.cells(n), alpha)
    }

    /// Cells per side of a square matrix: n, or B when binned.
    pub fn side(&self, n: usize) -> usize {
        self.bins.unwrap_or(n)
    }

    /// The number of cells tested: n × kinds for a multiset deck, side²
    /// otherwise.
    pub fn cells(&self, n: usize) -> usize {
        match self.kinds {
            Some(kinds) => n * kinds,
            None => self.side(n) * self.side(n),
        }
    }
}

/// The |z| a single cell must reach to stand out at level `alpha` among the
/// n² cells of a matrix of side n (Bonferroni, two-sided): z² is χ²(1)
/// under the null.
pub fn standout_z(n: usize, alpha: f64) -> f64 {
    standout_z_among(n * n, alpha)
}

/// The |z| a single cell must reach to stand out at level `alpha` among
/// `cells` cells (Bonferroni, two-sided).
pub fn standout_z_among(cells: usize, alpha: f64) -> f64 {
    chi2_isf(alpha / cells.max(1) as f64, 1.0).sqrt()
}

/// The mean of `tv_marginal` for a fair shuffle: the expected largest, over
/// the n positions, of the total variation distance between a position's
/// observed value frequencies and uniform, at `trials` trials.
///
/// Each position's deviations D_v are close to normal with variance
/// σ² = T(1/n)(1 − 1/n) and correlation ρ = −1/(n − 1) between values, so
/// its TV = Σ|D_v|/(2T) has mean nσ√(2/π)/(2T) and a variance from
/// Var|D| = σ²(1 − 2/π) and Cov(|D_v|, |D_w|) = (2σ²/π)(√(1 − ρ²) + ρ·asin ρ − 1);
/// the largest of n such (nearly independent, nearly normal) values is
/// about mean + sd · E[max of n standard normals]. The mean of one position
/// alone, √((n − 1)/(2πT)), is 1.25–1.4× too small for the maximum.
pub fn tv_noise(n: usize, trials: u64) -> f64 {
    tv_noise_of(n, trials as f64)
}

/// [`tv_noise`] of a binned matrix: a position bin of a positions holds
/// T·a values, and its value-bin deviations have the shape of a row of a
/// B×B matrix over T·a(n-a)/(n-1) trials (see the module docs), so the
/// noise of its TV is [`tv_noise`]'s at that many trials, scaled by
/// (n-a)/(n-1); a = n/B (bins differ by at most one). The identity binning
/// gives [`tv_noise`].
pub fn tv_noise_binned(binning: Binning, trials: u64) -> f64 {
    let (n, side) = (binning.n(), binning.bins());
    if binning.is_identity() || n < 2 || side < 2 {
        return tv_noise(n, trials);
    }
    let (nf, a) = (n as f64, n as f64 / side as f64);
    let shrink = (nf - a) / (nf - 1.0);
    tv_noise_of(side, trials as f64 * a * shrink) * shrink
}

/// The noise level of `tv_marginal` for a cell matrix ([`tv_noise`],
/// [`tv_noise_binned`] or [`tv_noise_kinds`], by what its columns are).
fn tv_noise_of_cells(cells: &Cells) -> f64 {
    let (n, t) = (cells.n(), cells.trials());
    match cells.columns() {
        Columns::Values => tv_noise(n, t),
        Columns::ValueBins => {
            Binning::new(n, cells.rows()).map_or_else(|| tv_noise(n, t), |b| tv_noise_binned(b, t))
        }
        Columns::Kinds => {
            let sizes: Vec<usize> = (0..cells.cols()).map(|c| cells.column_size(c)).collect();
            tv_noise_kinds(&sizes, t)
        }
    }
}

/// [`tv_noise`] of a multiset deck whose kinds hold `sizes` items: the
/// kind at one position is categorical with p_k = n_k/n in each trial, so
/// a position's deviations D_k have variance σ_k² = T·p_k(1 − p_k) and
/// correlation ρ_kl = −√(p_k p_l / ((1 − p_k)(1 − p_l))); the mean and
/// variance of Σ|D_k|/(2T) follow as in [`tv_noise`], and the largest of
/// the n positions adds sd · E[max of n standard normals]. Equal kinds give
/// [`tv_noise`] of m = n/n_k values.
pub fn tv_noise_kinds(sizes: &[usize], trials: u64) -> f64 {
    let n: usize = sizes.iter().sum();
    let t = trials as f64;
    if sizes.len() < 2 || t <= 0.0 {
        return 0.0;
    }
    let p: Vec<f64> = sizes.iter().map(|&s| s as f64 / n as f64).collect();
    let sigma: Vec<f64> = p.iter().map(|&q| (t * q * (1.0 - q)).sqrt()).collect();
    let mean = sigma.iter().sum::<f64>() * (2.0 / PI).sqrt() / (2.0 * t);
    let mut var_sum = sigma.iter().map(|s| s * s * (1.0 - 2.0 / PI)).sum::<f64>();
    for k in 0..p.len() {
        for l in 0..p.len() {
            if k != l {
                let rho = -(p[k] * p[l] / ((1.0 - p[k]) * (1.0 - p[l]))).sqrt();
                var_sum += 2.0 * sigma[k] * sigma[l] / PI
                    * ((1.0 - rho * rho).sqrt() + rho * rho.asin() - 1.0);
            }
        }
    }
    let sd = var_sum.max(0.0).sqrt() / (2.0 * t);
    mean + sd * expected_max_of_normals(n)
}

/// [`tv_noise`] for a real number of trials.
fn tv_noise_of(n: usize, t: f64) -> f64 {
    if n < 2 || t <= 0.0 {
        return 0.0;
    }
    let nf = n as f64;
    let sigma2 = t * (1.0 / nf) * (1.0 - 1.0 / nf);
    let rho = -1.0 / (nf - 1.0);
    let cov = 2.0 * sigma2 / PI * ((1.0 - rho * rho).sqrt() + rho * rho.asin() - 1.0);
    let var_sum = nf * sigma2 * (1.0 - 2.0 / PI) + nf * (nf - 1.0) * cov;
    let mean = nf * sigma2.sqrt() * (2.0 / PI).sqrt() / (2.0 * t);
    let sd = var_sum.max(0.0).sqrt() / (2.0 * t);
    mean + sd * expected_max_of_normals(n)
}

/// E[max of m independent standard normals], by quadrature of
/// ∫ x · m φ(x) Φ(x)^(m−1) dx.
fn expected_max_of_normals(m: usize) -> f64 {
    if m <= 1 {
        return 0.0;
    }
    let (lo, hi, steps) = (-10.0f64, 12.0f64, 2_200);
    let h = (hi - lo) / steps as f64;
    let density = |x: f64| {
        let phi = (-0.5 * x * x).exp() / (2.0 * PI).sqrt();
        let cdf = 0.5 * statrs::function::erf::erfc(-x / std::f64::consts::SQRT_2);
        m as f64 * phi * cdf.powi(m as i32 - 1)
    };
    // Simpson's rule.
    let mut sum = 0.0;
    for i in 0..=steps {
        let x = lo + i as f64 * h;
        let w = if i == 0 || i == steps {
            1.0
        } else if i % 2 == 1 {
            4.0
        } else {
            2.0
        };
        sum += w * x * density(x);
    }
    sum * h / 3.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_kinds_have_the_noise_of_as_many_values() {
        // 52 kinds of 6 at each of 312 positions: the TV of one position's
        // kinds behaves as that of 52 values (the maximum is over 312).
        let kinds = tv_noise_kinds(&[6; 52], 20_000);
        let nf = 52.0f64;
        let t = 20_000.0;
        let sigma2 = t / nf * (1.0 - 1.0 / nf);
        let mean = nf * sigma2.sqrt() * (2.0 / PI).sqrt() / (2.0 * t);
        assert!(kinds > mean && kinds < 1.5 * mean, "{kinds} vs mean {mean}");
        let values = tv_noise(52, 20_000);
        let rescaled =
            mean + (values - mean) * expected_max_of_normals(312) / expected_max_of_normals(52);
        assert!(
            (kinds - rescaled).abs() < 1e-9 * kinds,
            "{kinds} vs {rescaled}"
        );
    }

    #[test]
    fn a_perfectly_balanced_tally_scores_zero() {
        // All 6 permutations of 3 once each: every cell is exactly T/n.
        let mut tally = Tally::new(3);
        for p in [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ] {
            tally.record(&p);
        }
        let t = PositionValueStats::run(&tally);
        assert_eq!(t.statistic, 0.0);
        assert_eq!(t.df, 4.0);
        assert_eq!(t.p_value(), 1.0);
        assert_eq!(t.max_rel_dev, 0.0);
        assert_eq!(t.tv_marginal, 0.0);
    }

    #[test]
    fn statistic_and_figures_match_a_hand_computation() {
        // Identity 3 times, n = 2 swap once: T = 4, E = 2.
        let mut tally = Tally::new(2);
        for _ in 0..3 {
            tally.record(&[0, 1]);
        }
        tally.record(&[1, 0]);
        let t = PositionValueStats::run(&tally);
        // Pearson: 4 cells each (±1)²/2 = 2; Q = 2 * 1/2 = 1; df = 1.
        assert!((t.pearson - 2.0).abs() < 1e-12);
        assert!((t.statistic - 1.0).abs() < 1e-12);
        assert!((t.p_value() - 0.317_310_507_862_914_2).abs() < 1e-12);
        assert!((t.max_rel_dev - 0.5).abs() < 1e-12);
        assert_eq!(t.rel_dev_at_max, 0.5);
        assert_eq!(
            t.max_rel_dev_cell,
            Cell {
                position: 0,
                value: 0
            }
        );
        // z = 1 / sqrt(4 * 1/4) = 1; TV at position 0 = 0.5 * (1 + 1) / 4 = 0.25.
        assert!((t.max_abs_z - 1.0).abs() < 1e-12);
        assert!((t.tv_marginal - 0.25).abs() < 1e-12);
    }

    #[test]
    fn expected_maxima_of_normals_match_known_values() {
        assert!(expected_max_of_normals(1).abs() < 1e-12);
        // E[max of 2] = 1/√π; of 10 ≈ 1.538753.
        assert!((expected_max_of_normals(2) - 1.0 / PI.sqrt()).abs() < 1e-9);
        assert!((expected_max_of_normals(10) - 1.538_752_6).abs() < 1e-6);
    }

    #[test]
    fn a_standout_cell_must_beat_the_bonferroni_threshold() {
        // n = 10 at α = 0.001: 100 cells, each at 1e-5 two-sided: |z| ≥ 4.417.
        let z = standout_z(10, 0.001);
        assert!((z - 4.4172).abs() < 1e-3, "{z}");
    }

    #[test]
    fn tiny_p_values_keep_a_finite_log() {
        // The identity every time: hugely biased.
        let mut tally = Tally::new(52);
        let identity: Vec<u32> = (0..52).collect();
        for _ in 0..100_000 {
            tally.record(&identity);
        }
        let t = PositionValueStats::run(&tally);
        assert_eq!(t.p_value(), 0.0, "underflows as a plain number");
        assert!(
            t.log10_p().is_finite() && t.log10_p() < -1000.0,
            "{}",
            t.log10_p()
        );
    }
}

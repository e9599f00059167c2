//! The laws of the order tests under a uniform shuffle and the tests
//! themselves: the inversion count (Kendall's τ with the starting order)
//! against the Mahonian law, and the displacement histogram and the binned
//! Lehmer digits against their exact means and covariances. What they
//! count is `OrderCounts`.
//!
//! All scale to any n: their tables have a fixed number of cells, and
//! their laws cost at most O(n·D²) (displacement, D ≤ 16 bins), O(n + P·K³)
//! (binned Lehmer digits, P ≤ 64 rows of K = 16 bins), or O(n³) up to
//! [`EXACT_MAHONIAN_N`] and O(1) above (inversions).

use super::gof::{self, Gof};
use super::special::ln_chi2_sf;
use crate::tally::{
    Binning, LEHMER_DIGIT_BINS, OrderCounts, displacement_bin, displacement_bins,
    inversion_moments, lehmer_rows, max_inversions,
};
use statrs::function::erf::erfc;
use std::f64::consts::{LN_10, SQRT_2, TAU};

/// Up to this n the inversion bins' probabilities come from the exact
/// Mahonian law ([`mahonian`]); above, from its Edgeworth expansion
/// ([`edgeworth_cdf`]). The exact law at n = 1024 has 523,777 values and
/// takes n³/6 ≈ 1.8e8 additions (about 0.2 s); its bin probabilities and
/// the expansion's differ there by at most 2.1e-10 (measured by
/// `edgeworth_matches_the_exact_law_at_the_limit`, which asserts < 1e-9;
/// the plain normal law is 1.6e-5 off), and the error falls as 1/n³ above.
/// An error ε in each of K = 32 bins of probability 1/K shifts Pearson's
/// statistic by a noncentrality of about T·K²·ε² ≈ 5e-17·T: it would take
/// T ≈ 10^16 shuffles of n > 1024 items (thousands of CPU-years at the
/// microseconds each costs) for it to reach 1, still a shift no test at
/// α = 0.001 sees.
pub const EXACT_MAHONIAN_N: usize = 1024;

/// The Mahonian law: P(I = k) for k = 0..=n(n−1)/2, I the number of
/// inversions of a uniform permutation of `n`. I is the sum of independent
/// Lehmer digits, digit k − 1 uniform on {0, …, k−1}: the law is built one
/// digit at a time, each step a moving average of width k (a running sum),
/// O(n³) in all.
pub fn mahonian(n: usize) -> Vec<f64> {
    let top = max_inversions(n) as usize;
    let mut law = vec![0.0f64; top + 1];
    let mut next = vec![0.0f64; top + 1];
    law[0] = 1.0;
    let mut len = 1; // values 0..len are possible after k digits
    for k in 2..=n.max(1) {
        let w = 1.0 / k as f64;
        let grown = len + k - 1;
        // next[j] = (law[j − k + 1] + … + law[j]) / k, law zero outside 0..len.
        let mut window = 0.0f64;
        for j in 0..grown {
            if j < len {
                window += law[j];
            }
            if j >= k {
                window -= law[j - k];
            }
            next[j] = window.max(0.0) * w;
        }
        std::mem::swap(&mut law, &mut next);
        len = grown;
    }
    law
}

/// The even cumulants κ₄ and κ₆ of the number of inversions of a uniform
/// permutation of `n`: sums over k = 1..n of those of the uniform law on
/// {0, …, k−1}, B_r·(k^r − 1)/r (B_r the Bernoulli numbers): −(k⁴ − 1)/120
/// and (k⁶ − 1)/252. The odd ones are 0 (the law is symmetric).
pub fn inversion_cumulants(n: usize) -> (f64, f64) {
    (1..=n).fold((0.0, 0.0), |(k4, k6), k| {
        let k = k as f64;
        let k2 = k * k;
        (
            k4 - (k2 * k2 - 1.0) / 120.0,
            k6 + (k2 * k2 * k2 - 1.0) / 252.0,
        )
    })
}

/// P(I < t) for the number of inversions I of a uniform permutation of `n`
/// by the Edgeworth expansion to order 1/n² (the terms of κ₄, κ₆ and κ₄²),
/// with continuity correction (I is on the integers), z = (t − ½ − μ)/σ:
/// G(z) = Φ(z) − φ(z)·[κ₄/(24σ⁴)·He₃(z) + κ₆/(720σ⁶)·He₅(z) +
/// κ₄²/(1152σ⁸)·He₇(z)], He the Hermite polynomials. The third and fifth
/// cumulants are 0 (the law is symmetric), so the first terms left out are
/// of order 1/n³: see [`EXACT_MAHONIAN_N`] for the error measured.
pub fn edgeworth_cdf(n: usize, t: f64) -> f64 {
    Edgeworth::new(n).cdf(t)
}

/// The Edgeworth expansion of the inversion count's law at one n (see
/// [`edgeworth_cdf`]): its cumulants, summed over n digits once, then any
/// number of points.
struct Edgeworth {
    mean: f64,
    variance: f64,
    k4: f64,
    k6: f64,
}

impl Edgeworth {
    fn new(n: usize) -> Self {
        let (mean, variance) = inversion_moments(n);
        let (k4, k6) = inversion_cumulants(n);
        Self {
            mean,
            variance,
            k4,
            k6,
        }
    }

    fn cdf(&self, t: f64) -> f64 {
        let Self {
            mean,
            variance,
            k4,
            k6,
        } = *self;
        let z = (t - 0.5 - mean) / variance.sqrt();
        let z2 = z * z;
        let he3 = z * (z2 - 3.0);
        let he5 = z * (z2 * z2 - 10.0 * z2 + 15.0);
        let he7 = z * (((z2 - 21.0) * z2 + 105.0) * z2 - 105.0);
        let v2 = variance * variance;
        let terms = k4 / (24.0 * v2) * he3
            + k6 / (720.0 * v2 * variance) * he5
            + k4 * k4 / (1152.0 * v2 * v2) * he7;
        let phi = (-0.5 * z2).exp() / TAU.sqrt();
        (0.5 * erfc(-z / SQRT_2) - phi * terms).clamp(0.0, 1.0)
    }
}

/// The probability of each inversion bin (bins of `edges`, see
/// `crate::tally::inversion_edges`) at `n`: exact up to
/// [`EXACT_MAHONIAN_N`], by [`edgeworth_cdf`] above.
pub fn inversion_bin_law(n: usize, edges: &[u64]) -> Vec<f64> {
    let top = max_inversions(n);
    let bounds: Vec<u64> = std::iter::once(0)
        .chain(edges.iter().copied())
        .chain(std::iter::once(top + 1))
        .collect();
    if n <= EXACT_MAHONIAN_N {
        let law = mahonian(n);
        bounds
            .windows(2)
            .map(|w| law[w[0] as usize..w[1] as usize].iter().sum())
            .collect()
    } else {
        let expansion = Edgeworth::new(n);
        let cdf: Vec<f64> = bounds
            .iter()
            .enumerate()
            .map(|(i, &b)| match i {
                0 => 0.0,
                i if i == bounds.len() - 1 => 1.0,
                _ => expansion.cdf(b as f64),
            })
            .collect();
        cdf.windows(2).map(|w| (w[1] - w[0]).max(0.0)).collect()
    }
}

/// The inversion test of `counts` at `n`: the binned inversion counts
/// against the bins' probabilities ([`inversion_bin_law`]) by Pearson's
/// chi-square, and a sentence saying how the law was obtained.
pub fn inversions(counts: &OrderCounts, n: usize) -> (Gof, String) {
    let law = inversion_bin_law(n, &counts.inversion_edges);
    let g = gof::chi_square(&counts.inversions, &law);
    let how = if n <= EXACT_MAHONIAN_N {
        "exact Mahonian law"
    } else {
        "Mahonian law by its Edgeworth expansion (to 1/n^2; error below 1e-9 per bin)"
    };
    let what = format!(
        "inversions (Kendall's tau with the starting order) in {} bins, chi-square against the {how}",
        counts.inversions.len()
    );
    (g, what)
}

/// The exact per-shuffle mean and covariance of the displacement histogram
/// under a uniform shuffle of `n` (bins of `displacement_bin`).
#[derive(Debug, Clone, PartialEq)]
pub struct DisplacementLaw {
    /// Bins (min(n, `crate::tally::DISPLACEMENT_BINS`)).
    pub bins: usize,
    /// E\[H_a\]: the mean number of positions per shuffle in bin a.
    pub mean: Vec<f64>,
    /// Cov(H_a, H_b) at `a * bins + b`.
    pub covariance: Vec<f64>,
}

/// The number of values v in `0..n` with |v − p| in the displacement range
/// `[lo, hi)`: r_a(p) for the bin a of that range.
fn values_within(p: usize, n: usize, lo: usize, hi: usize) -> usize {
    let zero = usize::from(lo == 0 && hi > 0);
    let from = lo.max(1);
    // Displacements d in [from, hi) to the left (d ≤ p) and to the right
    // (d ≤ n − 1 − p).
    let side = |room: usize| (hi.min(room + 1)).saturating_sub(from);
    zero + side(p) + side(n - 1 - p)
}

/// The displacement histogram's law at `n` (n ≥ 2), exactly: with Π the
/// permutation matrix of a uniform shuffle, Cov(Π_pv, Π_p'v') =
/// (δ_pp' − 1/n)(δ_vv' − 1/n)/(n − 1), and H_a = Σ_{(p,v) ∈ S_a} Π_pv for
/// the cells S_a = {(p, v) : |v − p| in bin a}, so E\[H_a\] = |S_a|/n and
/// Cov(H_a, H_b) = [δ_ab|S_a| − (2/n)Σ_p r_a(p) r_b(p) + |S_a||S_b|/n²] /
/// (n − 1), r_a(p) = #{v : (p, v) ∈ S_a} (the column counts equal the row
/// counts, |v − p| being symmetric). O(D³) (`row_products`).
pub fn displacement_law(n: usize) -> DisplacementLaw {
    let bins = displacement_bins(n);
    let start = |a: usize| displacement_bin_start(a, bins, n);
    debug_assert!((0..n).all(|d| displacement_bin(d, bins, n) < bins));
    let nf = n as f64;
    let size = displacement_sizes(n);
    let cross = row_products(n, bins, &start);
    let mut covariance = vec![0.0; bins * bins];
    for a in 0..bins {
        for b in a..bins {
            let diagonal = if a == b { size[a] } else { 0.0 };
            let c = (diagonal - 2.0 / nf * cross[a * bins + b] + size[a] * size[b] / (nf * nf))
                / (nf - 1.0);
            covariance[a * bins + b] = c;
            covariance[b * bins + a] = c;
        }
    }
    DisplacementLaw {
        bins,
        mean: size.iter().map(|s| s / nf).collect(),
        covariance,
    }
}

/// Σ_p r_a(p) r_b(p) over the positions p of `n`, for a ≤ b at
/// `a * bins + b` (`start(a)`: bin a's first displacement), exactly.
///
/// Each r_a(p) ([`values_within`]) is linear in p between the kinks where
/// a side of the range [start(a), start(a + 1)) meets an end of the deck
/// (p = s − 1 and n − s for each bin edge s), so the sum over each stretch
/// between consecutive kinks is a closed form in its length: O(D³) in all,
/// where summing position by position took a fifth of the final tests of
/// an audit at n = 10^6. Integer arithmetic, so the sums are exact.
fn row_products(n: usize, bins: usize, start: &dyn Fn(usize) -> usize) -> Vec<f64> {
    let r = |a: usize, p: usize| values_within(p, n, start(a), start(a + 1)) as i128;
    let mut kinks: Vec<usize> = vec![0, n];
    for a in 0..=bins {
        // A side's count min(hi, room + 1) − max(lo, 1), floored at 0,
        // bends where room + 1 meets an edge (room = p on the left,
        // n − 1 − p on the right).
        let edge = start(a);
        for s in [edge, edge.max(1)] {
            kinks.extend([s.saturating_sub(1), n.saturating_sub(s)]);
        }
    }
    kinks.retain(|&k| k <= n);
    kinks.sort_unstable();
    kinks.dedup();
    let mut cross = vec![0i128; bins * bins];
    for w in kinks.windows(2) {
        let (from, len) = (w[0], (w[1] - w[0]) as i128);
        // r_a(from + t) = at[a] + slope[a]·t for t in 0..len.
        let at: Vec<i128> = (0..bins).map(|a| r(a, from)).collect();
        let slope: Vec<i128> = (0..bins)
            .map(|a| if len > 1 { r(a, from + 1) - at[a] } else { 0 })
            .collect();
        let (t1, t2) = (len * (len - 1) / 2, (len - 1) * len * (2 * len - 1) / 6);
        for a in 0..bins {
            for b in a..bins {
                cross[a * bins + b] += len * at[a] * at[b]
                    + (at[a] * slope[b] + at[b] * slope[a]) * t1
                    + slope[a] * slope[b] * t2;
            }
        }
    }
    cross.into_iter().map(|c| c as f64).collect()
}

/// The first displacement of bin `a` of `bins` at `n`: bin a holds d in
/// [⌈a·n/D⌉, ⌈(a+1)·n/D⌉) ([`displacement_bin`]).
fn displacement_bin_start(a: usize, bins: usize, n: usize) -> usize {
    (a * n).div_ceil(bins)
}

/// |S_a| for each displacement bin at `n`, the cells (p, v) with |v − p|
/// in bin a, in closed form: displacement 0 has the n cells (p, p) and each
/// d ≥ 1 has 2(n − d), so a bin [lo, hi) with lo ≥ 1 has
/// (hi − lo)(2n + 1 − lo − hi) cells and the first, [0, hi),
/// n + (hi − 1)(2n − hi). O(D).
fn displacement_sizes(n: usize) -> Vec<f64> {
    let bins = displacement_bins(n);
    (0..bins)
        .map(|a| {
            let (lo, hi) = (
                displacement_bin_start(a, bins, n),
                displacement_bin_start(a + 1, bins, n),
            );
            let cells = if lo == 0 {
                n + (hi - 1) * (2 * n - hi)
            } else {
                (hi - lo) * (2 * n + 1 - lo - hi)
            };
            cells as f64
        })
        .collect()
}

/// E\[H_a\], the mean number of positions per shuffle whose displacement is
/// in bin a, under a uniform shuffle of `n`: |S_a|/n, in O(D) (the same as
/// [`displacement_law`]'s mean, without its covariance).
pub fn displacement_means(n: usize) -> Vec<f64> {
    displacement_sizes(n)
        .into_iter()
        .map(|s| s / n as f64)
        .collect()
}

/// A Wald test's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Wald {
    /// (H − Tμ)ᵀ Σ⁻¹ (H − Tμ) / T over the bins kept.
    pub statistic: f64,
    /// The bins kept (linearly independent under the null): the df.
    pub df: usize,
    /// log10 of the χ²(df) upper tail.
    pub log10_p: f64,
}

/// The Wald (Mahalanobis) statistic of `sum`, the sum of `trials`
/// independent vectors of mean `mean` and covariance `covariance`
/// (row-major, `mean.len()` square), against χ²(df): asymptotically exact
/// as the trials grow (the central limit theorem). Coordinates whose
/// conditional variance given those before is below 1e-10 of their own
/// (determined by them, as the last bin is by the others) are left out,
/// by a Cholesky factorisation that skips them.
pub fn wald(sum: &[u64], trials: u64, mean: &[f64], covariance: &[f64]) -> Wald {
    let k = mean.len();
    let t = trials as f64;
    let mut kept: Vec<usize> = Vec::new();
    // Rows of the lower Cholesky factor of the kept coordinates.
    let mut factor: Vec<Vec<f64>> = Vec::new();
    let mut solved: Vec<f64> = Vec::new(); // L⁻¹ x over the kept coordinates
    for i in 0..k {
        let mut row: Vec<f64> = Vec::with_capacity(kept.len() + 1);
        for (j, &kj) in kept.iter().enumerate() {
            let dot: f64 = (0..j).map(|m| row[m] * factor[j][m]).sum();
            row.push((covariance[i * k + kj] - dot) / factor[j][j]);
        }
        let pivot = covariance[i * k + i] - row.iter().map(|x| x * x).sum::<f64>();
        // A NaN pivot is no pivot either.
        let tiny = 1e-10 * covariance[i * k + i].max(f64::MIN_POSITIVE);
        if pivot.is_nan() || pivot <= tiny {
            continue;
        }
        let diag = pivot.sqrt();
        let x = (sum[i] as f64 - t * mean[i]) / t.sqrt();
        let dot: f64 = row.iter().zip(&solved).map(|(l, y)| l * y).sum();
        solved.push((x - dot) / diag);
        row.push(diag);
        factor.push(row);
        kept.push(i);
    }
    let statistic: f64 = solved.iter().map(|y| y * y).sum();
    let df = kept.len();
    let log10_p = if df == 0 || trials == 0 {
        0.0
    } else {
        ln_chi2_sf(statistic, df as f64) / LN_10
    };
    Wald {
        statistic,
        df,
        log10_p,
    }
}

/// The displacement test of `counts` at `n` ≥ 2 after `trials` shuffles:
/// the Wald statistic of the summed histogram against its exact mean and
/// covariance ([`displacement_law`]), χ²(D − 1) as the trials grow (the
/// histogram of one shuffle always sums to n, so one bin is left out), and
/// a sentence saying so. Neighbouring bins are pooled, as
/// [`gof::chi_square`] pools, until each expects at least
/// [`gof::MIN_EXPECTED`] positions over all trials (only ever needed with
/// very few trials at small n), so the normal approximation holds.
pub fn displacement(counts: &OrderCounts, n: usize, trials: u64) -> (Wald, String) {
    let law = displacement_law(n);
    let d = law.bins;
    let (w, groups) = pooled_wald(&counts.displacement, trials, &law.mean, &law.covariance);
    let what = format!(
        "displacement |pi(p) - p| of every position in {d} bins of d/n, summed over trials: Wald \
         statistic against its exact mean and covariance under a uniform shuffle, chi-square \
         df {}{}",
        w.df,
        pooled_words(d - groups)
    );
    (w, what)
}

/// The exact per-shuffle law of one row of the binned Lehmer digit table
/// (`OrderCounts::lehmer`) under a uniform shuffle.
#[derive(Debug, Clone, PartialEq)]
pub struct LehmerRowLaw {
    /// E\[H_k\]: the mean number of the row's positions per shuffle whose
    /// digit is in bin k.
    pub mean: Vec<f64>,
    /// Cov(H_k, H_l) at `k * K + l`.
    pub covariance: Vec<f64>,
}

/// The binned Lehmer digit table's law at `n` (see [`lehmer_row_laws`]):
/// rows of `lehmer_rows`, `LEHMER_DIGIT_BINS` bins each.
pub fn lehmer_law(n: usize) -> Vec<LehmerRowLaw> {
    lehmer_row_laws(lehmer_rows(n), LEHMER_DIGIT_BINS)
}

/// The law of each row of a Lehmer digit table with positions binned by
/// `rows` and digit d of position i in bin ⌊d·K/(i + 1)⌋ of K = `bins`
/// (`crate::tally::lehmer_digit_bin`), exactly. Under a uniform shuffle
/// the digits are independent and digit i is uniform on {0, …, i}, so a
/// row's counts are a sum of independent one-hot vectors of law p_i, with
/// mean Σ p_i and covariance Σ (diag p_i − p_i p_iᵀ); rows are independent.
/// With m = i + 1 = qK + r, bin k holds q + e_k(r) of the m values, e_k(r)
/// = ⌈(k+1)r/K⌉ − ⌈kr/K⌉ ∈ {0, 1}, so the sums over a row need only Σ q/m,
/// Σ 1/m, Σ q²/m², Σ q/m² and Σ 1/m² per residue r: O(n + P·K³).
pub fn lehmer_row_laws(rows: Binning, bins: usize) -> Vec<LehmerRowLaw> {
    let k = bins;
    let extra: Vec<Vec<f64>> = (0..k)
        .map(|r| {
            (0..k)
                .map(|b| ((b + 1) * r).div_ceil(k) as f64 - (b * r).div_ceil(k) as f64)
                .collect()
        })
        .collect();
    (0..rows.bins())
        .map(|row| {
            // Per residue r: Σ q/m, Σ 1/m, Σ q²/m², Σ q/m², Σ 1/m².
            let mut sums = vec![[0.0f64; 5]; k];
            for i in rows.range(row) {
                let m = i + 1;
                let (q, r) = ((m / k) as f64, m % k);
                let inv = 1.0 / m as f64;
                let s = &mut sums[r];
                s[0] += q * inv;
                s[1] += inv;
                s[2] += q * q * inv * inv;
                s[3] += q * inv * inv;
                s[4] += inv * inv;
            }
            let mut mean = vec![0.0; k];
            let mut covariance = vec![0.0; k * k];
            for (s, e) in sums.iter().zip(&extra) {
                for a in 0..k {
                    mean[a] += s[0] + e[a] * s[1];
                    for b in 0..k {
                        covariance[a * k + b] -= s[2] + s[3] * (e[a] + e[b]) + s[4] * e[a] * e[b];
                    }
                }
            }
            for a in 0..k {
                covariance[a * k + a] += mean[a];
            }
            LehmerRowLaw { mean, covariance }
        })
        .collect()
}

/// The binned Lehmer digit test of `counts` at `n` after `trials`
/// shuffles: each row's Wald statistic against its exact mean and
/// covariance ([`lehmer_law`]), sparse bins pooled as in
/// [`displacement`]; the rows are independent, so the statistics and their
/// df add up to one χ² test. A sentence says so.
pub fn lehmer(counts: &OrderCounts, n: usize, trials: u64) -> (Wald, String) {
    let laws = lehmer_law(n);
    let k = LEHMER_DIGIT_BINS;
    let (mut statistic, mut df, mut pooled) = (0.0, 0, 0);
    for (law, row) in laws.iter().zip(counts.lehmer.chunks_exact(k)) {
        let (w, groups) = pooled_wald(row, trials, &law.mean, &law.covariance);
        statistic += w.statistic;
        df += w.df;
        pooled += k - groups;
    }
    let log10_p = if df == 0 || trials == 0 {
        0.0
    } else {
        ln_chi2_sf(statistic, df as f64) / LN_10
    };
    let what = format!(
        "Lehmer digits (digit i uniform on 0..i, digits independent) in {} position bins x {k} \
         bins of d/(i+1), summed over trials: per-row Wald statistics against their exact means \
         and covariances under a uniform shuffle, added, chi-square df {df}{}",
        laws.len(),
        pooled_words(pooled)
    );
    let w = Wald {
        statistic,
        df,
        log10_p,
    };
    (w, what)
}

/// The Wald test ([`wald`]) of `counts`, the sum over `trials` shuffles of
/// vectors of per-shuffle `mean` and `covariance` whose coordinates sum to
/// the same total in every shuffle (a histogram of a fixed number of
/// positions), with neighbouring bins pooled ([`pool`]) until each expects
/// at least [`gof::MIN_EXPECTED`] over all trials (so the normal
/// approximation holds); and the number of groups the bins were pooled
/// into. The last group is determined by the others, so it is left out by
/// that constraint and the df is one fewer than the groups: found by
/// rounding, the covariance's zero-variance direction can be missed at
/// large n, where cancellation leaves it a pivot above any fixed threshold.
fn pooled_wald(counts: &[u64], trials: u64, mean: &[f64], covariance: &[f64]) -> (Wald, usize) {
    let groups = pool(mean, trials as f64);
    let d = mean.len();
    let g = groups.len();
    // The free groups: all but the last, which the constant total fixes.
    let free = g - 1;
    let group_of = |a: usize| groups.iter().position(|r| r.contains(&a)).unwrap_or(0);
    let mut sum = vec![0u64; free];
    let mut pooled_mean = vec![0.0; free];
    let mut pooled_covariance = vec![0.0; free * free];
    for a in 0..d {
        let ga = group_of(a);
        if ga == free {
            continue;
        }
        sum[ga] += counts[a];
        pooled_mean[ga] += mean[a];
        for b in 0..d {
            let gb = group_of(b);
            if gb < free {
                pooled_covariance[ga * free + gb] += covariance[a * d + b];
            }
        }
    }
    (wald(&sum, trials, &pooled_mean, &pooled_covariance), g)
}

/// How a test's method names the bins pooled into neighbours (nothing
/// when none were).
fn pooled_words(pooled: usize) -> String {
    if pooled > 0 {
        format!("; {pooled} sparse bins pooled into neighbours")
    } else {
        String::new()
    }
}

/// Consecutive ranges of bins, each expecting at least
/// [`gof::MIN_EXPECTED`] over `trials` (a last short range joins the one
/// before).
fn pool(mean: &[f64], trials: f64) -> Vec<std::ops::Range<usize>> {
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    let (mut start, mut expected) = (0, 0.0);
    for (a, m) in mean.iter().enumerate() {
        expected += m * trials;
        if expected >= gof::MIN_EXPECTED {
            groups.push(start..a + 1);
            (start, expected) = (a + 1, 0.0);
        }
    }
    if start < mean.len() {
        match groups.last_mut() {
            Some(last) => last.end = mean.len(),
            None => groups.push(0..mean.len()),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::{factorial, unrank};
    use crate::tally::{
        LEHMER_ROWS as LEHMER_ROWS_AT_LARGE_N, OrderParts, OrderScratch, inversion_edges,
        inversions as count_inversions, lehmer_digit_bin,
    };

    #[test]
    fn mahonian_law_matches_enumeration_up_to_seven() {
        let mut scratch = OrderScratch::default();
        for n in 1..=7 {
            let all = factorial(n);
            let mut counts = vec![0usize; max_inversions(n) as usize + 1];
            for r in 0..all {
                counts[count_inversions(&unrank(r, n), &mut scratch) as usize] += 1;
            }
            let law = mahonian(n);
            assert_eq!(law.len(), counts.len(), "n = {n}");
            for (p, c) in law.iter().zip(&counts) {
                assert!((p - *c as f64 / all as f64).abs() < 1e-14, "n = {n}");
            }
        }
        // Mean and variance match the closed forms.
        let law = mahonian(30);
        let mean: f64 = law.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        let var: f64 = law
            .iter()
            .enumerate()
            .map(|(k, p)| (k as f64 - mean).powi(2) * p)
            .sum();
        let (m, v) = inversion_moments(30);
        assert!((mean - m).abs() < 1e-9 && (var - v).abs() < 1e-7 * v);
    }

    #[test]
    fn edgeworth_matches_the_exact_law_at_the_limit() {
        let n = EXACT_MAHONIAN_N;
        let edges = inversion_edges(n);
        let exact = inversion_bin_law(n, &edges);
        let bounds: Vec<f64> = std::iter::once(f64::NEG_INFINITY)
            .chain(edges.iter().map(|&e| e as f64))
            .collect();
        let mut worst: f64 = 0.0;
        let mut normal_worst: f64 = 0.0;
        let (mean, variance) = inversion_moments(n);
        for (k, &p) in exact.iter().enumerate() {
            let cdf = |i: usize| match i {
                0 => 0.0,
                i if i == exact.len() => 1.0,
                i => edgeworth_cdf(n, bounds[i]),
            };
            let normal = |i: usize| match i {
                0 => 0.0,
                i if i == exact.len() => 1.0,
                i => 0.5 * erfc(-(bounds[i] - 0.5 - mean) / variance.sqrt() / SQRT_2),
            };
            worst = worst.max((cdf(k + 1) - cdf(k) - p).abs());
            normal_worst = normal_worst.max((normal(k + 1) - normal(k) - p).abs());
        }
        eprintln!("n = {n}: Edgeworth error {worst:.2e}, normal error {normal_worst:.2e}");
        assert!(worst < 1e-9, "Edgeworth error {worst}");
        assert!(normal_worst > 10.0 * worst, "the correction matters");
        let total: f64 = exact.iter().sum();
        eprintln!("exact law sums to 1 + {:.2e}", total - 1.0);
        assert!((total - 1.0).abs() < 1e-10);
        assert!(exact.iter().all(|&p| (p - 1.0 / 32.0).abs() < 0.01));
    }

    /// The closed form over stretches between kinks equals the sum
    /// position by position, at sizes with bins of every width.
    #[test]
    fn row_products_equal_the_sum_over_positions() {
        for n in [2usize, 3, 7, 16, 17, 31, 100, 1023, 4099, 65_537] {
            let bins = displacement_bins(n);
            let start = |a: usize| displacement_bin_start(a, bins, n);
            let mut direct = vec![0.0; bins * bins];
            for p in 0..n {
                let row: Vec<f64> = (0..bins)
                    .map(|a| values_within(p, n, start(a), start(a + 1)) as f64)
                    .collect();
                for a in 0..bins {
                    for b in a..bins {
                        direct[a * bins + b] += row[a] * row[b];
                    }
                }
            }
            assert_eq!(row_products(n, bins, &start), direct, "n = {n}");
        }
    }

    /// The covariance formula against the enumeration of all n!
    /// permutations for n = 4, 5, 6.
    #[test]
    fn displacement_law_matches_enumeration() {
        for n in 4..=6 {
            let law = displacement_law(n);
            let d = law.bins;
            let parts = OrderParts {
                displacement: true,
                ..OrderParts::NONE
            };
            let all = factorial(n);
            let mut first = vec![0.0; d];
            let mut second = vec![0.0; d * d];
            let mut scratch = OrderScratch::default();
            for r in 0..all {
                let mut one = OrderCounts::new(n, parts);
                one.observe_batch(&unrank(r, n), n, &mut scratch);
                for a in 0..d {
                    first[a] += one.displacement[a] as f64 / all as f64;
                    for b in 0..d {
                        second[a * d + b] +=
                            (one.displacement[a] * one.displacement[b]) as f64 / all as f64;
                    }
                }
            }
            for a in 0..d {
                assert!((first[a] - law.mean[a]).abs() < 1e-12, "n = {n}");
                for b in 0..d {
                    let cov = second[a * d + b] - first[a] * first[b];
                    assert!(
                        (cov - law.covariance[a * d + b]).abs() < 1e-12,
                        "n = {n}, bins {a}, {b}: {cov} vs {}",
                        law.covariance[a * d + b]
                    );
                }
            }
        }
        // Binned (n > bins): the mean sums to n, each covariance row to 0.
        let law = displacement_law(1000);
        assert!((law.mean.iter().sum::<f64>() - 1000.0).abs() < 1e-9);
        for a in 0..law.bins {
            let row: f64 = law.covariance[a * law.bins..(a + 1) * law.bins]
                .iter()
                .sum();
            assert!(row.abs() < 1e-9, "row {a}: {row}");
        }
    }

    /// The closed-form bin sizes are the row sums of the cells, bin by bin
    /// (odd and even n, fewer values than bins and more).
    #[test]
    fn displacement_sizes_are_the_cells_counted() {
        for n in [2usize, 5, 16, 17, 1000, 1003] {
            let bins = displacement_bins(n);
            let start = |a: usize| displacement_bin_start(a, bins, n);
            for (a, size) in displacement_sizes(n).into_iter().enumerate() {
                let counted: usize = (0..n)
                    .map(|p| values_within(p, n, start(a), start(a + 1)))
                    .sum();
                assert_eq!(size, counted as f64, "n = {n}, bin {a}");
            }
            let total: f64 = displacement_means(n).iter().sum();
            assert!((total - n as f64).abs() < 1e-9, "n = {n}: {total}");
        }
    }

    #[test]
    fn sparse_bins_are_pooled() {
        // n = 4: per shuffle, 1 position expected at d = 0, 1.5 at d = 1,
        // 1 at d = 2 and 0.5 at d = 3.
        assert_eq!(pool(&[1.0, 1.5, 1.0, 0.5], 4.0), vec![0..2, 2..4]);
        assert_eq!(pool(&[1.0, 1.5, 1.0, 0.5], 1000.0).len(), 4);
        assert_eq!(pool(&[1.0, 1.5, 1.0, 0.5], 1.0), vec![0..4]);
        let parts = OrderParts {
            displacement: true,
            ..OrderParts::NONE
        };
        let mut counts = OrderCounts::new(4, parts);
        let four = [[0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2], [2, 3, 0, 1]].concat();
        counts.observe_batch(&four, 4, &mut OrderScratch::default());
        let (w, what) = displacement(&counts, 4, 4);
        assert_eq!(w.df, 1);
        assert!(what.contains("2 sparse bins pooled"), "{what}");
    }

    /// The binned Lehmer law against the enumeration of all n!
    /// permutations, with rows of several positions and digits binned
    /// (residues r = m mod K of every kind, m = i + 1 above and below K).
    #[test]
    fn lehmer_row_laws_match_enumeration() {
        for (n, rows, bins) in [(6usize, 2usize, 3usize), (7, 3, 4), (5, 5, 16), (7, 1, 2)] {
            let binning = Binning::new(n, rows).unwrap();
            let laws = lehmer_row_laws(binning, bins);
            let all = factorial(n);
            let mut first = vec![0.0; rows * bins];
            let mut second = vec![0.0; rows * bins * bins];
            let (mut digits, mut tree) = (Vec::new(), Vec::new());
            for rank in 0..all {
                crate::permutation::lehmer_digits(&unrank(rank, n), &mut digits, &mut tree);
                let mut h = vec![0.0; rows * bins];
                for (i, &d) in digits.iter().enumerate() {
                    h[binning.bin_of(i) * bins + lehmer_digit_bin(d, i, bins)] += 1.0;
                }
                for r in 0..rows {
                    for a in 0..bins {
                        first[r * bins + a] += h[r * bins + a] / all as f64;
                        for b in 0..bins {
                            second[(r * bins + a) * bins + b] +=
                                h[r * bins + a] * h[r * bins + b] / all as f64;
                        }
                    }
                }
            }
            for (r, law) in laws.iter().enumerate() {
                for a in 0..bins {
                    let mean = first[r * bins + a];
                    assert!(
                        (mean - law.mean[a]).abs() < 1e-10,
                        "n = {n}, row {r}, bin {a}"
                    );
                    for b in 0..bins {
                        let cov = second[(r * bins + a) * bins + b] - mean * first[r * bins + b];
                        let want = law.covariance[a * bins + b];
                        assert!(
                            (cov - want).abs() < 1e-10,
                            "n = {n}, row {r}: {cov} vs {want}"
                        );
                    }
                }
            }
        }
    }

    /// The residue sums against the direct sum over positions at a large n.
    #[test]
    fn lehmer_row_laws_match_the_direct_sum() {
        let n = 5003;
        let k = LEHMER_DIGIT_BINS;
        let rows = lehmer_rows(n);
        let laws = lehmer_law(n);
        assert_eq!(laws.len(), LEHMER_ROWS_AT_LARGE_N);
        for (r, law) in laws.iter().enumerate() {
            let mut mean = vec![0.0; k];
            let mut covariance = vec![0.0; k * k];
            for i in rows.range(r) {
                let mut p = vec![0.0; k];
                for d in 0..=i as u32 {
                    p[lehmer_digit_bin(d, i, k)] += 1.0 / (i + 1) as f64;
                }
                for a in 0..k {
                    mean[a] += p[a];
                    covariance[a * k + a] += p[a];
                    for b in 0..k {
                        covariance[a * k + b] -= p[a] * p[b];
                    }
                }
            }
            for a in 0..k {
                assert!((mean[a] - law.mean[a]).abs() < 1e-9, "row {r}");
                for b in 0..k {
                    assert!((covariance[a * k + b] - law.covariance[a * k + b]).abs() < 1e-9);
                }
            }
            // Each row's counts sum to its positions: the covariance rows
            // sum to 0.
            let total: f64 = law.mean.iter().sum();
            assert!((total - rows.size(r) as f64).abs() < 1e-9);
        }
    }

    #[test]
    fn binned_lehmer_test_passes_the_mean_and_sees_a_shift() {
        let n = 3000;
        let trials = 200u64;
        let laws = lehmer_law(n);
        let k = LEHMER_DIGIT_BINS;
        let parts = crate::tally::OrderParts {
            lehmer: true,
            ..crate::tally::OrderParts::NONE
        };
        let mut counts = OrderCounts::new(n, parts);
        for (law, row) in laws.iter().zip(counts.lehmer.chunks_exact_mut(k)) {
            for (c, m) in row.iter_mut().zip(&law.mean) {
                *c = (m * trials as f64).round() as u64;
            }
        }
        let (w, what) = lehmer(&counts, n, trials);
        assert_eq!(w.df, laws.len() * (k - 1), "{what}");
        assert!(w.log10_p > -1.0, "{w:?}");
        // Small digits a little too common (by a fifth of a cell's
        // expected count) in every row.
        for row in counts.lehmer.chunks_exact_mut(k).skip(1) {
            let shift = row[0] / 5;
            row[0] += shift;
            row[k - 1] -= shift;
        }
        let (w, _) = lehmer(&counts, n, trials);
        assert!(w.log10_p < -6.0, "{w:?}");
    }

    /// The displacement histogram always sums to n, so its df is one fewer
    /// than its groups at every n, by that constraint (at exactly n = 10^6
    /// rounding once kept the determined bin: df 16).
    #[test]
    fn displacement_df_comes_from_the_constraint_at_large_n() {
        use rand::{RngExt, SeedableRng};
        let parts = OrderParts {
            displacement: true,
            ..OrderParts::NONE
        };
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(22);
        for n in [400_000, 1_000_000, 2_000_000] {
            let mut counts = OrderCounts::new(n, parts);
            let mut scratch = OrderScratch::default();
            let mut deck: Vec<u32> = (0..n as u32).collect();
            let trials = 3;
            for _ in 0..trials {
                for i in (1..n).rev() {
                    deck.swap(i, rng.random_range(0..=i));
                }
                counts.observe_batch(&deck, n, &mut scratch);
            }
            let (w, what) = displacement(&counts, n, trials);
            assert_eq!(w.df, 15, "n = {n}: {what}");
            assert!(what.contains("df 15"), "{what}");
            assert!(w.log10_p > -3.0, "n = {n}: {w:?}");
        }
    }

    #[test]
    fn wald_drops_the_determined_bin_and_sees_a_shift() {
        let law = displacement_law(50);
        let trials = 1000u64;
        let exact: Vec<u64> = law
            .mean
            .iter()
            .map(|m| (m * trials as f64).round() as u64)
            .collect();
        let w = wald(&exact, trials, &law.mean, &law.covariance);
        assert_eq!(w.df, law.bins - 1);
        assert!(w.log10_p > -1.0, "{w:?}");
        let mut shifted = exact.clone();
        shifted[0] += 200;
        shifted[law.bins - 1] -= 200;
        let w = wald(&shifted, trials, &law.mean, &law.covariance);
        assert!(w.log10_p < -6.0, "{w:?}");
    }
}

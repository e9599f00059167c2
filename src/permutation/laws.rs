//! Exact laws of permutation statistics under a uniform shuffle, as
//! probability vectors indexed by the statistic's value, computed by stable
//! recurrences (no huge integers). Reached through
//! [`Statistic::uniform_law`](super::Statistic::uniform_law), which says
//! which law goes with which statistic.

/// P(exactly k fixed points), k = 0..=n: the rencontres law,
/// (1/k!) Σ_{j=0}^{n-k} (-1)^j / j!.
pub fn fixed_points(n: usize) -> Vec<f64> {
    // alternating[m] = Σ_{j=0}^{m} (-1)^j / j!
    let mut alternating = Vec::with_capacity(n + 1);
    let (mut term, mut sum) = (1.0f64, 0.0f64);
    for j in 0..=n {
        if j > 0 {
            term *= -1.0 / j as f64;
        }
        sum += term;
        alternating.push(sum);
    }
    let mut inv_factorial = 1.0f64;
    (0..=n)
        .map(|k| {
            if k > 0 {
                inv_factorial /= k as f64;
            }
            inv_factorial * alternating[n - k]
        })
        .collect()
}

/// P(exactly k cycles), k = 0..=n: unsigned Stirling numbers of the first
/// kind over n!, by p_m(k) = ((m-1)/m) p_{m-1}(k) + (1/m) p_{m-1}(k-1).
///
/// The count of cycles is a sum of independent Bernoulli(1/m), m = 1..n,
/// with mean and variance below H_n ≈ ln n + 0.58 (14.4 at n = 10^6), so
/// only k up to [`cycles_reach`] carries any mass a double can hold
/// (beyond it the Poisson-like tail is below 1e-250): the recurrence runs
/// on those k alone, O(n log n) instead of O(n²), and the rest is 0.
///
/// Above [`CYCLE_BLOCK`] the factors m are taken in blocks of that many,
/// each block's law (the same recurrence) computed in parallel and the
/// blocks' laws convolved in order: the same law on any number of threads,
/// and at n = 10^6 most of an audit's final tests no longer wait on one
/// thread for it.
pub fn cycles(n: usize) -> Vec<f64> {
    use rayon::prelude::*;
    let reach = cycles_reach(n);
    let blocks: Vec<Vec<f64>> = (0..n.div_ceil(CYCLE_BLOCK))
        .into_par_iter()
        .map(|b| {
            let first = b * CYCLE_BLOCK + 1;
            cycles_of_factors(first, (first + CYCLE_BLOCK - 1).min(n), reach)
        })
        .collect();
    let mut p = vec![0.0f64; n + 1];
    p[0] = 1.0; // the empty permutation has no cycles
    for block in &blocks {
        p = convolve_within(&p, block, reach, n + 1);
    }
    p
}

/// The factors m of [`cycles`] whose laws one block computes.
pub const CYCLE_BLOCK: usize = 1 << 16;

/// The law of the number of cycles contributed by factors `first..=last`:
/// the sum of independent Bernoulli(1/m) over those m, by the recurrence of
/// [`cycles`], up to `reach` (and, past the first block, up to the block's
/// own reach by the rule of [`cycles_reach`] on its mean Σ 1/m ≤ ln 2: about
/// 225, where a Poisson(ln 2) tail is below 1e-300).
///
/// The first block (every n up to [`CYCLE_BLOCK`]) divides by m as the law
/// always did, so those laws are the same to the bit; the others multiply
/// by (m − 1)/m and 1/m, four times faster, within a rounding of it.
fn cycles_of_factors(first: usize, last: usize, reach: usize) -> Vec<f64> {
    let mut len = (last + 1 - first).min(reach);
    if first > 1 {
        let mean: f64 = (first..=last).map(|m| 1.0 / m as f64).sum();
        len = len.min((mean + 30.0 * mean.sqrt() + 200.0).ceil() as usize);
    }
    let mut p = vec![0.0f64; len + 1];
    // Each step reads the last step's values only: two buffers, so that
    // the compiler can use vectors.
    let mut next = p.clone();
    p[0] = 1.0;
    for m in first..=last {
        let mf = m as f64;
        let top = (m + 1 - first).min(len);
        let (head, rest) = next.split_at_mut(1);
        let pairs = rest[..top].iter_mut().zip(p.windows(2));
        if first == 1 {
            head[0] = 0.0;
            for (to, from) in pairs {
                *to = from[1] * (mf - 1.0) / mf + from[0] / mf;
            }
        } else {
            let (stay, step) = ((mf - 1.0) / mf, 1.0 / mf);
            head[0] = p[0] * stay;
            for (to, from) in pairs {
                *to = from[1] * stay + from[0] * step;
            }
        }
        std::mem::swap(&mut p, &mut next);
    }
    p
}

/// The law of the sum of independent counts with laws `a` and `b`, up to
/// `reach`, padded with zeros to `len` values.
fn convolve_within(a: &[f64], b: &[f64], reach: usize, len: usize) -> Vec<f64> {
    let mut out = vec![0.0f64; len];
    for (i, &x) in a.iter().enumerate().take(reach + 1) {
        if x == 0.0 {
            continue;
        }
        for (j, &y) in b.iter().enumerate().take(reach + 1 - i) {
            out[i + j] += x * y;
        }
    }
    out
}

/// The largest cycle count [`cycles`] computes at `n`: all of them up to
/// n = 300, else H_n + 30·√H_n + 200 (at n = 10^6, 328: a Poisson(14.4)
/// tail beyond it is about e^-690).
pub fn cycles_reach(n: usize) -> usize {
    let h = (1..=n.min(1_000_000)).map(|m| 1.0 / m as f64).sum::<f64>()
        + if n > 1_000_000 {
            (n as f64 / 1e6).ln()
        } else {
            0.0
        };
    ((h + 30.0 * h.sqrt() + 200.0).ceil() as usize).min(n)
}

/// The largest n whose rising-sequence law [`rising_sequences`] computes
/// exactly (an O(n²) recurrence: 4·10^8 steps here); above, the Eulerian
/// law's Edgeworth expansion.
pub const RISING_EXACT_N: usize = 20_000;

/// P(exactly r rising sequences), r = 0..=n: Eulerian numbers A(n, r-1) over
/// n!, by q_m(d) = [(d+1) q_{m-1}(d) + (m-d) q_{m-1}(d-1)] / m on descents d.
///
/// Above [`RISING_EXACT_N`] the law is the Edgeworth expansion of the
/// descents' exact cumulants (mean (n-1)/2, variance (n+1)/12, third 0,
/// fourth -(n+1)/120), discretised with a continuity correction: the
/// Eulerian law obeys a local central limit theorem, and the expansion's
/// error (total variation 1.2e-5 at n = 20,000, shrinking as 1/n: about
/// 2.4e-7 at n = 10^6) is far below what any feasible number of trials at
/// such n can see (a chi-square needs on the order of 1/TV² trials).
pub fn rising_sequences(n: usize) -> Vec<f64> {
    if n > RISING_EXACT_N {
        return rising_sequences_edgeworth(n);
    }
    let mut q = vec![0.0f64; n.max(1)];
    q[0] = 1.0; // one element: no descent
    for m in 2..=n {
        let mf = m as f64;
        for d in (0..m).rev() {
            let stay = (d as f64 + 1.0) * q[d];
            let from_below = if d > 0 {
                (mf - d as f64) * q[d - 1]
            } else {
                0.0
            };
            q[d] = (stay + from_below) / mf;
        }
    }
    let mut p = vec![0.0f64; n + 1];
    p[1..=n].copy_from_slice(&q[..n]);
    p
}

/// [`rising_sequences`] above [`RISING_EXACT_N`]: P(r) = F(r - 1/2) - F(r - 3/2)
/// for the descents' Edgeworth CDF F(d) = Φ(x) - φ(x)·κ4/(24σ⁴)·(x³ - 3x),
/// x = (d - μ)/σ (r rising sequences are r - 1 descents of the inverse).
fn rising_sequences_edgeworth(n: usize) -> Vec<f64> {
    use statrs::function::erf::erfc;
    let nf = n as f64;
    let (mean, var, k4) = ((nf - 1.0) / 2.0, (nf + 1.0) / 12.0, -(nf + 1.0) / 120.0);
    let sd = var.sqrt();
    let cdf = |d: f64| {
        let x = (d - mean) / sd;
        let phi = (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let big_phi = 0.5 * erfc(-x / std::f64::consts::SQRT_2);
        (big_phi - phi * k4 / (24.0 * var * var) * (x * x * x - 3.0 * x)).clamp(0.0, 1.0)
    };
    let mut p = vec![0.0f64; n + 1];
    for (r, slot) in p.iter_mut().enumerate().skip(1) {
        let d = (r - 1) as f64;
        *slot = (cdf(d + 0.5) - cdf(d - 0.5)).max(0.0);
    }
    let total: f64 = p.iter().sum();
    p.iter_mut().for_each(|x| *x /= total);
    p
}

/// P(exactly k adjacent pairs), k = 0..=n: the number of values i whose
/// successor i+1 sits next to it, in either order
/// ([`adjacent_pairs`](super::adjacent_pairs)), by inclusion–exclusion.
///
/// A set S of j of the n−1 links {i, i+1} that forms r maximal runs glues
/// the values into n − j blocks, r of them of two or more values (each
/// either way round): (n − j)! 2^r permutations keep every link of S. There
/// are C(j−1, r−1) C(n−j, r) such sets, so the j-th binomial moment is
/// B_j = Σ_r C(j−1, r−1) C(n−j, r) 2^r (n−j)!/n!, and
/// P(k) = Σ_{j≥k} (−1)^{j−k} C(j, k) B_j. Terms are summed in log space;
/// the alternating sum loses at most a factor about e⁴ of precision (B_j is
/// close to 2^j/j!), and terms below 1e-40 of the largest are dropped, so
/// the cost stays O(n) per value at any n.
pub fn adjacent_pairs(n: usize) -> Vec<f64> {
    let mut p = vec![0.0f64; n + 1];
    if n <= 1 {
        p[0] = 1.0;
        return p;
    }
    // ln k! for k = 0..=n.
    let mut ln_fact = vec![0.0f64; n + 1];
    for k in 1..=n {
        ln_fact[k] = ln_fact[k - 1] + (k as f64).ln();
    }
    let ln_choose = |a: usize, b: usize| ln_fact[a] - ln_fact[b] - ln_fact[a - b];
    // Binomial moments B_j, j = 0..=n−1, while they matter.
    let links = n - 1;
    let mut moments = vec![1.0f64];
    for j in 1..=links {
        let ln_base = ln_fact[n - j] - ln_fact[n];
        let mut b = 0.0;
        for r in 1..=j.min(n - j) {
            let ln_term =
                ln_choose(j - 1, r - 1) + ln_choose(n - j, r) + r as f64 * std::f64::consts::LN_2;
            b += (ln_term + ln_base).exp();
        }
        moments.push(b);
        if j > 8 && b < 1e-40 {
            break;
        }
    }
    for (k, slot) in p.iter_mut().enumerate().take(links + 1) {
        let mut sum = 0.0;
        for (j, &b) in moments.iter().enumerate().skip(k) {
            let sign = if (j - k) % 2 == 0 { 1.0 } else { -1.0 };
            sum += sign * (ln_choose(j, k)).exp() * b;
        }
        *slot = sum.max(0.0);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laws_sum_to_one_at_large_n() {
        for law in [
            fixed_points(1000),
            cycles(1000),
            rising_sequences(1000),
            adjacent_pairs(1000),
        ] {
            let total: f64 = law.iter().sum();
            assert!((total - 1.0).abs() < 1e-9, "{total}");
            assert!(law.iter().all(|&p| p >= 0.0));
        }
    }
}

#[cfg(test)]
mod large_n_tests {
    use super::*;

    /// The truncated cycle law equals the full recurrence where both run,
    /// and the Edgeworth rising-sequence law is close to the exact one just
    /// below where it takes over.
    #[test]
    fn large_n_laws_match_the_exact_recurrences() {
        let n = 2000;
        let reach = cycles_reach(n);
        assert!(reach < n);
        let truncated = cycles(n);
        let mut full = vec![0.0f64; n + 1];
        full[0] = 1.0;
        for m in 1..=n {
            let mf = m as f64;
            for k in (1..=m).rev() {
                full[k] = full[k] * (mf - 1.0) / mf + full[k - 1] / mf;
            }
            full[0] = 0.0;
        }
        for k in 0..=n {
            assert!((truncated[k] - full[k]).abs() < 1e-250, "k = {k}");
        }
        let exact = rising_sequences(RISING_EXACT_N);
        let approx = rising_sequences_edgeworth(RISING_EXACT_N);
        let tv: f64 = exact
            .iter()
            .zip(&approx)
            .map(|(a, b)| (a - b).abs())
            .sum::<f64>()
            / 2.0;
        assert!(tv < 2e-5, "total variation {tv}");
        assert!((approx.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}

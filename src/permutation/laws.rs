//! Exact laws of permutation statistics under a uniform shuffle, as
//! probability vectors indexed by the statistic's value, computed by stable
//! recurrences (no huge integers). Reached through
//! [`Statistic::uniform_law`](super::Statistic::uniform_law), which says
//! which law goes with which statistic.

use std::ops::RangeInclusive;

/// P(exactly k fixed points), k = 0..=n: the rencontres law,
/// (1/k!) Σ_{j=0}^{n-k} (-1)^j / j!.
///
/// 1/k! is 0 in a double from about k = 178 on: the alternating sums stop
/// where their term is 0 (they no longer change) and the values where 1/k!
/// is (they are 0 from there), so that at n = 10^6 the law computes about
/// 178 values, not a million (18 ms).
pub fn fixed_points(n: usize) -> Vec<f64> {
    fixed_points_to(n, true)
}

/// [`fixed_points`], with `trim` stopping where the terms are 0 (without
/// it, the reference every term is computed for).
fn fixed_points_to(n: usize, trim: bool) -> Vec<f64> {
    // alternating[m] = Σ_{j=0}^{m} (-1)^j / j!, up to the m where its
    // term is 0; `sum` beyond.
    let mut alternating = Vec::new();
    let (mut term, mut sum) = (1.0f64, 0.0f64);
    for j in 0..=n {
        if j > 0 {
            term *= -1.0 / j as f64;
        }
        sum += term;
        alternating.push(sum);
        if trim && term == 0.0 {
            break;
        }
    }
    let mut inv_factorial = 1.0f64;
    let mut p = vec![0.0f64; n + 1];
    for (k, slot) in p.iter_mut().enumerate() {
        if k > 0 {
            inv_factorial /= k as f64;
        }
        if trim && inv_factorial == 0.0 {
            break;
        }
        *slot = inv_factorial * alternating.get(n - k).copied().unwrap_or(sum);
    }
    p
}

/// P(exactly k cycles), k = 0..=n: unsigned Stirling numbers of the first
/// kind over n!, by p_m(k) = ((m-1)/m) p_{m-1}(k) + (1/m) p_{m-1}(k-1).
///
/// The count of cycles is a sum of independent Bernoulli(1/m), m = 1..n,
/// with mean and variance below H_n ≈ ln n + 0.58 (14.4 at n = 10^6), so
/// only k up to `cycles_reach` carries any mass a double can hold
/// (beyond it the Poisson-like tail is below 1e-250): the recurrence runs
/// on those k alone, O(n log n) instead of O(n²), and the rest is 0.
///
/// Above `CYCLE_BLOCK` the factors m are taken in blocks of that many,
/// each block's law (the same recurrence) computed in parallel and the
/// blocks' laws convolved in order: the same law on any number of threads,
/// and at n = 10^6 most of an audit's final tests no longer wait on one
/// thread for it.
pub fn cycles(n: usize) -> Vec<f64> {
    use rayon::prelude::*;
    let reach = cycles_reach(n);
    let blocks: Vec<Vec<f64>> = (0..n.div_ceil(CYCLE_BLOCK))
        .into_par_iter()
        .map(|b| match b {
            0 if n > CYCLE_BLOCK && reach <= SHARED_REACH => first_block()[..=reach].to_vec(),
            _ => {
                let first = b * CYCLE_BLOCK + 1;
                cycles_of_factors(first, (first + CYCLE_BLOCK - 1).min(n), reach)
            }
        })
        .collect();
    // Convolved within the reach, then padded: no pass over all n + 1
    // values per block.
    let mut within = vec![1.0f64]; // the empty permutation has no cycles
    for block in &blocks {
        within = convolve_within(&within, block, reach);
    }
    let mut p = vec![0.0f64; n + 1];
    p[..within.len()].copy_from_slice(&within);
    p
}

/// The factors m of [`cycles`] whose laws one block computes.
pub const CYCLE_BLOCK: usize = 1 << 16;

/// The reach of the first block that every cycle law above [`CYCLE_BLOCK`]
/// shares ([`first_block`]): [`cycles_reach`] at n = 2^32, so that it serves
/// every n up to there. A value k of a block depends only on values up to
/// k, so the law to a smaller reach is this one cut short, to the bit.
const SHARED_REACH: usize = 366;

/// The law of the cycles of factors 1..=[`CYCLE_BLOCK`], to [`SHARED_REACH`]:
/// the first block of every cycle law above [`CYCLE_BLOCK`], and the one
/// that takes longest (its steps divide, and come one after another: about
/// 15 ms, where the other blocks run side by side), so computed once per
/// process.
static FIRST_BLOCK: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();

fn first_block() -> &'static [f64] {
    FIRST_BLOCK.get_or_init(|| cycles_of_factors(1, CYCLE_BLOCK, SHARED_REACH))
}

/// Starts computing the first block of the cycle law of `n` on a thread of
/// its own, where `n` is above [`CYCLE_BLOCK`] and it is not computed yet:
/// called when an audit starts (`audit::run`), so that the cycle test after
/// the counting does not wait for it (about 15 ms, which at n = 10^5 was
/// most of the final tests' time). Where no thread can be started
/// (WebAssembly) it is computed when first needed.
pub(crate) fn prepare_in_background(n: usize) {
    if n > CYCLE_BLOCK && FIRST_BLOCK.get().is_none() {
        // A thread that cannot start leaves the block to its first user.
        let _ = std::thread::Builder::new().spawn(first_block);
    }
}

/// The law of the number of cycles contributed by factors `first..=last`:
/// the sum of independent Bernoulli(1/m) over those m, by the recurrence of
/// [`cycles`], up to `reach` (and, past the first block, up to the block's
/// own reach by the rule of [`cycles_reach`] on its mean Σ 1/m ≤ ln 2: about
/// 225, where a Poisson(ln 2) tail is below 1e-300).
///
/// The first block (every n up to [`CYCLE_BLOCK`]) divides by m as the law
/// always did, so those laws are the same to the bit; the others multiply
/// by (m − 1)/m and 1/m, four times faster, within a rounding of it. Each
/// step stops one value past the last that is not 0 (an underflow: past it
/// the recurrence gives 0 again), and the steps are compiled for AVX2 where
/// the CPU has it (twice the divisions at once, the same rounding): the
/// same values to the bit as every value computed on any CPU (see the test
/// `cycle_law_skips_only_zeros`), at about half the cost.
fn cycles_of_factors(first: usize, last: usize, reach: usize) -> Vec<f64> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { cycles_of_factors_avx2(first, last, reach) };
    }
    cycles_of_factors_any(first, last, reach, true)
}

/// [`cycles_of_factors_any`] compiled for AVX2 (not FMA: no fused
/// rounding).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn cycles_of_factors_avx2(first: usize, last: usize, reach: usize) -> Vec<f64> {
    cycles_of_factors_any(first, last, reach, true)
}

/// [`cycles_of_factors`] on any CPU; `trim` stops each step past the last
/// value that is not 0 (without it, every step runs to its full length: the
/// reference the trimmed steps are checked against).
#[inline(always)]
fn cycles_of_factors_any(first: usize, last: usize, reach: usize, trim: bool) -> Vec<f64> {
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
    // The last values of `p` and `next` (what is left there of two steps
    // ago) that may not be 0. A step computes up to one past the first, and
    // over what is left in `next`, which it overwrites (with 0).
    let (mut p_end, mut next_end) = (0usize, 0usize);
    for m in first..=last {
        let mf = m as f64;
        let mut top = (m + 1 - first).min(len);
        if trim {
            top = top.min((p_end + 1).max(next_end));
        }
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
        next_end = top;
        while next_end > 0 && next[next_end] == 0.0 {
            next_end -= 1;
        }
        std::mem::swap(&mut p, &mut next);
        std::mem::swap(&mut p_end, &mut next_end);
    }
    p
}

/// The law of the sum of independent counts with laws `a` and `b`, up to
/// `reach`.
fn convolve_within(a: &[f64], b: &[f64], reach: usize) -> Vec<f64> {
    let mut out = vec![0.0f64; (a.len() + b.len() - 1).min(reach + 1)];
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
/// exactly (a recurrence over the descent counts a double can hold, about
/// 80 standard deviations wide: 4·10^7 steps here, where all of them were
/// 2·10^8); above, the Eulerian law's Edgeworth expansion.
pub const RISING_EXACT_N: usize = 20_000;

/// P(exactly r rising sequences), r = 0..=n: Eulerian numbers A(n, r-1) over
/// n!, by q_m(d) = [(d+1) q_{m-1}(d) + (m-d) q_{m-1}(d-1)] / m on descents d.
///
/// Above `RISING_EXACT_N` the law is the Edgeworth expansion of the
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
    rising_sequences_exact(n)
}

/// [`rising_sequences`] by the recurrence, each step computed only from the
/// first to one past the last descent count whose value is not 0 (1/m!
/// underflows from m = 178 on, and so do the counts far from the middle;
/// past them the recurrence gives 0 again): O(n^1.5) instead of O(n²).
/// Compiled for AVX2 where the CPU has it (more divisions at once, the
/// same rounding): 264–332 ms to 17–22 ms at n = 20,000 here, both
/// together.
fn rising_sequences_exact(n: usize) -> Vec<f64> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { rising_sequences_exact_avx2(n) };
    }
    rising_sequences_exact_any(n, true)
}

/// [`rising_sequences_exact_any`] compiled for AVX2 (not FMA: no fused
/// rounding).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn rising_sequences_exact_avx2(n: usize) -> Vec<f64> {
    rising_sequences_exact_any(n, true)
}

/// [`rising_sequences_exact`] on any CPU; without `trim`, every count at
/// every step: the reference the trimmed law is checked against, to the
/// bit.
#[inline(always)]
fn rising_sequences_exact_any(n: usize, trim: bool) -> Vec<f64> {
    let mut q = vec![0.0f64; n.max(1)];
    q[0] = 1.0; // one element: no descent
    // Each step reads the last step's values only: two buffers, so that
    // the compiler can use vectors.
    let mut next = q.clone();
    // The first and last descent counts whose value may not be 0, in `q`
    // and in `next` (what is left there of two steps ago). A step computes
    // from the first to one past the last, and over what is left in
    // `next`, which it overwrites (with 0).
    let (mut low, mut high) = (0usize, 0usize);
    let (mut next_low, mut next_high) = (0usize, 0usize);
    for m in 2..=n {
        let mf = m as f64;
        let (from, to) = if trim {
            (low.min(next_low), (high + 1).max(next_high).min(m - 1))
        } else {
            (0, m - 1)
        };
        if from == 0 {
            next[0] = q[0] / mf;
        }
        let start = from.max(1);
        for (d, (to_value, pair)) in next[start..=to]
            .iter_mut()
            .zip(q[start - 1..=to].windows(2))
            .enumerate()
        {
            let d = (start + d) as f64;
            *to_value = ((d + 1.0) * pair[1] + (mf - d) * pair[0]) / mf;
        }
        (next_low, next_high) = (low, high);
        (low, high) = (from, to);
        while high > low && next[high] == 0.0 {
            high -= 1;
        }
        while low < high && next[low] == 0.0 {
            low += 1;
        }
        std::mem::swap(&mut q, &mut next);
    }
    let mut p = vec![0.0f64; n + 1];
    p[1..=n].copy_from_slice(&q[..n]);
    p
}

/// [`rising_sequences`] above [`RISING_EXACT_N`]: P(r) = F(r - 1/2) - F(r - 3/2)
/// for the descents' Edgeworth CDF F(d) = Φ(x) - φ(x)·κ4/(24σ⁴)·(x³ - 3x),
/// x = (d - μ)/σ (r rising sequences are r - 1 descents of the inverse).
fn rising_sequences_edgeworth(n: usize) -> Vec<f64> {
    let nf = n as f64;
    let sd = ((nf + 1.0) / 12.0).sqrt();
    let mean = (nf - 1.0) / 2.0;
    // r - 1 descents within EDGEWORTH_REACH sds of the mean.
    let lo = (mean - EDGEWORTH_REACH * sd).floor().max(0.0) as usize + 1;
    let hi = ((mean + EDGEWORTH_REACH * sd).ceil() as usize + 1).min(n);
    rising_sequences_edgeworth_over(n, lo..=hi)
}

/// How many standard deviations from the mean [`rising_sequences_edgeworth`]
/// computes: beyond 38.6 both the normal density and its tail are 0 in a
/// double (e^-745), so the expansion's CDF is exactly 0 or 1 and the law
/// exactly 0 (at n = 10^6 computing all n values took 47 ms, these 2.3%).
const EDGEWORTH_REACH: f64 = 40.0;

/// [`rising_sequences_edgeworth`]'s values at r in `computed`, the others 0,
/// normalised over the computed ones.
fn rising_sequences_edgeworth_over(n: usize, computed: RangeInclusive<usize>) -> Vec<f64> {
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
    for r in computed.clone() {
        let d = (r - 1) as f64;
        p[r] = (cdf(d + 0.5) - cdf(d - 0.5)).max(0.0);
    }
    let total: f64 = p[computed.clone()].iter().sum();
    p[computed].iter_mut().for_each(|x| *x /= total);
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

/// The shortcuts of the large-n laws leave out only values that are 0: each
/// law is the same to the bit as every value computed.
#[cfg(test)]
mod shortcut_tests {
    use super::*;

    fn same_bits(a: &[f64], b: &[f64], what: &str) {
        assert_eq!(a.len(), b.len(), "{what}");
        for (k, (x, y)) in a.iter().zip(b).enumerate() {
            assert_eq!(
                x.to_bits(),
                y.to_bits(),
                "{what}, value {k}: {x:e} vs {y:e}"
            );
        }
    }

    /// The trimmed steps (on AVX2 where this CPU has it) against every
    /// step run to its full length on any CPU: the first block, which
    /// divides, at a small n and whole, and later blocks, which multiply.
    #[test]
    fn cycle_law_skips_only_zeros() {
        let reach = cycles_reach(1_000_000);
        for (first, last) in [
            (1, 3_000),
            (1, CYCLE_BLOCK),
            (CYCLE_BLOCK + 1, 2 * CYCLE_BLOCK),
            (15 * CYCLE_BLOCK + 1, 1_000_000),
        ] {
            let reach = if last <= 300 { last } else { reach };
            let full = cycles_of_factors_any(first, last, reach, false);
            let trimmed = cycles_of_factors(first, last, reach);
            assert!(full.contains(&0.0), "some value underflows");
            same_bits(&trimmed, &full, &format!("factors {first}..={last}"));
        }
    }

    /// The shared first block, cut to the reach of an n, is that n's first
    /// block; its reach serves n up to 2^32.
    #[test]
    fn shared_first_block_is_each_reachs_own() {
        assert_eq!(cycles_reach(u32::MAX as usize), SHARED_REACH);
        for n in [CYCLE_BLOCK + 1, 100_000, 1_000_000] {
            let reach = cycles_reach(n);
            let own = cycles_of_factors(1, CYCLE_BLOCK, reach);
            same_bits(&first_block()[..=reach], &own, &format!("n = {n}"));
        }
    }

    #[test]
    fn fixed_point_law_leaves_out_only_zeros() {
        for n in [0, 1, 2, 10, 170, 177, 178, 179, 200, 5_000] {
            let law = fixed_points(n);
            same_bits(&law, &fixed_points_to(n, false), &format!("n = {n}"));
        }
        let nonzero = fixed_points(5_000).iter().filter(|&&x| x > 0.0).count();
        assert!(nonzero < 180, "{nonzero} values");
    }

    #[test]
    fn eulerian_law_leaves_out_only_zeros() {
        for n in [0, 1, 2, 3, 10, 177, 178, 400, 3_000] {
            let law = rising_sequences(n);
            same_bits(
                &law,
                &rising_sequences_exact_any(n, false),
                &format!("n = {n}"),
            );
        }
        let nonzero = rising_sequences(3_000).iter().filter(|&&x| x > 0.0).count();
        assert!(nonzero < 2_000, "{nonzero} values");
    }

    #[test]
    fn edgeworth_law_leaves_out_only_zeros() {
        for n in [RISING_EXACT_N + 1, 100_000, 1_000_000] {
            let full = rising_sequences_edgeworth_over(n, 1..=n);
            let law = rising_sequences(n);
            same_bits(&law, &full, &format!("n = {n}"));
            let nonzero = law.iter().filter(|&&x| x > 0.0).count();
            assert!(nonzero < n / 4 || n < 100_000, "n = {n}: {nonzero} values");
        }
    }
}

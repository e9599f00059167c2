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
pub fn cycles(n: usize) -> Vec<f64> {
    let mut p = vec![0.0f64; n + 1];
    p[0] = 1.0; // the empty permutation has no cycles
    for m in 1..=n {
        let mf = m as f64;
        for k in (1..=m).rev() {
            p[k] = p[k] * (mf - 1.0) / mf + p[k - 1] / mf;
        }
        p[0] = 0.0;
    }
    p
}

/// P(exactly r rising sequences), r = 0..=n: Eulerian numbers A(n, r-1) over
/// n!, by q_m(d) = [(d+1) q_{m-1}(d) + (m-d) q_{m-1}(d-1)] / m on descents d.
pub fn rising_sequences(n: usize) -> Vec<f64> {
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

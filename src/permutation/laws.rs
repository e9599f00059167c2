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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laws_sum_to_one_at_large_n() {
        for law in [fixed_points(1000), cycles(1000), rising_sequences(1000)] {
            let total: f64 = law.iter().sum();
            assert!((total - 1.0).abs() < 1e-9, "{total}");
            assert!(law.iter().all(|&p| p >= 0.0));
        }
    }
}

//! k-subsets and pairs of the items `0..n`: how many there are, and where
//! each one sits in a flat table of counts. The sampler tally writes its
//! counts in these layouts and the sampler tests read them, so both take
//! them from here.

/// `C(n, k)`, or `None` when it does not fit in a `u64` (0 for k > n).
pub fn binomial(n: usize, k: usize) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c · (n − i) / (i + 1) stays an integer: it is C(n, i + 1)·(i+1)!/(i+1)!.
        c = c.checked_mul((n - i) as u128)? / (i as u128 + 1);
        if c > u64::MAX as u128 {
            return None;
        }
    }
    Some(c as u64)
}

/// The index of the pair (i, j), i < j < n, in a flat upper-triangular
/// table of `n(n−1)/2` pair counts: (0,1), (0,2), ..., (0,n−1), (1,2), ...
///
/// # Panics
/// Unless i < j < n.
pub fn pair_index(n: usize, i: usize, j: usize) -> usize {
    assert!(i < j && j < n, "pair ({i}, {j}) of {n} items");
    i * (2 * n - i - 1) / 2 + (j - i - 1)
}

/// The colexicographic rank of a subset given by its items in strictly
/// increasing order: `Σ C(items[i], i + 1)`, in `0..C(N, k)` for items
/// below N.
///
/// # Panics
/// If the items are not strictly increasing or the rank overflows `u64`.
pub fn subset_rank(items: &[usize]) -> u64 {
    assert!(
        items.windows(2).all(|w| w[0] < w[1]),
        "subset items must be strictly increasing: {items:?}"
    );
    items
        .iter()
        .enumerate()
        .map(|(i, &c)| binomial(c, i + 1).expect("subset rank overflows u64"))
        .fold(0u64, |acc, b| {
            acc.checked_add(b).expect("subset rank overflows u64")
        })
}

/// The subset of `k` of the items `0..n` with colexicographic rank `rank`,
/// in increasing order (the inverse of [`subset_rank`]).
///
/// # Panics
/// If `rank ≥ C(n, k)`.
pub fn subset_unrank(rank: u64, n: usize, k: usize) -> Vec<usize> {
    let cells = binomial(n, k).expect("C(n, k) overflows u64");
    assert!(rank < cells, "rank {rank} of C({n}, {k}) = {cells} subsets");
    let mut rest = rank;
    let mut top = n;
    let mut items = vec![0; k];
    for i in (1..=k).rev() {
        // The largest c < top with C(c, i) ≤ rest (c = i − 1 gives 0).
        let mut c = top - 1;
        let mut b = binomial(c, i).expect("within C(n, k)");
        while b > rest {
            c -= 1;
            b = binomial(c, i).expect("within C(n, k)");
        }
        items[i - 1] = c;
        rest -= b;
        top = c;
    }
    items
}

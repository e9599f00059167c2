//! Permutations as numbers and the statistics of an arrangement: Lehmer-code
//! ranks (to count whole permutations), rising sequences and cycles.
//!
//! An arrangement is what a shuffle leaves in the array: `a[p]` is the value
//! at position `p`, and a permutation of `0..n`.

/// Largest n whose permutations are counted one by one (8! = 40,320 cells);
/// beyond it the n! cells no longer fit in memory, or in any number of trials.
pub const MAX_PERMUTATION_N: usize = 8;

/// n! as an integer, for n up to 20.
pub fn factorial(n: usize) -> u64 {
    assert!(n <= 20, "{n}! does not fit in a u64");
    (1..=n as u64).product()
}

/// The Lehmer-code rank of arrangement `a` in `0..n!`: the number of
/// arrangements before it in lexicographic order (the identity is 0). For
/// n ≤ 20.
pub fn rank(a: &[u32]) -> usize {
    let n = a.len();
    let mut rank = 0u64;
    for (i, &x) in a.iter().enumerate() {
        let smaller_after = a[i + 1..].iter().filter(|&&y| y < x).count() as u64;
        rank = rank * (n - i) as u64 + smaller_after;
    }
    rank as usize
}

/// The arrangement of `0..n` whose [`rank`] is `rank` (the inverse of `rank`).
pub fn unrank(n: usize, mut rank: usize) -> Vec<u32> {
    let mut digits = vec![0usize; n];
    for (i, digit) in digits.iter_mut().enumerate().rev() {
        let base = n - i;
        *digit = rank % base;
        rank /= base;
    }
    let mut unused: Vec<u32> = (0..n as u32).collect();
    digits.into_iter().map(|d| unused.remove(d)).collect()
}

/// The number of rising sequences of arrangement `a`: maximal runs of
/// consecutive values x, x+1, ... that appear left to right. It is 1 plus the
/// number of descents of the inverse (values x with x+1 placed before x); a
/// riffle can at most double it. `pos` is scratch space.
pub fn rising_sequences(a: &[u32], pos: &mut Vec<u32>) -> usize {
    pos.clear();
    pos.resize(a.len(), 0);
    for (p, &x) in a.iter().enumerate() {
        pos[x as usize] = p as u32;
    }
    1 + pos.windows(2).filter(|w| w[1] < w[0]).count()
}

/// The number of cycles of arrangement `a` read as the map p → a[p] (fixed
/// points count as cycles). `seen` is scratch space.
pub fn cycles(a: &[u32], seen: &mut Vec<bool>) -> usize {
    seen.clear();
    seen.resize(a.len(), false);
    let mut count = 0;
    for start in 0..a.len() {
        if seen[start] {
            continue;
        }
        count += 1;
        let mut p = start;
        while !seen[p] {
            seen[p] = true;
            p = a[p] as usize;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection_in_lexicographic_order() {
        for n in 1..=6 {
            let mut previous: Option<Vec<u32>> = None;
            for r in 0..factorial(n) as usize {
                let a = unrank(n, r);
                assert_eq!(rank(&a), r);
                if let Some(p) = previous {
                    assert!(p < a, "n={n}: {p:?} !< {a:?}");
                }
                previous = Some(a);
            }
        }
        assert_eq!(rank(&[0, 1, 2, 3]), 0);
        assert_eq!(rank(&[3, 2, 1, 0]), 23);
        assert_eq!(unrank(3, 3), vec![1, 2, 0]);
    }

    #[test]
    fn counts_rising_sequences_and_cycles() {
        let (mut pos, mut seen) = (Vec::new(), Vec::new());
        // A riffle of [0,1,2] | [3,4,5]: two rising sequences.
        assert_eq!(rising_sequences(&[3, 0, 1, 4, 2, 5], &mut pos), 2);
        assert_eq!(rising_sequences(&[0, 1, 2, 3], &mut pos), 1);
        assert_eq!(rising_sequences(&[3, 2, 1, 0], &mut pos), 4);
        assert_eq!(cycles(&[0, 1, 2, 3], &mut seen), 4);
        assert_eq!(cycles(&[1, 2, 3, 0], &mut seen), 1);
        assert_eq!(cycles(&[1, 0, 3, 2], &mut seen), 2);
        assert_eq!(cycles(&[0, 2, 1], &mut seen), 2);
    }
}

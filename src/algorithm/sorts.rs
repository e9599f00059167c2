//! Shuffles built on sorting: by random keys (fair) or with a coin-flip
//! comparator (never fair for n ≥ 3).

use crate::source::RandomSource;

/// How many times `sort-random-keys` redraws tied keys before it keeps the
/// ties in their original order. A good source ties with probability about
/// n²/2^65 per shuffle, so the cap only matters for broken sources (whose keys
/// can tie forever), and there it shows up as bias, as it would in real code.
pub const MAX_KEY_DRAWS: usize = 16;

/// Sort by independent uniform 64-bit keys; on any tie all keys are redrawn
/// (up to [`MAX_KEY_DRAWS`] times), which keeps the result exactly uniform.
/// `keyed` is scratch.
pub fn sort_random_keys<R: RandomSource>(a: &mut [u32], rng: &mut R, keyed: &mut Vec<(u64, u32)>) {
    for _ in 0..MAX_KEY_DRAWS {
        keyed.clear();
        keyed.extend(a.iter().map(|&v| (rng.bits64(), v)));
        keyed.sort_by_key(|&(key, _)| key);
        if keyed.windows(2).all(|w| w[0].0 != w[1].0) {
            break;
        }
    }
    for (slot, &(_, v)) in a.iter_mut().zip(keyed.iter()) {
        *slot = v;
    }
}

/// Insertion sort whose comparator says "less" with probability 1/2 on every
/// call.
pub fn insertion_random_comparator<R: RandomSource>(a: &mut [u32], rng: &mut R) {
    for i in 1..a.len() {
        let x = a[i];
        let mut j = i;
        while j > 0 && rng.coin() {
            a[j] = a[j - 1];
            j -= 1;
        }
        a[j] = x;
    }
}

/// Top-down merge sort (left half = first floor(len/2)) whose comparator says
/// "less" with probability 1/2 on every call; the merge takes the right head
/// when told it is less. `buf` is scratch.
pub fn merge_random_comparator<R: RandomSource>(a: &mut [u32], rng: &mut R, buf: &mut Vec<u32>) {
    buf.clear();
    buf.resize(a.len(), 0);
    merge_sort(a, rng, buf);
}

fn merge_sort<R: RandomSource>(a: &mut [u32], rng: &mut R, buf: &mut [u32]) {
    let len = a.len();
    if len < 2 {
        return;
    }
    let mid = len / 2;
    merge_sort(&mut a[..mid], rng, buf);
    merge_sort(&mut a[mid..], rng, buf);
    let buf = &mut buf[..len];
    buf.copy_from_slice(a);
    let (left, right) = buf.split_at(mid);
    let (mut i, mut j) = (0, 0);
    for slot in a.iter_mut() {
        let take_right = if i == left.len() {
            true
        } else if j == right.len() {
            false
        } else {
            rng.coin()
        };
        if take_right {
            *slot = right[j];
            j += 1;
        } else {
            *slot = left[i];
            i += 1;
        }
    }
}

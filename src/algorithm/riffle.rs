//! The Gilbert–Shannon–Reeds riffle shuffle: the model of how people shuffle
//! cards, and the one whose distance to uniform Bayer and Diaconis computed
//! exactly ("seven shuffles suffice" for 52 cards).

use crate::source::RandomSource;

/// `k` Gilbert–Shannon–Reeds riffles of `a`. Biased for small k: after k
/// riffles at most 2^k rising sequences are possible.
///
/// One riffle cuts the deck after `c` cards, `c` ~ Binomial(n, 1/2) drawn as n
/// fair coins, then interleaves the packets `a[..c]` and `a[c..]`, dropping the
/// next card of the left packet with probability L/(L+R) (L, R the cards left
/// in each packet, drawn as `below(L + R) < L`), so every interleaving is
/// equally likely. Once a packet is empty the rest of the other one follows
/// without drawing. `buf` is scratch space.
pub fn riffle<R: RandomSource>(a: &mut [u32], rng: &mut R, k: u32, buf: &mut Vec<u32>) {
    let n = a.len();
    for _ in 0..k {
        let cut = (0..n).filter(|_| rng.coin()).count();
        buf.clear();
        buf.extend_from_slice(a);
        let (left, right) = buf.split_at(cut);
        let (mut l, mut r) = (0, 0);
        for slot in a.iter_mut() {
            let (left_rest, right_rest) = (left.len() - l, right.len() - r);
            let from_left = if left_rest == 0 || right_rest == 0 {
                left_rest > 0
            } else {
                rng.below((left_rest + right_rest) as u32) < left_rest as u32
            };
            if from_left {
                *slot = left[l];
                l += 1;
            } else {
                *slot = right[r];
                r += 1;
            }
        }
    }
}

//! What the web crate's integration tests share: a small deterministic
//! generator and the decks it shuffles.

/// A small deterministic generator for the test's decks (splitmix64).
pub struct Mix(pub u64);

impl Mix {
    /// A whole number below `m`.
    pub fn below(&mut self, m: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % m as u64) as usize
    }
}

/// `trials` decks of `n`, shuffled by Fisher–Yates or (`naive`) the naive
/// swap.
pub fn decks(n: usize, trials: usize, naive: bool, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Mix(seed);
    (0..trials)
        .map(|_| {
            let mut d: Vec<u8> = (0..n as u8).collect();
            for i in (1..n).rev() {
                let j = if naive {
                    rng.below(n)
                } else {
                    rng.below(i + 1)
                };
                d.swap(i, j);
            }
            d
        })
        .collect()
}

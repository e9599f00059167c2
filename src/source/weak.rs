//! Deliberately weak sources, reproducing real-world mistakes so that users can
//! see what a bad generator does to a good algorithm.

use super::generators::key_from_seed;
use super::{RandomSource, StreamSource, splitmix64};
use rand::{Rng, SeedableRng};

/// `RAND_MAX + 1` of the C libraries whose `rand()` yields 15 bits.
pub const RAND15_RANGE: u32 = 32_768;

/// 32 raw bits assembled from three 15-bit `rand()` outputs, the way C code
/// commonly widens `rand()`.
fn bits32_from_rand15(mut next: impl FnMut() -> u32) -> u32 {
    (next() << 30) ^ (next() << 15) ^ next()
}

/// Ideal uniform 15-bit values mapped by `r % bound`: pure modulo bias, with
/// no other flaw (the values themselves come from ChaCha8).
pub struct Rand15ModSource(rand_chacha::ChaCha8Rng);

impl Rand15ModSource {
    fn rand15(&mut self) -> u32 {
        self.0.next_u32() >> 17
    }
}

impl RandomSource for Rand15ModSource {
    #[inline]
    fn below(&mut self, bound: u32) -> u32 {
        self.rand15() % bound
    }
    fn bits32(&mut self) -> u32 {
        bits32_from_rand15(|| self.rand15())
    }
}

impl StreamSource for Rand15ModSource {
    fn for_stream(seed: u64, stream: u64) -> Self {
        let mut rng = rand_chacha::ChaCha8Rng::from_seed(key_from_seed(seed));
        rng.set_stream(stream);
        Self(rng)
    }
}

/// One step of the Microsoft C runtime's `rand()`: the LCG
/// `state = state * 214013 + 2531011`, output `(state >> 16) & 0x7fff`.
#[inline]
pub fn msvc_step(state: &mut u32) -> u32 {
    *state = state.wrapping_mul(214_013).wrapping_add(2_531_011);
    (*state >> 16) & 0x7fff
}

/// The real MSVC `rand()` generator mapped by `% bound`: modulo bias plus a
/// poor 32-bit LCG.
pub struct MsvcRandSource {
    state: u32,
}

impl RandomSource for MsvcRandSource {
    #[inline]
    fn below(&mut self, bound: u32) -> u32 {
        msvc_step(&mut self.state) % bound
    }
    fn bits32(&mut self) -> u32 {
        bits32_from_rand15(|| msvc_step(&mut self.state))
    }
}

impl StreamSource for MsvcRandSource {
    /// `srand` with a 32-bit value hashed from (seed, stream).
    fn for_stream(seed: u64, stream: u64) -> Self {
        Self {
            state: splitmix64(seed ^ splitmix64(stream)) as u32,
        }
    }
}

/// The seed-inside-the-loop bug: `srand(time(NULL)); rand() % bound` before
/// every draw, with a simulated clock that ticks once every
/// `draws_per_tick` draws, so runs of consecutive draws repeat.
pub struct ReseedPerDrawSource {
    clock: u32,
    draws_per_tick: u32,
    draws_this_tick: u32,
}

/// How far apart (in clock ticks) the clocks of consecutive work chunks start.
const CLOCK_TICKS_PER_STREAM: u64 = 1 << 20;

impl ReseedPerDrawSource {
    /// A source whose clock starts at `seed + stream * 2^20` (mod 2^32) and
    /// ticks every `draws_per_tick` draws.
    pub fn new(seed: u64, stream: u64, draws_per_tick: u32) -> Self {
        let start = seed.wrapping_add(stream.wrapping_mul(CLOCK_TICKS_PER_STREAM));
        Self {
            clock: start as u32,
            draws_per_tick: draws_per_tick.max(1),
            draws_this_tick: 0,
        }
    }

    fn rand15(&mut self) -> u32 {
        if self.draws_this_tick == self.draws_per_tick {
            self.clock = self.clock.wrapping_add(1);
            self.draws_this_tick = 0;
        }
        self.draws_this_tick += 1;
        let mut state = self.clock;
        msvc_step(&mut state)
    }
}

impl RandomSource for ReseedPerDrawSource {
    #[inline]
    fn below(&mut self, bound: u32) -> u32 {
        self.rand15() % bound
    }
    fn bits32(&mut self) -> u32 {
        bits32_from_rand15(|| self.rand15())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn msvc_matches_the_published_sequence() {
        // srand(1); rand() x5 on MSVC prints 41 18467 6334 26500 19169.
        let mut state = 1u32;
        let got: Vec<u32> = (0..5).map(|_| msvc_step(&mut state)).collect();
        assert_eq!(got, vec![41, 18467, 6334, 26500, 19169]);
    }

    #[test]
    fn rand15_mod_never_exceeds_rand_max() {
        let mut s = Rand15ModSource::for_stream(3, 0);
        for _ in 0..10_000 {
            assert!(s.below(1 << 20) < RAND15_RANGE);
        }
    }

    #[test]
    fn reseed_per_draw_repeats_within_a_tick() {
        let mut s = ReseedPerDrawSource::new(5, 0, 4);
        let draws: Vec<u32> = (0..8).map(|_| s.below(1000)).collect();
        assert!(draws[..4].iter().all(|&d| d == draws[0]), "{draws:?}");
        assert!(draws[4..].iter().all(|&d| d == draws[4]), "{draws:?}");
        assert_ne!(draws[0], draws[4]);
    }
}

//! Deliberately weak sources, reproducing real-world mistakes so that users can
//! see what a bad generator does to a good algorithm.

use super::generators::{chacha8, key_from_seed};
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
        Self(chacha8(seed, stream))
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

/// `java.util.Random`: the 48-bit LCG `seed = seed * 0x5DEECE66D + 0xB (mod
/// 2^48)` with its exact `nextInt(bound)` (rejection, no modulo bias), as
/// `Collections.shuffle` uses it. Its draws are fine for marginals; its 48
/// bits of state cap the deals one generator can make at 2^48, far below
/// the 2^225.6 arrangements of 52 cards.
pub struct JavaRandomSource {
    seed: u64,
}

/// The multiplier of `java.util.Random`.
const JAVA_MULTIPLIER: u64 = 0x5_DEEC_E66D;
/// Its 48-bit mask.
const JAVA_MASK: u64 = (1 << 48) - 1;

impl JavaRandomSource {
    /// `new Random(seed)`: the seed scrambled with the multiplier.
    pub fn with_seed(seed: i64) -> Self {
        Self {
            seed: (seed as u64 ^ JAVA_MULTIPLIER) & JAVA_MASK,
        }
    }

    /// `next(bits)`: the top `bits` of the new 48-bit state.
    fn next(&mut self, bits: u32) -> u32 {
        self.seed = (self.seed.wrapping_mul(JAVA_MULTIPLIER).wrapping_add(0xB)) & JAVA_MASK;
        (self.seed >> (48 - bits)) as u32
    }
}

impl RandomSource for JavaRandomSource {
    /// `nextInt(bound)`.
    fn below(&mut self, bound: u32) -> u32 {
        let bound = bound.min(i32::MAX as u32);
        if bound.is_power_of_two() {
            return ((u64::from(bound) * u64::from(self.next(31))) >> 31) as u32;
        }
        loop {
            let bits = self.next(31) as i32;
            let value = bits % bound as i32;
            // Java's overflow test: reject the last, partial block.
            if bits.wrapping_sub(value).wrapping_add(bound as i32 - 1) >= 0 {
                return value as u32;
            }
        }
    }

    /// `nextInt()`.
    fn bits32(&mut self) -> u32 {
        self.next(32)
    }
}

impl StreamSource for JavaRandomSource {
    /// `new Random(s)` with a 64-bit `s` hashed from (seed, stream).
    fn for_stream(seed: u64, stream: u64) -> Self {
        Self::with_seed(splitmix64(seed ^ splitmix64(stream)) as i64)
    }
}

/// Where a per-deal-seeded source gets each deal's seed.
pub trait DealSeeds {
    /// The seed of the next deal.
    fn next_seed(&mut self) -> u64;
}

/// A source seeded afresh for every deal from `K`'s seeds: the draws within
/// a deal are good (ChaCha8 keyed by the seed), but deals with the same
/// seed are the same deal, and there are only as many deals as seeds.
pub struct PerDealSource<K> {
    seeds: K,
    deal: rand_chacha::ChaCha8Rng,
}

impl<K: DealSeeds> PerDealSource<K> {
    fn new(mut seeds: K) -> Self {
        let first = seeds.next_seed();
        Self {
            seeds,
            deal: rand_chacha::ChaCha8Rng::from_seed(key_from_seed(first)),
        }
    }
}

impl<K: DealSeeds> RandomSource for PerDealSource<K> {
    #[inline]
    fn below(&mut self, bound: u32) -> u32 {
        super::lemire_below(bound, || self.deal.next_u32())
    }
    fn bits32(&mut self) -> u32 {
        self.deal.next_u32()
    }
    fn start_deal(&mut self) {
        let seed = self.seeds.next_seed();
        self.deal = rand_chacha::ChaCha8Rng::from_seed(key_from_seed(seed));
    }
}

/// Fresh 32-bit seeds (`new Random(int)` or `srand(int)` per deal): only
/// 2^32 possible deals, so a million deals repeat about T(T−1)/2^33 ≈ 116
/// of them.
pub struct Seeds32(rand_chacha::ChaCha8Rng);

impl DealSeeds for Seeds32 {
    fn next_seed(&mut self) -> u64 {
        u64::from(self.0.next_u32())
    }
}

/// Each deal seeded from a fresh 32-bit seed.
pub type Seed32Source = PerDealSource<Seeds32>;

impl StreamSource for Seed32Source {
    fn for_stream(seed: u64, stream: u64) -> Self {
        PerDealSource::new(Seeds32(chacha8(seed, stream)))
    }
}

/// A millisecond clock that advances 0, 1 or 2 ms between deals (a server
/// dealing about a thousand hands a second, seeding from the time: the
/// historical online-poker flaw). Deals within the same millisecond are
/// identical, and anyone who knows the time can replay them.
pub struct MsClock {
    gaps: rand_chacha::ChaCha8Rng,
    clock: u64,
    started: bool,
}

impl DealSeeds for MsClock {
    fn next_seed(&mut self) -> u64 {
        if self.started {
            self.clock += u64::from(super::lemire_below(3, || self.gaps.next_u32()));
        }
        self.started = true;
        self.clock
    }
}

/// Each deal seeded from a millisecond clock.
pub type ClockMsSource = PerDealSource<MsClock>;

/// How far apart (in ms) the clocks of consecutive work chunks start: a
/// day, so chunks overlap in time no more than real servers would.
const CLOCK_MS_PER_STREAM: u64 = 86_400_000;

impl StreamSource for ClockMsSource {
    fn for_stream(seed: u64, stream: u64) -> Self {
        PerDealSource::new(MsClock {
            gaps: chacha8(seed, stream),
            clock: seed.wrapping_add(stream.wrapping_mul(CLOCK_MS_PER_STREAM)),
            started: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_random_matches_the_jdk() {
        // new Random(42): nextInt() -1170105035, then nextInt(10) 3,
        // nextInt(52) 48, nextInt(16) 0, nextInt(1000000007) 662969970
        // (printed by java 21 on this machine).
        let mut r = JavaRandomSource::with_seed(42);
        assert_eq!(r.bits32() as i32, -1_170_105_035);
        let got: Vec<u32> = [10, 52, 16, 1_000_000_007]
            .iter()
            .map(|&b| r.below(b))
            .collect();
        assert_eq!(got, vec![3, 48, 0, 662_969_970]);
        // Collections.shuffle([0..9], new Random(7)) is Durstenfeld's
        // Fisher-Yates on nextInt(i + 1).
        let mut deck: Vec<u32> = (0..10).collect();
        crate::algorithm::fisher_yates(&mut deck, &mut JavaRandomSource::with_seed(7));
        assert_eq!(deck, vec![0, 1, 9, 3, 7, 4, 8, 5, 2, 6]);
    }

    #[test]
    fn per_deal_seeding_repeats_deals_where_seeds_repeat() {
        let deal = |s: &mut dyn FnMut() -> Vec<u32>| s();
        let mut clock = ClockMsSource::for_stream(1, 0);
        let mut deals = Vec::new();
        for _ in 0..300 {
            clock.start_deal();
            deals.push(deal(&mut || (0..5).map(|_| clock.below(1000)).collect()));
        }
        let repeats = deals.windows(2).filter(|w| w[0] == w[1]).count();
        // The clock stands still between a third of the deals.
        assert!((70..130).contains(&repeats), "{repeats}");
        let mut seeded = Seed32Source::for_stream(1, 0);
        let mut previous = Vec::new();
        for _ in 0..100 {
            seeded.start_deal();
            let now: Vec<u32> = (0..5).map(|_| seeded.below(1000)).collect();
            assert_ne!(now, previous, "2^32 seeds: no repeat in 100 deals");
            previous = now;
        }
    }

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

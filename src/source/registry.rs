//! The registry of random sources, selectable by name (`--rng NAME`).

use super::{
    ChaCha8Source, ChaCha20Source, ClockMsSource, JavaRandomSource, MsvcRandSource, Pcg64Source,
    Rand15ModSource, RandomSource, ReseedPerDrawSource, Seed32Source, StreamSource,
    Xoshiro256ppSource,
};
use crate::error::{Error, Result};
use crate::params::{NamedParams, lookup};
use serde::Serialize;
use std::fmt;

/// Every random source the auditor knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceKind {
    /// ChaCha8: the default.
    Chacha8,
    /// ChaCha20.
    Chacha20,
    /// Xoshiro256++.
    Xoshiro256pp,
    /// PCG64.
    Pcg64,
    /// Ideal 15-bit values mapped by `% bound`.
    Rand15Mod,
    /// The MSVC `rand()` LCG mapped by `% bound`.
    MsvcRand,
    /// `srand(time(NULL))` before every draw.
    ReseedPerDraw,
    /// `java.util.Random` and its `nextInt(bound)`.
    JavaRandom,
    /// A fresh 32-bit seed for every deal.
    Seed32,
    /// Every deal seeded from a millisecond clock.
    ClockMs,
}

impl SourceKind {
    /// All sources, in the order `list` shows them.
    pub const ALL: [SourceKind; 10] = [
        SourceKind::Chacha8,
        SourceKind::Chacha20,
        SourceKind::Xoshiro256pp,
        SourceKind::Pcg64,
        SourceKind::Rand15Mod,
        SourceKind::MsvcRand,
        SourceKind::ReseedPerDraw,
        SourceKind::JavaRandom,
        SourceKind::Seed32,
        SourceKind::ClockMs,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SourceKind::Chacha8 => "chacha8",
            SourceKind::Chacha20 => "chacha20",
            SourceKind::Xoshiro256pp => "xoshiro256pp",
            SourceKind::Pcg64 => "pcg64",
            SourceKind::Rand15Mod => "rand15-mod",
            SourceKind::MsvcRand => "msvc-rand",
            SourceKind::ReseedPerDraw => "reseed-per-draw",
            SourceKind::JavaRandom => "java-random",
            SourceKind::Seed32 => "seed32",
            SourceKind::ClockMs => "clock-ms",
        }
    }

    /// One line saying what the source is and why it is here.
    pub fn description(self) -> &'static str {
        match self {
            SourceKind::Chacha8 => {
                "ChaCha8 (default): passes the standard batteries, 2^64 disjoint streams per seed"
            }
            SourceKind::Chacha20 => "ChaCha20: the conservative cryptographic generator",
            SourceKind::Xoshiro256pp => "xoshiro256++: the fastest good generator; hashed streams",
            SourceKind::Pcg64 => "PCG64 (XSL-RR 128/64): a stream per increment",
            SourceKind::Rand15Mod => {
                "WEAK: ideal 15-bit rand() (RAND_MAX 32767) mapped by r % bound (modulo bias)"
            }
            SourceKind::MsvcRand => "WEAK: the real MSVC rand() LCG, mapped by % bound",
            SourceKind::ReseedPerDraw => {
                "WEAK: srand(time(NULL)) before every draw; the clock ticks every d draws (d=1000)"
            }
            SourceKind::JavaRandom => {
                "java.util.Random (48-bit LCG) with its nextInt(bound), as Collections.shuffle uses"
            }
            SourceKind::Seed32 => {
                "WEAK: every deal seeded from a fresh 32-bit seed (new Random(int)/srand per deal)"
            }
            SourceKind::ClockMs => {
                "WEAK: every deal seeded from a ms clock advancing 0-2 ms per deal (online poker)"
            }
        }
    }

    /// Whether this source is deliberately flawed.
    pub fn is_weak(self) -> bool {
        matches!(
            self,
            SourceKind::Rand15Mod
                | SourceKind::MsvcRand
                | SourceKind::ReseedPerDraw
                | SourceKind::Seed32
                | SourceKind::ClockMs
        )
    }

    /// The bits of state that decide a deal: a deal is a function of the
    /// state when it starts, so the source can make at most 2^bits
    /// different deals, and none reaches every arrangement of n items
    /// when bits < log2(n!) (52 cards need 225.6). For per-deal seeding it
    /// is the seed's size (a ms clock counted as 32 bits, generously).
    pub fn state_bits(self) -> u32 {
        match self {
            SourceKind::Chacha8 | SourceKind::Chacha20 => 256,
            SourceKind::Xoshiro256pp => 256,
            SourceKind::Pcg64 => 128,
            SourceKind::Rand15Mod => 256,
            SourceKind::MsvcRand | SourceKind::ReseedPerDraw => 32,
            SourceKind::JavaRandom => 48,
            SourceKind::Seed32 | SourceKind::ClockMs => 32,
        }
    }
}

/// log2(n!): the bits a source's state needs to reach every arrangement of
/// n items (225.6 for 52 cards).
pub fn arrangement_bits(n: usize) -> f64 {
    (2..=n).map(|k| (k as f64).log2()).sum()
}

/// A warning when `source` cannot deal every arrangement of `n` items (its
/// state bits below log2(n!)), saying what that means for the audit; `None`
/// when it can.
pub fn reach_warning(source: &SourceSpec, n: usize) -> Option<String> {
    let (bits, need) = (source.kind.state_bits(), arrangement_bits(n));
    (f64::from(bits) < need).then(|| {
        format!(
            "{source} has {bits} bits of state: it can deal at most 2^{bits} of the {n}! ≈ \
             2^{need:.1} arrangements of {n} items, which tests of marginals and structure \
             cannot see."
        )
    })
}

/// A fully specified random source: its kind and parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceSpec {
    /// Which generator.
    pub kind: SourceKind,
    /// For `reseed-per-draw`: draws per clock tick.
    pub draws_per_tick: u32,
}

/// Default draws per clock tick of `reseed-per-draw`.
pub const DEFAULT_DRAWS_PER_TICK: u32 = 1000;

impl Default for SourceSpec {
    fn default() -> Self {
        SourceKind::Chacha8.into()
    }
}

impl From<SourceKind> for SourceSpec {
    fn from(kind: SourceKind) -> Self {
        Self {
            kind,
            draws_per_tick: DEFAULT_DRAWS_PER_TICK,
        }
    }
}

/// Something to run with a concrete source type; the source's factory maps a
/// stream index to a fresh generator.
///
/// This is how a run-time choice of source becomes a compile-time type, so
/// algorithms are monomorphised per source and pay no dispatch per draw.
pub trait SourceVisitor {
    /// What the visit produces.
    type Output;
    /// Runs with `make(stream)` building the generator of each stream.
    fn visit<S, F>(self, make: F) -> Self::Output
    where
        S: RandomSource,
        F: Fn(u64) -> S + Sync;
}

impl SourceSpec {
    /// Parses `NAME[:key=value]`, e.g. `reseed-per-draw:d=50`.
    pub fn parse(text: &str) -> Result<Self> {
        let p = NamedParams::parse(text)?;
        let known: Vec<(&str, SourceKind)> =
            SourceKind::ALL.iter().map(|k| (k.name(), *k)).collect();
        let kind = lookup("random source", &p.name, &known)?;
        let mut spec = SourceSpec::from(kind);
        if kind == SourceKind::ReseedPerDraw {
            p.only(&["d"])?;
            if let Some(d) = p.get::<u32>("d")? {
                if d == 0 {
                    return Err(Error::out_of_range(
                        "parameter d of reseed-per-draw must be at least 1",
                    ));
                }
                spec.draws_per_tick = d;
            }
        } else {
            p.only(&[])?;
        }
        Ok(spec)
    }

    /// Calls `visitor` with this source's concrete type and a factory for the
    /// stream generators of `seed`.
    pub fn visit<V: SourceVisitor>(&self, seed: u64, visitor: V) -> V::Output {
        match self.kind {
            SourceKind::Chacha8 => visitor.visit(move |s| ChaCha8Source::for_stream(seed, s)),
            SourceKind::Chacha20 => visitor.visit(move |s| ChaCha20Source::for_stream(seed, s)),
            SourceKind::Xoshiro256pp => {
                visitor.visit(move |s| Xoshiro256ppSource::for_stream(seed, s))
            }
            SourceKind::Pcg64 => visitor.visit(move |s| Pcg64Source::for_stream(seed, s)),
            SourceKind::Rand15Mod => visitor.visit(move |s| Rand15ModSource::for_stream(seed, s)),
            SourceKind::MsvcRand => visitor.visit(move |s| MsvcRandSource::for_stream(seed, s)),
            SourceKind::ReseedPerDraw => {
                let d = self.draws_per_tick;
                visitor.visit(move |s| ReseedPerDrawSource::new(seed, s, d))
            }
            SourceKind::JavaRandom => visitor.visit(move |s| JavaRandomSource::for_stream(seed, s)),
            SourceKind::Seed32 => visitor.visit(move |s| Seed32Source::for_stream(seed, s)),
            SourceKind::ClockMs => visitor.visit(move |s| ClockMsSource::for_stream(seed, s)),
        }
    }
}

impl fmt::Display for SourceSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        if self.kind == SourceKind::ReseedPerDraw && self.draws_per_tick != DEFAULT_DRAWS_PER_TICK {
            write!(f, ":d={}", self.draws_per_tick)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_states_are_warned_about_where_they_fall_short() {
        assert!((arrangement_bits(52) - 225.58).abs() < 0.01);
        let java = SourceSpec::from(SourceKind::JavaRandom);
        assert!(reach_warning(&java, 16).is_none(), "16! < 2^48");
        let warning = reach_warning(&java, 52).unwrap();
        assert!(
            warning.contains("48 bits") && warning.contains("2^225.6"),
            "{warning}"
        );
        assert!(reach_warning(&SourceSpec::from(SourceKind::Pcg64), 52).is_some());
        assert!(reach_warning(&SourceSpec::default(), 52).is_none());
    }

    #[test]
    fn every_name_round_trips() {
        for kind in SourceKind::ALL {
            let spec = SourceSpec::parse(kind.name()).unwrap();
            assert_eq!(spec.kind, kind);
            assert_eq!(spec.to_string(), kind.name());
        }
        let spec = SourceSpec::parse("reseed-per-draw:d=7").unwrap();
        assert_eq!(spec.draws_per_tick, 7);
        assert_eq!(spec.to_string(), "reseed-per-draw:d=7");
    }

    #[test]
    fn bad_sources_are_named_in_the_error() {
        let err = SourceSpec::parse("mt19937").unwrap_err().to_string();
        assert!(err.contains("'mt19937'"), "{err}");
        assert!(SourceSpec::parse("chacha8:d=3").is_err());
        assert!(SourceSpec::parse("reseed-per-draw:d=0").is_err());
    }
}

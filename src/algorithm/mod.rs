//! The shuffle algorithms under audit, fair and classic-biased, selectable by
//! name with `NAME:key=value` parameters.
//!
//! Every algorithm permutes a `&mut [u32]` in place and draws all its
//! randomness through [`RandomSource`], generically (no dispatch per draw).

mod loaders;
mod moves;
pub mod record;
mod riffle;
mod sorts;
mod swaps;

#[cfg(test)]
pub use loaders::buffer_marginals;
pub use loaders::{Loader, buffer_shuffle, shard_shuffle, window_shuffle};
pub use moves::{fisher_yates_original, insert_last, pick_until_unused, rotation, top_to_random};
pub use riffle::riffle;
pub use sorts::{insertion_random_comparator, merge_random_comparator, sort_random_keys};
pub use swaps::{
    fisher_yates, fisher_yates_forward, inside_out, naive_swap, random_swap, sattolo,
    shrinking_range,
};

use crate::error::{Error, Result};
use crate::params::{NamedParams, lookup};
use crate::source::{RandAdapter, RandomSource};
pub use record::{Draws, Exact, Expected, Leaves, Param, Positional, Record, StepKind};
use std::fmt;

/// Which sort `sort-random-comparator` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComparatorSort {
    /// Straight insertion sort.
    Insertion,
    /// Top-down merge sort.
    Merge,
}

/// A shuffle algorithm with its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Durstenfeld's Fisher–Yates (fair).
    FisherYates,
    /// Fisher–Yates run forwards (fair).
    FisherYatesForward,
    /// Inside-out Fisher–Yates (fair).
    InsideOut,
    /// Pencil-and-paper Fisher–Yates (fair).
    FisherYatesOriginal,
    /// Rejection picking of untaken elements (fair).
    PickUntilUnused,
    /// `rand::seq::SliceRandom::shuffle` (fair; the reference).
    RandCrate,
    /// Sort by random 64-bit keys (fair).
    SortRandomKeys,
    /// Swap every element with a uniform one (biased).
    NaiveSwap,
    /// `k` random transpositions; `None` means k = n (biased for small k).
    RandomSwap {
        /// Number of transpositions, or n when `None`.
        k: Option<u32>,
    },
    /// The shrinking-range index bug (biased).
    ShrinkingRange,
    /// Sattolo's cyclic shuffle (biased: only n-cycles).
    Sattolo,
    /// Insert the last element at a uniform place, n times (biased).
    InsertLast,
    /// Insert the top element at a uniform place, n times (biased).
    TopToRandom,
    /// Sort with a coin-flip comparator (biased).
    SortRandomComparator {
        /// Which sort.
        sort: ComparatorSort,
    },
    /// A uniform rotation (biased, though its marginals are uniform).
    Rotation,
    /// `k` Gilbert–Shannon–Reeds riffle shuffles (biased for small k),
    /// then one uniform cut when `cut` is set, as a card room's shuffler
    /// finishes (the cut hides the riffles from position tests).
    Riffle {
        /// Number of riffles (default 1).
        k: u32,
        /// Whether a uniform cut follows the riffles (default no).
        cut: bool,
    },
    /// A data pipeline's shuffle buffer of `b` items (biased below b = n).
    BufferShuffle {
        /// Buffer size.
        b: u32,
    },
    /// Shard into runs of `s`, shuffle the shard order and within shards
    /// (biased unless s = 1 or s ≥ n).
    ShardShuffle {
        /// Shard size.
        s: u32,
    },
    /// Shuffle each consecutive window of `w` (biased below w = n).
    WindowShuffle {
        /// Window size.
        w: u32,
    },
}

/// The buffer, shard or window size of a data-loader shuffle when its
/// parameter is not given: small, as memory-bound pipelines use.
pub const DEFAULT_LOADER_SIZE: u32 = 4;

/// Reusable buffers for the algorithms that need working space, so that
/// running millions of shuffles allocates nothing per shuffle.
#[derive(Debug, Default, Clone)]
pub struct Scratch {
    words: Vec<u32>,
    spare: Vec<u32>,
    flags: Vec<bool>,
    keyed: Vec<(u64, u32)>,
    /// Identity rows of `identity_n` values back to back, copied over a
    /// whole batch at once (see [`Algorithm::shuffle_batch`]).
    identity: Vec<u32>,
    identity_n: usize,
}

impl Algorithm {
    /// Every algorithm with its default parameters, in the order `list` shows
    /// them: the fair ones first.
    pub const ALL: [Algorithm; 19] = [
        Algorithm::FisherYates,
        Algorithm::FisherYatesForward,
        Algorithm::InsideOut,
        Algorithm::FisherYatesOriginal,
        Algorithm::PickUntilUnused,
        Algorithm::RandCrate,
        Algorithm::SortRandomKeys,
        Algorithm::NaiveSwap,
        Algorithm::RandomSwap { k: None },
        Algorithm::ShrinkingRange,
        Algorithm::Sattolo,
        Algorithm::InsertLast,
        Algorithm::TopToRandom,
        Algorithm::SortRandomComparator {
            sort: ComparatorSort::Insertion,
        },
        Algorithm::Rotation,
        Algorithm::Riffle { k: 1, cut: false },
        Algorithm::BufferShuffle {
            b: DEFAULT_LOADER_SIZE,
        },
        Algorithm::ShardShuffle {
            s: DEFAULT_LOADER_SIZE,
        },
        Algorithm::WindowShuffle {
            w: DEFAULT_LOADER_SIZE,
        },
    ];

    /// Everything known about the algorithm before it runs: the one place
    /// that describes each algorithm (see `record`).
    pub fn record(&self) -> Record<'static> {
        use Exact::{Replay, ReplayWithoutRepeats, Stepwise, Unavailable};
        use Expected::{Biased, Fair};
        const fn param(key: &'static str, meaning: &'static str) -> Param {
            Param { key, meaning }
        }
        const K_SWAPS: &[Param] = &[param("k", "number of transpositions (default n)")];
        const K_RIFFLES: &[Param] = &[
            param("k", "number of riffles (default 1)"),
            param(
                "cut",
                "true: one uniform cut after the riffles (default false)",
            ),
        ];
        const BUFFER: &[Param] = &[param("b", "buffer size (default 4)")];
        const SHARD: &[Param] = &[param("s", "shard size (default 4)")];
        const WINDOW: &[Param] = &[param("w", "window size (default 4)")];
        const SORT: &[Param] = &[param("sort", "insertion (default) or merge")];
        const RAW_BITS: &str = "it draws raw 32/64-bit random words (bits32/bits64), and 2^32 or \
            more values per draw cannot be enumerated; exact mode handles algorithms that draw \
            bounded integers (below(bound))";
        let bounded = |name, description, expected, exact, positional| Record {
            name,
            description,
            params: &[],
            expected,
            draws: Draws::Bounded,
            exact,
            positional,
            steps: None,
        };
        let planned = |name, description, expected, pattern| {
            bounded(
                name,
                description,
                expected,
                Replay(Leaves::Positional),
                Some(pattern),
            )
        };
        match self {
            Algorithm::FisherYates => planned(
                "fisher-yates",
                "for i = n-1..1: swap(a[i], a[uniform[0,i]]) (Durstenfeld)",
                Fair,
                Positional::Durstenfeld,
            ),
            Algorithm::FisherYatesForward => planned(
                "fisher-yates-forward",
                "for i = 0..n-2: swap(a[i], a[uniform[i,n-1]])",
                Fair,
                Positional::Forward,
            ),
            Algorithm::InsideOut => planned(
                "inside-out",
                "for i = 0..n-1: swap(a[i], a[uniform[0,i]])",
                Fair,
                Positional::InsideOut,
            ),
            Algorithm::FisherYatesOriginal => planned(
                "fisher-yates-original",
                "strike a uniform remaining element, append it to the output (O(n^2))",
                Fair,
                Positional::Strike,
            ),
            Algorithm::PickUntilUnused => bounded(
                "pick-until-unused",
                "draw uniform[0,n-1] until untaken, take it (rejection)",
                Fair,
                ReplayWithoutRepeats,
                None,
            ),
            Algorithm::RandCrate => Record {
                draws: Draws::RawBits,
                ..bounded(
                    "rand-crate",
                    "rand::seq::SliceRandom::shuffle (rand's own draws from the source's raw bits)",
                    Fair,
                    Unavailable(RAW_BITS),
                    None,
                )
            },
            Algorithm::SortRandomKeys => Record {
                draws: Draws::RawBits,
                ..bounded(
                    "sort-random-keys",
                    "sort by independent uniform 64-bit keys (ties redrawn)",
                    Fair,
                    Unavailable(RAW_BITS),
                    None,
                )
            },
            Algorithm::NaiveSwap => planned(
                "naive-swap",
                "for i = 0..n-1: swap(a[i], a[uniform[0,n-1]])",
                Biased,
                Positional::Naive,
            ),
            Algorithm::RandomSwap { .. } => Record {
                params: K_SWAPS,
                steps: Some(StepKind::Transpositions),
                ..bounded(
                    "random-swap",
                    "k times swap two independent uniform cells (param k, default n)",
                    Biased,
                    Stepwise,
                    Some(Positional::Transpositions),
                )
            },
            Algorithm::ShrinkingRange => planned(
                "shrinking-range",
                "for i = 0..n-1: swap(a[i], a[uniform[0,n-1-i]])",
                Biased,
                Positional::Shrinking,
            ),
            Algorithm::Sattolo => planned(
                "sattolo",
                "for i = n-1..1: swap(a[i], a[uniform[0,i-1]]) (only n-cycles)",
                Biased,
                Positional::Sattolo,
            ),
            Algorithm::InsertLast => planned(
                "insert-last",
                "n times: move the last element to index uniform[0,n-1]",
                Biased,
                Positional::InsertLast,
            ),
            Algorithm::TopToRandom => planned(
                "top-to-random",
                "n times: move a[0] to index uniform[0,n-1]",
                Biased,
                Positional::TopTo,
            ),
            Algorithm::SortRandomComparator { .. } => Record {
                params: SORT,
                ..bounded(
                    "sort-random-comparator",
                    "sort with a coin-flip comparator (param sort=insertion|merge)",
                    Biased,
                    Replay(Leaves::Comparisons),
                    None,
                )
            },
            Algorithm::Rotation => planned(
                "rotation",
                "rotate by uniform[0,n-1] (uniform marginals, n outcomes)",
                Biased,
                Positional::Rotate,
            ),
            Algorithm::BufferShuffle { .. } => Record {
                params: BUFFER,
                ..bounded(
                    "buffer-shuffle",
                    "a b-item shuffle buffer: output a uniform buffered item, refill from the input (param b)",
                    Biased,
                    Replay(Leaves::FixedBounds),
                    None,
                )
            },
            Algorithm::ShardShuffle { .. } => Record {
                params: SHARD,
                ..bounded(
                    "shard-shuffle",
                    "cut into shards of s, shuffle the shard order and within each shard (param s)",
                    Biased,
                    Replay(Leaves::FixedBounds),
                    None,
                )
            },
            Algorithm::WindowShuffle { .. } => Record {
                params: WINDOW,
                ..bounded(
                    "window-shuffle",
                    "Fisher-Yates within each consecutive window of w items (param w)",
                    Biased,
                    Replay(Leaves::FixedBounds),
                    None,
                )
            },
            Algorithm::Riffle { cut, .. } => Record {
                params: K_RIFFLES,
                // Riffles and a final cut do not compose as repeated steps.
                steps: (!cut).then_some(StepKind::Riffles),
                ..bounded(
                    "riffle",
                    "k Gilbert-Shannon-Reeds riffles: binomial cut, uniform interleave (params k, default 1, and cut=true for a final uniform cut)",
                    Biased,
                    Replay(Leaves::Riffles),
                    None,
                )
            },
        }
    }

    /// The registry name, without parameters.
    pub fn name(&self) -> &'static str {
        self.record().name
    }

    /// One line saying what the algorithm does.
    pub fn description(&self) -> &'static str {
        self.record().description
    }

    /// Whether the algorithm produces every permutation with equal probability
    /// under an ideal source; the audit should agree.
    pub fn expected_fair(&self) -> bool {
        self.record().expected == Expected::Fair
    }

    /// The verdict the audit should reach at `n` under an ideal source: the
    /// record's, except for the data-loader shuffles, which are uniform once
    /// their size covers all `n` items ([`Loader::is_uniform`]).
    pub fn expected_at(&self, n: usize) -> Expected {
        match self.loader() {
            Some((loader, size)) if loader.is_uniform(size, n) => Expected::Fair,
            Some(_) | None => self.record().expected,
        }
    }

    /// The data-loader shuffle this is and its size, if it is one.
    pub fn loader(&self) -> Option<(Loader, usize)> {
        match *self {
            Algorithm::BufferShuffle { b } => Some((Loader::Buffer, b as usize)),
            Algorithm::WindowShuffle { w } => Some((Loader::Window, w as usize)),
            Algorithm::ShardShuffle { s } => Some((Loader::Shard, s as usize)),
            _ => None,
        }
    }

    /// The number of repetitions of its step the algorithm makes at `n`
    /// (`random-swap`: k transpositions, default n; `riffle`: k riffles), for
    /// the algorithms whose record has [`StepKind`] steps; `None` otherwise.
    pub fn step_count(&self, n: usize) -> Option<u64> {
        match self {
            Algorithm::RandomSwap { k } => Some(k.map_or(n as u64, u64::from)),
            Algorithm::Riffle { k, .. } => Some(u64::from(*k)),
            _ => None,
        }
    }

    /// Parses `NAME[:key=value,...]`, e.g. `random-swap:k=100`.
    pub fn parse(text: &str) -> Result<Self> {
        let mut p = NamedParams::parse(text)?;
        let known: Vec<(&str, Algorithm)> = Algorithm::ALL.iter().map(|a| (a.name(), *a)).collect();
        let base = lookup("algorithm", &p.name, &known)?;
        p.name = base.name().to_string();
        match base {
            Algorithm::RandomSwap { .. } => {
                p.only(&["k"])?;
                Ok(Algorithm::RandomSwap { k: p.get("k")? })
            }
            Algorithm::Riffle { .. } => {
                p.only(&["k", "cut"])?;
                Ok(Algorithm::Riffle {
                    k: p.get("k")?.unwrap_or(1),
                    cut: p.get("cut")?.unwrap_or(false),
                })
            }
            Algorithm::BufferShuffle { .. } => Ok(Algorithm::BufferShuffle {
                b: loader_size(&mut p, "b")?,
            }),
            Algorithm::ShardShuffle { .. } => Ok(Algorithm::ShardShuffle {
                s: loader_size(&mut p, "s")?,
            }),
            Algorithm::WindowShuffle { .. } => Ok(Algorithm::WindowShuffle {
                w: loader_size(&mut p, "w")?,
            }),
            Algorithm::SortRandomComparator { .. } => {
                p.only(&["sort"])?;
                let sort = match p.get::<String>("sort")?.as_deref() {
                    None | Some("insertion") => ComparatorSort::Insertion,
                    Some("merge") => ComparatorSort::Merge,
                    Some(other) => {
                        return Err(Error::unknown_name(format!(
                            "bad value '{other}' for parameter 'sort' of '{}' (expected insertion or merge)",
                            p.name
                        )));
                    }
                };
                Ok(Algorithm::SortRandomComparator { sort })
            }
            other => {
                p.only(&[])?;
                Ok(other)
            }
        }
    }

    /// The same algorithm made of `k` repetitions of its random step, for the
    /// algorithms with a repetition count (`random-swap`: k transpositions,
    /// `riffle`: k riffles); `None` for the others, and for riffles ended by
    /// a cut (whose repetitions do not compose).
    ///
    /// Repetitions compose: running `with_k(a)` and then `with_k(b)` on the
    /// result makes exactly the draws, and the arrangement, of `with_k(a + b)`.
    pub fn with_k(&self, k: u32) -> Option<Algorithm> {
        match self {
            Algorithm::RandomSwap { .. } => Some(Algorithm::RandomSwap { k: Some(k) }),
            Algorithm::Riffle { cut: false, .. } => Some(Algorithm::Riffle { k, cut: false }),
            _ => None,
        }
    }

    /// A name safe to use as a folder name (`random-swap_k-100`).
    pub fn slug(&self) -> String {
        self.to_string()
            .chars()
            .map(|c| match c {
                ':' | ',' => '_',
                '=' => '-',
                c => c,
            })
            .collect()
    }

    /// Shuffles `a` in place, allocating any working space it needs.
    pub fn shuffle<R: RandomSource>(&self, a: &mut [u32], rng: &mut R) {
        self.shuffle_with(a, rng, &mut Scratch::default());
    }

    /// Shuffles `a` in place, using `scratch` for working space.
    #[inline]
    pub fn shuffle_with<R: RandomSource>(&self, a: &mut [u32], rng: &mut R, scratch: &mut Scratch) {
        with_kernel!(*self, R, |kernel| kernel(a, rng, scratch))
    }

    /// Resets every `n`-long row of `batch` to the identity and shuffles it:
    /// the engine's unit of work. The algorithm is chosen once per batch, so
    /// each algorithm runs in its own tight loop (measured: about 1.4x faster
    /// at n = 10 than choosing per shuffle).
    pub fn shuffle_batch<R: RandomSource>(
        &self,
        batch: &mut [u32],
        n: usize,
        rng: &mut R,
        scratch: &mut Scratch,
    ) {
        scratch.reset_to_identity(batch, n);
        with_kernel!(*self, R, |kernel| {
            for row in batch.chunks_exact_mut(n) {
                rng.start_deal();
                kernel(row, rng, scratch);
            }
        })
    }
}

/// A data-loader shuffle's size parameter `key` (the only one it takes):
/// at least 1, [`DEFAULT_LOADER_SIZE`] when absent.
fn loader_size(p: &mut NamedParams, key: &str) -> Result<u32> {
    p.only(&[key])?;
    match p.get::<u32>(key)? {
        Some(0) => Err(Error::out_of_range(format!(
            "parameter {key} of '{}' must be at least 1",
            p.name
        ))),
        size => Ok(size.unwrap_or(DEFAULT_LOADER_SIZE)),
    }
}

/// Rows up to this long are reset from a template (see
/// [`Scratch::reset_to_identity`]); longer ones value by value, where the
/// template would double the batch's memory for little gain.
const TEMPLATE_MAX_N: usize = 64;

impl Scratch {
    /// Sets every `n`-long row of `batch` to `[0, 1, ..., n-1]`: for short
    /// rows with one copy of a kept template for the whole batch (measured:
    /// copying a row at a time cost a library call per shuffle, 1.6 ns of
    /// 21 at n = 10).
    fn reset_to_identity(&mut self, batch: &mut [u32], n: usize) {
        if n > TEMPLATE_MAX_N {
            for row in batch.chunks_exact_mut(n) {
                for (i, slot) in row.iter_mut().enumerate() {
                    *slot = i as u32;
                }
            }
            return;
        }
        if self.identity_n != n || self.identity.len() < batch.len() {
            self.identity = (0..n as u32).cycle().take(batch.len()).collect();
            self.identity_n = n;
        }
        batch.copy_from_slice(&self.identity[..batch.len()]);
    }
}

/// Binds `$kernel` to the shuffle function of algorithm `$alg` (a closure
/// `(&mut [u32], &mut $R, &mut Scratch)`) and evaluates `$body` once per
/// variant, so that callers get one monomorphic loop per algorithm without
/// repeating the dispatch table.
macro_rules! with_kernel {
    ($alg:expr, $R:ident, |$kernel:ident| $body:expr) => {{
        macro_rules! run {
            ($f:expr) => {{
                #[allow(unused_mut)]
                let mut $kernel = $f;
                $body
            }};
        }
        // A kernel that needs no working space.
        macro_rules! plain {
            ($g:expr) => {
                run!(|a: &mut [u32], r: &mut $R, _: &mut Scratch| $g(a, r))
            };
        }
        match $alg {
            Algorithm::FisherYates => plain!(fisher_yates),
            Algorithm::FisherYatesForward => plain!(fisher_yates_forward),
            Algorithm::InsideOut => plain!(inside_out),
            Algorithm::FisherYatesOriginal => plain!(fisher_yates_original),
            Algorithm::PickUntilUnused => run!(|a: &mut [u32], r: &mut $R, s: &mut Scratch| {
                pick_until_unused(a, r, &mut s.flags, &mut s.words)
            }),
            Algorithm::RandCrate => run!(|a: &mut [u32], r: &mut $R, _: &mut Scratch| {
                use rand::seq::SliceRandom;
                a.shuffle(&mut RandAdapter(r))
            }),
            Algorithm::SortRandomKeys => run!(|a: &mut [u32], r: &mut $R, s: &mut Scratch| {
                sort_random_keys(a, r, &mut s.keyed)
            }),
            Algorithm::NaiveSwap => plain!(naive_swap),
            Algorithm::RandomSwap { k } => run!(|a: &mut [u32], r: &mut $R, _: &mut Scratch| {
                let k = k.unwrap_or(a.len() as u32);
                random_swap(a, r, k)
            }),
            Algorithm::ShrinkingRange => plain!(shrinking_range),
            Algorithm::Sattolo => plain!(sattolo),
            Algorithm::InsertLast => plain!(insert_last),
            Algorithm::TopToRandom => plain!(top_to_random),
            Algorithm::SortRandomComparator {
                sort: ComparatorSort::Insertion,
            } => plain!(insertion_random_comparator),
            Algorithm::SortRandomComparator {
                sort: ComparatorSort::Merge,
            } => run!(|a: &mut [u32], r: &mut $R, s: &mut Scratch| {
                merge_random_comparator(a, r, &mut s.words)
            }),
            Algorithm::Rotation => plain!(rotation),
            Algorithm::BufferShuffle { b } => run!(|a: &mut [u32], r: &mut $R, s: &mut Scratch| {
                buffer_shuffle(a, r, b as usize, &mut s.words)
            }),
            Algorithm::ShardShuffle { s: size } => {
                run!(|a: &mut [u32], r: &mut $R, s: &mut Scratch| {
                    shard_shuffle(a, r, size as usize, &mut s.words, &mut s.spare)
                })
            }
            Algorithm::WindowShuffle { w } => {
                run!(|a: &mut [u32], r: &mut $R, _: &mut Scratch| window_shuffle(a, r, w as usize))
            }
            Algorithm::Riffle { k, cut } => {
                run!(|a: &mut [u32], r: &mut $R, s: &mut Scratch| {
                    riffle(a, r, k, &mut s.words);
                    if cut {
                        rotation(a, r)
                    }
                })
            }
        }
    }};
}
use with_kernel;

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        match self {
            Algorithm::RandomSwap { k: Some(k) } => write!(f, ":k={k}"),
            Algorithm::Riffle { k, cut } => match (*k, *cut) {
                (1, false) => Ok(()),
                (k, false) => write!(f, ":k={k}"),
                (k, true) => write!(f, ":k={k},cut=true"),
            },
            Algorithm::SortRandomComparator {
                sort: ComparatorSort::Merge,
            } => f.write_str(":sort=merge"),
            Algorithm::BufferShuffle { b: size }
            | Algorithm::ShardShuffle { s: size }
            | Algorithm::WindowShuffle { w: size }
                if *size != DEFAULT_LOADER_SIZE =>
            {
                let key = self.record().params[0].key;
                write!(f, ":{key}={size}")
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;

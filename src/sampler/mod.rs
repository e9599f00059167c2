//! The samplers under audit, fair and classic-biased, selectable by name
//! with `NAME:key=value` parameters (issue 10 §1):
//!
//! - **k-of-N samplers** ([`SubsetMethod`]): `k` distinct items of the
//!   population `0..n` per trial (`reservoir:k=3`, `floyd:k=6`, ...);
//! - the **minesweeper board** (`minesweeper:w=9,h=9,m=10,method=NAME`):
//!   any k-of-N sampler placing `m` mines on `w·h` cells, whose record says
//!   it is a board so that pictures can be drawn as the board;
//! - **weighted picks** ([`WeightedMethod`]): one index per trial with
//!   probability proportional to integer weights given separately, as a
//!   [`WeightTable`] built once per weight vector.
//!
//! Every sampler draws all its randomness through
//! [`RandomSource`], generically, and keeps its working space in a
//! [`SamplerScratch`], so that trials allocate nothing. What is known about
//! a sampler before it runs (fair or biased, ordered or not, its exact
//! method) is in its [`SamplerRecord`]. [`exact_subset_law`] and
//! [`exact_pick_law`] compute exact laws, as rationals, by replaying the
//! kernels against the enumerating [`Script`](crate::exact::Script) source.
//!
//! ```
//! use shuffle_audit::sampler::{Sampler, exact_subset_law};
//! use shuffle_audit::source::{StreamSource, Xoshiro256ppSource};
//!
//! # fn main() -> shuffle_audit::Result<()> {
//! let floyd = Sampler::parse("floyd:k=2")?;
//! let mut scratch = floyd.prepare(5, None)?;
//! let (mut rng, mut out) = (Xoshiro256ppSource::for_stream(1, 0), Vec::new());
//! floyd.sample(5, &mut rng, &mut out, &mut scratch);
//! assert_eq!(out.len(), 2);
//! assert!(exact_subset_law(floyd, 5)?.is_uniform());
//! assert!(!exact_subset_law(Sampler::parse("reservoir-off-by-one:k=2")?, 5)?.is_uniform());
//! # Ok(())
//! # }
//! ```

mod count;
mod exact;
pub mod files;
mod kernels;
mod kind;
pub mod record;
mod recorded;
mod section;
pub mod subject;
/// What a sampler audit counts (kept with the other tallies, which the
/// readers of outside samples fill too).
pub use crate::tally::sample as tally;
mod weighted;

pub use crate::tally::sample::SampleTally;
pub use count::run_sampler;
pub use kind::{Found, SampleTest, adequate_trials, first_item};
pub use recorded::Recorded;
pub use subject::{FnPicker, FnSampler, Reading, Sample, SamplerOptions, Samplers};

pub use exact::{
    MAX_EXACT_N, PickLaw, SubsetLaw, exact_pick_law, exact_pick_law_capped, exact_subset_law,
    exact_subset_law_capped,
};
pub use record::{Draws, Expected, SamplerExact, SamplerParam, SamplerRecord, Shape};
pub use weighted::{MAX_TOTAL_WEIGHT, WeightTable};

use crate::error::{Error, Result};
use crate::params::{NamedParams, lookup};
use crate::source::RandomSource;
use kernels::SwapMap;
use std::fmt;

/// A k-of-N sampler: an algorithm that returns `k` distinct items of
/// `0..n`. Its sample size lives in [`Sampler::Subset`] (or is the mine
/// count of a [`Board`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SubsetMethod {
    /// Algorithm R (fair).
    Reservoir,
    /// Li's Algorithm L, geometric skips from real uniforms (fair).
    ReservoirSkip,
    /// labuladong's `sample(lo, hi, k)` at lo = 0 (fair).
    SampleRange,
    /// Floyd's algorithm (fair).
    Floyd,
    /// Knuth's Algorithm S, selection sampling (fair).
    Selection,
    /// The first k steps of forward Fisher–Yates (fair, ordered).
    PartialFisherYates,
    /// Redraw until k distinct (fair, ordered).
    RetryDistinct,
    /// Marks first, Fisher–Yates the board, take the marked cells (fair).
    ShufflePrefix,
    /// The O(1) no-repeat getter with a hash map of swaps (fair, ordered).
    VirtualSwap,
    /// Algorithm R drawing `uniform[0, i-2]` for the i-th item (biased).
    ReservoirOffByOne,
    /// `WHERE random() < k/N LIMIT k`, rescanning while short (biased).
    BernoulliTrim,
    /// Every (N/k)-th item from a uniform start (biased).
    Systematic,
    /// Uniform cell, or the next free one (biased).
    LinearProbe,
    /// The first k cells after the naive swap shuffle (biased).
    NaiveSwapPrefix,
}

/// A weighted pick: one index per trial, with integer weights given
/// separately (a [`WeightTable`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeightedMethod {
    /// `uniform[0, W-1]` and a binary search of the prefix sums (fair).
    Prefix,
    /// Vose's alias method, in exact integers (fair).
    Alias,
    /// `uniform[1, W]` and the same search (biased).
    OffByOne,
}

/// A minesweeper board: `m` mines on `w × h` cells, placed by a k-of-N
/// sampler with `k = m`, `N = w·h`. Cell `c` is row `c / w`, column `c % w`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Width (columns).
    pub w: u32,
    /// Height (rows).
    pub h: u32,
    /// Number of mines.
    pub m: u32,
    /// The sampler that places them.
    pub method: SubsetMethod,
}

/// A sampler with its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sampler {
    /// `k` distinct items of `0..n` by `method`.
    Subset {
        /// The algorithm.
        method: SubsetMethod,
        /// The sample size.
        k: u32,
    },
    /// A minesweeper board (a k-of-N sampler drawn as a board).
    Minesweeper(Board),
    /// One index per trial, by weight.
    Weighted(WeightedMethod),
}

/// Reusable working space for the samplers, so that running millions of
/// trials allocates nothing per trial; it also holds the [`WeightTable`] of
/// a weighted pick. Make one with [`Sampler::prepare`] (or `default()` for
/// the k-of-N samplers), one per thread.
#[derive(Debug, Default, Clone)]
pub struct SamplerScratch {
    /// All false between trials.
    flags: Vec<bool>,
    /// `[0, ..., n-1]` between trials (partial Fisher–Yates).
    identity: Vec<u32>,
    /// Free working array (boards, naive swap).
    board: Vec<u32>,
    /// Swap targets (partial Fisher–Yates).
    swaps: Vec<u32>,
    /// Displaced slots (virtual swap).
    map: SwapMap,
    /// The weights of a weighted pick.
    weights: Option<WeightTable>,
}

impl SamplerScratch {
    /// The weight table it holds, if any.
    pub fn weights(&self) -> Option<&WeightTable> {
        self.weights.as_ref()
    }
}

impl SubsetMethod {
    /// Every k-of-N sampler, in the order `list` shows them: fair first.
    pub const ALL: [SubsetMethod; 14] = [
        SubsetMethod::Reservoir,
        SubsetMethod::ReservoirSkip,
        SubsetMethod::SampleRange,
        SubsetMethod::Floyd,
        SubsetMethod::Selection,
        SubsetMethod::PartialFisherYates,
        SubsetMethod::RetryDistinct,
        SubsetMethod::ShufflePrefix,
        SubsetMethod::VirtualSwap,
        SubsetMethod::ReservoirOffByOne,
        SubsetMethod::BernoulliTrim,
        SubsetMethod::Systematic,
        SubsetMethod::LinearProbe,
        SubsetMethod::NaiveSwapPrefix,
    ];

    /// Everything known about the sampler before it runs: the one place
    /// that describes each k-of-N sampler.
    pub fn record(self) -> SamplerRecord {
        use Expected::{Biased, Fair};
        use SamplerExact::{PassFolded, Replay, ReplayWithoutRepeats, Unavailable};
        let subset = |name, description, expected, ordered, exact| SamplerRecord {
            name,
            description,
            params: record::K,
            expected,
            shape: Shape::Subset,
            ordered,
            draws: Draws::Bounded,
            exact,
        };
        match self {
            SubsetMethod::Reservoir => subset(
                "reservoir",
                "Algorithm R: keep items 0..k-1; the i-th item (1-based, i > k) replaces res[j] \
                 when j = uniform[0,i-1] < k",
                Fair,
                false,
                Replay,
            ),
            SubsetMethod::ReservoirSkip => SamplerRecord {
                draws: Draws::RawBits,
                ..subset(
                    "reservoir-skip",
                    "Li's Algorithm L: geometric skips between replacements, W *= u^(1/k), from \
                     real uniforms made of bits64 words; slot uniform[0,k-1]",
                    Fair,
                    false,
                    Unavailable(record::REAL_UNIFORMS),
                )
            },
            SubsetMethod::SampleRange => subset(
                "sample-range",
                "labuladong's sample(lo, hi, k) at lo = 0, hi = N (transcribed as reservoir over \
                 [lo, hi): res = lo..lo+k-1; for i in lo+k..hi-1: j = uniform[0,i-lo], if j < k: \
                 res[j] = i); same draws as reservoir",
                Fair,
                false,
                Replay,
            ),
            SubsetMethod::Floyd => subset(
                "floyd",
                "Floyd: for j = N-k..N-1: t = uniform[0,j]; insert t if absent, else j",
                Fair,
                false,
                Replay,
            ),
            SubsetMethod::Selection => subset(
                "selection",
                "Knuth's Algorithm S: scan i = 0..N-1, take i when uniform[0,N-i-1] < k - taken",
                Fair,
                false,
                Replay,
            ),
            SubsetMethod::PartialFisherYates => subset(
                "partial-fisher-yates",
                "the first k steps of forward Fisher-Yates (j = uniform[i,N-1]; swap); the k \
                 drawn, in order",
                Fair,
                true,
                Replay,
            ),
            SubsetMethod::RetryDistinct => subset(
                "retry-distinct",
                "draw uniform[0,N-1] until k distinct values are in hand, in draw order",
                Fair,
                true,
                ReplayWithoutRepeats,
            ),
            SubsetMethod::ShufflePrefix => subset(
                "shuffle-prefix",
                "k marks in the first cells, Fisher-Yates the whole board, take the marked cells",
                Fair,
                false,
                Replay,
            ),
            SubsetMethod::VirtualSwap => subset(
                "virtual-swap",
                "k calls of an O(1) no-repeat getter: uniform[0,m-1] among the m not yet \
                 returned, swaps remembered in a hash map; in draw order",
                Fair,
                true,
                Replay,
            ),
            SubsetMethod::ReservoirOffByOne => subset(
                "reservoir-off-by-one",
                "Algorithm R with j = uniform[0,i-2] for the i-th item (1-based): keeps it with \
                 probability k/(i-1)",
                Biased,
                false,
                Replay,
            ),
            SubsetMethod::BernoulliTrim => subset(
                "bernoulli-trim",
                "WHERE random() < k/N LIMIT k: scan in order taking each item when \
                 uniform[0,N-1] < k until k are taken; rescan the untaken while short",
                Biased,
                false,
                PassFolded,
            ),
            SubsetMethod::Systematic => SamplerRecord {
                params: record::K_DIVIDES,
                ..subset(
                    "systematic",
                    "s = uniform[0,N/k-1]; take s, s+N/k, ..., s+(k-1)N/k (k must divide N)",
                    Biased,
                    false,
                    Replay,
                )
            },
            SubsetMethod::LinearProbe => subset(
                "linear-probe",
                "k times: draw uniform[0,N-1]; if taken, move to the next free cell (wrapping)",
                Biased,
                false,
                Replay,
            ),
            SubsetMethod::NaiveSwapPrefix => subset(
                "naive-swap-prefix",
                "the first k cells, in order, after the naive swap shuffle (for i in 0..N: swap \
                 a[i], a[uniform[0,N-1]])",
                Biased,
                true,
                Replay,
            ),
        }
    }

    /// The registry name.
    pub fn name(self) -> &'static str {
        self.record().name
    }

    /// Writes `k` distinct items of `0..n` to `out` (cleared first).
    ///
    /// Needs `1 <= k <= n <= u32::MAX` (and `k | n` for `systematic`), as
    /// [`Sampler::check`] verifies; panics or misbehaves otherwise.
    #[inline]
    pub fn sample<S: RandomSource>(
        self,
        n: usize,
        k: usize,
        rng: &mut S,
        out: &mut Vec<u32>,
        scratch: &mut SamplerScratch,
    ) {
        debug_assert!(1 <= k && k <= n && n <= u32::MAX as usize);
        let s = scratch;
        match self {
            SubsetMethod::Reservoir => kernels::reservoir(n, k, rng, out, 1),
            SubsetMethod::ReservoirSkip => kernels::reservoir_skip(n, k, rng, out),
            SubsetMethod::SampleRange => kernels::sample_range(n, k, rng, out),
            SubsetMethod::Floyd => kernels::floyd(n, k, rng, out, &mut s.flags),
            SubsetMethod::Selection => kernels::selection(n, k, rng, out),
            SubsetMethod::PartialFisherYates => {
                kernels::partial_fisher_yates(n, k, rng, out, &mut s.identity, &mut s.swaps)
            }
            SubsetMethod::RetryDistinct => kernels::retry_distinct(n, k, rng, out, &mut s.flags),
            SubsetMethod::ShufflePrefix => kernels::shuffle_prefix(n, k, rng, out, &mut s.board),
            SubsetMethod::VirtualSwap => kernels::virtual_swap(n, k, rng, out, &mut s.map),
            SubsetMethod::ReservoirOffByOne => kernels::reservoir(n, k, rng, out, 0),
            SubsetMethod::BernoulliTrim => kernels::bernoulli_trim(n, k, rng, out, &mut s.flags),
            SubsetMethod::Systematic => kernels::systematic(n, k, rng, out),
            SubsetMethod::LinearProbe => kernels::linear_probe(n, k, rng, out, &mut s.flags),
            SubsetMethod::NaiveSwapPrefix => {
                kernels::naive_swap_prefix(n, k, rng, out, &mut s.board)
            }
        }
    }
}

impl WeightedMethod {
    /// Every weighted pick, fair first.
    pub const ALL: [WeightedMethod; 3] = [
        WeightedMethod::Prefix,
        WeightedMethod::Alias,
        WeightedMethod::OffByOne,
    ];

    /// Everything known about the pick before it runs: the one place that
    /// describes each weighted pick.
    pub fn record(self) -> SamplerRecord {
        let weighted = |name, description, expected| SamplerRecord {
            name,
            description,
            params: &[],
            expected,
            shape: Shape::Weighted,
            ordered: false,
            draws: Draws::Bounded,
            exact: SamplerExact::Replay,
        };
        match self {
            WeightedMethod::Prefix => weighted(
                "weighted-prefix",
                "r = uniform[0,W-1] (W = sum of weights); the first i with prefix[i] > r, by \
                 binary search",
                Expected::Fair,
            ),
            WeightedMethod::Alias => weighted(
                "alias",
                "Vose's alias method in exact integers (table built once per weight vector): \
                 column uniform[0,n-1], kept when uniform[0,W-1] < its threshold, else its alias",
                Expected::Fair,
            ),
            WeightedMethod::OffByOne => weighted(
                "weighted-off-by-one",
                "r = uniform[1,W] instead of [0,W-1]; the first i with prefix[i] > r, or the last \
                 index when none is",
                Expected::Biased,
            ),
        }
    }

    /// The registry name.
    pub fn name(self) -> &'static str {
        self.record().name
    }

    /// One index of `0..table.len()`.
    #[inline]
    pub fn pick<S: RandomSource>(self, table: &WeightTable, rng: &mut S) -> u32 {
        match self {
            WeightedMethod::Prefix => table.pick_prefix(rng),
            WeightedMethod::Alias => table.pick_alias(rng),
            WeightedMethod::OffByOne => table.pick_off_by_one(rng),
        }
    }
}

impl Board {
    /// The number of cells, `w·h`.
    pub fn cells(&self) -> usize {
        self.w as usize * self.h as usize
    }

    /// Cell `c`'s (row, column).
    pub fn position(&self, cell: u32) -> (u32, u32) {
        (cell / self.w, cell % self.w)
    }
}

impl Sampler {
    /// Every sampler with its default parameters, in the order `list`
    /// shows them: the k-of-N samplers (k = 1), the minesweeper board
    /// (9×9, 10 mines, `shuffle-prefix`), the weighted picks.
    pub const ALL: [Sampler; 18] = {
        let mut all = [Sampler::Weighted(WeightedMethod::Prefix); 18];
        let mut i = 0;
        while i < SubsetMethod::ALL.len() {
            all[i] = Sampler::Subset {
                method: SubsetMethod::ALL[i],
                k: 1,
            };
            i += 1;
        }
        all[14] = Sampler::Minesweeper(Board {
            w: 9,
            h: 9,
            m: 10,
            method: SubsetMethod::ShufflePrefix,
        });
        all[15] = Sampler::Weighted(WeightedMethod::Prefix);
        all[16] = Sampler::Weighted(WeightedMethod::Alias);
        all[17] = Sampler::Weighted(WeightedMethod::OffByOne);
        all
    };

    /// Everything known about the sampler before it runs (see [`record`]).
    /// A minesweeper board is expected fair or biased, and enumerable or
    /// not, as the sampler that places its mines is.
    pub fn record(&self) -> SamplerRecord {
        match self {
            Sampler::Subset { method, .. } => method.record(),
            Sampler::Minesweeper(board) => {
                let inner = board.method.record();
                SamplerRecord {
                    name: "minesweeper",
                    description: "m mines on a w x h board (cell = row*w + column), placed by a \
                        k-of-N sampler with k = m, N = w*h (param method, default shuffle-prefix)",
                    params: record::BOARD,
                    expected: inner.expected,
                    shape: Shape::Board {
                        w: board.w,
                        h: board.h,
                    },
                    ordered: false,
                    draws: inner.draws,
                    exact: inner.exact,
                }
            }
            Sampler::Weighted(method) => method.record(),
        }
    }

    /// The registry name, without parameters.
    pub fn name(&self) -> &'static str {
        self.record().name
    }

    /// One line saying what the sampler does.
    pub fn description(&self) -> &'static str {
        self.record().description
    }

    /// Whether the sampler is fair under an ideal source; the audit should
    /// agree.
    pub fn expected_fair(&self) -> bool {
        self.record().expected == Expected::Fair
    }

    /// Whether the order within its sample is meaningful.
    pub fn is_ordered(&self) -> bool {
        self.record().ordered
    }

    /// The sample size: `k`, the mine count, or 1 for a weighted pick.
    pub fn k(&self) -> u32 {
        match self {
            Sampler::Subset { k, .. } => *k,
            Sampler::Minesweeper(board) => board.m,
            Sampler::Weighted(_) => 1,
        }
    }

    /// The population size the sampler fixes itself (a board's `w·h`);
    /// `None` when the caller chooses `n`.
    pub fn population(&self) -> Option<usize> {
        match self {
            Sampler::Minesweeper(board) => Some(board.cells()),
            _ => None,
        }
    }

    /// The board, for a minesweeper sampler.
    pub fn board(&self) -> Option<Board> {
        match self {
            Sampler::Minesweeper(board) => Some(*board),
            _ => None,
        }
    }

    /// The k-of-N algorithm it runs (a board's mine placer), if any.
    pub fn subset_method(&self) -> Option<SubsetMethod> {
        match self {
            Sampler::Subset { method, .. } => Some(*method),
            Sampler::Minesweeper(board) => Some(board.method),
            Sampler::Weighted(_) => None,
        }
    }

    /// Parses `NAME[:key=value,...]`, e.g. `reservoir:k=3` or
    /// `minesweeper:w=9,h=9,m=10,method=floyd`; unknown names get a
    /// did-you-mean.
    pub fn parse(text: &str) -> Result<Self> {
        let mut p = NamedParams::parse(text)?;
        let known: Vec<(&str, Sampler)> = Sampler::ALL.iter().map(|s| (s.name(), *s)).collect();
        let base = lookup("sampler", &p.name, &known)?;
        p.name = base.name().to_string();
        match base {
            Sampler::Subset { method, .. } => {
                p.only(&["k"])?;
                let k = at_least_one(&p, "k", 1)?;
                Ok(Sampler::Subset { method, k })
            }
            Sampler::Minesweeper(default) => {
                p.only(&["w", "h", "m", "method"])?;
                let w = at_least_one(&p, "w", default.w)?;
                let h = at_least_one(&p, "h", default.h)?;
                let m = at_least_one(&p, "m", default.m)?;
                let method = match p.get::<String>("method")? {
                    None => default.method,
                    Some(name) => board_method(&name)?,
                };
                let cells = u64::from(w) * u64::from(h);
                if cells > u64::from(u32::MAX) {
                    return Err(Error::out_of_range(format!(
                        "minesweeper board {w} x {h} has {cells} cells, more than {}",
                        u32::MAX
                    )));
                }
                if u64::from(m) > cells {
                    return Err(Error::out_of_range(format!(
                        "minesweeper: m = {m} mines do not fit on a {w} x {h} board ({cells} cells)"
                    )));
                }
                let board = Board { w, h, m, method };
                Sampler::Minesweeper(board).check(board.cells())?;
                Ok(Sampler::Minesweeper(board))
            }
            Sampler::Weighted(method) => {
                p.only(&[])?;
                Ok(Sampler::Weighted(method))
            }
        }
    }

    /// Checks that the sampler can run on the population `0..n`: `n` in
    /// `1..=u32::MAX`; `1 <= k <= n`; `k | n` for `systematic`; `n = w·h`
    /// for a board. A weighted pick's `n` is its number of weights (see
    /// [`prepare`](Self::prepare), which also checks the weights).
    pub fn check(&self, n: usize) -> Result<()> {
        let out_of_range = |message: String| Err(Error::out_of_range(message));
        if n == 0 {
            return out_of_range(format!("{self}: the population is empty (n = 0)"));
        }
        if n > u32::MAX as usize {
            return out_of_range(format!("{self}: n = {n} is more than {}", u32::MAX));
        }
        let (method, k) = match self {
            Sampler::Weighted(_) => return Ok(()),
            Sampler::Subset { method, k } => (*method, *k as usize),
            Sampler::Minesweeper(board) => {
                if n != board.cells() {
                    return out_of_range(format!(
                        "{self}: the board has {} cells, but n = {n}",
                        board.cells()
                    ));
                }
                (board.method, board.m as usize)
            }
        };
        if k == 0 {
            return out_of_range(format!("{self}: k must be at least 1"));
        }
        if k > n {
            return out_of_range(format!(
                "{self}: cannot take k = {k} distinct items of n = {n}"
            ));
        }
        if method == SubsetMethod::Systematic && !n.is_multiple_of(k) {
            return out_of_range(format!(
                "{self}: systematic sampling needs k to divide n, and {k} does not divide {n}"
            ));
        }
        Ok(())
    }

    /// Checks everything (as [`check`](Self::check)) and returns scratch
    /// ready for [`sample`](Self::sample): for a weighted pick, `weights`
    /// (one per index of `0..n`) are checked and prepared once here; the
    /// other samplers take no weights.
    pub fn prepare(&self, n: usize, weights: Option<&[u64]>) -> Result<SamplerScratch> {
        self.check(n)?;
        match (self, weights) {
            (Sampler::Weighted(_), Some(weights)) => {
                if weights.len() != n {
                    return Err(Error::out_of_range(format!(
                        "{self}: {} weights for n = {n} indices",
                        weights.len()
                    )));
                }
                let weights = Some(WeightTable::new(weights)?);
                Ok(SamplerScratch {
                    weights,
                    ..SamplerScratch::default()
                })
            }
            (Sampler::Weighted(_), None) => Err(Error::unsupported(format!(
                "{self} needs a weight per index (integers, given separately)"
            ))),
            (_, Some(_)) => Err(Error::unsupported(format!(
                "{self} takes no weights (only weighted-prefix, alias and weighted-off-by-one do)"
            ))),
            (_, None) => Ok(SamplerScratch::default()),
        }
    }

    /// One trial on the population `0..n`: writes the sample to `out`
    /// (cleared first): `k` distinct items (in the sampler's order; only an
    /// ordered sampler's order means anything), a board's mine cells, or
    /// one index for a weighted pick (drawn with `scratch`'s weights).
    ///
    /// The sampler must have passed [`check`](Self::check) for this `n`
    /// (use [`prepare`](Self::prepare)); a weighted pick panics when
    /// `scratch` holds no weights.
    #[inline]
    pub fn sample<S: RandomSource>(
        &self,
        n: usize,
        rng: &mut S,
        out: &mut Vec<u32>,
        scratch: &mut SamplerScratch,
    ) {
        match *self {
            Sampler::Subset { method, k } => method.sample(n, k as usize, rng, out, scratch),
            Sampler::Minesweeper(board) => {
                debug_assert_eq!(n, board.cells());
                board.method.sample(n, board.m as usize, rng, out, scratch)
            }
            Sampler::Weighted(method) => {
                let table = scratch
                    .weights
                    .as_ref()
                    .expect("a weighted pick needs scratch with weights (Sampler::prepare)");
                debug_assert_eq!(n, table.len());
                out.clear();
                out.push(method.pick(table, rng));
            }
        }
    }

    /// A name safe to use as a folder name (`reservoir_k-3`).
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
}

/// The value of `key` (default `default`), which must be at least 1.
fn at_least_one(p: &NamedParams, key: &str, default: u32) -> Result<u32> {
    let value = p.get::<u32>(key)?.unwrap_or(default);
    if value == 0 {
        return Err(Error::out_of_range(format!(
            "parameter {key} of '{}' must be at least 1",
            p.name
        )));
    }
    Ok(value)
}

/// The k-of-N sampler named by a board's `method=NAME`: a weighted pick or
/// a board is refused by name, a typo gets a did-you-mean among the k-of-N
/// samplers.
fn board_method(name: &str) -> Result<SubsetMethod> {
    if name.contains(':') {
        return Err(Error::unsupported(format!(
            "minesweeper's method takes a bare k-of-N sampler name (its k is the mine count m), \
             not '{name}'"
        )));
    }
    let all: Vec<(&str, Sampler)> = Sampler::ALL.iter().map(|s| (s.name(), *s)).collect();
    let subsets: Vec<(&str, SubsetMethod)> =
        SubsetMethod::ALL.iter().map(|m| (m.name(), *m)).collect();
    match lookup("sampler", name, &all) {
        Ok(Sampler::Subset { method, .. }) => Ok(method),
        Ok(other) => Err(Error::unsupported(format!(
            "'{}' cannot place minesweeper's mines: method must be a k-of-N sampler (known: {})",
            other.name(),
            subsets
                .iter()
                .map(|(k, _)| *k)
                .collect::<Vec<_>>()
                .join(", ")
        ))),
        Err(_) => lookup("k-of-N sampler", name, &subsets),
    }
}

impl fmt::Display for Sampler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        match self {
            Sampler::Subset { k, .. } => write!(f, ":k={k}"),
            Sampler::Minesweeper(b) => write!(
                f,
                ":w={},h={},m={},method={}",
                b.w,
                b.h,
                b.m,
                b.method.name()
            ),
            Sampler::Weighted(_) => Ok(()),
        }
    }
}

impl fmt::Display for SubsetMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for WeightedMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests;

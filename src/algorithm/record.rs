//! What is known about a shuffle before it runs: one [`Record`] per
//! algorithm, which every other module asks instead of matching algorithms.
//!
//! Exact laws, marginal propagation, mixing curves, reports and the command
//! line read a shuffle's capabilities here, so that adding an algorithm (or
//! auditing a shuffle from outside the tool, whose record says "unknown" to
//! everything) is one entry, and no module needs a catch-all arm.

/// The verdict an ideal run should reach, as far as anyone knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expected {
    /// Every permutation equally likely under an ideal source.
    Fair,
    /// Provably not uniform.
    Biased,
    /// Nobody knows in advance: a shuffle from outside the tool, judged only
    /// by the audit.
    Unknown,
}

impl Expected {
    /// `fair`, `biased` or `unknown`, as outputs show it.
    pub fn slug(self) -> &'static str {
        match self {
            Expected::Fair => "fair",
            Expected::Biased => "biased",
            Expected::Unknown => "unknown",
        }
    }
}

/// How a shuffle obtains its randomness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Draws {
    /// Bounded integers (`below(bound)`): can be enumerated exactly.
    Bounded,
    /// Raw 32/64-bit words: too many values per draw to enumerate.
    RawBits,
    /// A Rust function handed one of our generators (as `rand::Rng`): our
    /// source and seed, its own use of them.
    Generator,
    /// Its own generator, outside the tool (a file or a program's output):
    /// no source of ours is involved.
    Outside,
}

/// Which exact method computes the shuffle's law, or why none does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exact {
    /// Replay the algorithm on every draw sequence; the leaves are counted
    /// as the [`Leaves`] rule says.
    Replay(Leaves),
    /// Replay with rejected draws folded away (rejection sampling that never
    /// repeats a value).
    ReplayWithoutRepeats,
    /// Compose one step at a time over the arrangements reached (many
    /// identical independent steps).
    Stepwise,
    /// No exact method; the reason, for the refusal message.
    Unavailable(&'static str),
}

/// How many draw sequences a [`Exact::Replay`] enumeration visits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Leaves {
    /// The product of the draw supports of the steps of its
    /// [`Positional`] plan.
    Positional,
    /// One fair coin per comparison of a sort: n! (bounded by the sort's
    /// comparisons).
    Comparisons,
    /// Gilbert–Shannon–Reeds riffles: cut coins and interleave draws.
    Riffles,
    /// Draws whose bounds never depend on the values drawn (the data-loader
    /// shuffles): one replay lists the bounds, and the leaves are their
    /// product.
    FixedBounds,
}

/// The pattern of a shuffle whose moves depend only on positions and draws
/// (never on the values moved): what lets its marginal matrix be propagated
/// step by step. See `exact::plan`, which restates each pattern as steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Positional {
    /// `for i = n-1..1: swap(a[i], a[uniform[0,i]])`.
    Durstenfeld,
    /// `for i = 0..n-2: swap(a[i], a[uniform[i,n-1]])`.
    Forward,
    /// `for i = 0..n-1: swap(a[i], a[uniform[0,i]])`.
    InsideOut,
    /// `for i = 0..n-1: a[i..=i+uniform[0,n-1-i]].rotate_right(1)`.
    Strike,
    /// `for i = 0..n-1: swap(a[i], a[uniform[0,n-1]])`.
    Naive,
    /// `k times swap(a[uniform], a[uniform])`.
    Transpositions,
    /// `for i = 0..n-1: swap(a[i], a[uniform[0,n-1-i]])`.
    Shrinking,
    /// `for i = n-1..1: swap(a[i], a[uniform[0,i-1]])`.
    Sattolo,
    /// n times a[uniform..].rotate_right(1).
    InsertLast,
    /// n times a[..=uniform].rotate_left(1).
    TopTo,
    /// a.rotate_left(uniform).
    Rotate,
}

/// What one repeated step of a shuffle with a step count k is: what makes
/// a mixing curve (distance to uniform against k) possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// Gilbert–Shannon–Reeds riffles.
    Riffles,
    /// Random transpositions.
    Transpositions,
}

impl StepKind {
    /// The step's name in the plural, for labels ("riffles").
    pub fn plural(self) -> &'static str {
        match self {
            StepKind::Riffles => "riffles",
            StepKind::Transpositions => "transpositions",
        }
    }
}

/// One parameter of an algorithm (`NAME:key=value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Param {
    /// The key.
    pub key: &'static str,
    /// What it means, with its default.
    pub meaning: &'static str,
}

/// Everything known about a shuffle before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Record<'a> {
    /// The registry name (or the user's name for an outside shuffle).
    pub name: &'a str,
    /// One line saying what it does.
    pub description: &'a str,
    /// Its parameters.
    pub params: &'static [Param],
    /// The verdict an ideal run should reach.
    pub expected: Expected,
    /// How it draws its randomness.
    pub draws: Draws,
    /// Its exact method, or why there is none.
    pub exact: Exact,
    /// Its position-only pattern, if its moves never depend on values.
    pub positional: Option<Positional>,
    /// Its repeated step, if it has a step count (mixing curves).
    pub steps: Option<StepKind>,
}

impl Record<'_> {
    /// Whether the run uses one of our random sources (so the source and
    /// its seed determine the counts).
    pub fn uses_our_source(&self) -> bool {
        match self.draws {
            Draws::Bounded | Draws::RawBits | Draws::Generator => true,
            Draws::Outside => false,
        }
    }
}

//! Samplers as a kind of subject: the kind's marker ([`Samplers`]), what a
//! spec of a sampler adds to the shared header ([`SamplerOptions`]), how
//! samples made outside the tool are read ([`Reading`]), and the [`Sample`]
//! trait a Rust function implements.

use super::{Board, Sampler};
use crate::audit::{Feed, Subject};
use crate::ingest::samples::{Base, SampleKind};
use crate::source::{RandAdapter, RandomSource};

/// Samplers as a kind of subject ([`crate::audit::Kind`]): a built-in
/// sampler of k of N or weighted pick, a Rust function, or samples made
/// outside the tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Samplers;

/// What a spec of a sampler holds beyond the shared header.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SamplerOptions {
    /// One integer weight per item, for a weighted pick.
    pub weights: Option<Vec<u64>>,
}

/// How samples made outside the tool are read.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reading {
    /// k items per line (in no order, or in the order drawn), or one pick.
    pub kind: SampleKind,
    /// How items are numbered; `None` lets the input decide (see
    /// [`crate::ingest::samples`]).
    pub base: Option<Base>,
    /// Items per sample when known before the run (a Rust function's);
    /// `None` takes it from the first sample read.
    pub k: Option<usize>,
}

impl Subject<Samplers> {
    /// One line saying what the sampler is.
    pub fn description(&self) -> String {
        match self {
            Subject::Builtin(sampler) => sampler.description().to_string(),
            Subject::Outside(outside) => {
                let what = match outside.reading.kind {
                    SampleKind::Sample => "samples",
                    SampleKind::Ordered => "ordered samples",
                    SampleKind::Pick => "picks",
                };
                let from = match &outside.feed {
                    Feed::File { path, .. } if path.as_os_str() == "-" => "read from stdin".into(),
                    Feed::File { path, .. } => format!("read from {}", path.display()),
                    Feed::Command(cmd) => format!("printed by `{}`", cmd.template),
                    Feed::Function => "drawn by a Rust function".into(),
                    Feed::Given { from } | Feed::Drawn { from } => from.clone(),
                };
                format!("your sampler: {what} {from}")
            }
        }
    }

    /// The board to draw the counts on, for a minesweeper sampler.
    pub fn board(&self) -> Option<Board> {
        self.builtin().and_then(|s| s.board())
    }

    /// The sample size when it is known before the run (built-in samplers
    /// and functions; a file's k comes from its first line).
    pub fn known_k(&self) -> Option<usize> {
        match self {
            Subject::Builtin(sampler) => Some(sampler.k() as usize),
            Subject::Outside(outside) => match outside.reading.kind {
                SampleKind::Pick => Some(1),
                SampleKind::Sample | SampleKind::Ordered => outside.reading.k,
            },
        }
    }

    /// Whether the order of a sample is tested (an ordered built-in
    /// sampler, or samples read as ordered).
    pub fn is_ordered(&self) -> bool {
        match self {
            Subject::Builtin(sampler) => sampler.is_ordered(),
            Subject::Outside(outside) => outside.reading.kind == SampleKind::Ordered,
        }
    }
}

impl From<Sampler> for Subject<Samplers> {
    fn from(sampler: Sampler) -> Self {
        Subject::Builtin(sampler)
    }
}

/// A sampler written in Rust, run by the engine like a built-in one: on
/// our random sources, in the engine's deterministic chunks, so its counts
/// depend only on the seed. See [`FnSampler`] and [`FnPicker`] for
/// closures written against `rand`.
pub trait Sample: Sync {
    /// Draws one sample into `out` (empty on entry), drawing every random
    /// number from `rng`: k distinct items of `0..n` in the order drawn, or
    /// one item for a weighted pick.
    fn sample<R: RandomSource>(&self, rng: &mut R, out: &mut Vec<u32>);
}

/// A closure returning k distinct items of `0..n`, as a [`Sample`]: our
/// source is handed to it as `&mut dyn rand::Rng`.
#[derive(Debug, Clone, Copy)]
pub struct FnSampler<F>(pub F);

impl<F: Fn(&mut dyn rand::Rng) -> Vec<u32> + Sync> Sample for FnSampler<F> {
    fn sample<R: RandomSource>(&self, rng: &mut R, out: &mut Vec<u32>) {
        out.extend((self.0)(&mut RandAdapter(rng)));
    }
}

/// A closure returning one item of `0..n` (a weighted pick), as a
/// [`Sample`]: our source is handed to it as `&mut dyn rand::Rng`.
#[derive(Debug, Clone, Copy)]
pub struct FnPicker<F>(pub F);

impl<F: Fn(&mut dyn rand::Rng) -> u32 + Sync> Sample for FnPicker<F> {
    fn sample<R: RandomSource>(&self, rng: &mut R, out: &mut Vec<u32>) {
        out.push((self.0)(&mut RandAdapter(rng)));
    }
}

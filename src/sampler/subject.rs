//! What a sampler audit judges: one of the tool's own samplers, or a
//! sampler from outside (draws in a file, or printed by a running program
//! in any language), which the audit sees only through its samples.

use super::{Board, Sampler};
use crate::error::{Error, ErrorKind, Result};
use crate::ingest::CommandSpec;
use crate::ingest::samples::{Base, SampleKind};
use crate::source::{RandAdapter, RandomSource};
use crate::subject::{Feed, slug_of};
use std::fmt;
use std::path::PathBuf;

/// The sampler under audit.
#[derive(Debug, Clone, PartialEq)]
pub enum SamplerSubject {
    /// A built-in sampler, run on our sources.
    Builtin(Sampler),
    /// A sampler whose code is elsewhere: the audit counts what it produced.
    Outside(OutsideSampler),
}

/// A sampler from outside the tool: a name for reports, where its samples
/// come from and what each line holds.
#[derive(Debug, Clone, PartialEq)]
pub struct OutsideSampler {
    /// The name reports show (the file name, the command, or the user's).
    pub name: String,
    /// Where the samples come from.
    pub feed: SampleFeed,
    /// k items per line, or one pick.
    pub kind: SampleKind,
    /// How items are numbered; `None` lets the input decide (see
    /// [`crate::ingest::samples`]).
    pub base: Option<Base>,
}

/// Where an outside sampler's samples come from.
#[derive(Debug, Clone, PartialEq)]
pub enum SampleFeed {
    /// A file of samples, one per line (`-` is stdin).
    File(PathBuf),
    /// A program run by the tool, `jobs` copies in parallel, each printing
    /// its share of the samples.
    Command(CommandSpec),
    /// A sampler written in Rust, handed to the engine by the library
    /// ([`crate::sampler::custom`]), which runs it on our sources.
    Function,
    /// Samples the caller drew with its own generator and hands over in
    /// memory (a Python sampler, draws already made), audited with
    /// [`crate::sampler::audit::of_read`]; `from` says where they came
    /// from, for the report.
    Given {
        /// Where the samples came from, as a phrase.
        from: String,
    },
}

impl SampleFeed {
    /// The feed of an outside sampler given as a shuffle's feed would be
    /// (`--input`/`--cmd`, an experiment's `input`/`cmd`): samples are text,
    /// one per line, so binary formats and Rust functions are refused.
    pub fn from_feed(feed: Feed) -> Result<SampleFeed> {
        match feed {
            Feed::File { path, format } if format.width().is_none() => Ok(SampleFeed::File(path)),
            Feed::File { format, .. } => Err(Error::of_kind(
                ErrorKind::Unsupported,
                format!("samples are read as text (one per line), not as {format} records"),
            )),
            Feed::Command {
                template,
                jobs,
                timeout,
            } => Ok(SampleFeed::Command(CommandSpec {
                template,
                jobs,
                timeout,
            })),
            Feed::Function => Ok(SampleFeed::Function),
            Feed::Given { from } => Ok(SampleFeed::Given { from }),
        }
    }
}

impl SamplerSubject {
    /// The built-in sampler, if it is one.
    pub fn builtin(&self) -> Option<Sampler> {
        match self {
            SamplerSubject::Builtin(sampler) => Some(*sampler),
            SamplerSubject::Outside(_) => None,
        }
    }

    /// One line saying what the sampler is.
    pub fn description(&self) -> String {
        match self {
            SamplerSubject::Builtin(sampler) => sampler.description().to_string(),
            SamplerSubject::Outside(outside) => {
                let what = match outside.kind {
                    SampleKind::Sample => "samples",
                    SampleKind::Ordered => "ordered samples",
                    SampleKind::Pick => "picks",
                };
                match &outside.feed {
                    SampleFeed::File(path) if path.as_os_str() == "-" => {
                        format!("your sampler: {what} read from stdin")
                    }
                    SampleFeed::File(path) => {
                        format!("your sampler: {what} read from {}", path.display())
                    }
                    SampleFeed::Command(cmd) => {
                        format!("your sampler: {what} printed by `{}`", cmd.template)
                    }
                    SampleFeed::Function => {
                        format!("your sampler: {what} drawn by a Rust function")
                    }
                    SampleFeed::Given { from } => format!("your sampler: {what} {from}"),
                }
            }
        }
    }

    /// A name safe to use as a folder name.
    pub fn slug(&self) -> String {
        match self {
            SamplerSubject::Builtin(sampler) => sampler.slug(),
            SamplerSubject::Outside(outside) => slug_of(&outside.name),
        }
    }

    /// The board to draw the counts on, for a minesweeper sampler.
    pub fn board(&self) -> Option<Board> {
        self.builtin().and_then(|s| s.board())
    }

    /// The sample size when it is known before the run (built-in samplers;
    /// an outside sample's k comes from its first line).
    pub fn known_k(&self) -> Option<u32> {
        self.builtin().map(|s| s.k())
    }

    /// Whether one of our random sources (with the seed) draws the samples,
    /// so that the source is worth naming in outputs.
    pub fn uses_our_source(&self) -> bool {
        match self {
            SamplerSubject::Builtin(_) => true,
            SamplerSubject::Outside(outside) => outside.feed == SampleFeed::Function,
        }
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

impl From<Sampler> for SamplerSubject {
    fn from(sampler: Sampler) -> Self {
        SamplerSubject::Builtin(sampler)
    }
}

impl fmt::Display for SamplerSubject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SamplerSubject::Builtin(sampler) => sampler.fmt(f),
            SamplerSubject::Outside(outside) => f.write_str(&outside.name),
        }
    }
}

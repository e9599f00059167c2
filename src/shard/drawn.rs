//! Runs whose trials a caller's own function draws on demand with its own
//! generator (a Python shuffle or sampler: [`Feed::Drawn`]), counted in the
//! engine's chunks so that they split, resume and merge as a built-in
//! subject's runs do.
//!
//! A built-in subject's chunk `c` draws from stream `c` of the run's seed.
//! A function that brings its own generator cannot be handed a stream, so
//! chunk `c` of its run is drawn with a fresh generator seeded
//! [`chunk_seed`]`(seed, c)` (chunk 0 with the seed itself, so a run of one
//! chunk is the function's generator seeded once), and read alone into its
//! counts. A chunk's counts then depend only on the function, the seed and
//! the chunk's number, never on where, when or beside which other chunks it
//! was drawn: a run drawn whole, and the merge ([`super::merge`]) of its
//! shards drawn anywhere, count exactly the same trials. The counts go into
//! the same [`TallyFile`] as a built-in run's (the spec records how the
//! function drew, see [`crate::shuffle::Recorded`]), and the merged file is
//! judged as every run is ([`TallyFile::judge`]).

use super::file::TallyFile;
use crate::audit::{Feed, Progress};
use crate::engine::ChunkRange;
use crate::error::{Error, Result};
use crate::ingest::Format;
use crate::pacing::Stopwatch;
use crate::source::splitmix64;
use std::io::Read;

/// One chunk of a run drawn on demand: what the caller's function is asked
/// for, with a fresh generator seeded `seed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawnChunk {
    /// The audit the chunk belongs to (its place in the tally file).
    pub audit: usize,
    /// The chunk's number in the run (from 0).
    pub index: u64,
    /// The trials it holds: the chunk size, or what is left for the last.
    pub trials: u64,
    /// The seed of its generator: [`chunk_seed`] of the run's seed.
    pub seed: u64,
}

/// The seed of the generator that draws chunk `chunk` of a run seeded
/// `seed`: the seed itself for chunk 0, else a mix of both (SplitMix64 of
/// the seed's SplitMix64 and the chunk number), distinct from the seeds a
/// sequential audit gives its looks (SplitMix64 of the seed and the
/// look's number). Part of the reproducibility contract of functions
/// drawn on demand.
pub fn chunk_seed(seed: u64, chunk: u64) -> u64 {
    if chunk == 0 {
        seed
    } else {
        splitmix64(splitmix64(seed) ^ chunk)
    }
}

/// The chunks `range` of audit `audit`'s run of `trials` trials seeded
/// `seed`, in order, each with its trials and its generator's seed.
pub fn chunks(
    audit: usize,
    seed: u64,
    trials: u64,
    range: ChunkRange,
) -> impl Iterator<Item = DrawnChunk> {
    (range.first..range.end).map(move |index| DrawnChunk {
        audit,
        index,
        trials: range.size.min(trials - index * range.size),
        seed: chunk_seed(seed, index),
    })
}

/// Gives a reader of what the caller's function draws for one chunk (its
/// `trials` trials, written in the format the count reads), drawn with a
/// fresh generator seeded as the chunk says.
pub type NextChunk<'a> = dyn FnMut(DrawnChunk) -> Result<Box<dyn Read + Send + 'a>> + Send + 'a;

/// Counts the chunks `file` has left (every audit's, in run order), each
/// read alone from what `next(chunk)` gives (in `format`), merged into the
/// file's counts as [`super::run::count`] merges a built-in subject's.
/// Every audit of the file must be drawn on demand ([`Feed::Drawn`]).
/// Refuses a chunk whose reader holds other than the chunk's trials; stops
/// at the first error, the chunks counted before it kept.
pub fn count(
    file: &mut TallyFile,
    format: Format,
    next: &mut NextChunk<'_>,
    progress: Progress<'_>,
) -> Result<()> {
    let specs = file.specs();
    let trials = file.run_trials();
    for (i, spec) in specs.iter().enumerate() {
        if !matches!(spec.feed(), Some(Feed::Drawn { .. })) {
            return Err(Error::unsupported(format!(
                "{} is not drawn on demand by a caller's function: its chunks are counted by \
                 shard::run::count",
                spec.subject()
            )));
        }
        let left = file
            .planned
            .with(file.audits[i].counted.end, file.planned.end);
        for chunk in chunks(i, spec.seed(), trials, left) {
            let start = Stopwatch::start();
            let mut reader = next(chunk)?;
            // A chunk is read alone, its lines numbered from 1: a problem
            // past chunk 0 also says where in the run the chunk starts.
            let size = file.planned.size;
            let part = spec
                .read_counts(&mut *reader, format, progress)
                .map_err(|e| match chunk.index {
                    0 => e,
                    c => Error::of_kind(
                        e.kind(),
                        format!(
                            "{e} (line 1 of chunk {c} is draw {} of the run)",
                            c * size + 1
                        ),
                    ),
                })?;
            if part.trials() != chunk.trials {
                return Err(Error::bad_input(format!(
                    "{}: chunk {} holds {} trials, but {} were read",
                    spec.subject(),
                    chunk.index,
                    chunk.trials,
                    part.trials()
                )));
            }
            // Counts of another shape (a sampler's k other than the one
            // declared) are refused, not merged: merging them is a bug.
            if !spec.fits(part.as_ref()) {
                return Err(Error::bad_input(format!(
                    "chunk {}: the counts of {} do not have the shape of its tests at n = {}",
                    chunk.index,
                    spec.subject(),
                    spec.n()
                )));
            }
            let audit = &mut file.audits[i];
            audit.counts.merge(part.as_ref())?;
            audit.counted.end = chunk.index + 1;
            audit.seconds += start.seconds();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{CHUNK_TRIALS, Planned};
    use crate::error::Front;
    use crate::request::{Holds, Request};
    use crate::shard::{Shard, merge};
    use crate::study::Study;

    /// A caller's "function": decks of n = 5 rotated by a step drawn from
    /// a generator seeded as the chunk says (biased: only 5 decks).
    fn rotations(chunk: DrawnChunk) -> Vec<u8> {
        let mut state = chunk.seed;
        let mut out = Vec::new();
        for _ in 0..chunk.trials {
            state = splitmix64(state);
            let step = (state % 5) as u32;
            for i in 0..5u32 {
                out.extend_from_slice(&((i + step) % 5).to_le_bytes());
            }
        }
        out
    }

    /// The spec a front resolves for a shuffle of 5 drawn on demand.
    fn drawn(trials: u64, seed: u64) -> Box<dyn Planned> {
        let request = Request {
            front: Front::Python,
            feed: Some(Feed::Drawn {
                from: "rotated by a test".into(),
            }),
            holds: Some(Holds::Deck),
            name: Some("rotations".into()),
            n: Some(5),
            trials: Some(trials),
            seed: Some(seed),
            ..Request::default()
        };
        request.resolve().unwrap().audits.remove(0)
    }

    /// Shard `shard` (or the whole run) of `spec`, counted.
    fn counted(spec: &dyn Planned, shard: Option<Shard>) -> TallyFile {
        let study = Study::new(vec![spec.clone_box()]);
        let mut file = TallyFile::of_study(&study, shard, "test".into(), 1).unwrap();
        let mut next = |chunk: DrawnChunk| {
            Ok(Box::new(std::io::Cursor::new(rotations(chunk))) as Box<dyn Read + Send>)
        };
        count(&mut file, Format::U32, &mut next, &|_| {}).unwrap();
        file
    }

    #[test]
    fn a_sampler_drawing_another_k_than_declared_is_refused_not_merged() {
        // Declared k = 3; the "function" draws 2 items in chunk `short`
        // (3 in the others). Each chunk is read alone, so a chunk of 2s
        // once became counts of k = 2, and merging them panicked.
        let request = Request {
            front: Front::Python,
            feed: Some(Feed::Drawn {
                from: "drawn by a test".into(),
            }),
            holds: Some(Holds::Sample),
            name: Some("two".into()),
            n: Some(10),
            k: Some(3),
            trials: Some(CHUNK_TRIALS + 5),
            seed: Some(1),
            ..Request::default()
        };
        let spec = request.resolve().unwrap().audits.remove(0);
        // What guards the merge: counts of another k do not fit the run.
        let drawn = |k: usize, line: &str| {
            let counting = Request {
                k: Some(k),
                ..request.clone()
            }
            .resolve()
            .unwrap()
            .audits
            .remove(0);
            let mut text = std::io::Cursor::new(line.repeat(100));
            counting
                .read_counts(&mut text, Format::Text, &|_| {})
                .unwrap()
        };
        assert!(spec.fits(drawn(3, "0 1 2\n").as_ref()));
        assert!(!spec.fits(drawn(2, "0 1\n").as_ref()));
        for short in [0, 1] {
            let study = Study::new(vec![spec.clone_box()]);
            let mut file = TallyFile::of_study(&study, None, "test".into(), 1).unwrap();
            let mut next = |chunk: DrawnChunk| {
                let line = if chunk.index == short {
                    "0 1\n"
                } else {
                    "0 1 2\n"
                };
                let text = line.repeat(chunk.trials as usize);
                Ok(Box::new(std::io::Cursor::new(text)) as Box<dyn Read + Send>)
            };
            let e = count(&mut file, Format::Text, &mut next, &|_| {})
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("two:1: expected 3 items (k = 3, as declared), found 2"),
                "{short}: {e}"
            );
            if short == 1 {
                assert!(
                    e.contains("(line 1 of chunk 1 is draw 65537 of the run)"),
                    "{e}"
                );
            }
        }
    }

    #[test]
    fn chunk_zero_is_the_seed_and_the_others_differ_from_the_looks() {
        assert_eq!(chunk_seed(7, 0), 7);
        assert_ne!(chunk_seed(7, 1), 7);
        assert_ne!(chunk_seed(7, 1), chunk_seed(8, 1));
        // Look 1 of a sequential audit is seeded splitmix64(seed ^ 1).
        assert_ne!(chunk_seed(7, 1), splitmix64(7 ^ 1));
        let all: Vec<DrawnChunk> = chunks(
            0,
            7,
            2 * CHUNK_TRIALS + 3,
            ChunkRange::all(2 * CHUNK_TRIALS + 3),
        )
        .collect();
        let sizes: Vec<u64> = all.iter().map(|c| c.trials).collect();
        assert_eq!(sizes, [CHUNK_TRIALS, CHUNK_TRIALS, 3]);
    }

    #[test]
    fn shards_drawn_on_demand_merge_to_the_whole_run_and_read_back() {
        let spec = drawn(3 * CHUNK_TRIALS + 11, 9);
        let whole = counted(spec.as_ref(), None);
        assert!(whole.is_whole_run());
        let shards: Vec<(String, TallyFile)> = [2, 0, 1]
            .map(|index| {
                let file = counted(spec.as_ref(), Some(Shard { index, count: 3 }));
                // Through the bytes a worker hands back.
                let back = TallyFile::from_bytes(&file.to_bytes()).unwrap();
                (format!("shard {index}/3"), back)
            })
            .to_vec();
        let merged = merge::merge_named(shards.clone()).unwrap();
        assert!(
            merged.audits[0]
                .counts
                .same(whole.audits[0].counts.as_ref())
        );
        let provenance = || Study::new(Vec::new()).provenance;
        let (a, b) = (
            merged.judge(provenance()).unwrap(),
            whole.judge(provenance()).unwrap(),
        );
        assert_eq!(a.audits[0].verdict(), b.audits[0].verdict());
        assert_eq!(a.audits[0].verdict(), crate::stats::Verdict::Biased);
        assert_eq!(a.audits[0].subject(), "rotations");
        // A missing shard and another seed's shard are refused, named.
        let e = merge::merge_named(shards[..2].to_vec())
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a shard missing?"), "{e}");
        let other = counted(
            drawn(3 * CHUNK_TRIALS + 11, 10).as_ref(),
            Some(Shard { index: 1, count: 3 }),
        );
        let mut mixed = shards[..2].to_vec();
        mixed.push(("other".into(), other));
        let e = merge::merge_named(mixed).unwrap_err().to_string();
        assert!(
            e.contains("other is not a shard of the same run") && e.contains("seed is 10, not 9"),
            "{e}"
        );
    }
}

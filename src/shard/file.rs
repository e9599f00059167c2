//! The tally file: the counts of a share of a run with everything that
//! decides them, under a checksum.
//!
//! Layout: one header line, then the payload, a JSON document:
//!
//! ```text
//! shuffle-audit tally v4 sha256=<64 hex digits> bytes=<payload length>
//! {"tool":"shuffle-audit 0.1.0","command_line":"...","alpha":0.001,...}
//! ```
//!
//! The checksum is SHA-256 (the `sha2` crate) of the payload's bytes as
//! written, so `tail -n +2 FILE | sha256sum` checks a file by hand, and no
//! re-encoding of the JSON is involved in checking it. The version is read
//! before anything else, so a file of another format version is refused as
//! such, not as a corrupted one. JSON keeps the file readable and diffable;
//! its size is that of the counts (n² numbers per audit, n! more with the
//! permutation test; N inclusion counts per sampler audit, and its pairs
//! and subsets while there are few).

use super::Shard;
use crate::digest::sha256_hex;
use crate::engine::{ChunkRange, RunSpec};
use crate::error::{Error, ErrorKind, Result};
use crate::experiment::record::{RecordedSpec, tool_version};
use crate::output::files;
use crate::report::Provenance;
use crate::sampler::Sampler;
use crate::sampler::run::SampleSpec;
use crate::source::SourceSpec;
use crate::study::{Counted, CountedSamples, Study, StudyResult};
use crate::tally::Tally;
use crate::tally::sample::SampleTally;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The words that open every tally file.
pub const MAGIC: &str = "shuffle-audit tally";

/// The format version this build writes and reads. Changing what the
/// payload holds, or what its numbers mean, changes it. Version 2: binned
/// matrices (`bins`), smaller chunks above n = 1024, and the order counts
/// (inversions, displacement, binned Lehmer digits); a version-1 file is
/// refused as such rather than read with the chunks meaning other trials.
/// Version 3: the serial counts are the triples' signed match differences
/// (given the deals' own law) instead of the pairs' match counts.
/// Version 4: sampler audits (`samples`, each with its recorded sampler
/// spec and [`SampleTally`]) are counted in chunks too; a version-3 file is
/// refused as such, since this build's files may hold counts it cannot.
pub const VERSION: u32 = 4;

/// The counts of a share of a run (a shard, or the whole run) and
/// everything that decides them: what `audit --shard` and `--checkpoint`
/// write and what `merge` and `--resume` read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TallyFile {
    /// The tool that counted (`shuffle-audit <version>`): tallies of
    /// different versions are never merged, since an algorithm or the
    /// chunking may have changed between them.
    pub tool: String,
    /// The command that counted, shell-quoted (for the report's provenance).
    pub command_line: String,
    /// The significance level the run's verdicts use.
    pub alpha: f64,
    /// Which share of the run this is, if the run was sharded.
    pub shard: Option<Shard>,
    /// The chunks this file holds once complete (every audit's).
    pub planned: ChunkRange,
    /// Worker threads the counting used (the counts do not depend on it).
    pub threads: usize,
    /// Every shuffle audit of the run, in run order.
    pub audits: Vec<AuditTally>,
    /// Every sampler audit of the run, in run order (after the shuffles,
    /// as a [`Study`] runs them); absent when the run audits no sampler.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<SampleAuditTally>,
}

/// How two tally files' runs differ: the first thing that does, with the
/// value in each (see [`TallyFile::difference`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// What differs: `seed`, `n`, `algorithms`, ...
    pub field: &'static str,
    /// Its value in the file asked.
    pub this: String,
    /// Its value in the other file.
    pub other: String,
}

/// One audit's spec and what has been counted of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditTally {
    /// What decides the counts: algorithm, n, trials of the whole run, rng,
    /// seed, tests.
    pub spec: RecordedSpec,
    /// The chunks counted so far: from the planned range's first chunk up
    /// to `counted.end`.
    pub counted: ChunkRange,
    /// Seconds spent counting them.
    pub seconds: f64,
    /// The counts of those chunks.
    pub tally: Tally,
}

/// One sampler audit's spec and what has been counted of it: the
/// [`AuditTally`] of a sampler.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleAuditTally {
    /// What decides the counts: sampler, N, weights, trials of the whole
    /// run, rng, seed.
    pub spec: RecordedSample,
    /// The chunks counted so far: from the planned range's first chunk up
    /// to `counted.end`.
    pub counted: ChunkRange,
    /// Seconds spent counting them.
    pub seconds: f64,
    /// The counts of those chunks.
    pub tally: SampleTally,
}

/// Everything that decides a built-in sampler's counts, as a tally file
/// records it (the [`RecordedSpec`] of a sampler audit): enough to rebuild
/// its [`SampleSpec`] and to tell two runs apart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedSample {
    /// The sampler with its parameters (`floyd:k=3`).
    pub sampler: String,
    /// The population size N.
    pub n: usize,
    /// The integer weights of a weighted pick; absent for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<Vec<u64>>,
    /// Samples of the whole run.
    pub trials: u64,
    /// Random source with its parameters.
    pub rng: String,
    /// Seed.
    pub seed: u64,
}

impl RecordedSample {
    /// The record of `spec`, a built-in sampler's.
    pub fn of_spec(spec: &SampleSpec) -> Self {
        Self {
            sampler: spec.sampler.to_string(),
            n: spec.n,
            weights: spec.weights.clone(),
            trials: spec.trials,
            rng: spec.source.to_string(),
            seed: spec.seed,
        }
    }

    /// The spec recorded here, run on `threads` workers (which do not
    /// change the counts); refuses names that do not parse.
    pub fn to_spec(&self, threads: Option<usize>) -> Result<SampleSpec> {
        Ok(SampleSpec {
            weights: self.weights.clone(),
            threads,
            ..SampleSpec::new(
                Sampler::parse(&self.sampler)?,
                self.n,
                self.trials,
                SourceSpec::parse(&self.rng)?,
                self.seed,
            )
        })
    }

    /// The empty tally of this sampler's samples: the shape its counts
    /// must have.
    fn empty_tally(&self) -> Result<SampleTally> {
        let sampler = Sampler::parse(&self.sampler)?;
        Ok(SampleTally::new(
            self.n,
            sampler.k() as usize,
            sampler.is_ordered(),
        ))
    }
}

impl TallyFile {
    /// An empty tally file for the shuffle audits `specs` of one run
    /// (built-in algorithms with the same trials) judged at `alpha`: their
    /// chunks `shard` of the run, or all of them, none counted yet. See
    /// [`of_study`](Self::of_study) for a run with sampler audits too.
    pub fn new(
        specs: &[RunSpec],
        alpha: f64,
        shard: Option<Shard>,
        command_line: String,
        threads: usize,
    ) -> Result<Self> {
        Self::of_audits(specs, &[], alpha, shard, command_line, threads)
    }

    /// An empty tally file for every audit of `study` (its shuffles and its
    /// samplers, all built-in and of the same trials) judged at its α: its
    /// chunks `shard`, or all of them, none counted yet. Refuses what
    /// cannot be counted in chunks: audits from outside, a sequential
    /// study, and mixing curves (measured by [`Study::run`] only).
    pub fn of_study(
        study: &Study,
        shard: Option<Shard>,
        command_line: String,
        threads: usize,
    ) -> Result<Self> {
        if study.until_decisive.is_some() {
            return Err(Error::unsupported(
                "a sequential study decides its trials as it goes: it is not split or resumed",
            ));
        }
        if !study.mixing.is_empty() {
            return Err(Error::unsupported(
                "mixing curves are measured by Study::run, not counted in shards",
            ));
        }
        Self::of_audits(
            &study.audits,
            &study.samples,
            study.alpha,
            shard,
            command_line,
            threads,
        )
    }

    /// [`new`](Self::new) for the shuffle audits `specs` and the sampler
    /// audits `samples`.
    fn of_audits(
        specs: &[RunSpec],
        samples: &[SampleSpec],
        alpha: f64,
        shard: Option<Shard>,
        command_line: String,
        threads: usize,
    ) -> Result<Self> {
        let sizes = specs.iter().map(|s| (s.chunks(), s.n, "n"));
        let sizes: Vec<(ChunkRange, usize, &str)> = sizes
            .chain(samples.iter().map(|s| (s.chunks(), s.n, "N")))
            .collect();
        let Some(&(all, first_n, first_what)) = sizes.first() else {
            return Err(Error::bad_input("a run needs at least one audit"));
        };
        if let Some(outside) = samples.iter().find(|s| s.sampler.builtin().is_none()) {
            return Err(Error::unsupported(format!(
                "{} is not a built-in sampler: only built-in samplers are drawn in chunks that \
                 can be split across machines or saved and resumed (a sampler from outside is \
                 read, not drawn from a seed)",
                outside.sampler
            )));
        }
        if let Some(outside) = specs.iter().find(|s| s.subject.builtin().is_none()) {
            return Err(Error::of_kind(
                ErrorKind::Unsupported,
                format!(
                    "{} is not a built-in algorithm: only built-in algorithms are counted in \
                     chunks that can be split across machines or saved and resumed",
                    outside.subject
                ),
            ));
        }
        let trials = specs.iter().map(|s| s.trials);
        let mut trials = trials.chain(samples.iter().map(|s| s.trials));
        let first_trials = trials.next();
        if trials.any(|t| Some(t) != first_trials) {
            return Err(Error::unsupported(
                "the audits of a sharded or checkpointed run must have the same trials",
            ));
        }
        if let Some(&(other, n, what)) = sizes.iter().find(|(c, ..)| c.size != all.size) {
            return Err(Error::unsupported(format!(
                "the audits of a sharded or checkpointed run must be counted in chunks of the \
                 same size: {first_what} = {first_n} has chunks of {} trials, {what} = {n} of {} \
                 (n above {} is counted in smaller chunks)",
                all.size,
                other.size,
                crate::spec::LARGE_N
            )));
        }
        let planned = shard.map_or(all, |s| s.range(all));
        let empty = planned.with(planned.first, planned.first);
        let samples = samples
            .iter()
            .map(|spec| {
                let spec = RecordedSample::of_spec(spec);
                Ok(SampleAuditTally {
                    counted: empty,
                    seconds: 0.0,
                    tally: spec.empty_tally()?,
                    spec,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            tool: tool_version(),
            command_line,
            alpha,
            shard,
            planned,
            threads,
            audits: specs
                .iter()
                .map(|spec| AuditTally {
                    spec: RecordedSpec::of_spec(spec),
                    counted: empty,
                    seconds: 0.0,
                    tally: Tally::collecting(spec.n, spec.collect()).with_hands(spec.hand_counts()),
                })
                .collect(),
            samples,
        })
    }

    /// The trials of the whole run, per audit.
    pub fn run_trials(&self) -> u64 {
        let shuffles = self.audits.first().map(|a| a.spec.trials);
        shuffles
            .or_else(|| self.samples.first().map(|a| a.spec.trials))
            .unwrap_or(0)
    }

    /// How many audits the file counts: its shuffles and its samplers.
    pub fn len(&self) -> usize {
        self.audits.len() + self.samples.len()
    }

    /// Whether the file counts no audit at all (never so for a file read
    /// or made by [`new`](Self::new)).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Trials this file holds once complete, over all its audits.
    pub fn planned_trials(&self) -> u64 {
        let share = self.planned.trials(self.run_trials());
        share.saturating_mul(self.len() as u64)
    }

    /// Trials counted so far, over all audits.
    pub fn counted_trials(&self) -> u64 {
        let shuffles = self.audits.iter().map(|a| a.tally.trials());
        shuffles
            .chain(self.samples.iter().map(|a| a.tally.trials()))
            .sum()
    }

    /// The chunks each audit has counted, in study order (shuffles, then
    /// samplers).
    pub fn counted_ranges(&self) -> Vec<ChunkRange> {
        let shuffles = self.audits.iter().map(|a| a.counted);
        shuffles
            .chain(self.samples.iter().map(|a| a.counted))
            .collect()
    }

    /// Seconds spent counting, over all audits.
    pub fn seconds(&self) -> f64 {
        let shuffles = self.audits.iter().map(|a| a.seconds);
        shuffles.chain(self.samples.iter().map(|a| a.seconds)).sum()
    }

    /// Every chunk of the run the file is a part of.
    pub fn all_chunks(&self) -> ChunkRange {
        ChunkRange::all_sized(self.run_trials(), self.planned.size)
    }

    /// Whether every audit has counted all its planned chunks.
    pub fn is_complete(&self) -> bool {
        self.counted_ranges().iter().all(|&c| c == self.planned)
    }

    /// Whether the file holds every chunk of the run, all counted: a run
    /// that can be judged.
    pub fn is_whole_run(&self) -> bool {
        self.is_complete() && self.planned == self.all_chunks()
    }

    /// The shuffle audits' specs, on the file's thread count.
    pub fn specs(&self) -> Result<Vec<RunSpec>> {
        self.audits
            .iter()
            .map(|a| a.spec.to_spec(Some(self.threads)))
            .collect()
    }

    /// The sampler audits' specs, on the file's thread count.
    pub fn sample_specs(&self) -> Result<Vec<SampleSpec>> {
        self.samples
            .iter()
            .map(|a| a.spec.to_spec(Some(self.threads)))
            .collect()
    }

    /// What makes `other` a different run from this one, or `None` if both
    /// count the same run: the same tool, shuffle audits (algorithm, n,
    /// trials, rng, seed, tests), sampler audits (sampler, N, weights,
    /// trials, rng, seed) and α. The chunk ranges may differ: that is what
    /// shards do.
    pub fn difference(&self, other: &Self) -> Option<Difference> {
        let differ = |field, this: &dyn ToString, other: &dyn ToString| {
            let (this, other) = (this.to_string(), other.to_string());
            (this != other).then_some(Difference { field, this, other })
        };
        let audits = |f: &Self| -> Vec<String> {
            f.audits.iter().map(|a| a.spec.algorithm.clone()).collect()
        };
        let samplers = |f: &Self| -> Vec<String> {
            f.samples.iter().map(|a| a.spec.sampler.clone()).collect()
        };
        let found = differ("tool", &self.tool, &other.tool)
            .or_else(|| {
                differ(
                    "algorithms",
                    &audits(self).join(","),
                    &audits(other).join(","),
                )
            })
            .or_else(|| {
                differ(
                    "samplers",
                    &samplers(self).join(","),
                    &samplers(other).join(","),
                )
            });
        if found.is_some() {
            return found;
        }
        let pairs = self.audits.iter().zip(&other.audits);
        let sample_pairs = self.samples.iter().zip(&other.samples);
        pairs
            .map(|(a, b)| (&a.spec, &b.spec))
            .find_map(|(a, b)| {
                differ("n", &a.n, &b.n)
                    .or_else(|| differ("trials", &a.trials, &b.trials))
                    .or_else(|| differ("rng", &a.rng, &b.rng))
                    .or_else(|| differ("seed", &a.seed, &b.seed))
                    .or_else(|| differ("tests", &a.tests.join(","), &b.tests.join(",")))
                    .or_else(|| differ("bins", &bins_words(a.bins), &bins_words(b.bins)))
            })
            .or_else(|| {
                sample_pairs
                    .map(|(a, b)| (&a.spec, &b.spec))
                    .find_map(|(a, b)| {
                        differ("N", &a.n, &b.n)
                            .or_else(|| {
                                differ(
                                    "weights",
                                    &weights_words(a.weights.as_deref()),
                                    &weights_words(b.weights.as_deref()),
                                )
                            })
                            .or_else(|| differ("trials", &a.trials, &b.trials))
                            .or_else(|| differ("rng", &a.rng, &b.rng))
                            .or_else(|| differ("seed", &a.seed, &b.seed))
                    })
            })
            .or_else(|| differ("alpha", &self.alpha, &other.alpha))
    }

    /// Judges a whole run's counts ([`is_whole_run`](Self::is_whole_run))
    /// exactly as a run on one machine is judged, with `provenance` in its
    /// report.
    pub fn judge(self, provenance: Provenance) -> Result<StudyResult> {
        if !self.is_whole_run() {
            return Err(Error::bad_input(format!(
                "the tally holds chunks {} of {} (counted: {}): not a whole run",
                self.planned,
                self.all_chunks(),
                self.counted_words()
            )));
        }
        let specs = self.specs()?;
        let samples = self.sample_specs()?;
        let counted = self
            .audits
            .into_iter()
            .map(|a| Counted {
                tally: a.tally,
                seconds: a.seconds,
                feed: None,
            })
            .collect();
        let counted_samples = self
            .samples
            .into_iter()
            .map(|a| CountedSamples {
                tally: a.tally,
                seconds: a.seconds,
                feed: None,
            })
            .collect();
        // What an audit on one machine notes of a deck, the merge notes too.
        let notes = specs
            .iter()
            .map(|s| s.deck.as_deref().map(crate::deck::battery::note))
            .collect();
        // The study as it was planned: a study of samplers only is titled
        // as one.
        let study = match specs.is_empty() {
            true => Study::of_samples(samples),
            false => Study {
                samples,
                ..Study::new(specs)
            },
        };
        Study {
            alpha: self.alpha,
            provenance,
            notes,
            ..study
        }
        .conclude_all(counted, counted_samples)
    }

    /// What has been counted, in words: `chunks 0..5` when every audit got
    /// as far, else each audit's.
    pub fn counted_words(&self) -> String {
        let ranges: Vec<String> = (self.counted_ranges().iter())
            .map(ToString::to_string)
            .collect();
        match ranges.as_slice() {
            [first, rest @ ..] if rest.iter().all(|r| r == first) => format!("chunks {first}"),
            _ => format!("chunks {} (audit by audit)", ranges.join(", ")),
        }
    }

    /// The file's bytes: the header line, then the payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        seal(
            MAGIC,
            VERSION,
            serde_json::to_vec(self).expect("a tally file serialises"),
        )
    }

    /// Reads a tally file's bytes, refusing (with the reason) another
    /// format, another version, a checksum that does not match, and a
    /// payload that is not a consistent tally.
    pub fn from_bytes(bytes: &[u8]) -> std::result::Result<Self, String> {
        let payload = unseal(bytes, MAGIC, VERSION)?;
        let file: TallyFile = serde_json::from_slice(payload)
            .map_err(|e| format!("not a readable tally (its checksum matches): {e}"))?;
        file.check()
            .map_err(|e| format!("not a consistent tally: {e}"))?;
        Ok(file)
    }

    /// Checks the payload holds together: built-in audits of one trial
    /// count, ranges within the run, counts of the right shape and total.
    fn check(&self) -> Result<()> {
        if self.is_empty() {
            return Err(Error::bad_input("no audit"));
        }
        let trials = self.run_trials();
        let all = ChunkRange::all_sized(trials, self.planned.size);
        if self.planned.first > self.planned.end || self.planned.end > all.end {
            return Err(Error::bad_input(format!(
                "chunks {} are not within the run's {all}",
                self.planned
            )));
        }
        for (audit, spec) in self.audits.iter().zip(self.specs()?) {
            let counted = audit.counted;
            let empty = Tally::collecting(spec.n, spec.collect()).with_hands(spec.hand_counts());
            if shape(&audit.tally) != shape(&empty)
                || audit
                    .tally
                    .hands()
                    .map(|h| h.consistent(audit.tally.trials()))
                    == Some(false)
            {
                return Err(Error::bad_input(format!(
                    "the counts of {} do not have the shape of its tests at n = {}",
                    spec.subject, spec.n
                )));
            }
            self.check_counted(spec.trials, counted, audit.tally.trials(), "trials")?;
        }
        for audit in &self.samples {
            let spec = &audit.spec;
            let counted = audit.counted;
            let empty = spec.empty_tally()?;
            if sample_shape(&audit.tally) != sample_shape(&empty) {
                return Err(Error::bad_input(format!(
                    "the counts of {} do not have the shape of its samples at N = {}",
                    spec.sampler, spec.n
                )));
            }
            self.check_counted(spec.trials, counted, audit.tally.trials(), "samples")?;
        }
        Ok(())
    }

    /// Checks one audit's counted range and total against the run: the
    /// audit has the run's trials, its chunks start where the file's do and
    /// end within them, and its tally holds exactly their `unit` (trials or
    /// samples).
    fn check_counted(
        &self,
        spec_trials: u64,
        counted: ChunkRange,
        tallied: u64,
        unit: &str,
    ) -> Result<()> {
        let trials = self.run_trials();
        if spec_trials != trials {
            return Err(Error::bad_input("its audits differ in trials"));
        }
        if counted.first != self.planned.first || counted.end > self.planned.end {
            return Err(Error::bad_input(format!(
                "chunks {counted} counted of {} planned",
                self.planned
            )));
        }
        if tallied != counted.trials(trials) {
            return Err(Error::bad_input(format!(
                "{tallied} {unit} counted where chunks {counted} hold {}",
                counted.trials(trials)
            )));
        }
        Ok(())
    }

    /// Writes the file at `path` so that a crash at any moment leaves the
    /// previous file or this one, whole ([`files::write_durable`]).
    pub fn save(&self, path: &Path) -> Result<()> {
        files::write_durable(path, &self.to_bytes())
    }

    /// Reads the tally file at `path`; every refusal names the file.
    pub fn load(path: &Path) -> Result<Self> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_bytes(&bytes).map_err(|why| {
            Error::of_kind(ErrorKind::BadInput, format!("{}: {why}", path.display()))
        })
    }
}

/// `payload` under a header line naming `magic` and `version`, with the
/// payload's SHA-256 and length: the layout of tally files and input
/// checkpoints.
pub(crate) fn seal(magic: &str, version: u32, payload: Vec<u8>) -> Vec<u8> {
    let mut bytes = format!(
        "{magic} v{version} sha256={} bytes={}\n",
        sha256_hex(&payload),
        payload.len()
    )
    .into_bytes();
    bytes.extend(payload);
    bytes
}

/// The payload of [`seal`]ed `bytes`, refusing (with the reason) another
/// kind of file, another version, and a length or checksum that does not
/// match.
pub(crate) fn unseal<'b>(
    bytes: &'b [u8],
    magic: &str,
    version: u32,
) -> std::result::Result<&'b [u8], String> {
    let noun = magic.strip_prefix("shuffle-audit ").unwrap_or(magic);
    let newline = bytes.iter().position(|&b| b == b'\n');
    let header = newline
        .and_then(|at| std::str::from_utf8(&bytes[..at]).ok())
        .filter(|h| h.starts_with(magic))
        .ok_or_else(|| format!("not a shuffle-audit {noun} file"))?;
    let payload = &bytes[newline.map_or(bytes.len(), |at| at + 1)..];
    let fields: Vec<&str> = header[magic.len()..].split_whitespace().collect();
    let found = fields
        .first()
        .and_then(|v| v.strip_prefix('v'))
        .and_then(|v| v.parse::<u32>().ok())
        .ok_or_else(|| format!("a {noun} file header without a version"))?;
    if found != version {
        return Err(format!(
            "{noun} file format version {found}; this {} reads version {version}",
            tool_version()
        ));
    }
    let field = |key: &str| {
        fields
            .iter()
            .find_map(|f| f.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
    };
    let length = field("bytes").and_then(|v| v.parse::<usize>().ok());
    if length != Some(payload.len()) {
        return Err(format!(
            "corrupted or truncated: {} bytes of counts where the header says {}",
            payload.len(),
            field("bytes").unwrap_or("nothing")
        ));
    }
    if field("sha256") != Some(sha256_hex(payload).as_str()) {
        return Err("corrupted: the checksum (sha256) does not match the contents".into());
    }
    Ok(payload)
}

/// The lengths of everything a tally counts, with its n: two tallies of
/// the same shape can be merged and tested alike.
fn shape(tally: &Tally) -> Vec<usize> {
    let absent = usize::MAX;
    let mut shape = vec![
        tally.n(),
        tally.counts().len(),
        tally.permutations().map_or(absent, <[u64]>::len),
    ];
    match tally.structure() {
        None => shape.push(absent),
        Some(s) => {
            shape.extend([s.fixed_points.len(), s.cycles.len(), s.rising.len()]);
            shape.push(s.lehmer.len());
            shape.extend(s.pairs.iter().flat_map(|p| [p.first, p.counts.len()]));
            shape.push(s.clumping.len());
        }
    }
    match tally.hands() {
        None => shape.push(absent),
        Some(h) => {
            shape.push(h.h);
            shape.extend(
                h.columns
                    .iter()
                    .flat_map(|c| [c.of_item.len(), c.categories]),
            );
        }
    }
    match tally.serial() {
        None => shape.push(absent),
        Some(s) => shape.extend([s.triples.len(), s.ahead.len()]),
    }
    shape.push(tally.deals().map_or(absent, |_| 0));
    match tally.order() {
        None => shape.push(absent),
        Some(o) => {
            shape.push(o.inversions.len());
            shape.extend(o.inversion_edges.iter().map(|&e| e as usize));
            shape.push(o.displacement.len());
            shape.push(o.lehmer.len());
        }
    }
    shape
}

/// The lengths of everything a sampler tally counts, with its N and k: two
/// tallies of the same shape can be merged and tested alike.
fn sample_shape(tally: &SampleTally) -> [usize; 6] {
    let len = |counts: Option<&[u64]>| counts.map_or(usize::MAX, <[u64]>::len);
    [
        tally.n(),
        tally.k(),
        tally.inclusion().len(),
        len(tally.pairs()),
        len(tally.slots()),
        len(tally.subsets()),
    ]
}

/// Weights as a difference names them (`none` for an unweighted sampler).
fn weights_words(weights: Option<&[u64]>) -> String {
    weights.map_or_else(
        || "none".to_string(),
        |w| w.iter().map(u64::to_string).collect::<Vec<_>>().join(","),
    )
}

/// A chosen number of bins as a difference names it (`default` when none
/// was chosen).
fn bins_words(bins: Option<usize>) -> String {
    bins.map_or_else(|| "default".to_string(), |b| b.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::engine::{self, CHUNK_TRIALS, no_progress};
    use crate::source::SourceSpec;

    fn specs() -> Vec<RunSpec> {
        ["naive-swap", "fisher-yates"]
            .map(|name| {
                RunSpec::new(
                    Algorithm::parse(name).unwrap(),
                    6,
                    3 * CHUNK_TRIALS + 7,
                    SourceSpec::default(),
                    5,
                )
            })
            .to_vec()
    }

    /// Shard 1/2 of `specs()`, counted.
    fn counted() -> TallyFile {
        let shard = Shard { index: 1, count: 2 };
        let mut file = TallyFile::new(&specs(), 0.001, Some(shard), "test".into(), 2).unwrap();
        for (audit, spec) in file.audits.iter_mut().zip(specs()) {
            audit.tally = engine::run_range(&spec, file.planned, &no_progress).unwrap();
            audit.counted = file.planned;
        }
        file
    }

    #[test]
    fn a_tally_file_reads_back_as_written() {
        let file = counted();
        assert_eq!(file.planned, ChunkRange::all(1).with(2, 4));
        assert!(file.is_complete() && !file.is_whole_run());
        assert_eq!(file.counted_trials(), 2 * (CHUNK_TRIALS + 7));
        let bytes = file.to_bytes();
        let text = String::from_utf8(bytes.clone()).unwrap();
        let (header, payload) = text.split_once('\n').unwrap();
        assert!(
            header.starts_with("shuffle-audit tally v4 sha256="),
            "{header}"
        );
        assert!(
            header.ends_with(&format!("bytes={}", payload.len())),
            "{header}"
        );
        assert_eq!(TallyFile::from_bytes(&bytes).unwrap(), file);
    }

    #[test]
    fn damaged_files_and_other_versions_are_refused_for_what_they_are() {
        let bytes = counted().to_bytes();
        let refused = |bytes: &[u8]| TallyFile::from_bytes(bytes).unwrap_err();
        let mut flipped = bytes.clone();
        let at = bytes.len() - 40;
        flipped[at] ^= 1;
        assert!(
            refused(&flipped).contains("checksum"),
            "{}",
            refused(&flipped)
        );
        assert!(refused(&bytes[..bytes.len() - 1]).contains("truncated"));
        let text = String::from_utf8(bytes.clone()).unwrap();
        for other in [" v3 ", " v5 "] {
            let changed = text.replacen(" v4 ", other, 1);
            let e = refused(changed.as_bytes());
            assert!(
                e.contains(&format!("version {}", other.trim().trim_start_matches('v'))),
                "{e}"
            );
        }
        assert!(refused(b"trials,counts\n1,2\n").contains("not a shuffle-audit tally"));
        assert!(refused(b"").contains("not a shuffle-audit tally"));
    }

    #[test]
    fn a_consistent_checksum_does_not_make_inconsistent_counts_acceptable() {
        let mut file = counted();
        file.audits[0].counted.end = 3;
        let e = TallyFile::from_bytes(&file.to_bytes()).unwrap_err();
        assert!(e.contains("not a consistent tally"), "{e}");
        let mut file = counted();
        file.audits[1].tally = Tally::new(6);
        let e = TallyFile::from_bytes(&file.to_bytes()).unwrap_err();
        assert!(e.contains("shape"), "{e}");
    }

    #[test]
    fn runs_differ_by_what_decides_their_counts() {
        let a = counted();
        let mut b = counted();
        b.planned = b.planned.with(0, 2);
        b.threads = 7;
        assert_eq!(a.difference(&b), None, "shards of one run");
        b.audits[1].spec.seed = 6;
        let d = a.difference(&b).unwrap();
        assert_eq!(
            (d.field, d.this.as_str(), d.other.as_str()),
            ("seed", "5", "6")
        );
        let mut c = counted();
        c.alpha = 0.01;
        assert_eq!(a.difference(&c).unwrap().other, "0.01");
        c.audits.pop();
        let d = a.difference(&c).unwrap();
        assert_eq!((d.field, d.other.as_str()), ("algorithms", "naive-swap"));
    }

    #[test]
    fn only_built_in_audits_of_equal_trials_are_split() {
        let mut uneven = specs();
        uneven[1].trials += 1;
        assert!(TallyFile::new(&uneven, 0.001, None, String::new(), 1).is_err());
        assert!(TallyFile::new(&[], 0.001, None, String::new(), 1).is_err());
    }
}

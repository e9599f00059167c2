//! The tally file: the counts of a share of a run with everything that
//! decides them, under a checksum.
//!
//! Layout: one header line, then the payload, a JSON document:
//!
//! ```text
//! shuffle-audit tally v5 sha256=<64 hex digits> bytes=<payload length>
//! {"tool":"shuffle-audit 0.1.0","command_line":"...","alpha":0.001,...}
//! ```
//!
//! The checksum is SHA-256 (the `sha2` crate) of the payload's bytes as
//! written, so `tail -n +2 FILE | sha256sum` checks a file by hand, and no
//! re-encoding of the JSON is involved in checking it. The version is read
//! before anything else, so a file of another format version is refused as
//! such, not as a corrupted one. JSON keeps the file readable and diffable;
//! its size is that of the counts. Every audit, of any kind, is one entry:
//! its kind, what its kind records of its spec, the chunks counted and the
//! counts; the kind's name finds how to read the rest (`super::kinds`).

use super::{Shard, kinds};
use crate::audit::{Counts, Planned};
use crate::digest::sha256_hex;
use crate::engine::ChunkRange;
use crate::error::{Error, Result};
use crate::output::files;
use crate::report::Provenance;
use crate::report::provenance::tool_version;
use crate::study::{Counted, Study, StudyResult};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;

/// The words that open every tally file.
pub const MAGIC: &str = "shuffle-audit tally";

/// The format version this build writes and reads. Changing what the
/// payload holds, or what its numbers mean, changes it. Version 2: binned
/// matrices (`bins`), smaller chunks above n = 1024, and the order counts.
/// Version 3: the serial counts are the triples' signed match differences.
/// Version 4: sampler audits are counted in chunks too. Version 5: one list
/// of audits of every kind, each with its `kind`; a version-4 file is
/// refused as such.
pub const VERSION: u32 = 5;

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
    /// Every audit of the run, of any kind, in run order.
    pub audits: Vec<Entry>,
}

/// One audit's spec and what has been counted of it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "RawEntry", into = "RawEntry")]
pub struct Entry {
    /// What decides the counts (subject, n, trials of the whole run, rng,
    /// seed and what the kind adds).
    pub spec: Box<dyn Planned>,
    /// The chunks counted so far: from the planned range's first chunk up
    /// to `counted.end`.
    pub counted: ChunkRange,
    /// Seconds spent counting them.
    pub seconds: f64,
    /// The counts of those chunks.
    pub counts: Box<dyn Counts>,
}

/// An entry as the file writes it: the kind's name, and its spec and
/// counts as the kind records them.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct RawEntry {
    kind: String,
    spec: Value,
    counted: ChunkRange,
    seconds: f64,
    counts: Value,
}

impl TryFrom<RawEntry> for Entry {
    type Error = Error;

    fn try_from(raw: RawEntry) -> Result<Self> {
        let spec = kinds::planned(&raw.kind, &raw.spec, None)?;
        let counts = spec.counts_from(raw.counts)?;
        Ok(Entry {
            spec,
            counted: raw.counted,
            seconds: raw.seconds,
            counts,
        })
    }
}

impl From<Entry> for RawEntry {
    fn from(entry: Entry) -> Self {
        RawEntry {
            kind: entry.spec.kind().to_string(),
            spec: entry.spec.recorded(),
            counted: entry.counted,
            seconds: entry.seconds,
            counts: entry.counts.to_json(),
        }
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.spec.kind() == other.spec.kind()
            && self.spec.recorded() == other.spec.recorded()
            && self.counted == other.counted
            && self.seconds == other.seconds
            && self.counts.same(other.counts.as_ref())
    }
}

/// How two tally files' runs differ: the first thing that does, with the
/// value in each (see [`TallyFile::difference`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// What differs: `seed`, `n`, `subjects`, ...
    pub field: String,
    /// Its value in the file asked.
    pub this: String,
    /// Its value in the other file.
    pub other: String,
}

impl TallyFile {
    /// An empty tally file for every audit of `study` judged at its α: its
    /// chunks `shard`, or all of them, none counted yet (by [`super::run`]
    /// for a built-in subject, by [`super::drawn`] for output a caller's
    /// function draws on demand). Refuses what cannot be counted in chunks:
    /// other audits from outside, audits of other trials or chunk sizes, a
    /// sequential study, and mixing curves (measured by [`Study::run`]
    /// only).
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
        let Some(first) = study.audits.first() else {
            return Err(Error::bad_input("a run needs at least one audit"));
        };
        let chunked = |a: &dyn Planned| {
            a.is_builtin() || matches!(a.feed(), Some(crate::audit::Feed::Drawn { .. }))
        };
        if let Some(outside) = study.audits.iter().find(|a| !chunked(a.as_ref())) {
            return Err(Error::unsupported(format!(
                "{} is not built in: only built-in subjects (and output a caller's function \
                 draws chunk by chunk, see shard::drawn) are drawn in chunks that can be split \
                 across machines or saved and resumed",
                outside.subject()
            )));
        }
        if study.audits.iter().any(|a| a.trials() != first.trials()) {
            return Err(Error::unsupported(
                "the audits of a sharded or checkpointed run must have the same trials",
            ));
        }
        let all = first.chunks();
        if let Some(other) = study.audits.iter().find(|a| a.chunks().size != all.size) {
            return Err(Error::unsupported(format!(
                "the audits of a sharded or checkpointed run must be counted in chunks of the \
                 same size: {} at n = {} has chunks of {} trials, {} at n = {} of {} (n above \
                 {} is counted in smaller chunks)",
                first.subject(),
                first.n(),
                all.size,
                other.subject(),
                other.n(),
                other.chunks().size,
                crate::spec::LARGE_N
            )));
        }
        let planned = shard.map_or(all, |s| s.range(all));
        let empty = planned.with(planned.first, planned.first);
        let audits = study
            .audits
            .iter()
            .map(|spec| {
                Ok(Entry {
                    spec: spec.on_threads(None),
                    counted: empty,
                    seconds: 0.0,
                    counts: spec.empty()?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            tool: tool_version(),
            command_line,
            alpha: study.alpha,
            shard,
            planned,
            threads,
            audits,
        })
    }

    /// The trials of the whole run, per audit.
    pub fn run_trials(&self) -> u64 {
        self.audits.first().map_or(0, |a| a.spec.trials())
    }

    /// Trials this file holds once complete, over all its audits.
    pub fn planned_trials(&self) -> u64 {
        let share = self.planned.trials(self.run_trials());
        share.saturating_mul(self.audits.len() as u64)
    }

    /// Trials counted so far, over all audits.
    pub fn counted_trials(&self) -> u64 {
        self.audits.iter().map(|a| a.counts.trials()).sum()
    }

    /// The chunks each audit has counted, in study order.
    pub fn counted_ranges(&self) -> Vec<ChunkRange> {
        self.audits.iter().map(|a| a.counted).collect()
    }

    /// Seconds spent counting, over all audits.
    pub fn seconds(&self) -> f64 {
        self.audits.iter().map(|a| a.seconds).sum()
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

    /// The audits' specs, on the file's thread count.
    pub fn specs(&self) -> Vec<Box<dyn Planned>> {
        self.audits
            .iter()
            .map(|a| a.spec.on_threads(Some(self.threads)))
            .collect()
    }

    /// What makes `other` a different run from this one, or `None` if both
    /// count the same run: the same tool, subjects, and every field that
    /// decides an audit's counts (n, trials, rng, seed, tests, weights, ...),
    /// and α. The chunk ranges may differ: that is what shards do.
    pub fn difference(&self, other: &Self) -> Option<Difference> {
        let differ = |field: &str, this: String, other: String| {
            (this != other).then(|| Difference {
                field: field.to_string(),
                this,
                other,
            })
        };
        let subjects = |f: &Self| -> String {
            let names: Vec<String> = f.audits.iter().map(|a| a.spec.subject()).collect();
            names.join(",")
        };
        if let Some(d) = differ("tool", self.tool.clone(), other.tool.clone())
            .or_else(|| differ("subjects", subjects(self), subjects(other)))
        {
            return Some(d);
        }
        for (a, b) in self.audits.iter().zip(&other.audits) {
            let (a, b) = (a.spec.recorded(), b.spec.recorded());
            let (Value::Object(a), Value::Object(b)) = (&a, &b) else {
                continue;
            };
            // Every key either records (an option left out of a record,
            // such as bins or deck, is none): a shard or resume that adds
            // one is another run, as one that drops it is.
            let keys = a.keys().chain(b.keys().filter(|k| !a.contains_key(*k)));
            for key in keys {
                let words = |v: Option<&Value>| match v {
                    None | Some(Value::Null) => "none".to_string(),
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Array(items)) => items
                        .iter()
                        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                        .collect::<Vec<_>>()
                        .join(","),
                    // A deck says its label (`AABBCCDDEE`, `shoe:decks=2`).
                    Some(Value::Object(o)) if o.get("label").is_some_and(Value::is_string) => {
                        o["label"].as_str().unwrap_or_default().to_string()
                    }
                    Some(v) => v.to_string(),
                };
                if let Some(d) = differ(key, words(a.get(key)), words(b.get(key))) {
                    return Some(d);
                }
            }
        }
        differ("alpha", self.alpha.to_string(), other.alpha.to_string())
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
        let specs = self.specs();
        let counted = self
            .audits
            .into_iter()
            .map(|a| Counted {
                counts: a.counts,
                seconds: a.seconds,
            })
            .collect();
        Study {
            alpha: self.alpha,
            provenance,
            ..Study::new(specs)
        }
        .conclude(counted)
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

    /// Checks the payload holds together: audits of one trial count,
    /// ranges within the run, counts of the right total (their shape was
    /// checked as they were read).
    fn check(&self) -> Result<()> {
        if self.audits.is_empty() {
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
        for audit in &self.audits {
            if audit.spec.trials() != trials {
                return Err(Error::bad_input("its audits differ in trials"));
            }
            let counted = audit.counted;
            if counted.first != self.planned.first || counted.end > self.planned.end {
                return Err(Error::bad_input(format!(
                    "chunks {counted} counted of {} planned",
                    self.planned
                )));
            }
            let tallied = audit.counts.trials();
            if tallied != counted.trials(trials) {
                return Err(Error::bad_input(format!(
                    "{tallied} trials counted where chunks {counted} hold {}",
                    counted.trials(trials)
                )));
            }
        }
        Ok(())
    }

    /// Writes the file at `path` so that a crash at any moment leaves the
    /// previous file or this one, whole (`files::write_durable`).
    pub fn save(&self, path: &Path) -> Result<()> {
        files::write_durable(path, &self.to_bytes())
    }

    /// Reads the tally file at `path`; every refusal names the file.
    pub fn load(path: &Path) -> Result<Self> {
        load_sealed(path, Self::from_bytes)
    }
}

/// What `parse` makes of the bytes of the file at `path`, a refusal
/// naming the file.
pub(crate) fn load_sealed<T>(
    path: &Path,
    parse: impl FnOnce(&[u8]) -> std::result::Result<T, String>,
) -> Result<T> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&bytes).map_err(|why| Error::bad_input(format!("{}: {why}", path.display())))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::audit::{CHUNK_TRIALS, Spec, no_progress};
    use crate::sampler::{Sampler, Samplers};
    use crate::shuffle::Shuffles;
    use crate::source::SourceSpec;

    /// naive-swap and fisher-yates at n = 6, seed 5: a run of 4 chunks,
    /// the last of 7 trials.
    fn specs() -> Vec<Box<dyn Planned>> {
        ["naive-swap", "fisher-yates"]
            .map(|name| {
                Spec::<Shuffles>::new(
                    Algorithm::parse(name).unwrap(),
                    6,
                    3 * CHUNK_TRIALS + 7,
                    SourceSpec::default(),
                    5,
                )
                .into()
            })
            .to_vec()
    }

    /// Shard 1/2 of a study of `specs`, counted.
    fn counted_of(specs: Vec<Box<dyn Planned>>) -> TallyFile {
        let shard = Shard { index: 1, count: 2 };
        let study = Study::new(specs);
        let mut file = TallyFile::of_study(&study, Some(shard), "test".into(), 2).unwrap();
        super::super::run::count(&mut file, None, &crate::study::Unobserved).unwrap();
        file
    }

    /// Shard 1/2 of `specs()`, counted.
    fn counted() -> TallyFile {
        counted_of(specs())
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
            header.starts_with("shuffle-audit tally v5 sha256="),
            "{header}"
        );
        assert!(
            header.ends_with(&format!("bytes={}", payload.len())),
            "{header}"
        );
        assert_eq!(TallyFile::from_bytes(&bytes).unwrap(), file);
    }

    /// A shuffle and a sampler of the same trials share one file: one list
    /// of entries, each with its kind, read back as written.
    #[test]
    fn audits_of_every_kind_share_one_file() {
        let mut specs = specs();
        let floyd = Spec::<Samplers>::new(
            Sampler::parse("floyd:k=3").unwrap(),
            10,
            3 * CHUNK_TRIALS + 7,
            SourceSpec::default(),
            5,
        );
        specs.push(floyd.clone().into());
        let file = counted_of(specs);
        let bytes = file.to_bytes();
        let back = TallyFile::from_bytes(&bytes).unwrap();
        assert_eq!(back, file);
        let kinds: Vec<&str> = back.audits.iter().map(|a| a.spec.kind()).collect();
        assert_eq!(kinds, ["shuffle", "shuffle", "sampler"]);
        let want = Planned::count(&floyd, file.planned, &no_progress).unwrap();
        assert!(want.same(back.audits[2].counts.as_ref()));
        let text = String::from_utf8(bytes).unwrap();
        let payload: Value = serde_json::from_str(text.split_once('\n').unwrap().1).unwrap();
        assert_eq!(payload["audits"][2]["kind"], "sampler");
        assert_eq!(payload["audits"][2]["spec"]["subject"], "floyd:k=3");
        // A kind this build does not know is refused, naming it.
        let unknown = text.replacen("\"kind\":\"sampler\"", "\"kind\":\"die\"", 1);
        let payload = unknown.split_once('\n').unwrap().1.as_bytes().to_vec();
        let e = TallyFile::from_bytes(&seal(MAGIC, VERSION, payload)).unwrap_err();
        assert!(e.contains("of kind 'die'"), "{e}");
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
        for other in [" v4 ", " v6 "] {
            let changed = text.replacen(" v5 ", other, 1);
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
        // The counts of n = 5 where n = 6 was run.
        let smaller = Spec::<Shuffles>::new(Algorithm::FisherYates, 5, 1, SourceSpec::default(), 5);
        file.audits[1].counts = Planned::empty(&smaller).unwrap();
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
        let mut reseeded = specs();
        reseeded[1] = Spec::<Shuffles>::new(
            Algorithm::FisherYates,
            6,
            3 * CHUNK_TRIALS + 7,
            SourceSpec::default(),
            6,
        )
        .into();
        let b = counted_of(reseeded);
        let d = a.difference(&b).unwrap();
        assert_eq!(
            (d.field.as_str(), d.this.as_str(), d.other.as_str()),
            ("seed", "5", "6")
        );
        // An option one record leaves out (bins: none) and the other holds
        // is a difference whichever file comes first (it was seen only when
        // the first held it: a merge then panicked).
        let mut binned = specs();
        let mut spec = Spec::<Shuffles>::new(
            Algorithm::FisherYates,
            6,
            3 * CHUNK_TRIALS + 7,
            SourceSpec::default(),
            5,
        );
        spec.options.tests = spec.options.tests.with_bins(3, 6).unwrap();
        binned[1] = spec.into();
        let b = counted_of(binned);
        for (this, other, words) in [(&a, &b, ("none", "3")), (&b, &a, ("3", "none"))] {
            let d = this.difference(other).expect("bins differ");
            assert_eq!(
                (d.field.as_str(), d.this.as_str(), d.other.as_str()),
                ("bins", words.0, words.1)
            );
        }
        let mut c = counted();
        c.alpha = 0.01;
        assert_eq!(a.difference(&c).unwrap().other, "0.01");
        c.audits.pop();
        let d = a.difference(&c).unwrap();
        assert_eq!(
            (d.field.as_str(), d.other.as_str()),
            ("subjects", "naive-swap")
        );
    }

    #[test]
    fn only_built_in_audits_of_equal_trials_are_split() {
        let mut uneven = specs();
        uneven[1] = uneven[1].with_trials(3 * CHUNK_TRIALS + 8);
        let file = |specs| TallyFile::of_study(&Study::new(specs), None, String::new(), 1);
        assert!(file(uneven).is_err());
        assert!(file(Vec::new()).is_err());
        let outside = Spec::<Shuffles>::new(
            crate::audit::Subject::Outside(crate::audit::Outside {
                name: "deals.txt".into(),
                feed: crate::audit::Feed::Function,
                reading: crate::shuffle::Reading::default(),
            }),
            6,
            3 * CHUNK_TRIALS + 7,
            SourceSpec::default(),
            5,
        );
        let e = file(vec![outside.into()]).unwrap_err();
        assert!(e.to_string().contains("deals.txt is not built in"), "{e}");
    }
}

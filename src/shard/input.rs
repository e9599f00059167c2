//! Checkpoints of an audit that reads its output from a file (decks,
//! samples or picks: any kind, through [`Kind::read_file_from`]): the
//! counts so far and the offset they reach, so that a long read stopped or
//! killed at any moment resumes where it was saved and still gives the
//! counts of one uninterrupted read.
//!
//! The input is read in blocks cut at line (record) ends; after each
//! window of blocks the reader says how far it has got ([`ReadPoint`]:
//! bytes, lines, trials). Every so often, and when asked to stop, the
//! counts up to that point are saved with the point, what the read has
//! found out about the items (a deck's items, how samples number theirs)
//! and the SHA-256 of the input's bytes before it. A resumed read checks
//! that hash (so the file is the same up to there; it may have grown
//! since), opens the file at the saved byte, numbers lines on from the
//! saved line, reads on with the items found before, and adds its counts
//! to the saved ones: trials are counted once each, whatever the
//! interruptions.
//!
//! The file has the layout of a tally file (a header line with the
//! payload's SHA-256 and length, then JSON) under its own name, so that
//! neither kind of file is mistaken for the other. Its payload names the
//! kind of subject and holds the spec, the items found and the counts as
//! that kind records them ([`Kind::recorded`], [`Kind::Read`] and
//! [`Kind::Tally`] as JSON): one format for every kind.

use super::file::{load_sealed, seal, unseal};
use crate::audit::{self, Feed, FeedReport, Judged, Kind, Planned, Produced, Spec, Subject};
use crate::digest::sha256_hex;
use crate::error::{Error, ErrorKind, Result};
use crate::ingest::{Format, Items, ReadPoint, Resume, Saver};
use crate::output::files;
use crate::output::thousands;
use crate::pacing::{Progress, in_pool};
use crate::report::provenance::tool_version;
use crate::shuffle::Shuffles;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The words that open an input checkpoint.
pub const MAGIC: &str = "shuffle-audit input-checkpoint";

/// The format version this build writes. Version 3: any kind of subject
/// (`kind`), its spec, items found and counts as that kind records them,
/// and how the input is read (`input`). Version 2 (decks only) is still
/// read.
pub const VERSION: u32 = 3;

/// The counts of what has been read so far from an input file, and where
/// the read stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputCheckpoint {
    /// The tool that counted (`shuffle-audit <version>`).
    pub tool: String,
    /// The command that counted, shell-quoted.
    pub command_line: String,
    /// The significance level of the run's verdict.
    pub alpha: f64,
    /// The kind of subject read ([`Kind::NAME`]: `shuffle`, `sampler`).
    pub kind: String,
    /// The audit as its kind records it ([`Kind::recorded`]): its input,
    /// n, trials asked for, tests.
    pub spec: Value,
    /// How the input is read: its `format`, and the kind's `reading` (a
    /// deck's starting order, a sample's shape and numbering); `None` in a
    /// version 2 checkpoint, which did not record it.
    pub input: Option<Value>,
    /// What the read found out about the items before
    /// [`at`](Self::at) ([`Kind::Read`] as JSON: a deck's items, how
    /// samples number theirs); `None` until counts are saved.
    pub found: Option<Value>,
    /// How far the read has got.
    pub at: ReadPoint,
    /// SHA-256 of the input's bytes before [`at`](Self::at).
    pub prefix_sha256: String,
    /// Whether the read is finished (the input ended, or the trials asked
    /// for were read).
    pub complete: bool,
    /// Whether the trials asked for were read before the input ended.
    pub stopped_early: bool,
    /// Seconds spent reading and counting.
    pub seconds: f64,
    /// The counts of the trials before `at` ([`Kind::Tally`] as JSON);
    /// `None` until counts are saved.
    pub tally: Option<Value>,
}

/// Where an input checkpoint is saved, how often (and when the read
/// ends), and the flag that asks the read to stop at its next window: the
/// same as a chunked run's.
pub type InputSaving<'a> = super::run::Checkpoint<'a>;

/// What a checkpointed read of a file needs beside its spec.
#[derive(Debug)]
pub struct InputRead<'a> {
    /// The command that counts, shell-quoted (recorded in the checkpoint).
    pub command_line: String,
    /// The significance level of the run's verdict.
    pub alpha: f64,
    /// A checkpoint of the same read to resume (checked first), if any.
    pub resumed: Option<InputCheckpoint>,
    /// Where, how often, and until when to save.
    pub saving: InputSaving<'a>,
}

impl InputCheckpoint {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        seal(
            MAGIC,
            VERSION,
            serde_json::to_vec(self).expect("a checkpoint serialises"),
        )
    }

    /// Saves the checkpoint at `path` durably (write, flush, rename).
    pub fn save(&self, path: &Path) -> Result<()> {
        files::write_durable(path, &self.to_bytes())
    }

    /// Reads the checkpoint at `path` (of this version, or a version 2
    /// checkpoint of decks); every refusal names the file.
    pub fn load(path: &Path) -> Result<Self> {
        load_sealed(path, |bytes| {
            let unreadable = |e: serde_json::Error| format!("not a readable input checkpoint: {e}");
            match unseal(bytes, MAGIC, VERSION) {
                Ok(payload) => serde_json::from_slice(payload).map_err(unreadable),
                Err(why) => match unseal(bytes, MAGIC, 2) {
                    Ok(payload) => serde_json::from_slice::<Version2>(payload)
                        .map(Version2::upgrade)
                        .map_err(unreadable),
                    Err(_) => Err(why),
                },
            }
        })
    }

    /// What the read found and counted before [`at`](Self::at), as kind
    /// `K` has them; `None` before any counts were saved.
    pub fn counts<K: Kind>(&self) -> Result<Option<(K::Read, K::Tally)>> {
        let (Some(found), Some(tally)) = (&self.found, &self.tally) else {
            return Ok(None);
        };
        let bad = |e: serde_json::Error| {
            Error::bad_input(format!(
                "the checkpoint's counts are not a {}'s: {e}",
                K::NAME
            ))
        };
        Ok(Some((
            serde_json::from_value(found.clone()).map_err(bad)?,
            serde_json::from_value(tally.clone()).map_err(bad)?,
        )))
    }

    /// What the finished read of `spec`'s input produced, as a read
    /// without checkpoints reports it.
    pub fn produced<K: Kind>(&self, spec: &Spec<K>) -> Result<Produced<K>> {
        let Some((found, tally)) = self.counts::<K>()? else {
            return Err(Error::bad_input(format!(
                "the checkpoint holds no counts of {}",
                spec.subject
            )));
        };
        let asked = (spec.trials != audit::ALL_TRIALS).then_some(spec.trials);
        let feed = FeedReport::new(self.at.counted, self.stopped_early, asked, found)
            .with_sha256(Some(self.prefix_sha256.clone()));
        Ok(Produced {
            tally,
            feed: Some(feed),
        })
    }
}

/// A checkpoint of version 2: decks only, their items as labels and a
/// base.
#[derive(Deserialize)]
struct Version2 {
    tool: String,
    command_line: String,
    alpha: f64,
    spec: Value,
    items: Vec<String>,
    one_based: Option<bool>,
    at: ReadPoint,
    prefix_sha256: String,
    complete: bool,
    stopped_early: bool,
    seconds: f64,
    tally: Value,
}

impl Version2 {
    /// The same checkpoint in this version's layout.
    fn upgrade(self) -> InputCheckpoint {
        let items = match self.one_based {
            Some(one_based) => Items::Numeric { one_based },
            None => Items::Labels(self.items),
        };
        InputCheckpoint {
            tool: self.tool,
            command_line: self.command_line,
            alpha: self.alpha,
            kind: Shuffles::NAME.to_string(),
            spec: self.spec,
            input: None,
            found: Some(json!(items)),
            at: self.at,
            prefix_sha256: self.prefix_sha256,
            complete: self.complete,
            stopped_early: self.stopped_early,
            seconds: self.seconds,
            tally: Some(self.tally),
        }
    }
}

/// Reads `planned`'s input file (of any kind) with checkpoints as
/// `reading` says, and judges it alone at `reading.alpha`: what
/// `audit --input FILE --checkpoint C` (or `--resume C`) runs. Stopped by
/// the flag, it saves and fails with [`ErrorKind::Interrupted`].
pub fn read_planned(
    planned: &dyn Planned,
    reading: InputRead<'_>,
    progress: Progress<'_>,
) -> Result<Box<dyn Judged>> {
    (super::kinds::known(planned.kind())?.read_input)(planned, reading, progress)
}

/// [`read_planned`] for a spec of kind `K`.
pub(super) fn read_judged<K: Kind>(
    planned: &dyn Planned,
    reading: InputRead<'_>,
    progress: Progress<'_>,
) -> Result<Box<dyn Judged>> {
    let spec = planned
        .as_any()
        .downcast_ref::<Spec<K>>()
        .ok_or_else(|| Error::bad_input(format!("{} is not a {}", planned.subject(), K::NAME)))?;
    let alpha = reading.alpha;
    let done = read(spec, reading, progress)?;
    let produced = done.produced(spec)?;
    Ok(audit::of_read(spec, produced, done.seconds, alpha, false)?.into())
}

/// Reads `spec`'s input file (all of it, or the trials asked for) into a
/// checkpoint saved as `reading.saving` says, from `reading.resumed` if
/// given (a checkpoint of the same audit, checked), and returns the
/// finished checkpoint. Stopped by the flag, it saves and fails with
/// [`ErrorKind::Interrupted`].
pub fn read<K: Kind>(
    spec: &Spec<K>,
    reading: InputRead<'_>,
    progress: Progress<'_>,
) -> Result<InputCheckpoint> {
    let (path, format) = input_file(spec)?;
    let InputRead {
        command_line,
        alpha,
        resumed,
        saving,
    } = reading;
    let mut checkpoint = match resumed {
        Some(saved) => {
            check_resumable(&saved, spec, format, alpha, &path, saving.path)?;
            saved
        }
        None => InputCheckpoint {
            tool: tool_version(),
            command_line,
            alpha,
            kind: K::NAME.to_string(),
            spec: K::recorded(spec),
            input: Some(input_record(spec, format)),
            found: None,
            at: ReadPoint::default(),
            prefix_sha256: sha256_hex(b""),
            complete: false,
            stopped_early: false,
            seconds: 0.0,
            tally: None,
        },
    };
    if checkpoint.complete {
        return Ok(checkpoint);
    }
    let before = checkpoint.counts::<K>()?;
    let saver = FileSaver::<K> {
        saved: Mutex::new(Saved {
            checkpoint: checkpoint.clone(),
            hash: Hasher::at(&path, checkpoint.at.bytes)?,
            last: Instant::now(),
        }),
        before: before.as_ref(),
        unit: K::unit(spec),
        saving,
        input: path.clone(),
        started: Instant::now(),
    };
    let resume = Resume {
        at: checkpoint.at,
        before: before.as_ref().map(|(found, tally)| (found, tally)),
        saver: Some(&saver),
    };
    let start = Instant::now();
    let read = in_pool(spec.threads, || {
        K::read_file_from(spec, &path, format, resume, progress)
    })??;
    let (found, tally) = match before {
        Some((found, mut tally)) => {
            K::merge(&mut tally, &read.tally);
            (found, tally)
        }
        None => (read.items, read.tally),
    };
    checkpoint.found = Some(json!(found));
    checkpoint.tally = Some(json!(tally));
    checkpoint.seconds += start.elapsed().as_secs_f64();
    checkpoint.at.counted += read.counted;
    checkpoint.complete = true;
    checkpoint.stopped_early = read.stopped_early;
    checkpoint.prefix_sha256 = crate::digest::file_sha256(&path)?;
    checkpoint.at.bytes = std::fs::metadata(&path)
        .map_err(|source| Error::Io {
            path: path.clone(),
            source,
        })?
        .len();
    checkpoint.save(saving.path)?;
    Ok(checkpoint)
}

/// The file an audit reads and its format, refusing other feeds.
fn input_file<K: Kind>(spec: &Spec<K>) -> Result<(PathBuf, Format)> {
    match &spec.subject {
        Subject::Outside(outside) => match &outside.feed {
            Feed::File { path, format } if path.as_os_str() != "-" => Ok((path.clone(), *format)),
            _ => Err(Error::unsupported(
                "only output read from a file (--input FILE, not stdin) is checkpointed",
            )),
        },
        Subject::Builtin(_) => Err(Error::unsupported(
            "a built-in subject's run is checkpointed by chunks (shard::run)",
        )),
    }
}

/// How `spec`'s input is read, as a checkpoint records it.
fn input_record<K: Kind>(spec: &Spec<K>, format: Format) -> Value {
    let reading = spec.subject.outside().map(|outside| &outside.reading);
    json!({ "format": format.name(), "reading": reading })
}

/// Refuses a checkpoint of another run, another tool, or of a file whose
/// bytes before the saved point have changed.
fn check_resumable<K: Kind>(
    saved: &InputCheckpoint,
    spec: &Spec<K>,
    format: Format,
    alpha: f64,
    input: &Path,
    path: &Path,
) -> Result<()> {
    let read_alike = saved
        .input
        .as_ref()
        .is_none_or(|recorded| *recorded == input_record(spec, format));
    let why = if saved.tool != tool_version() {
        Some(format!(
            "it was saved by {}, this is {}",
            saved.tool,
            tool_version()
        ))
    } else if saved.kind != K::NAME {
        Some(format!(
            "it holds a read of a {}'s output, not of a {}'s",
            saved.kind,
            K::NAME
        ))
    } else if saved.spec != K::recorded(spec) || saved.alpha != alpha || !read_alike {
        Some(
            "it was saved by another run (other input, kind, n, trials, tests or alpha)"
                .to_string(),
        )
    } else if Hasher::at(input, saved.at.bytes)?.hex() != saved.prefix_sha256 {
        Some(format!(
            "{} has changed in its first {} bytes since the checkpoint was saved",
            input.display(),
            thousands(saved.at.bytes)
        ))
    } else {
        None
    };
    match why {
        None => Ok(()),
        Some(why) => Err(Error::bad_input(format!(
            "cannot resume {}: {why}",
            path.display()
        ))),
    }
}

/// SHA-256 of a file's first bytes, brought forward as the read goes.
struct Hasher {
    file: std::fs::File,
    path: PathBuf,
    sha: Sha256,
    at: u64,
}

impl Hasher {
    /// The hash of the first `bytes` bytes of the file at `path`.
    fn at(path: &Path, bytes: u64) -> Result<Self> {
        let file = std::fs::File::open(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut hasher = Self {
            file,
            path: path.to_path_buf(),
            sha: Sha256::new(),
            at: 0,
        };
        hasher.advance(bytes)?;
        Ok(hasher)
    }

    /// Takes in the file's bytes up to `bytes`.
    fn advance(&mut self, bytes: u64) -> Result<()> {
        let io = |source| Error::Io {
            path: self.path.clone(),
            source,
        };
        self.file.seek(SeekFrom::Start(self.at)).map_err(io)?;
        let mut left = bytes.saturating_sub(self.at);
        let mut buf = vec![0u8; 1 << 20];
        while left > 0 {
            let want = left.min(buf.len() as u64) as usize;
            let k = self.file.read(&mut buf[..want]).map_err(io)?;
            if k == 0 {
                return Err(Error::bad_input(format!(
                    "{} is shorter than the {} bytes already read",
                    self.path.display(),
                    thousands(bytes)
                )));
            }
            self.sha.update(&buf[..k]);
            left -= k as u64;
            self.at += k as u64;
        }
        Ok(())
    }

    fn hex(&self) -> String {
        crate::digest::hex(&self.sha.clone().finalize())
    }
}

/// What the saver last saved, and the hash brought up to it.
struct Saved {
    checkpoint: InputCheckpoint,
    hash: Hasher,
    last: Instant,
}

/// Saves the checkpoint as the read of a `K`'s output goes ([`Saver`]).
struct FileSaver<'a, K: Kind> {
    saved: Mutex<Saved>,
    /// What the read resumed from had found and counted.
    before: Option<&'a (K::Read, K::Tally)>,
    /// What the trials are called (`shuffles`, `samples`, `picks`).
    unit: &'static str,
    saving: InputSaving<'a>,
    input: PathBuf,
    started: Instant,
}

impl<K: Kind> Saver<K::Tally, K::Read> for FileSaver<'_, K> {
    fn reached(
        &self,
        point: ReadPoint,
        so_far: &dyn Fn() -> Option<(K::Read, K::Tally)>,
    ) -> Result<()> {
        let stop = self.saving.stop.load(Ordering::Relaxed);
        let mut saved = self.saved.lock().unwrap_or_else(|e| e.into_inner());
        if !stop && saved.last.elapsed() < self.saving.every {
            return Ok(());
        }
        let mut checkpoint = saved.checkpoint.clone();
        // Nothing countable yet (samples whose numbering is still open)
        // keeps the point the read started from.
        if let Some((found, tally)) = so_far() {
            saved.hash.advance(point.bytes)?;
            let (found, tally) = match self.before {
                Some((before, counted)) => {
                    let mut all = counted.clone();
                    K::merge(&mut all, &tally);
                    (before.clone(), all)
                }
                None => (found, tally),
            };
            checkpoint.found = Some(json!(found));
            checkpoint.tally = Some(json!(tally));
            checkpoint.at = point;
            checkpoint.prefix_sha256 = saved.hash.hex();
        }
        checkpoint.seconds += self.started.elapsed().as_secs_f64();
        checkpoint.save(self.saving.path)?;
        saved.last = Instant::now();
        if stop {
            return Err(Error::of_kind(
                ErrorKind::Interrupted,
                format!(
                    "stopped after {} {} of {}; the counts so far are saved in {}",
                    thousands(checkpoint.at.counted),
                    self.unit,
                    self.input.display(),
                    self.saving.path.display()
                ),
            ));
        }
        Ok(())
    }
}

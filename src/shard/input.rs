//! Checkpoints of an audit that reads its decks from a file: the counts so
//! far and the record offset they reach, so that a long read stopped or
//! killed at any moment resumes where it was saved and still gives the
//! counts of one uninterrupted read.
//!
//! The input is read in blocks cut at line (record) ends; after each
//! window of blocks the reader says how far it has got ([`ReadPoint`]:
//! bytes, lines, decks). Every so often, and when asked to stop, the
//! counts up to that point are saved with the point and the SHA-256 of the
//! input's bytes before it. A resumed read checks that hash (so the file
//! is the same up to there; it may have grown since), opens the file at
//! the saved byte, numbers lines on from the saved line, and adds its
//! counts to the saved ones: decks are counted once each, whatever the
//! interruptions.
//!
//! The file has the layout of a tally file (a header line with the
//! payload's SHA-256 and length, then JSON) under its own name, so that
//! neither kind is mistaken for the other.

use super::file::{seal, unseal};
use crate::audit::{Feed, FeedReport, Spec, Subject};
use crate::digest::sha256_hex;
use crate::error::{Error, ErrorKind, Result};
use crate::ingest::{self, Decks, Items, Options, ReadPoint, Resume, Saver};
use crate::output::files;
use crate::output::thousands;
use crate::report::provenance::tool_version;
use crate::shuffle::{Recorded, Shuffles};
use crate::tally::Tally;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The words that open an input checkpoint.
pub const MAGIC: &str = "shuffle-audit input-checkpoint";

/// The format version this build writes and reads. Version 2: the serial
/// counts are the triples' signed match differences.
pub const VERSION: u32 = 2;

/// The counts of the decks read so far from an input file, and where the
/// read stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputCheckpoint {
    /// The tool that counted (`shuffle-audit <version>`).
    pub tool: String,
    /// The command that counted, shell-quoted.
    pub command_line: String,
    /// The significance level of the run's verdict.
    pub alpha: f64,
    /// The audit: its input, n, decks asked for, tests.
    pub spec: Recorded,
    /// The starting order as the input writes it: item i is `items[i]`.
    pub items: Vec<String>,
    /// Whether the items are integers from 1 (else from 0, or labels).
    pub one_based: Option<bool>,
    /// How far the read has got.
    pub at: ReadPoint,
    /// SHA-256 of the input's bytes before [`at`](Self::at).
    pub prefix_sha256: String,
    /// Whether the read is finished (the input ended, or the decks asked
    /// for were read).
    pub complete: bool,
    /// Whether the decks asked for were read before the input ended.
    pub stopped_early: bool,
    /// Seconds spent reading and counting.
    pub seconds: f64,
    /// The counts of the decks before `at`.
    pub tally: Tally,
}

/// Where an input checkpoint is saved, how often, and the flag that asks
/// the read to stop.
#[derive(Debug, Clone, Copy)]
pub struct InputSaving<'a> {
    /// The checkpoint file.
    pub path: &'a Path,
    /// Saves at least this far apart (and when the read ends).
    pub every: Duration,
    /// When set, the read saves and stops at its next window.
    pub stop: &'a AtomicBool,
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

    /// Reads the checkpoint at `path`; every refusal names the file.
    pub fn load(path: &Path) -> Result<Self> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let refuse =
            |why: String| Error::of_kind(ErrorKind::BadInput, format!("{}: {why}", path.display()));
        let payload = unseal(&bytes, MAGIC, VERSION).map_err(refuse)?;
        serde_json::from_slice(payload)
            .map_err(|e| refuse(format!("not a readable input checkpoint: {e}")))
    }

    /// The items as the audit's feed reports them.
    pub fn items(&self) -> Items {
        match self.one_based {
            Some(one_based) => Items::Numeric { one_based },
            None => Items::Labels(self.items.clone()),
        }
    }

    /// What the finished read gave, as a read without checkpoints reports
    /// it (`asked`: the decks asked for, if a limit was set).
    pub fn feed(&self, asked: Option<u64>) -> FeedReport<Shuffles> {
        FeedReport::new(self.at.decks, self.stopped_early, asked, self.items())
            .with_sha256(Some(self.prefix_sha256.clone()))
    }
}

/// Reads `spec`'s input file (all of it, or the decks asked for) into a
/// checkpoint saved as `saving` says, from `resumed` if given (a
/// checkpoint of the same audit, checked), and returns the finished
/// checkpoint. Stopped by the flag, it saves and fails with
/// [`ErrorKind::Interrupted`].
pub fn read(
    spec: &Spec<Shuffles>,
    opts: &Options<Decks>,
    command_line: String,
    alpha: f64,
    resumed: Option<InputCheckpoint>,
    saving: InputSaving<'_>,
    progress: crate::engine::Progress<'_>,
) -> Result<InputCheckpoint> {
    let path = input_path(spec)?;
    let mut checkpoint = match resumed {
        Some(saved) => {
            check_resumable(&saved, spec, alpha, &path, saving.path)?;
            saved
        }
        None => fresh(spec, opts, command_line, alpha, &path)?,
    };
    if checkpoint.complete {
        return Ok(checkpoint);
    }
    let opts = Options {
        n: Some(checkpoint.tally.n()),
        reading: Decks {
            order: Some(checkpoint.items.clone()),
            ..opts.reading.clone()
        },
        ..opts.clone()
    };
    let saver = FileSaver {
        saved: Mutex::new(Saved {
            checkpoint: checkpoint.clone(),
            hash: Hasher::at(&path, checkpoint.at.bytes)?,
            last: Instant::now(),
        }),
        saving,
        input: path.clone(),
        started: Instant::now(),
    };
    let resume = Resume {
        at: checkpoint.at,
        saver: Some(&saver),
    };
    let start = Instant::now();
    let read = ingest::read_path_from(&path, &opts, resume, progress)?;
    checkpoint.tally.merge(&read.tally);
    checkpoint.seconds += start.elapsed().as_secs_f64();
    checkpoint.at.decks += read.counted;
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

/// The file an audit reads, refusing other feeds.
fn input_path(spec: &Spec<Shuffles>) -> Result<PathBuf> {
    match &spec.subject {
        Subject::Outside(outside) => match &outside.feed {
            Feed::File { path, .. } if path.as_os_str() != "-" => Ok(path.clone()),
            _ => Err(Error::of_kind(
                ErrorKind::Unsupported,
                "only decks read from a file (--input FILE, not stdin) are checkpointed",
            )),
        },
        Subject::Builtin(_) => Err(Error::unsupported(
            "a built-in algorithm's run is checkpointed by chunks (shard::run)",
        )),
    }
}

/// An empty checkpoint for `spec`, its starting order read from the
/// input's first deck.
fn fresh(
    spec: &Spec<Shuffles>,
    opts: &Options<Decks>,
    command_line: String,
    alpha: f64,
    path: &Path,
) -> Result<InputCheckpoint> {
    let first = ingest::read_path(
        path,
        &Options {
            max_records: Some(1),
            ..opts.clone()
        },
        &|_| {},
    )?;
    let n = first.tally.n();
    let one_based = match &first.items {
        Items::Numeric { one_based } => Some(*one_based),
        Items::Labels(_) => None,
    };
    Ok(InputCheckpoint {
        tool: tool_version(),
        command_line,
        alpha,
        spec: Recorded::of(spec),
        items: (0..n).map(|i| first.items.label(i)).collect(),
        one_based,
        at: ReadPoint::default(),
        prefix_sha256: sha256_hex(b""),
        complete: false,
        stopped_early: false,
        seconds: 0.0,
        tally: Tally::collecting(n, opts.reading.collect_at(n)),
    })
}

/// Refuses a checkpoint of another run, another tool, or of a file whose
/// bytes before the saved point have changed.
fn check_resumable(
    saved: &InputCheckpoint,
    spec: &Spec<Shuffles>,
    alpha: f64,
    input: &Path,
    path: &Path,
) -> Result<()> {
    let this = Recorded::of(spec);
    let why = if saved.tool != tool_version() {
        Some(format!(
            "it was saved by {}, this is {}",
            saved.tool,
            tool_version()
        ))
    } else if saved.spec != this || saved.alpha != alpha {
        Some("it was saved by another run (other input, n, decks, tests or alpha)".to_string())
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
        Some(why) => Err(Error::of_kind(
            ErrorKind::BadInput,
            format!("cannot resume {}: {why}", path.display()),
        )),
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

/// Saves the checkpoint as the read goes ([`Saver`]).
struct FileSaver<'a> {
    saved: Mutex<Saved>,
    saving: InputSaving<'a>,
    input: PathBuf,
    started: Instant,
}

impl Saver for FileSaver<'_> {
    fn reached(&self, point: ReadPoint, so_far: &dyn Fn() -> Tally) -> Result<()> {
        let stop = self.saving.stop.load(Ordering::Relaxed);
        let mut saved = self.saved.lock().unwrap_or_else(|e| e.into_inner());
        if !stop && saved.last.elapsed() < self.saving.every {
            return Ok(());
        }
        saved.hash.advance(point.bytes)?;
        let mut checkpoint = saved.checkpoint.clone();
        checkpoint.tally.merge(&so_far());
        checkpoint.at = point;
        checkpoint.prefix_sha256 = saved.hash.hex();
        checkpoint.seconds += self.started.elapsed().as_secs_f64();
        checkpoint.save(self.saving.path)?;
        saved.last = Instant::now();
        if stop {
            return Err(Error::of_kind(
                ErrorKind::Interrupted,
                format!(
                    "stopped after {} decks of {}; the counts so far are saved in {}",
                    thousands(point.decks),
                    self.input.display(),
                    self.saving.path.display()
                ),
            ));
        }
        Ok(())
    }
}

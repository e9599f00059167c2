//! Safe file writing: check the output folder before any work starts, and
//! write every file atomically so that no half-written file is ever left.

use crate::error::{Error, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Makes sure `dir` exists (creating it if needed) and is writable, before any
/// shuffling starts, so a bad `--out` fails in milliseconds, not after the run.
///
/// A folder this call created is removed again if it turns out unusable.
#[cfg(feature = "cli")]
pub fn prepare_dir(dir: &Path) -> Result<()> {
    let created = !dir.exists();
    create_folder(dir, dir)?;
    let probe = dir.join(format!(".shuffle-audit-probe-{}", std::process::id()));
    let writable = fs::File::create(&probe).and_then(|mut f| f.write_all(b"ok"));
    let _ = fs::remove_file(&probe);
    if let Err(e) = writable {
        if created {
            let _ = fs::remove_dir(dir);
        }
        return Err(Error::io(format!(
            "output folder {} is not writable: {e}",
            dir.display()
        )));
    }
    Ok(())
}

/// The file that marks a folder as written by shuffle-audit, so that a
/// rerun may replace it (and never a folder of someone else's files).
pub const MARKER: &str = ".shuffle-audit";

/// A run's output folder, written in a temporary sibling folder and moved
/// into place only once complete: after a run the folder holds exactly that
/// run's files (no stale folders of an earlier run), and a run that fails
/// or is interrupted leaves nothing behind.
#[derive(Debug)]
#[must_use = "commit() the folder when the run is complete, discard() it otherwise"]
pub struct Staged {
    target: PathBuf,
    work: PathBuf,
}

/// Checks `dir` can take a run's output and opens its temporary sibling,
/// before any work starts: a file in the way, a folder of files shuffle-audit
/// did not write, or an unwritable place fail in milliseconds.
pub fn stage(dir: &Path) -> Result<Staged> {
    if dir.is_dir() && !is_ours(dir) {
        return Err(Error::io(format!(
            "output folder {} holds files shuffle-audit did not write: choose another --out \
             (a run replaces its folder whole)",
            dir.display()
        )));
    }
    let work = partial_path(dir);
    let _ = fs::remove_dir_all(&work);
    create_folder(dir, &work)?;
    let staged = Staged {
        target: dir.to_path_buf(),
        work,
    };
    let probe = staged.work.join(MARKER);
    if let Err(e) = fs::write(&probe, b"written by shuffle-audit\n") {
        staged.discard();
        return Err(Error::io(format!(
            "output folder {} is not writable: {e}",
            dir.display()
        )));
    }
    Ok(staged)
}

/// Creates `work` (the output folder `dir` itself or its staging sibling);
/// fails clearly where `dir` is a file.
fn create_folder(dir: &Path, work: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::io(format!(
            "output folder {} exists and is not a folder",
            dir.display()
        )));
    }
    fs::create_dir_all(work).map_err(|e| {
        Error::io(format!(
            "cannot create output folder {}: {e}",
            dir.display()
        ))
    })
}

/// The temporary sibling a run of this process stages `dir` in
/// (`.NAME.partial-PID`): known before it exists, so that an interrupt
/// arriving while it is being created can still remove it.
pub fn partial_path(dir: &Path) -> PathBuf {
    let name = dir
        .file_name()
        .map_or_else(|| "out".to_string(), |n| n.to_string_lossy().into_owned());
    dir.with_file_name(format!(".{name}.partial-{}", std::process::id()))
}

/// Runs `work` on the staged folder of `dir` (see [`stage`]) and moves the
/// folder into place when `work` succeeds; removes it when `work` fails.
pub fn staged<T>(dir: &Path, work: impl FnOnce(&Path) -> Result<T>) -> Result<T> {
    let staged = stage(dir)?;
    match work(staged.path()) {
        Ok(value) => {
            staged.commit()?;
            Ok(value)
        }
        Err(e) => {
            staged.discard();
            Err(e)
        }
    }
}

/// Whether `dir` is empty or was written by shuffle-audit (it holds the
/// marker, or, for folders written before the marker existed, a summary).
fn is_ours(dir: &Path) -> bool {
    let empty = fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_none());
    empty || dir.join(MARKER).is_file() || dir.join("summary.json").is_file()
}

impl Staged {
    /// Where the run writes its files until [`commit`](Self::commit).
    pub fn path(&self) -> &Path {
        &self.work
    }

    /// Moves the finished files into place, replacing the folder of an
    /// earlier run whole.
    pub fn commit(self) -> Result<()> {
        let old = self
            .work
            .with_file_name(format!(".replaced-{}", std::process::id()));
        if self.target.exists() {
            fs::rename(&self.target, &old).map_err(|s| io_error(&self.target, s))?;
        }
        fs::rename(&self.work, &self.target).map_err(|s| io_error(&self.target, s))?;
        let _ = fs::remove_dir_all(&old);
        Ok(())
    }

    /// Removes the unfinished files: nothing of a failed run remains.
    pub fn discard(&self) {
        let _ = fs::remove_dir_all(&self.work);
    }
}

/// Writes `bytes` to `path` by writing a temporary file beside it and renaming
/// it into place, creating parent folders as needed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    with_temp(path, |tmp| {
        fs::write(tmp, bytes).map_err(|source| io_error(tmp, source))
    })
}

/// [`write_atomic`] that also survives a crash of the machine: the file's
/// bytes are flushed to disk (fsync) before the rename, and the folder
/// after it. For checkpoints and tally files, which a run killed at any
/// moment must find either whole (old or new) or absent.
pub fn write_durable(path: &Path, bytes: &[u8]) -> Result<()> {
    with_temp(path, |tmp| {
        let mut file = fs::File::create(tmp).map_err(|source| io_error(tmp, source))?;
        file.write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(|source| io_error(tmp, source))
    })?;
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // Persists the rename; some file systems cannot open a folder for
    // this, and the file itself is already safe then.
    if let Ok(dir) = fs::File::open(parent) {
        let _ = dir.sync_all();
    }
    remove_stale_temps(parent, path);
    Ok(())
}

/// Removes the temporary files that earlier writes of `path` left in its
/// folder `parent` when their process was killed mid-save (see
/// [`temp_path`]), where the system shows that process is gone: a PID other
/// than ours with no `/proc` entry, on systems that have `/proc`. A
/// checkpoint saved every minute by runs killed now and then would
/// otherwise gather them.
fn remove_stale_temps(parent: &Path, path: &Path) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let (Some(name), Ok(entries)) = (path.file_name(), fs::read_dir(parent)) else {
        return;
    };
    let suffix = format!("-{}", name.to_string_lossy());
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let pid = file
            .strip_prefix(TEMP_PREFIX)
            .and_then(|rest| rest.strip_suffix(&suffix))
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid
            && pid != std::process::id()
            && !proc.join(pid.to_string()).exists()
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Writes `bytes` to a file a user named (`--export-json FILE`): a device
/// or pipe (a FIFO, or anything under `/dev`, such as `/dev/stdout` even
/// when it is redirected to a file) is written through, appending, since
/// it cannot be replaced; anything else atomically ([`write_atomic`],
/// which keeps a symbolic link and writes the file it names). A
/// command-line feature (`--export-*`).
#[cfg(feature = "cli")]
pub fn write_named(path: &Path, bytes: &[u8]) -> Result<()> {
    let stream =
        path.starts_with("/dev") || fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir());
    if !stream {
        return write_atomic(path, bytes);
    }
    fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|source| io_error(path, source))
}

/// The file an atomic write of `path` replaces: `path`, or for a symbolic
/// link the file it names (so the link stays a link). A folder, device,
/// pipe or socket is refused: renaming a file over it would destroy it.
fn replaced(path: &Path) -> Result<PathBuf> {
    let mut path = path.to_path_buf();
    // Links to links, as the system follows them (40 deep at most).
    for _ in 0..40 {
        let Ok(meta) = fs::symlink_metadata(&path) else {
            return Ok(path);
        };
        if meta.file_type().is_symlink() {
            let target = fs::read_link(&path).map_err(|source| io_error(&path, source))?;
            path = match path.parent() {
                Some(parent) if target.is_relative() => parent.join(target),
                _ => target,
            };
            continue;
        }
        if meta.is_dir() {
            return Err(Error::io(format!(
                "{} is a folder, not a file",
                path.display()
            )));
        }
        if !meta.is_file() {
            return Err(Error::io(format!(
                "{} is not a regular file (a device, pipe or socket): it cannot be replaced",
                path.display()
            )));
        }
        return Ok(path);
    }
    Err(Error::io(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

/// Runs `write` on a temporary path beside `path` (or beside the file a
/// link at `path` names), then renames the result into place; on failure
/// the temporary file is removed.
fn with_temp(path: &Path, write: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    let path = &replaced(path)?;
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|source| io_error(parent, source))?;
    }
    let tmp = temp_path(path);
    let result = write(&tmp).and_then(|()| fs::rename(&tmp, path).map_err(|s| io_error(path, s)));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// How the name of a temporary file beside its target begins
/// ([`temp_path`]: `.tmp-PID-name`).
const TEMP_PREFIX: &str = ".tmp-";

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Keep the extension last: some encoders choose the format from it.
    path.with_file_name(format!("{TEMP_PREFIX}{}-{name}", std::process::id()))
}

fn io_error(path: &Path, source: std::io::Error) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sa-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn prepares_and_writes_atomically() {
        let dir = scratch_dir("ok");
        prepare_dir(&dir).unwrap();
        let file = dir.join("sub/a.txt");
        write_atomic(&file, b"hello").unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "hello");
        let leftovers: Vec<_> = fs::read_dir(dir.join("sub")).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file may remain");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn durable_writes_replace_the_file_whole() {
        let dir = scratch_dir("durable");
        let file = dir.join("a.tally");
        write_durable(&file, b"first").unwrap();
        write_durable(&file, b"second").unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "second");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "no temporary file");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A temporary file of a killed process (a PID that does not run) is
    /// removed by the next durable write of the same file; one of a
    /// running process (PID 1), or of another file, stays.
    #[test]
    fn durable_writes_remove_the_temporaries_of_killed_runs() {
        let dir = scratch_dir("stale");
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.tally");
        let dead = dir.join(".tmp-4294967295-a.tally");
        let alive = dir.join(".tmp-1-a.tally");
        let other = dir.join(".tmp-4294967295-b.tally");
        for f in [&dead, &alive, &other] {
            fs::write(f, b"half").unwrap();
        }
        write_durable(&file, b"whole").unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "whole");
        if Path::new("/proc/self").exists() {
            assert!(!dead.exists(), "the killed run's temporary is gone");
            assert!(alive.exists() && other.exists());
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_staged_folder_appears_whole_or_not_at_all() {
        let dir = scratch_dir("staged");
        let first = stage(&dir).unwrap();
        fs::write(first.path().join("stale.txt"), b"old").unwrap();
        first.commit().unwrap();
        assert!(dir.join("stale.txt").is_file());
        // A second run replaces the folder whole: no stale files remain.
        let second = stage(&dir).unwrap();
        fs::write(second.path().join("new.txt"), b"new").unwrap();
        assert!(!dir.join("new.txt").exists(), "nothing shows before commit");
        second.commit().unwrap();
        assert!(dir.join("new.txt").is_file() && !dir.join("stale.txt").exists());
        // A failed run leaves the previous folder and no temporary one.
        let third = stage(&dir).unwrap();
        third.discard();
        assert!(dir.join("new.txt").is_file());
        // Only this folder's temporaries count: other tests stage their
        // own folders in the same temporary directory at the same time.
        let ours = partial_path(&dir);
        let siblings = fs::read_dir(dir.parent().unwrap())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name() == ours.file_name().unwrap())
            .count();
        assert_eq!(siblings, 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_of_someone_elses_files_is_never_replaced() {
        let dir = scratch_dir("theirs");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("thesis.tex"), b"precious").unwrap();
        let err = stage(&dir).unwrap_err().to_string();
        assert!(err.contains("did not write"), "{err}");
        assert!(dir.join("thesis.tex").is_file());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_in_the_way_is_a_clear_error() {
        let dir = scratch_dir("file");
        fs::write(&dir, b"x").unwrap();
        let err = prepare_dir(&dir).unwrap_err().to_string();
        assert!(err.contains("not a folder"), "{err}");
        fs::remove_file(&dir).unwrap();
    }
}

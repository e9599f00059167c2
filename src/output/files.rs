//! Safe file writing: check the output folder before any work starts, and
//! write every file atomically so that no half-written file is ever left.

use crate::error::{Error, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Makes sure `dir` exists (creating it if needed) and is writable, before any
/// shuffling starts, so a bad `--out` fails in milliseconds, not after the run.
///
/// A folder this call created is removed again if it turns out unusable;
/// the returned [`Prepared`] can remove it later if the run fails, so that a
/// failed run leaves nothing behind.
pub fn prepare_dir(dir: &Path) -> Result<Prepared> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::invalid(format!(
            "output folder {} exists and is not a folder",
            dir.display()
        )));
    }
    let created = !dir.exists();
    fs::create_dir_all(dir).map_err(|e| {
        Error::invalid(format!(
            "cannot create output folder {}: {e}",
            dir.display()
        ))
    })?;
    let probe = dir.join(format!(".shuffle-audit-probe-{}", std::process::id()));
    let writable = fs::File::create(&probe).and_then(|mut f| f.write_all(b"ok"));
    let _ = fs::remove_file(&probe);
    if let Err(e) = writable {
        if created {
            let _ = fs::remove_dir(dir);
        }
        return Err(Error::invalid(format!(
            "output folder {} is not writable: {e}",
            dir.display()
        )));
    }
    Ok(Prepared {
        dir: dir.to_path_buf(),
        created,
    })
}

/// An output folder made ready by [`prepare_dir`].
#[derive(Debug)]
#[must_use = "call discard() if the run fails"]
pub struct Prepared {
    dir: PathBuf,
    created: bool,
}

impl Prepared {
    /// Removes the folder again if [`prepare_dir`] created it and nothing
    /// has been written into it: what a run that failed before writing
    /// calls, so that no empty folder is left.
    pub fn discard(&self) {
        if self.created {
            let _ = fs::remove_dir(&self.dir);
        }
    }
}

/// Writes `bytes` to `path` by writing a temporary file beside it and renaming
/// it into place, creating parent folders as needed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    with_temp(path, |tmp| {
        fs::write(tmp, bytes).map_err(|source| io_error(tmp, source))
    })
}

/// Runs `write` on a temporary path beside `path`, then renames the result
/// into place; on failure the temporary file is removed. For writers (like
/// the PNG encoder) that insist on writing to a path themselves.
pub fn with_temp(path: &Path, write: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
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

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Keep the extension last: some encoders choose the format from it.
    path.with_file_name(format!(".tmp-{}-{name}", std::process::id()))
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
        let _ = prepare_dir(&dir).unwrap();
        let file = dir.join("sub/a.txt");
        write_atomic(&file, b"hello").unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "hello");
        let leftovers: Vec<_> = fs::read_dir(dir.join("sub")).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file may remain");
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

//! SHA-256 digests as `sha256sum` prints them: of tally files (their
//! checksum) and of the input files an audit read (so a report names the
//! exact bytes it judged).

use crate::error::{Error, Result};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// SHA-256 of `bytes`, as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// SHA-256 of the file at `path`, as 64 lowercase hex digits, read in
/// blocks so that memory stays small whatever the file's size.
pub fn file_sha256(path: &Path) -> Result<String> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let k = file.read(&mut buf).map_err(io)?;
        if k == 0 {
            break;
        }
        hasher.update(&buf[..k]);
    }
    Ok(hex(&hasher.finalize()))
}

/// A digest's bytes as lowercase hex digits, as `sha256sum` prints them.
pub fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digests `sha256sum` gives for "" and "abc" (FIPS 180-2).
    #[test]
    fn digests_match_the_standard_vectors() {
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(sha256_hex(b"abc"), abc);
        let dir = std::env::temp_dir().join(format!("sa-digest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("abc.txt");
        std::fs::write(&path, b"abc").unwrap();
        assert_eq!(file_sha256(&path).unwrap(), abc);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(file_sha256(&dir.join("missing")).is_err());
    }
}

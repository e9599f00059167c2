//! Reading permutations made elsewhere ([`crate::ingest`], text and binary)
//! next to the engine making and counting its own.

use super::{median, rate};
use crate::algorithm::{Algorithm, fisher_yates};
use crate::audit::{Kind, Spec};
use crate::engine::no_progress;
use crate::error::Result;
use crate::source::{RandomSource, SourceSpec, SourceVisitor};
use crate::subject::Shuffles;
use serde::Serialize;

/// Reading permutations made elsewhere ([`crate::ingest`]), next to the
/// engine making and counting its own, for one n: decks per second, all
/// threads, both counting what the default tests need.
#[derive(Debug, Clone, Serialize)]
pub struct IngestRow {
    /// Number of elements.
    pub n: usize,
    /// Decks per measurement.
    pub decks: u64,
    /// Threads used by all three.
    pub threads: usize,
    /// Whether the structure statistics were counted (the default tests').
    pub structure: bool,
    /// Size of the text file, in bytes.
    pub text_bytes: u64,
    /// The engine (Fisher–Yates, shuffle + count) on all threads.
    pub engine: f64,
    /// Reading the decks as text, one line of integers per deck.
    pub text: f64,
    /// Reading the decks as `u32` binary records.
    pub binary: f64,
}

impl IngestRow {
    /// Text ingest speed over the engine's.
    pub fn text_vs_engine(&self) -> f64 {
        self.text / self.engine
    }

    /// Binary ingest speed over the engine's.
    pub fn binary_vs_engine(&self) -> f64 {
        self.binary / self.engine
    }

    /// Text read, in bytes per second.
    pub fn text_bytes_per_second(&self) -> f64 {
        self.text * self.text_bytes as f64 / self.decks as f64
    }
}

/// Measures ingest speeds at `n`: `decks` Fisher–Yates decks are written
/// (not timed) to a text file and a `u32` file in the temporary folder, then
/// read back, interleaved with engine runs of as many shuffles counting the
/// same statistics (the default tests' collect); medians of `repeats`.
pub fn measure_ingest(
    n: usize,
    decks: u64,
    source: SourceSpec,
    repeats: usize,
) -> Result<IngestRow> {
    use crate::ingest::{self, Decks, Format, Options};
    let threads = rayon::current_num_threads();
    let spec = Spec::<Shuffles> {
        threads: Some(threads),
        ..Spec::new(Algorithm::FisherYates, n, decks, source, 1)
    };
    let collect = spec.collect();
    let files = TempDecks::write(n, decks, source)?;
    let text_bytes = std::fs::metadata(&files.text)
        .map_err(|e| crate::Error::Io {
            path: files.text.clone(),
            source: e,
        })?
        .len();
    let read = |path: &std::path::Path, format: Format| {
        let opts = Options {
            n: Some(n),
            format,
            max_records: None,
            reading: Decks {
                collect,
                ..Decks::default()
            },
        };
        rate(decks, || {
            let got = ingest::read_path(path, &opts, &no_progress)?;
            debug_assert_eq!(got.counted, decks);
            std::hint::black_box(got);
            Ok(())
        })
    };
    let (mut engine, mut text, mut binary) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..repeats.max(1) {
        engine.push(rate(decks, || {
            Shuffles::count(&spec, spec.chunks(), &no_progress).map(drop)
        })?);
        text.push(read(&files.text, Format::Text)?);
        binary.push(read(&files.binary, Format::U32)?);
    }
    Ok(IngestRow {
        n,
        decks,
        threads,
        structure: collect.structure.any(),
        text_bytes,
        engine: median(engine),
        text: median(text),
        binary: median(binary),
    })
}

/// Decks written to temporary files, removed on drop.
struct TempDecks {
    text: std::path::PathBuf,
    binary: std::path::PathBuf,
}

impl TempDecks {
    fn write(n: usize, decks: u64, source: SourceSpec) -> Result<TempDecks> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let stem = format!("shuffle-audit-bench-{}-{n}-{stamp}", std::process::id());
        let dir = std::env::temp_dir();
        let files = TempDecks {
            text: dir.join(format!("{stem}.txt")),
            binary: dir.join(format!("{stem}.u32")),
        };
        source.visit(
            1,
            WriteDecks {
                n,
                decks,
                files: &files,
            },
        )?;
        Ok(files)
    }
}

impl Drop for TempDecks {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.text);
        let _ = std::fs::remove_file(&self.binary);
    }
}

/// Writes Fisher–Yates decks as text lines and as `u32` records.
struct WriteDecks<'a> {
    n: usize,
    decks: u64,
    files: &'a TempDecks,
}

impl SourceVisitor for WriteDecks<'_> {
    type Output = Result<()>;
    fn visit<S: RandomSource, F: Fn(u64) -> S + Sync>(self, make: F) -> Result<()> {
        use std::io::Write;
        let io = |path: &std::path::Path| {
            let path = path.to_path_buf();
            move |source| crate::Error::Io { path, source }
        };
        let create = |path: &std::path::Path| {
            std::fs::File::create(path)
                .map(|f| std::io::BufWriter::with_capacity(1 << 20, f))
                .map_err(io(path))
        };
        let mut text = create(&self.files.text)?;
        let mut binary = create(&self.files.binary)?;
        let mut rng = make(0);
        let mut a: Vec<u32> = (0..self.n as u32).collect();
        let mut line = String::new();
        let mut record = Vec::with_capacity(4 * self.n);
        for _ in 0..self.decks {
            fisher_yates(&mut a, &mut rng);
            line.clear();
            record.clear();
            for (i, &v) in a.iter().enumerate() {
                if i > 0 {
                    line.push(' ');
                }
                line.push_str(&v.to_string());
                record.extend_from_slice(&v.to_le_bytes());
            }
            line.push('\n');
            text.write_all(line.as_bytes())
                .map_err(io(&self.files.text))?;
            binary.write_all(&record).map_err(io(&self.files.binary))?;
        }
        text.flush().map_err(io(&self.files.text))?;
        binary.flush().map_err(io(&self.files.binary))?;
        Ok(())
    }
}

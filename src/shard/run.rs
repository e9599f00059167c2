//! Counting what a tally file has left to count, saving it as it goes so
//! that a run stopped or killed at any moment can be resumed.

use super::file::TallyFile;
use crate::error::{Error, ErrorKind, Result};
use crate::output::thousands;
use crate::study::Observer;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Where a run saves its progress, how often, and the flag that asks it to
/// stop (set by a Ctrl-C handler, say).
#[derive(Debug, Clone, Copy)]
pub struct Checkpoint<'a> {
    /// The file the tally is saved in (atomically, and flushed to disk).
    pub path: &'a Path,
    /// Saves at least this far apart, and once more at the end.
    pub every: Duration,
    /// When set, the run saves and stops at its next look.
    pub stop: &'a AtomicBool,
}

/// Chunks per worker thread counted between two looks at the clock and the
/// stop flag of a checkpointed run: enough that the workers rarely wait for
/// each other at a look, few enough that a look comes every fraction of a
/// second (a chunk of n = 52 takes about 60 ms with the default tests).
pub const LOOK_EVERY_CHUNKS_PER_THREAD: u64 = 8;

/// Counts the chunks `file` has left, audit by audit (its shuffles, then
/// its samplers, numbered in that order as in a study), on the file's
/// threads, telling `observer` (`begin` with each audit's remaining trials,
/// then `advanced`). With a `checkpoint`, the file is saved there every so
/// often and when complete; when the stop flag is set the file is saved and
/// the run ends with [`ErrorKind::Interrupted`], to be resumed from the
/// saved file: its counts then come out the same as if it had never
/// stopped, because each chunk's trials are fixed by its index. Without a
/// checkpoint, everything left is counted in one go.
pub fn count(
    file: &mut TallyFile,
    checkpoint: Option<Checkpoint<'_>>,
    observer: &dyn Observer,
) -> Result<()> {
    let specs = file.specs();
    let look = match checkpoint {
        Some(_) => LOOK_EVERY_CHUNKS_PER_THREAD.saturating_mul(file.threads.max(1) as u64),
        None => u64::MAX,
    };
    let mut saved = Instant::now();
    let trials = file.run_trials();
    for (i, spec) in specs.iter().enumerate() {
        let left = file
            .planned
            .with(file.counted_ranges()[i].end, file.planned.end);
        observer.begin(i, left.trials(trials), spec.work());
        let progress = |trials| observer.advanced(trials);
        let mut next = left.first;
        while next < left.end {
            let end = next.saturating_add(look).min(left.end);
            let start = Instant::now();
            let part = spec.count(left.with(next, end), &progress)?;
            let audit = &mut file.audits[i];
            audit.counts.merge(part.as_ref())?;
            audit.counted.end = end;
            audit.seconds += start.elapsed().as_secs_f64();
            next = end;
            let Some(checkpoint) = checkpoint else {
                continue;
            };
            if checkpoint.stop.load(Ordering::Relaxed) && !file.is_complete() {
                file.save(checkpoint.path)?;
                return Err(Error::of_kind(
                    ErrorKind::Interrupted,
                    format!(
                        "stopped after {} of {} trials; the counts so far are saved in {}",
                        thousands(file.counted_trials()),
                        thousands(file.planned_trials()),
                        checkpoint.path.display()
                    ),
                ));
            }
            if saved.elapsed() >= checkpoint.every {
                file.save(checkpoint.path)?;
                saved = Instant::now();
            }
        }
    }
    if let Some(checkpoint) = checkpoint {
        file.save(checkpoint.path)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::audit::{CHUNK_TRIALS, Counts, Kind, Planned, Spec, no_progress};
    use crate::sampler::{Sampler, Samplers};
    use crate::shuffle::Shuffles;
    use crate::source::SourceSpec;
    use crate::study::{Study, Unobserved};

    /// Whether `counts` are the tally of `spec`'s whole run, counted in one
    /// go.
    fn whole_run<K: Kind>(spec: &Spec<K>, counts: &dyn Counts) -> bool {
        let whole = K::count(spec, spec.chunks(), &no_progress).unwrap();
        counts.as_any().downcast_ref::<K::Tally>() == Some(&whole)
    }

    /// A study of shuffles and samplers stopped at every look (8 chunks
    /// per thread) and resumed from each save comes out as one uninterrupted
    /// run, saved when complete.
    #[test]
    fn a_stopped_run_resumes_to_the_same_counts() {
        let dir = std::env::temp_dir().join(format!("sa-resume-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("run.tally");
        let trials = 20 * CHUNK_TRIALS + 3;
        let source = SourceSpec::parse("xoshiro256pp").unwrap();
        let shuffle = Spec::<Shuffles>::new(
            Algorithm::parse("naive-swap").unwrap(),
            6,
            trials,
            source,
            4,
        );
        let samplers = ["floyd:k=3", "reservoir-off-by-one:k=2"]
            .map(|name| Spec::<Samplers>::new(Sampler::parse(name).unwrap(), 7, trials, source, 4));
        let mut audits: Vec<Box<dyn Planned>> = vec![shuffle.clone().into()];
        audits.extend(samplers.iter().map(|s| s.clone().into()));
        let study = Study::new(audits);
        let mut file = TallyFile::of_study(&study, None, "t".into(), 2).unwrap();
        let stop = AtomicBool::new(true);
        let checkpoint = Checkpoint {
            path: &path,
            every: Duration::from_secs(3600),
            stop: &stop,
        };
        let e = count(&mut file, Some(checkpoint), &Unobserved).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Interrupted);
        assert!(e.to_string().contains(&path.display().to_string()), "{e}");
        let saved = TallyFile::load(&path).unwrap();
        assert_eq!(
            saved
                .counted_ranges()
                .iter()
                .map(|r| r.end)
                .collect::<Vec<_>>(),
            [16, 0, 0],
            "one look: 8 chunks per thread"
        );
        // Stopped again in the samplers: a file saved part-way through them.
        let mut resumed = saved;
        let mut stops = 0;
        while let Err(e) = count(&mut resumed, Some(checkpoint), &Unobserved) {
            assert_eq!(e.kind(), ErrorKind::Interrupted);
            resumed = TallyFile::load(&path).unwrap();
            stops += 1;
        }
        assert!(stops >= 4, "{stops} stops");
        assert!(resumed.is_whole_run());
        assert_eq!(
            TallyFile::load(&path).unwrap(),
            resumed,
            "saved when complete"
        );
        assert!(whole_run(&shuffle, resumed.audits[0].counts.as_ref()));
        for (audit, spec) in resumed.audits[1..].iter().zip(&samplers) {
            assert!(whole_run(spec, audit.counts.as_ref()), "{}", spec.subject);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

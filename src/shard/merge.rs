//! Merging the tally files of a run's shards (of shuffle audits, sampler
//! audits or both) into the whole run's tally, refusing files that do not
//! belong together.

use super::file::TallyFile;
use crate::engine::ChunkRange;
use crate::error::{Error, Result};
use std::path::PathBuf;

/// The tally files `paths`, merged into the tally of the whole run they
/// are shards of, in any order: the counts added up chunk range by chunk
/// range, which gives bit for bit the counts of the run on one machine.
///
/// Refuses ([`crate::error::ErrorKind::BadInput`], naming the file) a file that cannot
/// be read or is damaged, and whatever [`merge_named`] refuses.
pub fn merge(paths: &[PathBuf]) -> Result<TallyFile> {
    let files = paths
        .iter()
        .map(|path| Ok((path.display().to_string(), TallyFile::load(path)?)))
        .collect::<Result<Vec<_>>>()?;
    merge_named(files)
}

/// Tally files already read (the shards a Python run hands back as
/// bytes), each with the name its refusals give it (its path, `shard
/// 2/4`), merged as [`merge`] merges files: in any order, into the tally
/// of the whole run.
///
/// Refuses ([`crate::error::ErrorKind::BadInput`], naming the file) an
/// unfinished file (a stopped run's checkpoint), one from another run
/// (other tool version, audits, n, trials, rng, seed, tests, samplers, N,
/// weights or α than the first file), overlapping chunks (a shard given
/// twice) and missing ones (a shard left out). The merged file's time is
/// the shards' total and its threads those of the largest shard; it keeps
/// the first shard's command line.
pub fn merge_named(files: Vec<(String, TallyFile)>) -> Result<TallyFile> {
    let Some((first_name, reference)) = files.first() else {
        return Err(Error::bad_input("no tally file to merge"));
    };
    for (name, file) in &files {
        if !file.is_complete() {
            return Err(Error::bad_input(format!(
                "{name} is unfinished: {} counted of its chunks {} (a stopped run's checkpoint: \
                 continue it with --resume)",
                file.counted_words(),
                file.planned
            )));
        }
    }
    for (name, file) in &files[1..] {
        if let Some(d) = reference.difference(file) {
            return Err(Error::bad_input(format!(
                "{name} is not a shard of the same run as {first_name}: its {} is {}, not {}",
                d.field, d.other, d.this
            )));
        }
    }
    let mut files = files;
    files.sort_by_key(|(_, f)| (f.planned.first, f.planned.end));
    check_coverage(&files)?;
    let mut files = files.into_iter().map(|(_, f)| f);
    let mut merged = files.next().expect("at least one file");
    for file in files {
        for (into, audit) in merged.audits.iter_mut().zip(file.audits) {
            into.counts.merge(audit.counts.as_ref())?;
            into.seconds += audit.seconds;
            into.counted.end = into.counted.end.max(audit.counted.end);
        }
        merged.threads = merged.threads.max(file.threads);
        merged.planned.end = merged.planned.end.max(file.planned.end);
    }
    merged.shard = None;
    Ok(merged)
}

/// Fails unless the files, sorted by their first chunk, hold every chunk
/// of the run exactly once, naming the files around an overlap or a gap.
fn check_coverage(files: &[(String, TallyFile)]) -> Result<()> {
    let all = files[0].1.all_chunks();
    let mut next = all.first;
    let mut previous: Option<&str> = None;
    for (name, file) in files {
        let range = file.planned;
        if range.is_empty() {
            continue; // A shard of a run with fewer chunks than shards.
        }
        if range.first < next {
            let other = previous.expect("only a file after another can overlap");
            return Err(Error::bad_input(format!(
                "{name} overlaps {other}: both hold chunks {}..{} (the same shard twice?)",
                range.first,
                next.min(range.end)
            )));
        }
        if range.first > next {
            let place = match previous {
                Some(before) => format!("between {before} and {name}"),
                None => format!("before {name}"),
            };
            return Err(missing(next, range.first, all, &place));
        }
        next = range.end;
        previous = Some(name);
    }
    if next < all.end {
        let last = files.last().map_or("", |(name, _)| name.as_str());
        return Err(missing(next, all.end, all, &format!("after {last}")));
    }
    Ok(())
}

/// Chunks `first..end` of the run `all` are in no file.
fn missing(first: u64, end: u64, all: ChunkRange, place: &str) -> Error {
    Error::bad_input(format!(
        "chunks {first}..{end} of the run's {all} are in no tally file ({place}): is a shard \
         missing?"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::audit::{CHUNK_TRIALS, Kind, Planned, Spec, no_progress};
    use crate::sampler::{Sampler, Samplers};
    use crate::shard::Shard;
    use crate::shuffle::{ShuffleOptions, Shuffles};
    use crate::source::SourceSpec;
    use crate::spec::TestSet;
    use crate::stats::Verdict;
    use crate::study::{Study, Unobserved};
    use std::path::Path;

    fn specs() -> Vec<Spec<Shuffles>> {
        // n = 7 with every test: permutations and structure are counted too.
        ["naive-swap", "sattolo"]
            .map(|name| Spec::<Shuffles> {
                options: ShuffleOptions::with_tests(TestSet::parse("all", 7).unwrap()),
                threads: Some(2),
                ..Spec::new(
                    Algorithm::parse(name).unwrap(),
                    7,
                    5 * CHUNK_TRIALS + 321,
                    SourceSpec::parse("xoshiro256pp").unwrap(),
                    11,
                )
            })
            .to_vec()
    }

    /// Shard `index` of `count` of `study`, counted and saved at `path`.
    fn saved(study: &Study, index: u64, count: u64, path: PathBuf) -> PathBuf {
        let shard = Some(Shard { index, count });
        let mut file = TallyFile::of_study(study, shard, "t".into(), 2).unwrap();
        crate::shard::run::count(&mut file, None, &Unobserved).unwrap();
        file.save(&path).unwrap();
        path
    }

    /// Shard `index` of `count` of [`specs`], counted and saved in `dir`.
    fn shard(dir: &Path, index: u64, count: u64) -> PathBuf {
        let study = Study::new(specs().into_iter().map(Into::into).collect());
        saved(
            &study,
            index,
            count,
            dir.join(format!("{index}-of-{count}.tally")),
        )
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sa-merge-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn merged_shards_are_the_run_bit_for_bit() {
        let dir = scratch("equal");
        let paths: Vec<PathBuf> = [3, 0, 2, 1].map(|i| shard(&dir, i, 4)).to_vec();
        let merged = merge(&paths).unwrap();
        assert!(merged.is_whole_run());
        for (audit, spec) in merged.audits.iter().zip(specs()) {
            let whole = Shuffles::count(&spec, spec.chunks(), &no_progress).unwrap();
            let merged = audit.counts.as_any().downcast_ref::<crate::tally::Tally>();
            assert_eq!(merged, Some(&whole), "{}", spec.subject);
        }
        // More shards than chunks: some are empty, and still merge.
        let many: Vec<PathBuf> = (0..8).map(|i| shard(&dir, i, 8)).collect();
        let again = merge(&many).unwrap();
        for (a, b) in again.audits.iter().zip(&merged.audits) {
            assert!(a.counts.same(b.counts.as_ref()));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Two shuffles and two samplers (one biased of each) of one trial
    /// count, the samplers seeded `sampler_seed` (the shuffles 9), judged
    /// together.
    fn mixed_study(sampler_seed: u64) -> Study {
        let trials = 3 * CHUNK_TRIALS + 55;
        let source = SourceSpec::parse("xoshiro256pp").unwrap();
        let shuffles = ["naive-swap", "fisher-yates"].map(|name| Spec::<Shuffles> {
            threads: Some(2),
            ..Spec::new(Algorithm::parse(name).unwrap(), 6, trials, source, 9)
        });
        let samplers = ["floyd:k=3", "reservoir-off-by-one:k=3"].map(|name| Spec::<Samplers> {
            threads: Some(2),
            ..Spec::new(
                Sampler::parse(name).unwrap(),
                8,
                trials,
                source,
                sampler_seed,
            )
        });
        let audits: Vec<Box<dyn Planned>> = (shuffles.into_iter().map(Into::into))
            .chain(samplers.into_iter().map(Into::into))
            .collect();
        Study {
            alpha: 0.01,
            ..Study::new(audits)
        }
    }

    #[test]
    fn a_study_of_shuffles_and_samplers_merges_to_its_run() {
        let dir = scratch("mixed");
        let study = mixed_study(9);
        let paths: Vec<PathBuf> = [2, 0, 1]
            .map(|index| saved(&study, index, 3, dir.join(format!("{index}.tally"))))
            .to_vec();
        let merged = merge(&paths).unwrap();
        let kinds: Vec<&str> = merged.audits.iter().map(|a| a.spec.kind()).collect();
        assert_eq!(kinds, ["shuffle", "shuffle", "sampler", "sampler"]);
        let provenance = study.provenance.clone();
        let judged = merged.judge(provenance).unwrap();
        let run = study.run(&Unobserved).unwrap();
        assert_eq!(judged.study.title, run.study.title);
        assert_eq!(judged.audits.len(), 4);
        for (a, b) in judged.audits.iter().zip(&run.audits) {
            assert!(a.counts().same(b.counts().as_ref()), "{}", a.subject());
            assert_eq!(a.verdict(), b.verdict(), "{}", a.subject());
            assert_eq!(a.log10_p().to_bits(), b.log10_p().to_bits());
            assert_eq!(
                a.log10_p_adjusted().to_bits(),
                b.log10_p_adjusted().to_bits()
            );
        }
        let verdicts: Vec<Verdict> = judged.audits.iter().map(|a| a.verdict()).collect();
        assert_eq!(verdicts[3], Verdict::Biased, "the off-by-one reservoir");
        // The JSON summary (what --json prints) agrees but for the times.
        let strip = |r: &crate::study::StudyResult| {
            let mut json: serde_json::Value = serde_json::from_str(&r.summary().to_json()).unwrap();
            strip_seconds(&mut json);
            json
        };
        assert_eq!(strip(&judged), strip(&run));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Removes every `seconds` (and rate) field: what differs between two
    /// countings of the same trials.
    fn strip_seconds(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                map.retain(|k, _| !k.contains("seconds") && !k.contains("per_sec"));
                map.values_mut().for_each(strip_seconds);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip_seconds),
            _ => {}
        }
    }

    #[test]
    fn shards_of_other_samplers_are_refused() {
        let dir = scratch("samplers");
        let study = mixed_study(9);
        let save = |study: &Study, index: u64, name: &str| {
            saved(study, index, 2, dir.join(format!("{index}-{name}.tally")))
        };
        let other = mixed_study(10);
        let e = merge(&[save(&study, 0, "9"), save(&other, 1, "10")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("its seed is 10, not 9"), "{e}");
        let mut fewer = mixed_study(9);
        fewer.audits.pop();
        let e = merge(&[save(&study, 0, "9"), save(&fewer, 1, "fewer")])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("its subjects is naive-swap,fisher-yates,floyd:k=3, not"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn overlaps_and_gaps_are_refused_naming_the_files() {
        let dir = scratch("gaps");
        let quarters: Vec<PathBuf> = (0..4).map(|i| shard(&dir, i, 4)).collect();
        let name = |p: &PathBuf| p.display().to_string();
        let e = merge(&[
            quarters[0].clone(),
            quarters[1].clone(),
            quarters[3].clone(),
        ])
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("in no tally file") && e.contains(&name(&quarters[3])),
            "{e}"
        );
        let e = merge(&quarters[1..]).unwrap_err().to_string();
        assert!(e.contains("chunks 0..1") && e.contains("before"), "{e}");
        let e = merge(&quarters[..3]).unwrap_err().to_string();
        assert!(
            e.contains("after") && e.contains(&name(&quarters[2])),
            "{e}"
        );
        let mut twice = quarters.clone();
        twice.push(quarters[2].clone());
        let e = merge(&twice).unwrap_err().to_string();
        assert!(
            e.contains("overlaps") && e.contains(&name(&quarters[2])),
            "{e}"
        );
        let half = shard(&dir, 0, 2);
        let e = merge(&[
            half.clone(),
            quarters[1].clone(),
            quarters[2].clone(),
            quarters[3].clone(),
        ])
        .unwrap_err()
        .to_string();
        assert!(e.contains("overlaps"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

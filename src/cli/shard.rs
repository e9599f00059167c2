//! `audit --shard`, `--checkpoint` and `--resume`: the audit (of built-in
//! shuffles or of built-in samplers) counted chunk by chunk into a tally
//! file (see [`shuffle_audit::shard`]): a shard's tally is written for
//! `merge`; a whole run's is judged and reported as `audit` reports any
//! run.

use super::audit_args::{AuditArgs, OutputArgs};
use super::interrupt;
use super::samples;
use super::shown::{Shown, show};
use super::study::{Bars, ExportArgs, deliver, prepare};
use shuffle_audit::engine::{ALL_DECKS, ChunkRange, RunSpec};
use shuffle_audit::error::ErrorKind;
use shuffle_audit::experiment::record::{self, RunStart, shell_line};
use shuffle_audit::output::thousands;
use shuffle_audit::produce;
use shuffle_audit::report::Provenance;
use shuffle_audit::sampler::run::SampleSpec;
use shuffle_audit::sampler::subject::SamplerSubject;
use shuffle_audit::shard::TallyFile;
use shuffle_audit::shard::input::{self, InputCheckpoint, InputSaving};
use shuffle_audit::shard::run::{self, Checkpoint};
use shuffle_audit::study::{Counted, Observer, Study, StudyResult};
use shuffle_audit::subject::{Feed, Outside, Subject};
use shuffle_audit::{Error, Result};
use std::path::{Path, PathBuf};

/// Refuses, before anything runs, what cannot be counted in chunks:
/// samplers and decks from outside (except a deck file's checkpointed
/// read), sequential audits; and a shard asked for a report, which only the
/// merge of all shards can give. `samplers` are the samplers audited (none
/// for an audit of shuffles).
pub(super) fn refuse_unsupported(args: &AuditArgs, samplers: &[SamplerSubject]) -> Result<()> {
    let flag = match (&args.shards.shard, &args.shards.checkpoint) {
        (Some(_), _) => "--shard",
        (None, Some(_)) => "--checkpoint",
        (None, None) => "--resume",
    };
    let outside_sampler = samplers.iter().find(|s| s.builtin().is_none());
    let why = if let Some(outside) = outside_sampler {
        Some(format!(
            "{outside} is your own sampler, whose samples are read (--input, --cmd), not drawn \
             in chunks of a seed: such a run is not split or resumed"
        ))
    } else if args.outside.input.is_some() && args.shards.shard.is_some() {
        Some(
            "--input decks are read from a file, not drawn in chunks of a seed: split the file \
             and audit each part, or checkpoint the read (--checkpoint, --resume)"
                .to_string(),
        )
    } else if args.outside.input.as_deref() == Some(Path::new("-")) {
        Some("stdin cannot be reopened where it stopped: give --input a file to checkpoint".into())
    } else if args.outside.cmd.is_some() {
        Some(
            "--cmd decks come from a program, not from chunks of the seed: such a run is not \
             split or resumed"
                .to_string(),
        )
    } else if args.run.until_decisive {
        Some("--until-decisive decides its trials as it goes: give a fixed --trials".to_string())
    } else {
        None
    };
    if let Some(why) = why {
        let what = match samplers.is_empty() {
            false => "built-in samplers",
            true => "built-in shuffle algorithms",
        };
        return Err(Error::of_kind(
            ErrorKind::Unsupported,
            format!("{flag} works for {what} only: {why}"),
        ));
    }
    let report = [
        (args.output.out.is_some(), "--out"),
        (args.output.json, "--json"),
        (args.output.export.any(), "--export-*"),
        (args.output.fail_on_bias, "--fail-on-bias"),
    ];
    if let (Some(_), Some((_, asked))) = (&args.shards.shard, report.iter().find(|(on, _)| *on)) {
        return Err(Error::unsupported(format!(
            "{asked} is for a whole run: a shard writes only its tally file (--tally); \
             `shuffle-audit merge` judges the tallies of all shards and takes {asked}"
        )));
    }
    Ok(())
}

/// Counts the run of `study` (its shuffle or sampler audits, already
/// checked) chunk by chunk, as the flags say: resumed from `--resume`,
/// saved to `--checkpoint`, only `--shard`'s chunks. A shard writes its
/// tally file; a whole run is judged and shown like any audit. Ctrl-C
/// saves and stops (exit 130).
pub(super) fn run(args: &AuditArgs, study: Study) -> Result<i32> {
    let files = [
        &args.shards.tally,
        &args.shards.checkpoint,
        &args.shards.resume,
    ];
    if let Some(folder) = files.into_iter().flatten().find(|p| p.is_dir()) {
        return Err(Error::io(format!(
            "{} is a folder: a tally file needs a file name",
            folder.display()
        )));
    }
    if let [spec] = study.audits.as_slice()
        && let Subject::Outside(outside) = &spec.subject
    {
        return run_input(args, spec, outside);
    }
    let study = Study {
        alpha: args.run.alpha,
        ..study
    };
    let threads = args.run.threads.unwrap_or_else(rayon::current_num_threads);
    let command = shell_line(&record::command_line());
    let fresh = TallyFile::of_study(&study, args.shards.shard, command.clone(), threads)?;
    let mut file = match &args.shards.resume {
        None => fresh,
        Some(path) => resumed(path, fresh)?,
    };
    file.threads = threads;
    study.check_cost()?;
    let left = left_to_count(&file, study);
    prepare(&left, args.output.quiet, &args.output.export)?;
    let saving = args
        .shards
        .checkpoint
        .as_deref()
        .or(args.shards.resume.as_deref());
    let checkpoint = saving.map(|path| Checkpoint {
        path,
        every: args.shards.checkpoint_every,
        stop: interrupt::stop_flag(),
    });
    let bars = Bars::new(&left, args.output.quiet, false);
    let count = |file: &mut TallyFile| {
        let counted = run::count(file, checkpoint, &bars);
        bars.finish();
        counted.map_err(|e| with_resume_hint(e, saving))
    };
    let Some(shard) = args.shards.shard else {
        let provenance = Provenance::of(&RunStart::now(), command.clone(), vec![command]);
        let samplers_only = file.audits.is_empty();
        return present(&args.output, false, samplers_only, || {
            count(&mut file)?;
            file.judge(provenance)
        });
    };
    let tally = args.shards.tally.clone().unwrap_or_else(|| {
        PathBuf::from(format!("shard-{}-of-{}.tally", shard.index, shard.count))
    });
    count(&mut file)?;
    file.save(&tally)?;
    if !args.output.quiet {
        let seconds = file.seconds();
        eprintln!(
            "shard {shard}: chunks {} of the run's {} ({} trials in {:.1} s) written to {}; \
             judge all {} shards with `shuffle-audit merge`",
            file.planned,
            file.all_chunks(),
            thousands(file.planned_trials()),
            seconds,
            tally.display(),
            shard.count
        );
    }
    Ok(0)
}

/// Judges a whole run with `judge` (counted here, resumed or merged from
/// shards), writes its report and exports, and shows it as `audit` shows a
/// run of its kind: the sampler audits' table for a run of samplers only
/// (`samplers_only`), else the shuffles' (with the samplers' after them),
/// and the looks of a sequential run (`until_decisive`). Returns the exit
/// code.
pub(super) fn present(
    output: &OutputArgs,
    until_decisive: bool,
    samplers_only: bool,
    judge: impl FnOnce() -> Result<StudyResult>,
) -> Result<i32> {
    let out = output.dir();
    // A run of samplers writes its own exports (samples::show).
    let exports = match samplers_only {
        true => ExportArgs::default(),
        false => output.export.clone(),
    };
    let result = deliver(out.as_deref(), &exports, judge, |_, _| Ok(()))?;
    match samplers_only {
        true => samples::show(&result, output, out.as_deref()),
        false => Ok(show(
            &result,
            &Shown::of(output, until_decisive, out.as_deref()),
        )),
    }
}

/// `audit --input FILE --checkpoint C` (or `--resume C`): the file read
/// with its counts saved every so often, resumed from a saved checkpoint,
/// then judged and shown as any audit. Ctrl-C saves and stops (exit 130).
fn run_input(args: &AuditArgs, spec: &RunSpec, outside: &Outside) -> Result<i32> {
    let Feed::File { format, .. } = &outside.feed else {
        return Err(Error::unsupported("only an --input file is checkpointed"));
    };
    let opts = produce::read_options(spec, outside, *format);
    let command = shell_line(&record::command_line());
    let resumed = args
        .shards
        .resume
        .as_deref()
        .map(InputCheckpoint::load)
        .transpose()?;
    let path = args
        .shards
        .checkpoint
        .as_deref()
        .or(args.shards.resume.as_deref())
        .expect("a checkpointed run saves somewhere");
    let saving = InputSaving {
        path,
        every: args.shards.checkpoint_every,
        stop: interrupt::stop_flag(),
    };
    let out = args.output.dir();
    let study = Study {
        alpha: args.run.alpha,
        provenance: Provenance::of(&RunStart::now(), command.clone(), vec![command.clone()]),
        ..Study::new(vec![spec.clone()])
    };
    prepare(&study, args.output.quiet, &args.output.export)?;
    let bars = Bars::new(&study, args.output.quiet, false);
    let asked = (spec.trials != ALL_DECKS).then_some(spec.trials);
    let result = deliver(
        out.as_deref(),
        &args.output.export,
        || {
            bars.begin(0, spec.trials, spec.n);
            let read = input::read(
                spec,
                &opts,
                command,
                args.run.alpha,
                resumed,
                saving,
                &|k| bars.advanced(k),
            );
            bars.finish();
            let done = read.map_err(|e| with_resume_hint(e, Some(path)))?;
            study.conclude(vec![Counted {
                feed: Some(done.feed(asked)),
                tally: done.tally,
                seconds: done.seconds,
            }])
        },
        |_, _| Ok(()),
    )?;
    Ok(show(
        &result,
        &Shown::of(&args.output, args.run.until_decisive, out.as_deref()),
    ))
}

/// The tally file saved at `path`, checked to be the run `fresh` describes
/// (the same audits, seed, α and chunks) so that resuming it continues the
/// same counts.
fn resumed(path: &Path, fresh: TallyFile) -> Result<TallyFile> {
    let saved = TallyFile::load(path)?;
    let why = match saved.difference(&fresh) {
        Some(d) => Some(format!(
            "its {} is {}, this run's {}",
            d.field, d.this, d.other
        )),
        None => (saved.planned != fresh.planned).then(|| {
            format!(
                "its chunks are {}, this run's {} (another --shard?)",
                saved.planned, fresh.planned
            )
        }),
    };
    match why {
        None => Ok(saved),
        Some(why) => Err(Error::of_kind(
            ErrorKind::BadInput,
            format!(
                "{} was saved by another run ({why}): resume it with the options of the run \
                 that saved it",
                path.display()
            ),
        )),
    }
}

/// The study as progress and the run-length warning see it: each audit
/// with the trials it has left.
fn left_to_count(file: &TallyFile, study: Study) -> Study {
    let left = |counted: ChunkRange, trials| {
        file.planned
            .with(counted.end, file.planned.end)
            .trials(trials)
    };
    let audits = (study.audits.into_iter().zip(&file.audits))
        .map(|(spec, audit)| RunSpec {
            trials: left(audit.counted, spec.trials),
            ..spec
        })
        .collect();
    let samples = (study.samples.into_iter().zip(&file.samples))
        .map(|(spec, audit)| SampleSpec {
            trials: left(audit.counted, spec.trials),
            ..spec
        })
        .collect();
    Study {
        audits,
        samples,
        ..study
    }
}

/// An interrupted run's error, telling how to continue it.
fn with_resume_hint(e: Error, saved: Option<&Path>) -> Error {
    match (e.kind(), saved) {
        (ErrorKind::Interrupted, Some(path)) => Error::of_kind(
            ErrorKind::Interrupted,
            format!(
                "{e}: continue with the same command and --resume {}",
                path.display()
            ),
        ),
        _ => e,
    }
}

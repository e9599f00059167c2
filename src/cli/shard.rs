//! `audit --shard`, `--checkpoint` and `--resume`: the audit (of built-in
//! subjects of any kind) counted chunk by chunk into a tally file (see
//! [`crate::shard`]): a shard's tally is written for `merge`; a
//! whole run's is judged and reported as `audit` reports any run. The read
//! of a file (of decks, samples or picks) can be checkpointed and resumed
//! too.

use super::audit_args::{AuditArgs, OutputArgs};
use super::interrupt;
use super::shown::{Shown, show};
use super::study::{Bars, deliver, prepare};
use crate::audit::Planned;
use crate::error::ErrorKind;
use crate::experiment::record::{self, RunStart, shell_line};
use crate::output::thousands;
use crate::report::Provenance;
use crate::shard::TallyFile;
use crate::shard::input::{self, InputCheckpoint, InputRead, InputSaving};
use crate::shard::run::{self, Checkpoint};
use crate::study::{Observer, Study, StudyResult};
use crate::{Error, Result};
use std::path::{Path, PathBuf};

/// Refuses a shard asked for a report, which only the merge of all shards
/// can give (the flags of a report are this command's).
fn refuse_report_flags(args: &AuditArgs) -> Result<()> {
    let report = [
        (args.output.out.is_some(), "--out"),
        (args.output.json, "--json"),
        (args.output.export.any(), "--export-*"),
        (args.output.fail_on_bias, "--fail-on-bias"),
        (args.output.require_pass, "--require-pass"),
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
    refuse_report_flags(args)?;
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
    if let [planned] = study.audits.as_slice()
        && !planned.is_builtin()
    {
        return run_input(args, planned.as_ref(), study.alpha);
    }
    let threads = args.run.threads.unwrap_or_else(rayon::current_num_threads);
    let command = shell_line(&record::command_line());
    let fresh = TallyFile::of_study(&study, args.shards.shard, command.clone(), threads)?;
    let mut file = match &args.shards.resume {
        None => fresh,
        Some(path) => resumed(path, fresh)?,
    };
    if let Some(path) = &args.shards.resume
        && !args.output.quiet
    {
        // Where a resumed run starts (a batch task's log shows that a rerun
        // continued from its checkpoint rather than from the start).
        let done = file.audits.iter().map(|a| a.counted.end).min();
        let done = done.unwrap_or(file.planned.first).max(file.planned.first);
        eprintln!(
            "resuming from {}: chunks {}..{done} of {} already counted, {} to go",
            path.display(),
            file.planned.first,
            file.planned,
            file.planned.end - done
        );
    }
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
        return present(&args.output, || {
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
/// shards), writes its report and exports, and shows it as `audit` shows
/// any run. Returns the exit code.
pub(super) fn present(
    output: &OutputArgs,
    judge: impl FnOnce() -> Result<StudyResult>,
) -> Result<i32> {
    let out = output.dir();
    let result = deliver(out.as_deref(), &output.export, judge, |_, _| Ok(()))?;
    Ok(show(&result, &Shown::of(output, out.as_deref())))
}

/// `audit --input FILE --checkpoint C` (or `--resume C`): the file (of
/// decks, samples or picks) read with its counts saved every so often,
/// resumed from a saved checkpoint, then judged and shown as any audit.
/// Ctrl-C saves and stops (exit 130).
fn run_input(args: &AuditArgs, planned: &dyn Planned, alpha: f64) -> Result<i32> {
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
    let reading = InputRead {
        command_line: command.clone(),
        alpha,
        resumed,
        saving: InputSaving {
            path,
            every: args.shards.checkpoint_every,
            stop: interrupt::stop_flag(),
        },
    };
    let study = Study {
        alpha,
        provenance: Provenance::of(&RunStart::now(), command.clone(), vec![command]),
        ..Study::new(vec![planned.clone_box()])
    };
    prepare(&study, args.output.quiet, &args.output.export)?;
    let bars = Bars::new(&study, args.output.quiet, false);
    present(&args.output, || {
        bars.begin(0, planned.trials(), planned.work());
        let read = input::read_planned(planned, reading, &|k| bars.advanced(k));
        bars.finish();
        let judged = read.map_err(|e| with_resume_hint(e, Some(path)))?;
        Ok(StudyResult::judged(study, vec![judged], Vec::new()))
    })
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
        Some(why) => Err(Error::bad_input(format!(
            "{} was saved by another run ({why}): resume it with the options of the run \
                 that saved it",
            path.display()
        ))),
    }
}

/// The study as progress and the run-length warning see it: each audit
/// with the trials it has left.
fn left_to_count(file: &TallyFile, study: Study) -> Study {
    let audits = (study.audits.iter().zip(&file.audits))
        .map(|(spec, audit)| {
            let left = file
                .planned
                .with(audit.counted.end, file.planned.end)
                .trials(spec.trials());
            spec.with_trials(left)
        })
        .collect();
    Study { audits, ..study }
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

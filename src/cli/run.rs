//! `shuffle-audit run`: run an experiment file and write its report, or
//! (`--check`) verify that a report folder's counts reproduce bit for bit.

use super::color;
use super::samples;
use super::study::{ExportArgs, execute};
use super::table::{table_width, wrap};
use super::verdicts;
use clap::Args;
use shuffle_audit::Result;
use shuffle_audit::experiment::check::{self, RecordedSummary};
use shuffle_audit::experiment::mixing::MixingPlan;
use shuffle_audit::experiment::record::{
    self, EXPERIMENT_FILE, RUN_FILE, RecordedSpec, RunRecord, RunStart, shell_line,
};
use shuffle_audit::experiment::{Experiment, scale_trials};
use shuffle_audit::format::counted;
use shuffle_audit::output::mixing::loader_threshold_lines;
use shuffle_audit::output::samples::SampleSummary;
use shuffle_audit::output::{files, thousands};
use shuffle_audit::report::{self, MixingOutcome, Provenance, content};
use shuffle_audit::study::{SAMPLERS_FOLDER, Study, StudyResult};
use std::path::{Path, PathBuf};

/// Exit code of `--check` when the counts differ.
const EXIT_DIFFERENT: i32 = 1;

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The experiment file, e.g. experiments/quick.toml.
    #[arg(value_name = "FILE", required_unless_present = "check")]
    pub file: Option<PathBuf>,

    /// Report folder [default: the file's `out`, else reports/latest/<name>].
    #[arg(long, value_name = "DIR", conflicts_with = "check")]
    pub out: Option<PathBuf>,

    /// Multiply every audit's trials by X (rounded, at least 1): 0.1 for a
    /// quick look, 10 for more power. Recorded in run.json.
    #[arg(
        long,
        value_name = "X",
        default_value_t = 1.0,
        conflicts_with = "check"
    )]
    pub trials_scale: f64,

    /// No progress and no closing note on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    /// Print the summary as JSON on stdout instead of the table.
    #[arg(long, conflicts_with = "check")]
    pub json: bool,

    /// Worker threads [default: the file's `threads`, else all cores]. Does
    /// not change the counts.
    #[arg(long, value_parser = shuffle_audit::values::parse_threads)]
    pub threads: Option<usize>,

    /// Rerun the experiment recorded in DIR (its experiment.toml and the
    /// trials scale in run.json) and compare the counts with DIR/summary.json:
    /// exit 0 if identical, 1 naming the first difference.
    #[arg(long, value_name = "DIR", conflicts_with = "file")]
    pub check: Option<PathBuf>,

    #[command(flatten)]
    pub export: ExportArgs,
}

/// Runs `shuffle-audit run` and returns the exit code.
pub fn run(args: &RunArgs) -> Result<i32> {
    match (&args.check, &args.file) {
        (Some(dir), _) => check(dir, args),
        (None, Some(file)) => run_file(file, args),
        (None, None) => unreachable!("clap requires FILE unless --check is given"),
    }
}

fn run_file(file: &Path, args: &RunArgs) -> Result<i32> {
    let start = RunStart::now();
    let experiment = Experiment::load(file)?;
    let runs = experiment.runs(args.trials_scale, args.threads)?;
    let samples = experiment.sample_runs(args.trials_scale, args.threads)?;
    let out = args.out.clone().unwrap_or_else(|| experiment.out.clone());
    let skipped: Vec<String> = experiment
        .skipped()
        .into_iter()
        .map(|(plan, missing)| format!("{} (needs `{missing}`, not installed)", plan.subject))
        .chain(experiment.skipped_samples())
        .collect();
    if !args.quiet {
        for line in &skipped {
            eprintln!("skipped: {line}");
        }
    }
    if runs.is_empty() && samples.is_empty() && experiment.mixing.is_empty() {
        return Err(shuffle_audit::Error::io(
            "every [[audit]] and [[sample]] table was skipped: nothing to run",
        ));
    }
    let command = record::command_line();
    let reproduce = reproduce(&out, args);
    let study = Study {
        title: experiment.name.clone(),
        purpose: experiment.purpose.clone(),
        alpha: experiment.alpha,
        audits: runs.iter().map(|r| r.spec.clone()).collect(),
        samples: samples.iter().map(|p| p.spec.clone()).collect(),
        notes: runs.iter().map(|r| r.note.clone()).collect(),
        until_decisive: None,
        mixing: experiment
            .mixing
            .iter()
            .map(|plan| MixingPlan {
                trials: scale_trials(plan.trials, args.trials_scale),
                ..plan.clone()
            })
            .collect(),
        skipped,
        provenance: Provenance::of(&start, shell_line(&command), reproduce),
    };
    let result = execute(
        study,
        Some(&out),
        args.quiet,
        true,
        &args.export,
        |dir, result| {
            let threads = result.audits.first().map_or_else(
                || args.threads.unwrap_or_else(rayon::current_num_threads),
                |a| a.threads(),
            );
            let audits = runs
                .iter()
                .enumerate()
                .map(|(i, run)| RecordedSpec::of(run, result.audits.get(i)))
                .collect();
            let record = run_record(
                &experiment,
                file,
                &command,
                &result.study.provenance,
                threads,
                args,
                audits,
            );
            files::write_atomic(&dir.join(EXPERIMENT_FILE), experiment.text.as_bytes())?;
            files::write_atomic(&dir.join(RUN_FILE), record.to_json().as_bytes())
        },
    )?;
    let only_samples = result.audits.is_empty() && result.mixing.is_empty();
    if args.json && only_samples {
        println!(
            "{}",
            SampleSummary::of(&result.samples, experiment.alpha).to_json()
        );
    } else if args.json {
        println!("{}", result.summary().to_json());
    } else {
        let judged_with = result.study.len();
        let samplers = samples::render(&result.samples, judged_with, experiment.alpha);
        if only_samples {
            print!(
                "{}: {}",
                experiment.name,
                color::verdicts(&samplers, color::stdout())
            );
        } else {
            print!("{}", color::verdicts(&render(&result), color::stdout()));
            if !result.samples.is_empty() {
                print!(
                    "\nsamplers: {}",
                    color::verdicts(&samplers, color::stdout())
                );
            }
        }
    }
    announce(&out, args.quiet);
    Ok(0)
}

/// `--check DIR` of the sampler audits of a study: compare every rerun
/// audit's inclusion counts with the `summary.json` they were written to
/// (DIR's own for a study of samplers only, else DIR/samplers'). `None`
/// when all match, else the first difference.
fn check_samples(dir: &Path, result: &StudyResult) -> Result<Option<String>> {
    let folder = match result.audits.is_empty() {
        true => dir.to_path_buf(),
        false => dir.join(SAMPLERS_FOLDER),
    };
    let path = folder.join("summary.json");
    let text = std::fs::read_to_string(&path).map_err(|source| shuffle_audit::Error::Io {
        path: path.clone(),
        source,
    })?;
    let recorded: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| shuffle_audit::Error::bad_input(format!("{}: {e}", path.display())))?;
    let empty = Vec::new();
    let entries = recorded["audits"].as_array().unwrap_or(&empty);
    let audits = &result.samples;
    if entries.len() != audits.len() {
        return Ok(Some(format!(
            "{} recorded, {} rerun",
            counted(entries.len() as u64, "sampler audit", "sampler audits"),
            audits.len()
        )));
    }
    for (entry, audit) in entries.iter().zip(audits) {
        let counts: Vec<u64> = entry["inclusion"]
            .as_array()
            .map(|a| a.iter().filter_map(serde_json::Value::as_u64).collect())
            .unwrap_or_default();
        if counts != audit.tally().inclusion() {
            return Ok(Some(format!("{} inclusion counts", audit.spec().sampler)));
        }
    }
    Ok(None)
}

/// The commands that verify and redo a run written to `out`.
fn reproduce(out: &Path, args: &RunArgs) -> Vec<String> {
    let dir = out.display().to_string();
    let mut rerun = vec![
        "shuffle-audit".to_string(),
        "run".to_string(),
        format!("{dir}/{EXPERIMENT_FILE}"),
    ];
    if args.trials_scale != 1.0 {
        rerun.extend(["--trials-scale".to_string(), args.trials_scale.to_string()]);
    }
    rerun.extend(["--out".to_string(), format!("{dir}-rerun")]);
    vec![
        shell_line(&["shuffle-audit", "run", "--check", &dir]),
        shell_line(&rerun),
    ]
}

/// run.json: the provenance of the run, what ran (`audits`, one per
/// shuffle audit; none for a sampler experiment) and how to redo it.
fn run_record(
    experiment: &Experiment,
    file: &Path,
    command: &[String],
    provenance: &Provenance,
    threads: usize,
    args: &RunArgs,
    audits: Vec<RecordedSpec>,
) -> RunRecord {
    RunRecord {
        tool: provenance.tool.clone(),
        git_commit: provenance.git_commit.clone(),
        git_dirty: provenance.git_dirty,
        command_line: command.to_vec(),
        date: provenance.date.clone(),
        experiment: experiment.name.clone(),
        experiment_file: file.display().to_string(),
        alpha: experiment.alpha,
        threads,
        trials_scale: args.trials_scale,
        audits,
        reproduce: provenance.reproduce.clone(),
    }
}

/// Says where the report went, unless quiet.
fn announce(out: &Path, quiet: bool) {
    if !quiet {
        eprintln!(
            "Report written to {}",
            out.join(report::HTML_FILE).display()
        );
    }
}

/// The verdict table printed on stdout.
fn render(result: &StudyResult) -> String {
    let (study, audits) = (&result.study, &result.audits);
    let mut out = if audits.is_empty() {
        format!("{}: no audits\n", study.title)
    } else {
        let mut shared = verdicts::shared(audits);
        shared.push(format!(
            "alpha {}, Holm within each audit and over all audits",
            study.alpha
        ));
        let verdicts = audits.iter().map(|a| a.verdict());
        let all: Vec<_> = verdicts
            .chain(result.samples.iter().map(|a| a.verdict()))
            .collect();
        format!(
            "{}: {}\n{}\n\n{}",
            study.title,
            content::verdict_counts_of(&all),
            wrap(&shared.join(", "), table_width()),
            verdicts::render(audits, &result.findings)
        )
    };
    let unavailable: Vec<String> = result
        .mixing
        .iter()
        .filter_map(|m| match &m.outcome {
            MixingOutcome::NotAvailable(plan) => Some(plan.describe()),
            _ => None,
        })
        .collect();
    // A data loader's thresholds: the answer its curve is there for, as
    // the report states it.
    for m in &result.mixing {
        if let MixingOutcome::Loaders(report) = &m.outcome {
            let curve = &report.curve;
            out.push_str(&format!(
                "\nHow big must the buffer be? At n = {}:\n",
                thousands(curve.n as u64)
            ));
            for line in loader_threshold_lines(curve) {
                out.push_str(&wrap(&line, table_width()));
                out.push('\n');
            }
        }
    }
    for plan in &unavailable {
        out.push_str(&format!(
            "\nmixing curves: not available in this build ({plan})"
        ));
    }
    if !unavailable.is_empty() {
        out.push('\n');
    }
    out
}

/// `--check DIR`: recompute and compare.
fn check(dir: &Path, args: &RunArgs) -> Result<i32> {
    let record = RunRecord::load(dir)?;
    let experiment = Experiment::load(&dir.join(EXPERIMENT_FILE))?;
    let runs = experiment.runs(record.trials_scale, args.threads)?;
    let samples = experiment.sample_runs(record.trials_scale, args.threads)?;
    let study = Study {
        alpha: experiment.alpha,
        samples: samples.iter().map(|p| p.spec.clone()).collect(),
        ..Study::new(runs.iter().map(|r| r.spec.clone()).collect())
    };
    let result = execute(
        study,
        None,
        args.quiet,
        false,
        &ExportArgs::default(),
        |_, _| Ok(()),
    )?;
    let audits = &result.audits;
    let mut difference = None;
    if !audits.is_empty() {
        let mut recorded = RecordedSummary::load(dir)?;
        check::load_counts(&mut recorded, audits, dir)?;
        difference = check::compare(&recorded, audits).map(|d| d.to_string());
    }
    if difference.is_none() && !result.samples.is_empty() {
        difference = check_samples(dir, &result)?;
    }
    if let Some(difference) = difference {
        println!("different: {difference}");
        return Ok(EXIT_DIFFERENT);
    }
    // What was compared, by kind: position-by-value cells of the shuffles,
    // inclusion counts of the samplers (each against its own summary).
    let cells: usize = audits.iter().map(|a| a.spec().n * a.spec().n).sum();
    let inclusions: usize = result.samples.iter().map(|a| a.tally().n()).sum();
    let mut compared = Vec::new();
    if !audits.is_empty() {
        let what = match result.samples.is_empty() {
            true => "counts",
            false => "position-by-value counts",
        };
        compared.push(format!(
            "{} {what} match {}",
            thousands(cells as u64),
            dir.join("summary.json").display()
        ));
    }
    if !result.samples.is_empty() {
        let folder = match audits.is_empty() {
            true => dir.to_path_buf(),
            false => dir.join(SAMPLERS_FOLDER),
        };
        compared.push(format!(
            "{} inclusion counts match {}",
            thousands(inclusions as u64),
            folder.join("summary.json").display()
        ));
    }
    println!(
        "identical: {}, {}",
        counted(result.study.len() as u64, "audit", "audits"),
        compared.join(" and ")
    );
    Ok(0)
}

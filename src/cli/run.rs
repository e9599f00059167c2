//! `shuffle-audit run`: run an experiment file and write its report, or
//! (`--check`) verify that a report folder's counts reproduce bit for bit.

use super::progress::Progress;
use super::verdicts;
use clap::Args;
use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::audit::{self, Audit};
use shuffle_audit::engine::RunSpec;
use shuffle_audit::engine::no_progress;
use shuffle_audit::experiment::check::{self, RecordedSummary};
use shuffle_audit::experiment::mixing::{MixingCurve, MixingPlan};
use shuffle_audit::experiment::record::{
    self, EXPERIMENT_FILE, RUN_FILE, RecordedSpec, RunRecord, RunStart, shell_line,
};
use shuffle_audit::experiment::{Experiment, PlannedRun, scale_trials};
use shuffle_audit::findings::Findings;
use shuffle_audit::mixing;
use shuffle_audit::output::{self, files, summary::Summary, thousands};
use shuffle_audit::report::{self, MixingOutcome, Provenance, ReportInput, content};
use shuffle_audit::{Error, Result};
use std::io::IsTerminal;
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
    #[arg(long)]
    pub threads: Option<usize>,

    /// Rerun the experiment recorded in DIR (its experiment.toml and the
    /// trials scale in run.json) and compare the counts with DIR/summary.json:
    /// exit 0 if identical, 1 naming the first difference.
    #[arg(long, value_name = "DIR", conflicts_with = "file")]
    pub check: Option<PathBuf>,
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
    let out = args.out.clone().unwrap_or_else(|| experiment.out.clone());
    let skipped: Vec<String> = experiment
        .skipped()
        .into_iter()
        .map(|(plan, missing)| format!("{} (needs `{missing}`, not installed)", plan.subject))
        .collect();
    if !args.quiet {
        for line in &skipped {
            eprintln!("skipped: {line}");
        }
    }

    let specs: Vec<RunSpec> = runs.iter().map(|r| r.spec.clone()).collect();
    let (audits, findings, mixing) = super::interrupt::staged(Some(&out), |dir| {
        let dir = dir.expect("a staged folder");
        let audits = run_audits(&specs, experiment.alpha, args.quiet, true, None)?;
        let mixing = measure_mixing(&experiment, args, dir);
        let findings = Findings::of(&audits, experiment.alpha);
        write_files(
            dir,
            &out,
            &experiment,
            file,
            &runs,
            &audits,
            &findings,
            &mixing,
            &skipped,
            args,
            &start,
        )?;
        Ok((audits, findings, mixing))
    })?;

    if args.json {
        println!("{}", Summary::of(&audits, &findings).to_json());
    } else {
        print!("{}", render(&experiment, &audits, &findings, &mixing));
    }
    if !args.quiet {
        eprintln!(
            "Report written to {}",
            out.join(report::HTML_FILE).display()
        );
    }
    Ok(0)
}

/// Measures the experiment's mixing curves, writing their files into `dir`.
fn measure_mixing(experiment: &Experiment, args: &RunArgs, dir: &Path) -> Vec<MixingOutcome> {
    experiment
        .mixing
        .iter()
        .map(|plan| {
            let plan = MixingPlan {
                trials: scale_trials(plan.trials, args.trials_scale),
                ..plan.clone()
            };
            match measure(&plan, dir) {
                None => MixingOutcome::NotAvailable(plan),
                Some(Ok(curve)) => MixingOutcome::Measured(curve),
                Some(Err(e)) => MixingOutcome::Failed(plan, e.to_string()),
            }
        })
        .collect()
}

/// Writes the run's files (summary, heatmaps, record, copy of the
/// experiment, report) into `dir`, the staged folder of `out`.
#[allow(clippy::too_many_arguments)]
fn write_files(
    dir: &Path,
    out: &Path,
    experiment: &Experiment,
    file: &Path,
    runs: &[PlannedRun],
    audits: &[Audit],
    findings: &Findings,
    mixing: &[MixingOutcome],
    skipped: &[String],
    args: &RunArgs,
    start: &RunStart,
) -> Result<()> {
    output::write_run(dir, audits, findings)?;
    let record = run_record(experiment, file, out, runs, audits, args, start);
    files::write_atomic(&dir.join(EXPERIMENT_FILE), experiment.text.as_bytes())?;
    files::write_atomic(&dir.join(RUN_FILE), record.to_json().as_bytes())?;
    let input = ReportInput {
        title: experiment.name.clone(),
        purpose: experiment.purpose.clone(),
        alpha: experiment.alpha,
        audits,
        findings,
        notes: runs.iter().map(|r| r.note.clone()).collect(),
        mixing: mixing.to_vec(),
        skipped: skipped.to_vec(),
        provenance: Provenance {
            tool: record.tool.clone(),
            git_commit: record.git_commit.clone(),
            git_dirty: record.git_dirty,
            date: record.date.clone(),
            command_line: shell_line(&record.command_line),
            reproduce: record.reproduce.clone(),
        },
    };
    report::write(dir, &input)?;
    Ok(())
}

/// Runs every spec with progress (one line per finished audit when
/// `announce`), then judges them together.
pub fn run_audits(
    specs: &[RunSpec],
    alpha: f64,
    quiet: bool,
    announce: bool,
    budget: Option<u64>,
) -> Result<Vec<Audit>> {
    // A file read to its end has no known length (ALL_DECKS): its bars
    // count without a total.
    let total: u64 = specs
        .iter()
        .map(|s| budget.unwrap_or(s.trials))
        .fold(0, u64::saturating_add);
    warn_if_long(specs, budget, quiet);
    let progress = Progress::new(total, quiet);
    // Without bars (stderr not a terminal), a line per finished audit shows
    // that a long run is alive.
    let announce = announce || !std::io::stderr().is_terminal();
    let report = |k| progress.add(k);
    let mut audits = Vec::with_capacity(specs.len());
    let width = specs.len().to_string().len();
    for (i, spec) in specs.iter().enumerate() {
        let label = format!("{} n={} {}", spec.subject, spec.n, spec.source_label());
        progress.begin(label.clone(), budget.unwrap_or(spec.trials));
        let audit = match budget {
            // Bonferroni across the audits: each sequential audit at alpha / m.
            Some(max) => audit::run_until_decisive(spec, alpha, max, specs.len(), &report)?,
            None => audit::run(spec, alpha, &report)?,
        };
        if announce {
            progress.println(&format!(
                "[{:>width$}/{}] {label}: {} trials in {:.2} s",
                i + 1,
                specs.len(),
                thousands(audit.spec.trials),
                audit.seconds
            ));
        }
        audits.push(audit);
    }
    progress.finish();
    if budget.is_none() {
        audit::judge(&mut audits, alpha);
    }
    Ok(audits)
}

/// Element moves a core makes per second, roughly, with the default tests:
/// only for the long-run warning below, never shown as a measurement.
const ROUGH_ELEMENTS_PER_CORE_SECOND: f64 = 2e7;

/// Warns (unless quiet) when the planned shuffles would take more than a
/// day at a rough engine speed, before anything runs: `-t 1e19` should not
/// start silently.
fn warn_if_long(specs: &[RunSpec], budget: Option<u64>, quiet: bool) {
    let work: f64 = specs
        .iter()
        .filter(|s| s.subject.builtin().is_some())
        .map(|s| budget.unwrap_or(s.trials) as f64 * s.n as f64)
        .sum();
    let seconds = work / (ROUGH_ELEMENTS_PER_CORE_SECOND * rayon::current_num_threads() as f64);
    if seconds > 86_400.0 && !quiet {
        eprintln!(
            "warning: this run shuffles {:.1e} elements in all: at a rough {:.0e} per core and \
             second that is about {:.0} days; Ctrl-C and lower --trials if that is not intended",
            work,
            ROUGH_ELEMENTS_PER_CORE_SECOND,
            seconds / 86_400.0
        );
    }
}

fn run_record(
    experiment: &Experiment,
    file: &Path,
    out: &Path,
    runs: &[PlannedRun],
    audits: &[Audit],
    args: &RunArgs,
    start: &RunStart,
) -> RunRecord {
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
    RunRecord {
        tool: record::tool_version(),
        git_commit: start.commit.clone(),
        git_dirty: start.dirty,
        command_line: record::command_line(),
        date: record::rfc3339(start.time),
        experiment: experiment.name.clone(),
        experiment_file: file.display().to_string(),
        alpha: experiment.alpha,
        threads: audits
            .first()
            .map_or_else(rayon::current_num_threads, |a| a.threads),
        trials_scale: args.trials_scale,
        audits: runs
            .iter()
            .enumerate()
            .map(|(i, run)| RecordedSpec::of(run, audits.get(i)))
            .collect(),
        reproduce: vec![
            shell_line(&["shuffle-audit", "run", "--check", &dir]),
            shell_line(&rerun),
        ],
    }
}

/// The verdict table printed on stdout.
fn render(
    experiment: &Experiment,
    audits: &[Audit],
    findings: &Findings,
    mixing: &[MixingOutcome],
) -> String {
    let mut out = if audits.is_empty() {
        format!("{}: no audits\n", experiment.name)
    } else {
        format!(
            "{}: {} at alpha {} (Holm within each audit and over all audits)\n\n{}",
            experiment.name,
            content::verdict_counts(audits),
            experiment.alpha,
            verdicts::render(audits, findings)
        )
    };
    for outcome in mixing {
        if let MixingOutcome::NotAvailable(plan) = outcome {
            out.push_str(&format!(
                "\nmixing curves: not available in this build ({})",
                plan.describe()
            ));
        }
    }
    if mixing
        .iter()
        .any(|m| matches!(m, MixingOutcome::NotAvailable(_)))
    {
        out.push('\n');
    }
    out
}

/// `--check DIR`: recompute and compare.
fn check(dir: &Path, args: &RunArgs) -> Result<i32> {
    let record = RunRecord::load(dir)?;
    let experiment = Experiment::load(&dir.join(EXPERIMENT_FILE))?;
    let mut recorded = RecordedSummary::load(dir)?;
    let runs = experiment.runs(record.trials_scale, args.threads)?;
    let specs: Vec<RunSpec> = runs.iter().map(|r| r.spec.clone()).collect();
    let audits = run_audits(&specs, experiment.alpha, args.quiet, false, None)?;
    check::load_counts(&mut recorded, &audits, dir)?;
    match check::compare(&recorded, &audits) {
        None => {
            let cells: usize = audits.iter().map(|a| a.spec.n * a.spec.n).sum();
            println!(
                "identical: {} audits, {} counts match {}",
                audits.len(),
                thousands(cells as u64),
                dir.join("summary.json").display()
            );
            Ok(0)
        }
        Some(difference) => {
            println!("different: {difference}");
            Ok(EXIT_DIFFERENT)
        }
    }
}

/// Measures the curve of `plan` (exact where the law is known, Monte Carlo
/// otherwise) and writes its `mixing.csv` and `mixing.png` into a folder of
/// `dir` named after the process and n.
///
/// Returns `None` only for a process the mixing library cannot measure.
fn measure(plan: &MixingPlan, dir: &std::path::Path) -> Option<Result<MixingCurve>> {
    let algorithm = Algorithm::parse(&plan.process).ok()?.with_k(1)?;
    Some(measure_with(plan, algorithm, dir))
}

fn measure_with(
    plan: &MixingPlan,
    algorithm: Algorithm,
    dir: &std::path::Path,
) -> Result<MixingCurve> {
    let ks = plan
        .steps
        .iter()
        .map(|&k| {
            u32::try_from(k)
                .map_err(|_| Error::invalid(format!("k = {k} is too large for a mixing curve")))
        })
        .collect::<Result<Vec<u32>>>()?;
    let spec = mixing::MixingSpec {
        algorithm,
        n: plan.n,
        ks,
        monte_carlo: false,
        trials: plan.trials,
        source: plan.source,
        seed: plan.seed,
    };
    let curve = mixing::run(&spec, &no_progress)?;
    let folder = format!("mixing-{}-n{}", plan.process, plan.n);
    output::mixing::write_mixing(&dir.join(&folder), &curve)?;
    let method = match curve.statistic {
        Some(statistic) => format!("Monte Carlo, {} trials per k, via {statistic}", plan.trials),
        None => "exact".to_string(),
    };
    Ok(MixingCurve {
        plan: plan.clone(),
        metric: format!("total variation distance to uniform ({method})"),
        points: curve.points.clone(),
        image: Some(format!("{folder}/mixing.png")),
    })
}

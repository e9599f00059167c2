//! `shuffle-audit run`: run an experiment file and write its report, or
//! (`--check`) verify that a report folder's counts reproduce bit for bit.

use super::color;
use super::study::{ExportArgs, execute};
use super::table::{table_width, wrap};
use super::verdicts;
use crate::Result;
use crate::error::Front;
use crate::experiment::Experiment;
use crate::experiment::check::{self, Checked};
use crate::experiment::record::{
    self, EXPERIMENT_FILE, RUN_FILE, RecordedAudit, RunRecord, RunStart, shell_line,
};
use crate::format::counted;
use crate::output::mixing::loader_threshold_lines;
use crate::output::{files, thousands};
use crate::report::{self, MixingOutcome, Provenance};
use crate::study::StudyResult;
use clap::Args;
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
    #[arg(long, value_parser = crate::values::parse_threads)]
    pub threads: Option<usize>,

    /// Rerun the experiment recorded in DIR (its experiment.toml and the
    /// trials scale in run.json) and compare the counts with DIR/summary.json:
    /// exit 0 if identical, 1 naming the first difference.
    #[arg(long, value_name = "DIR", conflicts_with = "file")]
    pub check: Option<PathBuf>,

    /// Certificate metadata, repeatable (over the file's [meta] table): shown first on the report's first
    /// page and as "meta" in summary.json, e.g. --meta lab="Acme Test Labs"
    /// --meta client=Casino --meta device="Shufflers Inc. SX-2".
    #[arg(long, value_name = "KEY=VALUE", conflicts_with = "check")]
    pub meta: Vec<String>,

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
    let out = args.out.clone().unwrap_or_else(|| experiment.out.clone());
    let skipped = experiment.skipped();
    if !args.quiet {
        for line in &skipped {
            eprintln!("skipped: {line}");
        }
    }
    if experiment.nothing_runs() {
        return Err(crate::Error::io(
            "every [[audit]] and [[sample]] table was skipped: nothing to run",
        ));
    }
    let command = record::command_line();
    let provenance = Provenance::of(&start, shell_line(&command), reproduce(&out, args));
    let mut study = experiment.study(args.trials_scale, args.threads, provenance)?;
    for pair in &args.meta {
        study.provenance.meta.set_arg(pair)?;
    }
    let result = execute(
        study,
        Some(&out),
        args.quiet,
        true,
        &args.export,
        |dir, result| {
            let threads = args
                .threads
                .or(experiment.threads)
                .unwrap_or_else(rayon::current_num_threads);
            let record = RunRecord {
                tool: result.study.provenance.tool.clone(),
                git_commit: result.study.provenance.git_commit.clone(),
                git_dirty: result.study.provenance.git_dirty,
                command_line: command.clone(),
                date: result.study.provenance.date.clone(),
                experiment: experiment.name.clone(),
                experiment_file: file.display().to_string(),
                alpha: experiment.alpha,
                threads,
                trials_scale: args.trials_scale,
                audits: result
                    .audits
                    .iter()
                    .map(|a| RecordedAudit::of(a.as_ref()))
                    .collect(),
                reproduce: result.study.provenance.reproduce.clone(),
            };
            files::write_atomic(&dir.join(EXPERIMENT_FILE), experiment.text.as_bytes())?;
            files::write_atomic(&dir.join(RUN_FILE), record.to_json().as_bytes())
        },
    )?;
    if args.json {
        println!("{}", result.summary().to_json());
    } else {
        print!("{}", color::verdicts(&render(&result), color::stdout()));
    }
    if !args.quiet {
        let html = out.join(report::HTML_FILE);
        eprintln!("Report written to {}", html.display());
    }
    Ok(0)
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

/// The verdict table printed on stdout, with the title, and what the
/// mixing curves answer.
fn render(result: &StudyResult) -> String {
    let study = &result.study;
    let mut out = match result.audits.is_empty() {
        true => format!("{}: no audits\n", study.title),
        false => format!("{}: {}", study.title, verdicts::render(result, Front::Toml)),
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
    let provenance = Provenance::of(&RunStart::now(), String::new(), Vec::new());
    let study = experiment.study(record.trials_scale, args.threads, provenance)?;
    let study = crate::study::Study {
        mixing: Vec::new(),
        ..study
    };
    let result = execute(
        study,
        None,
        args.quiet,
        false,
        &ExportArgs::default(),
        |_, _| Ok(()),
    )?;
    match check::compare(dir, &result)? {
        Checked::Different(difference) => {
            println!("different: {difference}");
            Ok(EXIT_DIFFERENT)
        }
        Checked::Identical(compared) => {
            let compared: Vec<String> = compared
                .iter()
                .map(|(counts, what)| format!("{} {what}", thousands(*counts)))
                .collect();
            println!(
                "identical: {}, {} match {}",
                counted(result.study.len() as u64, "audit", "audits"),
                crate::format::and_list(&compared),
                dir.join("summary.json").display()
            );
            Ok(0)
        }
    }
}

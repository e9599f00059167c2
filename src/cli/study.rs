//! Running a study from the command line, the same way for `audit` and
//! `run`: a warning when the work is absurdly long, progress on stderr, the
//! files written into a staged folder (moved into place only when complete,
//! removed on failure or Ctrl-C), then the `--export-*` files.

use super::interrupt;
use super::progress::{Progress, work};
use crate::Result;
use crate::audit::{Feed, N_FROM_INPUT, Planned};
use crate::format::{counted, human_bytes};
use crate::ingest;
use crate::output::files;
use crate::study::{Observer, Study, StudyResult, verdicts_markdown};
use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// hyperfine-style exports: the run's findings, each to a file of its own,
/// whatever else is shown or written.
#[derive(Debug, Clone, Default, Args)]
pub struct ExportArgs {
    /// Also write the summary (summary.json's content) to FILE.
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,

    /// Also write the verdicts as CSV (summary.csv's content) to FILE.
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<PathBuf>,

    /// Also write the verdict table as Markdown to FILE.
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,
}

impl ExportArgs {
    /// Whether any export was asked for.
    pub fn any(&self) -> bool {
        self.export_json.is_some() || self.export_csv.is_some() || self.export_markdown.is_some()
    }

    /// Refuses, before the run, an export into a folder that does not
    /// exist, or onto a folder.
    pub fn check(&self) -> Result<()> {
        for path in self.paths() {
            let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
            if parent.is_some_and(|p| !p.is_dir()) {
                return Err(crate::Error::io(format!(
                    "cannot export to {}: no such folder",
                    path.display()
                )));
            }
            if path.is_dir() {
                return Err(crate::Error::io(format!(
                    "cannot export to {}: it is a folder (name a file in it)",
                    path.display()
                )));
            }
        }
        Ok(())
    }

    fn paths(&self) -> impl Iterator<Item = &PathBuf> {
        [&self.export_json, &self.export_csv, &self.export_markdown]
            .into_iter()
            .flatten()
    }

    /// Writes the exports of `result` (each atomically, or through a
    /// device or pipe such as `/dev/stdout`: [`files::write_named`]).
    pub fn write(&self, result: &StudyResult) -> Result<()> {
        let summary = result.summary();
        if let Some(path) = &self.export_json {
            files::write_named(path, format!("{}\n", summary.to_json()).as_bytes())?;
        }
        if let Some(path) = &self.export_csv {
            files::write_named(path, summary.to_csv().as_bytes())?;
        }
        if let Some(path) = &self.export_markdown {
            files::write_named(path, verdicts_markdown(&result.document()).as_bytes())?;
        }
        Ok(())
    }
}

/// Runs `study` with progress (unless `quiet`; a line per finished audit
/// when `announce` or when stderr is not a terminal), writing its files
/// into `out` when given (plus what `extra` writes there), then the
/// exports. Nothing is left half-written.
pub fn execute(
    study: Study,
    out: Option<&Path>,
    quiet: bool,
    announce: bool,
    exports: &ExportArgs,
    extra: impl FnOnce(&Path, &StudyResult) -> Result<()>,
) -> Result<StudyResult> {
    prepare(&study, quiet, exports)?;
    let observer = Bars::new(&study, quiet, announce);
    deliver(
        out,
        exports,
        || {
            let result = study.run(&observer);
            observer.finish();
            result
        },
        extra,
    )
}

/// What comes before a study runs: refuses exports into missing folders
/// and absurdly large output, notes a run needing much memory or disk and
/// warns of one planned to last days (unless `quiet`).
pub fn prepare(study: &Study, quiet: bool, exports: &ExportArgs) -> Result<()> {
    exports.check()?;
    let cost = study.check_cost()?;
    if !quiet && (cost.memory > LARGE_MEMORY || cost.output > LARGE_OUTPUT) {
        eprintln!(
            "note: this run needs about {} of memory and writes about {} of counts",
            human_bytes(cost.memory),
            human_bytes(cost.output)
        );
    }
    warn_if_long(study, quiet);
    Ok(())
}

/// Produces a study's result with `produce` while its files' folder `out`
/// (if any) is staged, writes the files there (plus what `extra` writes)
/// and moves the folder into place, then writes the exports: what every
/// run's result goes through, whether its counts were made here, merged
/// from shards or resumed. A failure or Ctrl-C leaves nothing behind.
pub fn deliver(
    out: Option<&Path>,
    exports: &ExportArgs,
    produce: impl FnOnce() -> Result<StudyResult>,
    extra: impl FnOnce(&Path, &StudyResult) -> Result<()>,
) -> Result<StudyResult> {
    let result = interrupt::staged(out, |dir| {
        let result = produce()?;
        if let Some(dir) = dir {
            result.write(dir)?;
            extra(dir, &result)?;
        }
        Ok(result)
    })?;
    exports.write(&result)?;
    Ok(result)
}

/// Memory worth a note before the run.
const LARGE_MEMORY: u128 = 1 << 30;
/// Output worth a note before the run.
const LARGE_OUTPUT: u128 = 100 << 20;

/// Progress bars and per-audit lines for a study.
pub struct Bars {
    progress: Progress,
    announce: bool,
    count: usize,
    labels: Vec<String>,
}

impl Bars {
    /// Bars for the audits of `study`, each counting its trials (its budget
    /// for a sequential study); see [`execute`] for `quiet` and `announce`.
    pub fn new(study: &Study, quiet: bool, announce: bool) -> Self {
        let budget = |trials| study.until_decisive.unwrap_or(trials);
        let total_work = (study.audits.iter())
            .map(|a| work(budget(a.trials()), a.work()))
            .fold(0, u64::saturating_add);
        Self {
            progress: Progress::new(study.planned_trials(), total_work, quiet),
            // Without bars (stderr not a terminal), a line per finished
            // audit shows that a long run is alive.
            announce: announce || !std::io::stderr().is_terminal(),
            count: study.len(),
            labels: study.audits.iter().map(|a| label(a.as_ref())).collect(),
        }
    }

    /// Clears the bars once the work is done.
    pub fn finish(&self) {
        self.progress.finish();
    }
}

/// How progress names an audit: `naive-swap n=10 chacha8`. Output read
/// from a text file says n from its first line before the read starts;
/// from stdin or a program, n is known only once read.
fn label(planned: &dyn Planned) -> String {
    let n = match (planned.feed(), planned.n()) {
        (Some(Feed::File { path, format }), N_FROM_INPUT) => ingest::peek_n(&path, format),
        (_, N_FROM_INPUT) => None,
        (_, n) => Some(n),
    };
    let n = n.map_or_else(|| "n from its first line".to_string(), |n| format!("n={n}"));
    format!("{} {n} {}", planned.subject(), planned.source_label())
}

impl Observer for Bars {
    fn begin(&self, index: usize, trials: u64, work: usize) {
        self.progress
            .begin(self.labels[index].clone(), trials, work);
    }

    fn advanced(&self, trials: u64) {
        self.progress.add(trials);
    }

    fn finished(&self, index: usize, trials: u64, seconds: f64) {
        if self.announce {
            let width = self.count.to_string().len();
            self.progress.println(&format!(
                "[{:>width$}/{}] {}: {} in {:.2} s",
                index + 1,
                self.count,
                self.labels[index],
                counted(trials, "trial", "trials"),
                seconds
            ));
        }
    }
}

/// Element moves a core makes per second, roughly, with the default tests:
/// only for the long-run warning below, never shown as a measurement.
const ROUGH_ELEMENTS_PER_CORE_SECOND: f64 = 2e7;

/// Warns (unless quiet) when the planned shuffles would take more than a
/// day at a rough engine speed, before anything runs: `-t 1e19` should not
/// start silently.
fn warn_if_long(study: &Study, quiet: bool) {
    let work: f64 = study
        .audits
        .iter()
        .filter(|a| a.is_builtin())
        .map(|a| study.until_decisive.unwrap_or(a.trials()) as f64 * a.work() as f64)
        .sum();
    let seconds = work / (ROUGH_ELEMENTS_PER_CORE_SECOND * rayon::current_num_threads() as f64);
    if seconds > 86_400.0 && !quiet {
        eprintln!(
            "warning: this run shuffles {:.1e} elements in all: at a rough {:.0e} per core and \
             second that is about {:.0} days; Ctrl-C and ask for fewer trials if that is not intended",
            work,
            ROUGH_ELEMENTS_PER_CORE_SECOND,
            seconds / 86_400.0
        );
    }
}

//! `shuffle-audit audit`: the flags read into a request (the library fills
//! in every default and refuses every bad value), the study run, shown.

use super::audit_args::AuditArgs;
use super::shard;
use super::study::{Bars, prepare};
use super::table::{table_width, wrap};
use crate::audit::Feed;
use crate::error::{Front, Opt};
use crate::experiment::record::{self, RunStart, shell_line};
use crate::ingest::samples::Base;
use crate::ingest::{CommandSpec, Format};
use crate::params::items;
use crate::report::Provenance;
use crate::request::{Chunks, Request};
use crate::study::Study;
use crate::{Error, Result};
use std::path::PathBuf;
use std::time::Duration;

pub fn run(args: &AuditArgs) -> Result<i32> {
    let study = job(args)?;
    if args.shards.in_chunks() {
        return shard::run(args, study);
    }
    prepare(&study, args.output.quiet, &args.output.export)?;
    let observer = Bars::new(&study, args.output.quiet, false);
    shard::present(&args.output, || {
        let result = study.run(&observer);
        observer.finish();
        result
    })
}

/// The one job the flags ask for: every audit with the run's α, budget,
/// notes and provenance, every bad value refused before any work starts.
fn job(args: &AuditArgs) -> Result<Study> {
    let resolved = request(args)?.resolve()?;
    if !args.output.quiet {
        for warning in &resolved.warnings {
            eprintln!("{}", wrap(&format!("warning: {warning}"), table_width()));
        }
    }
    let command = shell_line(&record::command_line());
    let mut provenance = Provenance::of(&RunStart::now(), command.clone(), vec![command]);
    for pair in &args.output.meta {
        provenance.meta.set_arg(pair)?;
    }
    Ok(resolved.study(provenance))
}

/// The flags as a request: their syntax read here, their meaning (every
/// default, every refusal) the library's.
pub(super) fn request(args: &AuditArgs) -> Result<Request> {
    let weights = given(&args.subject.weights, &args.subject.weights_file)?;
    let order = given(&args.outside.order, &args.outside.order_file)?;
    let base = match &args.outside.base {
        Some(text) => Some(Base::parse(text, Front::Cli).map_err(|e| e.about(Opt::Base))?),
        None => None,
    };
    Ok(Request {
        front: Front::Cli,
        subjects: args.subject.algorithms.clone(),
        feed: feed(args)?,
        holds: args.outside.kind,
        name: args.outside.name.clone(),
        order: order.map(|o| items(&o).map(str::to_string).collect()),
        base,
        k: None,
        n: args.subject.n,
        trials: args.run.trials,
        seed: args.run.seed,
        rng: args.run.rng.clone(),
        alpha: args.run.alpha,
        tests: args.run.tests.clone(),
        bins: args.run.bins,
        deck: args.deck.deck.clone(),
        categories: args.deck.categories.clone(),
        hand: args.deck.hand,
        weights,
        threads: args.run.threads,
        until_decisive: args.run.until_decisive,
        max_trials: args.run.max_trials,
        chunks: match (&args.shards.shard, args.shards.in_chunks()) {
            (Some(_), _) => Some(Chunks::Shard),
            (None, true) => Some(Chunks::Checkpoint),
            (None, false) => None,
        },
    })
}

/// Where an outside subject's output comes from (`--input` or `--cmd`), as
/// the flags write it; `None` when neither is given.
fn feed(args: &AuditArgs) -> Result<Option<Feed>> {
    Ok(match (&args.outside.input, &args.outside.cmd) {
        (Some(path), _) => Some(Feed::File {
            path: path.clone(),
            format: Format::parse(&args.outside.format)?,
        }),
        (None, Some(template)) => Some(Feed::Command(CommandSpec {
            template: template.clone(),
            jobs: args.outside.jobs.unwrap_or_else(rayon::current_num_threads),
            timeout: Duration::from_secs(args.outside.cmd_timeout),
        })),
        (None, None) => None,
    })
}

/// A list given on the command line, or else read from a file.
fn given(list: &Option<String>, file: &Option<PathBuf>) -> Result<Option<String>> {
    match (list, file) {
        (Some(list), _) => Ok(Some(list.clone())),
        (None, Some(path)) => std::fs::read_to_string(path)
            .map(Some)
            .map_err(|source| Error::Io {
                path: path.to_path_buf(),
                source,
            }),
        (None, None) => Ok(None),
    }
}

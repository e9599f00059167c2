//! What `audit`'s arguments ask of an outside subject and of a sequential
//! run, read the same way for shuffles and samplers: the feed (--input or
//! --cmd) and the trial budget of --until-decisive.

use super::audit_args::AuditArgs;
use shuffle_audit::ingest::Format;
use shuffle_audit::subject::Feed;
use shuffle_audit::{Error, Result};
use std::path::Path;
use std::time::Duration;

/// The per-audit trial budget of `--until-decisive`, if set (for shuffles
/// and samplers alike); refuses a budget below the first look's trials.
pub(super) fn max_trials(args: &AuditArgs, first: u64) -> Result<Option<u64>> {
    if !args.run.until_decisive {
        return Ok(None);
    }
    let max = args
        .run
        .max_trials
        .unwrap_or_else(|| first.saturating_mul(64));
    if max < first {
        return Err(Error::out_of_range(format!(
            "--max-trials ({max}) must be at least --trials ({first})"
        )));
    }
    Ok(Some(max))
}

/// Where an outside subject's output comes from (--input or --cmd), with
/// the name reports give it by default; `None` when neither is given.
/// Shared by shuffles and samplers: the same checks and notes for both.
pub(super) fn feed(args: &AuditArgs) -> Result<Option<(Feed, String)>> {
    let found = match (&args.outside.input, &args.outside.cmd) {
        (None, None) => return Ok(None),
        (Some(path), _) => {
            let format = Format::parse(&args.outside.format)?;
            let name = if path == Path::new("-") {
                "stdin".to_string()
            } else {
                if !path.is_file() {
                    return Err(Error::io(format!(
                        "--input {}: no such file",
                        path.display()
                    )));
                }
                path.file_name().map_or_else(
                    || path.display().to_string(),
                    |f| f.to_string_lossy().into(),
                )
            };
            (
                Feed::File {
                    path: path.clone(),
                    format,
                },
                name,
            )
        }
        (None, Some(template)) => {
            if args.outside.cmd_timeout == 0 {
                return Err(Error::out_of_range(
                    "--cmd-timeout must be at least 1 second (got 0)",
                ));
            }
            if template.trim().is_empty() {
                return Err(Error::bad_input("--cmd is empty"));
            }
            let jobs = args.outside.jobs.unwrap_or_else(rayon::current_num_threads);
            if jobs > 1 && !template.contains("{seed}") && !args.output.quiet {
                eprintln!(
                    "note: --cmd has no {{seed}}: the {jobs} copies get the same arguments, so a \
                     program that is deterministic without a seed prints the same output in each"
                );
            }
            (
                Feed::Command {
                    template: template.to_string(),
                    jobs,
                    timeout: Duration::from_secs(args.outside.cmd_timeout),
                },
                template.to_string(),
            )
        }
    };
    Ok(Some(found))
}

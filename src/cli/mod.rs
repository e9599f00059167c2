//! The command line (behind the default feature `cli`), kept in the
//! library so that the binary is one call ([`main`]) and what only the
//! command line uses stays private to the crate. Parsing and dispatch.
//! Exit codes: 0 ran (and, with
//! `--fail-on-bias`, nothing was biased; with `--require-pass`, every audit
//! was "no bias detected"; with `run --check`, the counts are identical); 1
//! `--fail-on-bias` found bias, `--require-pass` found an audit biased or
//! inconclusive, or `run --check` found a difference; 2 bad input or a failure to write; 130 interrupted (Ctrl-C;
//! a checkpointed run saves its counts first).

mod args;
mod audit;
mod audit_args;
mod bench;
mod color;
mod exact;
mod exact_samples;
mod interrupt;
mod list;
mod merge;
mod mixing;
mod power;
mod progress;
mod run;
mod selftest;
mod shard;
mod shown;
mod study;
mod table;
mod verdicts;

use crate::error::ErrorKind;
use args::{Cli, Command, CompletionsArgs};
use clap::{CommandFactory, Parser};

/// Exit code: a `--fail-on-bias` run found bias, or a `--require-pass` run
/// an audit that was not "no bias detected".
pub const EXIT_BIASED: i32 = 1;
/// Exit code: bad input or an error.
pub const EXIT_ERROR: i32 = 2;

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    interrupt::install();
    let cli = Cli::parse();
    color::set(cli.color);
    let result = match cli.command {
        Command::List(args) => list::run(&args),
        Command::Audit(args) => audit::run(&args.with_confidence()),
        Command::Run(args) => run::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Power(args) => power::run(&args),
        Command::Selftest(args) => selftest::run(&args),
        Command::Mixing(args) => mixing::run(&args),
        Command::Exact(args) => exact::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Completions(args) => completions(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) if err.kind() == ErrorKind::Interrupted => {
            eprintln!("\ninterrupted: {err}");
            interrupt::EXIT_INTERRUPTED
        }
        Err(err) => {
            eprintln!("{} {err}", color::error_prefix(color::stderr()));
            EXIT_ERROR
        }
    }
}

/// `completions SHELL`: the completion script on stdout.
fn completions(args: &CompletionsArgs) -> crate::Result<i32> {
    let mut command = Cli::command();
    clap_complete::generate(
        args.shell,
        &mut command,
        "shuffle-audit",
        &mut std::io::stdout(),
    );
    Ok(0)
}

//! Command-line parsing and dispatch. Exit codes: 0 ran (and, with
//! `--fail-on-bias`, nothing was biased); 1 `--fail-on-bias` found bias;
//! 2 bad input or a failure to write.

mod args;
mod audit;
mod bench;
mod list;
mod mixing;
mod power;
mod progress;
mod selftest;
mod table;

use args::{Cli, Command};
use clap::Parser;

/// Exit code: a `--fail-on-bias` run found bias.
pub const EXIT_BIASED: i32 = 1;
/// Exit code: bad input or an error.
pub const EXIT_ERROR: i32 = 2;

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::List(args) => list::run(&args),
        Command::Audit(args) => audit::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Power(args) => power::run(&args),
        Command::Selftest(args) => selftest::run(&args),
        Command::Mixing(args) => mixing::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err}");
            EXIT_ERROR
        }
    }
}

/// The exact effect of `algorithm` on `test`, where the exact module can
/// compute it; `None` means "use a pilot run".
pub fn exact_effect(
    _algorithm: shuffle_audit::algorithm::Algorithm,
    _n: usize,
    _test: shuffle_audit::spec::TestKind,
) -> shuffle_audit::Result<Option<shuffle_audit::power::Effect>> {
    Ok(None)
}

/// Part (c) of the self-test.
pub fn exact_agreement(
    _settings: &shuffle_audit::selftest::Settings,
) -> shuffle_audit::Result<Vec<shuffle_audit::selftest::Check>> {
    Ok(Vec::new())
}

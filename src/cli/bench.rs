//! `shuffle-audit bench`: speeds measured side by side, with their ratios.

use super::args::BenchArgs;
use super::table::Table;
use shuffle_audit::bench;
use shuffle_audit::params::parse_count;
use shuffle_audit::source::SourceSpec;
use shuffle_audit::{Error, Result};

/// Elements shuffled per measurement when no trial count is given.
const AUTO_WORK: u64 = 200_000_000;

/// Target for (b)/(a): the engine keeps at least this share of bare speed.
const TARGET_ENGINE_VS_BARE: f64 = 0.75;
/// Target for (c)/(b) on two cores.
const TARGET_SPEEDUP_2_CORES: f64 = 1.8;

pub fn run(args: &BenchArgs) -> Result<i32> {
    let trials = args.trials.as_deref().map(parse_count).transpose()?;
    if trials == Some(0) {
        return Err(Error::invalid("trials must be at least 1 (got 0)"));
    }
    if let Some(&n) = args.sizes.iter().find(|&&n| n < 2) {
        return Err(Error::invalid(format!(
            "n = {n} is too small: n must be at least 2"
        )));
    }
    let source = SourceSpec::parse(&args.rng)?;
    let rows = args
        .sizes
        .iter()
        .map(|&n| {
            let trials = trials.unwrap_or(AUTO_WORK / n as u64);
            bench::measure(n, trials, source, args.repeats)
        })
        .collect::<Result<Vec<_>>>()?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows).expect("JSON"));
        return Ok(0);
    }
    let mut table = Table::new(&[
        ("n", true),
        ("shuffles", true),
        ("(a) bare M/s", true),
        ("(b) engine 1 thread M/s", true),
        ("(c) engine all M/s", true),
        ("threads", true),
        ("(b)/(a)", true),
        ("(c)/(b)", true),
    ]);
    for r in &rows {
        table.push(vec![
            r.n.to_string(),
            r.trials.to_string(),
            format!("{:.2}", r.bare / 1e6),
            format!("{:.2}", r.engine_one / 1e6),
            format!("{:.2}", r.engine_all / 1e6),
            r.threads.to_string(),
            format!("{:.2}", r.engine_vs_bare()),
            format!("{:.2}", r.parallel_speedup()),
        ]);
    }
    println!(
        "Fisher-Yates, rng {source}, median of {} interleaved measurements:\n",
        args.repeats
    );
    print!("{}", table.render());
    println!(
        "\n(a) a bare Durstenfeld loop, same generator, nothing counted; (b) the audit engine \
         (shuffle + count), 1 thread; (c) the engine on all threads.\nTargets: (b)/(a) >= {TARGET_ENGINE_VS_BARE}, \
         (c)/(b) >= {TARGET_SPEEDUP_2_CORES} on 2 cores."
    );
    Ok(0)
}

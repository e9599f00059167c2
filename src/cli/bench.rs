//! `shuffle-audit bench`: speeds measured side by side, with their ratios.

use super::args::BenchArgs;
use super::table::Table;
use shuffle_audit::Result;
use shuffle_audit::bench;
use shuffle_audit::output::thousands;
use shuffle_audit::source::SourceSpec;

/// Elements shuffled per measurement when no trial count is given.
const AUTO_WORK: u64 = 200_000_000;

/// Items read per ingest measurement when no trial count is given: about
/// 0.2 s of reading per file, so the ingest part stays a few seconds.
const AUTO_INGEST_WORK: u64 = 10_000_000;

/// Ingest measurements of each kind (fewer than the engine's: each needs
/// its files read whole).
const INGEST_REPEATS: usize = 3;

/// Target for text ingest at n = 52, decks per second.
const TARGET_TEXT_52: f64 = 1e6;

/// Target for (b)/(a): the engine keeps at least this share of bare speed.
const TARGET_ENGINE_VS_BARE: f64 = 0.75;
/// Target for (c)/(b) on two cores.
const TARGET_SPEEDUP_2_CORES: f64 = 1.8;

pub fn run(args: &BenchArgs) -> Result<i32> {
    let trials = args.trials;
    let source = SourceSpec::parse(&args.rng)?;
    let rows = args
        .sizes
        .iter()
        .map(|&n| {
            let trials = trials.unwrap_or(AUTO_WORK / n as u64);
            eprintln!(
                "bench: n = {n}, {} shuffles x 3 speeds x {} repeats ...",
                thousands(trials),
                args.repeats
            );
            bench::measure(n, trials, source, args.repeats)
        })
        .collect::<Result<Vec<_>>>()?;
    let ingest = args
        .sizes
        .iter()
        .map(|&n| {
            let decks = trials.unwrap_or(AUTO_INGEST_WORK / n as u64).max(1);
            eprintln!(
                "bench: n = {n}, reading {} decks back from files ...",
                thousands(decks)
            );
            bench::measure_ingest(n, decks, source, args.repeats.min(INGEST_REPEATS))
        })
        .collect::<Result<Vec<_>>>()?;
    if args.json {
        let json = serde_json::json!({ "engine": rows, "ingest": ingest });
        println!("{}", serde_json::to_string_pretty(&json).expect("JSON"));
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
    print_ingest(&ingest, args.repeats.min(INGEST_REPEATS));
    Ok(0)
}

/// The ingest table: decks made elsewhere, read back, next to the engine.
fn print_ingest(rows: &[bench::IngestRow], repeats: usize) {
    let mut table = Table::new(&[
        ("n", true),
        ("decks", true),
        ("(c') engine all M/s", true),
        ("(d) text M/s", true),
        ("text MB/s", true),
        ("(e) u32 M/s", true),
        ("threads", true),
        ("(d)/(c')", true),
        ("(e)/(c')", true),
    ]);
    for r in rows {
        table.push(vec![
            r.n.to_string(),
            r.decks.to_string(),
            format!("{:.2}", r.engine / 1e6),
            format!("{:.2}", r.text / 1e6),
            format!("{:.0}", r.text_bytes_per_second() / 1e6),
            format!("{:.2}", r.binary / 1e6),
            r.threads.to_string(),
            format!("{:.2}", r.text_vs_engine()),
            format!("{:.2}", r.binary_vs_engine()),
        ]);
    }
    let what = if rows.iter().any(|r| r.structure) {
        "position-value and structure statistics"
    } else {
        "position-value counts"
    };
    println!(
        "\nReading decks made elsewhere (ingest), decks/s, counting what the default tests need \
         ({what}), median of {repeats}:\n"
    );
    print!("{}", table.render());
    println!(
        "\n(c') the engine (Fisher-Yates, shuffle + count) on all threads; (d) the same number \
         of Fisher-Yates decks read back from a text file, one line of integers per deck; \
         (e) read back from a u32 binary file. Files are written first (not timed) to the \
         temporary folder and removed after.\nTarget: (d) >= {:.0}M decks/s at n = 52 on 2 cores.",
        TARGET_TEXT_52 / 1e6
    );
}

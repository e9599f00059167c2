//! `shuffle-audit bench`: speeds measured side by side, with their ratios.

use super::args::BenchArgs;
use super::table::{Table, table_width, wrap};
use shuffle_audit::Result;
use shuffle_audit::bench;
use shuffle_audit::engine::chunk_trials;
use shuffle_audit::format::{counted, human_rate};
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

/// Target for the default audit on one thread, as a share of the bare loop.
const TARGET_DEFAULT_VS_BARE: f64 = 0.5;
/// Target for the position-by-value audit on one thread, as a share of the
/// bare loop.
const TARGET_POSITION_VALUE_VS_BARE: f64 = 0.75;
/// Target for all threads over one, on 2 cores, for every row.
const TARGET_SPEEDUP_2_CORES: f64 = 1.8;

pub fn run(args: &BenchArgs) -> Result<i32> {
    let trials = args.trials;
    let source = SourceSpec::parse(&args.rng)?;
    let sizes = args
        .sizes
        .iter()
        .map(|&n| {
            let trials = trials.unwrap_or_else(|| auto_trials(n)).max(1);
            eprintln!(
                "bench: n = {n}, {} x {} rows x 2 thread counts x {} ...",
                counted(trials, "shuffle", "shuffles"),
                bench::Work::ALL.len(),
                counted(args.repeats as u64, "repeat", "repeats")
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
        let json = serde_json::json!({ "engine": sizes, "ingest": ingest });
        println!("{}", serde_json::to_string_pretty(&json).expect("JSON"));
        return Ok(0);
    }
    print_engine(&sizes, source, args.repeats);
    print_ingest(&ingest, args.repeats.min(INGEST_REPEATS));
    Ok(0)
}

/// Shuffles per measurement at `n` unless told: about [`AUTO_WORK`]
/// elements, rounded up to whole rounds of chunks (a chunk per thread), so
/// that every thread has the same work. At n = 10^6 a chunk is 67
/// shuffles, and 200 shuffles (3 chunks on 2 threads) would cap the
/// speed-up at 1.5 whatever the engine does.
fn auto_trials(n: usize) -> u64 {
    let round = chunk_trials(n) * rayon::current_num_threads() as u64;
    (AUTO_WORK / n as u64).div_ceil(round) * round
}

/// The engine table: every row of every size, with its ratios and whether
/// each meets its target.
fn print_engine(sizes: &[bench::BenchSize], source: SourceSpec, repeats: usize) {
    let threads = sizes.first().map_or(1, |s| s.threads);
    let all = format!("{threads} threads");
    let mut table = Table::new(&[
        ("n", true),
        ("shuffles", true),
        ("measured", false),
        ("1 thread", true),
        (&all, true),
        ("1 thread / bare", true),
        ("speed-up", true),
        ("not parallel", true),
        ("targets", false),
    ]);
    for size in sizes {
        for r in &size.rows {
            table.push(vec![
                size.n.to_string(),
                thousands(size.trials),
                r.work.label().to_string(),
                human_rate(r.one_thread),
                human_rate(r.all_threads),
                format!("{:.3}", r.vs_bare),
                format!("{:.3}", r.speedup),
                r.serial_ms
                    .map_or_else(|| "-".to_string(), |ms| format!("{ms:.1} ms")),
                targets(r, threads).to_string(),
            ]);
        }
    }
    println!(
        "Fisher-Yates, rng {source}, median of {}:\n",
        counted(repeats as u64, "measurement", "interleaved measurements")
    );
    print!("{}", table.render());
    let mut note = String::from(
        "\nbare loop: a hand-written Durstenfeld loop, same generator, nothing counted. \
         position-value: the audit with that test alone. default audit: the audit with the \
         default tests for n, as `audit -a fisher-yates` runs it (shuffle, count, test):",
    );
    for size in sizes {
        if let Some(row) = size
            .rows
            .iter()
            .find(|r| r.work == bench::Work::DefaultAudit)
        {
            note.push_str(&format!("\n  n = {}: {}", size.n, row.tests));
        }
    }
    note.push_str(&format!(
        "\n1 thread / bare: the row's speed on one thread over the bare loop's; speed-up: \
         {threads} threads over 1; not parallel: the part of one run that did not \
         parallelise, by Amdahl's law from the two times ((threads x all - one) / (threads - \
         1): start-up, merges, final tests and any loss of scaling), what caps the speed-up \
         of short runs on many cores. Targets: 1 thread / bare >= \
         {TARGET_POSITION_VALUE_VS_BARE} for position-value and >= {TARGET_DEFAULT_VS_BARE} \
         for the default audit; speed-up >= {TARGET_SPEEDUP_2_CORES} on 2 cores, every row."
    ));
    println!("{}", wrap(&note, table_width()));
}

/// Whether a row meets its targets: "met", "missed", or "-" where none
/// applies (the bare loop's own ratio; the speed-up off 2 threads).
fn targets(row: &bench::BenchRow, threads: usize) -> &'static str {
    let vs_bare = match row.work {
        bench::Work::BareLoop => None,
        bench::Work::PositionValue => Some(TARGET_POSITION_VALUE_VS_BARE),
        bench::Work::DefaultAudit => Some(TARGET_DEFAULT_VS_BARE),
    };
    let speedup = (threads == 2).then_some(TARGET_SPEEDUP_2_CORES);
    let checks = [(vs_bare, row.vs_bare), (speedup, row.speedup)];
    let judged: Vec<bool> = checks
        .iter()
        .filter_map(|&(target, value)| target.map(|t| value >= t))
        .collect();
    match (judged.is_empty(), judged.iter().all(|&ok| ok)) {
        (true, _) => "-",
        (false, true) => "met",
        (false, false) => "missed",
    }
}

/// The ingest table: decks made elsewhere, read back, next to the engine.
fn print_ingest(rows: &[bench::IngestRow], repeats: usize) {
    let mut table = Table::new(&[
        ("n", true),
        ("decks", true),
        ("(c') engine all", true),
        ("(d) text", true),
        ("text MB/s", true),
        ("(e) u32", true),
        ("threads", true),
        ("(d)/(c')", true),
        ("(e)/(c')", true),
    ]);
    for r in rows {
        table.push(vec![
            r.n.to_string(),
            thousands(r.decks),
            human_rate(r.engine),
            human_rate(r.text),
            format!("{:.0}", r.text_bytes_per_second() / 1e6),
            human_rate(r.binary),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The default shuffles cover about `AUTO_WORK` elements in whole
    /// rounds of one chunk per thread, at small n and at large.
    #[test]
    fn auto_trials_are_whole_rounds_of_chunks() {
        let threads = rayon::current_num_threads() as u64;
        for n in [10usize, 52, 100_000, 1_000_000] {
            let trials = auto_trials(n);
            assert_eq!(trials % (chunk_trials(n) * threads), 0, "n = {n}");
            assert!(trials >= AUTO_WORK / n as u64, "n = {n}");
        }
    }
}

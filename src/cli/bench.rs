//! `shuffle-audit bench`: speeds measured side by side, with their ratios.

use super::args::BenchArgs;
use super::table::{Table, table_width, wrap};
use crate::Result;
use crate::bench;
use crate::engine::chunk_trials;
use crate::format::{counted, human_rate};
use crate::output::thousands;
use crate::source::SourceSpec;
use crate::spec::LARGE_N;

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

/// Target for the default audit on one thread, as a share of the bare
/// loop, up to `spec::LARGE_N` (issue 25).
const TARGET_DEFAULT_VS_BARE: f64 = 0.75;
/// Target for the default audit on one thread above `spec::LARGE_N`.
const TARGET_DEFAULT_VS_BARE_LARGE: f64 = 0.25;
/// Target for the position-by-value audit on one thread, as a share of the
/// bare loop.
const TARGET_POSITION_VALUE_VS_BARE: f64 = 0.75;
/// Target for all threads over one, on 2 cores, for every row.
const TARGET_SPEEDUP_2_CORES: f64 = 1.8;
/// Targets for the default audit's speed-up on 16 threads or more, up to
/// `spec::LARGE_N` and above.
const TARGET_SPEEDUP_16: f64 = 14.0;
const TARGET_SPEEDUP_16_LARGE: f64 = 12.0;
/// The most that may not parallelise on 16 threads or more, in ms: 2% of a
/// one-second audit.
const TARGET_SERIAL_MS_16: f64 = 20.0;

/// The sizes `--large` adds.
const LARGE_SIZES: [usize; 2] = [100_000, 1_000_000];
/// Elements shuffled per measurement at the large sizes when no trial
/// count is given.
const AUTO_WORK_LARGE: u64 = 20_000_000;
/// Measurements of each kind at the large sizes, at most.
const LARGE_REPEATS: usize = 3;

pub fn run(args: &BenchArgs) -> Result<i32> {
    let sources = args
        .rng
        .iter()
        .map(|name| SourceSpec::parse(name))
        .collect::<Result<Vec<_>>>()?;
    let mut sizes = args.sizes.clone();
    if args.large {
        sizes.extend(LARGE_SIZES.iter().filter(|n| !args.sizes.contains(n)));
    }
    let mut tables = Vec::new();
    for &source in &sources {
        let measured = sizes
            .iter()
            .map(|&n| {
                let trials = args.trials.unwrap_or_else(|| auto_trials(n)).max(1);
                let repeats = if n > LARGE_N {
                    args.repeats.min(LARGE_REPEATS)
                } else {
                    args.repeats
                };
                eprintln!(
                    "bench: rng {source}, n = {n}, {} x {} rows x {} x {} ...",
                    counted(trials, "shuffle", "shuffles"),
                    bench::Work::ALL.len(),
                    counted(thread_counts() as u64, "thread count", "thread counts"),
                    counted(repeats as u64, "repeat", "repeats")
                );
                bench::measure(n, trials, source, repeats)
            })
            .collect::<Result<Vec<_>>>()?;
        tables.push(measured);
    }
    let ingest = args
        .sizes
        .iter()
        .map(|&n| {
            let decks = args.trials.unwrap_or(AUTO_INGEST_WORK / n as u64).max(1);
            eprintln!(
                "bench: n = {n}, reading {} decks back from files ...",
                thousands(decks)
            );
            bench::measure_ingest(n, decks, sources[0], args.repeats.min(INGEST_REPEATS))
        })
        .collect::<Result<Vec<_>>>()?;
    if args.json {
        let json = serde_json::json!({ "engine": tables.concat(), "ingest": ingest });
        println!("{}", serde_json::to_string_pretty(&json).expect("JSON"));
        return Ok(0);
    }
    for (table, source) in tables.iter().zip(&sources) {
        print_engine(table, *source, args.repeats);
    }
    print_note(&tables.concat());
    print_ingest(&ingest, args.repeats.min(INGEST_REPEATS));
    Ok(0)
}

/// How many thread counts each row is measured on: 1, 2 (where there are
/// more) and all.
fn thread_counts() -> usize {
    match rayon::current_num_threads() {
        1 => 1,
        2 => 2,
        _ => 3,
    }
}

/// Shuffles per measurement at `n` unless told: about [`AUTO_WORK`]
/// elements, rounded up to whole rounds of chunks (a chunk per thread), so
/// that every thread has the same work. At n = 10^6 a chunk is 67
/// shuffles, and 200 shuffles (3 chunks on 2 threads) would cap the
/// speed-up at 1.5 whatever the engine does.
fn auto_trials(n: usize) -> u64 {
    let round = chunk_trials(n) * rayon::current_num_threads() as u64;
    let work = if n > LARGE_N {
        AUTO_WORK_LARGE
    } else {
        AUTO_WORK
    };
    (work / n as u64).div_ceil(round) * round
}

/// The engine table of one generator: every row of every size, with its
/// ratios and whether each meets its targets.
fn print_engine(sizes: &[bench::BenchSize], source: SourceSpec, repeats: usize) {
    let threads = sizes.first().map_or(1, |s| s.threads);
    let all = format!("{threads} threads");
    let mut columns = vec![
        ("n", true),
        ("shuffles", true),
        ("measured", false),
        ("1 thread", true),
    ];
    if threads > 2 {
        columns.push(("2 threads", true));
    }
    columns.extend([
        (all.as_str(), true),
        ("1 thread / bare", true),
        ("speed-up", true),
        ("not parallel", true),
        ("tests", true),
        ("targets", false),
    ]);
    let mut table = Table::new(&columns);
    let ms = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |ms| format!("{ms:.1} ms"));
    for size in sizes {
        for r in &size.rows {
            let mut cells = vec![
                size.n.to_string(),
                thousands(size.trials),
                r.work.label().to_string(),
                human_rate(r.one_thread),
            ];
            if threads > 2 {
                cells.push(r.two_threads.map_or_else(|| "-".to_string(), human_rate));
            }
            cells.extend([
                human_rate(r.all_threads),
                format!("{:.3}", r.vs_bare),
                format!("{:.3}", r.speedup),
                ms(r.serial_ms),
                ms(r.tests_ms),
                targets(r, size.n, threads).to_string(),
            ]);
            table.push(cells);
        }
    }
    println!(
        "Fisher-Yates, rng {source}, median of {}:\n",
        counted(repeats as u64, "measurement", "interleaved measurements")
    );
    print!("{}", table.render());
    println!();
}

/// What the engine tables' rows and columns mean, and their targets.
fn print_note(sizes: &[bench::BenchSize]) {
    let threads = sizes.first().map_or(1, |s| s.threads);
    let mut note = String::from(
        "bare loop: a hand-written Durstenfeld loop, same generator, nothing counted. \
         position-value: the audit with that test alone. default audit: the audit with the \
         default tests for n, as `audit -a fisher-yates` runs it (shuffle, count, test):",
    );
    // Each list once, with every n it is the default for (the sizes of
    // every generator's table), spaced so that a long one wraps.
    let mut lists: Vec<(Vec<usize>, &str)> = Vec::new();
    for size in sizes {
        let Some(row) = size
            .rows
            .iter()
            .find(|r| r.work == bench::Work::DefaultAudit)
        else {
            continue;
        };
        match lists.iter_mut().find(|(_, tests)| *tests == row.tests) {
            Some((ns, _)) if ns.contains(&size.n) => {}
            Some((ns, _)) => ns.push(size.n),
            None => lists.push((vec![size.n], &row.tests)),
        }
    }
    for (ns, tests) in lists {
        let ns: Vec<String> = ns.iter().map(|n| n.to_string()).collect();
        let tests = tests.replace(',', ", ");
        note.push_str(&format!("\n  n = {}: {tests}", ns.join(", ")));
    }
    note.push_str(&format!(
        "\n1 thread / bare: the row's speed on one thread over the bare loop's; speed-up: \
         {threads} threads over 1 (each ratio the median of the ratios within a round, which \
         drifts in machine speed between rounds leave alone); not parallel: the part of one run that did not \
         parallelise, by Amdahl's law from the two times ((threads x all - one) / (threads - \
         1): start-up, merges, final tests and any loss of scaling), what caps the speed-up \
         of short runs on many cores; tests: the audit's final tests on {threads} threads, \
         timed (the part of the serial tail after the counting). Targets: 1 thread / bare >= \
         {TARGET_POSITION_VALUE_VS_BARE} for position-value, >= {TARGET_DEFAULT_VS_BARE} for \
         the default audit up to n = {LARGE_N} and >= {TARGET_DEFAULT_VS_BARE_LARGE} above; \
         speed-up >= {TARGET_SPEEDUP_2_CORES} on 2 threads, every row; on 16 threads or more, \
         the default audit's speed-up >= {TARGET_SPEEDUP_16} up to n = {LARGE_N} and >= \
         {TARGET_SPEEDUP_16_LARGE} above, and not parallel <= {TARGET_SERIAL_MS_16} ms (2% \
         of a one-second audit)."
    ));
    println!("{}", wrap(&note, table_width()));
}

/// Whether a row at `n` meets its targets: "met", "missed", or "-" where
/// none applies (the bare loop's own ratio; the speed-ups on thread counts
/// without a target).
fn targets(row: &bench::BenchRow, n: usize, threads: usize) -> &'static str {
    use bench::Work;
    let large = n > LARGE_N;
    let vs_bare = match (row.work, large) {
        (Work::BareLoop, _) => None,
        (Work::PositionValue, _) => Some(TARGET_POSITION_VALUE_VS_BARE),
        (Work::DefaultAudit, false) => Some(TARGET_DEFAULT_VS_BARE),
        (Work::DefaultAudit, true) => Some(TARGET_DEFAULT_VS_BARE_LARGE),
    };
    let many = threads >= 16 && row.work == Work::DefaultAudit;
    let speedup = match (threads, large) {
        (2, _) => Some(TARGET_SPEEDUP_2_CORES),
        (_, false) if many => Some(TARGET_SPEEDUP_16),
        (_, true) if many => Some(TARGET_SPEEDUP_16_LARGE),
        _ => None,
    };
    let serial = (many && !large).then_some(TARGET_SERIAL_MS_16);
    let checks = [
        vs_bare.map(|t| row.vs_bare >= t),
        speedup.map(|t| row.speedup >= t),
        serial.map(|t| row.serial_ms.is_some_and(|ms| ms <= t)),
    ];
    let judged: Vec<bool> = checks.into_iter().flatten().collect();
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

    /// The default shuffles cover about `AUTO_WORK` elements (fewer,
    /// `AUTO_WORK_LARGE`, above `LARGE_N`) in whole rounds of one chunk per
    /// thread, at small n and at large.
    #[test]
    fn auto_trials_are_whole_rounds_of_chunks() {
        let threads = rayon::current_num_threads() as u64;
        for n in [10usize, 52, 100_000, 1_000_000] {
            let trials = auto_trials(n);
            let work = if n > LARGE_N {
                AUTO_WORK_LARGE
            } else {
                AUTO_WORK
            };
            assert_eq!(trials % (chunk_trials(n) * threads), 0, "n = {n}");
            assert!(trials >= work / n as u64, "n = {n}");
            assert!(trials < (work / n as u64).max(1) + chunk_trials(n) * threads);
        }
    }
}

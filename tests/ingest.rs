//! Decks made outside the tool, read back through every format and route,
//! must count exactly as the same decks counted directly; and every bad
//! input must be refused with its exact message.

use shuffle_audit::audit::no_progress;
use shuffle_audit::ingest::{
    self, CommandSpec, Decks, Format, Ingested, Items, Options, run_command, shares, worker_seed,
};
use shuffle_audit::shuffle::{Algorithm, Collect, OrderParts, StructureParts, Tally};
use shuffle_audit::source::{ChaCha8Source, StreamSource};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const ALL: Collect = Collect {
    permutations: true,
    structure: StructureParts::ALL,
    serial: false,
    deals: false,
    order: OrderParts::NONE,
    bins: None,
    adjacency: false,
};

/// A folder under the temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!(
            "shuffle-audit-ingest-{name}-{}-{stamp}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, file: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(file);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `count` decks of `n` from the built-in (biased) naive swap, seeded.
fn naive_swap_decks(n: usize, count: usize, seed: u64) -> Vec<Vec<u32>> {
    let mut rng = ChaCha8Source::for_stream(seed, 0);
    (0..count)
        .map(|_| {
            let mut row: Vec<u32> = (0..n as u32).collect();
            Algorithm::NaiveSwap.shuffle(&mut row, &mut rng);
            row
        })
        .collect()
}

fn direct(n: usize, decks: &[Vec<u32>], collect: Collect) -> Tally {
    let mut t = Tally::collecting(n, collect);
    for d in decks {
        t.record(d);
    }
    t
}

fn lines(
    decks: &[Vec<u32>],
    item: impl Fn(u32) -> String,
    join: &str,
    wrap: (&str, &str),
) -> String {
    decks
        .iter()
        .map(|d| {
            let items: Vec<String> = d.iter().map(|&v| item(v)).collect();
            format!("{}{}{}\n", wrap.0, items.join(join), wrap.1)
        })
        .collect()
}

fn opts(collect: Collect) -> Options<Decks> {
    Options {
        reading: Decks {
            collect,
            ..Decks::default()
        },
        ..Options::default()
    }
}

/// `options` reading decks in the starting order `order`.
fn in_order(order: Option<Vec<String>>, options: Options<Decks>) -> Options<Decks> {
    Options {
        reading: Decks {
            order,
            ..options.reading
        },
        ..options
    }
}

fn read_text(src: &str, options: &Options<Decks>) -> shuffle_audit::Result<Ingested<Tally, Items>> {
    ingest::read(src.as_bytes(), "deals.txt", options, &no_progress)
}

fn text_error(src: &str, options: &Options<Decks>) -> String {
    read_text(src, options).unwrap_err().to_string()
}

#[test]
fn every_text_spelling_gives_the_direct_tally() {
    let n = 8;
    let decks = naive_swap_decks(n, 5000, 11);
    let want = direct(n, &decks, ALL);
    let dir = TempDir::new("text");
    let labels: Vec<String> = (0..n).map(|i| format!("L{i}")).collect();
    let suits = ["AS", "KH", "2C", "10D", "QS", "7H", "JC", "3D"];
    let spellings = [
        (
            "0-based",
            lines(&decks, |v| v.to_string(), " ", ("", "")),
            None,
        ),
        (
            "1-based",
            lines(&decks, |v| (v + 1).to_string(), "\t", ("", "")),
            None,
        ),
        (
            "commas",
            lines(&decks, |v| v.to_string(), ",", ("", "")),
            None,
        ),
        (
            "json",
            lines(&decks, |v| v.to_string(), ", ", ("[", "]")),
            None,
        ),
        (
            "json strings",
            lines(
                &decks,
                |v| format!("\"{}\"", labels[v as usize]),
                ",",
                ("[", "]"),
            ),
            None,
        ),
        (
            "labels with an order",
            lines(&decks, |v| suits[v as usize].to_string(), " ", ("", "")),
            Some(suits.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
        ),
        (
            "comments and CRLF",
            format!(
                "# made by naive-swap\n\n{}",
                lines(&decks, |v| v.to_string(), " ", ("  ", " \r"))
            ),
            None,
        ),
    ];
    for (what, text, order) in spellings {
        let options = in_order(order.clone(), opts(ALL));
        let path = dir.write("deals.txt", text.as_bytes());
        let from_file = ingest::read_path(&path, &options, &no_progress).unwrap();
        assert_eq!(from_file.tally, want, "{what}");
        assert_eq!(from_file.counted, 5000, "{what}");
        assert!(!from_file.stopped_early);
        let from_reader = ingest::read(text.as_bytes(), "stdin", &options, &no_progress).unwrap();
        assert_eq!(from_reader, from_file, "{what}");
        let items = match (what, order) {
            ("1-based", _) => Items::Numeric { one_based: true },
            ("json strings", _) => Items::Labels(labels.clone()),
            (_, Some(order)) => Items::Labels(order),
            _ => Items::Numeric { one_based: false },
        };
        assert_eq!(from_file.items, items, "{what}");
    }
}

#[test]
fn labels_default_to_byte_order() {
    let got = read_text("b a c\nc b a\n", &opts(Collect::default())).unwrap();
    assert_eq!(
        got.items,
        Items::Labels(vec!["a".into(), "b".into(), "c".into()])
    );
    let want = direct(3, &[vec![1, 0, 2], vec![2, 1, 0]], Collect::default());
    assert_eq!(got.tally, want);
    // Integers that are not 0..n-1 or 1..n are labels too, in byte order.
    let got = read_text("5 10 15\n15 5 10\n", &opts(Collect::default())).unwrap();
    assert_eq!(
        got.items,
        Items::Labels(vec!["10".into(), "15".into(), "5".into()])
    );
    assert_eq!(
        got.tally,
        direct(3, &[vec![2, 0, 1], vec![1, 2, 0]], Collect::default())
    );
}

#[test]
fn every_binary_width_gives_the_direct_tally() {
    let n = 8;
    let decks = naive_swap_decks(n, 4000, 12);
    let want = direct(n, &decks, ALL);
    let dir = TempDir::new("binary");
    for format in [Format::U8, Format::U16, Format::U32] {
        for base in [0u32, 1] {
            let mut bytes = Vec::new();
            for d in &decks {
                for &v in d {
                    let v = v + base;
                    match format {
                        Format::U8 => bytes.push(v as u8),
                        Format::U16 => bytes.extend_from_slice(&(v as u16).to_le_bytes()),
                        _ => bytes.extend_from_slice(&v.to_le_bytes()),
                    }
                }
            }
            let path = dir.write("deals.bin", &bytes);
            let options = Options {
                n: Some(n),
                format,
                ..opts(ALL)
            };
            let got = ingest::read_path(&path, &options, &no_progress).unwrap();
            assert_eq!(got.tally, want, "{format} base {base}");
            assert_eq!(
                got.items,
                Items::Numeric {
                    one_based: base == 1
                }
            );
        }
    }
}

#[test]
fn naive_swap_decks_read_back_count_as_counted_directly() {
    // The biased naive swap at n = 5, with every statistic collected: the
    // file route must reproduce the bias exactly, not just approximately.
    let n = 5;
    let decks = naive_swap_decks(n, 20_000, 13);
    let dir = TempDir::new("naive");
    let path = dir.write(
        "naive.txt",
        lines(&decks, |v| v.to_string(), " ", ("", "")).as_bytes(),
    );
    let got = ingest::read_path(&path, &opts(ALL), &no_progress).unwrap();
    assert_eq!(got.tally, direct(n, &decks, ALL));
    assert_eq!(got.tally.trials(), 20_000);
}

#[test]
fn a_file_larger_than_a_block_counts_every_deck() {
    // About 10 MB: several blocks, parsed in parallel.
    let n = 52;
    let decks = naive_swap_decks(n, 70_000, 14);
    let text = lines(&decks, |v| v.to_string(), " ", ("", ""));
    assert!(text.len() > 9 << 20);
    let options = opts(Collect {
        permutations: false,
        structure: StructureParts::ALL,
        serial: false,
        deals: true,
        order: OrderParts::NONE,
        bins: None,
        adjacency: false,
    });
    let progressed = std::sync::atomic::AtomicU64::new(0);
    let progress = |k: u64| {
        progressed.fetch_add(k, std::sync::atomic::Ordering::Relaxed);
    };
    let got = ingest::read(text.as_bytes(), "big.txt", &options, &progress).unwrap();
    assert_eq!(got.tally, direct(n, &decks, options.reading.collect));
    assert_eq!(progressed.into_inner(), 70_000);
    // An error far into the file names its line.
    let mut bad: Vec<&str> = text.lines().collect();
    let line = "0 1 2";
    bad[60_000] = line;
    let bad = bad.join("\n");
    let err = ingest::read(bad.as_bytes(), "big.txt", &options, &no_progress)
        .unwrap_err()
        .to_string();
    assert_eq!(err, "big.txt:60001: expected 52 items, found 3");
}

#[test]
fn max_decks_stops_early_and_says_so() {
    let decks = naive_swap_decks(6, 100, 15);
    let text = lines(&decks, |v| v.to_string(), " ", ("", ""));
    let limited = |t| Options {
        max_records: Some(t),
        ..opts(ALL)
    };
    let got = read_text(&text, &limited(30)).unwrap();
    assert_eq!(got.counted, 30);
    assert!(got.stopped_early);
    assert_eq!(got.tally, direct(6, &decks[..30], ALL));
    let all = read_text(&text, &limited(100)).unwrap();
    assert!(!all.stopped_early, "exactly as many decks as asked for");
    let more = read_text(&text, &limited(1000)).unwrap();
    assert_eq!(more.counted, 100, "fewer decks than asked for is fine");
    assert!(!more.stopped_early);
    // Comments after the last deck are not decks.
    let trailing = format!("{text}# end\n\n");
    assert!(!read_text(&trailing, &limited(100)).unwrap().stopped_early);
    // A bad line after the limit is never read.
    let bad_after = format!("{text}0 0 0\n");
    assert!(read_text(&bad_after, &limited(100)).unwrap().stopped_early);
}

#[test]
fn bad_text_is_refused_with_its_place() {
    let o = opts(Collect::default());
    let cases = [
        ("0 1 2\n1 2\n", "deals.txt:2: expected 3 items, found 2"),
        ("AS 7H QD\nQD 7H 7H\n", "deals.txt:2: \"7H\" appears twice"),
        (
            "AS 7H QD\n\nQD ZZ AS\n",
            "deals.txt:3: \"ZZ\" is not one of the 3 items of line 1",
        ),
        (
            "0 1 2\n2 3 0\n",
            "deals.txt:2: \"3\" is not one of the 3 items of line 1",
        ),
        (
            "# header\n1 2 3\n1 2 4\n",
            "deals.txt:3: \"4\" is not one of the 3 items of line 2",
        ),
        (
            "A A B B\nA B B B\n",
            "deals.txt:2: \"B\" appears more than the 2 times it does on line 1 (every deck \
             must hold the same items; 4 in all)",
        ),
        (
            "A A\n",
            "deals.txt:1: all 2 items are \"A\": a deck needs at least 2 kinds of item",
        ),
        ("", "deals.txt: no decks found"),
        ("# only a comment\n\n", "deals.txt: no decks found"),
        (
            "7\n7\n",
            "deals.txt:1: found 1 item (\"7\"): n must be at least 2; if each line is one \
             pick of N items, add --kind pick -n N",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(text_error(src, &o), want, "{src:?}");
    }
    let with_n = Options {
        n: Some(52),
        ..o.clone()
    };
    assert_eq!(
        text_error("0 1 2\n", &with_n),
        "deals.txt:1: expected 52 items, found 3"
    );
    let ordered = in_order(Some(vec!["AS".into(), "KH".into(), "2C".into()]), o.clone());
    assert_eq!(
        text_error("AS KH 2C\nAS KH 3C\n", &ordered),
        "deals.txt:2: \"3C\" is not one of the 3 items of the starting order"
    );
    assert_eq!(
        text_error("AS KH QQ\n", &ordered),
        "deals.txt:1: \"QQ\" is not one of the 3 items of the starting order"
    );
}

#[test]
fn bad_binary_is_refused_with_its_record() {
    let options = |format| Options {
        n: Some(4),
        format,
        ..Options::default()
    };
    let read = |bytes: &[u8], format| {
        ingest::read(bytes, "deals.bin", &options(format), &no_progress)
            .unwrap_err()
            .to_string()
    };
    let mut ok: Vec<u8> = [0, 1, 2, 3, 3, 2, 1, 0].to_vec();
    assert_eq!(
        ingest::read(&ok[..], "deals.bin", &options(Format::U8), &no_progress)
            .unwrap()
            .counted,
        2
    );
    ok.extend_from_slice(&[1, 2, 9, 0]);
    assert_eq!(
        read(&ok, Format::U8),
        "deals.bin: record 3: value 9 is not one of the 4 items of record 1"
    );
    assert_eq!(
        read(&[0, 1, 2, 3, 1, 2, 1, 0], Format::U8),
        "deals.bin: record 2: 1 appears twice"
    );
    assert_eq!(
        read(&[0, 1, 2, 3, 1, 2, 3], Format::U8),
        "deals.bin: 7 bytes is not a whole number of 4-byte records"
    );
    let big = vec![0u8; 1_000_003];
    let mut big_ok = Vec::new();
    while big_ok.len() + 16 <= big.len() {
        big_ok.extend_from_slice(&[0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]);
    }
    big_ok.resize(1_000_003, 0);
    assert_eq!(
        read(&big_ok, Format::U32),
        "deals.bin: 1,000,003 bytes is not a whole number of 16-byte records"
    );
    assert!(read(&[0, 0, 1, 2], Format::U8).contains("record 1: 0 appears twice"));
    let missing_n = Options {
        format: Format::U16,
        ..Options::default()
    };
    let err = ingest::read(&[0u8, 0][..], "deals.bin", &missing_n, &no_progress)
        .unwrap_err()
        .to_string();
    assert!(err.contains("needs n"), "{err}");
    assert_eq!(Format::parse("U32").unwrap(), Format::U32);
    assert_eq!("text".parse::<Format>().unwrap().to_string(), "text");
    assert!(Format::parse("csv").is_err());
}

fn spec(template: &str, jobs: usize, timeout: Duration) -> CommandSpec {
    CommandSpec {
        template: template.to_string(),
        jobs,
        timeout,
    }
}

const MINUTE: Duration = Duration::from_secs(60);

#[test]
fn commands_count_like_files() {
    let n = 6;
    let decks = naive_swap_decks(n, 900, 16);
    let dir = TempDir::new("command");
    let text = lines(&decks, |v| v.to_string(), " ", ("", ""));
    let path = dir.write("deals.txt", text.as_bytes());
    let file = path.display().to_string();
    let want = direct(n, &decks, ALL);

    // One worker catting the file.
    let (got, runs) = run_command(
        &spec(&format!("cat '{file}'"), 1, MINUTE),
        Some(n),
        900,
        7,
        &opts(ALL),
        &no_progress,
    )
    .unwrap();
    assert_eq!(got.tally, want);
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].seed, worker_seed(7, 0));

    // Three workers, each printing every third line, with `{worker}`.
    let template = format!("awk 'NR % 3 == ({{worker}} + 1) % 3' '{file}'");
    let (got, runs) = run_command(
        &spec(&template, 3, MINUTE),
        Some(n),
        900,
        7,
        &opts(ALL),
        &no_progress,
    )
    .unwrap();
    assert_eq!(got.tally, want);
    assert_eq!(got.counted, 900);
    assert_eq!(
        runs.iter().map(|r| r.count).collect::<Vec<_>>(),
        vec![300; 3]
    );
    assert!(
        runs[2].command.contains("NR % 3 == (2 + 1) % 3"),
        "{}",
        runs[2].command
    );

    // printf, stopped at its share although it prints more.
    let (got, _) = run_command(
        &spec("printf '0 1 2\\n2 1 0\\n%.0s' $(seq 100)", 1, MINUTE),
        Some(3),
        5,
        1,
        &opts(Collect::default()),
        &no_progress,
    )
    .unwrap();
    let want = direct(
        3,
        &[
            vec![0, 1, 2],
            vec![2, 1, 0],
            vec![0, 1, 2],
            vec![2, 1, 0],
            vec![0, 1, 2],
        ],
        Collect::default(),
    );
    assert_eq!(got.tally, want);

    // An endless writer is stopped at its share.
    let start = Instant::now();
    let (got, _) = run_command(
        &spec("yes '1 2 3 4'", 2, MINUTE),
        Some(4),
        1001,
        1,
        &opts(Collect::default()),
        &no_progress,
    )
    .unwrap();
    assert_eq!(got.counted, 1001);
    assert_eq!(got.items, Items::Numeric { one_based: true });
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn seeded_commands_rerun_identically() {
    // A Fisher-Yates in awk, deterministic for its seed.
    let template = "awk -v seed={seed} -v count={count} -v n={n} 'BEGIN { srand(seed); \
        for (t = 0; t < count; t++) { for (i = 0; i < n; i++) a[i] = i; \
        for (i = n - 1; i > 0; i--) { j = int(rand() * (i + 1)); x = a[i]; a[i] = a[j]; a[j] = x } \
        line = a[0]; for (i = 1; i < n; i++) line = line \" \" a[i]; print line } }'";
    let run = |seed| {
        run_command(
            &spec(template, 3, MINUTE),
            Some(5),
            3000,
            seed,
            &opts(ALL),
            &no_progress,
        )
        .unwrap()
    };
    let (a, runs) = run(42);
    let (b, _) = run(42);
    let (c, _) = run(43);
    assert_eq!(a.tally, b.tally);
    assert_ne!(a.tally, c.tally);
    assert_eq!(a.counted, 3000);
    let seeds: Vec<u64> = runs.iter().map(|r| r.seed).collect();
    assert_eq!(
        seeds,
        (0..3).map(|w| worker_seed(42, w)).collect::<Vec<_>>()
    );
    assert!(seeds.iter().all(|&s| s < 1 << 32));
    assert!(seeds[0] != seeds[1] && seeds[1] != seeds[2]);
}

#[test]
fn shares_add_up() {
    assert_eq!(shares(10, 3), vec![4, 3, 3]);
    assert_eq!(shares(2, 4), vec![1, 1, 0, 0]);
    assert_eq!(shares(7, 1), vec![7]);
    assert_eq!(worker_seed(1, 0), worker_seed(1, 0));
    assert_ne!(worker_seed(1, 0), worker_seed(2, 0));
}

fn command_error(template: &str, jobs: usize, timeout: Duration, n: usize, trials: u64) -> String {
    run_command(
        &spec(template, jobs, timeout),
        Some(n),
        trials,
        1,
        &opts(Collect::default()),
        &no_progress,
    )
    .unwrap_err()
    .to_string()
}

#[test]
fn failing_commands_are_reported_with_their_stderr() {
    let err = command_error("echo 0 1 2; echo oops >&2; exit 3", 1, MINUTE, 3, 5);
    assert_eq!(
        err,
        "worker 0 (echo 0 1 2; echo oops >&2; exit 3): exited with status 3 after 1 deck; \
         its stderr ends:\n    oops"
    );
    let err = command_error("echo 0 1 2", 1, MINUTE, 3, 5);
    assert_eq!(
        err,
        "worker 0 (echo 0 1 2): exited with status 0 after printing only 1 of its 5 decks; \
         it wrote nothing to stderr"
    );
    let err = command_error("no-such-program-xyz {n}", 1, MINUTE, 3, 5);
    assert!(
        err.starts_with("worker 0 (no-such-program-xyz 3): exited with status 127 after 0 decks"),
        "{err}"
    );
    assert!(err.contains("not found"), "{err}");
    // A crash in the middle of a line is a crash, not a bad line.
    let err = command_error("printf '0 1 2\\n0 1'; exit 2", 1, MINUTE, 3, 5);
    assert!(err.contains("exited with status 2 after 1 deck"), "{err}");
}

#[test]
fn silent_commands_time_out() {
    let start = Instant::now();
    let err = command_error("sleep 5", 1, Duration::from_secs(1), 3, 5);
    assert_eq!(
        err,
        "worker 0 (sleep 5): no output for 1 s (--cmd-timeout); it wrote nothing to stderr"
    );
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn bad_lines_from_commands_name_worker_and_line() {
    let start = Instant::now();
    let err = command_error("printf '0 1 2\\n0 1 x\\n'; sleep 5", 1, MINUTE, 3, 5);
    assert_eq!(
        err,
        "worker 0 (printf '0 1 2\\n0 1 x\\n'; sleep 5): stdout:2: \"x\" is not one of the 3 \
         items of line 1"
    );
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "the child must be ended"
    );
    let err = command_error(
        "echo 'warning: x' >&2; echo 0 1 2; echo 0 0 1",
        1,
        MINUTE,
        3,
        5,
    );
    assert_eq!(
        err,
        "worker 0 (echo 'warning: x' >&2; echo 0 1 2; echo 0 0 1): stdout:2: \"0\" appears twice; \
         its stderr ends:\n    warning: x"
    );
    // One failing worker ends the others (which would print forever).
    let start = Instant::now();
    let err = command_error(
        "if [ {worker} = 1 ]; then echo broken >&2; exit 4; fi; yes '0 1 2' | (sleep 0.2; cat)",
        2,
        MINUTE,
        3,
        1_000_000_000,
    );
    assert!(err.starts_with("worker 1 (if [ 1 = 1 ]"), "{err}");
    assert!(err.contains("exited with status 4 after 0 decks; its stderr ends:\n    broken"));
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    // Workers must agree on the items.
    let err = command_error(
        "if [ {worker} = 1 ]; then yes '1 2 3'; else yes '0 1 2'; fi",
        2,
        MINUTE,
        3,
        100,
    );
    assert_eq!(
        err,
        "worker 1 (if [ 1 = 1 ]; then yes '1 2 3'; else yes '0 1 2'; fi): its decks hold 1..3 \
         but worker 0's hold 0..2: all workers must print the same items"
    );
}

#[test]
fn read_path_reports_missing_files() {
    let err = ingest::read_path(
        Path::new("/no/such/deals.txt"),
        &Options::default(),
        &no_progress,
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("/no/such/deals.txt: "), "{err}");
}

#[test]
fn binary_values_follow_an_explicit_order() {
    // Records of the values 3, 1, 2, 0 with the starting order 3 1 2 0: the
    // first record is the identity of that order.
    let options = in_order(
        Some(["3", "1", "2", "0"].map(String::from).to_vec()),
        Options {
            n: Some(4),
            format: Format::U8,
            ..Options::default()
        },
    );
    let got = ingest::read(
        &[3u8, 1, 2, 0, 0, 1, 2, 3][..],
        "deals.bin",
        &options,
        &no_progress,
    )
    .unwrap();
    let want = direct(4, &[vec![0, 1, 2, 3], vec![3, 1, 2, 0]], Collect::default());
    assert_eq!(got.tally, want);
    assert_eq!(got.items.label(0), "3");
    let err = ingest::read(&[3u8, 1, 2, 7][..], "deals.bin", &options, &no_progress)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "deals.bin: record 1: value 7 is not one of the 4 items of the starting order"
    );
}

#[test]
fn placeholders_are_substituted_including_the_help_spelling_of_n() {
    assert_eq!(
        ingest::substitute("p {n} {N} {count} {seed} {worker}", 52, 10, 7, 1),
        "p 52 52 10 7 1"
    );
}

/// Decks the caller read in memory (as the Python package does) are judged
/// as the same decks read from a file: the same verdict and p; the report
/// says where they came from and names no generator of ours; a produce of
/// such a feed is refused, as it has nothing to read.
#[test]
fn decks_handed_over_in_memory_are_judged_as_a_file() {
    use shuffle_audit::audit::{self, ALL_TRIALS, Feed, N_FROM_INPUT, Outside, Spec, Subject};
    use shuffle_audit::error::ErrorKind;
    use shuffle_audit::shuffle::{Reading, Shuffles};
    use shuffle_audit::source::SourceKind;
    let decks = naive_swap_decks(6, 20_000, 3);
    let text = lines(&decks, |v| v.to_string(), " ", ("", ""));
    let dir = TempDir::new("given");
    let path = dir.0.join("decks.txt");
    std::fs::write(&path, &text).unwrap();
    let spec_of = |feed: Feed| {
        let outside = Outside {
            name: "naive".to_string(),
            feed,
            reading: Reading {
                order: None,
                categories: None,
            },
        };
        Spec::<Shuffles>::new(
            Subject::Outside(outside),
            N_FROM_INPUT,
            ALL_TRIALS,
            SourceKind::Chacha8.into(),
            1,
        )
    };
    let file_spec = spec_of(Feed::File {
        path: path.clone(),
        format: Format::Text,
    });
    let from_file = audit::run(&file_spec, 0.001, &no_progress).unwrap();
    let given = Feed::Given {
        from: "handed over by a test".to_string(),
    };
    let spec = spec_of(given);
    let mut bytes = text.as_bytes();
    let in_memory =
        audit::read_given(&spec, &mut bytes, Format::Text, 0.001, false, &no_progress).unwrap();
    assert_eq!(in_memory.verdict(), from_file.verdict());
    assert_eq!(in_memory.verdict(), shuffle_audit::Verdict::Biased);
    assert_eq!(in_memory.log10_p(), from_file.log10_p());
    assert_eq!(in_memory.feed().unwrap().counted, 20_000);
    let words = in_memory.drawn_words();
    assert!(words.contains("handed over by a test"), "{words}");
    assert!(
        !spec.subject.uses_our_source(),
        "no generator of ours drew them"
    );
    let refused = audit::run(&spec, 0.001, &no_progress).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::Unsupported, "{refused}");
}

//! Block-boundary tests: they need the block size, which only the crate sees.

use super::*;
use crate::algorithm::Algorithm;
use crate::pacing::no_progress;
use crate::source::{ChaCha8Source, StreamSource};
use crate::tally::StructureParts;

fn decks(n: usize, count: usize, seed: u64) -> Vec<Vec<u32>> {
    let mut rng = ChaCha8Source::for_stream(seed, 0);
    (0..count)
        .map(|_| {
            let mut row: Vec<u32> = (0..n as u32).collect();
            Algorithm::NaiveSwap.shuffle(&mut row, &mut rng);
            row
        })
        .collect()
}

fn expected(n: usize, decks: &[Vec<u32>], collect: Collect) -> Tally {
    let mut t = Tally::collecting(n, collect);
    for d in decks {
        t.record(d);
    }
    t
}

fn text(decks: &[Vec<u32>]) -> Vec<u8> {
    let mut out = String::new();
    for (i, d) in decks.iter().enumerate() {
        if i % 7 == 3 {
            out.push_str("# a comment\n\n");
        }
        let items: Vec<String> = d.iter().map(u32::to_string).collect();
        out.push_str(&items.join(" "));
        out.push_str(if i % 2 == 0 { "\n" } else { "\r\n" });
    }
    out.into_bytes()
}

const ALL: Collect = Collect {
    permutations: true,
    structure: StructureParts::ALL,
    serial: false,
    deals: false,
    order: crate::tally::OrderParts::NONE,
    bins: None,
    adjacency: false,
};

/// Options collecting `collect`, the rest default.
fn collecting(collect: Collect) -> Options<Decks> {
    Options {
        reading: Decks {
            collect,
            ..Decks::default()
        },
        ..Options::default()
    }
}

fn read_with(bytes: &[u8], opts: &Options<Decks>, block: usize) -> Result<Ingested<Tally, Items>> {
    read_blocks(bytes, "deals.txt", opts, &no_progress, block)
}

#[test]
fn errors_name_the_global_line_across_blocks() {
    let n = 5;
    let ds = decks(n, 400, 2);
    let mut lines: Vec<String> = ds
        .iter()
        .map(|d| d.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    lines.insert(0, "# header".to_string());
    // Physical line 251 and 301 are bad; 251 must be reported.
    lines[250] = "0 1 2 3".to_string();
    lines[300] = "0 1 2 3 9".to_string();
    let bytes = (lines.join("\n") + "\n").into_bytes();
    for block in [16, 100, 4096, 1 << 20] {
        let err = read_with(&bytes, &Options::default(), block)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err, "deals.txt:251: expected 5 items, found 4",
            "block {block}"
        );
    }
    // With a limit below the bad line, the read succeeds and stops early.
    for block in [16, 100, 1 << 20] {
        let opts = Options {
            max_records: Some(249),
            ..Options::default()
        };
        let got = read_with(&bytes, &opts, block).unwrap();
        assert_eq!(got.counted, 249);
        assert!(got.stopped_early, "block {block}");
        assert_eq!(got.tally, expected(n, &ds[..249], Collect::default()));
    }
}

/// Any block size gives the tally of one line-by-line read, up to an
/// exact limit.
#[test]
fn any_block_size_gives_the_same_tally_and_an_exact_limit() {
    let n = 6;
    let ds = decks(n, 500, 3);
    let bytes = text(&ds);
    for block in [1, 8, 13, 50, 333, 1 << 20] {
        for limit in [
            None,
            Some(1u64),
            Some(17),
            Some(256),
            Some(499),
            Some(500),
            Some(501),
        ] {
            let opts = Options {
                max_records: limit,
                ..collecting(ALL)
            };
            let got = read_with(&bytes, &opts, block).unwrap();
            let k = limit.map_or(500, |limit| limit.min(500)) as usize;
            assert_eq!(got.counted, k as u64);
            assert_eq!(got.stopped_early, k < 500, "block {block} limit {limit:?}");
            assert_eq!(got.tally, expected(n, &ds[..k], ALL));
            assert_eq!(got.items, Items::Numeric { one_based: false });
        }
    }
}

#[test]
fn binary_blocks_and_limits() {
    let n = 9;
    let ds = decks(n, 700, 4);
    let mut bytes = Vec::new();
    for d in &ds {
        for &v in d {
            bytes.extend_from_slice(&(v as u16 + 1).to_le_bytes());
        }
    }
    for block in [1, 18, 1000, 1 << 20] {
        let opts = Options {
            n: Some(n),
            format: Format::U16,
            ..collecting(ALL)
        };
        let got = read_blocks(&bytes[..], "deals.bin", &opts, &no_progress, block).unwrap();
        assert_eq!(got.tally, expected(n, &ds, ALL));
        assert_eq!(got.items, Items::Numeric { one_based: true });
        let limited = Options {
            max_records: Some(300),
            ..opts.clone()
        };
        let got = read_blocks(&bytes[..], "deals.bin", &limited, &no_progress, block).unwrap();
        assert_eq!(got.tally, expected(n, &ds[..300], ALL));
        assert!(got.stopped_early);
        let mut ragged = bytes.clone();
        ragged.push(1);
        let err = read_blocks(&ragged[..], "deals.bin", &opts, &no_progress, block)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err, "deals.bin: 12,601 bytes is not a whole number of 18-byte records",
            "block {block}"
        );
    }
}

#[test]
fn the_fast_and_general_paths_agree() {
    // Lines the fast loop hands to the general path must still parse.
    let src = "[0, 1, 2]\n\"2\" \"1\" \"0\"\n  [ 1 ,0,2 ]  \r\n\t2 0 1\n";
    let got = read_with(src.as_bytes(), &Options::default(), 1 << 20).unwrap();
    let want = expected(
        3,
        &[vec![0, 1, 2], vec![2, 1, 0], vec![1, 0, 2], vec![2, 0, 1]],
        Collect::default(),
    );
    assert_eq!(got.tally, want);
    // `07` is not the item 7, and `1 ] 2` is not a deck.
    for (line, problem) in [
        ("0 1 02", "\"02\" is not one of the 3 items of line 1"),
        ("0 1 ] 2", "expected 3 items, found 4"),
        ("0 1 2a", "\"2a\" is not one of the 3 items of line 1"),
    ] {
        let src = format!("0 1 2\n{line}\n");
        let err = read_with(src.as_bytes(), &Options::default(), 1 << 20)
            .unwrap_err()
            .to_string();
        assert_eq!(err, format!("deals.txt:2: {problem}"));
    }
}

#[test]
fn marks_clear_when_the_stamps_wrap() {
    let mut marks = driver::Marks::new(3);
    let first = marks.next();
    marks.seen[1] = first;
    // Run the stamps round to `first` again: item 1 must not look seen.
    marks.skip_to(u32::MAX);
    let stamp = marks.next();
    assert_eq!(stamp, first);
    assert_ne!(marks.seen[1], stamp);
}

/// A point a read reached, with what it had found and counted then.
type Point<T, M> = (ReadPoint, Option<(M, T)>);

/// Every point a read reached.
pub(super) struct Points<T, M>(std::sync::Mutex<Vec<Point<T, M>>>);

impl<T, M> Default for Points<T, M> {
    fn default() -> Self {
        Self(std::sync::Mutex::new(Vec::new()))
    }
}

impl<T, M> Points<T, M> {
    pub(super) fn take(&self) -> Vec<Point<T, M>> {
        std::mem::take(&mut self.0.lock().unwrap())
    }
}

impl<T: Send, M: Send> Saver<T, M> for Points<T, M> {
    fn reached(&self, point: ReadPoint, so_far: &dyn Fn() -> Option<(M, T)>) -> Result<()> {
        self.0.lock().unwrap().push((point, so_far()));
        Ok(())
    }
}

/// A read resumed from any point a saver was told, with what was found
/// and counted by then, adds up to one uninterrupted read: numbered decks,
/// labels, a deck whose items repeat, binary records, with and without a
/// limit. A bad line after the point is named by its line in the file.
#[test]
fn a_read_resumed_at_any_saved_point_counts_what_one_read_counts() {
    let n = 6;
    let rows = decks(n, 400, 3);
    let labelled = |names: [&str; 6]| -> Vec<u8> {
        let mut out = String::from("# header\n");
        for row in &rows {
            let items: Vec<&str> = row.iter().map(|&v| names[v as usize]).collect();
            out.push_str(&items.join(" "));
            out.push('\n');
        }
        out.into_bytes()
    };
    let text_opts = |max_records| Options {
        max_records,
        ..collecting(ALL)
    };
    let u8_opts = |max_records| Options {
        n: Some(n),
        format: Format::U8,
        max_records,
        ..collecting(ALL)
    };
    let records: Vec<u8> = rows.iter().flatten().map(|&v| v as u8 + 1).collect();
    let shoe_opts = |max_records| Options {
        max_records,
        ..Options::default()
    };
    type OptionsFor<'a> = &'a dyn Fn(Option<u64>) -> Options<Decks>;
    let cases: [(&str, Vec<u8>, OptionsFor); 4] = [
        ("numbered", text(&rows), &text_opts),
        (
            "labels",
            labelled(["AS", "KH", "x", "QD", "7C", "b"]),
            &text_opts,
        ),
        ("shoe", labelled(["A", "A", "B", "B", "C", "C"]), &shoe_opts),
        ("u8", records, &u8_opts),
    ];
    for (name, input, opts) in cases {
        for limit in [None, Some(333)] {
            let opts = opts(limit);
            fn read_from(
                input: &[u8],
                opts: &Options<Decks>,
                resume: Resume<'_>,
            ) -> Result<Ingested<Tally, Items>> {
                let opts = Options {
                    max_records: opts.max_records.map(|m| m - resume.at.counted),
                    ..opts.clone()
                };
                let rest = &input[resume.at.bytes as usize..];
                read_resumable(rest, "x", &opts, &no_progress, 64, resume)
            }
            let points = Points::default();
            let saving = Resume {
                saver: Some(&points),
                ..Resume::default()
            };
            let whole = read_from(&input, &opts, saving).unwrap();
            assert_eq!(
                whole,
                read_blocks(&input[..], "x", &opts, &no_progress, 64).unwrap()
            );
            let points = points.take();
            assert!(points.len() > 3, "{name}: {} points", points.len());
            for (at, so_far) in points {
                let (items, before) = so_far.expect("decks are counted from the first");
                assert_eq!(items, whole.items, "{name}");
                let resume = Resume {
                    at,
                    before: Some((&items, &before)),
                    saver: None,
                };
                let rest = read_from(&input, &opts, resume).unwrap();
                let mut all = before.clone();
                all.merge(&rest.tally);
                assert_eq!(all, whole.tally, "{name} from {at:?}");
                assert_eq!(at.counted + rest.counted, whole.counted, "{name}");
                assert_eq!(rest.stopped_early, whole.stopped_early, "{name}");
            }
        }
    }
    // Lines are numbered on from the point.
    let mut bad = text(&rows);
    bad.extend_from_slice(b"0 1 2 3 4 4\n");
    let whole = read_blocks(&bad[..], "x", &text_opts(None), &no_progress, 64).unwrap_err();
    let points = Points::default();
    let resume = Resume {
        saver: Some(&points),
        ..Resume::default()
    };
    let read = read_resumable(&bad[..], "x", &text_opts(None), &no_progress, 64, resume);
    assert_eq!(read.unwrap_err().to_string(), whole.to_string());
    for (at, so_far) in points.take() {
        let (items, before) = so_far.unwrap();
        let resume = Resume {
            at,
            before: Some((&items, &before)),
            saver: None,
        };
        let rest = &bad[at.bytes as usize..];
        let err = read_resumable(rest, "x", &text_opts(None), &no_progress, 64, resume);
        assert_eq!(err.unwrap_err().to_string(), whole.to_string());
    }
}

#[test]
fn a_byte_order_mark_before_the_first_deck_is_not_an_item() {
    // Some editors start a UTF-8 file with a BOM: the first deck once read
    // as labels ("\u{feff}6"), and the second line was blamed.
    let d = decks(6, 40, 9);
    let plain = text(&d);
    let mut marked = b"\xEF\xBB\xBF".to_vec();
    marked.extend_from_slice(&plain);
    let opts = collecting(ALL);
    let read = read_with(&marked, &opts, 1 << 20).unwrap();
    assert_eq!(read.counted, 40);
    assert_eq!(read.tally, expected(6, &d, ALL));
}

/// A reader giving at most `sizes[i]` bytes at its i-th read (cycling), as
/// a pipe gives a program's output: in pieces cut by timing alone.
struct Trickle<'a> {
    bytes: &'a [u8],
    sizes: &'a [usize],
    reads: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let size = self.sizes[self.reads % self.sizes.len()];
        let k = size.min(buf.len()).min(self.bytes.len());
        buf[..k].copy_from_slice(&self.bytes[..k]);
        self.bytes = &self.bytes[k..];
        self.reads += 1;
        Ok(k)
    }
}

/// A program's output, read as the command runner reads it (eager blocks,
/// cut wherever a read ends), is one stream of deals: the serial counts,
/// and so every count, are those of its decks counted in one piece, however
/// the pipe's reads cut it, up to an exact limit. As blocks of their own,
/// the pieces would have broken the triples at places timing chose.
#[test]
fn a_programs_output_is_one_stream_however_its_pipe_is_read() {
    let n = 5;
    let mut ds = decks(n, 301, 5);
    // A dealer that repeats some decks, which the serial counts see.
    for i in (10..ds.len()).step_by(13) {
        ds[i] = ds[i - 1].clone();
    }
    let collect = Collect {
        serial: true,
        ..ALL
    };
    let opts = collecting(collect);
    let plan = Plan::new(&opts).unwrap();
    let bytes = text(&ds);
    let whole = |k: usize| {
        let mut counter = crate::tally::Counter::new(n, collect);
        let flat: Vec<u32> = ds[..k].iter().flatten().copied().collect();
        counter.count_batch(&flat);
        counter.finish()
    };
    let sizes: [&[usize]; 5] = [&[1 << 20], &[1], &[7, 300, 2], &[64, 13, 5000, 1], &[11]];
    for limit in [301u64, 250, 4] {
        let expected = whole(limit as usize);
        assert_eq!(
            expected.serial().unwrap().total(),
            limit / 3,
            "whole triples"
        );
        for sizes in sizes {
            let reader = Trickle {
                bytes: &bytes,
                sizes,
                reads: 0,
            };
            let mut src = Chunker::new(reader, driver::EAGER_BLOCK, None, true);
            let got = ingest(
                &mut src,
                "stdout",
                &opts,
                &plan,
                limit,
                Streams::Whole,
                false,
                &no_progress,
                Resume::default(),
            )
            .unwrap_or_else(|f| panic!("{}", f.error));
            assert_eq!(got.counted, limit);
            assert_eq!(got.tally, expected, "reads of {sizes:?}, limit {limit}");
        }
    }
    // The repeats lean ahead: the next deal matches more.
    let serial = whole(ds.len()).serial().unwrap().clone();
    assert!(serial.sum() > 0, "{serial:?}");
}

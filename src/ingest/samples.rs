//! Samples made outside the tool (lottery draws, audit samples, cohort
//! assignments, weighted picks), counted into a [`SampleTally`] by the same
//! counter as the built-in samplers, so an outside sample's tests mean
//! exactly what a built-in sampler's mean.
//!
//! # The text format
//!
//! One sample per line: k distinct integer items of the population,
//! separated by whitespace and/or commas, with the same optional `[` `]`,
//! `"` quotes, blank lines and `#` comments as decks (see the module
//! [`crate::ingest`]). k is the first sample's item count and every later
//! sample must have k items; a pick ([`SampleKind::Pick`]) is a sample of
//! one item. The order inside a line is not used (lottery results are
//! usually printed sorted), so no order test runs, unless the lines are
//! declared ordered ([`SampleKind::Ordered`]: each item in the order drawn),
//! when the item-by-slot counts are tested too. Leading zeros are fine
//! (`07` is 7: draws are often printed that way).
//!
//! # 0-based or 1-based
//!
//! The population is N items, written 0..N−1 or 1..N (a 6-of-49 lottery
//! writes 1..49). [`Samples::base`] fixes it; otherwise the first
//! sample holding 0 or N decides (both in one input is an error: that is
//! N + 1 items), and samples read before it are held back until it does. An
//! input holding neither is refused with a request to say `--base`: guessing
//! would call the item never seen "never drawn".
//!
//! # Errors
//!
//! As for decks: the first bad line stops the read with its place and
//! problem (`draws.txt:17: item 50 is not in 1..49`, `draws.txt:3: 12
//! appears twice`, `draws.txt:9: expected 6 items, found 5`), and no tally
//! is returned with an error.

use super::command::{self, CommandSpec, Unit, WorkerRun, worker_runs};
use super::driver::{BLOCK, Chunker, Fail, Marks, Source, Truncated};
use super::text::{count_lines, deck_body, deck_lines, tokens};
use super::{Format, Ingested, Options, ReadPoint, Resume, with_input};
use crate::error::{Error, Front, Opt, Result};
use crate::format::thousands;
use crate::pacing::Progress;
use crate::tally::sample::{SampleCounter, SampleTally};
use std::io::Read;
use std::path::Path;

/// What each line of an outside sampler's output holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SampleKind {
    /// k distinct items of the population (k from the first line), in no
    /// particular order.
    Sample,
    /// k distinct items in the order they were drawn (first prize, second
    /// prize, ...): also tested for which item comes at which slot.
    Ordered,
    /// One item (a weighted or uniform pick).
    Pick,
}

impl SampleKind {
    /// The name used on the command line: `sample`, `ordered`, `pick`.
    pub fn name(self) -> &'static str {
        match self {
            SampleKind::Sample => "sample",
            SampleKind::Ordered => "ordered",
            SampleKind::Pick => "pick",
        }
    }

    /// Whether the order of the items in a line is the sampler's: then each
    /// item's slot is counted and tested too.
    pub fn ordered(self) -> bool {
        self == SampleKind::Ordered
    }
}

/// How items are numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Base {
    /// Items 0..N−1.
    Zero = 0,
    /// Items 1..N.
    One = 1,
}

impl Base {
    /// The base for `--base 0|1` (`base = 0` in an experiment file,
    /// `base=0` in Python, ...), refused in the words of `front`.
    pub fn parse(text: &str, front: Front) -> Result<Base> {
        match text.trim() {
            "0" => Ok(Base::Zero),
            "1" => Ok(Base::One),
            other => Err(Error::out_of_range(format!(
                "{}: items are numbered from 0 or from 1",
                Opt::Base.spelled(front, &format!("'{other}'"))
            ))
            .about(Opt::Base)),
        }
    }

    /// 0 or 1.
    pub fn offset(self) -> u64 {
        self as u64
    }

    /// `0..48` or `1..49` for a population of `n`.
    pub fn describe(self, n: usize) -> String {
        let first = self.offset();
        format!("{first}..{}", first + n as u64 - 1)
    }
}

/// What a read of samples adds to [`Options`] (whose `n` is the population
/// size N, required, and whose format must be text): what each line holds
/// and how its items are numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Samples {
    /// Samples or picks.
    pub kind: SampleKind,
    /// How items are numbered; `None` lets the input decide.
    pub base: Option<Base>,
    /// Whether N is the number of weights given (a weighted pick): an item
    /// outside the population then says how short the weights list is
    /// rather than only that the item is out of range.
    pub weighted: bool,
    /// Items per sample when the request declared them (a sampler
    /// function's k): every line must hold that many, the first one too.
    /// `None` takes k from the first line. Ignored for picks (one item).
    pub k: Option<usize>,
}

/// Reads samples from `reader` (named `name` in messages) and counts them;
/// `progress` receives sample counts as blocks are counted.
pub fn read_samples(
    reader: impl Read,
    name: &str,
    opts: &Options<Samples>,
    progress: Progress<'_>,
) -> Result<Ingested<SampleTally, Base>> {
    let n = check(opts)?;
    let limit = opts.limit(Unit::SAMPLE)?;
    let mut src = Chunker::new(reader, BLOCK, None, false);
    let resume = Resume::default();
    read_source(&mut src, name, opts, n, limit, true, progress, resume).map_err(|f| f.error)
}

/// [`read_samples`] from a file, or from stdin when `path` is `-`.
pub fn read_samples_path(
    path: &Path,
    opts: &Options<Samples>,
    progress: Progress<'_>,
) -> Result<Ingested<SampleTally, Base>> {
    with_input(path, |reader, name| {
        read_samples(reader, name, opts, progress)
    })
}

/// [`read_samples_path`] of a file (not stdin) from `resume.at`, a point
/// an earlier read of the same file reached (see [`super::Saver`]): the
/// file is opened at that byte, lines are numbered on from there, and the
/// samples before it count towards [`Options::max_records`]. The samples
/// are read with the numbering and k the earlier read found
/// (`resume.before`: its base and counts), since the lines that decided
/// them are not read again. `resume.saver` is told how far the read has
/// got after every block (while the numbering is still open, that nothing
/// can be counted yet). The tally holds this read's samples only.
pub fn read_samples_path_from(
    path: &Path,
    opts: &Options<Samples>,
    resume: Resume<'_, SampleTally, Base>,
    progress: Progress<'_>,
) -> Result<Ingested<SampleTally, Base>> {
    let n = check(opts)?;
    if let Some((_, before)) = resume.before
        && before.n() != n
    {
        return Err(Error::bad_input(format!(
            "the samples read before are of N = {}, not N = {n}",
            before.n()
        )));
    }
    let (file, opts) = super::open_at(path, resume.at, opts)?;
    let limit = opts.limit(Unit::SAMPLE)?;
    let mut src = Chunker::new(file, BLOCK, None, false);
    let name = path.display().to_string();
    read_source(&mut src, &name, &opts, n, limit, true, progress, resume).map_err(|f| f.error)
}

/// Runs `cmd.jobs` copies of a sampler program and counts `trials` samples
/// from their stdout, with the rules of [`command::run_command`] (shares,
/// seeds, timeouts, stderr in messages). The workers must agree on the
/// base and on k.
pub fn run_sample_command(
    cmd: &CommandSpec,
    opts: &Options<Samples>,
    trials: u64,
    seed: u64,
    progress: Progress<'_>,
) -> Result<(Ingested<SampleTally, Base>, Vec<WorkerRun>)> {
    let n = check(opts)?;
    crate::values::check_trials(trials)?;
    if cmd.template.trim().is_empty() {
        return Err(Error::bad_input("the command is empty"));
    }
    let runs = worker_runs(cmd, n, trials, seed);
    let read = |src: &mut dyn Source, count: u64| {
        read_source(
            src,
            "stdout",
            opts,
            n,
            count,
            false,
            progress,
            Resume::default(),
        )
    };
    let mut results = command::run_workers(cmd, &runs, None, Unit::SAMPLE, &read)?.into_iter();
    let mut first = (results.next()).ok_or_else(|| Error::out_of_range("no worker ran"))?;
    for (run, result) in runs.iter().skip(1).zip(results) {
        let (k, k0) = (result.tally.k(), first.tally.k());
        if result.items != first.items || k != k0 {
            return Err(Error::bad_input(format!(
                "worker {} ({}): its samples are {k} of {} but worker 0's are {k0} of {}: all \
                 workers must print the same kind of sample",
                run.worker,
                run.command,
                result.items.describe(n),
                first.items.describe(n),
            )));
        }
        first.tally.merge(&result.tally);
        first.counted += result.counted;
    }
    Ok((first, runs))
}

/// Checks `opts` before anything is read, returning N.
fn check(opts: &Options<Samples>) -> Result<usize> {
    text_only(opts.format)?;
    let Some(n) = opts.n else {
        return Err(Error::unsupported(
            "samples are read for a population of N items: N must be given (--n)",
        ));
    };
    crate::values::check_n(n)?;
    Ok(n)
}

/// Refuses a binary format: samples are read as text.
pub(crate) fn text_only(format: Format) -> Result<()> {
    if format == Format::Text {
        return Ok(());
    }
    Err(Error::unsupported(format!(
        "samples are read as text (one per line), not as {format} records"
    )))
}

/// The reading state: what the first lines fixed, the samples held back
/// until the base is known, and the counter.
struct Reader<'a> {
    opts: &'a Samples,
    /// The population size N.
    n: usize,
    k: Option<usize>,
    base: Option<Base>,
    /// Samples (as written) not yet counted, k per sample: those read
    /// before the base was known.
    held: Vec<u64>,
    counter: Option<SampleCounter>,
    marks: Marks,
    sample: Vec<u64>,
    zero_based: Vec<u32>,
    count: u64,
}

impl Reader<'_> {
    /// Parses one sample line's body; `Err` is the problem.
    fn line(&mut self, body: &[u8]) -> std::result::Result<(), String> {
        let n = self.n as u64;
        self.sample.clear();
        let stamp = self.marks.next();
        for token in tokens(body) {
            let text = String::from_utf8_lossy(token);
            let value = match token.iter().all(u8::is_ascii_digit) {
                true if token.len() <= 19 => text.parse::<u64>().ok(),
                _ => None,
            };
            let Some(value) = value else {
                return Err(format!(
                    "'{text}' is not an item number (a whole number ≥ 0)"
                ));
            };
            let (low, high) = match self.base {
                Some(base) => (base.offset(), base.offset() + n - 1),
                None => (0, n),
            };
            if value < low || value > high {
                // Past the last weight, or item 0 of picks the input
                // numbered from 1: the weights list may be short. Item 0
                // where the user said the picks count from 1 is simply not
                // one of them.
                let given_base = self.opts.base.is_some();
                if self.opts.weighted && (value > high || !given_base) {
                    return Err(weights_short(value, self.base, n));
                }
                return Err(format!(
                    "item {value} is not in {}",
                    match self.base {
                        Some(base) => base.describe(self.n),
                        None => format!("0..{n} (N = {n} items, numbered from 0 or from 1)"),
                    }
                ));
            }
            let seen = &mut self.marks.seen[value as usize];
            if *seen == stamp {
                return Err(format!("{value} appears twice"));
            }
            *seen = stamp;
            self.sample.push(value);
        }
        let k = match (self.k, self.opts.kind) {
            (Some(k), _) => k,
            (None, SampleKind::Pick) => 1,
            (None, SampleKind::Sample | SampleKind::Ordered) => self.sample.len(),
        };
        if self.sample.len() != k {
            return Err(match self.opts.kind {
                SampleKind::Pick => {
                    format!("expected one item (a pick), found {}", self.sample.len())
                }
                SampleKind::Sample | SampleKind::Ordered if self.opts.k == Some(k) => format!(
                    "expected {k} items (k = {k}, as declared), found {}",
                    self.sample.len()
                ),
                SampleKind::Sample | SampleKind::Ordered => format!(
                    "expected {k} items (as on the first sample line), found {}",
                    self.sample.len()
                ),
            });
        }
        self.k = Some(k);
        if self.base.is_none() {
            let (zero, top) = (self.sample.contains(&0), self.sample.contains(&n));
            self.base = match (zero, top) {
                (true, true) => {
                    return Err(format!(
                        "holds both 0 and {n}: that is {} items, but N = {n}",
                        n + 1
                    ));
                }
                (true, false) => Some(Base::Zero),
                (false, true) => Some(Base::One),
                (false, false) => None,
            };
        }
        self.held.extend_from_slice(&self.sample);
        if let Some(base) = self.base {
            self.release(base);
        }
        self.count += 1;
        Ok(())
    }

    /// What the read has found out and counted, once the base is known
    /// (before, samples are held back uncounted).
    fn so_far(&self) -> Option<(Base, SampleTally)> {
        Some((self.base?, self.counter.as_ref()?.so_far().clone()))
    }

    /// Counts the held samples once the base is known: the line just read,
    /// and those held back before, which hold only items 1..N−1 (a 0 or an
    /// N would have decided), valid in either base.
    fn release(&mut self, base: Base) {
        let k = self.k.unwrap_or(1);
        let mut held = std::mem::take(&mut self.held);
        for sample in held.chunks(k) {
            self.push(sample, base);
        }
        held.clear();
        self.held = held;
    }

    fn push(&mut self, sample: &[u64], base: Base) {
        let (n, k) = (self.n, self.k.unwrap_or(1));
        let counter = self
            .counter
            .get_or_insert_with(|| SampleCounter::new(n, k, self.opts.kind.ordered()));
        self.zero_based.clear();
        self.zero_based
            .extend(sample.iter().map(|&v| (v - base.offset()) as u32));
        counter.count(&self.zero_based);
    }
}

/// The problem with a pick of `value`, outside the `n` items of a weighted
/// pick numbered from `base` (if known yet): the weights list, one weight
/// per item, is too short for the items picked.
fn weights_short(value: u64, base: Option<Base>, n: u64) -> String {
    let (items, needed) = match base {
        Some(Base::One) if value == 0 => (format!("0..{n}"), n + 1),
        Some(Base::Zero) => (format!("0..{value}"), value + 1),
        Some(Base::One) => (format!("1..{value}"), value),
        None => (format!("up to {value}"), value),
    };
    let short = match needed - n {
        1 => "one".to_string(),
        more => more.to_string(),
    };
    format!(
        "item {value}: picks of {items} need {needed} weights, one per item, but {n} were \
         given: the weights list is {short} short"
    )
}

/// Reads a whole source of sample lines, counting at most `limit`; with
/// `probe_more`, looks past the limit for another sample line. `resume`
/// says where the source starts in its input and what was read before it,
/// and who is told how far the read has got after each block.
#[allow(clippy::too_many_arguments)]
fn read_source(
    src: &mut dyn Source,
    name: &str,
    opts: &Options<Samples>,
    n: usize,
    limit: u64,
    probe_more: bool,
    progress: Progress<'_>,
    resume: Resume<'_, SampleTally, Base>,
) -> std::result::Result<Ingested<SampleTally, Base>, Fail> {
    let ordered = opts.reading.kind.ordered();
    let mut reader = Reader {
        opts: &opts.reading,
        n,
        // A resumed read goes on with the base and k read before; a
        // declared k holds from the first line.
        k: resume
            .before
            .map(|(_, tally)| tally.k())
            .or(match opts.reading.kind {
                SampleKind::Pick => None,
                SampleKind::Sample | SampleKind::Ordered => opts.reading.k,
            }),
        base: resume
            .before
            .map_or(opts.reading.base, |(base, _)| Some(*base)),
        held: Vec::new(),
        counter: resume
            .before
            .map(|(_, tally)| SampleCounter::new(n, tally.k(), ordered)),
        marks: Marks::new(n + 1),
        sample: Vec::new(),
        zero_based: Vec::new(),
        count: 0,
    };
    let mut line_number = resume.at.units;
    let mut bytes = resume.at.bytes;
    let mut stopped_early = false;
    'blocks: while let Some(block) = src
        .next_block()
        .map_err(|e| Fail::io(name, e, reader.count))?
    {
        let before = reader.count;
        let lines = count_lines(&block);
        for (at, line) in deck_lines(&block) {
            if reader.count >= limit {
                stopped_early = true;
                break 'blocks;
            }
            if let Err(problem) = reader.line(deck_body(line).unwrap_or_default()) {
                return Err(Fail {
                    error: Error::bad_input(format!("{name}:{}: {problem}", line_number + at)),
                    decks: reader.count,
                    truncated: if at == lines && !block.ends_with(b"\n") {
                        Truncated::MidDeck
                    } else {
                        Truncated::No
                    },
                });
            }
        }
        line_number += lines;
        if reader.count > before {
            progress(reader.count - before);
        }
        if reader.count >= limit && !probe_more {
            break;
        }
        bytes += block.len() as u64;
        if let Some(saver) = resume.saver
            && reader.count < limit
        {
            let point = ReadPoint {
                bytes,
                units: line_number,
                counted: resume.at.counted + reader.count,
            };
            saver
                .reached(point, &|| reader.so_far())
                .map_err(|error| Fail::after(error, reader.count))?;
        }
    }
    if reader.count == 0 && resume.before.is_none() {
        return Err(Fail::none_found(name, Unit::SAMPLE));
    }
    let Some(base) = reader.base else {
        return Err(Fail {
            decks: reader.count,
            // A program that stopped short is reported as such, not for
            // the base its few samples left open.
            truncated: if reader.count < limit && !probe_more {
                Truncated::Empty
            } else {
                Truncated::No
            },
            error: Error::bad_input(format!(
                "{name}: cannot tell whether the items are 0..{} or 1..{}: neither 0 nor {} appears \
             in its {} samples; say which base they are numbered from (0 or 1)",
                n - 1,
                n,
                n,
                thousands(reader.count)
            ))
            .about(Opt::Base),
        });
    };
    let tally = reader.counter.take().expect("a counted sample").finish();
    Ok(Ingested {
        tally,
        counted: reader.count,
        items: base,
        stopped_early,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pacing::no_progress;
    use std::time::Duration;

    fn opts(n: usize, kind: SampleKind) -> Options<Samples> {
        Options {
            n: Some(n),
            format: Format::Text,
            max_records: None,
            reading: Samples {
                kind,
                base: None,
                weighted: false,
                k: None,
            },
        }
    }

    fn with_base(base: Base, opts: Options<Samples>) -> Options<Samples> {
        Options {
            reading: Samples {
                base: Some(base),
                ..opts.reading
            },
            ..opts
        }
    }

    fn read(text: &str, opts: &Options<Samples>) -> Result<Ingested<SampleTally, Base>> {
        read_samples(text.as_bytes(), "draws.txt", opts, &no_progress)
    }

    fn error(text: &str, opts: &Options<Samples>) -> String {
        read(text, opts).unwrap_err().to_string()
    }

    #[test]
    fn lottery_lines_are_counted_one_based_with_comments_and_leading_zeros() {
        let text = "# draw history\n3 17 22 41 45 49\n\n[01, 02, 03, 04, 05, 06]\n7,8,9,10,11,12\n";
        let got = read(text, &opts(49, SampleKind::Sample)).unwrap();
        assert_eq!(got.items, Base::One);
        assert_eq!(
            (got.tally.n(), got.tally.k(), got.tally.trials()),
            (49, 6, 3)
        );
        assert_eq!(got.counted, 3);
        let inclusion = got.tally.inclusion();
        assert_eq!(inclusion[48], 1, "49 is item 48");
        assert_eq!(inclusion[0], 1, "01 is item 0");
        assert_eq!(inclusion.iter().sum::<u64>(), 18);
        assert!(got.tally.pairs().is_some());
    }

    #[test]
    fn held_samples_are_counted_once_the_base_is_known() {
        // The first two lines hold neither 0 nor 5: they wait for line 3.
        let text = "1 2\n3 4\n0 1\n";
        let got = read(text, &opts(5, SampleKind::Sample)).unwrap();
        assert_eq!(got.items, Base::Zero);
        assert_eq!(got.tally.inclusion(), &[1, 2, 1, 1, 1]);
        let one = read("1 2\n3 4\n5 1\n", &opts(5, SampleKind::Sample)).unwrap();
        assert_eq!(one.items, Base::One);
        assert_eq!(one.tally.inclusion(), &[2, 1, 1, 1, 1]);
    }

    #[test]
    fn bad_lines_name_their_place_and_problem() {
        let six = opts(49, SampleKind::Sample);
        for (text, want) in [
            ("1 2 3 4 5 6\n1 2 3 4 5\n", "draws.txt:2: expected 6 items"),
            ("1 2 3 4 5 6\n1 2 3 4 5 5\n", "draws.txt:2: 5 appears twice"),
            (
                "1 2 3 4 5 6\n1 2 3 4 5 50\n",
                "draws.txt:2: item 50 is not in 0..49 (N = 49 items",
            ),
            ("1 2 3 4 5 x\n", "draws.txt:1: 'x' is not an item number"),
            ("1 2 3 4 5 -6\n", "draws.txt:1: '-6' is not an item number"),
            ("0 2 3 4 5 49\n", "draws.txt:1: holds both 0 and 49"),
            ("\n# nothing\n", "draws.txt: no samples found"),
            (
                "2 3 4 5 6 7\n",
                "say which base they are numbered from (0 or 1)",
            ),
        ] {
            let got = error(text, &six);
            assert!(got.contains(want), "{text:?}: {got}");
        }
        let pick = opts(3, SampleKind::Pick);
        assert!(error("0\n1 2\n", &pick).contains("draws.txt:2: expected one item (a pick)"));
        let zero = with_base(Base::Zero, opts(3, SampleKind::Pick));
        assert!(error("0\n3\n", &zero).contains("draws.txt:2: item 3 is not in 0..2"));
        assert!(
            error("1 2 3 4\n", &opts(3, SampleKind::Sample))
                .contains("draws.txt:1: item 4 is not in 0..3")
        );
    }

    #[test]
    fn a_declared_k_holds_from_the_first_line() {
        // A sampler function declared k = 3 but drew 2: refused at the
        // first line, naming it and the k declared (this once reached the
        // counts as k = 2, or a panic when chunks of k = 2 and 3 merged).
        for kind in [SampleKind::Sample, SampleKind::Ordered] {
            let three = Options {
                reading: Samples {
                    k: Some(3),
                    ..opts(10, kind).reading
                },
                ..opts(10, kind)
            };
            for text in [
                "0 1
",
                "0 1 2 3
",
                "0 1 2
0 1
",
            ] {
                let got = error(text, &three);
                let line = text.lines().count();
                assert!(
                    got.contains(&format!(
                        "draws.txt:{line}: expected 3 items (k = 3, as declared)"
                    )),
                    "{text:?}: {got}"
                );
            }
            let read = read(
                "0 1 2
3 4 5
",
                &three,
            )
            .unwrap();
            assert_eq!((read.tally.k(), read.tally.trials()), (3, 2));
        }
        // A pick is one item whatever k says.
        let pick = Options {
            reading: Samples {
                k: Some(3),
                ..opts(3, SampleKind::Pick).reading
            },
            ..opts(3, SampleKind::Pick)
        };
        assert_eq!(
            read(
                "0
1
", &pick
            )
            .unwrap()
            .tally
            .k(),
            1
        );
    }

    /// Ordered lines keep each item's slot; unordered ones do not.
    #[test]
    fn ordered_samples_count_slots() {
        let text = "3 1\n2 3\n";
        let ordered = read(text, &opts(3, SampleKind::Ordered)).unwrap();
        // Items 1..3 (base 1): slot 0 held 3 then 2, slot 1 held 1 then 3.
        assert_eq!(ordered.tally.slots(), Some(&[0, 1, 1, 1, 0, 1][..]));
        assert_eq!(ordered.tally.inclusion(), &[1, 1, 2]);
        let unordered = read(text, &opts(3, SampleKind::Sample)).unwrap();
        assert_eq!(unordered.tally.slots(), None);
        assert_eq!(unordered.tally.inclusion(), ordered.tally.inclusion());
    }

    #[test]
    fn a_given_base_and_a_limit_are_honoured() {
        let opts = Options {
            max_records: Some(2),
            ..with_base(Base::Zero, opts(4, SampleKind::Pick))
        };
        let got = read("1\n2\n3\n", &opts).unwrap();
        assert_eq!(got.tally.inclusion(), &[0, 1, 1, 0]);
        assert_eq!(got.counted, 2);
        assert!(got.stopped_early);
        let all = read("1\n2\n", &opts).unwrap();
        assert!(!all.stopped_early);
        assert!(Base::parse("2", Front::Cli).is_err());
    }

    /// N must be given, and samples are text only; a limit of 0 is refused.
    #[test]
    fn options_are_checked_before_reading() {
        let no_n = Options {
            n: None,
            ..opts(4, SampleKind::Pick)
        };
        assert!(error("1\n", &no_n).contains("N must be given"));
        let binary = Options {
            format: Format::U8,
            ..opts(4, SampleKind::Pick)
        };
        assert_eq!(
            error("1\n", &binary),
            "samples are read as text (one per line), not as u8 records"
        );
        let zero = Options {
            max_records: Some(0),
            ..opts(4, SampleKind::Pick)
        };
        assert_eq!(
            error("1\n", &zero),
            "the number of samples to read must be at least 1 (got 0)"
        );
    }

    #[test]
    fn block_boundaries_do_not_change_the_counts() {
        let text: String = (0..500)
            .map(|i| format!("{} {}\n", i % 7, (i % 7 + 1 + i % 3) % 8))
            .collect();
        let opts = opts(8, SampleKind::Sample);
        let whole = read(&text, &opts).unwrap();
        for block in [3, 17, 64] {
            let mut src = Chunker::new(text.as_bytes(), block, None, false);
            let resume = Resume::default();
            let got = read_source(
                &mut src,
                "x",
                &opts,
                8,
                u64::MAX,
                true,
                &no_progress,
                resume,
            )
            .unwrap();
            assert_eq!(got, whole, "block {block}");
        }
        assert_eq!(whole.tally.trials(), 500);
    }

    /// A read resumed from any point a saver was told, with the base and
    /// counts found by then, adds up to one uninterrupted read, with or
    /// without a limit; while the base is open (samples held back) there
    /// is nothing to save; a bad line after the point is named by its line
    /// in the file.
    #[test]
    fn a_read_resumed_at_any_saved_point_counts_what_one_read_counts() {
        // Neither 0 nor 8 on the first 40 lines: the base is open until
        // line 43 holds a 0.
        let text: String = (0..300)
            .map(|i| match i {
                ..40 => format!("{} {}\n", 1 + i % 3, 4 + i % 4),
                _ => format!("{} {}\n", i % 7, (i % 7 + 1 + i % 3) % 8),
            })
            .collect();
        fn read_from(
            text: &str,
            opts: &Options<Samples>,
            at: ReadPoint,
            before: Option<(&Base, &SampleTally)>,
            saver: Option<&dyn super::super::Saver<SampleTally, Base>>,
        ) -> std::result::Result<Ingested<SampleTally, Base>, String> {
            let resume = Resume { at, before, saver };
            let limit = opts.max_records.map_or(u64::MAX, |m| m - at.counted);
            let mut src = Chunker::new(&text.as_bytes()[at.bytes as usize..], 16, None, false);
            read_source(&mut src, "x", opts, 8, limit, true, &no_progress, resume)
                .map_err(|f| f.error.to_string())
        }
        for max_records in [None, Some(250)] {
            let opts = Options {
                max_records,
                ..opts(8, SampleKind::Ordered)
            };
            let whole = read(&text, &opts).unwrap();
            let points = super::super::tests::Points::default();
            let saving = read_from(&text, &opts, ReadPoint::default(), None, Some(&points));
            assert_eq!(saving.unwrap(), whole);
            let points = points.take();
            let open = points
                .iter()
                .take_while(|(_, so_far)| so_far.is_none())
                .count();
            assert!(open > 0, "the first blocks leave the base open");
            assert!(points[open..].iter().all(|(_, so_far)| so_far.is_some()));
            assert!(points.len() > open + 3);
            for (at, so_far) in points.into_iter().skip(open) {
                let (base, before) = so_far.unwrap();
                assert_eq!(base, Base::Zero);
                let rest = read_from(&text, &opts, at, Some((&base, &before)), None).unwrap();
                let mut all = before.clone();
                all.merge(&rest.tally);
                assert_eq!(all, whole.tally, "from {at:?}");
                assert_eq!(at.counted + rest.counted, whole.counted);
                assert_eq!(rest.stopped_early, whole.stopped_early);
                let bad = format!("{text}3 3\n");
                let err = read_from(&bad, &opts, at, Some((&base, &before)), None);
                if max_records.is_none() {
                    assert_eq!(err.unwrap_err(), "x:301: 3 appears twice");
                }
            }
        }
    }

    #[test]
    fn a_sampler_program_is_run_in_parallel_and_merged() {
        let cmd = CommandSpec {
            // Floyd's 3 of 1..10 in awk, deterministic for its seed.
            template: "awk -v s={seed} -v c={count} 'BEGIN { srand(s); for (t = 0; t < c; t++) \
                       { split(\"\", in_); line = \"\"; for (j = 8; j <= 10; j++) { x = int(rand() * j) + 1; \
                       if (x in in_) x = j; in_[x] = 1; line = line \" \" x } print line } }'"
                .to_string(),
            jobs: 2,
            timeout: Duration::from_secs(30),
        };
        let opts = opts(10, SampleKind::Sample);
        let (got, runs) = run_sample_command(&cmd, &opts, 5_001, 9, &no_progress).unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!(got.tally.trials(), 5_001);
        assert_eq!(got.counted, 5_001);
        assert_eq!(got.items, Base::One);
        assert_eq!(got.tally.inclusion().iter().sum::<u64>(), 3 * 5_001);
        let again = run_sample_command(&cmd, &opts, 5_001, 9, &no_progress).unwrap();
        assert_eq!(again.0, got, "deterministic for its seeds");
        let short = CommandSpec {
            template: "printf '1 2 3\\n'".to_string(),
            ..cmd
        };
        let message = run_sample_command(&short, &opts, 10, 9, &no_progress)
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("after printing only 1 of its 5 samples"),
            "{message}"
        );
    }
}

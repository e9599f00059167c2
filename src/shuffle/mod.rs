//! Shuffles as a kind of subject: how an audit of a shuffle (of distinct
//! items, or of a deck whose items repeat) counts, tests, finds and shows
//! what it saw. Everything else (judging, studies, shards, summaries and
//! reports) is the one generic path of [`crate::audit`].
//!
//! The kind's marker, options and the [`Shuffle`] trait are in
//! `crate::subject`, below the planning ([`crate::power`]) this module
//! uses for its findings; they are re-exported here.
//!
//! ```
//! use shuffle_audit::audit::{self, Spec};
//! use shuffle_audit::shuffle::Shuffles;
//! use shuffle_audit::shuffle::Algorithm;
//! use shuffle_audit::{Verdict, source::SourceSpec};
//!
//! # fn main() -> shuffle_audit::Result<()> {
//! let spec = Spec::<Shuffles>::new(Algorithm::Sattolo, 10, 50_000, SourceSpec::default(), 1);
//! let result = audit::run(&spec, audit::DEFAULT_ALPHA, &|_| {})?;
//! assert_eq!(result.verdict(), Verdict::Biased);
//! # Ok(())
//! # }
//! ```

mod battery;
mod count;
mod extensions;
pub mod files;
pub mod findings;
mod lines;
mod read;
mod record;
mod recorded;
mod section;

pub use crate::algorithm::{
    Algorithm, ComparatorSort, Draws, Exact, Expected, Leaves, Loader, Param, Positional, Record,
    StepKind,
};
pub use crate::deck::{DEFAULT_HAND, Deck, Relabel};
pub use crate::spec::{
    DEFAULT_BIRTHDAY_N, DEFAULT_N, DEFAULT_PERMUTATION_N, DEFAULT_TRIALS, LARGE_N,
    MAX_PERMUTATION_N, TestKind, TestSet,
};
pub use crate::subject::{FnShuffle, Reading, Shuffle, ShuffleOptions, Shuffles};
// What a tally collects (`ingest::Decks::collect`, `Tally::collecting`)
// and the serial test's counts (`stats::sequence::serial`).
pub use crate::tally::{
    Binning, Cells, Collect, Columns, DEFAULT_BINS, OrderParts, SerialCounts, StructureParts, Tally,
};
pub use battery::cells;
pub use count::run_shuffle;
pub use record::{BINNED_NOTE, MAX_EMBEDDED_N};
pub use recorded::Recorded;

use crate::audit::{
    self, Audit, Cost, FeedReport, Kind, Named, Produced, Sensitivity, Spec, Subject, Tested,
};
use crate::engine::{self, Progress};
use crate::error::Result;
use crate::ingest::{self, Items};
use crate::pacing::ChunkRange;
use crate::plot::{HeatmapPanel, LogScale};
use crate::report::model::Section;
use crate::stats::{self, PositionValueStats, Verdict};
use serde_json::{Map, Value, json};

/// A judged audit of shuffles.
pub(crate) type ShuffleAudit = Audit<Shuffles>;

/// The deck a front hands a user's shuffle when the request declared one
/// (`deck`: a shoe, a deck of cards, a block list), for a run planned as
/// `planned`; `None` for a deck of plain items 0..n-1 or another kind of
/// subject. The page, the npm package and the Python package hand its
/// cards to the function and read them back with [`Deck::relabel`].
pub fn declared_deck(planned: &dyn audit::Planned) -> Option<&Deck> {
    let spec = planned.as_any().downcast_ref::<Spec<Shuffles>>()?;
    spec.options.deck.as_deref()
}

impl Named for TestKind {
    fn name(self) -> &'static str {
        TestKind::name(self)
    }

    fn title(self) -> &'static str {
        TestKind::title(self)
    }

    fn description(self) -> &'static str {
        TestKind::description(self)
    }
}

impl From<Algorithm> for Subject<Shuffles> {
    fn from(algorithm: Algorithm) -> Self {
        Subject::Builtin(algorithm)
    }
}

impl Kind for Shuffles {
    const NAME: &'static str = "shuffle";

    type Builtin = Algorithm;
    type Options = ShuffleOptions;
    type Reading = Reading;
    type Read = Items;
    type Tally = Tally;
    type Test = TestKind;
    type Found = PositionValueStats;
    type Findings = findings::AuditFindings;

    fn parse(name: &str) -> Result<Algorithm> {
        Algorithm::parse(name)
    }

    fn slug(algorithm: &Algorithm) -> String {
        algorithm.slug()
    }

    /// No bias for a fair algorithm on a good source, bias for a biased one
    /// or a weak source; `None` for a shuffle from outside.
    fn expected(spec: &Spec<Self>) -> Option<Verdict> {
        let algorithm = spec.subject.builtin()?;
        let weak = spec.source.kind.is_weak();
        match algorithm.expected_at(spec.n) {
            Expected::Fair if !weak => Some(Verdict::NoBiasDetected),
            Expected::Fair | Expected::Biased => Some(Verdict::Biased),
            Expected::Unknown => None,
        }
    }

    fn note(spec: &Spec<Self>) -> Option<String> {
        let mut notes = Vec::new();
        if spec.subject.uses_our_source() && spec.n != audit::N_FROM_INPUT {
            notes.extend(crate::source::reach_warning(&spec.source, spec.n));
        }
        notes.extend(spec.options.deck.as_deref().map(crate::deck::battery::note));
        (!notes.is_empty()).then(|| notes.join(" "))
    }

    fn options(n: usize) -> ShuffleOptions {
        ShuffleOptions::default_for(n)
    }

    fn check(spec: &Spec<Self>) -> Result<()> {
        if spec.n == audit::N_FROM_INPUT {
            return Ok(());
        }
        count::check(spec)?;
        let threads = spec.threads.unwrap_or_else(rayon::current_num_threads);
        engine::check_memory(spec.n, threads, spec.collect())
    }

    /// The larger of (a) what catches a bias as large as the naive swap's
    /// at n (`swap(a[i], a[uniform[0, n-1]])`, whose exact marginals are
    /// known) with 90% power on the position-by-value test, (b) what makes
    /// "no bias detected" adequate (a 20% single-cell deviation seen with
    /// 90% power; see [`stats::sensitivity::adequate_trials`]), and (c)
    /// [`audit::MIN_DEFAULT_TRIALS`]. Each figure is at α / (number
    /// of tests), the level the verdict holds each test to. At α = 0.001
    /// this is 10,000 trials at n = 5, 18,500 at n = 10 and 480,598 at
    /// n = 52: (b) decides, since the naive swap's bias is caught with far
    /// fewer. A deck whose items repeat is planned at its n. A built-in
    /// algorithm, cheap to run, runs at least
    /// [`DEFAULT_TRIALS`](crate::spec::DEFAULT_TRIALS).
    fn default_trials(spec: &Spec<Self>, alpha: f64) -> u64 {
        let n = spec.n;
        let tests = spec.options.tests.at(n);
        let level = alpha / tests.iter().count().max(1) as f64;
        let naive = crate::power::exact_effect(
            Algorithm::NaiveSwap,
            n,
            crate::source::SourceKind::Chacha8.into(),
            TestKind::PositionValue,
        )
        .ok()
        .flatten()
        .and_then(|effect| {
            crate::power::plan(effect, level, stats::sensitivity::SENSITIVITY_POWER).ok()
        })
        .map_or(0, |plan| plan.trials);
        let planned = naive
            .max(stats::sensitivity::adequate_trials(n, level))
            .max(audit::MIN_DEFAULT_TRIALS);
        match spec.subject {
            Subject::Builtin(_) => planned.max(crate::spec::DEFAULT_TRIALS),
            Subject::Outside(_) => planned,
        }
    }

    fn chunk_trials(spec: &Spec<Self>) -> u64 {
        engine::chunk_trials(spec.n)
    }

    fn work(spec: &Spec<Self>) -> usize {
        spec.n
    }

    /// The memory of one run, and its files: counts.csv dominates (n²
    /// numbers, B² when binned, of about the digits of trials / n, each
    /// with a separator).
    fn cost(spec: &Spec<Self>) -> Cost {
        if spec.n == audit::N_FROM_INPUT {
            return Cost::default();
        }
        let threads = spec.threads.unwrap_or_else(rayon::current_num_threads);
        let collect = spec.collect();
        let side = collect.bins.unwrap_or(spec.n);
        let per_cell = (spec.n / side.max(1)) as u128;
        let mean = (spec.trials as u128 * per_cell * per_cell / spec.n.max(1) as u128).max(1);
        let digits = mean.ilog10() as u128 + 1;
        Cost {
            memory: engine::memory_needed(spec.n, threads, collect),
            output: (side as u128).pow(2) * (digits + 1),
        }
    }

    fn prepare(spec: &Spec<Self>) {
        stats::pearson_law::build_in_background();
        if spec.options.tests.at(spec.n).contains(TestKind::Cycles) {
            crate::permutation::laws::prepare_in_background(spec.n);
        }
    }

    fn empty(spec: &Spec<Self>) -> Result<Tally> {
        Ok(Tally::collecting(spec.n, spec.collect()).with_hands(spec.hand_counts()))
    }

    fn count(spec: &Spec<Self>, chunks: ChunkRange, progress: Progress<'_>) -> Result<Tally> {
        count::count(spec, chunks, progress)
    }

    fn read_from(
        spec: &Spec<Self>,
        reader: &mut (dyn std::io::Read + Send),
        name: &str,
        format: crate::ingest::Format,
        progress: Progress<'_>,
    ) -> Result<Produced<Self>> {
        let opts = read::options(spec, format);
        let read = ingest::read(reader, name, &opts, progress).map_err(read::as_bad_input)?;
        Ok(read::produced(spec, read, Vec::new()))
    }

    fn batches(
        spec: &Spec<Self>,
        format: crate::ingest::Format,
    ) -> Result<Option<Box<dyn crate::ingest::Batches<Tally>>>> {
        if format.width().is_none() {
            return Ok(None);
        }
        let opts = read::options(spec, format);
        let name = spec.subject.to_string();
        let counter = ingest::BatchCounter::new(&name, &opts).map_err(read::as_bad_input)?;
        Ok(Some(Box::new(counter)))
    }

    fn read_file_from(
        spec: &Spec<Self>,
        path: &std::path::Path,
        format: crate::ingest::Format,
        resume: crate::ingest::Resume<'_, Tally, Items>,
        progress: Progress<'_>,
    ) -> Result<crate::ingest::Ingested<Tally, Items>> {
        let opts = read::options(spec, format);
        ingest::read_path_from(path, &opts, resume, progress).map_err(read::as_bad_input)
    }

    fn read_command(
        spec: &Spec<Self>,
        command: &crate::ingest::CommandSpec,
        progress: Progress<'_>,
    ) -> Result<Produced<Self>> {
        let n = (spec.n != audit::N_FROM_INPUT).then_some(spec.n);
        if n.is_some() {
            count::check(spec)?;
        }
        let opts = read::options(spec, crate::ingest::Format::Text);
        let (read, workers) =
            ingest::run_command(command, n, spec.trials, spec.seed, &opts, progress)
                .map_err(read::as_bad_input)?;
        Ok(read::produced(spec, read, workers))
    }

    fn merge(into: &mut Tally, other: &Tally) {
        into.merge(other);
    }

    fn trials(tally: &Tally) -> u64 {
        tally.trials()
    }

    fn fits(spec: &Spec<Self>, tally: &Tally) -> bool {
        let Ok(empty) = Self::empty(spec) else {
            return false;
        };
        tally.shape() == empty.shape()
            && tally.hands().map(|h| h.consistent(tally.trials())) != Some(false)
    }

    fn complete(
        spec: &Spec<Self>,
        tally: &Tally,
        feed: Option<&FeedReport<Self>>,
    ) -> Result<Spec<Self>> {
        battery::complete(spec, tally, feed)
    }

    fn test(spec: &Spec<Self>, tally: &Tally) -> Tested<Self> {
        battery::test(spec, tally)
    }

    fn sensitivity(audit: &Audit<Self>, alpha: f64, family: usize) -> Sensitivity {
        let s = stats::Sensitivity::of(&audit.tests, audit.spec.n, audit.trials(), alpha, family);
        let mut figures = Map::new();
        figures.insert("detectable_cell_deviation".into(), json!(s.cell_deviation));
        figures.insert("detectable_cohen_w".into(), json!(s.cohen_w));
        if let Some(eps) = s.kind_deviation {
            figures.insert("detectable_kind_deviation".into(), json!(eps));
        }
        Sensitivity {
            power: s.power,
            level: s.level,
            test: Some(s.test.name().to_string()),
            short: s.short(),
            words: s.words(),
            inconclusive: s.inconclusive,
            trials_needed: s.trials_needed,
            unit: "trials",
            figures,
        }
    }

    fn find(audit: &Audit<Self>, audits_in_run: usize) -> findings::AuditFindings {
        findings::AuditFindings::of(audit, audit.alpha, audits_in_run)
    }

    fn unit(_spec: &Spec<Self>) -> &'static str {
        "shuffles"
    }

    fn read_words(items: &Items, n: usize) -> String {
        items.describe(n)
    }

    fn drawn_words(audit: &Audit<Self>) -> String {
        files::run_words(audit)
    }

    fn deviation_words(audit: &Audit<Self>) -> String {
        match &audit.findings {
            Some(found) => found.deviation.clone(),
            None => findings::deviation_words(audit),
        }
    }

    fn deviation_short(audit: &Audit<Self>) -> String {
        let cell = match &audit.findings {
            Some(found) => found.deviation_cell.clone(),
            None => findings::AuditFindings::of(audit, audit.alpha, 1).deviation_cell,
        };
        if let Some(departure) = findings::deck_departure(audit) {
            return departure.short();
        }
        match cell {
            Some(c) => {
                let exact = if c.exact { " exact" } else { "" };
                let ratio = if c.ratio == 0.0 {
                    "0".to_string()
                } else {
                    crate::format::format_ratio(c.ratio)
                };
                // A binned matrix's cell is a bin of values at a bin of
                // positions; a multiset deck's is a kind at a position.
                let bin = if c.bins.is_some() { "bin" } else { "" };
                let what = match &c.kind {
                    Some(kind) => format!("{kind} "),
                    None => format!("v{bin}{} ", c.value),
                };
                format!("{ratio}× {what}p{bin}{}{exact}", c.position)
            }
            None => "none stands out".to_string(),
        }
    }

    fn plan_words(audit: &Audit<Self>) -> Option<String> {
        let plan = audit.findings.as_ref()?.plan.as_ref()?;
        Some(extensions::plan_short(plan))
    }

    fn table(audit: &Audit<Self>) -> Vec<Vec<u64>> {
        cells(&audit.spec, &audit.tally).count_rows()
    }

    fn record(audit: &Audit<Self>) -> Map<String, Value> {
        record::record(audit)
    }

    fn files(audit: &Audit<Self>) -> Result<Vec<(String, Vec<u8>)>> {
        files::files(audit)
    }

    fn section(audit: &Audit<Self>, folder: &str, anchor: &str, note: Option<&str>) -> Section {
        section::section(audit, folder, anchor, note)
    }

    fn method(audit: &Audit<Self>) -> Vec<Section> {
        section::method(audit)
    }

    fn panel(audit: &Audit<Self>) -> Option<(HeatmapPanel, LogScale)> {
        Some((files::panel(audit), files::heatmap_scale(audit)))
    }

    fn recheck(
        audit: &Audit<Self>,
        recorded: &Value,
        folder: &std::path::Path,
    ) -> Result<audit::Recheck> {
        files::recheck(audit, recorded, folder)
    }

    fn recorded(spec: &Spec<Self>) -> Value {
        serde_json::to_value(Recorded::of(spec)).expect("a record serialises")
    }

    fn from_recorded(value: &Value, threads: Option<usize>) -> Result<Spec<Self>> {
        Recorded::from_value(value)?.to_spec(threads)
    }
}

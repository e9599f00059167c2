//! The files of a shuffle audit's folder (its counts as CSV, its heatmap
//! as PNG) and the words and pictures they share with the report.

use super::ShuffleAudit as Audit;
use super::battery::cells;
use super::findings::PositionLines;
use crate::audit::{Feed, Recheck, Subject};
use crate::error::{Error, Result};
use crate::ingest::CommandSpec;
use crate::output::{
    MIN_SCALE_LIMIT, MIN_SCALE_STANDARD_ERRORS, input_words, limit_words, p_phrase, printed_words,
    thousands,
};
use crate::permutation::unrank;
use crate::plot::{self, DECK_AXES, HeatmapPanel, LogScale};
use crate::tally::{Binning, Cells, Columns};
use serde_json::Value;
use std::path::Path;

/// Each audit folder's per-position and per-card tests ([`lines_csv`]).
pub const LINES_FILE: &str = "lines.csv";

/// The files of `audit`'s folder, by name: `counts.csv`, `lines.csv`
/// (with enough trials), `permutations.csv` (when whole permutations were
/// counted) and `heatmap.png`.
pub(crate) fn files(audit: &Audit) -> Result<Vec<(String, Vec<u8>)>> {
    let mut files = vec![(
        "counts.csv".to_string(),
        counts_csv(&cells(&audit.spec, &audit.tally), kind_names(audit)).into_bytes(),
    )];
    if let Some(lines) = audit.findings.as_ref().and_then(|f| f.lines.as_ref()) {
        files.push((LINES_FILE.to_string(), lines_csv(lines).into_bytes()));
    }
    if let Some(perms) = audit.tally.permutations() {
        let text = permutations_csv(audit.spec.n, perms);
        files.push(("permutations.csv".to_string(), text.into_bytes()));
    }
    files.push(("heatmap.png".to_string(), heatmap_png(audit)?));
    for chart in category_charts(audit) {
        files.push((format!("{}.csv", chart.stem), chart.csv.into_bytes()));
        let png = plot::draw_heatmap(&chart.panel, &chart.scale).map_err(|e| {
            Error::bad_input(format!(
                "the {} chart could not be drawn: {}",
                chart.stem, e.0
            ))
        })?;
        files.push((format!("{}.png", chart.stem), png));
    }
    Ok(files)
}

/// One category column's position-by-category counts of a deck audit, as
/// a lab reads them: by suit, by rank, by colour.
pub(crate) struct CategoryChart {
    /// The column's name (`suit`).
    pub column: String,
    /// The files' name without extension (`by-suit`).
    pub stem: String,
    /// `position,S,H,D,C` and one row per position.
    pub csv: String,
    /// Its heatmap panel (O/E per position and category).
    pub panel: HeatmapPanel,
    /// Its colour scale (as the audit's heatmap's: at least 8 standard
    /// errors of the sparsest category's cells).
    pub scale: LogScale,
}

/// The charts of an audit of a deck with category columns (`--categories`,
/// a built-in shoe's cards): one per column, none for other audits or a
/// binned matrix.
pub(crate) fn category_charts(audit: &Audit) -> Vec<CategoryChart> {
    use crate::deck::laws::{group_matrix, group_sizes};
    let Some(deck) = audit.spec.options.deck.as_ref() else {
        return Vec::new();
    };
    if audit.tally.is_binned() || audit.tally.trials() == 0 {
        return Vec::new();
    }
    let (n, t) = (audit.tally.n(), audit.tally.trials() as f64);
    deck.columns()
        .iter()
        .zip(deck.item_columns())
        .map(|(column, of_item)| {
            let m = column.names.len();
            let counts = group_matrix(&audit.tally, &of_item, m);
            let sizes = group_sizes(&of_item, m);
            let expected: Vec<f64> = sizes.iter().map(|&s| t * s as f64 / n as f64).collect();
            let ratios: Vec<f64> = counts
                .iter()
                .enumerate()
                .map(|(cell, &o)| o as f64 / expected[cell % m])
                .collect();
            let mut w = csv::Writer::from_writer(Vec::new());
            let header =
                std::iter::once("position".to_string()).chain(column.names.iter().cloned());
            w.write_record(header).expect("in memory");
            for (position, row) in counts.chunks_exact(m).enumerate() {
                let cells =
                    std::iter::once(position.to_string()).chain(row.iter().map(u64::to_string));
                w.write_record(cells).expect("in memory");
            }
            let csv = String::from_utf8(w.into_inner().expect("in memory")).expect("UTF-8");
            let sparsest = expected.iter().copied().fold(f64::INFINITY, f64::min);
            let floor = (MIN_SCALE_STANDARD_ERRORS / sparsest.sqrt())
                .exp()
                .max(MIN_SCALE_LIMIT);
            let panel = HeatmapPanel {
                n,
                columns: m,
                title: vec![
                    format!(
                        "{}  by {}  T={}",
                        audit.spec.subject,
                        column.name,
                        thousands(audit.trials())
                    ),
                    format!("position by {}: observed / expected", column.name),
                ],
                verdict: Some(audit.verdict),
                axes: ["category", "position"],
                column_names: column.names.clone(),
                ratios,
            };
            let scale = LogScale::fit(&panel.ratios, floor);
            let safe: String = column
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            CategoryChart {
                column: column.name.clone(),
                stem: format!("by-{safe}"),
                csv,
                panel,
                scale,
            }
        })
        .collect()
}

/// What an audit ran or read, in one phrase, the same in every output:
/// `1,000,000 shuffles of n = 10 items, chacha8 with seed 7`, or for a
/// shuffle from outside where its decks came from.
pub fn run_words(audit: &Audit) -> String {
    let spec = &audit.spec;
    let (n, trials) = (spec.n, thousands(spec.trials));
    let outside = match &spec.subject {
        Subject::Outside(outside) => outside,
        Subject::Builtin(_) => {
            return format!(
                "{trials} shuffles of n = {n} items, {} with seed {}",
                spec.source, spec.seed
            );
        }
    };
    let items = audit
        .feed
        .as_ref()
        .map(|f| format!(" ({})", f.read.describe(n)))
        .unwrap_or_default();
    let early = audit
        .feed
        .as_ref()
        .map(|f| limit_words(f.stopped_early, f.asked, f.counted))
        .unwrap_or_default();
    match &outside.feed {
        Feed::File { path, .. } => format!(
            "{trials} decks of n = {n} items{items} read from {}{early}",
            input_words(path)
        ),
        Feed::Command(CommandSpec { template, .. }) => {
            let workers = audit.feed.as_ref().map_or(0, |f| f.workers.len());
            format!(
                "{trials} decks of n = {n} items{items} {}",
                printed_words(workers, template, spec.seed)
            )
        }
        Feed::Function => format!(
            "{trials} shuffles of n = {n} items by a Rust function, {} with seed {}",
            spec.source, spec.seed
        ),
        Feed::Given { from } => format!("{trials} decks of n = {n} items{items} {from}{early}"),
        Feed::Drawn { from } => format!("{trials} shuffles of n = {n} items {from}"),
    }
}

/// The colour scale of an audit's heatmap, symmetric in log(O/E): it
/// saturates at `1/X` and `X` with
/// `ln X = min(ln 2, max(ln 1.25, 8·se, max |ln O/E|))`, where se is the
/// relative standard error of a cell, √((n−1)/T) for distinct items
/// ([`crate::tally::Cells::relative_se`]), so that it shows the audit's
/// largest deviation without magnifying its noise (the 8 standard errors
/// keep a fair shuffle's most extreme cell, near 3.5 to 4 of them, at half
/// strength or paler; see also `MIN_SCALE_LIMIT` and
/// `plot::scale::MAX_LIMIT`).
pub fn heatmap_scale(audit: &Audit) -> LogScale {
    let cells = cells(&audit.spec, &audit.tally);
    let floor = (MIN_SCALE_STANDARD_ERRORS * cells.relative_se())
        .exp()
        .max(MIN_SCALE_LIMIT);
    LogScale::fit(&cells.ratios(), floor)
}

/// An audit's heatmap scale in words, for captions: `0.8× to 1.25×`.
pub fn scale_words(audit: &Audit) -> String {
    heatmap_scale(audit).range_words()
}

/// The axes of a binned heatmap (bin indices on both).
pub const BINNED_AXES: [&str; 2] = ["value bin", "position bin"];

/// The axes of a multiset deck's heatmap: kinds across, positions down.
pub const KIND_AXES: [&str; 2] = ["kind", "position"];

/// The axes of a shoe's heatmap (kinds that are card labels): cards
/// across, positions down.
pub const CARD_AXES: [&str; 2] = ["card (each kind's copies together)", "position"];

/// The heatmap panel of an audit: O/E per cell of the matrix its tests
/// read ([`cells`]), titled with what was run and what the tests
/// found, with the audit's verdict for its badge.
pub fn panel(audit: &Audit) -> HeatmapPanel {
    let n = audit.spec.n;
    let t = &audit.found;
    let cells = cells(&audit.spec, &audit.tally);
    let mut panel = HeatmapPanel {
        n: cells.rows(),
        columns: cells.cols(),
        ratios: cells.ratios(),
        title: vec![
            format!(
                "{}  n={}  T={}  {}",
                audit.spec.subject,
                n,
                thousands(audit.trials()),
                audit.spec.source_label()
            ),
            format!(
                "{} by {}",
                p_phrase(audit.log10_p_adjusted),
                audit.decisive().map_or("no test", |t| t.test.name())
            ),
            format!(
                "this map: Q = {:.1}, df {}, {}",
                t.statistic,
                t.df,
                p_phrase(t.log10_p()),
            ),
        ],
        verdict: Some(audit.verdict),
        axes: DECK_AXES,
        column_names: Vec::new(),
    };
    match cells.columns() {
        Columns::ValueBins => {
            panel.title.push(binning_words(audit.tally.binning()));
            panel.axes = BINNED_AXES;
        }
        Columns::Kinds => {
            panel.title.push(format!(
                "position by kind: {} kinds of {} items each counted together",
                cells.cols(),
                kind_sizes_words(&cells)
            ));
            let names = kind_names(audit).unwrap_or_default();
            let cards = crate::deck::cards::columns(names).is_some();
            panel.axes = if cards { CARD_AXES } else { KIND_AXES };
            panel.column_names = names.to_vec();
        }
        Columns::Values => {}
    }
    panel
}

/// What the rows and columns of an audit's matrix are, for captions:
/// positions by values, by bins of both, or by a deck's kinds ("card
/// kinds" when they are card labels).
pub fn layout_words(audit: &Audit) -> &'static str {
    match cells(&audit.spec, &audit.tally).columns() {
        Columns::ValueBins => "rows = bins of positions, columns = bins of values",
        Columns::Kinds => match kind_names(audit).and_then(crate::deck::cards::columns) {
            Some(_) => "rows = positions, columns = card kinds, each kind's copies together",
            None => "rows = positions, columns = kinds, each kind's items together",
        },
        Columns::Values => "rows = positions, columns = values",
    }
}

/// The kinds' sizes in words: `6` when equal, `1–4` otherwise.
fn kind_sizes_words(cells: &crate::tally::Cells) -> String {
    let sizes = (0..cells.cols()).map(|c| cells.column_size(c));
    let (lo, hi) = (sizes.clone().min().unwrap_or(0), sizes.max().unwrap_or(0));
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}–{hi}")
    }
}

/// A binned matrix in words, for titles and notes: "binned: 64×64 bins of
/// 15,625 (bin 0 = 0–15624)".
pub fn binning_words(binning: crate::tally::Binning) -> String {
    let (lo, hi) = (binning.n() / binning.bins(), binning.largest());
    let size = if lo == hi {
        thousands(lo as u64)
    } else {
        format!("{}–{}", thousands(lo as u64), thousands(hi as u64))
    };
    format!(
        "binned: {b}×{b} bins of {size} positions and values (bin 0 = {})",
        binning.label(0),
        b = binning.bins()
    )
}

/// The kinds' names of an audit of a deck whose items repeat (the columns
/// of its cell matrix), `None` otherwise.
fn kind_names(audit: &Audit) -> Option<&[String]> {
    let deck = audit.spec.options.deck.as_ref().filter(|d| d.repeats())?;
    Some(deck.kind_names())
}

/// The heatmap an audit's report shows, as PNG bytes: for a notebook or a
/// page that shows the picture without writing files.
pub fn heatmap_png(audit: &Audit) -> Result<Vec<u8>> {
    plot::draw_heatmap(&panel(audit), &heatmap_scale(audit))
        .map_err(|e| Error::bad_input(format!("the heatmap could not be drawn: {}", e.0)))
}

/// `counts.csv` text: a header `position,v0,v1,...` and one row per position;
/// for a binned matrix, a header `positions,values 0–15624,...` and one row
/// per bin of positions, labelled with its positions; for a multiset deck,
/// a header `position,AS,2S,...` naming the kinds (`kinds`, one per column).
pub fn counts_csv(cells: &Cells, kinds: Option<&[String]>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let binning = (cells.columns() == Columns::ValueBins)
        .then(|| Binning::new(cells.n(), cells.rows()))
        .flatten();
    let columns: Vec<String> = match (cells.columns(), binning, kinds) {
        (Columns::Kinds, _, Some(names)) => names.to_vec(),
        (_, Some(b), _) => (0..cells.cols())
            .map(|v| format!("values {}", b.label(v)))
            .collect(),
        _ => (0..cells.cols()).map(|v| format!("v{v}")).collect(),
    };
    let first = if binning.is_some() {
        "positions"
    } else {
        "position"
    };
    w.write_record(std::iter::once(first.to_string()).chain(columns))
        .expect("in-memory CSV");
    for (p, row) in cells.count_rows().iter().enumerate() {
        let name = binning.map_or_else(|| p.to_string(), |b| b.label(p));
        let fields = std::iter::once(name).chain(row.iter().map(u64::to_string));
        w.write_record(fields).expect("in-memory CSV");
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
}

/// `lines.csv` text: each line's own test (see [`PositionLines`]), one row
/// per line: the view (`card`, `suit`, ...), whether the line is a position
/// or a group, its index and name, the statistic, df, p as the report shows
/// it, and pass or fail at the level.
pub fn lines_csv(lines: &PositionLines) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "view",
        "line",
        "index",
        "name",
        "statistic",
        "df",
        "p",
        "alpha",
        "result",
    ])
    .expect("in-memory CSV");
    for view in &lines.views {
        for (line, tests) in [("position", &view.positions), ("group", &view.by_group)] {
            for l in &tests.lines {
                let name = match line {
                    "group" => view.groups[l.index].clone(),
                    _ => l.index.to_string(),
                };
                w.write_record([
                    view.name.clone(),
                    line.to_string(),
                    l.index.to_string(),
                    name,
                    format!("{:.3}", l.statistic),
                    l.df.to_string(),
                    crate::output::format_p(l.log10_p),
                    tests.alpha.to_string(),
                    if l.fails_at(tests.alpha) {
                        "fail"
                    } else {
                        "pass"
                    }
                    .to_string(),
                ])
                .expect("in-memory CSV");
            }
        }
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
}

/// `permutations.csv` text: every permutation (values by position, space
/// separated) with its count and the count a uniform shuffle would expect.
pub fn permutations_csv(n: usize, counts: &[u64]) -> String {
    let trials: u64 = counts.iter().sum();
    let expected = trials as f64 / counts.len() as f64;
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["permutation", "count", "expected"])
        .expect("in-memory CSV");
    for (rank, &count) in counts.iter().enumerate() {
        let perm: Vec<String> = unrank(rank, n).iter().map(u32::to_string).collect();
        w.write_record([perm.join(" "), count.to_string(), format!("{expected:.3}")])
            .expect("in-memory CSV");
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("CSV is UTF-8")
}

/// What `run --check` compares: the matrix the outputs wrote (values,
/// bins, or a multiset's kinds), from `recorded`'s embedded `counts` or
/// else the audit folder's `counts.csv`, against the rerun's.
pub(crate) fn recheck(audit: &Audit, recorded: &Value, folder: &Path) -> Result<Recheck> {
    let counts: Vec<Vec<u64>> = match recorded.get("counts").and_then(Value::as_array) {
        Some(rows) => rows
            .iter()
            .map(|row| {
                row.as_array()
                    .map(|r| r.iter().filter_map(Value::as_u64).collect())
                    .unwrap_or_default()
            })
            .collect(),
        None => {
            let path = folder.join("counts.csv");
            let text = std::fs::read_to_string(&path)
                .map_err(|e| Error::io(format!("cannot read {}: {e}", path.display())))?;
            parse_counts_csv(&text).ok_or_else(|| {
                Error::bad_input(format!("{}: not a counts table", path.display()))
            })?
        }
    };
    let cells = cells(&audit.spec, &audit.tally);
    if counts.len() != cells.rows() || counts.iter().any(|row| row.len() != cells.cols()) {
        return Ok(Recheck::Different(
            "the recorded counts are not a matrix of the rerun's shape".to_string(),
        ));
    }
    for (position, row) in counts.iter().enumerate() {
        for (value, &count) in row.iter().enumerate() {
            let now = cells.count(position, value);
            if count != now {
                return Ok(Recheck::Different(format!(
                    "position {position}, value {value}: recorded {count}, recomputed {now}"
                )));
            }
        }
    }
    Ok(Recheck::Same {
        counts: (cells.rows() * cells.cols()) as u64,
        what: "position-by-value counts",
    })
}

/// The rows of a `counts.csv` (header `position,v0,...`, then one row per
/// position), or `None` if it is not one.
fn parse_counts_csv(text: &str) -> Option<Vec<Vec<u64>>> {
    text.lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|line| line.split(',').skip(1).map(|c| c.parse().ok()).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_csv_lists_every_permutation_in_rank_order() {
        let text = permutations_csv(2, &[3, 1]);
        assert_eq!(
            text,
            "permutation,count,expected\n0 1,3,2.000\n1 0,1,2.000\n"
        );
    }

    #[test]
    fn counts_csv_has_a_header_and_a_row_per_position() {
        let mut tally = crate::tally::Tally::new(2);
        for deal in [[0, 1], [0, 1], [0, 1], [1, 0]] {
            tally.record(&deal);
        }
        let text = counts_csv(&Cells::of(&tally), None);
        assert_eq!(text, "position,v0,v1\n0,3,1\n1,1,3\n");
        let names = ["x".to_string(), "y".to_string()];
        let mut three = crate::tally::Tally::new(3);
        three.record(&[2, 0, 1]);
        let kinds = counts_csv(&Cells::by_kind(&three, &[0, 0, 1], 2), Some(&names));
        assert_eq!(kinds, "position,x,y\n0,0,1\n1,1,0\n2,1,0\n");
    }

    #[test]
    fn a_shoe_heatmap_names_its_card_kinds() {
        use crate::algorithm::Algorithm;
        use crate::audit::{self, Spec};
        use crate::deck::Deck;
        let spec = Spec::<super::super::Shuffles>::new(
            Algorithm::FisherYates,
            104,
            200,
            crate::source::SourceKind::Chacha8.into(),
            1,
        )
        .with_deck(Deck::parse("shoe:decks=2").unwrap())
        .0;
        let audit = audit::run(&spec, audit::DEFAULT_ALPHA, &|_| {}).unwrap();
        let panel = panel(&audit);
        assert_eq!(panel.axes, CARD_AXES);
        assert_eq!(panel.column_names.len(), 52);
        assert_eq!(
            (
                panel.column_names[0].as_str(),
                panel.column_names[51].as_str()
            ),
            ("AS", "KC")
        );
        assert!(layout_words(&audit).contains("card kinds"));
        assert!(heatmap_png(&audit).is_ok());
    }
}

//! What the page shows of an audit of any kind, live and at the end: the
//! verdict and its figures in the command line's own words (its
//! `summary.json` record), the test table, and the picture's colours on
//! the report's scale, with every cell's observed and expected counts and
//! z for the page's readout. Every word and number comes from the
//! library; the page only lays them out.

use serde::Serialize;
use shuffle_audit::audit::Judged;
use shuffle_audit::report::{format_p, format_ratio};
use shuffle_audit::shuffle::{Cells, Columns, cells};
use shuffle_audit::stats::PositionValueStats;
use shuffle_audit::{Audit, Shuffles};

/// The verdict and everything the page writes around it.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// Trials counted so far.
    pub trials: u64,
    /// What a trial is, in the plural: `shuffles`, `samples`, `picks`.
    pub unit: String,
    /// `biased`, `no bias detected` or `inconclusive`.
    pub verdict: String,
    /// `✗`, `✓` or `?`, as the verdict table marks it.
    pub symbol: String,
    /// The verdict's p, as every output states it (`< 1e-12`, `0.420`).
    pub p: String,
    /// The tests that saw the bias, strongest first (empty unless biased).
    pub seen_by: Vec<String>,
    /// What the run could have detected, in the table's words.
    pub could_detect: String,
    /// The same in a sentence, as the report says it.
    pub sensitivity: String,
    /// The largest deviation in words: for a shuffle, the darkest cell of
    /// the picture (largest |ln O/E|, as the colours show it) among the
    /// cells that stand out from the noise ([`darkest`]); else the
    /// library's words.
    pub deviation: String,
    /// The picture's cell behind `deviation` (`[row, column]`), when it
    /// names one, for the page to mark.
    pub deviation_cell: Option<[usize; 2]>,
    /// For an inconclusive run: why.
    pub inconclusive: Option<String>,
    /// For an inconclusive run: the trials a verdict needs.
    pub trials_for_verdict: Option<u64>,
    /// Every test, in the order run.
    pub tests: Vec<TestRow>,
    /// The picture's rows.
    pub rows: usize,
    /// The picture's columns.
    pub cols: usize,
    /// The picture's axes: column label, row label.
    pub axes: [String; 2],
    /// The columns' tick labels (a deck's kinds, `AS`, `2S`, …; value
    /// bins, `0–15624`); empty for index ticks 0, 1, ….
    pub column_names: Vec<String>,
    /// The rows' tick labels (position bins); empty for index ticks.
    pub row_names: Vec<String>,
    /// Every cell's figures for the readout, row by row like the picture
    /// (none above [`MAX_FIGURE_CELLS`] cells).
    pub cells: CellFigures,
    /// The colour scale's range in words (`0.8× to 1.25×`).
    pub scale: String,
    /// The title lines of the report's picture.
    pub title: Vec<String>,
}

/// One line of the test table.
#[derive(Debug, Clone, Serialize)]
pub struct TestRow {
    /// The test's name on the command line (`position-value`).
    pub name: String,
    /// Its statistic.
    pub statistic: f64,
    /// Its degrees of freedom (0 for a statistic without them).
    pub df: f64,
    /// Its own p, as stated.
    pub p: String,
    /// Its p Holm-adjusted within the audit, as stated.
    pub p_holm: String,
    /// How the p-value was obtained.
    pub method: String,
}

/// The figures behind each cell of the picture, row-major like its
/// colours: what the page's readout shows on hover or tap. A figure the
/// library does not have for a cell is `null`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CellFigures {
    /// Trials counted in the cell.
    pub observed: Vec<Option<u64>>,
    /// The count a fair shuffle or sampler gives the cell on average.
    pub expected: Vec<Option<f64>>,
    /// O/E, the ratio the colour shows.
    pub ratio: Vec<Option<f64>>,
    /// The standardised residual (O − E) / sd, as the position-by-value
    /// test computes it for its largest |z|.
    pub z: Vec<Option<f64>>,
}

/// A judged audit as the page draws it: its view, and its picture and
/// colour bar as RGBA bytes.
pub struct Drawn {
    /// The verdict and its words.
    pub view: View,
    /// The picture's cells, row by row.
    pub rgba: Vec<u8>,
    /// The colour bar, from 1/X (first) to X (last).
    pub legend: Vec<u8>,
}

/// The most cells whose figures a view carries (a 128 × 128 picture): a
/// full matrix at n = 1,024 has a million cells, megabytes of figures at
/// every look, each under a pixel of the page's picture.
pub const MAX_FIGURE_CELLS: usize = 1 << 14;

/// Steps of the colour bar, from 1/X up to X.
pub const LEGEND_STEPS: usize = 65;

impl Drawn {
    /// What the page shows of `audit`.
    pub fn of(audit: &dyn Judged) -> Self {
        let record = audit.record();
        let (panel, scale) = audit
            .panel()
            .expect("every kind the page audits has a picture");
        let colour = |ratio: f64| {
            let (red, green, blue) = scale.colour(ratio);
            [red, green, blue, 255]
        };
        let half = (LEGEND_STEPS / 2) as f64;
        let legend = (0..LEGEND_STEPS)
            .flat_map(|i| colour(scale.limit().powf((i as f64 - half) / half)))
            .collect();
        let shuffle = audit.as_any().downcast_ref::<Audit<Shuffles>>();
        let mut deviation = record.largest_deviation;
        let mut deviation_cell = None;
        let figures = panel.n * panel.columns <= MAX_FIGURE_CELLS;
        let (cells, row_names, column_names) = match shuffle {
            Some(a) => {
                let matrix = cells(a.spec(), a.tally());
                if let Some((cell, words)) = darkest_words(a, &matrix, &deviation) {
                    deviation = words;
                    deviation_cell = Some(cell);
                } else if let Some(cell) = standout(a) {
                    deviation_cell = Some([cell.position, cell.value]);
                }
                let (rows, columns) = tick_names(a, &matrix, &panel.column_names);
                let cells = if figures {
                    shuffle_figures(&matrix)
                } else {
                    CellFigures::default()
                };
                (cells, rows, columns)
            }
            None if !figures => (
                CellFigures::default(),
                Vec::new(),
                panel.column_names.clone(),
            ),
            None => (
                table_figures(&audit.table(), &panel.ratios, panel.columns),
                Vec::new(),
                panel.column_names.clone(),
            ),
        };
        let view = View {
            trials: record.trials,
            unit: record.unit.to_string(),
            verdict: audit.verdict().to_string(),
            symbol: audit.verdict().symbol().to_string(),
            p: format_p(record.log10_p_adjusted),
            seen_by: record.seen_by,
            could_detect: record.could_detect,
            sensitivity: record.sensitivity,
            deviation,
            deviation_cell,
            inconclusive: record.inconclusive_reason,
            trials_for_verdict: record.trials_for_verdict,
            tests: record
                .tests
                .into_iter()
                .map(|t| t.result)
                .map(|t| TestRow {
                    name: t.test.to_string(),
                    statistic: t.statistic,
                    df: t.df,
                    p: format_p(t.log10_p),
                    p_holm: format_p(t.log10_p_holm),
                    method: t.method,
                })
                .collect(),
            rows: panel.n,
            cols: panel.columns,
            axes: panel.axes.map(str::to_string),
            column_names,
            row_names,
            cells,
            scale: scale.range_words(),
            title: panel.title,
        };
        Drawn {
            view,
            rgba: panel.ratios.iter().flat_map(|&r| colour(r)).collect(),
            legend,
        }
    }
}

/// A shuffle's cells as the picture shows them (the matrix its tests
/// read: values, value bins or a deck's kinds at each position), with the
/// library's expectation and standard deviation of every cell.
fn shuffle_figures(matrix: &Cells) -> CellFigures {
    let mut figures = CellFigures::default();
    for r in 0..matrix.rows() {
        for c in 0..matrix.cols() {
            let (observed, expected) = (matrix.count(r, c), matrix.expected(r, c));
            figures.observed.push(Some(observed));
            figures.expected.push(Some(expected));
            figures.ratio.push(Some(observed as f64 / expected));
            figures
                .z
                .push(Some((observed as f64 - expected) / matrix.sd(r, c)));
        }
    }
    figures
}

/// A sampler's cells: the picture's ratios, and where the library's table
/// (draws per item, one row) gives a cell's count, that count and the
/// expectation its ratio implies (E = O / (O/E)); the pairs off the
/// diagonal show their ratio alone.
fn table_figures(table: &[Vec<u64>], ratios: &[f64], columns: usize) -> CellFigures {
    let items = table.first().map_or(&[][..], Vec::as_slice);
    let mut figures = CellFigures::default();
    for (i, &ratio) in ratios.iter().enumerate() {
        let (r, c) = (i / columns, i % columns);
        let observed = (r == c).then(|| items.get(c).copied()).flatten();
        let expected = observed
            .filter(|&o| o > 0 && ratio > 0.0 && ratio.is_finite())
            .map(|o| o as f64 / ratio);
        figures.observed.push(observed);
        figures.expected.push(expected);
        figures.ratio.push(ratio.is_finite().then_some(ratio));
        figures.z.push(None);
    }
    figures
}

/// The tick labels of a shuffle's picture, rows then columns: the bins'
/// ranges for a binned matrix, the kinds' names for a deck whose items
/// repeat; empty for index ticks.
fn tick_names(
    audit: &Audit<Shuffles>,
    matrix: &Cells,
    kinds: &[String],
) -> (Vec<String>, Vec<String>) {
    match matrix.columns() {
        Columns::ValueBins => {
            let binning = audit.tally().binning();
            let labels: Vec<String> = (0..matrix.rows()).map(|b| binning.label(b)).collect();
            (labels.clone(), labels)
        }
        Columns::Kinds => (Vec::new(), kinds.to_vec()),
        Columns::Values => (Vec::new(), Vec::new()),
    }
}

/// The cell the library names as standing out from the noise (largest
/// |z|, significant after a Bonferroni correction over the cells).
fn standout(audit: &Audit<Shuffles>) -> Option<shuffle_audit::stats::Cell> {
    let found: &PositionValueStats = audit.found();
    found.standout(audit.spec().n, audit.sensitivity().level)
}

/// The darkest cell on the picture's log-symmetric scale: the largest
/// |ln(O/E)| (a cell never seen is the darkest of all) among the cells
/// whose |z| reaches the library's threshold for standing out, so that a
/// cell is named only when it is real. `None` when no cell stands out.
pub fn darkest(audit: &Audit<Shuffles>, matrix: &Cells) -> Option<[usize; 2]> {
    let found: &PositionValueStats = audit.found();
    let need = found.standout_z(audit.spec().n, audit.sensitivity().level);
    let mut best: Option<([usize; 2], f64)> = None;
    for r in 0..matrix.rows() {
        for c in 0..matrix.cols() {
            let (observed, expected) = (matrix.count(r, c) as f64, matrix.expected(r, c));
            if ((observed - expected) / matrix.sd(r, c)).abs() < need {
                continue;
            }
            let darkness = (observed / expected).ln().abs();
            if best.is_none_or(|(_, d)| darkness > d) {
                best = Some(([r, c], darkness));
            }
        }
    }
    best.map(|(cell, _)| cell)
}

/// The deviation's words naming the darkest cell ([`darkest`]) where the
/// library's words name its standout cell (largest |z|) and the two
/// differ; `None` to keep the library's words (no cell stands out, the
/// cell is the same, or the words are the exact law's or a deck's).
fn darkest_words(
    audit: &Audit<Shuffles>,
    matrix: &Cells,
    words: &str,
) -> Option<([usize; 2], String)> {
    let standout = standout(audit)?;
    let cell = darkest(audit, matrix)?;
    if cell == [standout.position, standout.value] || matrix.columns() == Columns::Kinds {
        return None;
    }
    let said = cell_words(audit, matrix, [standout.position, standout.value]);
    (words == said).then(|| (cell, cell_words(audit, matrix, cell)))
}

/// One cell's deviation in the library's words for it (`value 3 at
/// position 0: 1.29× expected`; binned, `values 0–15624 at positions
/// 0–15624: …`; `… never at position 9`).
fn cell_words(audit: &Audit<Shuffles>, matrix: &Cells, [r, c]: [usize; 2]) -> String {
    let (what, at, plural) = if matrix.columns() == Columns::ValueBins {
        let binning = audit.tally().binning();
        (
            format!("values {}", binning.label(c)),
            binning.label(r),
            "s",
        )
    } else {
        (format!("value {c}"), r.to_string(), "")
    };
    let ratio = matrix.count(r, c) as f64 / matrix.expected(r, c);
    if ratio == 0.0 {
        format!("{what} never at position{plural} {at}")
    } else {
        format!(
            "{what} at position{plural} {at}: {}× expected",
            format_ratio(ratio)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use shuffle_audit::request::Form;

    /// A small deterministic generator (splitmix64) for the test's decks.
    struct Mix(u64);

    impl Mix {
        /// True or false, evenly.
        fn coin(&mut self) -> bool {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) >> 63 == 1
        }
    }

    /// `a.sort(() => Math.random() - 0.5)` as V8 runs it on a short array:
    /// binary insertion sort, every comparison a coin.
    fn sort_random_comparator(n: usize, rng: &mut Mix) -> Vec<u8> {
        let mut a: Vec<u8> = (0..n as u8).collect();
        for i in 1..n {
            let pivot = a[i];
            let (mut left, mut right) = (0, i);
            while left < right {
                let mid = left + (right - left) / 2;
                if rng.coin() {
                    right = mid;
                } else {
                    left = mid + 1;
                }
            }
            a.copy_within(left..i, left + 1);
            a[left] = pivot;
        }
        a
    }

    /// The page's view of 100,000 decks of 10 sorted with a random
    /// comparator, counted as the page counts them.
    fn sorted_view() -> (View, Box<dyn Judged>) {
        let form = Form {
            holds: "deck".to_string(),
            name: "sort-random-comparator".to_string(),
            from: "test draws".to_string(),
            n: "10".to_string(),
            trials: "100000".to_string(),
            seed: "1".to_string(),
            ..Form::default()
        };
        let mut session = Session::new(&form, None, &[]).expect("a good form");
        let mut rng = Mix(20261129);
        let trials = 100_000;
        let mut done = 0;
        while done < trials {
            let count = session.max_batch().min(trials - done);
            let batch = session.batch(count);
            for deck in batch.chunks_mut(10).take(count) {
                deck.copy_from_slice(&sort_random_comparator(10, &mut rng));
            }
            done += count;
            session.count(count, done == trials).expect("permutations");
        }
        let audit = session.judge(1.0).expect("counted");
        (Drawn::of(audit.as_ref()).view, audit)
    }

    /// The largest deviation is the picture's darkest standing-out cell
    /// (largest |ln O/E|), not the largest |z| nor |O/E − 1|: with a
    /// random comparator at n = 10 the largest |z| is a cell above 1.5×,
    /// while a cell near 0.5× is darker on the log scale.
    #[test]
    fn the_largest_deviation_is_the_darkest_cell() {
        let (view, audit) = sorted_view();
        assert_eq!(view.verdict, "biased");
        let cells = &view.cells;
        let [r, c] = view.deviation_cell.expect("a cell stands out");
        let at = r * view.cols + c;
        let darkness = |i: usize| cells.ratio[i].expect("a ratio").ln().abs();
        for i in 0..cells.ratio.len() {
            assert!(
                darkness(i) <= darkness(at),
                "cell {i} ({:?}) is darker than the one named ({:?}): {}",
                cells.ratio[i],
                cells.ratio[at],
                view.deviation
            );
        }
        assert!(cells.ratio[at].unwrap() < 1.0, "{}", view.deviation);
        assert!(
            view.deviation
                .starts_with(&format!("value {c} at position {r}: ")),
            "{}",
            view.deviation
        );
        // The library's record names another cell (its largest |z|): the
        // view corrects it to what the colours show.
        assert_ne!(audit.record().largest_deviation, view.deviation);
    }

    /// The readout's figures are the library's: O/E is the ratio the
    /// colours show, expectations add up to the trials in every row, and
    /// the largest |z| is the position-by-value test's.
    #[test]
    fn every_cell_has_the_librarys_figures() {
        let (view, audit) = sorted_view();
        let (panel, _) = audit.panel().expect("a picture");
        let cells = &view.cells;
        assert_eq!(cells.observed.len(), view.rows * view.cols);
        for (i, &ratio) in panel.ratios.iter().enumerate() {
            let o = cells.observed[i].unwrap() as f64;
            let e = cells.expected[i].unwrap();
            assert!((o / e - ratio).abs() < 1e-12);
            assert_eq!(cells.ratio[i], Some(ratio));
        }
        for r in 0..view.rows {
            let row: f64 = (0..view.cols)
                .map(|c| cells.expected[r * view.cols + c].unwrap())
                .sum();
            assert!((row - view.trials as f64).abs() < 1e-6);
        }
        let shuffle = audit.as_any().downcast_ref::<Audit<Shuffles>>().unwrap();
        let largest = cells.z.iter().map(|z| z.unwrap().abs()).fold(0.0, f64::max);
        assert!((largest - shuffle.found().max_abs_z).abs() < 1e-9);
    }
}

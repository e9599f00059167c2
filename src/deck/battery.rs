//! The tests of a deck: which of the selected tests apply to it, and
//! running them on a tally with the laws of [`super::laws`].

use super::Deck;
use super::laws::{arrangement_counts, group_departure, group_test};
use crate::format::format_ratio;
use crate::spec::{DEFAULT_PERMUTATION_N, MAX_PERMUTATION_N, TestKind, TestSet};
use crate::stats::adjacency::{self, AdjacencyLaw, MAX_KINDS, OrderTest};
use crate::stats::battery::correct;
use crate::stats::{Parts, TestResult};
use crate::stats::{gof, hypergeometric, sequence};
use crate::tally::Tally;

/// Why the structure tests are skipped for a deck with repeated items.
pub const SKIP_REASON: &str = "fixed points, cycles, rising sequences, Lehmer digits, clumping, \
     inversions, displacement and repeated deals are statistics of permutations of distinct \
     items, with laws over n! of them; an arrangement of a multiset has no single permutation \
     behind it (the adjacency, successor and serial tests look at the order of kinds instead)";

/// What every output says of an audit of `deck`: the deck, and for a deck
/// with repeated items which tests are skipped and why.
pub fn note(deck: &Deck) -> String {
    let mut out = format!("{}.", deck.describe());
    if deck.repeats() {
        out.push_str(&format!(
            " Skipped: fixed-points, cycles, rising-sequences, lehmer, lehmer-pairs, clumping, \
             birthday ({SKIP_REASON}). {BLIND_SPOTS}"
        ));
    }
    out
}

/// What the tests of a deck with repeated items cannot see, said with
/// every audit of one (see the book's chapter on decks).
pub const BLIND_SPOTS: &str = "These tests cannot see an order that depends on more than the \
     card before (the adjacency table holds pairs only), and the successor test needs the \
     starting order (a built-in deck's, --order-file, or playing cards in new-deck order).";

/// The tests to run on `deck` for the selected `tests`, and a note naming
/// the tests skipped and why (for every output).
///
/// The default set is position-by-kind, the whole-arrangement test when n
/// ≤ 8, and with category columns the position-by-category and hand tests;
/// `all` is the same with the whole-arrangement test up to n = 10.
/// In a list, `position-value` and `permutation` name their deck forms
/// (position-by-kind, whole-arrangement); the structure tests are skipped.
/// A deck of distinct items (`cards`, or categories alone) keeps every
/// test of permutations and adds the category tests.
pub fn tests_for(tests: &TestSet, deck: &Deck) -> (TestSet, Option<String>) {
    let n = deck.n();
    let categories = !deck.columns().is_empty();
    let mut kinds = Vec::new();
    let mut skipped = Vec::new();
    if !deck.repeats() {
        // Distinct items: every test of permutations applies, and the
        // category tests join them.
        for kind in tests.at(n).iter() {
            match kind {
                TestKind::PositionCategory | TestKind::Hand if !categories => skipped.push(kind),
                TestKind::Adjacency | TestKind::Successor => skipped.push(kind),
                TestKind::PositionKind => kinds.push(TestKind::PositionValue),
                TestKind::Arrangement => kinds.push(TestKind::Permutation),
                _ => kinds.push(kind),
            }
        }
        if tests.takes_deck_tests() && categories {
            kinds.extend([TestKind::PositionCategory, TestKind::Hand]);
        }
    } else if tests.takes_deck_tests() {
        kinds.push(TestKind::PositionKind);
        let most = if tests.is_all() {
            MAX_PERMUTATION_N
        } else {
            DEFAULT_PERMUTATION_N
        };
        if n <= most {
            kinds.push(TestKind::Arrangement);
        }
        if categories {
            kinds.extend([TestKind::PositionCategory, TestKind::Hand]);
        }
        kinds.extend(order_tests(deck));
        kinds.push(TestKind::Serial);
        let kept = |k: TestKind| {
            matches!(
                k,
                TestKind::PositionValue | TestKind::Permutation | TestKind::Serial
            )
        };
        skipped.extend(tests.at(n).iter().filter(|&k| !kept(k)));
    } else {
        for kind in tests.iter() {
            match kind {
                TestKind::PositionValue | TestKind::PositionKind => {
                    kinds.push(TestKind::PositionKind)
                }
                TestKind::Permutation | TestKind::Arrangement => kinds.push(TestKind::Arrangement),
                TestKind::PositionCategory | TestKind::Hand if categories => kinds.push(kind),
                TestKind::Serial => kinds.push(kind),
                TestKind::Adjacency | TestKind::Successor => {
                    if order_tests(deck).contains(&kind) {
                        kinds.push(kind);
                    } else {
                        skipped.push(kind);
                    }
                }
                // The structure tests, and the category tests without categories.
                _ => skipped.push(kind),
            }
        }
    }
    let names = |ks: &[TestKind]| ks.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ");
    let structure: Vec<TestKind> = skipped.iter().copied().filter(|k| !k.is_deck()).collect();
    let mut notes = Vec::new();
    if !structure.is_empty() {
        notes.push(format!(
            "skipped for deck {}: {} ({SKIP_REASON})",
            deck.label,
            names(&structure)
        ));
    }
    let is_order = |k: &TestKind| matches!(k, TestKind::Adjacency | TestKind::Successor);
    let unordered: Vec<TestKind> = skipped.iter().copied().filter(is_order).collect();
    if !unordered.is_empty() {
        notes.push(format!(
            "skipped: {} (they need a deck whose items repeat, of at most {MAX_KINDS} kinds; \
             successor also a known starting order: a built-in deck's, or playing cards)",
            names(&unordered)
        ));
    }
    let uncategorised: Vec<TestKind> = skipped
        .iter()
        .copied()
        .filter(|k| k.is_deck() && !is_order(k))
        .collect();
    if !uncategorised.is_empty() {
        notes.push(format!(
            "skipped: {} (they need category columns: --categories)",
            names(&uncategorised)
        ));
    }
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    (TestSet::of_kinds(kinds), note)
}

/// The order tests that apply to `deck`: adjacency for a deck whose items
/// repeat, of 2 to [`MAX_KINDS`] kinds, and successor when its starting
/// order is known as well ([`Deck::successors`]).
fn order_tests(deck: &Deck) -> Vec<TestKind> {
    if !deck.repeats() || !(2..=MAX_KINDS).contains(&deck.kinds()) {
        return Vec::new();
    }
    let mut kinds = vec![TestKind::Adjacency];
    if deck.successors().is_some() {
        kinds.push(TestKind::Successor);
    }
    kinds
}

/// Whether the deck's own battery runs test `kind` on `deck`: the deck
/// tests, and the serial test of a deck whose items repeat (it matches
/// kinds, [`crate::stats::sequence::serial`]); every other test is a test
/// of permutations.
pub fn owns(kind: TestKind, deck: &Deck) -> bool {
    kind.is_deck() || (kind == TestKind::Serial && deck.repeats())
}

/// Runs the deck tests among `tests` (see [`tests_for`]) on `tally` of
/// `deck`, with Holm-adjusted p-values across them (the tests of
/// permutations in the set are left to [`crate::stats::battery`]). `seed`
/// drives the Monte Carlo p-values of sparse arrangement tables.
pub fn run(tally: &Tally, tests: &TestSet, deck: &Deck, seed: u64) -> Vec<TestResult> {
    let mut results: Vec<TestResult> = tests
        .iter()
        .filter(|&kind| owns(kind, deck))
        .filter_map(|kind| run_one(kind, tally, deck, seed))
        .collect();
    correct(&mut results);
    results
}

/// The selected deck tests that could not run on `tally`, each with why
/// and the trials that would run it: the adjacency test when too few shoes
/// leave its table fewer than two groups to compare (never silently left
/// out: it counts in the verdict's correction, and the report lists it).
pub fn not_run(tally: &Tally, tests: &TestSet, deck: &Deck) -> Vec<(TestKind, String)> {
    let Some(counts) = tally.adjacency() else {
        return Vec::new();
    };
    if !tests.contains(TestKind::Adjacency) || !owns(TestKind::Adjacency, deck) {
        return Vec::new();
    }
    let law = AdjacencyLaw::new(&counts.copies());
    if adjacency::adjacency(&counts.counts, tally.trials(), &law).is_some() {
        return Vec::new();
    }
    let need = adjacency::adjacency_trials(&law).map_or(String::new(), |t| {
        format!(
            "; at least {} shoes would run it",
            crate::format::thousands(t)
        )
    });
    vec![(
        TestKind::Adjacency,
        format!(
            "with {} shoes no two groups of the kind-after-kind table expect {} pairs{need}",
            crate::format::thousands(tally.trials()),
            crate::stats::gof::MIN_EXPECTED
        ),
    )]
}

/// One part of a combined test: its name and result.
struct Part {
    name: String,
    statistic: f64,
    df: f64,
    /// Its df with no category pooled ([`TestResult::df_at_most`]).
    df_at_most: f64,
    log10_p: f64,
}

/// The result of deck test `kind`, reported without a departure.
fn outcome(kind: TestKind, statistic: f64, df: f64, log10_p: f64, method: String) -> TestResult {
    TestResult {
        parts: None,
        df_at_most: None,
        test: kind,
        statistic,
        df,
        log10_p,
        log10_p_holm: log10_p,
        departure: 0.0,
        method,
    }
}

fn run_one(kind: TestKind, tally: &Tally, deck: &Deck, seed: u64) -> Option<TestResult> {
    let result = |statistic, df, log10_p, method| outcome(kind, statistic, df, log10_p, method);
    match kind {
        TestKind::PositionKind => {
            let g = group_test(tally, deck.kind_of(), deck.kinds());
            Some(result(
                g.statistic,
                g.df,
                g.log10_p,
                format!(
                    "chi-square on Q = ((n-1)/n) sum (O-E)^2/E over the n x m position-by-kind counts, E = T n_k/n, df (n-1)(m-1), m = {} kinds; structure tests skipped ({SKIP_REASON})",
                    deck.kinds()
                ),
            ))
        }
        TestKind::Arrangement => {
            let counts = arrangement_counts(tally.permutations()?, deck.kind_of(), deck.kinds());
            let u = gof::uniform(&counts, seed);
            Some(result(
                u.statistic,
                u.df,
                u.log10_p,
                format!(
                    "the n!/prod n_k! = {} arrangements equally likely: {}",
                    counts.len(),
                    u.describe()
                ),
            ))
        }
        TestKind::PositionCategory => {
            let parts: Vec<Part> = deck
                .columns()
                .iter()
                .zip(deck.item_columns())
                .map(|(column, of_item)| {
                    let g = group_test(tally, &of_item, column.names.len());
                    Part {
                        name: column.name.clone(),
                        statistic: g.statistic,
                        df: g.df,
                        df_at_most: g.df,
                        log10_p: g.log10_p,
                    }
                })
                .collect();
            Some(combined(
                kind,
                parts,
                "position-by-category chi-square per column (as position-by-kind)",
            ))
        }
        TestKind::Hand => {
            let hands = tally.hands()?;
            let n = deck.n();
            let mut parts = Vec::new();
            for (j, column) in deck.columns().iter().enumerate() {
                let m = column.names.len();
                // With two categories the second's count is h minus the
                // first's: the same test.
                let tested = if m == 2 { 1 } else { m };
                for c in 0..tested {
                    let size = hands.columns[j]
                        .of_item
                        .iter()
                        .filter(|&&x| x as usize == c)
                        .count();
                    let law = hypergeometric::pmf(n, size, hands.h);
                    let g = gof::chi_square(hands.histogram(j, c), &law);
                    parts.push(Part {
                        name: format!("{}={}", column.name, column.names[c]),
                        statistic: g.statistic,
                        df: g.df,
                        df_at_most: g.df + g.pooled as f64,
                        log10_p: g.log10_p,
                    });
                }
            }
            Some(combined(
                kind,
                parts,
                &format!(
                    "count of each category in the first {} items against the hypergeometric law (Pearson's statistic, sparse counts pooled; each part's p-value from its exact law, exact over small groups in the tail)",
                    hands.h
                ),
            ))
        }
        TestKind::Adjacency | TestKind::Successor => {
            let counts = tally.adjacency()?;
            let law = AdjacencyLaw::new(&counts.copies());
            let trials = tally.trials();
            let test = if kind == TestKind::Adjacency {
                adjacency::adjacency(&counts.counts, trials, &law)?
            } else {
                adjacency::successor(&counts.counts, trials, &law, &deck.successors()?)?
            };
            Some(order_result(kind, test, deck))
        }
        TestKind::Serial => {
            let s = sequence::serial(tally.serial()?, "kind");
            Some(TestResult {
                departure: s.departure,
                ..result(s.statistic, s.df, s.log10_p, s.method)
            })
        }
        _ => None,
    }
}

/// What departs most in a deck test, named as a lab names it: a pair of
/// card kinds for the order tests, a category at a position for the
/// position-by-category test.
#[derive(Debug, Clone, PartialEq)]
pub enum Departure {
    /// Kind `after` directly follows kind `before` `ratio` times as often
    /// as a uniform arrangement expects.
    Follows {
        /// The kind before.
        before: String,
        /// The kind after.
        after: String,
        /// Observed / expected.
        ratio: f64,
    },
    /// Category `name` of column `column` lands at `position` `ratio` times
    /// as often as expected.
    Category {
        /// The column (`suit`).
        column: String,
        /// The category (`H`).
        name: String,
        /// The position.
        position: usize,
        /// Observed / expected.
        ratio: f64,
    },
}

impl Departure {
    /// In words: "7H followed by 8H: 1.32× expected", "suit H at position
    /// 17: 1.04× expected".
    pub fn words(&self) -> String {
        match self {
            Departure::Follows {
                before,
                after,
                ratio,
            } => {
                format!(
                    "{before} followed by {after}: {}× expected",
                    format_ratio(*ratio)
                )
            }
            Departure::Category {
                column,
                name,
                position,
                ratio,
            } => format!(
                "{column} {name} at position {position}: {}× expected",
                format_ratio(*ratio)
            ),
        }
    }

    /// For tables: "1.32× 7H then 8H", "1.04× suit H p17".
    pub fn short(&self) -> String {
        match self {
            Departure::Follows {
                before,
                after,
                ratio,
            } => {
                format!("{}× {before} then {after}", format_ratio(*ratio))
            }
            Departure::Category {
                column,
                name,
                position,
                ratio,
            } => {
                format!("{}× {column} {name} p{position}", format_ratio(*ratio))
            }
        }
    }
}

/// What departs most in the deck test `kind` of `tally`: the pair of kinds
/// of an order test (adjacency over every pair, successor over the starting
/// order's), the category at a position of the position-by-category test
/// (in the column with the smallest p); `None` for another test or a tally
/// without those counts.
pub fn departure(kind: TestKind, tally: &Tally, deck: &Deck) -> Option<Departure> {
    if kind == TestKind::PositionCategory {
        let (column, of_item) =
            deck.columns()
                .iter()
                .zip(deck.item_columns())
                .min_by(|(a, x), (b, y)| {
                    let p = |c: &super::Column, of: &[u32]| {
                        group_test(tally, of, c.names.len()).log10_p
                    };
                    p(a, x).total_cmp(&p(b, y))
                })?;
        let (position, c, ratio) = group_departure(tally, &of_item, column.names.len())?;
        return Some(Departure::Category {
            column: column.name.clone(),
            name: column.names[c].clone(),
            position,
            ratio,
        });
    }
    let counts = tally.adjacency()?;
    let law = AdjacencyLaw::new(&counts.copies());
    let k = law.kinds();
    let cells: Vec<usize> = match kind {
        TestKind::Adjacency => (0..k * k).collect(),
        TestKind::Successor => deck.successors()?.iter().map(|&(a, b)| a * k + b).collect(),
        _ => return None,
    };
    let ((a, b), ratio) =
        adjacency::largest_cell(&counts.counts, tally.trials(), &law, cells.into_iter())?;
    let names = deck.kind_names();
    Some(Departure::Follows {
        before: names[a].clone(),
        after: names[b].clone(),
        ratio,
    })
}

/// The result of an order test, its method naming the pair of kinds that
/// departs most ("AS followed by 2S: 1.27× expected").
fn order_result(kind: TestKind, test: OrderTest, deck: &Deck) -> TestResult {
    let largest = test.largest.map_or(String::new(), |((a, b), ratio)| {
        let names = deck.kind_names();
        format!(
            "; largest departure: {} followed by {}: {ratio:.2}× expected",
            names[a], names[b]
        )
    });
    TestResult {
        parts: None,
        df_at_most: test.df_at_most,
        test: kind,
        statistic: test.statistic,
        df: test.df,
        log10_p: test.log10_p,
        log10_p_holm: test.log10_p,
        departure: test.departure,
        method: format!("{}{largest}", test.method),
    }
}

/// Parts combined by Bonferroni: the smallest p times the number of parts
/// (capped at 1), reported with the statistic and df of that part. Valid
/// whatever the parts' dependence (suit and colour are dependent). The
/// result carries how many parts there are and their largest df, which fix
/// what the test could have detected ([`Parts`]).
fn combined(kind: TestKind, parts: Vec<Part>, what: &str) -> TestResult {
    let count = parts.len().max(1);
    let best = parts
        .iter()
        .min_by(|a, b| a.log10_p.total_cmp(&b.log10_p))
        .expect("a deck with categories has at least one column");
    let log10_p = (best.log10_p + (count as f64).log10()).min(0.0);
    let shown: Vec<String> = parts
        .iter()
        .map(|p| {
            format!(
                "{} Q={:.1} df={} log10 p={:.2}",
                p.name, p.statistic, p.df, p.log10_p
            )
        })
        .collect();
    let method = format!(
        "{what}; smallest p of {count} parts times {count} (Bonferroni), decided by {}: {}",
        best.name,
        shown.join("; ")
    );
    let largest_df = parts.iter().map(|p| p.df).fold(0.0, f64::max);
    let largest_df_at_most = parts.iter().map(|p| p.df_at_most).fold(0.0, f64::max);
    TestResult {
        parts: Some(Parts {
            count,
            largest_df,
            largest_df_at_most,
        }),
        ..outcome(kind, best.statistic, best.df, log10_p, method)
    }
}

//! The tests of a shuffle audit: the spec completed from what was counted,
//! then the battery of distinct items, or a deck's own tests for a deck.

use crate::audit::{Feed, FeedReport, Spec, Subject, Tested};
use crate::deck::{self, Deck};
use crate::error::{Error, Opt, Result};
use crate::ingest::Items;
use crate::spec::{TestKind, TestSet};
use crate::stats::{PositionValueStats, TestResult, battery};
use crate::subject::Shuffles;
use crate::tally::{Cells, Tally};

/// The matrix of `tally` that a fair shuffle makes uniform, which every
/// per-cell output reads (heatmap, largest deviation, max |z|, TV,
/// counts.csv): position by kind for a deck whose items repeat, whose
/// numbered copies mean nothing, else the tally's own matrix.
pub fn cells<'a>(spec: &Spec<Shuffles>, tally: &'a Tally) -> Cells<'a> {
    match &spec.options.deck {
        Some(deck) if deck.repeats() => Cells::by_kind(tally, deck.kind_of(), deck.kinds()),
        _ => Cells::of(tally),
    }
}

/// `spec` as `tally` was counted: its trials and n are what was counted (a
/// file may hold fewer decks than asked, and say what n is), default tests
/// are those for that n, and decks read from outside whose items repeat (a
/// shoe printed by a program), or that have categories, are that deck.
pub(crate) fn complete(
    spec: &Spec<Shuffles>,
    tally: &Tally,
    feed: Option<&FeedReport<Shuffles>>,
) -> Result<Spec<Shuffles>> {
    let mut spec = Spec {
        n: tally.n(),
        trials: tally.trials(),
        ..spec.clone()
    };
    spec.options.tests = spec.options.tests.at(tally.n());
    // A function's decks hold 0..n-1 by construction: counted without a
    // feed (chunk by chunk, or the merge of a run's shards), they are
    // what a read of them would have found.
    let drawn = Items::Numeric { one_based: false };
    let items = match feed {
        Some(feed) => Some(&feed.read),
        None => is_drawn(&spec).then_some(&drawn),
    };
    let read = match items.filter(|_| spec.options.deck.is_none()) {
        Some(items) => read_deck(&spec, items)?,
        None => None,
    };
    let Some(deck) = read else {
        return Ok(spec);
    };
    let trials = spec.trials;
    let chosen = spec.options.tests.clone();
    let (mut spec, note) = spec.with_deck(deck);
    spec.trials = trials;
    // Hands are not counted while reading: no hand test.
    let tests = spec.options.tests.iter().filter(|&k| k != TestKind::Hand);
    spec.options.tests = TestSet::of_kinds(tests.collect());
    if spec.options.tests.iter().next().is_none() {
        let mut why: Vec<String> = note.into_iter().collect();
        if chosen.contains(TestKind::Hand) {
            why.push("hand: hands are not counted while decks are read".to_string());
        }
        let deck = spec.options.deck.as_ref().map_or("", |d| d.label.as_str());
        return Err(Error::unsupported(format!(
            "none of the tests chosen ({chosen}) applies to the deck {deck}: {}; choose \
             others, or leave the tests out for the deck's own",
            why.join("; ")
        ))
        .about(Opt::Tests));
    }
    Ok(spec)
}

/// The deck that decks read from outside turn out to be: a multiset when
/// their items repeat (a shoe printed by a program), with the category
/// columns asked for (`--categories`), which need the items' names; `None`
/// for distinct items and no categories. Hands are not counted while
/// reading, so the hand test is left out (the deck's label says so).
fn read_deck(spec: &Spec<Shuffles>, items: &Items) -> Result<Option<Deck>> {
    let categories = match &spec.subject {
        Subject::Outside(outside) => outside.reading.categories.as_deref(),
        Subject::Builtin(_) => None,
    };
    let order = match &spec.subject {
        Subject::Outside(outside) => outside.reading.order.as_deref(),
        Subject::Builtin(_) => None,
    };
    let repeated = match items {
        Items::Labels(labels) => Deck::from_labels(labels),
        Items::Numeric { .. } => None,
    };
    // A shoe's starting order (an --order-file that repeats items) tells
    // the successor test which card followed which.
    let repeated = match (repeated, order) {
        (Some(deck), Some(order)) => Some(deck.with_start(order)?),
        (deck, _) => deck,
    };
    let Some(source) = categories else {
        return Ok(repeated);
    };
    // A function's decks hold 0..n-1 by construction, as a built-in's do:
    // `cards` names 52 of them as a built-in's deck of cards is named.
    let drawn = is_drawn(spec);
    let labels: Vec<String> = match items {
        Items::Numeric { .. } if drawn && source == "cards" && spec.n == 52 => {
            deck::cards::labels()
        }
        _ => (0..spec.n).map(|i| items.label(i)).collect(),
    };
    let deck = repeated.unwrap_or_else(|| Deck::of_labels(&labels));
    Ok(Some(deck::categories::apply(deck, source)?))
}

/// Whether `spec`'s decks are drawn on demand by a caller's own function
/// (a Python shuffle), which deals 0..n-1.
fn is_drawn(spec: &Spec<Shuffles>) -> bool {
    matches!(&spec.subject, Subject::Outside(o) if matches!(o.feed, Feed::Drawn { .. }))
}

/// The selected tests of `spec` on `tally` (a deck's own tests for a
/// deck), with the position-by-value figures every output reads.
pub(crate) fn test(spec: &Spec<Shuffles>, tally: &Tally) -> Tested<Shuffles> {
    let position_value = PositionValueStats::of(&cells(spec, tally));
    let results = run_tests(spec, tally, &position_value);
    let not_run = spec.options.deck.as_ref().map_or_else(Vec::new, |deck| {
        deck::battery::not_run(tally, &spec.options.tests, deck)
    });
    Tested {
        results,
        not_run,
        found: position_value,
    }
}

/// The selected tests of `spec` on `tally`: a deck's own tests for a deck.
fn run_tests(
    spec: &Spec<Shuffles>,
    tally: &Tally,
    position_value: &PositionValueStats,
) -> Vec<TestResult> {
    let tests = &spec.options.tests;
    let Some(deck) = &spec.options.deck else {
        return battery::run(tally, tests, position_value, spec.seed);
    };
    // A deck of distinct items also runs the tests of permutations.
    let standard: Vec<TestKind> = tests
        .iter()
        .filter(|&k| !deck::battery::owns(k, deck))
        .collect();
    let mut results = if standard.is_empty() {
        Vec::new()
    } else {
        let standard = TestSet::of_kinds(standard);
        battery::run(tally, &standard, position_value, spec.seed)
    };
    results.extend(deck::battery::run(tally, tests, deck, spec.seed));
    battery::correct(&mut results);
    results
}

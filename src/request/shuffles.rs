//! What a request says of shuffles: the options a spec of shuffles adds
//! (tests, bins, a deck with its categories and hand) and their defaults
//! and refusals, for a built-in algorithm and for decks made outside.

use super::{Header, Request};
use crate::audit::{ALL_TRIALS, Feed, Kind, N_FROM_INPUT, Planned, Spec, Subject};
use crate::deck::{self, DEFAULT_HAND, Deck};
use crate::error::{Error, Front, Opt, Result};
use crate::source::reach_warning;
use crate::spec::{DEFAULT_N, FIRST_N_WITHOUT_TWINS, TestKind, TestSet};
use crate::subject::Shuffles;

/// A built-in algorithm's audit: n (the deck's, or given, or the
/// default), the tests, trials (given, or what n needs) and the deck.
/// Returns the spec with what the report notes of it.
pub(super) fn builtin(
    request: &Request,
    algorithm: crate::algorithm::Algorithm,
    header: &Header,
    warnings: &mut Vec<String>,
) -> Result<(Box<dyn Planned>, Option<String>)> {
    let n = request.n.unwrap_or(DEFAULT_N);
    let spec = Spec::<Shuffles>::new(algorithm, n, 0, header.source, header.seed);
    finish(request, spec, header, warnings, Decks::Declared)
}

/// A declared deck's spec for decks drawn outside the engine, which are
/// read, not dealt: hands are not counted while reading, so no hand test
/// (as for a deck read from its labels).
fn without_hands(mut spec: Spec<Shuffles>) -> Spec<Shuffles> {
    let tests = spec.options.tests.iter().filter(|&k| k != TestKind::Hand);
    spec.options.tests = TestSet::of_kinds(tests.collect());
    spec
}

/// An outside subject's decks: n from the input unless given, every deck
/// of a file unless a trial count is given, no deck of our own (the input
/// says what its items are; `categories` names their columns).
pub(super) fn outside(
    request: &Request,
    subject: Subject<Shuffles>,
    header: &Header,
    reads_file: bool,
    warnings: &mut Vec<String>,
) -> Result<(Box<dyn Planned>, Option<String>)> {
    // Decks drawn by the caller's own function may be a declared deck (a
    // shoe handed to the function, each deck written as item indices of
    // it); decks read say what they hold.
    let drawn = matches!(&subject, Subject::Outside(o) if matches!(o.feed, Feed::Drawn { .. }));
    let refused = match (&request.deck, &request.hand) {
        (Some(_), _) if !drawn => Some((
            Opt::Deck,
            "describes the deck the built-in algorithms (or your own function) shuffle; decks \
             read say what they hold (name their categories with categories)",
        )),
        (Some(_), _) if request.order.is_some() => Some((
            Opt::Order,
            "is the starting order of decks read: a deck given as deck starts in its own order",
        )),
        (Some(_), Some(_)) => Some((
            Opt::Hand,
            "is the hand test's size, and hands are not counted while reading decks (the \
             position-by-category tests run without it)",
        )),
        (_, Some(_)) => Some((
            Opt::Hand,
            "is the hand test's size, and hands are not counted while reading decks (the \
             position-by-category tests run without it)",
        )),
        (_, None) => None,
    };
    if let Some((option, why)) = refused {
        return Err(
            Error::unsupported(format!("{} {why}", option.named(request.front))).about(option),
        );
    }
    // A function's decks are made here: their n is given, or the declared
    // deck's; there is no input to take it from.
    if drawn && request.n.is_none() && request.deck.is_none() {
        return Err(Error::out_of_range(format!(
            "{} is needed: the number of items of the deck your shuffle is handed (or {}, a \
             deck whose cards repeat, such as shoe:decks=6)",
            Opt::N.named(request.front),
            Opt::Deck.named(request.front)
        ))
        .about(Opt::N));
    }
    // A function's decks hold the items 0..n-1: `cards` names them only
    // at n = 52 (a declared deck names its own cards).
    if let (true, None, Some(n), Some("cards")) = (
        drawn,
        &request.deck,
        request.n,
        request.categories.as_deref(),
    ) && n != 52
    {
        return Err(Error::bad_input(format!(
            "{}: your function's decks hold the items 0..{}, not a deck of cards (cards names \
             the 52 items of n = 52; or give {})",
            Opt::Categories.spelled(request.front, "cards"),
            n - 1,
            Opt::Deck.spelled(request.front, "cards")
        ))
        .about(Opt::Categories));
    }
    let n = request.n.unwrap_or(N_FROM_INPUT);
    let mut spec = Spec::<Shuffles>::new(subject, n, 0, header.source, header.seed);
    if reads_file && request.trials.is_none() {
        spec.trials = ALL_TRIALS;
    }
    // A function's decks are its declared deck, or else 0..n-1 (no test
    // of decks applies: one asked for is refused now, as for a built-in
    // shuffle, not found inconclusive after the run); decks read say what
    // they hold.
    let decks = match (
        request.deck.is_some(),
        drawn && request.categories.is_none(),
    ) {
        (true, _) => Decks::Declared,
        (false, true) => Decks::Plain,
        (false, false) => Decks::Read,
    };
    finish(request, spec, header, warnings, decks)
}

/// What the decks of a request hold, for the tests of decks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decks {
    /// A deck the request declares (or a built-in shuffle's, 0..n-1 unless
    /// declared): the tests of decks need one with repeated cards or
    /// categories.
    Declared,
    /// 0..n-1, from a function: no test of decks applies.
    Plain,
    /// Decks read, which say what they hold once read.
    Read,
}

/// Fills in the tests, the deck, the trials and the threads of `spec`,
/// checks it, and says what the run should note.
fn finish(
    request: &Request,
    mut spec: Spec<Shuffles>,
    header: &Header,
    warnings: &mut Vec<String>,
    decks: Decks,
) -> Result<(Box<dyn Planned>, Option<String>)> {
    let n = spec.n;
    let tests = request.tests.as_deref().unwrap_or("default");
    if tests.split(',').all(|name| name.trim().is_empty()) {
        // An empty list (Python's tests=[], JavaScript's tests: []) is
        // not the default.
        return Err(Error::bad_input(format!(
            "{} names no test: name at least one, or leave it out for the default tests",
            Opt::Tests.named(request.front)
        ))
        .about(Opt::Tests));
    }
    // With n from the input, "default" and "all" are resolved once n is
    // known, and a list is read at the smallest n where no test is
    // another's twin (at n = 2 every test but serial is position-value's,
    // and a list read there kept position-value alone: a file's cycles
    // were never tested), then checked and freed of twins at the n read.
    let at = if n == N_FROM_INPUT {
        FIRST_N_WITHOUT_TWINS
    } else {
        n
    };
    let mut set = TestSet::parse(tests, at).map_err(|e| e.about(Opt::Tests))?;
    if let Some(bins) = request.bins {
        // With n from the input, the bins are checked once n is known
        // (then in words of no front: the reader does not know it).
        let at = if n == N_FROM_INPUT { bins.max(2) } else { n };
        if !(2..=at).contains(&bins) {
            return Err(Error::out_of_range(format!(
                "{}: the bins must be between 2 and n = {at} (n means the full matrix)",
                Opt::Bins.spelled(request.front, &bins.to_string())
            ))
            .about(Opt::Bins));
        }
        set = if n == N_FROM_INPUT {
            set.choosing_bins(bins)
        } else {
            set.with_bins(bins, n).map_err(|e| e.about(Opt::Bins))?
        };
    }
    spec.options.tests = set;
    spec.threads = request.threads;
    check_categories(request)?;
    match decks {
        Decks::Declared => match deck(request, &spec)? {
            Some(with_deck) if spec.subject.builtin().is_none() => spec = without_hands(with_deck),
            Some(with_deck) => spec = with_deck,
            None => refuse_deck_tests(request, &spec)?,
        },
        Decks::Plain => refuse_deck_tests(request, &spec)?,
        Decks::Read => {}
    }
    spec.trials = match request.trials {
        Some(trials) => trials,
        None if spec.trials == ALL_TRIALS => ALL_TRIALS,
        None if spec.n == N_FROM_INPUT => crate::spec::DEFAULT_TRIALS,
        None => Shuffles::default_trials(&spec, header.alpha),
    };
    Shuffles::check(&spec)?;
    if spec.subject.uses_our_source()
        && spec.n != N_FROM_INPUT
        && let Some(warning) = reach_warning(&spec.source, spec.n)
        && !warnings.contains(&warning)
    {
        warnings.push(warning);
    }
    // What the report notes of the spec is the kind's, said of the finished
    // audit (`StudyResult::note`), as a merge of its shards says it.
    Ok((Box::new(spec), None))
}

/// The deck of `deck`, `categories` and `hand` for a built-in algorithm,
/// if asked: the spec with it (its n the deck's) and the note on the
/// tests it leaves out.
fn deck(request: &Request, spec: &Spec<Shuffles>) -> Result<Option<Spec<Shuffles>>> {
    let front = request.front;
    let deck = match (&request.deck, &request.categories) {
        (None, None) => {
            if request.hand.is_some() {
                return Err(Error::unsupported(format!(
                    "{} is the hand size of the hand test: use it with {} or {}",
                    Opt::Hand.named(front),
                    Opt::Categories.named(front),
                    Opt::Deck.named(front)
                ))
                .about(Opt::Hand));
            }
            return Ok(None);
        }
        (Some(text), _) => Deck::parse(text).map_err(|e| e.about(Opt::Deck))?,
        (None, Some(source)) if source == "cards" => Deck::parse("cards")?,
        (None, Some(_)) => Deck::distinct(spec.n),
    };
    // A deck named (or `categories = cards`, the 52 cards) sets n.
    let names_n = request.deck.is_some() || request.categories.as_deref() == Some("cards");
    if let Some(n) = request.n
        && names_n
        && n != deck.n()
    {
        return Err(Error::out_of_range(format!(
            "{} but the deck {} has {} items: leave {} out",
            Opt::N.spelled(front, &n.to_string()),
            deck.label,
            deck.n(),
            Opt::N.named(front)
        ))
        .about(Opt::N));
    }
    if let Some(bins) = request.bins.filter(|&b| b != deck.n()) {
        return Err(Error::unsupported(format!(
            "{}: the tests of decks need the full position-by-value matrix: leave out {}",
            Opt::Bins.spelled(front, &bins.to_string()),
            Opt::Bins.named(front)
        ))
        .about(Opt::Bins));
    }
    let deck = match &request.categories {
        Some(source) => {
            deck::categories::apply(deck, source).map_err(|e| e.about(Opt::Categories))?
        }
        None => deck,
    };
    if let Some(hand) = request.hand.filter(|&h| h == 0 || h >= deck.n()) {
        return Err(Error::out_of_range(format!(
            "{}: the hand must hold 1 to n - 1 = {} items",
            Opt::Hand.spelled(front, &hand.to_string()),
            deck.n() - 1
        ))
        .about(Opt::Hand));
    }
    let hand = request.hand.unwrap_or(DEFAULT_HAND.min(deck.n() - 1));
    let deck = deck.with_hand(hand).map_err(|e| e.about(Opt::Hand))?;
    if deck.columns().is_empty()
        && let Some(kind) = spec
            .options
            .tests
            .iter()
            .find(|k| matches!(k, TestKind::PositionCategory | TestKind::Hand))
    {
        return Err(Error::unsupported(format!(
            "{} needs category columns: add {}",
            Opt::Tests.spelled(front, kind.name()),
            Opt::Categories.spelled(front, "cards")
        ))
        .about(Opt::Tests));
    }
    let (with_deck, note) = spec.clone().with_deck(deck);
    if with_deck.options.tests.iter().next().is_none() {
        return Err(Error::unsupported(format!(
            "none of the tests chosen ({}) applies to the deck {}: {}; choose others, or \
             leave {} out for the deck's own",
            spec.options.tests,
            with_deck
                .options
                .deck
                .as_ref()
                .map_or("", |d| d.label.as_str()),
            note.unwrap_or_default(),
            Opt::Tests.named(front)
        ))
        .about(Opt::Tests));
    }
    with_deck
        .options
        .tests
        .check(with_deck.n)
        .map_err(|e| e.about(Opt::Tests))?;
    Ok(Some(with_deck))
}

/// Refuses categories that cannot be read, before anything runs, in the
/// front's words (the file is read again when its decks' kinds are
/// known): JavaScript reads no files, so it takes only `cards`.
fn check_categories(request: &Request) -> Result<()> {
    let front = request.front;
    let Some(source) = request.categories.as_deref().filter(|&s| s != "cards") else {
        return Ok(());
    };
    let refused = match front {
        Front::JavaScript => Error::unsupported(format!(
            "{}: JavaScript takes only {} (the card columns: suit, rank and colour); a file \
             of categories is read by the command line and Python",
            Opt::Categories.spelled(front, &format!("\"{source}\"")),
            Opt::Categories.spelled(front, "\"cards\"")
        )),
        _ => match std::fs::read_to_string(source) {
            Ok(_) => return Ok(()),
            Err(e) => Error::io(format!(
                "{}: cannot read it ({})",
                Opt::Categories.spelled(front, source),
                match e.kind() {
                    std::io::ErrorKind::NotFound => "no such file".to_string(),
                    _ => e.to_string(),
                }
            )),
        },
    };
    Err(refused.about(Opt::Categories))
}

/// Refuses a test of decks asked without a deck.
fn refuse_deck_tests(request: &Request, spec: &Spec<Shuffles>) -> Result<()> {
    match spec.options.tests.iter().find(|k| k.is_deck()) {
        Some(kind) => Err(Error::unsupported(format!(
            "{} is a test of decks: add {} (or {})",
            Opt::Tests.spelled(request.front, kind.name()),
            Opt::Deck.named(request.front),
            Opt::Categories.named(request.front)
        ))
        .about(Opt::Tests)),
        None => Ok(()),
    }
}

/// Refuses the options that only shuffles take, for a request without
/// one.
pub(super) fn refuse_options(request: &Request) -> Result<()> {
    let used = [
        (
            request.tests.as_deref().is_some_and(|t| t != "default"),
            Opt::Tests,
        ),
        (request.bins.is_some(), Opt::Bins),
        (request.deck.is_some(), Opt::Deck),
        (request.categories.is_some(), Opt::Categories),
        (request.hand.is_some(), Opt::Hand),
    ];
    match used.iter().find(|(on, _)| *on) {
        Some((_, option)) => Err(Error::unsupported(format!(
            "{} is for shuffles; sampler audits do not take it",
            option.named(request.front)
        ))
        .about(*option)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal of a built-in shuffle's request, asked by `front`.
    fn refused(front: Front, change: impl FnOnce(&mut Request)) -> Error {
        let mut request = Request {
            front,
            subjects: vec!["fisher-yates".into()],
            ..Request::default()
        };
        change(&mut request);
        request.resolve().unwrap_err()
    }

    #[test]
    fn a_deck_s_hand_bins_and_tests_are_refused_without_the_command_line_s_flags() {
        // An experiment file once read `e.toml:7:6: --hand 7: ...`, and
        // every front `--bins 1 is out of range` or `choose other --tests`.
        let hand = |front| {
            refused(front, |r| {
                r.deck = Some("AABB".into());
                r.hand = Some(7);
            })
        };
        let e = hand(Front::Toml);
        assert_eq!(e.option(), Some(Opt::Hand), "{e}");
        assert_eq!(
            e.to_string(),
            "hand = 7: the hand must hold 1 to n - 1 = 3 items"
        );
        assert!(hand(Front::Cli).to_string().starts_with("--hand 7: "));
        for front in [Front::Toml, Front::Python, Front::JavaScript] {
            let bins = refused(front, |r| r.bins = Some(1));
            assert_eq!(bins.option(), Some(Opt::Bins), "{bins}");
            let spelled = Opt::Bins.spelled(front, "1");
            assert!(bins.to_string().starts_with(&spelled), "{bins}");
            let tests = refused(front, |r| {
                r.n = Some(11);
                r.tests = Some("permutation".into());
            });
            assert_eq!(tests.option(), Some(Opt::Tests), "{tests}");
            let deck_bins = refused(front, |r| {
                r.n = Some(100);
                r.tests = Some("position-kind".into());
                r.bins = Some(10);
            });
            assert_eq!(deck_bins.option(), Some(Opt::Bins), "{deck_bins}");
            for e in [bins, tests, deck_bins] {
                assert!(!e.to_string().contains("--"), "{front:?}: {e}");
            }
        }
    }
}

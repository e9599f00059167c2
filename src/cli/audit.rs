//! `shuffle-audit audit`: turn the flags into a study, run it, show it.

use super::audit_args::AuditArgs;
use super::feed::{feed, max_trials};
use super::samples;
use super::shard;
use super::study::{Bars, prepare};
use super::table::{table_width, wrap};
use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::deck::{self, DEFAULT_HAND, Deck};
use shuffle_audit::engine::{self, ALL_DECKS, N_FROM_INPUT, RunSpec};
use shuffle_audit::experiment::record::{self, RunStart, shell_line};
use shuffle_audit::ingest;
use shuffle_audit::report::Provenance;
use shuffle_audit::source::{SourceSpec, reach_warning};
use shuffle_audit::spec::{TestKind, TestSet};
use shuffle_audit::study::Study;
use shuffle_audit::subject::{Feed, Outside, Subject};

use shuffle_audit::spec::{DEFAULT_N, DEFAULT_TRIALS};
use shuffle_audit::{Error, Result};

pub fn run(args: &AuditArgs) -> Result<i32> {
    let study = job(args)?;
    if args.in_chunks() {
        return shard::run(args, study);
    }
    let quiet = args.output.quiet;
    let samplers_only = study.audits.is_empty();
    prepare(&study, quiet, &args.output.export)?;
    let observer = Bars::new(&study, quiet, false);
    shard::present(&args.output, args.run.until_decisive, samplers_only, || {
        let result = study.run(&observer);
        observer.finish();
        result
    })
}

/// The one job the flags ask for: every audit (shuffles, samplers or both)
/// with the run's α, budget, notes and provenance, every bad value refused
/// before any work starts.
fn job(args: &AuditArgs) -> Result<Study> {
    let named = samples::named(args)?;
    if args.in_chunks() {
        shard::refuse_unsupported(args, &named.samplers)?;
    }
    let mixed = !named.shuffles.is_empty() && !named.samplers.is_empty();
    let sample_specs = match named.samplers.is_empty() {
        true => Vec::new(),
        false => samples::specs(args, named.samplers, mixed)?,
    };
    let command = shell_line(&record::command_line());
    let provenance = Provenance::of(&RunStart::now(), command.clone(), vec![command]);
    if named.shuffles.is_empty() && !sample_specs.is_empty() {
        return Ok(Study {
            alpha: args.run.alpha,
            until_decisive: samples::budget(args, &sample_specs)?,
            provenance,
            ..Study::of_samples(sample_specs)
        });
    }
    if !mixed && (args.subject.weights.is_some() || args.subject.weights_file.is_some()) {
        return Err(Error::unsupported(
            "--weights is for weighted picks (-a weighted-prefix, alias or weighted-off-by-one)",
        ));
    }
    let (specs, deck_note) = deck_specs(args, specs(args, &named.shuffles)?)?;
    let until_decisive = match args.in_chunks() {
        true => None,
        false => max_trials(args, specs[0].trials)?,
    };
    // A source too small for n: said once on stderr and noted per audit.
    let reach: Vec<Option<String>> = specs
        .iter()
        .map(|s| {
            s.subject
                .uses_our_source()
                .then(|| reach_warning(&s.source, s.n))
                .flatten()
        })
        .collect();
    if !args.output.quiet
        && let Some(warning) = reach.iter().flatten().next()
    {
        eprintln!("{}", wrap(&format!("warning: {warning}"), table_width()));
    }
    let notes: Vec<Option<String>> = reach
        .into_iter()
        .map(|r| join_notes([r, deck_note.clone()]))
        .collect();
    Ok(Study {
        alpha: args.run.alpha,
        until_decisive,
        notes,
        provenance,
        samples: sample_specs,
        ..Study::new(specs)
    })
}

/// Turns the arguments into the specs of the shuffles `names` (every
/// built-in one when empty), rejecting every bad value before any work
/// starts.
fn specs(args: &AuditArgs, names: &[String]) -> Result<Vec<RunSpec>> {
    refuse_command_without_n(args)?;
    let outside = outside(args)?;
    let reads_file = matches!(&outside, Some(o) if matches!(o.feed, Feed::File { .. }));
    let binary = args.outside.format != "text";
    let n = match args.subject.n {
        Some(n) => n,
        None if reads_file && binary => {
            return Err(Error::unsupported(format!(
                "--format {} needs -n: binary records do not say how many items a deck has",
                args.outside.format
            )));
        }
        // A file's or a command's first deck says n.
        None if outside.is_some() => N_FROM_INPUT,
        None => DEFAULT_N,
    };
    let trials = match args.run.trials {
        Some(trials) => trials,
        None if reads_file => ALL_DECKS,
        None => DEFAULT_TRIALS,
    };
    let threads = args.run.threads.unwrap_or_else(rayon::current_num_threads);
    // With n from the input, "default" is resolved once n is known; a list
    // is checked against the largest n it could meet.
    let mut tests = TestSet::parse(&args.run.tests, n.max(2))?;
    if let Some(bins) = args.run.bins {
        // With n from the input, the bins are checked once n is known.
        let at = if n == N_FROM_INPUT { bins.max(2) } else { n };
        tests = tests.with_bins(bins, at)?;
    }
    let source = SourceSpec::parse(&args.run.rng)?;
    let subjects: Vec<Subject> = match outside {
        Some(outside) => vec![Subject::Outside(outside)],
        None if names.is_empty() => Algorithm::ALL.into_iter().map(Subject::from).collect(),
        None => {
            let mut chosen: Vec<Subject> = Vec::new();
            for text in names {
                let alg = Subject::from(Algorithm::parse(text)?);
                if chosen.contains(&alg) {
                    return Err(Error::bad_input(format!(
                        "algorithm '{alg}' is given twice"
                    )));
                }
                chosen.push(alg);
            }
            chosen
        }
    };
    let specs: Vec<RunSpec> = subjects
        .into_iter()
        .map(|subject| RunSpec {
            threads: args.run.threads,
            tests: tests.clone(),
            ..RunSpec::new(subject, n, trials, source, args.run.seed)
        })
        .collect();
    if n != N_FROM_INPUT {
        engine::check_memory(n, threads, specs[0].collect())?;
    }
    Ok(specs)
}

/// Refuses a `--cmd` told n (`{n}`) without -n: n is taken from the first
/// deck a command prints, as for a file, but a command that must be told n
/// needs it given, not a default it would silently follow.
fn refuse_command_without_n(args: &AuditArgs) -> Result<()> {
    match (&args.outside.cmd, args.subject.n, &args.outside.input) {
        (Some(template), None, None) if ingest::uses_n(template) => Err(Error::unsupported(
            "--cmd uses {n}: give -n, the number of items per deck (or leave {n} out to take \
             n from the first deck printed)",
        )),
        _ => Ok(()),
    }
}

/// The notes that are present, joined.
fn join_notes(notes: impl IntoIterator<Item = Option<String>>) -> Option<String> {
    let notes: Vec<String> = notes.into_iter().flatten().collect();
    (!notes.is_empty()).then(|| notes.join(" "))
}

/// The specs for the deck of `--deck`/`--categories`/`--hand`, if any, with
/// the note on the tests skipped and what the deck is (`None`: no deck).
fn deck_specs(args: &AuditArgs, specs: Vec<RunSpec>) -> Result<(Vec<RunSpec>, Option<String>)> {
    if args.outside.given() {
        // Decks read from outside: their items, and so their categories,
        // are known once read (see `audit::run_with`).
        if args.deck.hand.is_some() {
            return Err(Error::unsupported(
                "--hand: hands are not counted while reading --input/--cmd decks (yet); the \
                 position-by-category tests run without it",
            ));
        }
        return Ok((specs, None));
    }
    let deck = match (&args.deck.deck, &args.deck.categories) {
        (None, None) => {
            if let Some(kind) = specs
                .first()
                .and_then(|s| s.tests.iter().find(|k| k.is_deck()))
            {
                return Err(Error::unsupported(format!(
                    "--tests {kind} is a test of decks: add --deck (or --categories)"
                )));
            }
            if args.deck.hand.is_some() {
                return Err(Error::unsupported(
                    "--hand is the hand size of the hand test: use it with --categories or --deck",
                ));
            }
            return Ok((specs, None));
        }
        (Some(text), _) => Deck::parse(text)?,
        (None, Some(source)) if source == "cards" => Deck::parse("cards")?,
        (None, Some(_)) => Deck::distinct(specs[0].n),
    };
    if let (Some(n), Some(_)) = (args.subject.n, &args.deck.deck)
        && n != deck.n()
    {
        return Err(Error::out_of_range(format!(
            "-n {n} but --deck {} has {} items: leave -n out",
            deck.label,
            deck.n()
        )));
    }
    if let Some(bins) = args.run.bins.filter(|&b| b != deck.n()) {
        return Err(Error::unsupported(format!(
            "--bins {bins}: the tests of decks need the full position-by-value matrix: leave \
             out --bins"
        )));
    }
    let deck = match &args.deck.categories {
        Some(source) => deck::categories::apply(deck, source)?,
        None => deck,
    };
    let hand = args.deck.hand.unwrap_or(DEFAULT_HAND.min(deck.n() - 1));
    let deck = deck.with_hand(hand)?;
    if deck.columns().is_empty()
        && let Some(kind) = specs[0]
            .tests
            .iter()
            .find(|k| matches!(k, TestKind::PositionCategory | TestKind::Hand))
    {
        return Err(Error::unsupported(format!(
            "--tests {kind} needs category columns: add --categories FILE or --categories cards"
        )));
    }
    let note = Some(deck::battery::note(&deck));
    let specs: Vec<RunSpec> = specs
        .into_iter()
        .map(|spec| spec.with_deck(deck.clone()).0)
        .collect();
    specs[0].tests.check(deck.n())?;
    let threads = args.run.threads.unwrap_or_else(rayon::current_num_threads);
    engine::check_memory(deck.n(), threads, specs[0].collect())?;
    Ok((specs, note))
}

/// The shuffle from outside named by --input or --cmd, if any, with its
/// starting order; `None` for built-in algorithms.
fn outside(args: &AuditArgs) -> Result<Option<Outside>> {
    if !args.outside.given() {
        if args.outside.order.is_some() || args.outside.order_file.is_some() {
            return Err(Error::unsupported(
                "--order and --order-file describe your own shuffle's deck: use them with \
                 --input or --cmd",
            ));
        }
        if args.outside.name.is_some() {
            return Err(Error::unsupported(
                "--name names your own shuffle: use it with --input or --cmd",
            ));
        }
        return Ok(None);
    }
    let order = match (&args.outside.order, &args.outside.order_file) {
        (Some(list), _) => Some(order_items(list)),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
                path: path.clone(),
                source,
            })?;
            Some(order_items(&text))
        }
        (None, None) => None,
    };
    if order.as_ref().is_some_and(Vec::is_empty) {
        return Err(Error::bad_input(
            "the starting order (--order/--order-file) is empty",
        ));
    }
    let Some((feed, default_name)) = feed(args)? else {
        return Ok(None);
    };
    Ok(Some(Outside {
        name: args.outside.name.clone().unwrap_or(default_name),
        feed,
        order,
        categories: args.deck.categories.clone(),
    }))
}

/// The items of a starting order: separated by commas, spaces or lines.
fn order_items(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

//! `shuffle-audit audit`: turn the flags into a study, run it, show it.

use super::EXIT_BIASED;
use super::args::AuditArgs;
use super::color;
use super::samples;
use super::shard;
use super::study::execute;
use super::table::{table_width, wrap};
use super::verdicts;
use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::deck::{self, DEFAULT_HAND, Deck};
use shuffle_audit::engine::{self, ALL_DECKS, N_FROM_INPUT, RunSpec};
use shuffle_audit::experiment::record::{self, RunStart, shell_line};
use shuffle_audit::format::counted;
use shuffle_audit::ingest::{self, Format};
use shuffle_audit::output::{self, thousands};
use shuffle_audit::report::{self, Provenance, content};
use shuffle_audit::sequential::Look;
use shuffle_audit::source::{SourceSpec, reach_warning};
use shuffle_audit::spec::{TestKind, TestSet};
use shuffle_audit::study::{Study, StudyResult};
use shuffle_audit::subject::{Feed, Outside, Subject};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// n when -n is not given (and the input does not say).
const DEFAULT_N: usize = 10;
/// Where files go when neither --out nor --json is given.
const DEFAULT_OUT: &str = "reports/latest";
/// Trials when -t is not given (and no file says how many decks it holds).
const DEFAULT_TRIALS: u64 = 1_000_000;
use shuffle_audit::{Error, Result};

pub fn run(args: &AuditArgs) -> Result<i32> {
    let samplers = samples::named(args)?;
    if args.in_chunks() {
        shard::refuse_unsupported(args, samplers.is_some())?;
    }
    if let Some(samplers) = samplers {
        return samples::run(args, samplers);
    }
    if args.weights.is_some() || args.weights_file.is_some() {
        return Err(Error::invalid(
            "--weights is for weighted picks (-a weighted-prefix, alias or weighted-off-by-one)",
        ));
    }
    let (specs, deck_note) = deck_specs(args, specs(args)?)?;
    if args.in_chunks() {
        return shard::run(args, specs);
    }
    let until_decisive = max_trials(args, specs[0].trials)?;
    let out = out_dir(args.out.as_deref(), args.json || args.export.any());
    let command = shell_line(&record::command_line());
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
    if !args.quiet
        && let Some(warning) = reach.iter().flatten().next()
    {
        eprintln!("{}", wrap(&format!("warning: {warning}"), table_width()));
    }
    let notes: Vec<Option<String>> = reach
        .into_iter()
        .map(|r| join_notes([r, deck_note.clone()]))
        .collect();
    let study = Study {
        alpha: args.alpha,
        until_decisive,
        notes,
        provenance: Provenance::of(&RunStart::now(), command.clone(), vec![command]),
        ..Study::new(specs)
    };
    let result = execute(
        study,
        out.as_deref(),
        args.quiet,
        false,
        &args.export,
        |_, _| Ok(()),
    )?;
    Ok(show(&result, &Shown::of(args, out.as_deref())))
}

/// The report folder of a run: `--out`, else the default one, unless
/// `--json` or an export alone was asked for (then no folder).
pub(super) fn out_dir(out: Option<&Path>, json_or_export: bool) -> Option<PathBuf> {
    match (out, json_or_export) {
        (Some(dir), _) => Some(dir.to_path_buf()),
        (None, false) => Some(PathBuf::from(DEFAULT_OUT)),
        (None, true) => None,
    }
}

/// How a judged run of shuffles is shown: what `audit` and `merge` share.
pub(super) struct Shown<'a> {
    /// Print the summary as JSON instead of the table.
    pub json: bool,
    /// No closing note.
    pub quiet: bool,
    /// Exit 1 when something is biased.
    pub fail_on_bias: bool,
    /// The audits were sequential (`--until-decisive`).
    pub until_decisive: bool,
    /// The report folder written, if any.
    pub out: Option<&'a Path>,
}

impl<'a> Shown<'a> {
    /// As `audit`'s flags ask, with the report in `out`.
    pub(super) fn of(args: &AuditArgs, out: Option<&'a Path>) -> Self {
        Self {
            json: args.json,
            quiet: args.quiet,
            fail_on_bias: args.fail_on_bias,
            until_decisive: args.until_decisive,
            out,
        }
    }
}

/// Prints a judged run (the verdict table, or the JSON summary), says
/// where its report went, and returns the exit code.
pub(super) fn show(result: &StudyResult, shown: &Shown<'_>) -> i32 {
    if shown.json {
        println!("{}", result.summary().to_json());
    } else {
        print!(
            "{}",
            color::verdicts(&render(result, shown.until_decisive), color::stdout())
        );
    }
    if let Some(dir) = shown.out.filter(|_| !shown.quiet) {
        eprintln!(
            "Reports written to {} (open {})",
            dir.display(),
            dir.join(report::HTML_FILE).display()
        );
    }
    if shown.fail_on_bias && result.any_biased() {
        EXIT_BIASED
    } else {
        0
    }
}

/// The per-audit trial budget of `--until-decisive`, if set (for shuffles
/// and samplers alike); refuses a budget below the first look's trials.
pub(super) fn max_trials(args: &AuditArgs, first: u64) -> Result<Option<u64>> {
    if !args.until_decisive {
        return Ok(None);
    }
    let max = args.max_trials.unwrap_or_else(|| first.saturating_mul(64));
    if max < first {
        return Err(Error::invalid(format!(
            "--max-trials ({max}) must be at least --trials ({first})"
        )));
    }
    Ok(Some(max))
}

/// Turns the arguments into run specs, rejecting every bad value before any
/// work starts.
fn specs(args: &AuditArgs) -> Result<Vec<RunSpec>> {
    refuse_command_without_n(args)?;
    let outside = outside(args)?;
    let reads_file = matches!(&outside, Some(o) if matches!(o.feed, Feed::File { .. }));
    let binary = args.format != "text";
    let n = match args.n {
        Some(n) => n,
        None if reads_file && binary => {
            return Err(Error::invalid(format!(
                "--format {} needs -n: binary records do not say how many items a deck has",
                args.format
            )));
        }
        // A file's or a command's first deck says n.
        None if outside.is_some() => N_FROM_INPUT,
        None => DEFAULT_N,
    };
    let trials = match args.trials {
        Some(trials) => trials,
        None if reads_file => ALL_DECKS,
        None => DEFAULT_TRIALS,
    };
    let threads = args.threads.unwrap_or_else(rayon::current_num_threads);
    // With n from the input, "default" is resolved once n is known; a list
    // is checked against the largest n it could meet.
    let mut tests = TestSet::parse(&args.tests, n.max(2))?;
    if let Some(bins) = args.bins {
        // With n from the input, the bins are checked once n is known.
        let at = if n == N_FROM_INPUT { bins.max(2) } else { n };
        tests = tests.with_bins(bins, at)?;
    }
    let source = SourceSpec::parse(&args.rng)?;
    let subjects: Vec<Subject> = match outside {
        Some(outside) => vec![Subject::Outside(outside)],
        None if args.algorithms.is_empty() => {
            Algorithm::ALL.into_iter().map(Subject::from).collect()
        }
        None => {
            let mut chosen: Vec<Subject> = Vec::new();
            for text in &args.algorithms {
                let alg = Subject::from(Algorithm::parse(text)?);
                if chosen.contains(&alg) {
                    return Err(Error::invalid(format!("algorithm '{alg}' is given twice")));
                }
                chosen.push(alg);
            }
            chosen
        }
    };
    let specs: Vec<RunSpec> = subjects
        .into_iter()
        .map(|subject| RunSpec {
            threads: args.threads,
            tests: tests.clone(),
            ..RunSpec::new(subject, n, trials, source, args.seed)
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
    match (&args.cmd, args.n, &args.input) {
        (Some(template), None, None) if ingest::uses_n(template) => Err(Error::invalid(
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
    if args.input.is_some() || args.cmd.is_some() {
        // Decks read from outside: their items, and so their categories,
        // are known once read (see `audit::run_with`).
        if args.hand.is_some() {
            return Err(Error::invalid(
                "--hand: hands are not counted while reading --input/--cmd decks (yet); the \
                 position-by-category tests run without it",
            ));
        }
        return Ok((specs, None));
    }
    let deck = match (&args.deck, &args.categories) {
        (None, None) => {
            if let Some(kind) = specs
                .first()
                .and_then(|s| s.tests.iter().find(|k| k.is_deck()))
            {
                return Err(Error::invalid(format!(
                    "--tests {kind} is a test of decks: add --deck (or --categories)"
                )));
            }
            if args.hand.is_some() {
                return Err(Error::invalid(
                    "--hand is the hand size of the hand test: use it with --categories or --deck",
                ));
            }
            return Ok((specs, None));
        }
        (Some(text), _) => Deck::parse(text)?,
        (None, Some(source)) if source == "cards" => Deck::parse("cards")?,
        (None, Some(_)) => Deck::distinct(specs[0].n),
    };
    if let (Some(n), Some(_)) = (args.n, &args.deck)
        && n != deck.n()
    {
        return Err(Error::invalid(format!(
            "-n {n} but --deck {} has {} items: leave -n out",
            deck.label,
            deck.n()
        )));
    }
    if let Some(bins) = args.bins.filter(|&b| b != deck.n()) {
        return Err(Error::invalid(format!(
            "--bins {bins}: the tests of decks need the full position-by-value matrix: leave \
             out --bins"
        )));
    }
    let deck = match &args.categories {
        Some(source) => deck::categories::apply(deck, source)?,
        None => deck,
    };
    let hand = args.hand.unwrap_or(DEFAULT_HAND.min(deck.n() - 1));
    let deck = deck.with_hand(hand)?;
    if deck.columns().is_empty()
        && let Some(kind) = specs[0]
            .tests
            .iter()
            .find(|k| matches!(k, TestKind::PositionCategory | TestKind::Hand))
    {
        return Err(Error::invalid(format!(
            "--tests {kind} needs category columns: add --categories FILE or --categories cards"
        )));
    }
    let note = Some(deck::battery::note(&deck));
    let specs: Vec<RunSpec> = specs
        .into_iter()
        .map(|spec| spec.with_deck(deck.clone()).0)
        .collect();
    specs[0].tests.check(deck.n())?;
    let threads = args.threads.unwrap_or_else(rayon::current_num_threads);
    engine::check_memory(deck.n(), threads, specs[0].collect())?;
    Ok((specs, note))
}

/// The shuffle from outside named by --input or --cmd, if any, with its
/// starting order; `None` for built-in algorithms.
fn outside(args: &AuditArgs) -> Result<Option<Outside>> {
    if args.input.is_none() && args.cmd.is_none() {
        if args.order.is_some() || args.order_file.is_some() {
            return Err(Error::invalid(
                "--order and --order-file describe your own shuffle's deck: use them with \
                 --input or --cmd",
            ));
        }
        if args.name.is_some() {
            return Err(Error::invalid(
                "--name names your own shuffle: use it with --input or --cmd",
            ));
        }
        return Ok(None);
    }
    let order = match (&args.order, &args.order_file) {
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
        return Err(Error::invalid(
            "the starting order (--order/--order-file) is empty",
        ));
    }
    let Some((feed, default_name)) = feed(args)? else {
        return Ok(None);
    };
    Ok(Some(Outside {
        name: args.name.clone().unwrap_or(default_name),
        feed,
        order,
        categories: args.categories.clone(),
    }))
}

/// Where an outside subject's output comes from (--input or --cmd), with
/// the name reports give it by default; `None` when neither is given.
/// Shared by shuffles and samplers: the same checks and notes for both.
pub(super) fn feed(args: &AuditArgs) -> Result<Option<(Feed, String)>> {
    let found = match (&args.input, &args.cmd) {
        (None, None) => return Ok(None),
        (Some(path), _) => {
            let format = Format::parse(&args.format)?;
            let name = if path == Path::new("-") {
                "stdin".to_string()
            } else {
                if !path.is_file() {
                    return Err(Error::invalid(format!(
                        "--input {}: no such file",
                        path.display()
                    )));
                }
                path.file_name().map_or_else(
                    || path.display().to_string(),
                    |f| f.to_string_lossy().into(),
                )
            };
            (
                Feed::File {
                    path: path.clone(),
                    format,
                },
                name,
            )
        }
        (None, Some(template)) => {
            if args.cmd_timeout == 0 {
                return Err(Error::invalid(
                    "--cmd-timeout must be at least 1 second (got 0)",
                ));
            }
            if template.trim().is_empty() {
                return Err(Error::invalid("--cmd is empty"));
            }
            let jobs = args.jobs.unwrap_or_else(rayon::current_num_threads);
            if jobs > 1 && !template.contains("{seed}") && !args.quiet {
                eprintln!(
                    "note: --cmd has no {{seed}}: the {jobs} copies get the same arguments, so a \
                     program that is deterministic without a seed prints the same output in each"
                );
            }
            (
                Feed::Command {
                    template: template.to_string(),
                    jobs,
                    timeout: Duration::from_secs(args.cmd_timeout),
                },
                template.to_string(),
            )
        }
    };
    Ok(Some(found))
}

/// The items of a starting order: separated by commas, spaces or lines.
fn order_items(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// The human-readable result: a header line, the verdict table and notes.
fn render(result: &StudyResult, until_decisive: bool) -> String {
    let audits = &result.audits;
    let alpha = result.study.alpha;
    let Some(first) = audits.first() else {
        return String::new();
    };
    // Sequential audits stop at different trial counts: say what each may
    // use, not the count of the first one.
    let trials = if until_decisive {
        let most = audits.iter().map(|a| a.spec.trials).max().unwrap_or(0);
        format!("up to {} trials each (until decisive)", thousands(most))
    } else if audits.iter().all(|a| a.spec.trials == first.spec.trials) {
        format!("{} trials each", thousands(first.spec.trials))
    } else {
        "trials as listed".to_string()
    };
    let mut out = if first.spec.subject.builtin().is_some() {
        format!(
            "n = {}, {trials}, rng {}, seed {}: {}\nalpha {}, Holm within each audit and over \
             {}\ntests: {}\n\n",
            first.spec.n,
            first.spec.source,
            first.spec.seed,
            content::verdict_counts(audits),
            alpha,
            counted(audits.len() as u64, "audit", "audits"),
            first.spec.tests,
        )
    } else {
        format!(
            "{}\nalpha {}, Holm across the tests; tests: {}\n\n",
            wrap(
                &format!("{}: {}", first.spec.subject, output::run_words(first)),
                table_width()
            ),
            alpha,
            first.spec.tests,
        )
    };
    out.push_str(&verdicts::render(audits, &result.findings));
    if let Some(deck) = &first.spec.deck {
        let note = deck::battery::note(deck);
        out.push_str(&wrap(&format!("\nnote: {note}\n"), table_width()));
    }
    if until_decisive {
        out.push_str(&sequential_note(
            audits
                .iter()
                .map(|a| (a.spec.subject.to_string(), a.looks.as_slice())),
        ));
    }
    out
}

/// The note under a sequential run's verdict table, for shuffles and
/// samplers alike: how α was spent, and each audit's looks (wrapped to the
/// table's width).
pub(super) fn sequential_note<'a>(
    audits: impl ExactSizeIterator<Item = (String, &'a [Look])>,
) -> String {
    let mut out = format!(
        "\nSequential: each audit doubled its trials until biased at alpha / (looks x {}) \
         (Bonferroni alpha-spending) or its budget ran out; p (adjusted) is its best look's p \
         times that factor.\n",
        counted(audits.len() as u64, "audit", "audits")
    );
    for (name, looks) in audits {
        let looks: Vec<String> = looks.iter().map(|l| thousands(l.trials)).collect();
        out.push_str(&format!("  {name}: looks at {}\n", looks.join(", ")));
    }
    wrap(&out, table_width())
}

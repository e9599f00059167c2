//! `shuffle-audit audit -a SAMPLER`: audit k-of-N samplers and weighted
//! picks: run, test, judge (Holm within and across the audits), show the
//! verdicts and write the run's files and report.

use super::EXIT_BIASED;
use super::audit_args::{AuditArgs, InputKind, OutputArgs};
use super::color;
use super::feed::feed;
use super::table::{Table, table_width, wrap};
use super::verdicts::seen_by_cell;
use shuffle_audit::error::ErrorKind;
use shuffle_audit::format::{counted, format_ratio, short_count};
use shuffle_audit::ingest::samples::{Base, SampleKind};
use shuffle_audit::output::samples::{SampleSummary, drawn_words};
use shuffle_audit::output::{files, format_p};
use shuffle_audit::report::{self, samples as report_samples};
use shuffle_audit::sampler::Sampler;
use shuffle_audit::sampler::audit::SampleAudit;
use shuffle_audit::sampler::run::{ALL_SAMPLES, SampleSpec};
use shuffle_audit::sampler::subject::{OutsideSampler, SampleFeed, SamplerSubject};
use shuffle_audit::source::SourceSpec;
use shuffle_audit::stats::Verdict;
use shuffle_audit::study::StudyResult;
use shuffle_audit::{Error, Result};
use std::path::Path;

use shuffle_audit::spec::{DEFAULT_N, DEFAULT_TRIALS};

/// What `-a` names, split by kind: the shuffles' names as given and the
/// samplers (the outside sampler of `--kind sample|pick` alone). Both empty
/// means every built-in shuffle; a name that is neither is an error with the
/// closer suggestion.
pub struct Named {
    /// The `-a` names that are shuffles.
    pub shuffles: Vec<String>,
    /// The samplers named by `-a`, or the one read from outside.
    pub samplers: Vec<SamplerSubject>,
}

/// Splits the subjects of `-a` (or `--kind sample|pick`) into shuffles and
/// samplers.
pub fn named(args: &AuditArgs) -> Result<Named> {
    if let Some(outside) = outside(args)? {
        return Ok(Named {
            shuffles: Vec::new(),
            samplers: vec![SamplerSubject::Outside(outside)],
        });
    }
    use shuffle_audit::algorithm::Algorithm;
    let mut named = Named {
        shuffles: Vec::new(),
        samplers: Vec::new(),
    };
    for text in &args.subject.algorithms {
        match (Algorithm::parse(text), Sampler::parse(text)) {
            (Ok(_), _) => named.shuffles.push(text.clone()),
            (Err(_), Ok(sampler)) => named.samplers.push(SamplerSubject::Builtin(sampler)),
            (Err(shuffle), Err(sampler)) => {
                // Suggest from whichever list has a near name.
                let hint = |e: &Error| e.to_string().contains("did you mean");
                return Err(if hint(&sampler) && !hint(&shuffle) {
                    sampler
                } else {
                    shuffle
                });
            }
        }
    }
    Ok(named)
}

/// The sampler from outside of `--kind sample|pick` with `--input` or
/// `--cmd`; `None` for `--kind deck`.
fn outside(args: &AuditArgs) -> Result<Option<OutsideSampler>> {
    let kind = match args.outside.kind {
        InputKind::Deck => {
            if args.outside.base.is_some() {
                return Err(Error::unsupported(
                    "--base numbers the items of samples and picks: use it with --kind sample, \
                     ordered or pick",
                ));
            }
            return Ok(None);
        }
        InputKind::Sample => SampleKind::Sample,
        InputKind::Ordered => SampleKind::Ordered,
        InputKind::Pick => SampleKind::Pick,
    };
    let flag = format!("--kind {}", kind.name());
    let Some((feed, default_name)) = feed(args)? else {
        return Err(Error::unsupported(format!(
            "{flag} describes your own sampler's output: use it with --input FILE or --cmd \
             PROGRAM"
        )));
    };
    let feed = SampleFeed::from_feed(feed).map_err(|e| {
        Error::of_kind(
            ErrorKind::Unsupported,
            format!("{flag}: {}", e.to_string().trim_start_matches("error: ")),
        )
    })?;
    let base = args.outside.base.as_deref().map(Base::parse).transpose()?;
    Ok(Some(OutsideSampler {
        name: args.outside.name.clone().unwrap_or(default_name),
        feed,
        kind,
        base,
    }))
}

/// The specs of the sampler audits the flags ask for, every bad request
/// (a shuffle's flag without a shuffle to take it, k > N, missing or stray
/// weights, a sampler given twice) refused before anything runs.
pub fn specs(
    args: &AuditArgs,
    samplers: Vec<SamplerSubject>,
    with_shuffles: bool,
) -> Result<Vec<SampleSpec>> {
    if !with_shuffles {
        refuse_shuffle_flags(args)?;
    }
    let weights = weights(args)?;
    if weights.is_some() && !samplers.iter().any(takes_weights) {
        return Err(Error::of_kind(
            ErrorKind::Unsupported,
            "--weights is for weighted picks (weighted-prefix, alias, weighted-off-by-one, or \
             your own with --kind pick)",
        ));
    }
    let mut specs = Vec::new();
    for sampler in samplers {
        let n = size(args, &sampler, weights.as_deref())?;
        let trials = match (&sampler, args.run.trials) {
            (_, Some(trials)) => trials,
            (SamplerSubject::Outside(o), None) if matches!(o.feed, SampleFeed::File(_)) => {
                ALL_SAMPLES
            }
            _ => DEFAULT_TRIALS,
        };
        let spec = SampleSpec {
            weights: weights.clone().filter(|_| takes_weights(&sampler)),
            threads: args.run.threads,
            ..SampleSpec::new(
                sampler,
                n,
                trials,
                SourceSpec::parse(&args.run.rng)?,
                args.run.seed,
            )
        };
        // Every bad request (k > N, missing weights) before anything runs.
        if let Some(builtin) = spec.sampler.builtin() {
            builtin.prepare(spec.n, spec.weights.as_deref())?;
        }
        if specs.iter().any(|s: &SampleSpec| s.sampler == spec.sampler) {
            return Err(Error::bad_input(format!(
                "sampler '{}' is given twice",
                spec.sampler
            )));
        }
        specs.push(spec);
    }
    Ok(specs)
}

/// Shows a judged study of samplers only, whether run here, resumed or
/// merged from shards: writes the `--export-*` files, prints the verdict
/// table (or the JSON summary), says where the report went (`out`), and
/// returns the exit code.
pub(super) fn show(result: &StudyResult, output: &OutputArgs, out: Option<&Path>) -> Result<i32> {
    let title = &result.study.title;
    let alpha = result.study.alpha;
    let provenance = &result.study.provenance;
    let audits = &result.samples;
    let summary = SampleSummary::of(audits, alpha);
    if let Some(path) = &output.export.export_json {
        files::write_atomic(path, format!("{}\n", summary.to_json()).as_bytes())?;
    }
    if let Some(path) = &output.export.export_csv {
        files::write_atomic(path, summary.to_csv().as_bytes())?;
    }
    if let Some(path) = &output.export.export_markdown {
        let mut doc = report_samples::build(title, audits, audits.len(), alpha, provenance);
        doc.sections.truncate(1);
        files::write_atomic(path, report::markdown::render(&doc).as_bytes())?;
    }
    if output.json {
        println!("{}", summary.to_json());
    } else {
        print!(
            "{}",
            color::verdicts(&render(audits, audits.len(), alpha), color::stdout())
        );
    }
    if let Some(dir) = out.filter(|_| !output.quiet) {
        eprintln!(
            "Reports written to {} (open {})",
            dir.display(),
            dir.join(report::HTML_FILE).display()
        );
    }
    let biased = audits.iter().any(|a| a.verdict() == Verdict::Biased);
    Ok(if output.fail_on_bias && biased {
        EXIT_BIASED
    } else {
        0
    })
}

/// The sample budget of `--until-decisive` for `specs` (which share their
/// first look's trials), if set: the same rule and refusal as for shuffles,
/// and refused for an outside sampler, whose samples are the ones given.
pub(super) fn budget(args: &AuditArgs, specs: &[SampleSpec]) -> Result<Option<u64>> {
    let first = specs.first().map_or(DEFAULT_TRIALS, |s| s.trials);
    let until_decisive = super::feed::max_trials(args, first)?;
    if until_decisive.is_some() && specs.iter().any(|s| s.sampler.builtin().is_none()) {
        return Err(Error::of_kind(
            ErrorKind::Unsupported,
            "--until-decisive draws more samples from a built-in sampler; your sampler's \
             samples are the ones given (use -t for more from --cmd)",
        ));
    }
    Ok(until_decisive)
}

/// The verdict table and its notes, fitted to 100 columns.
pub fn render(audits: &[SampleAudit], judged_with: usize, alpha: f64) -> String {
    let verdicts: Vec<Verdict> = audits.iter().map(|a| a.verdict()).collect();
    let mut out = format!(
        "{}\nalpha {alpha}, Holm within each audit and over {}\n",
        report::content::verdict_counts_of(&verdicts),
        counted(judged_with as u64, "audit", "audits")
    );
    for a in audits
        .iter()
        .filter(|a| a.spec().sampler.builtin().is_none())
    {
        out.push_str(&wrap(
            &format!("{}: {}", a.spec().sampler, drawn_words(a)),
            table_width(),
        ));
        out.push('\n');
    }
    out.push('\n');
    let mut table = Table::new(&[
        ("sampler", false),
        ("N", true),
        ("k", true),
        ("trials", true),
        ("verdict", false),
        ("p (adj.)", true),
        ("seen by", false),
        ("could detect", false),
        ("largest deviation", false),
    ])
    .droppable(&["seen by", "could detect"])
    .shrinkable(&["seen by", "sampler", "largest deviation"])
    .lists(&["seen by"], "tests");
    let mut inconclusive = Vec::new();
    for a in audits {
        if let Some(note) = a.inconclusive_note() {
            inconclusive.push(format!("  {}: {note} (-t)", a.spec().sampler));
        }
        table.push(vec![
            a.spec().sampler.to_string(),
            a.tally().n().to_string(),
            a.tally().k().to_string(),
            short_count(a.tally().trials()),
            format!("{} {}", a.verdict().symbol(), a.verdict()),
            format_p(a.log10_p_adjusted()),
            seen_by_cell(a.seen_by().iter().map(|t| t.test)),
            report_samples::detectable_words(a).replace(" per item", ""),
            deviation_short(a),
        ]);
    }
    let fitted = table.fit(table_width());
    out.push_str(&fitted.text);
    let mut notes = String::from(
        "\np (adj.): the p-value each verdict compared with alpha, after every correction. \
         seen by: the tests that rejected after those corrections, strongest evidence (smallest \
         p) first. could detect: the smallest deviation of one item's inclusion the run would have seen \
         with 90% power. largest deviation: observed/expected of the decisive test's most deviant \
         cell (item, pair, subset or slot).",
    );
    notes.push_str(&fitted.note());
    out.push_str(&wrap(&notes, table_width()));
    out.push('\n');
    if !inconclusive.is_empty() {
        out.push_str(&format!(
            "\nInconclusive (too few samples to tell):\n{}\n",
            wrap(&inconclusive.join("\n"), table_width())
        ));
    }
    out.push_str(&sequential_note(audits));
    out
}

/// The note on a sequential run's looks (as for shuffles); empty for a
/// plain run.
fn sequential_note(audits: &[SampleAudit]) -> String {
    if audits.iter().all(|a| a.looks().is_empty()) {
        return String::new();
    }
    super::verdicts::sequential_note(
        audits
            .iter()
            .map(|a| (a.spec().sampler.to_string(), a.looks())),
    )
}

/// The largest deviation in a few characters (`0.74× item 0`,
/// `9.02× pair (3, 8)`, `none stands out`): the same finding as the
/// report's sentence.
fn deviation_short(a: &SampleAudit) -> String {
    let decisive = a.decisive().map(|t| t.test);
    match a.deviations().iter().find(|(t, _)| Some(*t) == decisive) {
        Some((_, d)) if a.verdict() == Verdict::Biased => {
            let ratio = d.ratio();
            if ratio == 0.0 {
                format!("never: {}", d.cell)
            } else {
                format!("{}× {}", format_ratio(ratio), d.cell)
            }
        }
        _ => "none stands out".to_string(),
    }
}

/// Whether the sampler draws against weights: a built-in weighted pick, or
/// an outside sampler's picks.
fn takes_weights(sampler: &SamplerSubject) -> bool {
    match sampler {
        SamplerSubject::Builtin(sampler) => matches!(sampler, Sampler::Weighted(_)),
        SamplerSubject::Outside(outside) => outside.kind == SampleKind::Pick,
    }
}

/// N: a board's w·h, the weights' count, -n, or the default (built-in
/// samplers only: an outside sampler's population must be stated); a -n
/// that disagrees with the board or the weights is refused.
fn size(args: &AuditArgs, sampler: &SamplerSubject, weights: Option<&[u64]>) -> Result<usize> {
    let fixed = sampler
        .builtin()
        .and_then(|s| s.population())
        .or(weights.filter(|_| takes_weights(sampler)).map(<[u64]>::len));
    match (fixed, args.subject.n) {
        (Some(f), Some(n)) if f != n => Err(Error::of_kind(
            ErrorKind::OutOfRange,
            format!("{sampler} has N = {f} items, but -n says {n}"),
        )),
        (Some(f), _) => Ok(f),
        (None, Some(n)) => Ok(n),
        (None, None) if sampler.builtin().is_some() => Ok(DEFAULT_N),
        (None, None) => Err(Error::unsupported(format!(
            "--kind {} needs -n, the population size (e.g. -n 49 for a 6-of-49 lottery)",
            match args.outside.kind {
                InputKind::Pick => "pick",
                InputKind::Ordered => "ordered",
                InputKind::Sample | InputKind::Deck => "sample",
            }
        ))),
    }
}

/// The weights of `--weights` or `--weights-file`, if given.
fn weights(args: &AuditArgs) -> Result<Option<Vec<u64>>> {
    let text = match (&args.subject.weights, &args.subject.weights_file) {
        (Some(list), _) => list.clone(),
        (None, Some(path)) => read(path)?,
        (None, None) => return Ok(None),
    };
    parse_weights(&text).map(Some)
}

/// Weights separated by commas, spaces or lines: whole numbers (`1,99`) or
/// decimals such as probabilities (`0.1,0.2,0.7`). The exact laws count in
/// whole numbers, so decimals are scaled exactly to whole numbers in the
/// same proportions (by ten to the most decimals written, then divided by
/// their greatest common divisor: `1,2,7`), and a note on stderr says so.
pub fn parse_weights(text: &str) -> Result<Vec<u64>> {
    let tokens: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    let decimals: Vec<(u128, u32)> = tokens
        .iter()
        .map(|t| {
            decimal(t).ok_or_else(|| {
                Error::of_kind(
                    ErrorKind::BadInput,
                    format!(
                        "weight '{t}' is not a number ≥ 0 (write whole numbers, or decimals \
                         such as 0.25 without an exponent)"
                    ),
                )
            })
        })
        .collect::<Result<_>>()?;
    let places = decimals.iter().map(|&(_, p)| p).max().unwrap_or(0);
    let too_big = || {
        Error::of_kind(
            ErrorKind::OutOfRange,
            format!(
                "weights {}: too many digits to scale to whole numbers below 2^64",
                tokens.join(",")
            ),
        )
    };
    let scaled: Vec<u128> = decimals
        .iter()
        .map(|&(digits, p)| {
            10u128
                .checked_pow(places - p)
                .and_then(|s| digits.checked_mul(s))
        })
        .collect::<Option<_>>()
        .ok_or_else(too_big)?;
    let divisor = scaled.iter().fold(0, |g, &w| num_integer::gcd(g, w)).max(1);
    let divisor = if places == 0 { 1 } else { divisor };
    let weights: Vec<u64> = scaled
        .iter()
        .map(|&w| u64::try_from(w / divisor).ok())
        .collect::<Option<_>>()
        .ok_or_else(too_big)?;
    if places > 0 {
        let whole: Vec<String> = weights.iter().map(u64::to_string).collect();
        eprintln!(
            "note: weights {} read as {} (the same proportions in whole numbers, which the \
             exact laws count in)",
            tokens.join(","),
            whole.join(",")
        );
    }
    Ok(weights)
}

/// A decimal number ≥ 0 written without sign or exponent (`7`, `0.25`,
/// `.5`, `3.`): its digits as a whole number and how many of them follow
/// the point; `None` for anything else or more than 30 digits.
fn decimal(text: &str) -> Option<(u128, u32)> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = format!("{whole}{fraction}");
    if digits.is_empty() || digits.len() > 30 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((digits.parse().ok()?, fraction.len() as u32))
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Flags that only mean something for shuffles.
fn refuse_shuffle_flags(args: &AuditArgs) -> Result<()> {
    let used = [
        (args.run.tests != "default", "--tests"),
        (
            args.outside.order.is_some() || args.outside.order_file.is_some(),
            "--order",
        ),
    ];
    if let Some((_, flag)) = used.iter().find(|(on, _)| *on) {
        return Err(Error::of_kind(
            ErrorKind::Unsupported,
            format!("{flag} is for shuffles; sampler audits do not take it"),
        ));
    }
    Ok(())
}

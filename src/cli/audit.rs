//! `shuffle-audit audit`: validate everything, run, judge, write, report.

use super::EXIT_BIASED;
use super::args::AuditArgs;
use super::run::run_audits;
use super::verdicts;
use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::audit::{self, Audit};
use shuffle_audit::engine::{self, RunSpec};
use shuffle_audit::experiment::record::{self, RunStart, shell_line};
use shuffle_audit::output::{self, files, summary::Summary, thousands};
use shuffle_audit::params::parse_count;
use shuffle_audit::report::content;
use shuffle_audit::report::{self, Provenance, ReportInput};
use shuffle_audit::source::SourceSpec;
use shuffle_audit::spec::TestSet;
use shuffle_audit::stats::Verdict;
use shuffle_audit::{Error, Result};

pub fn run(args: &AuditArgs) -> Result<i32> {
    let specs = specs(args)?;
    audit::check_alpha(args.alpha)?;
    files::prepare_dir(&args.out)?;

    let start = RunStart::now();
    let budget = max_trials(args, specs[0].trials)?;
    let audits = run_audits(&specs, args.alpha, args.quiet, false, budget)?;

    output::write_run(&args.out, &audits, args.alpha)?;
    write_report(&audits, args, &start)?;
    if args.json {
        println!("{}", Summary::of(&audits, args.alpha).to_json());
    } else {
        print!("{}", render(&audits, args));
    }
    if !args.quiet {
        eprintln!(
            "Reports written to {} (open {})",
            args.out.display(),
            args.out.join(report::HTML_FILE).display()
        );
    }
    let any_biased = audits.iter().any(|a| a.verdict == Verdict::Biased);
    Ok(if args.fail_on_bias && any_biased {
        EXIT_BIASED
    } else {
        0
    })
}

/// The per-audit trial budget of `--until-decisive`, if set.
fn max_trials(args: &AuditArgs, first: u64) -> Result<Option<u64>> {
    if !args.until_decisive {
        return Ok(None);
    }
    let max = match &args.max_trials {
        Some(text) => parse_count(text)?,
        None => first.saturating_mul(64),
    };
    if max < first {
        return Err(Error::invalid(format!(
            "--max-trials ({max}) must be at least --trials ({first})"
        )));
    }
    Ok(Some(max))
}

/// Writes report.html and report.md, the same report `run` writes.
fn write_report(audits: &[Audit], args: &AuditArgs, start: &RunStart) -> Result<()> {
    let title = match audits.first() {
        Some(a) if audits.len() == 1 => {
            format!("Audit of {} at n = {}", a.spec.subject, a.spec.n)
        }
        Some(a) => format!("Audit of {} algorithms at n = {}", audits.len(), a.spec.n),
        None => "Audit".to_string(),
    };
    let command = record::command_line();
    let input = ReportInput {
        title,
        purpose: String::new(),
        alpha: args.alpha,
        audits,
        notes: Vec::new(),
        mixing: Vec::new(),
        provenance: Provenance {
            tool: record::tool_version(),
            git_commit: start.commit.clone(),
            git_dirty: start.dirty,
            date: record::rfc3339(start.time),
            command_line: shell_line(&command),
            reproduce: vec![shell_line(&command)],
        },
    };
    report::write(&args.out, &input)?;
    Ok(())
}

/// Turns the arguments into run specs, rejecting every bad value before any
/// work starts.
fn specs(args: &AuditArgs) -> Result<Vec<RunSpec>> {
    if args.n < 2 {
        return Err(Error::invalid(format!(
            "n = {} is too small: n must be at least 2",
            args.n
        )));
    }
    if args.n > u32::MAX as usize {
        return Err(Error::invalid(format!("n = {} is too large", args.n)));
    }
    let trials = parse_count(&args.trials)?;
    if trials == 0 {
        return Err(Error::invalid("trials must be at least 1 (got 0)"));
    }
    if args.threads == Some(0) {
        return Err(Error::invalid("threads must be at least 1 (got 0)"));
    }
    let threads = args.threads.unwrap_or_else(rayon::current_num_threads);
    let tests = TestSet::parse(&args.tests, args.n)?;
    let source = SourceSpec::parse(&args.rng)?;
    let algorithms = if args.algorithms.is_empty() {
        Algorithm::ALL.to_vec()
    } else {
        let mut chosen: Vec<Algorithm> = Vec::new();
        for text in &args.algorithms {
            let alg = Algorithm::parse(text)?;
            if chosen.contains(&alg) {
                return Err(Error::invalid(format!("algorithm '{alg}' is given twice")));
            }
            chosen.push(alg);
        }
        chosen
    };
    let specs: Vec<RunSpec> = algorithms
        .into_iter()
        .map(|algorithm| RunSpec {
            threads: args.threads,
            tests: tests.clone(),
            ..RunSpec::new(algorithm, args.n, trials, source, args.seed)
        })
        .collect();
    engine::check_memory(args.n, threads, specs[0].collect())?;
    Ok(specs)
}

/// The human-readable result: a header line, the verdict table and notes.
fn render(audits: &[Audit], args: &AuditArgs) -> String {
    let Some(first) = audits.first() else {
        return String::new();
    };
    let mut out = format!(
        "n = {}, {} trials each, rng {}, seed {}, tests {}, alpha {} (Holm within each audit, then over {} audits): {}\n\n",
        first.spec.n,
        thousands(first.spec.trials),
        first.spec.source,
        first.spec.seed,
        first.spec.tests,
        args.alpha,
        audits.len(),
        content::verdict_counts(audits),
    );
    out.push_str(&verdicts::render(audits));
    if args.until_decisive {
        out.push_str(&format!(
            "\nSequential: each audit doubled its trials until biased at alpha / (looks x {} \
             audits) (Bonferroni alpha-spending) or its budget ran out; p (adjusted) is its best \
             look's p times that factor.\n",
            audits.len()
        ));
        for a in audits {
            let looks: Vec<String> = a.looks.iter().map(|l| thousands(l.trials)).collect();
            out.push_str(&format!(
                "  {}: looks at {}\n",
                a.spec.subject,
                looks.join(", ")
            ));
        }
    }
    out
}

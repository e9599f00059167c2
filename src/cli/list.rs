//! `shuffle-audit list`: the algorithms and samplers (from their records)
//! and the random sources.

use super::args::ListArgs;
use super::table::{hanging, table_width, wrap};
use crate::Result;
use crate::algorithm::{Algorithm, Exact, Record};
use crate::sampler::Sampler;
use crate::source::{SourceKind, arrangement_bits};

/// The exact method of a record, in a word or two.
fn exact_words(record: &Record<'_>) -> &'static str {
    match record.exact {
        Exact::Replay(_) => "enumerate",
        Exact::ReplayWithoutRepeats => "enumerate (rejection folded)",
        Exact::Stepwise => "compose steps",
        Exact::Unavailable(_) => "none",
    }
}

pub fn run(args: &ListArgs) -> Result<i32> {
    if args.json {
        let algorithms: Vec<_> = Algorithm::ALL
            .iter()
            .map(|a| {
                let r = a.record();
                let params: Vec<_> = r
                    .params
                    .iter()
                    .map(|p| serde_json::json!({ "key": p.key, "meaning": p.meaning }))
                    .collect();
                serde_json::json!({
                    "name": r.name,
                    "expected": r.expected.slug(),
                    "description": r.description,
                    "params": params,
                    "exact": exact_words(&r),
                    "exact_marginals": r.positional.is_some(),
                    "mixing": r.steps.map(|s| s.plural()),
                })
            })
            .collect();
        let sources: Vec<_> = SourceKind::ALL
            .iter()
            .map(|s| {
                serde_json::json!({
                    "name": s.name(),
                    "weak": s.is_weak(),
                    "state_bits": s.state_bits(),
                    "description": s.description(),
                })
            })
            .collect();
        let samplers: Vec<_> = Sampler::ALL
            .iter()
            .map(|s| {
                let r = s.record();
                serde_json::json!({
                    "name": r.name,
                    "expected": r.expected.slug(),
                    "description": r.description,
                    "ordered": r.ordered,
                })
            })
            .collect();
        let doc = serde_json::json!({
            "algorithms": algorithms,
            "samplers": samplers,
            "sources": sources,
        });
        println!("{}", serde_json::to_string_pretty(&doc).expect("JSON"));
        return Ok(0);
    }
    println!("Algorithms (-a NAME[:key=value]); exact: how `exact` computes the law:");
    for a in Algorithm::ALL {
        let r = a.record();
        let prefix = format!(
            "  {:<24} {:<7} {:<10} ",
            r.name,
            r.expected.slug(),
            exact_words(&r).split(' ').next().unwrap_or("")
        );
        println!("{}", hanging(&prefix, r.description, table_width()));
    }
    println!("\nSamplers (-a NAME[:k=K]; N from -n, a board's w*h, or the count of --weights):");
    for sampler in Sampler::ALL {
        let r = sampler.record();
        let prefix = format!("  {:<24} {:<7} ", r.name, r.expected.slug());
        println!("{}", hanging(&prefix, r.description, table_width()));
    }
    println!(
        "\n{}",
        wrap(
            "Your own shuffle: --input FILE (decks one per line, or - for stdin), --cmd 'PROGRAM \
             {n} {count} {seed}', or crate::assert_fair in cargo test.",
            table_width()
        )
    );
    println!();
    println!(
        "{}",
        wrap(
            &format!(
                "Random sources (--rng NAME), with the bits of state that decide a deal (at most \
                 2^bits different deals; every arrangement of n items needs log2(n!) bits: {:.1} \
                 for n = 10, {:.1} for n = 52):",
                arrangement_bits(10),
                arrangement_bits(52)
            ),
            table_width()
        )
    );
    for s in SourceKind::ALL {
        let prefix = format!("  {:<16} {:>3} bits  ", s.name(), s.state_bits());
        println!("{}", hanging(&prefix, s.description(), table_width()));
    }
    Ok(0)
}

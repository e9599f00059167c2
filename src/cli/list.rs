//! `shuffle-audit list`.

use super::args::ListArgs;
use shuffle_audit::Result;
use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::source::SourceKind;

pub fn run(args: &ListArgs) -> Result<i32> {
    if args.json {
        let algorithms: Vec<_> = Algorithm::ALL
            .iter()
            .map(|a| {
                serde_json::json!({
                    "name": a.name(),
                    "expected": if a.expected_fair() { "fair" } else { "biased" },
                    "description": a.description(),
                })
            })
            .collect();
        let sources: Vec<_> = SourceKind::ALL
            .iter()
            .map(|s| {
                serde_json::json!({
                    "name": s.name(),
                    "weak": s.is_weak(),
                    "description": s.description(),
                })
            })
            .collect();
        let doc = serde_json::json!({ "algorithms": algorithms, "sources": sources });
        println!("{}", serde_json::to_string_pretty(&doc).expect("JSON"));
        return Ok(0);
    }
    println!("Algorithms (-a NAME[:key=value]):");
    for a in Algorithm::ALL {
        let expected = if a.expected_fair() { "fair" } else { "biased" };
        println!("  {:<24} {:<7} {}", a.name(), expected, a.description());
    }
    println!();
    println!("Random sources (--rng NAME):");
    for s in SourceKind::ALL {
        println!("  {:<24} {}", s.name(), s.description());
    }
    Ok(0)
}

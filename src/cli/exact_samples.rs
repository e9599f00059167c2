//! `shuffle-audit exact -a SAMPLER`: a sampler's exact law on N items, by
//! enumerating its draws: every subset's probability (every ordered tuple's
//! for an ordered sampler), each item's inclusion probability, and how far
//! it is from uniform; for a weighted pick, each index's probability against
//! w_i / Σw.

use super::args::ExactArgs;
use crate::output::{thousands, yes_no};
use crate::request::parse_weights;
use crate::sampler::{Sampler, exact_pick_law_capped, exact_subset_law_capped};
use crate::{Error, Result};
use num_rational::BigRational;
use num_traits::ToPrimitive;

/// Subsets listed by name; beyond, the most and least likely.
const LISTED: usize = 12;

/// Computes and prints the exact law of `sampler` on `-n` items (with
/// `--weights` for a weighted pick), refusing above `max_leaves` replays.
pub fn run(sampler: Sampler, args: &ExactArgs, max_leaves: u64) -> Result<i32> {
    let (n, json) = (args.n, args.json);
    let weights = args.weights.as_deref().map(parse_weights).transpose()?;
    if let Some(w) = weights.as_ref().filter(|w| w.len() != n) {
        return Err(Error::out_of_range(format!(
            "{} weights for n = {n}: give one weight per item",
            w.len()
        )));
    }
    if let Some(weights) = weights.as_deref() {
        let law = exact_pick_law_capped(sampler, weights, max_leaves)?;
        let probabilities: Vec<String> =
            law.probabilities().iter().map(|p| p.to_string()).collect();
        if json {
            let doc = serde_json::json!({
                "sampler": sampler.to_string(),
                "weights": weights,
                "probabilities": probabilities,
                "proportional": law.is_proportional(),
                "leaves": law.leaves(),
            });
            println!("{}", serde_json::to_string_pretty(&doc).expect("JSON"));
            return Ok(0);
        }
        let total: u64 = weights.iter().sum();
        println!(
            "Exact law of {sampler} with weights {weights:?} ({} draw sequences)",
            thousands(law.leaves())
        );
        for (i, p) in law.probabilities().iter().enumerate() {
            println!("  index {i}: {p} (weights say {}/{total})", weights[i]);
        }
        println!(
            "proportional to the weights: {}",
            if law.is_proportional() { "yes" } else { "no" }
        );
        return Ok(0);
    }
    let law = exact_subset_law_capped(sampler, n, max_leaves)?;
    let inclusion: Vec<BigRational> = law.inclusion();
    if json {
        let subsets: Vec<_> = law
            .subsets()
            .iter()
            .map(|(items, p)| serde_json::json!({ "items": items, "probability": p.to_string() }))
            .collect();
        let doc = serde_json::json!({
            "sampler": sampler.to_string(),
            "n": n,
            "k": law.k(),
            "leaves": law.leaves(),
            "uniform": law.is_uniform(),
            "uniform_ordered": law.is_uniform_ordered(),
            "total_variation": law.distance_to_uniform().to_string(),
            "inclusion": inclusion.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "subsets": subsets,
        });
        println!("{}", serde_json::to_string_pretty(&doc).expect("JSON"));
        return Ok(0);
    }
    println!(
        "Exact law of {sampler} on N = {n} items (k = {}): {} draw sequences enumerated",
        law.k(),
        thousands(law.leaves())
    );
    println!(
        "uniform over the C({n}, {}) = {} subsets: {}",
        law.k(),
        law.subset_count(),
        yes_no(law.is_uniform())
    );
    if let Some(uniform) = law.is_uniform_ordered() {
        println!("uniform over ordered tuples: {}", yes_no(uniform));
    }
    let tv = law.distance_to_uniform();
    println!(
        "total variation distance to uniform: {tv} ({:.6})",
        tv.to_f64().unwrap_or(f64::NAN)
    );
    println!("inclusion P(item in the sample):");
    for (i, p) in inclusion.iter().enumerate() {
        println!("  item {i}: {p}");
    }
    let mut subsets: Vec<&(Vec<u32>, BigRational)> = law.subsets().iter().collect();
    subsets.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!(
        "reachable subsets: {} of {}",
        thousands(subsets.len() as u64),
        law.subset_count()
    );
    let shown: Vec<&&(Vec<u32>, BigRational)> = if subsets.len() <= LISTED {
        subsets.iter().collect()
    } else {
        println!("the {} most and least likely:", LISTED / 2);
        let half = LISTED / 2;
        subsets[..half]
            .iter()
            .chain(&subsets[subsets.len() - half..])
            .collect()
    };
    for (items, p) in shown {
        let items: Vec<String> = items.iter().map(u32::to_string).collect();
        println!("  {{{}}}: {p}", items.join(", "));
    }
    Ok(0)
}

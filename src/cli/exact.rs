//! `shuffle-audit exact`: validate, compute the exact law (or the marginals
//! alone), write the files, report.

use super::args::ExactArgs;
use super::exact_samples;
use super::table::Table;
use crate::algorithm::Algorithm;
use crate::exact::{self, DrawLaw, EXACT_MAX_BITS, EXACT_MAX_N, ExactLaw, ExactMarginals};
use crate::output::exact::{ExactReport, permutation_text, write_exact};
use crate::output::yes_no;
use crate::output::{files, thousands};
use crate::params::parse_count;
use crate::sampler::Sampler;
use crate::source::SourceSpec;
use crate::{Error, Result};
use num_rational::BigRational;
use std::time::Instant;

/// Up to this many reachable permutations, all are printed.
const SHOW_ALL_MAX: usize = 24;
/// Otherwise this many of the most, and of the least, likely ones.
const SHOW_EACH: usize = 10;
/// The distinct probabilities are tabulated when there are at most this many.
const LEVELS_MAX: usize = 12;
/// The marginal matrix is printed up to this n (files and JSON always have it).
const MATRIX_MAX_N: usize = 12;

/// What was computed.
enum Outcome {
    Law(ExactLaw),
    Marginals(ExactMarginals),
}

impl Outcome {
    fn marginals(&self) -> &ExactMarginals {
        match self {
            Outcome::Law(law) => law.marginals(),
            Outcome::Marginals(m) => m,
        }
    }

    fn law(&self) -> Option<&ExactLaw> {
        match self {
            Outcome::Law(law) => Some(law),
            Outcome::Marginals(_) => None,
        }
    }
}

pub fn run(args: &ExactArgs) -> Result<i32> {
    let max_leaves = parse_count(&args.max_leaves)?;
    if max_leaves == 0 {
        return Err(Error::out_of_range("max-leaves must be at least 1 (got 0)"));
    }
    let algorithm = match Algorithm::parse(&args.algorithm) {
        Ok(algorithm) => algorithm,
        Err(e) => match Sampler::parse(&args.algorithm) {
            Ok(sampler) => return exact_samples::run(sampler, args, max_leaves),
            Err(_) => return Err(e),
        },
    };
    let source = SourceSpec::parse(&args.rng)?;
    // Every refusal before the output folder is touched.
    if args.marginals {
        exact::check_marginals(algorithm, args.n, source)?;
    } else {
        exact::check_enumerate(algorithm, args.n, source, max_leaves)?;
    }
    if let Some(dir) = &args.out {
        files::prepare_dir(dir)?;
    }

    let start = Instant::now();
    let outcome = if args.marginals {
        Outcome::Marginals(exact::marginals(algorithm, args.n, source)?)
    } else {
        Outcome::Law(exact::enumerate(algorithm, args.n, source, max_leaves)?)
    };
    let seconds = start.elapsed().as_secs_f64();

    if let Some(dir) = &args.out {
        write_exact(dir, outcome.marginals(), outcome.law())?;
    }
    if args.json {
        let report = match &outcome {
            Outcome::Law(law) => ExactReport::of_law(law),
            Outcome::Marginals(m) => ExactReport::of_marginals(m),
        };
        println!("{}", report.to_json());
    } else {
        print!("{}", render(&outcome, seconds));
    }
    if let Some(dir) = &args.out {
        eprintln!("Files written to {}", dir.display());
    }
    Ok(0)
}

/// The whole human-readable report.
fn render(outcome: &Outcome, seconds: f64) -> String {
    let m = outcome.marginals();
    let law_of_draws = DrawLaw::of(&m.source()).map_or("", DrawLaw::describe);
    let what = match outcome {
        Outcome::Law(_) => "Exact law",
        Outcome::Marginals(_) => "Exact marginals",
    };
    let mut out = format!(
        "{what} of {} at n = {}, rng {} ({law_of_draws})\n",
        m.algorithm(),
        m.n(),
        m.source()
    );
    match outcome {
        Outcome::Law(law) => {
            out.push_str(&format!(
                "Method: {}: {} leaves in {seconds:.3} s\n",
                law.method().describe(),
                thousands(law.leaves())
            ));
            out.push_str(&render_law(law));
        }
        Outcome::Marginals(m) => {
            let arithmetic = if m.is_exact() {
                "exact fractions".to_string()
            } else {
                format!(
                    "f64 arithmetic (exact fractions only up to n = {EXACT_MAX_N} and \
                     {EXACT_MAX_BITS}-bit denominators), relative error at most {:.1e}",
                    m.rounding_bound()
                )
            };
            out.push_str(&format!(
                "Method: {}; {arithmetic}; {seconds:.3} s\n",
                m.method().describe()
            ));
        }
    }
    out.push('\n');
    out.push_str(&render_marginals(m));
    match outcome.law() {
        Some(law) => {
            out.push_str(&format!(
                "Total variation distance to uniform: {}\n",
                exact_and_decimal(Some(law.tv_to_uniform_exact()), law.tv_to_uniform())
            ));
            out.push_str(&format!(
                "Law exactly uniform: {}\n",
                yes_no(law.is_uniform())
            ));
        }
        None => out.push_str(&format!(
            "Total variation distance to uniform: at least {} (the largest per-position \
             distance; the whole law needs enumeration)\n",
            decimal(m.tv_lower_bound())
        )),
    }
    out
}

/// The permutations: all of them for small laws, else the probability levels
/// and the most and least likely ones.
fn render_law(law: &ExactLaw) -> String {
    let all = law.permutations();
    let all = if all.bits() > 50 {
        format!(
            "{all} ({:.3e})",
            to_f64(&BigRational::from_integer(all.clone().into()))
        )
    } else {
        thousands(u64::try_from(&all).unwrap_or(u64::MAX))
    };
    let mut out = format!(
        "Reachable permutations: {} of {all}\n\n",
        thousands(law.support_size() as u64),
    );
    let factorial = to_f64(&BigRational::from_integer(law.permutations().into()));
    if law.support_size() <= SHOW_ALL_MAX {
        out.push_str(&permutation_table(law.iter(), factorial));
        return out;
    }
    let levels = law.levels();
    if levels.len() <= LEVELS_MAX {
        let mut table = Table::new(&[
            ("probability", false),
            ("decimal", true),
            ("n!*P", true),
            ("permutations", true),
        ]);
        for (p, count) in &levels {
            table.push(vec![
                p.to_string(),
                decimal(to_f64(p)),
                ratio(to_f64(p) * factorial),
                thousands(*count as u64),
            ]);
        }
        let plural = if levels.len() == 1 { "y" } else { "ies" };
        out.push_str(&format!(
            "{} distinct probabilit{plural}:\n{}\n",
            levels.len(),
            table.render()
        ));
    } else {
        out.push_str(&format!("{} distinct probabilities.\n\n", levels.len()));
    }
    let ranked = law.ranked();
    out.push_str(&format!("The {SHOW_EACH} most likely:\n"));
    out.push_str(&permutation_table(
        ranked.iter().take(SHOW_EACH).copied(),
        factorial,
    ));
    out.push_str(&format!(
        "\nThe {SHOW_EACH} least likely (of those reachable):\n"
    ));
    out.push_str(&permutation_table(
        ranked[ranked.len() - SHOW_EACH..].iter().copied(),
        factorial,
    ));
    out.push_str(&format!(
        "\n{} more permutations omitted: --json and --out DIR (permutations.csv) list them all.\n",
        thousands((ranked.len() - 2 * SHOW_EACH) as u64)
    ));
    out
}

/// A table of permutations with their probabilities; `factorial` is n!, for
/// the column n!*P (1 = as likely as under a uniform shuffle).
fn permutation_table<'a>(
    rows: impl Iterator<Item = (&'a [u32], &'a BigRational)>,
    factorial: f64,
) -> String {
    let mut table = Table::new(&[
        ("permutation", false),
        ("probability", false),
        ("decimal", true),
        ("n!*P", true),
    ]);
    for (perm, p) in rows {
        let x = to_f64(p);
        table.push(vec![
            permutation_text(perm),
            p.to_string(),
            decimal(x),
            ratio(x * factorial),
        ]);
    }
    table.render()
}

/// A ratio to uniform: 6 decimals, or scientific when huge.
fn ratio(x: f64) -> String {
    if x < 1e6 {
        format!("{x:.6}")
    } else {
        format!("{x:.3e}")
    }
}

/// The n·P matrix (small n) and the deviation figures.
fn render_marginals(m: &ExactMarginals) -> String {
    let n = m.n();
    let mut out = String::new();
    if n <= MATRIX_MAX_N {
        let mut header = vec![("p\\v".to_string(), true)];
        header.extend((0..n).map(|v| (v.to_string(), true)));
        let header: Vec<(&str, bool)> = header.iter().map(|(h, r)| (h.as_str(), *r)).collect();
        let mut table = Table::new(&header);
        for p in 0..n {
            let mut row = vec![p.to_string()];
            row.extend((0..n).map(|v| format!("{:.6}", m.probability(p, v) * n as f64)));
            table.push(row);
        }
        out.push_str(
            "Marginal matrix n*P(value v at position p), rows = positions, columns = values \
             (1 = fair):\n",
        );
        out.push_str(&table.render());
        out.push('\n');
    } else {
        out.push_str(&format!(
            "Marginal matrix: {n} x {n}, in --json and --out DIR (marginals.csv, heatmap.png).\n"
        ));
    }
    let cell = m.max_deviation_cell();
    out.push_str(&format!(
        "Largest marginal deviation |n*P - 1|: {} (|P - 1/n| = {}) at position {}, value {}\n",
        exact_and_decimal(m.max_deviation_exact(), m.max_deviation()),
        decimal(m.max_deviation() / n as f64),
        cell.position,
        cell.value
    ));
    let uniform = match m.exactly_uniform() {
        Some(u) => yes_no(u),
        None => "to f64 precision (not proven exactly: computed in f64)",
    };
    out.push_str(&format!("Marginals exactly uniform: {uniform}\n"));
    out
}

/// `5/27 = 0.185185`, or the decimal alone.
fn exact_and_decimal(exact: Option<&BigRational>, x: f64) -> String {
    match exact {
        Some(q) if q.to_string().len() <= 60 => format!("{q} = {}", decimal(x)),
        _ => decimal(x),
    }
}

/// A probability for reading: 6 decimals, or 4 significant digits when small.
fn decimal(x: f64) -> String {
    if x == 0.0 {
        "0".to_string()
    } else if x.abs() >= 1e-3 {
        format!("{x:.6}")
    } else {
        format!("{x:.4e}")
    }
}

fn to_f64(q: &BigRational) -> f64 {
    num_traits::ToPrimitive::to_f64(q).unwrap_or(f64::NAN)
}

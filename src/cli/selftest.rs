//! `shuffle-audit selftest`: the harness proves it can fail and does not cry
//! wolf.

use super::table::Table;
use crate::Result;
use crate::selftest::{self, Check, Settings};
use clap::Args;
use std::time::Instant;

/// Arguments of `shuffle-audit selftest`.
#[derive(Debug, Args)]
pub struct SelftestArgs {
    /// Print the checks as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &SelftestArgs) -> Result<i32> {
    let start = Instant::now();
    let settings = Settings::default();
    let mut checks: Vec<Check> = selftest::detects_biased(&settings)?;
    checks.extend(selftest::calibration(&settings)?);
    checks.extend(selftest::exact_agreement(&settings)?);
    let failed = checks.iter().filter(|c| !c.passed).count();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&checks).expect("JSON"));
    } else {
        let mut table = Table::new(&[
            ("part", false),
            ("check", false),
            ("result", false),
            ("detail", false),
        ]);
        for c in &checks {
            let result = if c.passed { "pass" } else { "FAIL" };
            table.push(vec![
                c.part.into(),
                c.name.clone(),
                result.into(),
                c.detail.clone(),
            ]);
        }
        println!(
            "Self-test at n = {n} (samplers: k = {} of N = {n}, weighted picks on {:?}): (a) every \
             biased algorithm and sampler is caught at its planned trial count; (b) fair \
             algorithms' and samplers' p-values are uniform; (c) Monte Carlo agrees with exact.\n",
            settings.sampler_k,
            settings.weights,
            n = settings.n
        );
        print!("{}", table.render());
        println!(
            "\n{} checks, {failed} failed, {:.1} s",
            checks.len(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(if failed == 0 { 0 } else { 1 })
}

//! `shuffle-audit merge`: the tally files of a sharded audit (of shuffles
//! or of samplers), checked to belong together, added up and judged and
//! shown exactly as one `audit` run.

use super::args::MergeArgs;
use super::shard::present;
use crate::Result;
use crate::experiment::record::{self, RunStart, shell_line};
use crate::report::Provenance;
use crate::shard::merge::merge;

/// Merges, judges, writes and shows; a refusal writes nothing.
pub fn run(args: &MergeArgs) -> Result<i32> {
    args.output.export.check()?;
    let merged = merge(&args.tallies)?;
    let command = shell_line(&record::command_line());
    // The shards' own command (one per --shard I/N), then this merge.
    let reproduce = vec![merged.command_line.clone(), command.clone()];
    let mut provenance = Provenance::of(&RunStart::now(), command, reproduce);
    for pair in &args.output.meta {
        provenance.meta.set_arg(pair)?;
    }
    present(&args.output, || merged.judge(provenance))
}

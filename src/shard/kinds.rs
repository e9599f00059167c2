//! The kinds of subject a tally file or an input checkpoint may hold, by
//! name: how the spec an entry records is rebuilt, and how a checkpointed
//! read of a file is done for a spec of that kind. The built-in kinds are
//! always known; a kind defined elsewhere (a program's own, a test's) is
//! added with [`register`] before its tally files are read.

use super::input::{self, InputRead};
use crate::audit::{Judged, Kind, Planned};
use crate::error::{Error, Result};
use crate::pacing::Progress;
use crate::sampler::Samplers;
use crate::shuffle::Shuffles;
use serde_json::Value;
use std::sync::RwLock;

/// How a kind's recorded spec becomes a spec again.
type Rebuild = fn(&Value, Option<usize>) -> Result<Box<dyn Planned>>;

/// How a spec of the kind reads its file with checkpoints, and is judged.
type ReadInput = fn(&dyn Planned, InputRead<'_>, Progress<'_>) -> Result<Box<dyn Judged>>;

/// What is done by kind name, for one kind.
#[derive(Clone, Copy)]
pub(super) struct Known {
    name: &'static str,
    rebuild: Rebuild,
    /// Reads a spec's input file with checkpoints, and judges it.
    pub(super) read_input: ReadInput,
}

impl Known {
    /// The entry of kind `K`.
    fn of<K: Kind>() -> Self {
        Self {
            name: K::NAME,
            rebuild: |value, threads| Ok(Box::new(K::from_recorded(value, threads)?)),
            read_input: input::read_judged::<K>,
        }
    }
}

/// The kinds registered beside the built-in ones.
static REGISTERED: RwLock<Vec<Known>> = RwLock::new(Vec::new());

/// Makes the tally files of kind `K` readable (the built-in kinds need
/// not be registered). Registering a kind twice changes nothing.
pub fn register<K: Kind>() {
    let mut kinds = REGISTERED
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !kinds.iter().any(|known| known.name == K::NAME) {
        kinds.push(Known::of::<K>());
    }
}

/// The kind called `kind`; refuses a kind nobody registered.
pub(super) fn known(kind: &str) -> Result<Known> {
    let built_in = [Known::of::<Shuffles>(), Known::of::<Samplers>()];
    if let Some(known) = built_in.iter().find(|known| known.name == kind) {
        return Ok(*known);
    }
    let kinds = REGISTERED
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match kinds.iter().find(|known| known.name == kind) {
        Some(known) => Ok(*known),
        None => Err(Error::bad_input(format!(
            "an audit of kind '{kind}', which this build does not know (register it with \
             shuffle_audit::shard::register)"
        ))),
    }
}

/// The spec an entry of kind `kind` records as `value`, run on `threads`;
/// refuses a kind nobody registered.
pub fn planned(kind: &str, value: &Value, threads: Option<usize>) -> Result<Box<dyn Planned>> {
    (known(kind)?.rebuild)(value, threads)
}

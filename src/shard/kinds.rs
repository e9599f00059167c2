//! The kinds of subject a tally file may hold, by name: how the spec an
//! entry records is rebuilt. The built-in kinds are always known; a kind
//! defined elsewhere (a program's own, a test's) is added with
//! [`register`] before its tally files are read.

use crate::audit::{Kind, Planned};
use crate::error::{Error, Result};
use crate::sampler::Samplers;
use crate::shuffle::Shuffles;
use serde_json::Value;
use std::sync::RwLock;

/// How a kind's recorded spec becomes a spec again.
type Rebuild = fn(&Value, Option<usize>) -> Result<Box<dyn Planned>>;

/// The kinds registered beside the built-in ones.
static REGISTERED: RwLock<Vec<(&'static str, Rebuild)>> = RwLock::new(Vec::new());

/// The spec of kind `K` that `value` records, run on `threads`.
fn rebuild<K: Kind>(value: &Value, threads: Option<usize>) -> Result<Box<dyn Planned>> {
    Ok(Box::new(K::from_recorded(value, threads)?))
}

/// Makes the tally files of kind `K` readable (the built-in kinds need
/// not be registered). Registering a kind twice changes nothing.
pub fn register<K: Kind>() {
    let mut kinds = REGISTERED
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !kinds.iter().any(|(name, _)| *name == K::NAME) {
        kinds.push((K::NAME, rebuild::<K>));
    }
}

/// The spec an entry of kind `kind` records as `value`, run on `threads`;
/// refuses a kind nobody registered.
pub fn planned(kind: &str, value: &Value, threads: Option<usize>) -> Result<Box<dyn Planned>> {
    let built_in: [(&str, Rebuild); 2] = [
        (Shuffles::NAME, rebuild::<Shuffles>),
        (Samplers::NAME, rebuild::<Samplers>),
    ];
    if let Some((_, rebuild)) = built_in.iter().find(|(name, _)| *name == kind) {
        return rebuild(value, threads);
    }
    let kinds = REGISTERED
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match kinds.iter().find(|(name, _)| *name == kind) {
        Some((_, rebuild)) => rebuild(value, threads),
        None => Err(Error::bad_input(format!(
            "an audit of kind '{kind}', which this build does not know (register it with \
             shuffle_audit::shard::register)"
        ))),
    }
}

//! What a request says of samplers: the population (a board's cells, the
//! weights' count, n, or the default), the weights of a weighted pick, and
//! their refusals, for a built-in sampler and for samples made outside.

use super::weights::scaled_note;
use super::{Header, Request, parse_weights};
use crate::audit::{ALL_TRIALS, Kind, Planned, Spec, Subject};
use crate::error::{Error, Opt, Result};
use crate::sampler::{Sampler, Samplers};
use crate::spec::DEFAULT_N;

/// A built-in sampler's audit.
pub(super) fn builtin(
    request: &Request,
    sampler: Sampler,
    header: &Header,
) -> Result<(Box<dyn Planned>, Option<String>)> {
    let takes = matches!(sampler, Sampler::Weighted(_));
    let weights = weights(request, takes)?;
    let fixed = sampler.population().or(weights.as_ref().map(Vec::len));
    let n = match (fixed, request.n) {
        (Some(f), Some(n)) if f != n => {
            return Err(Error::out_of_range(format!(
                "{sampler} has N = {f} items, but {}",
                Opt::N.spelled(request.front, &n.to_string())
            ))
            .about(Opt::N));
        }
        (Some(f), _) => f,
        (None, Some(n)) => n,
        (None, None) => DEFAULT_N,
    };
    let spec = Spec::<Samplers>::new(sampler, n, 0, header.source, header.seed);
    finish(request, spec, weights, header, false)
}

/// An outside subject's samples or picks: its population must be given.
pub(super) fn outside(
    request: &Request,
    subject: Subject<Samplers>,
    pick: bool,
    header: &Header,
    reads_file: bool,
) -> Result<(Box<dyn Planned>, Option<String>)> {
    let weights = weights(request, pick)?;
    let n = match (request.n, weights.as_ref().map(Vec::len)) {
        (Some(n), Some(w)) if n != w => {
            return Err(Error::out_of_range(format!(
                "{w} weights were given for {}",
                Opt::N.spelled(request.front, &n.to_string())
            ))
            .about(Opt::Weights));
        }
        (Some(n), _) => n,
        (None, Some(w)) => w,
        (None, None) if pick => {
            return Err(Error::unsupported(format!(
                "picks read from outside need their items: give {} (one per item) or {} \
                 (uniform picks of n items)",
                Opt::Weights.named(request.front),
                Opt::N.named(request.front)
            ))
            .about(Opt::N));
        }
        (None, None) => {
            return Err(Error::unsupported(format!(
                "samples read from outside need the population size: give {} ({} for a \
                 6-of-49 lottery)",
                Opt::N.named(request.front),
                Opt::N.spelled(request.front, "49")
            ))
            .about(Opt::N));
        }
    };
    // A sample of k distinct items needs k <= n: refused before your
    // sampler is called (or its file read), as a built-in's is.
    if let Some(k) = request.k.filter(|&k| k > n) {
        return Err(Error::out_of_range(format!(
            "{}: cannot take {k} distinct items of a population of {}",
            Opt::K.spelled(request.front, &k.to_string()),
            Opt::N.spelled(request.front, &n.to_string())
        ))
        .about(Opt::K));
    }
    let mut spec = Spec::<Samplers>::new(subject, n, 0, header.source, header.seed);
    if reads_file {
        spec.trials = ALL_TRIALS;
    }
    finish(request, spec, weights, header, true)
}

/// Fills in the weights, trials and threads of `spec` and checks it.
fn finish(
    request: &Request,
    mut spec: Spec<Samplers>,
    weights: Option<Vec<u64>>,
    header: &Header,
    outside: bool,
) -> Result<(Box<dyn Planned>, Option<String>)> {
    crate::values::check_n(spec.n)?;
    spec.options.weights = weights;
    spec.threads = request.threads;
    spec.trials = match request.trials {
        Some(trials) => trials,
        None if outside && spec.trials == ALL_TRIALS => ALL_TRIALS,
        None => Samplers::default_trials(&spec, header.alpha),
    };
    Samplers::check(&spec).map_err(|e| match e.option() {
        Some(_) => e,
        None => e.about(Opt::Subject),
    })?;
    let note = request
        .weights
        .as_deref()
        .zip(spec.options.weights.as_deref())
        .and_then(|(text, w)| scaled_note(text, w));
    Ok((Box::new(spec), note))
}

/// The weights asked for, read as whole numbers or as proportions; refused
/// for a sampler that does not pick by weight (`takes` false).
fn weights(request: &Request, takes: bool) -> Result<Option<Vec<u64>>> {
    match (&request.weights, takes) {
        (None, _) => Ok(None),
        (Some(text), true) => parse_weights(text).map(Some),
        (Some(_), false) => Err(Error::unsupported(format!(
            "{} is for weighted picks (weighted-prefix, alias, weighted-off-by-one, or your own \
             picks)",
            Opt::Weights.named(request.front)
        ))
        .about(Opt::Weights)),
    }
}

/// Refuses the options that only samplers take, for a request without
/// one.
pub(super) fn refuse_options(request: &Request) -> Result<()> {
    weights(request, false).map(drop)
}

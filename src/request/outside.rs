//! A subject from outside the tool: where its output comes from, what
//! each line holds (decks, samples, picks) and how to read it, checked
//! before anything runs.

use super::{Header, Holds, Request, samplers, shuffles};
use crate::audit::{Feed, Outside, Planned, Subject};
use crate::error::{Error, Opt, Result};
use crate::ingest::samples::SampleKind;
use crate::ingest::uses_n;

/// The spec of the outside subject `feed` feeds, of the kind its lines
/// hold.
pub(super) fn resolve(
    request: &Request,
    feed: &Feed,
    header: &Header,
    warnings: &mut Vec<String>,
) -> Result<(Box<dyn Planned>, Option<String>)> {
    let front = request.front;
    let holds = request.holds.unwrap_or_default();
    check_feed(feed, warnings)?;
    let name = match &request.name {
        Some(name) if name.trim().is_empty() => {
            return Err(Error::bad_input("the name given to your subject is empty"));
        }
        Some(name) => name.trim().to_string(),
        None => feed.default_name(),
    };
    // Output already made (a file, an array) is read whole by default.
    let reads_file = matches!(feed, Feed::File { .. } | Feed::Given { .. });
    if let Feed::Command(cmd) = feed
        && request.n.is_none()
        && uses_n(&cmd.template)
    {
        return Err(Error::unsupported(format!(
            "the program uses {{n}}: give {}, the number of items per deck (or leave {{n}} out \
             to take n from the first deck printed)",
            Opt::N.named(front)
        ))
        .about(Opt::N));
    }
    if holds != Holds::Deck {
        if request.order.is_some() {
            return Err(Error::unsupported(format!(
                "{} is the starting order of decks: samples and picks do not take it",
                Opt::Order.named(front)
            ))
            .about(Opt::Order));
        }
        if let Feed::File { format, .. } = feed
            && format.width().is_some()
        {
            return Err(Error::unsupported(format!(
                "samples are read as text (one per line), not as {format} records"
            ))
            .about(Opt::Format));
        }
        shuffles::refuse_options(request)?;
        if matches!(feed, Feed::Drawn { .. }) && holds != Holds::Pick && request.k.is_none() {
            // A function is called for a given k; its counts have that shape.
            return Err(Error::unsupported(format!(
                "samples drawn by your function need k, the number of items each sample holds: \
                 give {} ({} for 6 of 49)",
                Opt::K.named(front),
                Opt::K.spelled(front, "6")
            ))
            .about(Opt::K));
        }
        let kind = match holds {
            Holds::Sample => SampleKind::Sample,
            Holds::Ordered => SampleKind::Ordered,
            Holds::Pick | Holds::Deck => SampleKind::Pick,
        };
        let subject = Subject::Outside(Outside {
            name,
            feed: feed.clone(),
            reading: crate::sampler::Reading {
                kind,
                base: request.base,
                k: request.k,
            },
        });
        return samplers::outside(request, subject, holds == Holds::Pick, header, reads_file);
    }
    if request.base.is_some() {
        return Err(Error::unsupported(format!(
            "{} numbers the items of samples and picks: decks name their items themselves",
            Opt::Base.named(front)
        ))
        .about(Opt::Base));
    }
    samplers::refuse_options(request)?;
    if let Feed::File { format, .. } = feed
        && format.width().is_some()
        && request.n.is_none()
    {
        return Err(Error::unsupported(format!(
            "{format} records do not say how many items a deck has: give {}",
            Opt::N.named(front)
        ))
        .about(Opt::N));
    }
    if request.order.as_ref().is_some_and(Vec::is_empty) {
        return Err(Error::bad_input("the starting order is empty").about(Opt::Order));
    }
    let subject = Subject::Outside(Outside {
        name,
        feed: feed.clone(),
        reading: crate::shuffle::Reading {
            order: request.order.clone(),
            categories: request.categories.clone(),
        },
    });
    shuffles::outside(request, subject, header, reads_file, warnings)
}

/// Refuses a feed that cannot run: a file that is not there, an empty
/// command, a command given no time to print; and notes a command whose
/// copies all get the same arguments.
fn check_feed(feed: &Feed, warnings: &mut Vec<String>) -> Result<()> {
    match feed {
        Feed::File { path, .. } if path.as_os_str() != "-" && !path.is_file() => {
            Err(Error::io(format!("{}: no such file", path.display())))
        }
        Feed::Command(cmd) if cmd.template.trim().is_empty() => {
            Err(Error::bad_input("the command is empty"))
        }
        Feed::Command(cmd) if cmd.timeout.is_zero() => Err(Error::out_of_range(
            "a program must be given at least 1 second to print (its timeout is 0)",
        )),
        Feed::Command(cmd) if cmd.jobs == 0 => Err(Error::out_of_range(
            "a program must run in at least 1 copy (jobs is 0)",
        )),
        Feed::Command(cmd) => {
            if cmd.jobs > 1 && !cmd.template.contains("{seed}") {
                warnings.push(format!(
                    "the command has no {{seed}}: the {} copies get the same arguments, so a \
                     program that is deterministic without a seed prints the same output in each",
                    cmd.jobs
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

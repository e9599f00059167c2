//! The numbers a run is made of (n, trials, seed, alpha, threads), each
//! checked in one place, so that every entry point (command-line flags,
//! experiment files, the library) refuses the same bad values with the same
//! words. The `parse_*` functions read the text a person types (counts
//! accept `1000000`, `1_000_000`, `1e6` or `1M`) and serve as clap value
//! parsers; the `check_*` functions take numbers from code.

use crate::error::{Error, Opt, Result};
use crate::params::parse_count;
use crate::stats::pvalue::MIN_ALPHA;

/// The smallest n: one item has nothing to shuffle.
pub const MIN_N: usize = 2;

/// Checks a number of items: at least [`MIN_N`], and small enough to be a
/// `u32` index (what the engine stores).
pub fn check_n(n: usize) -> Result<usize> {
    if n < MIN_N {
        return Err(Error::out_of_range(format!(
            "n = {n} is too small: n must be at least {MIN_N} (one item has nothing to \
                 shuffle or sample from)"
        ))
        .about(Opt::N));
    }
    if n > u32::MAX as usize {
        return Err(
            Error::out_of_range(format!("n = {n} is too large: n must be below 2^32"))
                .about(Opt::N),
        );
    }
    Ok(n)
}

/// Reads and checks a number of items (count syntax).
pub fn parse_n(text: &str) -> Result<usize> {
    let n = parse_count(text).map_err(|e| renamed(e, "n"))?;
    check_n(usize::try_from(n).unwrap_or(usize::MAX))
}

/// Reads a number of items per sample (count syntax): at least 1; the
/// request checks it against the population.
pub fn parse_k(text: &str) -> Result<usize> {
    let k = parse_count(text).map_err(|e| renamed(e, "k"))?;
    if k == 0 {
        return Err(Error::out_of_range("k must be at least 1 (got 0)").about(Opt::K));
    }
    Ok(usize::try_from(k).unwrap_or(usize::MAX))
}

/// Checks a number of trials: at least 1.
pub fn check_trials(trials: u64) -> Result<u64> {
    check_trials_of(trials, Opt::Trials)
}

/// Checks a number of trials given as the option `what` (`trials`,
/// `max_trials`): at least 1, a refusal naming `what`.
fn check_trials_of(trials: u64, what: Opt) -> Result<u64> {
    if trials == 0 {
        return Err(
            Error::out_of_range(format!("{} must be at least 1 (got 0)", what.key())).about(what),
        );
    }
    Ok(trials)
}

/// Reads and checks a number of trials (count syntax).
#[cfg(feature = "cli")]
pub fn parse_trials(text: &str) -> Result<u64> {
    check_trials(parse_count(text)?)
}

/// Reads a number of trials given as the option `what` (a form's
/// `trials` or `max_trials` field) as `--trials` is read, a refusal naming
/// `what` (`bad trials '1.5': must be a whole number`).
pub fn parse_trials_of(text: &str, what: Opt) -> Result<u64> {
    let trials = parse_count(text).map_err(|e| renamed(e, what.key()).about(what))?;
    check_trials_of(trials, what)
}

/// Reads a seed written like a count (`7`, `1e3`, `20_261_121`): any whole
/// number up to 2^64 − 1.
pub fn parse_seed(text: &str) -> Result<u64> {
    parse_count(text).map_err(|e| renamed(e, "seed"))
}

/// Checks a significance level: below 1 and at least [`MIN_ALPHA`], so that
/// every decision is taken where p-values are meaningful (see
/// [`crate::stats::pvalue`]).
pub fn check_alpha(alpha: f64) -> Result<f64> {
    if (MIN_ALPHA..1.0).contains(&alpha) {
        Ok(alpha)
    } else {
        Err(Error::out_of_range(format!(
            "alpha = {alpha} is not a significance level in [{MIN_ALPHA:e}, 1) (below \
                 {MIN_ALPHA:e} the approximations behind the p-values are not accurate enough \
                 to decide)"
        ))
        .about(Opt::Alpha))
    }
}

/// Reads and checks a significance level (`0.001`, `1e-3`).
pub fn parse_alpha(text: &str) -> Result<f64> {
    let alpha: f64 = text.trim().parse().map_err(|_| {
        Error::out_of_range(format!(
            "alpha '{text}' is not a number (e.g. 0.001 or 1e-3)"
        ))
    })?;
    check_alpha(alpha)
}

/// Reads a confidence level (`0.99` or `99%`) and gives the significance
/// level it stands for, 1 − confidence, rounded to 12 decimals so that 0.99
/// gives exactly the α written 0.01.
pub fn parse_confidence(text: &str) -> Result<f64> {
    let bad = || {
        Error::out_of_range(format!(
            "confidence '{text}' is not a level between 0 and 1 (e.g. 0.99 or 99%)"
        ))
    };
    let trimmed = text.trim();
    let level = match trimmed.strip_suffix('%') {
        Some(percent) => percent.trim().parse::<f64>().map_err(|_| bad())? / 100.0,
        None => trimmed.parse::<f64>().map_err(|_| bad())?,
    };
    if !(level > 0.0 && level < 1.0) {
        return Err(bad());
    }
    check_alpha(((1.0 - level) * 1e12).round() / 1e12)
}

/// Checks a number of worker threads: 1 to [`MAX_WORKERS`].
pub fn check_threads(threads: usize) -> Result<usize> {
    check_workers(threads, "threads").map_err(|e| e.about(Opt::Threads))
}

/// The most worker threads (or `--cmd` jobs) a run takes: far beyond any
/// machine's cores, and below the counts whose start-up alone takes
/// seconds (5,000 threads took 10 s for one chunk of work).
pub const MAX_WORKERS: usize = 1024;

/// Checks a number of workers called `what` (threads, jobs): 1 to
/// [`MAX_WORKERS`].
fn check_workers(workers: usize, what: &str) -> Result<usize> {
    if workers == 0 {
        return Err(Error::out_of_range(format!(
            "{what} must be at least 1 (got 0)"
        )));
    }
    if workers > MAX_WORKERS {
        return Err(Error::out_of_range(format!(
            "{what} must be at most {MAX_WORKERS} (got {workers}): more than the cores only adds \
             start-up time"
        )));
    }
    Ok(workers)
}

/// Reads and checks a number of worker threads.
#[cfg(feature = "cli")]
pub fn parse_threads(text: &str) -> Result<usize> {
    let threads = parse_count(text).map_err(|e| renamed(e, "threads"))?;
    check_threads(usize::try_from(threads).unwrap_or(usize::MAX))
}

/// Reads and checks bench's number of measurements of each kind (at
/// least 1: the median of none is no figure).
#[cfg(feature = "cli")]
pub fn parse_repeats(text: &str) -> Result<usize> {
    let repeats = parse_count(text).map_err(|e| renamed(e, "repeats"))?;
    if repeats == 0 {
        return Err(Error::out_of_range("repeats must be at least 1 (got 0)"));
    }
    Ok(usize::try_from(repeats).unwrap_or(usize::MAX))
}

/// Reads and checks a number of `--cmd` jobs (copies of a program run at
/// once).
#[cfg(feature = "cli")]
pub fn parse_jobs(text: &str) -> Result<usize> {
    let jobs = parse_count(text).map_err(|e| renamed(e, "jobs"))?;
    check_workers(usize::try_from(jobs).unwrap_or(usize::MAX), "jobs")
}

/// Reads a positive number of seconds (`60`, `0.5`, `1e3`) as a duration.
#[cfg(feature = "cli")]
pub fn parse_seconds(text: &str) -> Result<std::time::Duration> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
        .filter(|d| !d.is_zero())
        .ok_or_else(|| Error::out_of_range(format!("'{text}' is not a positive number of seconds")))
}

/// `parse_count`'s error, naming the value as `what` instead of "count".
fn renamed(e: Error, what: &str) -> Error {
    let message = e.to_string().replacen("count", what, 1);
    Error::out_of_range(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn confidence_levels_become_alphas() {
        assert_eq!(parse_confidence("0.99").unwrap(), 0.01);
        assert_eq!(parse_confidence("99%").unwrap(), 0.01);
        assert_eq!(parse_confidence("0.999").unwrap(), 0.001);
        assert_eq!(parse_confidence(" 95 % ").unwrap(), 0.05);
        for bad in ["1", "0", "99", "x", "-0.5", "100%"] {
            let e = parse_confidence(bad).unwrap_err().to_string();
            assert!(e.contains(&format!("'{bad}'")), "{e}");
        }
    }

    #[test]
    fn bad_values_are_named_and_out_of_range() {
        for (result, words) in [
            (parse_n("1").map(|_| ()), "n = 1 is too small"),
            (parse_n("ten").map(|_| ()), "bad n 'ten'"),
            (parse_trials("0").map(|_| ()), "trials must be at least 1"),
            (parse_seed("-3").map(|_| ()), "bad seed '-3'"),
            (parse_alpha("2").map(|_| ()), "alpha = 2 is not"),
            (parse_alpha("x").map(|_| ()), "alpha 'x' is not a number"),
            (parse_threads("0").map(|_| ()), "threads must be at least 1"),
            (
                parse_threads("5000").map(|_| ()),
                "threads must be at most 1024",
            ),
            (parse_jobs("0").map(|_| ()), "jobs must be at least 1"),
            (parse_repeats("0").map(|_| ()), "repeats must be at least 1"),
            (
                parse_seconds("0").map(|_| ()),
                "'0' is not a positive number of seconds",
            ),
            (parse_seconds("-1").map(|_| ()), "'-1' is not a positive"),
            (
                parse_seconds("soon").map(|_| ()),
                "'soon' is not a positive",
            ),
        ] {
            let e = result.expect_err(words);
            assert!(e.to_string().contains(words), "{e} lacks {words}");
            assert_eq!(e.kind(), ErrorKind::OutOfRange, "{e}");
        }
    }

    #[test]
    fn good_values_read_like_counts() {
        assert_eq!(parse_n("52").unwrap(), 52);
        assert_eq!(parse_n("1e3").unwrap(), 1000);
        assert_eq!(parse_trials("1M").unwrap(), 1_000_000);
        assert_eq!(parse_seed("1e3").unwrap(), 1000);
        assert_eq!(parse_alpha("1e-3").unwrap(), 0.001);
        assert_eq!(parse_threads("2").unwrap(), 2);
        assert_eq!(parse_seconds("0.5").unwrap().as_millis(), 500);
        assert_eq!(parse_seconds("1e3").unwrap().as_secs(), 1000);
    }
}

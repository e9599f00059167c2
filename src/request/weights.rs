//! Weights of a weighted pick as a person writes them: whole numbers
//! (`1,99`) or decimals such as probabilities (`0.1,0.2,0.7`, `1e-7`),
//! read the same by every front.

use crate::error::{Error, Opt, Result};

/// Weights separated by commas, spaces or lines: whole numbers (`1,99`) or
/// decimals such as probabilities (`0.1,0.2,0.7`), with an exponent if
/// need be (`1e-7`, as JavaScript and Python print small numbers). The exact laws count in
/// whole numbers, so decimals are scaled exactly to whole numbers in the
/// same proportions (by ten to the most decimals written, then divided by
/// their greatest common divisor: `1,2,7`); [`scaled_note`] says so.
pub fn parse_weights(text: &str) -> Result<Vec<u64>> {
    let tokens: Vec<&str> = crate::params::items(text).collect();
    let decimals: Vec<(u128, u32)> = tokens
        .iter()
        .map(|t| {
            decimal(t).ok_or_else(|| {
                Error::bad_input(format!(
                    "weight '{t}' is not a number ≥ 0 (write whole numbers, or decimals \
                         such as 0.25 or 1e-7)"
                ))
                .about(Opt::Weights)
            })
        })
        .collect::<Result<_>>()?;
    if decimals.is_empty() {
        return Err(Error::bad_input("no weights were given").about(Opt::Weights));
    }
    let places = decimals.iter().map(|&(_, p)| p).max().unwrap_or(0);
    let too_big = || {
        Error::out_of_range(format!(
            "weights {}: too many digits to scale to whole numbers below 2^64",
            tokens.join(",")
        ))
        .about(Opt::Weights)
    };
    let scaled: Vec<u128> = decimals
        .iter()
        .map(|&(digits, p)| {
            10u128
                .checked_pow(places - p)
                .and_then(|s| digits.checked_mul(s))
        })
        .collect::<Option<_>>()
        .ok_or_else(too_big)?;
    let divisor = scaled.iter().fold(0, |g, &w| num_integer::gcd(g, w)).max(1);
    let divisor = if places == 0 { 1 } else { divisor };
    let weights: Vec<u64> = scaled
        .iter()
        .map(|&w| u64::try_from(w / divisor).ok())
        .collect::<Option<_>>()
        .ok_or_else(too_big)?;
    // For picks read from outside as for a built-in pick: with every
    // weight zero there is no law to test against.
    if weights.iter().all(|&w| w == 0) {
        return Err(
            Error::bad_input("the weights are all zero: nothing can be picked").about(Opt::Weights),
        );
    }
    Ok(weights)
}

/// What reading `text` as whole numbers did, when it held decimals:
/// `weights 0.1,0.9 read as 1,9 (the same proportions in whole numbers,
/// which the exact laws count in)`; `None` for whole numbers.
pub fn scaled_note(text: &str, weights: &[u64]) -> Option<String> {
    let tokens: Vec<&str> = crate::params::items(text).collect();
    let scaled = |t: &&str| decimal(t).is_some_and(|(_, places)| places > 0);
    tokens.iter().any(scaled).then(|| {
        let whole: Vec<String> = weights.iter().map(u64::to_string).collect();
        format!(
            "weights {} read as {} (the same proportions in whole numbers, which the exact \
             laws count in)",
            tokens.join(","),
            whole.join(",")
        )
    })
}

/// A decimal number ≥ 0 written without sign (`7`, `0.25`, `.5`, `3.`),
/// with an exponent if any (`1e-7`, `2.5E+3`): its digits as a whole
/// number and how many places they are below the units (`1e-7`: 1 and
/// 7); `None` for anything else, more than 30 digits, or an exponent
/// beyond ±38.
fn decimal(text: &str) -> Option<(u128, u32)> {
    let (number, exponent) = match text.split_once(['e', 'E']) {
        Some((number, e)) => (number, e.parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let digits = format!("{whole}{fraction}");
    if digits.is_empty() || digits.len() > 30 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if exponent.abs() > 38 {
        return None;
    }
    let places = fraction.len() as i32 - exponent;
    let digits: u128 = digits.parse().ok()?;
    match u32::try_from(places) {
        Ok(places) => Some((digits, places)),
        Err(_) => Some((
            digits.checked_mul(10u128.checked_pow(places.unsigned_abs())?)?,
            0,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_all_zero_are_refused_for_every_kind_of_pick() {
        // Picks read from outside with weights 0,0 were judged (inconclusive).
        for text in ["0,0", "0.0, 0", "0e3"] {
            let e = parse_weights(text).unwrap_err();
            assert_eq!(e.option(), Some(Opt::Weights));
            assert!(e.to_string().contains("all zero"), "{e}");
        }
    }

    #[test]
    fn decimals_are_read_as_proportions_and_whole_numbers_as_they_are() {
        assert_eq!(parse_weights("1,99").unwrap(), [1, 99]);
        assert_eq!(parse_weights("0.1, 0.9").unwrap(), [1, 9]);
        assert_eq!(parse_weights("0.25 0.5\n0.25").unwrap(), [1, 2, 1]);
        assert_eq!(scaled_note("1,99", &[1, 99]), None);
        let note = scaled_note("0.1,0.9", &[1, 9]).unwrap();
        assert!(note.contains("read as 1,9"), "{note}");
        let e = parse_weights("1,-2").unwrap_err();
        assert_eq!(e.option(), Some(Opt::Weights));
        assert!(e.to_string().contains("'-2'"), "{e}");
        // An exponent as JavaScript and Python print small or large numbers.
        assert_eq!(parse_weights("1e-7,1").unwrap(), [1, 10_000_000]);
        assert_eq!(parse_weights("2.5E+3,500").unwrap(), [2500, 500]);
        assert!(scaled_note("1e-7,1", &[1, 10_000_000]).is_some());
        assert!(scaled_note("1e3,1", &[1000, 1]).is_none());
        assert!(parse_weights("1e").is_err());
        assert!(parse_weights("e5").is_err());
        assert!(parse_weights("1e-99").is_err());
        assert!(parse_weights("-1e3").is_err());
        assert!(parse_weights("").is_err());
    }
}

//! How numbers are written for people, the same in every output: counts
//! with thousands separators and observed/expected ratios with the decimals
//! that show their distance from 1.

/// An integer with thousands separators: `1,000,000`.
pub fn thousands(x: u64) -> String {
    let digits = x.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count with its noun, singular for one: `1 audit`, `17 audits`,
/// `480,598 trials` (`many` is the plural; thousands separators as
/// [`thousands`]).
pub fn counted(x: u64, one: &str, many: &str) -> String {
    let noun = if x == 1 { one } else { many };
    format!("{} {noun}", thousands(x))
}

/// Items in prose, in their order: `a`, `a and b`, `a, b and c` (empty
/// for none); how a sentence names several tests.
pub fn and_list<T: AsRef<str>>(items: &[T]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

/// `value` scaled to a unit prefix: (value, "k" | "M" | "G" | "").
fn scaled(value: f64) -> (f64, &'static str) {
    match value {
        v if v >= 1e9 => (v / 1e9, "G"),
        v if v >= 1e6 => (v / 1e6, "M"),
        v if v >= 1e3 => (v / 1e3, "k"),
        v => (v, ""),
    }
}

/// A scaled value with three significant digits (`2.58`, `18.3`, `950`).
fn three_digits(value: f64) -> String {
    let decimals = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.decimals$}")
}

/// A rate for people: `2.58 M/s`, `950 k/s`, `12.0 /s`.
#[cfg(feature = "cli")]
pub fn human_rate(per_sec: f64) -> String {
    human_rate_of(per_sec, "")
}

/// A rate of named things for people: `2.58 M shuffles/s`, `950 k
/// shuffles/s`, `12.0 shuffles/s` (never `0.0 M`).
pub fn human_rate_of(per_sec: f64, things: &str) -> String {
    let (value, unit) = scaled(per_sec);
    let unit = [unit, things]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>();
    format!("{} {}/s", three_digits(value), unit.join(" "))
}

/// A count in a few characters, for narrow tables: exact below 10,000
/// (`9,999`), else three significant digits and a unit (`18.3k`, `100k`,
/// `10M`).
#[cfg(feature = "cli")]
pub fn short_count(x: u64) -> String {
    if x < 10_000 {
        return thousands(x);
    }
    let (value, unit) = scaled(x as f64);
    let digits = three_digits(value);
    let digits = if digits.contains('.') {
        digits.trim_end_matches('0').trim_end_matches('.')
    } else {
        &digits
    };
    format!("{digits}{unit}")
}

/// A byte count for people: `1.5 GiB`.
pub fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// O/E with enough decimals to show how far it is from 1.
pub fn format_ratio(ratio: f64) -> String {
    let gap = (ratio - 1.0).abs();
    let decimals = if gap >= 0.01 || gap == 0.0 {
        2
    } else {
        ((-gap.log10()).ceil() as usize + 1).min(6)
    };
    format!("{ratio:.decimals$}")
}

/// `x` with one decimal, never "-0.0": a value that rounds to zero is
/// shown as 0.0 whatever its sign.
pub fn one_decimal(x: f64) -> String {
    let text = format!("{x:.1}");
    if text == "-0.0" {
        "0.0".to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_prose() {
        assert_eq!(and_list::<&str>(&[]), "");
        assert_eq!(and_list(&["a"]), "a");
        assert_eq!(and_list(&["a", "b"]), "a and b");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
    }

    #[test]
    fn one_decimal_has_no_negative_zero() {
        assert_eq!(one_decimal(-1.6e-4), "0.0");
        assert_eq!(one_decimal(-0.05), "-0.1");
        assert_eq!(one_decimal(2.25), "2.2");
    }

    #[test]
    fn rates_and_counts_read_in_human_units() {
        assert_eq!(human_rate(2_582_036.141_177_221), "2.58 M/s");
        assert_eq!(human_rate(950_000.0), "950 k/s");
        assert_eq!(human_rate(12.0), "12.0 /s");
        assert_eq!(human_rate(3.2e9), "3.20 G/s");
        assert_eq!(short_count(9_999), "9,999");
        assert_eq!(short_count(18_319), "18.3k");
        assert_eq!(short_count(100_000), "100k");
        assert_eq!(short_count(10_000_000), "10M");
        assert_eq!(short_count(1_500_000), "1.5M");
    }

    #[test]
    fn ratios_show_their_distance_from_one() {
        assert_eq!(format_ratio(1.2912), "1.29");
        assert_eq!(format_ratio(0.7149), "0.71");
        assert_eq!(format_ratio(1.0016), "1.0016");
        assert_eq!(format_ratio(0.99912), "0.99912");
        assert_eq!(format_ratio(1.0), "1.00");
        assert_eq!(format_ratio(5.333), "5.33");
    }

    #[test]
    fn counts_read_well() {
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(12), "12");
        assert_eq!(counted(1, "audit", "audits"), "1 audit");
        assert_eq!(human_rate_of(42_000.0, "shuffles"), "42.0 k shuffles/s");
        assert_eq!(human_rate_of(12.0, "shuffles"), "12.0 shuffles/s");
        assert_eq!(human_rate(2_580_000.0), "2.58 M/s");
        assert_eq!(counted(0, "audit", "audits"), "0 audits");
        assert_eq!(counted(480_598, "trial", "trials"), "480,598 trials");
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}

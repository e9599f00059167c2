//! The observed/expected colour scale: symmetric in log space, so that a
//! value seen half as often as expected (0.5×) is exactly as strong a blue as
//! a value seen twice as often (2×) is a red, and "as expected" (1×) is white.
//!
//! A scale is fixed by its limit `X > 1`: a ratio `r` sits at
//! `t = ln(r) / ln(X)`, clamped to `[-1, 1]`, so the colours saturate at `1/X`
//! (deep blue) and `X` (deep red). The legend labels its ticks in × units and
//! marks a clipped end `≥ X×` or `≤ 1/X×` when some value lies beyond it.

use super::PlotError;

/// The largest limit a scale may have: colours saturate at 2× and 0.5× at
/// the latest, so that one extreme audit cannot wash out the subtle ones on a
/// shared scale.
pub const MAX_LIMIT: f64 = 2.0;

/// The colour anchors at `t = -1, -0.8, …, 0.8, 1`: ColorBrewer's RdBu
/// (11 classes) with pure white in the middle and each blue class's CIELAB
/// lightness set to the mean of its own and its red partner's (moving
/// neither by more than 2.1 L*), so that the two arms are equally strong at
/// equal distances from 1×.
const PALETTE: [(u8, u8, u8); 11] = [
    (5, 48, 97),
    (23, 97, 166),
    (62, 143, 191),
    (143, 194, 219),
    (209, 229, 240),
    (255, 255, 255),
    (253, 219, 199),
    (247, 168, 133),
    (218, 100, 80),
    (184, 32, 47),
    (103, 0, 31),
];

/// Colour of a value that cannot be placed on the scale (NaN).
pub const NAN_GREY: (u8, u8, u8) = (160, 160, 160);

/// A log-symmetric observed/expected colour scale (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogScale {
    /// `ln X`, positive and finite.
    log_limit: f64,
}

/// Which ends of a scale some value lies beyond.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Clipping {
    /// Some value is below `1/X` (drawn as `1/X`).
    pub below: bool,
    /// Some value is above `X` (drawn as `X`).
    pub above: bool,
}

/// One labelled tick of a colour bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// Where on the bar, from -1 (bottom, `1/X`) to 1 (top, `X`).
    pub position: f64,
    /// The ratio there, in × units: `0.5×`, `1×`, `≥ 2×`.
    pub label: String,
}

impl LogScale {
    /// The scale saturating at `1/limit` and `limit`; fails unless
    /// `1 < limit <= MAX_LIMIT`.
    pub fn new(limit: f64) -> Result<Self, PlotError> {
        if limit > 1.0 && limit <= MAX_LIMIT {
            Ok(LogScale {
                log_limit: limit.ln(),
            })
        } else {
            Err(PlotError(format!(
                "a colour scale limit must be in (1, {MAX_LIMIT}], got {limit}"
            )))
        }
    }

    /// The narrowest scale that shows every ratio without clipping, but never
    /// narrower than `min_limit` nor wider than `MAX_LIMIT`:
    /// `X = min(MAX_LIMIT, max(min_limit, max |ln r|))` in log terms. NaN
    /// ratios are ignored; a zero ratio asks for the widest scale.
    pub fn fit(ratios: &[f64], min_limit: f64) -> Self {
        let widest = ratios
            .iter()
            .filter(|r| !r.is_nan())
            .map(|r| r.ln().abs())
            .fold(0.0, f64::max);
        let floor = if min_limit > 1.0 {
            min_limit.ln()
        } else {
            1e-12
        };
        LogScale {
            log_limit: widest.max(floor).min(MAX_LIMIT.ln()),
        }
    }

    /// The widest of several scales (for one scale shared by many panels);
    /// `None` if there are none.
    pub fn widest(scales: impl IntoIterator<Item = LogScale>) -> Option<LogScale> {
        scales
            .into_iter()
            .reduce(|a, b| if b.log_limit > a.log_limit { b } else { a })
    }

    /// The limit `X`: colours saturate at `1/X` and `X`.
    pub fn limit(&self) -> f64 {
        self.log_limit.exp()
    }

    /// Where `ratio` sits on the scale, from -1 (at or below `1/X`) through 0
    /// (1×) to 1 (at or above `X`); NaN for NaN.
    pub fn position(&self, ratio: f64) -> f64 {
        if ratio.is_nan() {
            return f64::NAN;
        }
        (ratio.ln() / self.log_limit).clamp(-1.0, 1.0)
    }

    /// The colour of `ratio`: white at 1×, blue below, red above, deepest at
    /// and beyond `1/X` and `X`, grey for NaN.
    pub fn colour(&self, ratio: f64) -> (u8, u8, u8) {
        colour_at(self.position(ratio))
    }

    /// Which ends some of `ratios` lie beyond (NaN ignored). A value equal to
    /// the limit, up to rounding, is not clipped.
    pub fn clipping<'a>(&self, ratios: impl IntoIterator<Item = &'a f64>) -> Clipping {
        let edge = self.log_limit * (1.0 + 1e-9);
        let mut clipping = Clipping::default();
        for r in ratios {
            let l = r.ln();
            clipping.below |= l < -edge;
            clipping.above |= l > edge;
        }
        clipping
    }

    /// The colour bar's ticks, bottom to top: `1/X`, a round ratio `1/m`
    /// between it and 1×, `1×`, `m` and `X`; a clipped end reads `≤ 1/X×`
    /// or `≥ X×`. `m` is the largest of 1.001, 1.002, 1.005, 1.01, … 1.5, 2
    /// (`m - 1` on a 1-2-5 sequence) at 30% to 75% of the way to `X` in log
    /// terms, left out if there is none.
    pub fn ticks(&self, clipping: Clipping) -> Vec<Tick> {
        let limit = self.limit();
        let mut low = format_factor(1.0 / limit);
        let mut high = format_factor(limit);
        if clipping.below {
            low = format!("≤ {low}");
        }
        if clipping.above {
            high = format!("≥ {high}");
        }
        let middle = (-10..=0)
            .rev()
            .flat_map(|e| [5.0, 2.0, 1.0].map(|d| 1.0 + d * 10f64.powi(e)))
            .map(|m| (m.ln() / self.log_limit, m))
            .find(|(at, _)| (0.3..=0.75).contains(at));
        let mut ticks = vec![(-1.0, low)];
        ticks.extend(middle.map(|(at, m)| (-at, format_factor(1.0 / m))));
        ticks.push((0.0, format_factor(1.0)));
        ticks.extend(middle.map(|(at, m)| (at, format_factor(m))));
        ticks.push((1.0, high));
        ticks
            .into_iter()
            .map(|(position, label)| Tick { position, label })
            .collect()
    }

    /// The scale's range in words: `0.8× to 1.25×`.
    pub fn range_words(&self) -> String {
        let limit = self.limit();
        format!("{} to {}", format_factor(1.0 / limit), format_factor(limit))
    }
}

/// A ratio in × units with two significant digits of its distance from 1,
/// trailing zeros dropped: `1×`, `2×`, `0.5×`, `1.25×`, `0.67×`,
/// `1.000001×`.
pub fn format_factor(ratio: f64) -> String {
    let gap = (ratio - 1.0).abs();
    if gap == 0.0 || !gap.is_finite() {
        return format!("{ratio}×");
    }
    let decimals = ((-gap.log10()).ceil() as i32 + 1).clamp(1, 12);
    // Half away from zero (1/1.6 = 0.625 reads 0.63), then printed exactly.
    let unit = 10f64.powi(decimals);
    let rounded = (ratio * unit).round() / unit;
    let decimals = decimals as usize;
    let text = format!("{rounded:.decimals$}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}×")
}

/// The palette colour at scale position `t` in `[-1, 1]` (interpolated
/// between the 11 anchors), grey for NaN.
pub fn colour_at(t: f64) -> (u8, u8, u8) {
    if t.is_nan() {
        return NAN_GREY;
    }
    let s = (t.clamp(-1.0, 1.0) + 1.0) * 0.5 * (PALETTE.len() - 1) as f64;
    let i = (s.floor() as usize).min(PALETTE.len() - 2);
    let f = s - i as f64;
    let (a, b) = (PALETTE[i], PALETTE[i + 1]);
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * f).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CIELAB lightness L* of an sRGB colour: how strong a colour looks on
    /// white.
    fn lightness((r, g, b): (u8, u8, u8)) -> f64 {
        let linear = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let y = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
        if y > 0.008856 {
            116.0 * y.cbrt() - 16.0
        } else {
            903.3 * y
        }
    }

    fn scale(limit: f64) -> LogScale {
        LogScale::new(limit).unwrap()
    }

    #[test]
    fn half_and_double_are_equally_strong() {
        for limit in [1.01, 1.25, 1.6, 2.0] {
            let s = scale(limit);
            for k in [0.1, 0.25, 0.4, 0.5, 0.66, 0.8, 1.0, 1.5] {
                let (high, low) = (limit.powf(k), limit.powf(-k));
                assert!(
                    (s.position(high) + s.position(low)).abs() < 1e-12,
                    "mirror positions at {high}"
                );
                let (red, blue) = (s.colour(high), s.colour(low));
                assert!(red.0 > red.2 && blue.2 > blue.0, "{red:?} {blue:?}");
                let gap = (lightness(red) - lightness(blue)).abs();
                assert!(
                    gap < 1.5,
                    "L* differs by {gap} at {high}×: {red:?} {blue:?}"
                );
            }
        }
        // On the widest scale 0.5× and 2× are the two ends.
        let s = scale(2.0);
        assert_eq!(s.colour(2.0), PALETTE[10]);
        assert_eq!(s.colour(0.5), PALETTE[0]);
        for i in 0..5 {
            let gap = (lightness(PALETTE[i]) - lightness(PALETTE[10 - i])).abs();
            assert!(gap < 0.3, "anchor {i}: L* differs by {gap}");
        }
    }

    #[test]
    fn one_is_white_and_beyond_the_limit_saturates() {
        for limit in [1.000001, 1.25, 2.0] {
            let s = scale(limit);
            assert_eq!(s.colour(1.0), (255, 255, 255));
            assert_eq!(s.colour(limit * 3.0), s.colour(limit));
            assert_eq!(s.colour(0.0), s.colour(1.0 / limit));
        }
        assert_eq!(scale(1.25).colour(f64::NAN), NAN_GREY);
        // A fair shuffle's noise stays pale on the smallest audit scale.
        let pale = scale(1.25).colour(1.03);
        assert!(lightness(pale) > 93.0, "{pale:?}");
    }

    #[test]
    fn rejects_limits_that_make_no_scale() {
        for bad in [1.0, 0.5, 2.5, f64::NAN, f64::INFINITY] {
            assert!(LogScale::new(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn fits_the_data_within_its_bounds() {
        let fitted = LogScale::fit(&[1.0, 1.1, 0.95], 1.25);
        assert!((fitted.limit() - 1.25).abs() < 1e-12, "the floor");
        let fitted = LogScale::fit(&[1.0, 1.5, 0.9], 1.25);
        assert!((fitted.limit() - 1.5).abs() < 1e-12, "the largest ratio");
        let fitted = LogScale::fit(&[1.0, 0.6], 1.25);
        assert!(
            (fitted.limit() - 1.0 / 0.6).abs() < 1e-12,
            "the smallest ratio"
        );
        assert_eq!(LogScale::fit(&[0.0, 1.0], 1.25).limit(), 2.0);
        assert_eq!(LogScale::fit(&[9.0, f64::NAN], 1.25).limit(), 2.0);
        assert!(LogScale::fit(&[1.0; 4], 1.0).limit() > 1.0, "never zero");
        let shared = LogScale::widest([scale(1.25), scale(1.7), scale(1.3)]).unwrap();
        assert_eq!(shared, scale(1.7));
        assert!(LogScale::widest([]).is_none());
    }

    #[test]
    fn clipped_ends_are_marked() {
        let s = scale(2.0);
        let labels = |ratios: &[f64]| -> Vec<String> {
            s.ticks(s.clipping(ratios))
                .into_iter()
                .map(|t| t.label)
                .collect()
        };
        assert_eq!(
            labels(&[1.0, 2.0, 0.5]),
            ["0.5×", "0.67×", "1×", "1.5×", "2×"]
        );
        assert_eq!(
            labels(&[1.0, 11.5]),
            ["0.5×", "0.67×", "1×", "1.5×", "≥ 2×"]
        );
        assert_eq!(labels(&[0.0, 1.2]), ["≤ 0.5×", "0.67×", "1×", "1.5×", "2×"]);
        assert_eq!(labels(&[0.3, 3.0, f64::NAN])[0], "≤ 0.5×");
        assert_eq!(labels(&[0.3, 3.0])[4], "≥ 2×");
        let fitted = LogScale::fit(&[1.0, 1.37], 1.25);
        assert_eq!(fitted.clipping(&[1.0, 1.37]), Clipping::default());
    }

    #[test]
    fn ticks_read_in_times_units() {
        let labels = |limit: f64| -> Vec<String> {
            scale(limit)
                .ticks(Clipping::default())
                .into_iter()
                .map(|t| t.label)
                .collect()
        };
        assert_eq!(labels(1.25), ["0.8×", "0.909×", "1×", "1.1×", "1.25×"]);
        assert_eq!(labels(1.6), ["0.63×", "0.83×", "1×", "1.2×", "1.6×"]);
        assert_eq!(labels(1.000001)[3..], ["1.0000005×", "1.000001×"]);
        for limit in [1.0001, 1.003, 1.04, 1.25, 1.33, 1.7, 2.0] {
            let ticks = scale(limit).ticks(Clipping::default());
            assert_eq!(ticks.len(), 5, "{limit}");
            for pair in ticks.windows(2) {
                assert!(pair[0].position < pair[1].position);
                assert_ne!(pair[0].label, pair[1].label);
            }
        }
        assert_eq!(scale(1.25).range_words(), "0.8× to 1.25×");
        assert_eq!(format_factor(0.5), "0.5×");
        assert_eq!(format_factor(2.0), "2×");
    }
}

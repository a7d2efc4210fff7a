//! The series colours: twelve that each stand out on a white page.
//!
//! `plotters`' `Palette99` has pale colours early in its list (its third is yellow, then cyan,
//! lime, pink, lavender, beige): a chart with three series or more drew one of them faintly. Each
//! colour here has a contrast of at least 3 to 1 against white (the WCAG threshold for graphics),
//! and the first ones are the most apart from one another. Series past the twelfth reuse them
//! in order.

use plotters::style::RGBColor;

/// The series colours, in the order series take them.
pub(crate) const SERIES_COLOURS: [RGBColor; 12] = [
    RGBColor(0x1f, 0x77, 0xb4), // blue
    RGBColor(0xd6, 0x27, 0x28), // red
    RGBColor(0x2c, 0xa0, 0x2c), // green
    RGBColor(0xe6, 0x61, 0x00), // orange
    RGBColor(0x94, 0x67, 0xbd), // purple
    RGBColor(0x8c, 0x56, 0x4b), // brown
    RGBColor(0xc2, 0x18, 0x8b), // magenta
    RGBColor(0x5f, 0x5f, 0x5f), // grey
    RGBColor(0x80, 0x80, 0x00), // olive
    RGBColor(0x00, 0x83, 0x8f), // teal
    RGBColor(0x00, 0x00, 0x00), // black
    RGBColor(0x1a, 0x23, 0x7e), // navy
];

/// The colour of series `i` (0 first).
pub(crate) fn series_colour(i: usize) -> RGBColor {
    SERIES_COLOURS[i % SERIES_COLOURS.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG's relative luminance of an sRGB colour.
    fn luminance(c: RGBColor) -> f64 {
        let linear = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.039_28 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * linear(c.0) + 0.7152 * linear(c.1) + 0.0722 * linear(c.2)
    }

    #[test]
    fn every_colour_stands_out_on_white() {
        for (i, &c) in SERIES_COLOURS.iter().enumerate() {
            let contrast = 1.05 / (luminance(c) + 0.05);
            assert!(
                contrast >= 3.0,
                "colour {i} {c:?}: contrast {contrast:.2} against white"
            );
        }
    }

    #[test]
    fn the_colours_are_distinct_and_cycle() {
        for (i, a) in SERIES_COLOURS.iter().enumerate() {
            for b in &SERIES_COLOURS[i + 1..] {
                let apart = [(a.0, b.0), (a.1, b.1), (a.2, b.2)]
                    .iter()
                    .map(|&(x, y)| u32::from(x.abs_diff(y)))
                    .sum::<u32>();
                assert!(apart >= 60, "{a:?} and {b:?} are too close ({apart})");
            }
        }
        assert_eq!(series_colour(12), series_colour(0));
        assert_eq!(series_colour(3), SERIES_COLOURS[3]);
    }
}

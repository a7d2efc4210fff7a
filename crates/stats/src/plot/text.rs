//! Text measures and tick labels shared by the charts.
//!
//! An SVG file does not know the width of its text (the viewer's font decides), so layouts use
//! a conservative estimate, [`char_em`]: at least the width of the character in the usual
//! sans-serif fonts (DejaVu Sans, Liberation Sans, Helvetica).

/// Estimated width of character `c`, in ems of the font size written to the SVG file: 1 for
/// the widest (`W`, `M`, `m`, `w`, `%`, `@`), 0.8 for other capitals, 0.7 for the rest (DejaVu
/// Sans: lower case about 0.6, digits 0.64).
pub(super) fn char_em(c: char) -> f64 {
    match c {
        'W' | 'M' | 'm' | 'w' | '%' | '@' => 1.0,
        c if c.is_uppercase() => 0.8,
        _ => 0.7,
    }
}

/// Height of one line of text, in ems.
pub(super) const LINE_EM: f64 = 1.25;

/// The SVG font size (pixels) plotters writes for a font of size `size`: `size / 1.24`.
pub(super) fn font_px(size: f64) -> f64 {
    size / 1.24
}

/// The estimated width in pixels of `text` at font size `size`.
pub(super) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().map(char_em).sum::<f64>() * font_px(size)
}

/// `text` broken into lines no wider than `budget` pixels at font size `size`, at break points
/// (after `-`, `/`, `:`, `=`, `,` or `_`, and at spaces); `None` when a piece between two break
/// points is wider than `budget` by itself.
pub(super) fn wrap(text: &str, size: f64, budget: f64) -> Option<Vec<String>> {
    // The pieces, each with whether a space went before it.
    let mut pieces: Vec<(String, bool)> = Vec::new();
    let mut piece = String::new();
    let mut spaced = false;
    for c in text.chars() {
        if c == ' ' {
            if !piece.is_empty() {
                pieces.push((std::mem::take(&mut piece), spaced));
            }
            spaced = true;
            continue;
        }
        piece.push(c);
        if matches!(c, '-' | '/' | ':' | '=' | ',' | '_') {
            pieces.push((std::mem::take(&mut piece), spaced));
            spaced = false;
        }
    }
    if !piece.is_empty() {
        pieces.push((piece, spaced));
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for (piece, spaced) in pieces {
        if text_width(&piece, size) > budget {
            return None;
        }
        let joined = match (line.is_empty(), spaced) {
            (true, _) => piece.clone(),
            (false, true) => format!("{line} {piece}"),
            (false, false) => format!("{line}{piece}"),
        };
        if text_width(&joined, size) <= budget {
            line = joined;
        } else {
            lines.push(std::mem::replace(&mut line, piece));
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    Some(lines)
}

/// Whether every finite value is an integer (and there is at least one).
pub(super) fn integral(values: impl Iterator<Item = f64>) -> bool {
    let mut any = false;
    for v in values.filter(|v| v.is_finite()) {
        if v.fract() != 0.0 {
            return false;
        }
        any = true;
    }
    any
}

/// How many tick labels to ask of plotters over `low..high`: `max`, or for integral data at
/// most one a unit, so that every tick (a multiple of 1, 2 or 5 times a power of ten) falls on
/// an integer.
pub(super) fn tick_count(integral: bool, low: f64, high: f64, max: usize) -> usize {
    if integral {
        let units = (high - low).max(0.0).floor() as usize + 1;
        units.clamp(2, max)
    } else {
        max
    }
}

/// A tick label: the value with its trailing zeros trimmed (`20`, `0.55`, never `20.0`); on an
/// integral axis, integers only (a non-integer tick, which [`tick_count`] avoids, stays blank).
pub(super) fn tick_label(integral: bool, v: f64) -> String {
    if integral {
        let r = v.round();
        return if (v - r).abs() < 1e-9 {
            format!("{}", r as i64)
        } else {
            String::new()
        };
    }
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}
